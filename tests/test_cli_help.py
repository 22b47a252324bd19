"""Every command's ``--help`` reads well in an 80-column terminal: paragraphs wrapped to
the width (no line broken where the source's docstring was), no RST backticks."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from zrec.cli import app

WIDTH = 80


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
