"""The starts the archive holds: each game with its options and setup as stored, and
the setup inputs and seats its games have.

A search by moves or by position replays the moves, or reads the position, from each
start it allows (:mod:`zrec.archive.store.search`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from zrec.archive.store import Archive, split_options, stored_options
from zrec.rules import find_game
from zrec.rules.base import UnknownGameError

__all__ = ["stored_starts"]


def stored_starts(
    archive: Archive, options: Sequence[tuple[str, str]], name: str | None
) -> list[tuple[str, dict[str, str]]]:
    """The starts the archive holds (of the game ``name``, when given) with these
    options (tag and value, whatever their case), each as a label (the game
    and its options) and the tags that make it: the game, its options and setup, and,
    for a game with setup inputs (a herd's order, a map), each combination of inputs
    and seats its stored games have."""
    sql = "SELECT game, options, setup FROM starts"
    params: list[Any] = []
    if name is not None:
        sql += " WHERE game = ?"
        params.append(name)
    found: list[tuple[str, dict[str, str]]] = []
    for game, stored, setup in sorted(archive.db.rows(sql, params)):
        # as the SQL condition on options: tag and value whatever their case
        chosen = {t.lower(): v.lower() for t, v in stored_options(str(game), str(stored)).items()}
        if not all(chosen.get(t.lower(), "") == v.lower() for t, v in options):
            continue
        tags = _tags(str(game), str(stored), str(setup))
        label = f"{game} ({stored or 'no options'})"
        try:
            rules = find_game(str(game))
        except UnknownGameError:
            continue
        if not rules.inputs:
            found.append((label, tags))
            continue
        for combination in _inputs(archive, str(game), str(stored), str(setup), rules):
            found.append((label, {**tags, **dict(combination)}))
    return found


def _inputs(
    archive: Archive, game: str, options: str, setup: str, rules: Any
) -> list[tuple[tuple[str, str], ...]]:
    """The setup inputs of the stored games of one start, each with its seats (seat
    names do not matter to the rules, only which seats are there)."""
    seats, inputs = set(rules.seats), set(rules.inputs)
    names = seats | inputs
    ids = archive.db.rows(
        "SELECT g.id FROM games g JOIN rule_options o ON o.id = g.options_id WHERE g.game = ? "
        "AND o.options = ? AND g.setup = ? AND g.valid = 1 AND g.checked = 1 ORDER BY g.id",
        (game, options, setup),
    )
    found: set[tuple[tuple[str, str], ...]] = set()
    for stored in archive.games([int(gid) for (gid,) in ids]):  # tags read from the texts
        held: dict[str, str] = {}
        for tag, value in stored.tags:
            if tag in names:
                held.setdefault(tag, "?" if tag in seats else value)
        if held:
            found.add(tuple(held.items()))
    return sorted(found)


def _tags(game: str, options: str, setup: str) -> dict[str, str]:
    tags = {"Game": game, **split_options(options)}
    if setup:
        tags["Setup"] = setup
    return tags
