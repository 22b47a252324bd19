"""Every sample: valid, lossless through JSON, canonical; every invalid sample gives
exactly the diagnostics written beside it; Lark's own parser agrees with zrec's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lark_reference import reference_games
from zrec import read_records, read_string, write_game
from zrec.check.validate import validate_records
from zrec.cli import app
from zrec.notation.json.schema import check_game
from zrec.notation.json.values import game_from_json, game_to_json
from zrec.notation.model import Game

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").glob("*.zrec"))
INVALID = sorted((ROOT / "samples" / "invalid").glob("*.zrec"))
# the records the guides import (docs/archive.md, docs/tournaments.md)
GUIDES = sorted(p for p in (ROOT / "samples").glob("*/*.zrec") if p.parent.name != "invalid")


def games_of(path: Path) -> list[Game]:
    records = list(read_records(path))
    assert records and all(r.game is not None for r in records), records
    return [r.game for r in records if r.game is not None]


def test_there_is_a_sample_of_every_game() -> None:
    kinds = {g.game_type for p in SAMPLES for g in games_of(p)}
    assert kinds == {"mosona", "kolowis", "stone-warriors", "awethi"}
    names = {p.name for p in SAMPLES}
    assert {"culin-opening.zrec", "mosona-open.zrec", "mosona-bent.zrec"} <= names


@pytest.mark.parametrize(
    "path",
    SAMPLES + GUIDES,
    ids=lambda p: p.relative_to(ROOT / "samples").as_posix(),
)
def test_sample_validates(path: Path) -> None:
    reports = list(validate_records(read_records(path), path.name))
    for report in reports:
        assert report.valid, [d.format() for d in report.diagnostics]
        if report.checked:
            # a sample may say how a game ended off the board (info), nothing more
            assert [d for d in report.diagnostics if d.severity != "info"] == []
        else:
            assert [d.code for d in report.diagnostics] == ["not-checked"]


@pytest.mark.parametrize(
    "path",
    SAMPLES + GUIDES,
    ids=lambda p: p.relative_to(ROOT / "samples").as_posix(),
)
def test_sample_json_round_trip_and_fmt(path: Path) -> None:
    for game in games_of(path):
        first = game_to_json(game)
        check_game(first)
        text = write_game(game_from_json(json.loads(json.dumps(first))))
        (again,) = [r.game for r in read_string(text)]
        assert again is not None
        assert game_to_json(again) == first
        assert write_game(again) == text  # fmt(fmt(x)) == fmt(x)
    canonical = "\n".join(write_game(g) for g in games_of(path))
    assert path.read_text(encoding="utf-8") == canonical, "samples are kept in canonical form"


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_invalid_sample_gives_exactly_its_expected_output(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``CODE.expected`` is, byte for byte, what ``zrec validate samples/invalid/CODE.zrec``
    prints in the project's folder (docs/validate.md says so), summary line included."""
    monkeypatch.chdir(ROOT)
    name = f"samples/invalid/{path.name}"
    result = CliRunner().invoke(app, ["validate", name])
    expected = path.with_suffix(".expected").read_text(encoding="utf-8")
    assert result.stdout == expected
    assert result.exit_code == (1 if ", 0 invalid," not in expected else 0)
    found = expected.splitlines()[:-1]
    assert found, "every invalid sample shows at least one diagnostic"
    assert any(f"[{path.stem}]" in line for line in found), "the file is named after its code"
    assert re.fullmatch(r"\d+ games? read, .*", expected.splitlines()[-1])


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_lark_own_parser_reads_every_sample_the_same(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    ours = games_of(path)
    theirs = reference_games(text)
    assert theirs == ours


@pytest.mark.parametrize("name", ["syntax", "missing-result", "truncated", "unclosed-comment"])
def test_lark_own_parser_rejects_the_broken_samples(name: str) -> None:
    from lark.exceptions import UnexpectedInput

    text = (ROOT / "samples" / "invalid" / f"{name}.zrec").read_text(encoding="utf-8")
    with pytest.raises(UnexpectedInput):
        reference_games(text)
