"""The values that cross the engine protocol, and the rules layer's errors.

Everything here is plain, immutable data with no knowledge of any game: findings,
resolved moves, option and input specs, a record's setting, events, move numbers,
dice, outcomes with a score per seat, and the view of a position for drawing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Generic, Literal, NamedTuple, TypeVar

from zrec.errors import ZrecError

M = TypeVar("M")

Severity = Literal["error", "warning", "info"]

# -- errors -----------------------------------------------------------------------------


class RulesError(ZrecError, ValueError):
    """Base of every error a rules module raises for a user's input."""


class IllegalMoveError(RulesError):
    """A written move that is not legal in the position.

    ``reason`` is a phrase a player understands ("a capture is compulsory here");
    ``legal`` lists the legal moves of the position in the notation, where that helps;
    ``code`` is the diagnostic code (``illegal-move``, ``wrong-captures``...).
    """

    def __init__(self, reason: str, legal: Sequence[str] = (), code: str = "illegal-move"):
        super().__init__(reason)
        self.reason = reason
        self.legal = tuple(legal)
        self.code = code


class AmbiguousMoveError(IllegalMoveError):
    """A short written move that fits more than one legal move."""

    def __init__(self, reason: str, legal: Sequence[str] = ()):
        super().__init__(reason, legal, code="ambiguous-move")


class SetupError(RulesError):
    """A ``Setup`` position string that is malformed or impossible."""


class OptionError(RulesError):
    """A rule-option tag with a value the game does not accept."""

    def __init__(self, tag: str, value: str, accepted: Sequence[str]):
        self.tag = tag
        self.value = value
        self.accepted = tuple(accepted)
        choices = ", ".join(f'"{v}"' for v in self.accepted)
        super().__init__(f'[{tag} "{value}"] is not a known value; accepted: {choices}')


class InputError(RulesError):
    """A setup tag (beyond ``Setup``) that the game cannot play with; ``tag`` names it
    when known (a parser raises it without, :func:`~zrec.rules.base.configure` adds it)."""

    def __init__(self, reason: str, tag: str = "", code: str = "bad-input"):
        super().__init__(f"[{tag}]: {reason}" if tag else reason)
        self.reason = reason
        self.tag = tag
        self.code = code


class UnknownGameError(RulesError, LookupError):
    """A ``Game`` tag naming no game zrec knows."""

    def __init__(self, name: str, known: Sequence[str]):
        self.name = name
        self.known = tuple(known)
        super().__init__(
            f'[Game "{name}"] names no game zrec knows; known games: {", ".join(known)}'
        )


# -- what a rules module says about a record --------------------------------------------


@dataclass(frozen=True, slots=True)
class Finding:
    """Something a rules module has to say about a record (a style note, a wrong result);
    ``tag`` names the tag it is about, where there is one (``Score``)."""

    code: str
    severity: Severity
    message: str
    tag: str | None = None


