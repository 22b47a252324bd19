"""A new game's record for the recording board: the games offered (each game zrec has
rules for, its seats, rule options and setup tags, from the rules registry: nothing of
a game is written in the template or the script), and the record of a new game with
the tags given (``Date`` today's unless given; a hidden setup the rules draw, such as
the order of a herd, drawn by the game's rules, :meth:`GameRules.random_tags`, from
:mod:`secrets`).
"""

from __future__ import annotations

import datetime
import random
import re
import secrets
from typing import Any

from zrec.errors import ZrecError
from zrec.notation.model import Game, Line
from zrec.rules.base import GameRules

__all__ = ["TAG", "drawable", "drawn_setup", "games_offered", "new_record", "today"]


#: a query parameter that is a tag of the new game: a name as tags are written
TAG = re.compile(r"^[A-Z][A-Za-z0-9_]{0,39}$")


def today() -> str:
    """Today's date (the server's), as a record writes dates: ``YYYY.MM.DD``."""
    return datetime.date.today().strftime("%Y.%m.%d")


def drawable(rules: GameRules) -> list[str]:
    """The setup tags of a game its rules draw at random for a new game (a hidden
    setup, such as the order of a herd), for any number of seats it may have."""
    found: dict[str, None] = {}
    for seats in [None, *range(1, len(rules.seats) + 1)]:
        try:
            drawn = rules.random_tags(seats, random.Random(0))
        except ZrecError:
            continue
        found.update((tag, None) for tag in drawn if tag in rules.inputs)
    return list(found)


def drawn_setup(
    rules: GameRules, named: list[str], rng: random.Random
) -> tuple[list[str], dict[str, str]]:
    """The seats a new game with the seats ``named`` plays (its rules' smallest number
    of seats that holds them all: with Shepherd1 and Wolves named, a game of
    one shepherd player) and its hidden setup drawn by the rules with ``rng``."""
    for seats in [*range(1, len(rules.seats) + 1), None] if named else [None]:
        try:
            drawn = rules.random_tags(seats, rng)
        except ZrecError:
            continue
        playing = [tag for tag in rules.seats if tag in drawn]
        if set(named) <= set(playing) or seats is None:
            return playing, {k: v for k, v in drawn.items() if k in rules.inputs}
    return [], {}  # (not reached: every game can be drawn with its usual seats)


def new_record(
    game: str, options: list[str], tags: list[tuple[str, str]], draw: bool = True,
    rng: random.Random | None = None,
) -> str:
    """A new game's record (no moves yet) as ``zrec fmt`` writes it: the game, the
    tags given (empty ones left out; ``Date`` today's when none is given) and the rule
    options (``Tag=value``).  ``draw``: a hidden setup the rules draw (a herd's
    orders) that is not given is drawn with ``rng`` (by default from :mod:`secrets`),
    and a seat it needs that is not named is written ``?``."""
    from zrec.notation.writer import write_game
    from zrec.rules import find_game

    rules = find_game(game)
    given = [(name, value.strip()) for name, value in tags
             if value.strip() and name not in ("Game", "Result")]
    if not any(name == "Date" for name, _ in given):
        at = next((i for i, (name, _) in enumerate(given) if name not in ("Event", "Site")),
                  len(given))
        given.insert(at, ("Date", today()))
    written: dict[str, str] = {"Game": game}
    written.update(given)
    if draw:
        named = [seat for seat in rules.seats if seat in written]
        playing, hidden = drawn_setup(
            rules, named, rng or random.Random(secrets.randbits(128)))
        if hidden:
            for seat in playing:
                written.setdefault(seat, "?")
            for name, value in hidden.items():
                written.setdefault(name, value)
    for item in options:
        name, sep, value = item.partition("=")
        if sep and TAG.match(name.strip()) and value.strip():
            written[name.strip()] = value.strip()
    written["Result"] = "*"
    return write_game(Game(tuple(written.items()), Line(()), "*"))


def games_offered() -> list[dict[str, Any]]:
    """Every game zrec has rules for, as the new-game form offers it: its name and
    title, its seats, its rule options (values, default, meaning) and setup tags."""
    from zrec.rules import all_games

    return [
        {
            "name": rules.name,
            "title": rules.title,
            "seats": list(rules.seats),
            "options": [(tag, spec.values, spec.default, spec.doc)
                        for tag, spec in rules.options.items()],
            "inputs": [(tag, spec.doc) for tag, spec in rules.inputs.items()],
            "drawn": drawable(rules),
        }
        for rules in all_games()
    ]
