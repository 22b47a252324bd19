"""No input, however broken, makes the reader or the validator raise."""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zrec.check.validate import validate_records
from zrec.notation.reader import read_records

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_TEXT = "\n".join(
    p.read_text(encoding="utf-8") for p in sorted((ROOT / "samples").glob("*.zrec"))
)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check(data: bytes) -> None:
    """Read and validate everything; every record is a game or one located problem."""
    for report in validate_records(read_records(io.BytesIO(data), "fuzz"), "fuzz"):
        for diagnostic in report.diagnostics:
            assert diagnostic.line >= 1 and diagnostic.column >= 1
            assert diagnostic.message


@SETTINGS
@given(st.binary(max_size=400))
def test_arbitrary_bytes(data: bytes) -> None:
    check(data)


@SETTINGS
@given(st.text(alphabet='[]{}();"\\ \n\r\t-x>@:.$!?*/0123456789abcPHGWB', max_size=300))
def test_text_made_of_the_notation_characters(text: str) -> None:
    check(text.encode("utf-8"))


@SETTINGS
@given(
    st.text(
        alphabet='[]{};"\\ \n-x0123456789abcGame*\u2013\u2014\u2212\u00d7\u201c\u201d\u201e\u00a0',
        max_size=300,
    )
)
def test_text_with_typographic_characters(text: str) -> None:
    check(('[Game "m"] ' + text).encode("utf-8"))


@SETTINGS
@given(st.data())
def test_samples_with_random_edits(data: st.DataObject) -> None:
    text = SAMPLE_TEXT
    for _ in range(data.draw(st.integers(1, 6))):
        where = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 12))
        insert = data.draw(st.text(alphabet='[]{}()";-x0123456789abcdefgP@ \n', max_size=6))
        text = text[:where] + insert + text[where + cut :]
    check(text.encode("utf-8"))
