"""Every command's ``--help`` reads well in an 80-column terminal: paragraphs wrapped to
the width (no line broken where the source's docstring was), no RST backticks; plain
value names (FILE, N), one vocabulary for --format, the commands in a newcomer's order,
and -o on every command that prints a result."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from zrec.cli import app

WIDTH = 80
SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "mosona-lined.zrec"


def command_paths() -> list[tuple[str, ...]]:
    """Every command and group of ``zrec``, as the words that name it."""
    found: list[tuple[str, ...]] = [()]

    def walk(group: Any, path: tuple[str, ...]) -> None:
        for name, command in sorted(group.commands.items()):
            found.append((*path, name))
            if hasattr(command, "commands"):  # a group
                walk(command, (*path, name))

    walk(get_command(app), ())
    return found


def help_text(path: tuple[str, ...]) -> str:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": str(WIDTH)})
    assert result.exit_code == 0, result.output
    return result.stdout


def description(text: str) -> list[str]:
    """The lines of the command's description: after the usage line, before the boxes."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("Usage:"))
    end = next((i for i, line in enumerate(lines) if line.startswith("╭")), len(lines))
    return [line.rstrip() for line in lines[start + 1 : end]]


@pytest.mark.parametrize("path", command_paths(), ids=lambda p: " ".join(("zrec", *p)))
def test_help_reads_well_at_80_columns(path: tuple[str, ...]) -> None:
    text = help_text(path)
    assert "`" not in text
    assert all(len(line) <= WIDTH for line in text.splitlines())
    lines = description(text)
    assert any(lines), "every command says what it does"
    for line, after in itertools.pairwise(lines):
        if not line or not after:
            continue
        # a line is cut only where the next word would not fit: not mid-phrase, as
        # "(0 is" / "is" / "the start)" was where the docstring had its own line breaks
        word = after.split()[0]
        assert len(line) + 1 + len(word) > WIDTH - 2, f"{line!r} is cut before {word!r}"


def test_every_option_help_is_one_paragraph() -> None:
    """Option help strings hold no hard line breaks: the table wraps them to its column."""
    group = get_command(app)
    for path in command_paths():
        command: Any = group
        for name in path:
            command = command.commands[name]
        for param in command.params:
            text = getattr(param, "help", None) or ""
            assert "\n" not in text and "`" not in text, (path, param.name)


def all_params() -> list[tuple[tuple[str, ...], Any]]:
    """Every parameter of every command, with the words that name its command."""
    group = get_command(app)
    found = []
    for path in command_paths():
        command: Any = group
        for name in path:
            command = command.commands[name]
        found += [(path, param) for param in command.params]
    return found


#: how typer labels a value by its Python type: <list[str]>, <int range>, <bool>, <file>
INTERNAL = re.compile(r"<[a-z][^>]*>|list\[")


@pytest.mark.parametrize("path", command_paths(), ids=lambda p: " ".join(("zrec", *p)))
def test_help_shows_plain_value_names(path: tuple[str, ...]) -> None:
    text = help_text(path)
    assert not INTERNAL.findall(text), INTERNAL.findall(text)


def test_every_format_says_the_same_values() -> None:
    """Output for people is ``text`` in every command (``human`` and ``table`` were
    used by some); each --format names its values, a|b|c; -O is TAG=VALUE everywhere."""
    formats = {path: param.metavar for path, param in all_params() if "--format" in param.opts}
    assert len(formats) >= 20
    for path, metavar in formats.items():
        values = metavar.split("|")
        assert len(values) >= 2 and all(re.fullmatch(r"[a-z]+", v) for v in values), path
        assert not {"human", "table"} & set(values), (path, metavar)
        if "json" in values and path[-1] not in ("export", "show", "analyse"):  # records
            assert "text" in values or values == ["pairs", "json"], (path, metavar)
    options = {param.metavar for _, param in all_params() if "-O" in param.opts}
    assert options == {"TAG=VALUE"}


def test_commands_are_listed_as_a_newcomer_needs_them() -> None:
    text = help_text(())
    listed = [line.split()[1] for line in text.splitlines()
              if line.startswith("│ ") and line.split()[1].isalpha()
              and line.split()[1] in get_command(app).commands]  # type: ignore[attr-defined]
    assert listed[:4] == ["validate", "show", "fmt", "convert"]
    assert listed[-1] == "archive" and len(listed) == 18  # (zrec puzzles the 18th)


@pytest.mark.parametrize(("args", "old"), [
    (["validate", str(SAMPLE)], "human"),
    (["readings", str(SAMPLE)], "table"),
    (["perft", "--game", "mosona", "--depth", "2"], "human"),
])
def test_the_old_words_of_format_still_work(args: list[str], old: str) -> None:
    runner = CliRunner()
    text = runner.invoke(app, [*args, "--format", "text"])
    again = runner.invoke(app, [*args, "--format", old])
    assert (again.exit_code, again.stdout) == (text.exit_code, text.stdout)
    assert text.exit_code == 0 and text.stdout
    bad = runner.invoke(app, [*args, "--format", "yaml"])
    assert bad.exit_code == 2
    assert bad.stderr == "zrec: --format is text or json, not 'yaml'\n"


@pytest.mark.parametrize("args", [
    ["validate", str(SAMPLE)],
    ["readings", str(SAMPLE)],
    ["readings", "--fit", str(SAMPLE), "--format", "json"],
    ["perft", "--game", "mosona", "--depth", "2"],
    ["perft", "--game", "mosona", "--depth", "2", "--divide", "--format", "json"],
])
def test_output_to_a_file(tmp_path: Path, args: list[str]) -> None:
    """-o FILE writes what standard output would show, whole; a folder that does not
    exist is refused in words, and nothing is left behind."""
    runner = CliRunner()
    shown = runner.invoke(app, args)
    assert shown.exit_code == 0, shown.stderr
    out = tmp_path / "out.txt"
    written = runner.invoke(app, [*args, "-o", str(out)])
    assert (written.exit_code, written.stdout) == (0, "")
    assert out.read_text(encoding="utf-8") == shown.stdout
    missing = tmp_path / "no" / "out.txt"
    refused = runner.invoke(app, [*args, "--output", str(missing)])
    assert refused.exit_code == 2
    assert refused.stderr.startswith(f"zrec: cannot write {missing}: ")
    assert list(tmp_path.iterdir()) == [out]


def test_a_search_cut_by_limit_says_how_many_games_match(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    runner = CliRunner()
    samples = sorted(str(p) for p in SAMPLE.parent.glob("*.zrec"))
    assert runner.invoke(app, ["archive", "import", "-q", "--db", db, *samples]).exit_code == 0
    cut = runner.invoke(app, ["archive", "search", "--db", db, "--game", "mosona",
                              "--limit", "2", "--format", "ids"])
    assert cut.exit_code == 0
    assert cut.stdout == "3\n6\n"
    assert cut.stderr == "games 1-2 of 7 found (--offset 2 for the next 2)\n"
    table = runner.invoke(app, ["archive", "search", "--db", db, "--game", "mosona",
                                "--limit", "2", "--format", "table"])
    assert table.stdout.splitlines()[-1] == "games 1-2 of 7 found (--offset 2 for the next 2)"
    assert len(table.stdout.splitlines()) == 4
    whole = runner.invoke(app, ["archive", "search", "--db", db, "--game", "mosona",
                                "--format", "ids"])
    assert (whole.stdout.count("\n"), whole.stderr) == (7, "")
