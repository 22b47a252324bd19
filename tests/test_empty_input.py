"""One rule for a file with no game (empty, only white space, an empty JSON array),
in every command that reads games: ``zrec: FILE: no game in the file`` on standard
error; exit code 1 and nothing written when no file gives a game, a warning when other
files do.  A game number a file does not have stays a usage error (exit code 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from zrec.cli import app

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parents[1] / "samples"
GOOD = SAMPLES / "culin-opening.zrec"  # one valid game, in canonical form


def invoke(*args: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in args])


#: every command that reads games, with what it reads: "text" or also "json"
COMMANDS: dict[str, tuple[list[str], str]] = {
    "validate": (["validate", "{in}"], "json"),
    "validate --format json": (["validate", "--format", "json", "{in}"], "json"),
    "validate --jobs 2": (["validate", "--jobs", "2", "{in}"], "json"),
    "fmt": (["fmt", "{in}", "-o", "{out}/out.zrec"], "text"),
    "fmt --check": (["fmt", "--check", "{in}"], "text"),
    "fmt -i": (["fmt", "-i", "{in}"], "text"),
    "convert --to json": (["convert", "--to", "json", "{in}", "-o", "{out}/out.json"], "json"),
    "convert --to zrec": (["convert", "--to", "zrec", "{in}", "-o", "{out}/out.zrec"], "json"),
    "show": (["show", "{in}"], "text"),
    "diagram": (["diagram", "{in}", "-o", "{out}/out.svg"], "text"),
    "html": (["html", "{in}", "-o", "{out}/out.html"], "text"),
    "html --game 1": (["html", "--game", "1", "{in}", "-o", "{out}/out.html"], "text"),
    "readings": (["readings", "{in}"], "json"),
    "archive import": (["archive", "import", "--db", "{out}/a.sqlite", "{in}"], "json"),
    "archive search --position-after": (
        ["archive", "search", "--db", "{out}/a.sqlite", "--position-after", "{in}:0"],
        "text",
    ),
}

#: files with no game: name and content
NOTHING = {
    "empty.zrec": "",
    "blank.zrec": " \n\t\n\n",
    "empty.json": "",
    "blank.json": "\n  \n",
    "array.json": "[ ]\n",
    "empty.jsonl": "\n",
}


def _args(command: list[str], inputs: list[Path], out: Path) -> list[str]:
    args: list[str] = []
    for arg in command:
        if arg == "{in}":
            args += [str(i) for i in inputs]
        else:
            args.append(arg.replace("{in}", str(inputs[0])).replace("{out}", str(out)))
    return args


def _cases() -> list[tuple[str, str]]:
    return [
        (command, name)
        for command, (_, reads) in COMMANDS.items()
        for name in NOTHING
        if reads == "json" or not name.endswith((".jsonl", "array.json"))
    ]


@pytest.mark.parametrize(("command", "name"), _cases())
def test_a_file_with_no_game_is_named_and_exits_1(
    command: str, name: str, tmp_path: Path
) -> None:
    path = tmp_path / name
    path.write_text(NOTHING[name])
    out = tmp_path / "out"
    out.mkdir()
    if command.startswith("archive search"):
        assert invoke("archive", "import", "--db", out / "a.sqlite", GOOD).exit_code == 0
    before = sorted(p.name for p in out.iterdir())
    result = invoke(*_args(COMMANDS[command][0], [path], out))
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert f"zrec: {path}: no game in the file\n" in result.stderr
    assert "Traceback" not in result.stderr
    if command == "archive import":  # import makes the archive, and stores nothing
        assert result.stdout.startswith("0 games read from 1 file: 0 added,")
    else:
        assert sorted(p.name for p in out.iterdir()) == before  # nothing written
    assert path.read_text() == NOTHING[name]  # fmt -i leaves it as it is
    if command == "validate":
        assert result.stdout == "0 games read, 0 valid, 0 invalid, 0 warnings\n"


#: commands that work on every game of their files, with their output when a file with
#: no game comes after the good one (a warning, and the good file's games as usual)
ALL_GAMES = [
    "validate",
    "validate --jobs 2",
    "fmt",
    "fmt --check",
    "fmt -i",
    "convert --to json",
    "html",
    "archive import",
]


@pytest.mark.parametrize("command", ALL_GAMES)
def test_a_file_with_no_game_beside_others_is_a_warning(command: str, tmp_path: Path) -> None:
    good = tmp_path / "good.zrec"
    good.write_text(GOOD.read_text())
    empty = tmp_path / "empty.zrec"
    empty.write_text("")
    out = tmp_path / "out"
    out.mkdir()
    result = invoke(*_args(COMMANDS[command][0], [good, empty], out))
    assert result.exit_code == 0, (result.stdout, result.stderr)
    assert result.stderr.endswith(f"zrec: {empty}: no game in the file\n")
    assert "Traceback" not in result.stderr
    if command == "validate":
        assert result.stdout == "1 game read, 1 valid, 0 invalid, 0 warnings\n"
    if command == "fmt":
        assert (out / "out.zrec").read_text() == GOOD.read_text()


@pytest.mark.parametrize("command", ["show", "diagram"])
def test_one_game_of_each_file_a_file_with_no_game_exits_1(command: str, tmp_path: Path) -> None:
    empty = tmp_path / "empty.zrec"
    empty.write_text("")
    out = tmp_path / "out"
    out.mkdir()
    args: list[str | Path] = ["show", GOOD, empty]
    if command == "diagram":
        args = ["diagram", GOOD, empty, "-o", out]
    result = invoke(*args)
    assert result.exit_code == 1
    assert f"zrec: {empty}: no game in the file\n" in result.stderr
    assert list(out.iterdir()) == []  # diagram writes all its pictures or none


@pytest.mark.parametrize(
    "args",
    [
        ["show", "--game", "2", GOOD],
        ["diagram", "--game", "2", GOOD],
        ["html", "--game", "2", GOOD],
    ],
)
def test_a_game_the_file_does_not_have_is_a_usage_error_naming_the_file(
    args: list[str | Path],
) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.stderr == f"zrec: {GOOD}: there is no game 2 in the file (it has 1)\n"


def test_standard_input_with_no_game_is_named(tmp_path: Path) -> None:
    result = runner.invoke(app, ["validate", "-"], input="")
    assert result.exit_code == 1
    assert result.stderr == "zrec: <stdin>: no game in the file\n"
