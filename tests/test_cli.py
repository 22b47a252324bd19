"""The command line: help everywhere, exit codes, and files never half-written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from kernels import compiled
from zrec import __version__
from zrec.cli import app
from zrec.rules.kernel import describe

runner = CliRunner()
GOOD = '[Game "mosona"]\n[Event "E"]\n1.  b6-b5   b4xb6 {centre taken} *\n'
BROKEN = '[Game "mosona"]\n1. b6-b5 zz9 *\n[Game "mosona"]\n1. a4-b5 c5xa4 *\n'


def invoke(*args: str, stdin: str | None = None):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args), input=stdin)


def commands() -> list[str]:
    group = get_command(app)
    return sorted(group.commands)  # type: ignore[attr-defined]


def test_every_command_has_help() -> None:
    assert {"fmt", "convert", "schema", "validate", "show", "random"} <= set(commands())
    for name in commands():
        result = invoke(name, "--help")
        assert result.exit_code == 0, name
        assert "Usage: zrec " + name in result.stdout


def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.stdout == f"zrec {__version__} ({describe()})\n"


def test_version_names_the_kernel_in_use(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled("zrec.rules.serpent")
    monkeypatch.delenv("ZREC_KERNEL", raising=False)  # (the suite may run with it at 0)
    assert invoke("--version").stdout.startswith(f"zrec {__version__} (rules kernel: C (")
    assert "serpent" in invoke("--version").stdout
    monkeypatch.setenv("ZREC_KERNEL", "0")
    assert invoke("--version").stdout == (
        f"zrec {__version__} (rules kernel: none (ZREC_KERNEL=0), the Python engines)\n"
    )


def test_fmt_prints_canonical_text(tmp_path: Path) -> None:
    path = tmp_path / "g.zrec"
    path.write_text(GOOD)
    result = invoke("fmt", str(path))
    assert result.exit_code == 0
    assert result.stdout == ('[Game "mosona"]\n[Event "E"]\n\n1. b6-b5 b4xb6 {centre taken} *\n')


def test_fmt_reads_standard_input() -> None:
    result = invoke("fmt", "-", stdin=GOOD)
    assert result.exit_code == 0
    assert result.stdout.endswith("1. b6-b5 b4xb6 {centre taken} *\n")


def test_fmt_check_and_in_place(tmp_path: Path) -> None:
    path = tmp_path / "g.zrec"
    path.write_text(GOOD)
    assert invoke("fmt", "--check", str(path)).exit_code == 1
    assert invoke("fmt", "-i", str(path)).exit_code == 0
    assert invoke("fmt", "--check", str(path)).exit_code == 0
    assert path.read_text().startswith('[Game "mosona"]\n[Event "E"]\n\n1. b6-b5')


def test_fmt_with_a_broken_game_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "g.zrec"
    path.write_text(BROKEN)
    out = tmp_path / "out.zrec"
    out.write_text("keep me")
    result = invoke("fmt", str(path), "-o", str(out))
    assert result.exit_code == 1
    assert "found 'zz9'" in result.stderr
    assert "nothing written" in result.stderr
    assert out.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.zrec", "out.zrec"]
    assert invoke("fmt", "-i", str(path)).exit_code == 1
    assert path.read_text() == BROKEN


def test_unreadable_file_is_exit_2() -> None:
    result = invoke("fmt", "/no/such/file.zrec")
    assert result.exit_code == 2
    assert result.stderr.startswith("zrec: cannot read /no/such/file.zrec:")
    assert invoke("validate", "/no/such/file.zrec").exit_code == 2


def test_bad_usage_is_exit_2() -> None:
    assert invoke("convert", "x.zrec").exit_code == 2  # --to is required
    assert invoke("nonsense").exit_code == 2


def test_convert_to_json_and_back(tmp_path: Path) -> None:
    path = tmp_path / "g.zrec"
    path.write_text(GOOD + GOOD)
    result = invoke("convert", str(path), "--to", "json")
    assert result.exit_code == 0
    games = json.loads(result.stdout)
    assert len(games) == 2
    assert games[0]["tags"] == [["Game", "mosona"], ["Event", "E"]]
    assert games[0]["moves"][1]["comments_after"] == [{"text": "centre taken", "kind": "brace"}]
    json_path = tmp_path / "g.json"
    json_path.write_text(result.stdout)
    back = invoke("convert", str(json_path), "--to", "zrec")
    assert back.exit_code == 0
    assert back.stdout == invoke("fmt", str(path)).stdout


def test_convert_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "g.zrec"
    path.write_text(GOOD + GOOD)
    result = invoke("convert", str(path), "--to", "json", "--jsonl")
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and json.loads(lines[1])["result"] == "*"
    jsonl = tmp_path / "g.jsonl"
    jsonl.write_text(result.stdout)
    assert invoke("convert", str(jsonl), "--to", "zrec").exit_code == 0


def test_bad_json_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(
        json.dumps([{"tags": [["Game", "mosona"]], "moves": [{"move": 5}], "result": "*"}])
    )
    result = invoke("convert", str(path), "--to", "zrec")
    assert result.exit_code == 1
    assert result.stderr == f"zrec: {path}: $[0].moves[0].move: 5 is not of type 'string'\n"


def test_schema_command_prints_the_schema() -> None:
    result = invoke("schema")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_validate_exit_codes_and_summary(tmp_path: Path) -> None:
    good = tmp_path / "good.zrec"
    good.write_text('[Game "mosona"]\n1. b6-b5 b4xb6 *\n')
    result = invoke("validate", str(good))
    assert result.exit_code == 0
    assert result.stdout == "1 game read, 1 valid, 0 invalid, 0 warnings\n"
    bad = tmp_path / "bad.zrec"
    bad.write_text('[Game "mosona"]\n1. b6-b5 c5-b6 *\n[Game "mosona"]\n1. a4-b5 c5xa4 *\n')
    result = invoke("validate", str(bad))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{bad}:2:10: error[illegal-move] game 1, ply 2: move 1 (Black): c5-b6 is illegal: "
        "a capture is compulsory here; legal moves: b4xb6",
        "2 games read, 1 valid, 1 invalid, 0 warnings",
    ]


def test_validate_json_format(tmp_path: Path) -> None:
    bad = tmp_path / "bad.zrec"
    bad.write_text('[Game "chess"]\n1. e2-e4 *\n')
    result = invoke("validate", "--format", "json", str(bad))
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    (diagnostic,) = document["diagnostics"]
    assert diagnostic["code"] == "unknown-game"
    assert diagnostic["severity"] == "error"
    assert (diagnostic["file"], diagnostic["game"], diagnostic["line"]) == (str(bad), 1, 1)
    assert document["summary"]["invalid"] == 1


def test_random_is_deterministic_by_seed() -> None:
    one = invoke("random", "--game", "mosona", "--count", "2", "--seed", "7")
    two = invoke("random", "--game", "mosona", "--count", "2", "--seed", "7")
    other = invoke("random", "--game", "mosona", "--count", "2", "--seed", "8")
    assert one.exit_code == 0
    assert one.stdout == two.stdout != other.stdout
    assert one.stdout.count('[Game "mosona"]') == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "chess"], "names no game zrec knows"),
        (["--game", "mosona", "-O", "Jumps=diagonal"], "'diagonal' is not a value of Jumps"),
        (["--game", "mosona", "-O", "Jumps"], "--option takes Tag=value"),
    ],
)
def test_random_errors(args: list[str], message: str) -> None:
    result = invoke("random", *args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_show_prints_the_position_and_legal_moves(tmp_path: Path) -> None:
    path = tmp_path / "g.zrec"
    path.write_text('[Game "mosona"]\n1. a5-b5 *\n')
    result = invoke("show", str(path))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == "Legal moves (2): c4xa5, c6xa5"
    assert "Move 1, Black to move." in result.stdout
    assert invoke("show", str(path), "--ply", "5").exit_code == 2  # bad usage, as --game
    assert invoke("show", str(path), "--game", "3").exit_code == 2


def test_show_stops_before_a_later_illegal_move(tmp_path: Path) -> None:
    path = tmp_path / "g.zrec"
    path.write_text('[Game "mosona"]\n1. b6-b5 c5-b6 *\n')
    result = invoke("show", str(path), "--ply", "1")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == "Legal moves (1): b4xb6"
    assert invoke("show", str(path)).exit_code == 1


def test_written_files_get_ordinary_permissions(tmp_path: Path) -> None:
    import os
    import stat

    source = tmp_path / "g.zrec"
    source.write_text(GOOD)
    out = tmp_path / "out.zrec"
    assert invoke("fmt", str(source), "-o", str(out)).exit_code == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask
    source.chmod(0o640)
    assert invoke("fmt", "-i", str(source)).exit_code == 0
    assert stat.S_IMODE(source.stat().st_mode) == 0o640


@pytest.mark.parametrize(
    "args",
    [
        ["fmt", "{good}", "-o", "/nonexistent/x.zrec"],
        ["fmt", "{good}", "-o", "{dir}"],
        ["convert", "{good}", "--to", "json", "-o", "/nonexistent/x.json"],
        ["random", "--game", "mosona", "-o", "/nonexistent/x.zrec"],
    ],
)
def test_an_output_that_cannot_be_written_is_exit_2(tmp_path: Path, args: list[str]) -> None:
    good = tmp_path / "g.zrec"
    good.write_text(GOOD)
    result = invoke(*(a.format(good=good, dir=tmp_path) for a in args))
    assert result.exit_code == 2
    assert result.stderr.startswith("zrec: cannot write ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.zrec"]


def test_fmt_check_reads_standard_input() -> None:
    canonical = invoke("fmt", "-", stdin=GOOD).stdout
    assert invoke("fmt", "--check", "-", stdin=canonical).exit_code == 0
    assert invoke("fmt", "--check", "-", stdin=GOOD).exit_code == 1


def test_validate_goes_on_after_a_file_it_cannot_read(tmp_path: Path) -> None:
    good = tmp_path / "g.zrec"
    good.write_text('[Game "mosona"]\n1. b6-b5 b4xb6 *\n')
    result = invoke("validate", "/no/such.zrec", str(good))
    assert result.exit_code == 2
    assert result.stderr == "zrec: cannot read /no/such.zrec: No such file or directory\n"
    assert result.stdout == "1 game read, 1 valid, 0 invalid, 0 warnings\n"


def test_variations_nested_too_deep_are_refused_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "deep.zrec"
    path.write_text('[Game "mosona"]\n1. b6-b5 ' + "(1. a4-b5 " * 51 + ")" * 51 + " *\n")
    result = invoke("validate", str(path))
    assert result.exit_code == 1
    assert "variations are nested more than 50 deep here" in result.stdout
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    result = invoke("convert", str(deep), "--to", "zrec")
    assert result.exit_code == 1
    assert result.stderr == f"zrec: {deep}: not valid JSON: it is nested too deeply\n"


def test_control_characters_in_a_record_still_give_well_formed_svg(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    path = tmp_path / "g.zrec"
    path.write_text('[Game "mosona"]\n[Event "x\x01y"]\n1. b6-b5 *\n')
    out = tmp_path / "g.svg"
    assert invoke("diagram", str(path), "--strip", "-o", str(out)).exit_code == 0
    title = ET.parse(out).getroot().find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text == "Awithlaknannai Mosona — x\ufffdy"


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (
            {"tags": [["Event", "x"]], "moves": [], "result": "*"},
            '$[0].tags: every game needs a ["Game", "..."] tag naming what game it records',
        ),
        (
            {
                "tags": [["Game", "mosona"]],
                "moves": [{"move": "b6-b5", "comments_after": [{"text": "a}b"}]}],
                "result": "*",
            },
            "$[0].moves[0].comments_after[0].text: a brace comment cannot contain '}'",
        ),
    ],
)
def test_json_errors_in_words(tmp_path: Path, game: dict[str, object], message: str) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps([game]))
    result = invoke("convert", str(path), "--to", "zrec")
    assert result.exit_code == 1
    assert result.stderr == f"zrec: {path}: {message}\n"