@dataclass(frozen=True, slots=True)
class Resolved(Generic[M]):
    """A written move matched to exactly one legal move, with any style notes.

    ``turn`` is false for a move that is not a turn (a piece entering the board):
    it does not count as a ply.
    """

    move: M
    notes: tuple[Finding, ...] = ()
    turn: bool = True


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A rule-option tag: its default value, the accepted values and what it means.

    ``stored_default`` False marks an option added after archives held games of its
    game: an archive stores it only when a game sets it to another value than its
    default, so that the options string of a game stored before it came (and with it
    the game's rating pool and its paths in the opening tree) stays the same."""

    default: str
    values: tuple[str, ...]
    doc: str
    stored_default: bool = True


@dataclass(frozen=True, slots=True)
class InputSpec:
    """A setup tag with a free-form value (a map, a herd order): what it means and the
    parser that turns its text into the engine's value (raising :class:`InputError`)."""

    doc: str
    parse: Callable[[str], object]


@dataclass(frozen=True, slots=True)
class Setting:
    """What a record's tags fix before play: every option (checked, defaults filled in),
    the declared inputs that are present (parsed) and all the tags (seat names...)."""

    options: Mapping[str, str]
    inputs: Mapping[str, object] = field(default_factory=dict)
    tags: Mapping[str, str] = field(default_factory=dict)


# -- what happens in play ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Event:
    """Something a move caused, beyond moving its pieces: a capture, a priest due, a
    catch made or completed, the wolves woken.  ``squares`` are where it happened
    (for a removal: the squares emptied)."""

    code: str
    message: str
    squares: tuple[str, ...] = ()


#: The event code of pieces taken off the board (drawn as ghosts).
REMOVED = "removed"


class MoveNumber(NamedTuple):
    """The number of a move as a player writes it: ``12.`` (``dots`` 1) opens a round
    of turns, ``12...`` (``dots`` 3) continues it.  ``turn`` is false for a move that
    is not a turn (a piece entering the board), which carries no number.  ``seat``
    is the seat whose move it is (an index into the engine's seats), also in a position
    where the game is over (whose move it would be).  (A named tuple: it is made for
    every numbered move the validator checks, and tuples are the cheapest to make.)"""

    number: int
    dots: int = 1
    turn: bool = True
    seat: int = 0

    def text(self) -> str:
        """``"12."`` or ``"12..."``."""
        return f"{self.number}{'...' if self.dots == 3 else '.'}"

    def __str__(self) -> str:
        return self.text()


@lru_cache(maxsize=8192)
def numbered(number: int, dots: int, turn: bool, seat: int) -> MoveNumber:
    """``MoveNumber(number, dots, turn, seat)``, made once: an engine is asked for the
    same numbers in every game (the validator asks at every numbered move)."""
    return MoveNumber(number, dots, turn, seat)


@dataclass(frozen=True, slots=True)
class Chance:
    """The dice a turn rolls: the number of faces of each die, in the order written
    (``(4,)`` one d4, ``(4, 4, 4, 4)`` four d4, ``(4, 6)`` a d4 and a d6)."""

    faces: tuple[int, ...]

    def roll(self, rng: random.Random) -> tuple[int, ...]:
        """One roll of every die."""
        return tuple(rng.randint(1, n) for n in self.faces)

    def text(self) -> str:
        """``"d4"``, ``"4×d4"``, ``"d4+d6"``."""
        if len(set(self.faces)) == 1 and len(self.faces) > 1:
            return f"{len(self.faces)}×d{self.faces[0]}"
        return "+".join(f"d{n}" for n in self.faces)


def score_text(score: Fraction) -> str:
    """A score as a result token writes it: ``1``, ``0``, ``1/2``."""
    return (
        str(score.numerator)
        if score.denominator == 1
        else f"{score.numerator}/{score.denominator}"
    )


def result_token(scores: Sequence[Fraction]) -> str:
    """The result token of a score per seat: ``1-0``, ``1/2-1/2``, ``0-1-0``."""
    return "-".join(score_text(s) for s in scores)


def parse_result(token: str, seats: int) -> tuple[Fraction, ...] | None:
    """The score per seat of a result token, or ``None`` for ``*`` or a token that is
    not ``seats`` scores joined by ``-``."""
    parts = token.split("-")
    if token == "*" or len(parts) != seats:
        return None
    try:
        return tuple(Fraction(p) for p in parts)
    except (ValueError, ZeroDivisionError):
        return None


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended by rule: a termination code, a score per seat and why, in words.

    The result token is derived from the scores (:attr:`result`); ``reason`` does not
    repeat it, so that whoever shows the reason adds the result once.
    """

    termination: str
    scores: tuple[Fraction, ...]
    reason: str

    @property
    def result(self) -> str:
        return result_token(self.scores)


# -- what a drawing needs ---------------------------------------------------------------

BoardKind = Literal["lattice", "grid", "points"]


@dataclass(frozen=True, slots=True)
class BoardSpec:
    """The board of an engine, for drawing.

    ``lattice``: points joined by ``lines`` (and ``jumps`` as (from, over, to)), named
    by row letter and number.  ``grid``: squares named by file letter and rank number;
    ``regions`` gives each square's kind of ground or area (shaded by the drawing).
    ``cells`` lists every point or square in reading order.
    """

    kind: BoardKind
    cells: tuple[str, ...]
    lines: tuple[tuple[str, str], ...] = ()
    jumps: tuple[tuple[str, str, str], ...] = ()
    regions: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece as drawn: where, whose (a seat index, ``None`` for nobody's), what kind
    (``""`` for a side's plain piece, else a word such as ``priest``), its short code
    (``W``, ``BP``), how many stand there and whether it is face down."""

    square: str
    owner: int | None
    kind: str
    code: str
    count: int = 1
    hidden: bool = False
    state: str = ""  # a word for a state a drawing shows ("caught"), else ""


@dataclass(frozen=True, slots=True)
class View:
    """A position as a drawing needs it: the board, the seats and the pieces."""

    board: BoardSpec
    seats: tuple[str, ...]
    pieces: tuple[Piece, ...]

    def codes(self) -> dict[str, str]:
        """Occupied squares: square -> piece code."""
        return {p.square: p.code for p in self.pieces}


# -- self-play ---------------------------------------------------------------------------


def choose(
    moves: Sequence[M], rng: random.Random, progress: Sequence[int] | None = None
) -> M | None:
    """A move drawn from ``moves`` for self-play: uniformly, or, where ``progress``
    scores some moves above 0, usually (with probability :data:`DRIVE`) among those
    that score most.  Where no move scores, no die is thrown for the lean."""
    if not moves:
        return None
    if progress:
        best = max(progress)
        if best > 0 and rng.random() < DRIVE:
            moves = [m for m, p in zip(moves, progress, strict=True) if p == best]
    return rng.choice(moves)


#: How often a self-playing engine takes one of the moves that bring the end nearest.
DRIVE = 0.8
