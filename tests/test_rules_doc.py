"""docs/rules.md is the one place where zrec states its readings of the rules.

It must name every rule option and setup tag the engines accept, with exactly their
values and defaults, and name no option or value the engines would refuse.  No file of
the repository may cite the team's internal notes (a list of rulings, numbered source
texts, a shared folder): the project states its readings in its own words, in
docs/rules.md, and cites the published sources.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from zrec.rules import all_games, find_game
from zrec.rules.base import GameRules

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"

#: The section of docs/rules.md for each game (its ``## `` heading starts so).
SECTIONS = {
    "mosona": "## Awithlaknannai Mosona",
    "kolowis": "## Kolowis Awithlaknannai",
    "stone-warriors": "## Stone Warriors",
    "awethi": "## Awéthi",
}

#: Tags with a meaning of their own that are neither a rule option nor a setup input.
OTHER_TAGS = {"Game", "Setup", "Score", "Termination", "Result", "Source"}

# The patterns are built from pieces so that this file does not match them itself.
_INTERNAL = re.compile(
    "|".join(
        (
            "RUL" + "INGS",
            r"\bshared" + "/",
            r"(?<![-\w])seed" + r" \d{3}\b",
            "\u00a7" + r"\s*\d",
        )
    )
)


def _text() -> str:
    return RULES.read_text(encoding="utf-8")


def _section(game: str) -> str:
    text = _text()
    found = re.search("^" + re.escape(SECTIONS[game]), text, re.M)
    assert found is not None, SECTIONS[game]
    end = text.find("\n## ", found.start() + 1)
    return text[found.start() : end if end >= 0 else len(text)]


def _table(section: str, first: str) -> dict[str, list[str]]:
    """The rows of the table in ``section`` whose header's first cell is ``first``:
    the tag (first cell, in backticks) -> the other cells."""
    lines = section.splitlines()
    for i, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == first:
            rows: dict[str, list[str]] = {}
            for row in lines[i + 2 :]:
                if not row.startswith("|"):
                    break
                cells = [c.strip() for c in row.strip().strip("|").split("|")]
                for tag in re.findall(r"`([A-Za-z][A-Za-z0-9_]*)`", cells[0]):
                    rows[tag] = cells[1:]
            return rows
    raise AssertionError(f"no table headed {first!r} in {section.splitlines()[0]!r}")


def _ticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]*)`", cell)


def test_no_file_cites_the_internal_notes() -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    found = []
    for name in filter(None, listed.split("\0")):
        path = ROOT / name
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a binary file
        for number, line in enumerate(text.splitlines(), 1):
            if _INTERNAL.search(line):
                found.append(f"{name}:{number}: {line.strip()}")
    assert found == []


def test_the_internal_pattern_catches_what_it_must() -> None:
    bad_ones = ("as " + "RUL" + "INGS.md says", "seed" + " 004", "\u00a7" + "1", "a/shared" + "/x")
    for bad in bad_ones:
        assert _INTERNAL.search(bad), bad
    for good in ("--seed 100", "zrec random --seed 1", "a shared archive"):
        assert not _INTERNAL.search(good), good


@pytest.mark.parametrize("game", list(SECTIONS))
def test_every_option_is_documented_with_its_values_and_default(game: str) -> None:
    rules: GameRules = find_game(game)
    table = _table(_section(game), "Tag")
    assert set(table) == set(rules.options), game
    for tag, spec in rules.options.items():
        values, default = table[tag][0], table[tag][1]
        assert _ticked(values) == list(spec.values), (game, tag)
        assert _ticked(default) == [spec.default], (game, tag)


@pytest.mark.parametrize("game", list(SECTIONS))
def test_every_setup_tag_is_documented(game: str) -> None:
    rules: GameRules = find_game(game)
    if not rules.inputs:
        return
    table = _table(_section(game), "Setup tag")
    assert set(table) == set(rules.inputs), game


@pytest.mark.parametrize("game", list(SECTIONS))
def test_every_tag_the_section_names_is_one_the_engine_accepts(game: str) -> None:
    rules: GameRules = find_game(game)
    named = re.findall(r'\[([A-Za-z][A-Za-z0-9_]*) "([^"]*)"\]', _section(game))
    assert named, game
    for tag, value in named:
        if tag in rules.options:
            spec = rules.options[tag]
            accepted = [v.lower() for v in spec.values]
            assert value.strip().lower() in accepted, (game, tag, value)
        else:
            assert tag in rules.inputs or tag in OTHER_TAGS, (game, tag)


def test_every_game_has_a_section() -> None:
    assert {g.name for g in all_games()} == set(SECTIONS)
    for heading in SECTIONS.values():
        assert re.search("^" + re.escape(heading), _text(), re.M), heading


def test_the_docs_that_state_readings_link_here() -> None:
    for name in (
        "README.md",
        "docs/notation.md",
        "docs/readings.md",
        "docs/perft.md",
        "docs/study.md",
        "docs/architecture.md",
    ):
        text = (ROOT / name).read_text(encoding="utf-8")
        assert "rules.md" in text, name


#: The columns of each game's table of readings, source by source.
SOURCE_COLUMNS = [
    "Point", "Culin", "Stevenson", "Rules text", "French", "Ludii", "piecepack",
    "zrec's default", "Tag: values",
]


def _readings_part(game: str) -> str:
    section = _section(game)
    start = section.find("### The readings, source by source")
    assert start >= 0, game
    return section[start:]


@pytest.mark.parametrize("game", ["mosona", "kolowis", "stone-warriors"])
def test_every_game_has_a_table_of_its_readings_source_by_source(game: str) -> None:
    part = _readings_part(game)
    header = next(line for line in part.splitlines() if line.startswith("| Point"))
    assert [c.strip() for c in header.strip("|").split("|")] == SOURCE_COLUMNS
    rows = [line for line in part.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) >= 8, game
    for row in rows[1:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == len(SOURCE_COLUMNS) and all(cells), row
        # the last cell names the tag that carries the point
        assert re.match(r"`[A-Z][A-Za-z]*`", cells[-1]), row


@pytest.mark.parametrize("game", list(SECTIONS))
def test_every_named_reading_is_listed_under_its_table_with_its_values(game: str) -> None:
    """Each named reading of the game is listed (``- `name`: ...``) with the options it
    sets otherwise than the defaults, as ``Tag value`` in backticks."""
    rules: GameRules = find_game(game)
    part = _readings_part(game)
    listed = dict(re.findall(r"^- `([a-z][a-z-]*)`: (.*(?:\n  .*)*)", part, re.M))
    for name, values in rules.readings.items():
        assert name in listed, (game, name)
        changed = {t: v for t, v in values.items() if v != rules.options[t].default}
        shown = dict(
            pair.split(" ", 1) for pair in re.findall(r"`([A-Z][A-Za-z]* [^`]+)`", listed[name])
        )
        assert shown == changed, (game, name)
