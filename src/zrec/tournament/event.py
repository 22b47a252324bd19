"""A tournament as its standings see it: who played, and each player's every round.

Every round of every entrant is a :class:`Round` with its TRF result code, so that
tie-breaks, crosstables, pairings and TRF files all read one model; a
:class:`Tournament` is made by :func:`zrec.archive.events.loading.load_event` from an
archive's event, or by :func:`zrec.tournament.trf.read_trf` from a TRF file.
docs/tournaments.md gives the rules the model follows:

- a game counts in the round its ``Round`` tag names (``3``, or ``3.2`` for board 2):
  :func:`round_number`;
- a game not played (a forfeit) scores forfeit wins and losses (``+`` and ``-``); a game
  that ended before its first move by any other termination was played, but is not
  rated (``W D L``): :func:`seat_codes` gives a game's codes, and :func:`same_result`
  takes ``W`` and ``1`` for the same result;
- a round a player has no game and no roster entry for is an absence (``Z``, no
  points), up to the last round being counted.

:class:`EventError` is the tournament layer's error (an event that cannot be scored,
paired or read as it stands); :class:`~zrec.tournament.swiss.PairingError` and
:class:`~zrec.tournament.trf.TrfError` are kinds of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from zrec.errors import ZrecError

__all__ = [
    "BYES", "CODES", "DRAW", "LOSS", "MAX_ROUNDS", "WIN", "Entrant", "EventError", "Round",
    "Tournament", "round_number", "same_result", "seat_codes",
]

WIN = Fraction(1)
DRAW = Fraction(1, 2)
LOSS = Fraction(0)

#: TRF-16 result codes: code -> (points, played over the board, words)
CODES: dict[str, tuple[Fraction, bool, str]] = {
    "1": (WIN, True, "win"),
    "=": (DRAW, True, "draw"),
    "0": (LOSS, True, "loss"),
    "W": (WIN, True, "win (not rated)"),
    "D": (DRAW, True, "draw (not rated)"),
    "L": (LOSS, True, "loss (not rated)"),
    "+": (WIN, False, "forfeit win"),
    "-": (LOSS, False, "forfeit loss"),
    "U": (WIN, False, "pairing-allocated bye"),
    "F": (WIN, False, "full-point bye"),
    "H": (DRAW, False, "half-point bye"),
    "Z": (LOSS, False, "zero-point bye"),
}
#: the codes of rounds without an opponent
BYES = frozenset("UFHZ")
#: the most rounds an event may have
MAX_ROUNDS = 999

#: rounds a participant chose not to play (FIDE C.07 art. 16: voluntarily unplayed)
VOLUNTARY = frozenset("-HZ")


class EventError(ZrecError):
    """An event that cannot be scored as it stands (two games for one player in one
    round, an unknown event, a round past the last)."""


@dataclass(frozen=True, slots=True)
class Round:
    """One entrant's round: its TRF code, points, opponents (pairing numbers), the
    colour or seat played (``w``/``b`` in a two-seat game, else the seat tag) and the
    stored game, if any."""

    number: int
    code: str
    opponents: tuple[int, ...] = ()
    colour: str = ""
    game: int | None = None
    #: the score of a seat in a game of more than two seats (its code says win, draw or
    #: loss; a shared first place of three scores 1/3)
    score: Fraction | None = None

    @property
    def points(self) -> Fraction:
        return self.score if self.score is not None else CODES[self.code][0]

    @property
    def played(self) -> bool:
        """Played over the board (not a bye, an absence or a forfeit)."""
        return CODES[self.code][1]

    @property
    def voluntary(self) -> bool:
        """A round the entrant chose not to play: a requested half- or zero-point
        bye, an absence, a forfeit loss."""
        return self.code in VOLUNTARY

    @property
    def opponent(self) -> int | None:
        """The one opponent of a two-player round (``None`` for a bye)."""
        return self.opponents[0] if len(self.opponents) == 1 else None


@dataclass(slots=True)
class Entrant:
    """A player of the event, with a pairing number and a round per round counted
    (``player``: the archive's id of the player; 0 for a player read from a TRF file)."""

    number: int
    player: int
    name: str
    rounds: dict[int, Round] = field(default_factory=dict)
    rating: int | None = None
    federation: str = ""
    fide_id: str = ""
    title: str = ""
    sex: str = ""
    birth: str = ""

    def points(self, upto: int | None = None) -> Fraction:
        return sum(
            (r.points for n, r in self.rounds.items() if upto is None or n <= upto),
            Fraction(0),
        )


@dataclass(slots=True)
class Tournament:
    """An event's entrants (by pairing number) and its rounds 1 … ``rounds``."""

    id: int
    name: str
    rounds: int
    entrants: list[Entrant]
    #: the most seats of any of its games (2 for the two-player games)
    seats: int = 2
    #: stored games that do not count: (id, why)
    left_out: list[tuple[int, str]] = field(default_factory=list)
    #: (round, pairing number) -> (opponents, colour) of the players whose game of that
    #: round is not finished: their round is open, not an absence
    pending: dict[tuple[int, int], tuple[tuple[int, ...], str]] = field(default_factory=dict)
    #: the rounds a roster declared (at least :attr:`rounds`, the rounds with results)
    declared: int = 0
    site: str = ""
    start: str = ""
    end: str = ""

    def entrant(self, number: int) -> Entrant:
        return next(e for e in self.entrants if e.number == number)

    def upto(self, last: int) -> Tournament:
        """The event as it stood after round ``last``."""
        if not 1 <= last <= self.rounds:
            raise EventError(
                f"{self.name!r} has results for rounds 1 to {self.rounds}: there is no "
                f"round {last} to stand after"
            )
        kept = [
            replace(e, rounds={n: r for n, r in e.rounds.items() if n <= last})
            for e in self.entrants
        ]
        return replace(self, rounds=last, entrants=kept)

    @property
    def two_player(self) -> bool:
        return self.seats <= 2


def digits(text: str) -> int | None:
    """The number ASCII digits write (``²`` and ``３`` are not digits here), else None."""
    return int(text) if text.isascii() and text.isdigit() else None


def round_number(text: str | None) -> int | None:
    """The round a ``Round`` tag names: ``3`` and ``3.2`` (board 2 of round 3) are round
    3; ``?``, ``-``, 0, rounds past :data:`MAX_ROUNDS` and anything else are no round."""
    number = digits((text or "").strip().split(".")[0])
    return number if number is not None and 1 <= number <= MAX_ROUNDS else None


def same_result(code: str, other: str) -> bool:
    """Whether two result codes say the same (``W`` and ``1``: a game ended before its
    first move is still a game)."""
    same = {"W": "1", "D": "=", "L": "0"}
    return same.get(code, code) == same.get(other, other)


def seat_codes(scores: tuple[Fraction, ...], forfeit: bool, moved: bool) -> list[str]:
    """The TRF codes of a game's seats: ``1 = 0`` for a game played, ``+ -`` for a
    forfeit, ``W D L`` for a game ended before its first move (played, not rated)."""
    best = max(scores)
    codes = []
    for score in scores:
        if len(scores) == 2:  # (an arbiter may give 1-1, 1/2-0, 0-0)
            code = "1" if score >= WIN else ("=" if score > LOSS else "0")
        else:  # a seat of several: a win is the one best score, a share a draw
            shared = scores.count(best) > 1
            code = "0" if score < best or best == 0 else ("=" if shared else "1")
        if forfeit:
            code = {"1": "+", "0": "-", "=": "D"}[code]
        elif not moved:
            code = {"1": "W", "0": "L", "=": "D"}[code]
        codes.append(code)
    return codes
