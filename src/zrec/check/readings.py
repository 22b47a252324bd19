"""Readings: is a record legal under every combination of its game's rule options?

A game's rules leave points open that respected sources read differently; zrec fixes
a default and names each other reading as a rule option (a tag).  :func:`game_readings`
replays one record under every combination of its game's options: the cartesian
product of each option's accepted values (:attr:`GameRules.options`), in the order the
game lists them, each option's values in the game's order.  Setup tags that take free
values (an inline map, a hidden setup) are not options: they stay as the record has
them.  The record's own option tags are overridden by each reading's values.

A combination the game refuses (its options make no sense together: the engine
raises :class:`~zrec.rules.base.OptionConflict`) is no reading: it is kept apart, in
``refused``, with the refusal.  A combination that is one of the game's named readings
(``zrec``, ``piecepack``...) carries that name.  The record's own option tags and
``Reading`` are taken off for each combination, and the combination's values that are
not the defaults written in their place.

Each combination is checked by the validator itself (:func:`validate_game` on the
record with its tags overridden, one replay each), so a reading is legal exactly when
``zrec validate`` finds no error in the record with those tags, and an illegal reading
carries the validator's own message for its first error: the error at the lowest ply
(an error in the tags, before any move, comes first), in file order among equals.
Nothing here names a game.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from zrec.check.diagnostics import Diagnostic
from zrec.check.validate import validate_game
from zrec.notation.json.convert import JsonRecord
from zrec.notation.model import Game
from zrec.notation.reader import Record
from zrec.rules import find_game
from zrec.rules.base import READING, GameRules, OptionError, UnknownGameError, chosen_options

__all__ = [
    "GameReadings",
    "Group",
    "ReadingResult",
    "combinations",
    "file_readings",
    "game_readings",
    "group_readings",
]


@dataclass(frozen=True, slots=True)
class ReadingResult:
    """One combination of rule options and what the record is under it: legal, or its
    first error (``ply``: the ply of the move at fault, ``None`` for an error in the
    tags; ``reason``: the validator's message; ``code``: its diagnostic code)."""

    options: dict[str, str]
    legal: bool
    ply: int | None = None
    reason: str | None = None
    code: str | None = None
    name: str | None = None  # the named reading these options are, if any

    def to_json(self) -> dict[str, Any]:
        """``{"options": {...}, "legal": true}``, with ``ply`` and ``reason`` when
        illegal, and ``name`` when the options are a named reading's."""
        out: dict[str, Any] = {"options": dict(self.options), "legal": self.legal}
        if not self.legal:
            out["ply"] = self.ply
            out["reason"] = self.reason
        if self.name is not None:
            out["name"] = self.name
        return out


@dataclass(frozen=True, slots=True)
class Group:
    """Readings that break the record in the same way: the same ply and the same
    reason (the legal moves it lists left out, as they differ with the options);
    ``shared`` the options every one of them has, ``alike`` how many readings of the
    whole space have those options (as many as the group, or more)."""

    ply: int | None
    reason: str
    readings: tuple[ReadingResult, ...]
    shared: dict[str, str]
    alike: int

    @property
    def names(self) -> tuple[str, ...]:
        """The named readings among them."""
        return tuple(r.name for r in self.readings if r.name is not None)


def _short(reason: str | None) -> str:
    """A reason without the legal moves it lists."""
    text = reason or ""
    cut = text.find("; legal moves: ")
    return text if cut < 0 else text[:cut]


def group_readings(
    readings: Iterable[ReadingResult], every: Iterable[ReadingResult] = ()
) -> list[Group]:
    """``readings`` grouped by their first error (ply, then reason without the legal
    moves), each group with the options all its readings share; ``every`` the whole
    space, to say whether a group is all the readings with its shared options.  In
    order of ply (an error in the tags first), then the larger groups first."""
    found: dict[tuple[int | None, str], list[ReadingResult]] = {}
    for r in readings:
        found.setdefault((r.ply, _short(r.reason)), []).append(r)
    space = list(every)
    groups = []
    for (ply, reason), members in found.items():
        first = members[0].options
        shared = {
            t: v for t, v in first.items() if all(m.options[t] == v for m in members)
        }
        alike = sum(
            1 for r in space if all(r.options[t] == v for t, v in shared.items())
        )
        groups.append(Group(ply, reason, tuple(members), shared, alike))
    groups.sort(key=lambda g: (-1 if g.ply is None else g.ply, -len(g.readings)))
    return groups


@dataclass(frozen=True, slots=True)
class GameReadings:
    """Every reading of one game of a file.

    ``name`` is the game's canonical ``Game`` tag value and ``title`` its name for
    people, ``heading`` what the record says of
    itself (its event, its players), ``own`` the options the record's own tags choose
    (``None`` when they choose none the game accepts), and ``problem`` why there are no
    readings at all (a game that cannot be read, a game zrec does not know or has no
    rules engine for).
    """

    number: int
    line: int
    name: str = ""
    title: str = ""
    heading: str = ""
    readings: tuple[ReadingResult, ...] = ()
    own: dict[str, str] | None = None
    problem: str | None = None
    options: tuple[str, ...] = field(default=())
    refused: tuple[ReadingResult, ...] = ()

    @property
    def legal(self) -> tuple[ReadingResult, ...]:
        """The readings under which the record is legal."""
        return tuple(r for r in self.readings if r.legal)

    @property
    def illegal(self) -> tuple[ReadingResult, ...]:
        """The readings under which it is not."""
        return tuple(r for r in self.readings if not r.legal)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.number, "line": self.line, "name": self.name}
        out["title"] = self.title
        out["heading"] = self.heading
        if self.problem is not None:
            out["problem"] = self.problem
        out["own"] = self.own
        out["readings"] = [r.to_json() for r in self.readings]
        if self.refused:
            out["refused"] = [
                {"options": dict(r.options), "reason": r.reason} for r in self.refused
            ]
        return out


