"""A tournament as its standings see it: who played, and each player's every round.

:func:`load_event` reads one event of an archive: its stored games (the ``Round`` tag
gives the round, the result token each seat's score) and its roster
(``event_players``: pairing numbers; ``event_rounds``: byes, absences and results
known without a record).  Every round of every entrant becomes a :class:`Round` with
its TRF result code, so that tie-breaks, crosstables and TRF files all read one model.
docs/tournaments.md gives the rules this module follows:

- a game counts in the round its ``Round`` tag names (``3``, or ``3.2`` for board 2);
  games without a round, and unfinished games (``*``), do not count;
- a game with a ``Termination "forfeit"`` tag was not played: its scores are forfeit
  wins and losses (``+`` and ``-``); a game that ended before its first move by any
  other termination was played, but is not rated (``W D L``);
- a round a player has no game and no roster entry for is an absence (``Z``, no
  points), up to the last round being counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from zrec.archive.store import Archive, ArchiveError
from zrec.rules.values import parse_result

__all__ = [
    "CODES",
    "Entrant",
    "Event",
    "EventError",
    "Round",
    "load_event",
    "round_number",
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
#: rounds a participant chose not to play (FIDE C.07 art. 16: voluntarily unplayed)
VOLUNTARY = frozenset("-HZ")


class EventError(ArchiveError):
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
    """A player of the event, with a pairing number and a round per round counted."""

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
class Event:
    """An event's entrants (by pairing number) and its rounds 1 … ``rounds``."""

    id: int
    name: str
    rounds: int
    entrants: list[Entrant]
    #: the most seats of any of its games (2 for the two-player games)
    seats: int = 2
    #: stored games that do not count: (id, why)
    left_out: list[tuple[int, str]] = field(default_factory=list)
    #: (round, pairing number) of the players whose game of that round is unfinished:
    #: their round is left open, not an absence
    pending: set[tuple[int, int]] = field(default_factory=set)
    site: str = ""
    start: str = ""
    end: str = ""

    def entrant(self, number: int) -> Entrant:
        return self.entrants[number - 1]

    def upto(self, last: int) -> Event:
        """The event as it stood after round ``last``."""
        if not 1 <= last <= self.rounds:
            raise EventError(
                f"{self.name!r} has rounds 1 to {self.rounds}: there is no round {last}"
            )
        kept = [
            replace(e, rounds={n: r for n, r in e.rounds.items() if n <= last})
            for e in self.entrants
        ]
        return replace(self, rounds=last, entrants=kept)

    @property
    def two_player(self) -> bool:
        return self.seats <= 2


def round_number(text: str | None) -> int | None:
    """The round a ``Round`` tag names: ``3`` and ``3.2`` (board 2 of round 3) are round
    3; ``?``, ``-`` and anything else are no round."""
    head = (text or "").strip().split(".")[0]
    return int(head) if head.isdigit() and int(head) > 0 else None


def _forfeit(termination: str | None) -> bool:
    return " ".join((termination or "").split()).casefold() == "forfeit"


def _codes(scores: tuple[Fraction, ...], forfeit: bool, moved: bool) -> list[str]:
    """The TRF codes of a game's seats: ``1 = 0`` for a game played, ``+ -`` for a
    forfeit, ``W D L`` for a game ended before its first move (played, not rated)."""
    best = max(scores)
    codes = []
    for score in scores:
        if len(scores) == 2:
            code = {WIN: "1", DRAW: "=", LOSS: "0"}.get(score, "=")
        else:  # a seat of several: a win is the one best score, a share a draw
            shared = scores.count(best) > 1
            code = "0" if score < best or best == 0 else ("=" if shared else "1")
        if forfeit:
            code = {"1": "+", "0": "-", "=": "D"}[code]
        elif not moved:
            code = {"1": "W", "0": "L", "=": "D"}[code]
        codes.append(code)
    return codes


