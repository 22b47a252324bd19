"""One way in: an input (bytes or a stream) is told JSON or zrec text in one place
(:mod:`zrec.notation.inputs`), read, and checked (:mod:`zrec.check.inputs`) as
``zrec validate`` checks it; the command line reads its inputs that way."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zrec.check.inputs import validate_input
from zrec.cli import app
from zrec.notation.errors import SyntaxProblem
from zrec.notation.inputs import read_input, tell
from zrec.notation.json.convert import JsonRecord
from zrec.notation.records import Record

GAME = '[Game "mosona"]\n[Event "E"]\n\n1. b6-b5 b4xb6 *\n'
#: an illegal second move (b4 does not reach b2)
BAD = '[Game "mosona"]\n\n1. b6-b5 b4-b2 *\n'
JSON_OK = json.dumps({"tags": [["Game", "mosona"]], "moves": [], "result": "*"}).encode()
JSON_GAME = json.dumps({"tags": {"Game": "mosona"}, "moves": [{"move": 5}], "result": "*"})


class _Pipe(io.RawIOBase):
    """A stream that cannot seek, giving a few bytes a read (as a pipe may)."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self.data = data

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        size = min(len(buffer), 3, len(self.data))
        buffer[:size], self.data = self.data[:size], self.data[size:]
        return size


@pytest.mark.parametrize(
    ("data", "file", "is_json"),
    [
        (GAME.encode(), "-", False),
        (GAME.encode(), "g.zrec", False),
        (JSON_GAME.encode(), "-", True),
        (b"  \xef\xbb\xbf[\n", "-", False),  # (a BOM only counts at the start)
        (b"\xef\xbb\xbf[\n{}]", "-", True),
        (GAME.encode(), "g.json", True),  # the name says so
    ],
)
def test_bytes_and_streams_are_told_apart_the_same_way(
    data: bytes, file: str, is_json: bool
) -> None:
    told, stream = tell(data, file)
    assert (told, stream.read()) == (is_json, data)
    told, stream = tell(io.BufferedReader(_Pipe(data)), file)
    assert (told, stream.read()) == (is_json, data)


def test_an_input_s_records_are_the_same_from_bytes_or_a_stream() -> None:
    for data, kind in ((GAME + BAD).encode(), Record), (JSON_GAME.encode(), JsonRecord):
        whole = list(read_input(data, "-"))
        piped = list(read_input(io.BufferedReader(_Pipe(data)), "-"))
        assert whole == piped
        assert {type(r) for r in whole} == {kind}


def _cli_lines(data: bytes, *options: str) -> list[str]:
    """What ``zrec validate`` prints of each problem of ``data`` (standard input)."""
    result = CliRunner().invoke(app, ["validate", *options, "-"], input=data)
    assert result.exit_code == 1, result.output
    return result.stdout.splitlines()[:-1]  # (without the count)


def _lines(data: bytes, reading: dict[str, str] | None = None) -> list[str]:
    """The same, from :func:`validate_input`."""
    checked = validate_input(data, "-", reading=reading)
    return "\n".join(d.format() for c in checked for d in c.report.diagnostics).splitlines()


@pytest.mark.parametrize("data", [(GAME + BAD).encode(), JSON_GAME.encode(), b"[\n  {,"])
def test_validate_input_reports_what_zrec_validate_reports(data: bytes) -> None:
    lines = _lines(data)
    assert lines == _cli_lines(data)
    assert lines[0].startswith("<stdin>:")


def test_validate_input_reads_with_the_options_given() -> None:
    data = GAME.encode()
    lines = _lines(data, {"Jumps": "bent"})
    assert lines == _cli_lines(data, "-O", "Jumps=bent")
    assert "b6-b5 is illegal: a capture is compulsory here" in lines[0]
    assert _lines(data) == []


def test_a_record_is_checked_once_and_named_as_its_input() -> None:
    (checked,) = validate_input(BAD.encode(), "x.zrec")
    assert checked.record.game is not None and checked.name == "x.zrec"
    assert checked.report is checked.report
    assert [d.code for d in checked.report.diagnostics] == ["illegal-move"]


# -- one problem type: a game that cannot be read, from text or from JSON ---------------


@pytest.mark.parametrize(
    ("data", "place", "message"),
    [
        (b'[Game "mosona"]\n\n1. b6-b5 )) *\n', (3, 10), "found ')' (')' closing the variation)"),
        (b"[\n  {,", (2, 4), "not valid JSON: Expecting property name enclosed in double"),
        (b'{"tags": 1}', (1, 1), "$: 'moves' is a required property"),
        (JSON_OK + b'\n{"tags": 1}\n', (2, 1), "$: 'moves' is a required property"),
    ],
)
def test_a_game_that_cannot_be_read_has_a_syntax_problem_in_either_form(
    data: bytes, place: tuple[int, int], message: str
) -> None:
    problems = [r.problem for r in read_input(data, "in.x") if r.problem is not None]
    assert len(problems) == 1 and isinstance(problems[0], SyntaxProblem)
    assert (problems[0].line, problems[0].column, problems[0].file) == (*place, "in.x")
    assert problems[0].message.startswith(message), problems[0].message
    assert problems[0].format().startswith(f"in.x:{place[0]}:{place[1]}: {message}")


def test_readings_and_fit_name_the_place_of_a_json_game_that_cannot_be_read(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.json"
    path.write_text('[{"tags": 1}]')
    result = CliRunner().invoke(app, ["readings", str(path)])
    assert result.exit_code == 1
    said = f"{path}:1:1: $[0]: 'moves' is a required property"
    assert result.stdout == f"game 1 (line 1)\n  {said}\n"
    result = CliRunner().invoke(app, ["readings", "--fit", str(path)])
    assert f"left out: {path}: {said}" in result.stderr