def combinations(rules: GameRules) -> Iterator[dict[str, str]]:
    """Every combination of the options of ``rules``: the first option varies slowest,
    each option's values in the game's order (its default first where the game lists
    it first)."""
    names = list(rules.options)
    for values in itertools.product(*(rules.options[n].values for n in names)):
        yield dict(zip(names, values, strict=True))


def _heading(game: Game, seats: Iterable[str] = ()) -> str:
    """What the record says of itself: its event, and the names of its seats' players
    (``Culin's opening``, ``Club final: Lovelace, Ada – Kilburn, Tom``)."""

    def known(tag: str) -> str:
        value = (game.tag(tag) or "").strip()
        return "" if value in ("", "?") else value

    players = " – ".join(name for name in map(known, seats) if name)
    return ": ".join(part for part in (known("Event"), players) if part)


def _first_error(found: Iterable[Diagnostic]) -> Diagnostic | None:
    errors = [d for d in found if d.severity == "error"]
    return min(errors, key=lambda d: d.ply or 0) if errors else None


def game_readings(
    game: Game, number: int = 1, line: int = 1, file: str = "<input>"
) -> GameReadings:
    """Every reading of one record (game ``number`` of ``file``, starting on ``line``),
    each checked by replaying the record once through the validator."""
    try:
        rules = find_game(game.game_type)
    except UnknownGameError as exc:
        return GameReadings(number, line, heading=_heading(game), problem=str(exc))
    heading = _heading(game, rules.seats)
    try:
        own: dict[str, str] | None = chosen_options(rules, game.tag_map())
    except OptionError:
        own = None
    named = {tuple(values.items()): name for name, values in rules.readings.items()}
    kept = [(k, v) for k, v in game.tags if k != READING and k not in rules.options]
    found: list[ReadingResult] = []
    refused: list[ReadingResult] = []
    for options in combinations(rules):
        written = [(t, v) for t, v in options.items() if v != rules.options[t].default]
        read = replace(game, tags=(*kept, *written))
        report = validate_game(read, file, number, line)
        if not report.checked:
            problem = next((d.message for d in report.diagnostics), "not checked")
            return GameReadings(
                number, line, rules.name, rules.title, heading, own=own, problem=problem
            )
        first = _first_error(report.diagnostics)
        name = named.get(tuple(options.items()))
        if first is None:
            found.append(ReadingResult(options, True, name=name))
        elif first.code == "option-conflict" and first.ply is None:
            refused.append(ReadingResult(options, False, None, first.message, first.code))
        else:
            found.append(
                ReadingResult(options, False, first.ply, first.message, first.code, name)
            )
    names = tuple(rules.options)
    return GameReadings(
        number, line, rules.name, rules.title, heading, tuple(found), own, None, names,
        tuple(refused),
    )


def file_readings(records: Iterable[Record | JsonRecord], file: str) -> Iterator[GameReadings]:
    """The readings of every game of a file, read from text or JSON (a game that cannot
    be read has its problem and no readings)."""
    for record in records:
        if record.game is not None:
            yield game_readings(record.game, record.number, record.line, file)
            continue
        assert record.problem is not None
        yield GameReadings(record.number, record.line, problem=record.problem.format())