def load_event(archive: Archive, name: str) -> Event:
    """The event called ``name`` (its exact name, or the one event whose name matches
    without case), with every round of every entrant."""
    db = archive.db
    row = db.one("SELECT id, name, rounds FROM events WHERE name = ?", (name,))
    if row is None:
        found = [
            r for r in db.rows("SELECT id, name, rounds FROM events")
            if str(r[1]).casefold() == name.casefold()
        ]
        if len(found) != 1:
            raise EventError(
                f"there is no event {name!r} in {db.target} (zrec archive stats lists the "
                "events)"
            )
        row = found[0]
    eid, title, declared = int(row[0]), str(row[1]), row[2]
    names = {int(p): str(n) for p, n in db.rows(
        "SELECT DISTINCT p.id, p.name FROM players p WHERE p.id IN ("
        " SELECT gp.player FROM game_players gp JOIN games g ON g.id = gp.game"
        " WHERE g.event = ?"
        " UNION SELECT player FROM event_players WHERE event = ?"
        " UNION SELECT player FROM event_rounds WHERE event = ?"
        " UNION SELECT opponent FROM event_rounds WHERE event = ?)",
        (eid, eid, eid, eid),
    )}
    entrants: dict[int, Entrant] = {}
    for pid, number, rating, fed, fide, title_, sex, birth in db.rows(
        "SELECT player, number, rating, federation, fide_id, title, sex, birth "
        "FROM event_players WHERE event = ? ORDER BY number",
        (eid,),
    ):
        entrants[int(pid)] = Entrant(
            int(number), int(pid), names[int(pid)], {}, rating, fed or "", fide or "",
            title_ or "", sex or "", birth or "",
        )
    rest = sorted((p for p in names if p not in entrants), key=lambda p: names[p].casefold())
    for pid in rest:
        entrants[pid] = Entrant(0, pid, names[pid])
    ordered = sorted(entrants.values(), key=lambda e: (e.number == 0, e.number))
    for i, entrant in enumerate(ordered, 1):
        entrant.number = i
    event = Event(eid, title, 0, ordered)
    _add_games(archive, event, entrants)
    _add_roster(archive, event, entrants)
    last = max((n for e in ordered for n in e.rounds), default=0)
    event.rounds = max(last, int(declared or 0))
    for entrant in ordered:  # an absence wherever a player has nothing
        for n in range(1, last + 1):
            if (n, entrant.number) not in event.pending:
                entrant.rounds.setdefault(n, Round(n, "Z"))
    dates = db.one(
        "SELECT min(date_lo), max(date_hi), min(site) FROM games WHERE event = ?", (eid,)
    )
    if dates is not None:
        event.start, event.end, event.site = (str(v or "") for v in dates)
    return event


def _put(event: Event, entrant: Entrant, done: Round, where: str) -> None:
    there = entrant.rounds.get(done.number)
    if there is not None:
        first = f"game #{there.game}" if there.game else "a roster entry"
        raise EventError(
            f"{event.name!r}, round {done.number}: {entrant.name} has two results "
            f"({first} and {where}); zrec archive remove takes a game out"
        )
    entrant.rounds[done.number] = done


def _add_games(archive: Archive, event: Event, entrants: dict[int, Entrant]) -> None:
    db = archive.db
    seats: dict[int, list[tuple[str, int]]] = {}
    for gid, role, pid in db.rows(
        "SELECT gp.game, gp.role, gp.player FROM game_players gp JOIN games g "
        "ON g.id = gp.game WHERE g.event = ? ORDER BY gp.game, gp.seat",
        (event.id,),
    ):
        seats.setdefault(int(gid), []).append((str(role), int(pid)))
    for gid, tag, result, termination, plies, names in db.rows(
        "SELECT id, round, result, termination, plies, seats FROM games WHERE event = ? "
        "ORDER BY id",
        (event.id,),
    ):
        gid = int(gid)
        number = round_number(tag)
        sat = seats.get(gid, [])
        if number is None:
            event.left_out.append((gid, f"no round (Round {str(tag or '')!r})"))
            continue
        if len(sat) < str(names).count("\x1f") + 1:
            event.left_out.append((gid, "a seat has no player named"))
            continue
        scores = parse_result(str(result), len(sat))
        if scores is None:
            event.left_out.append((gid, f"not finished (result {result})"))
            event.pending.update((number, entrants[pid].number) for _, pid in sat)
            continue
        event.seats = max(event.seats, len(sat))
        codes = _codes(scores, _forfeit(termination), int(plies) > 0)
        numbers = [entrants[pid].number for _, pid in sat]
        for i, (role, pid) in enumerate(sat):
            others = tuple(n for j, n in enumerate(numbers) if j != i)
            colour = ("w", "b")[i] if len(sat) == 2 else role
            score = scores[i] if len(sat) > 2 else None
            _put(
                event,
                entrants[pid],
                Round(number, codes[i], others, colour, gid, score),
                f"game #{gid}",
            )


def _add_roster(archive: Archive, event: Event, entrants: dict[int, Entrant]) -> None:
    for number, pid, code, opponent, colour in archive.db.rows(
        "SELECT round, player, code, opponent, colour FROM event_rounds WHERE event = ? "
        "ORDER BY round, player",
        (event.id,),
    ):
        others = () if opponent is None else (entrants[int(opponent)].number,)
        _put(
            event,
            entrants[int(pid)],
            Round(int(number), str(code), others, str(colour or "")),
            "a roster entry",
        )
