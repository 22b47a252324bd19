"""The command line's inputs: standard input read once, JSON told from zrec text, and
``validate`` reading JSON as well as text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from zrec.cli import app

runner = CliRunner()
GAME = '[Game "mosona"]\n[Event "E"]\n\n1. b6-b5 b4xb6 *\n'  # canonical
TWO = '[Game "mosona"]\n1. b6-b5 c5-b6 *\n[Game "mosona"]\n1. a4-b5 c5xa4 *\n'


def invoke(*args: str, stdin: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=stdin)


def as_json(text: str, *extra: str) -> str:
    result = invoke("convert", "-", "--to", "json", *extra, stdin=text)
    assert result.exit_code == 0, result.stderr
    return result.stdout


# -- 1. standard input is read once ------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "stdout"),
    [
        (["validate", "-", "-"], "1 game read, 1 valid, 0 invalid, 0 warnings\n"),
        (["fmt", "-", "-"], GAME),
        (["convert", "-", "-", "--to", "zrec"], GAME),
    ],
)
def test_standard_input_named_twice_is_read_once(args: list[str], stdout: str) -> None:
    result = invoke(*args, stdin=GAME)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert (result.exit_code, result.stdout, result.stderr) == (0, stdout, "")


def test_standard_input_is_read_once_among_files(tmp_path: Path) -> None:
    path = tmp_path / "g.zrec"
    path.write_text(GAME)
    result = invoke("validate", "-", str(path), "-", stdin=GAME)
    assert result.exit_code == 0
    assert result.stdout == "2 games read, 2 valid, 0 invalid, 0 warnings\n"


def test_help_says_standard_input_is_read_once() -> None:
    for command in ("validate", "fmt", "convert", "show"):
        text = " ".join(invoke(command, "--help").stdout.replace("│", " ").split())
        assert "read once, however often it is named" in text, command


# -- 2. convert tells JSON from zrec text ------------------------------------------------


def test_convert_reads_json_on_standard_input() -> None:
    result = invoke("convert", "-", "--to", "zrec", stdin=as_json(GAME))
    assert (result.exit_code, result.stdout, result.stderr) == (0, GAME, "")


def test_convert_reads_json_lines_on_standard_input() -> None:
    result = invoke("convert", "-", "--to", "zrec", stdin=as_json(GAME + GAME, "--jsonl"))
    assert (result.exit_code, result.stdout) == (0, GAME + "\n" + GAME)


def test_convert_reads_one_game_object_spread_over_lines() -> None:
    one = json.dumps(json.loads(as_json(GAME))[0], indent=2)
    result = invoke("convert", "-", "--to", "zrec", stdin=one + "\n" + one)
    assert (result.exit_code, result.stdout) == (0, GAME + "\n" + GAME)


@pytest.mark.parametrize("text", [GAME, "  \n" + GAME, '[ Game "mosona"]\n\n1. b6-b5 b4xb6 *\n'])
def test_zrec_text_on_standard_input_stays_text(text: str) -> None:
    result = invoke("convert", "-", "--to", "json", stdin=text)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)[0]["moves"][1]["move"] == "b4xb6"


@pytest.mark.parametrize("text", ["{a comment} 1. b6-b5 *\n", '{"quoted" words} 1. b6-b5 *\n'])
def test_a_comment_first_is_read_as_zrec_text(text: str) -> None:
    result = invoke("convert", "-", "--to", "json", stdin=text)
    assert result.exit_code == 1
    assert result.stderr.startswith('-:1:1: the game has no [Game "..."] tag')
    assert "JSON" not in result.stderr


def test_convert_json_in_a_file_not_named_json(tmp_path: Path) -> None:
    path = tmp_path / "games.txt"
    path.write_text(as_json(GAME))
    result = invoke("convert", str(path), "--to", "zrec")
    assert (result.exit_code, result.stdout) == (0, GAME)


def test_forcing_zrec_on_json_says_it_looks_like_json() -> None:
    result = invoke("convert", "-", "--from", "zrec", "--to", "json", stdin=as_json(GAME))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines()[-2:] == [
        "zrec: standard input looks like JSON, not zrec text: read it with --from json "
        "(or leave out --from)",
        "zrec: nothing written: fix the games above first",
    ]


def test_forcing_json_on_zrec_text_says_it_looks_like_text() -> None:
    result = invoke("convert", "-", "--from", "json", "--to", "zrec", stdin=GAME)
    assert result.exit_code == 1
    assert result.stderr == (
        "zrec: -: not valid JSON: Expecting value: line 1 column 2 (char 1)\n"
        "zrec: standard input looks like zrec text, not JSON: read it with --from zrec "
        "(or leave out --from)\n"
    )


def test_convert_several_files_into_one_output(tmp_path: Path) -> None:
    text = tmp_path / "a.zrec"
    text.write_text(GAME)
    data = tmp_path / "b.json"
    data.write_text(as_json(TWO))
    result = invoke("convert", str(text), str(data), "--to", "zrec")
    assert result.exit_code == 0
    assert result.stdout == invoke("fmt", "-", stdin=GAME + TWO).stdout
    result = invoke("convert", str(text), str(data), "--to", "json")
    assert [g["moves"][1]["move"] for g in json.loads(result.stdout)] == [
        "b4xb6",
        "c5-b6",
        "c5xa4",
    ]


def test_convert_stops_before_writing_when_a_later_file_cannot_be_read(
    tmp_path: Path,
) -> None:
    text = tmp_path / "a.zrec"
    text.write_text(GAME)
    out = tmp_path / "out.json"
    result = invoke("convert", str(text), "/no/such.zrec", "--to", "json", "-o", str(out))
    assert result.exit_code == 2
    assert result.stderr == "zrec: cannot read /no/such.zrec: No such file or directory\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.zrec"]


# -- 8. validate reads JSON --------------------------------------------------------------


def test_validate_json_gives_the_diagnostics_of_the_same_text(tmp_path: Path) -> None:
    text = tmp_path / "g.zrec"
    text.write_text(TWO)
    data = tmp_path / "g.json"
    data.write_text(as_json(TWO))
    result = invoke("validate", str(data))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{data}:1:1: error[illegal-move] game 1, ply 2: move 1 (Black): c5-b6 is illegal: "
        "a capture is compulsory here; legal moves: b4xb6",
        "2 games read, 1 valid, 1 invalid, 0 warnings",
    ]

    def found(path: Path) -> list[dict[str, object]]:
        document = json.loads(invoke("validate", "--format", "json", str(path)).stdout)
        diagnostics: list[dict[str, object]] = document["diagnostics"]
        for diagnostic in diagnostics:
            del diagnostic["file"], diagnostic["line"], diagnostic["column"]
        return diagnostics

    assert found(data) == found(text) != []


def test_validate_json_on_standard_input_and_json_lines(tmp_path: Path) -> None:
    result = invoke("validate", "-", stdin=as_json(TWO))
    assert result.stdout.splitlines()[0].startswith("<stdin>:1:1: error[illegal-move] game 1")
    lines = tmp_path / "g.jsonl"
    lines.write_text("\n" + as_json(GAME + TWO, "--jsonl"))
    result = invoke("validate", str(lines))
    assert result.exit_code == 1
    # a game of JSON Lines is placed at its line
    assert result.stdout.splitlines()[0].startswith(f"{lines}:3:1: error[illegal-move] game 2,")


def test_validate_reports_json_that_fails_the_schema(tmp_path: Path) -> None:
    good = json.loads(as_json(GAME))[0]
    bad = {"tags": [["Game", "mosona"]], "moves": [{"move": 5}], "result": "*"}
    path = tmp_path / "g.json"
    path.write_text(json.dumps([bad, good]))
    result = invoke("validate", str(path))
    assert (result.exit_code, result.stderr) == (1, "")
    assert result.stdout.splitlines() == [
        f"{path}:1:1: error[syntax] game 1: $[0].moves[0].move: 5 is not of type 'string'",
        "2 games read, 1 valid, 1 invalid, 0 warnings",
    ]


@pytest.mark.parametrize(
    ("content", "line"),
    [
        (
            "[\n  {,",
            "2:4: error[syntax] game 1: not valid JSON: Expecting property name "
            "enclosed in double quotes: line 2 column 4 (char 5)",
        ),
        (
            "[" * 100_000 + "]" * 100_000,
            "1:1: error[syntax] game 1: not valid JSON: it is nested too deeply",
        ),
        ('{"tags": 1}', "1:1: error[syntax] game 1: $: 'moves' is a required property"),
    ],
)
def test_validate_reports_malformed_json_without_a_traceback(
    tmp_path: Path, content: str, line: str
) -> None:
    path = tmp_path / "g.json"
    path.write_text(content)
    result = invoke("validate", str(path))
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == f"{path}:{line}"


def test_validate_help_documents_json() -> None:
    text = " ".join(invoke("validate", "--help").stdout.replace("│", " ").split())
    assert "line 1, column 1" in text and ".json" in text
