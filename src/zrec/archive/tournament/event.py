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
  points), up to the last round being counted;
- the stored pairings (:mod:`zrec.archive.tournament.pairstore`) give the
  pairing-allocated byes, and keep a paired round open until its game is stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from zrec.archive.store import Archive, ArchiveError
from zrec.archive.tournament.pairstore import open_boards, stored_boards
from zrec.rules.values import parse_result

__all__ = [
    "CODES", "MAX_ROUNDS", "Entrant", "EventError", "Round", "Tournament", "event_row",
    "load_event", "round_number", "same_result",
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


def _codes(scores: tuple[Fraction, ...], forfeit: bool, moved: bool) -> list[str]:
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


def event_row(archive: Archive, name: str) -> tuple[int, str, int]:
    """The id, name and declared rounds of the event called ``name`` (its exact name,
    or the one event whose name matches without case)."""
    db = archive.db
    row = db.one("SELECT id, name, rounds FROM events WHERE name = ?", (name,))
    if row is None:
        found = [
            r
            for r in db.rows("SELECT id, name, rounds FROM events")
            if str(r[1]).casefold() == name.casefold()
        ]
        if len(found) != 1:
            raise EventError(
                f"there is no event {name!r} in {db.target} (zrec archive stats lists the "
                "events)"
            )
        row = found[0]
    return int(row[0]), str(row[1]), int(row[2] or 0)


@dataclass(frozen=True, slots=True)
class _Game:
    id: int
    round: int
    seats: list[tuple[str, int]]  # (seat tag, player id)
    scores: tuple[Fraction, ...]
    forfeit: bool
    moved: bool


def load_event(archive: Archive, name: str) -> Tournament:
    """The event called ``name`` (see :func:`event_row`), with every round of every
    entrant."""
    db = archive.db
    eid, title, declared = event_row(archive, name)
    event = Tournament(eid, title, 0, [])
    games, unfinished = _games(archive, event)
    roster = [
        (int(n), int(p), str(c), None if o is None else int(o), str(col or ""))
        for n, p, c, o, col in db.rows(
            "SELECT round, player, code, opponent, colour FROM event_rounds WHERE event = ? "
            "ORDER BY round, player",
            (eid,),
        )
    ]
    boards = stored_boards(db, eid)
    involved = {pid for g in [*games, *unfinished] for _, pid in g.seats}
    involved |= {pid for b in boards for pid in b.players}
    involved |= {p for _, p, _, _, _ in roster} | {o for *_, o, _ in roster if o is not None}
    entrants: dict[int, Entrant] = {}
    for pid, number, rating, fed, fide, title_, sex, birth in db.rows(
        "SELECT player, number, rating, federation, fide_id, title, sex, birth "
        "FROM event_players WHERE event = ? ORDER BY number",
        (eid,),
    ):
        entrants[int(pid)] = Entrant(
            int(number), int(pid), "", {}, rating, fed or "", fide or "", title_ or "",
            sex or "", birth or "",
        )
    names = archive.player_names(set(entrants) | involved)
    for pid, entrant in entrants.items():
        entrant.name = names[pid]
    # players the roster does not number come after it, in the order of their names
    after = max((e.number for e in entrants.values()), default=0)
    for i, pid in enumerate(
        sorted(involved - set(entrants), key=lambda p: (names[p].casefold(), p)), after + 1
    ):
        entrants[pid] = Entrant(i, pid, names[pid])
    event.entrants = sorted(entrants.values(), key=lambda e: e.number)
    for game in games:
        _add_game(event, entrants, game)
    for game in unfinished:
        numbers = [entrants[pid].number for _, pid in game.seats]
        for i, (role, _) in enumerate(game.seats):
            colour = ("w", "b")[i] if len(numbers) == 2 else role
            others = tuple(n for j, n in enumerate(numbers) if j != i)
            event.pending[(game.round, numbers[i])] = (others, colour)
    for number, pid, code, opponent, colour in roster:
        _add_roster(event, entrants, number, pid, code, opponent, colour)
    opened, byes = open_boards(boards, entrants, event.pending)
    event.pending.update(opened)
    for pid, n in byes:  # the pairing-allocated byes the pairings gave
        entrants[pid].rounds[n] = Round(n, "U")
    event.rounds = max((n for e in event.entrants for n in e.rounds), default=0)
    event.declared = max(event.rounds, declared)
    for entrant in event.entrants:  # an absence wherever a player has nothing
        for n in range(1, event.rounds + 1):
            if (n, entrant.number) not in event.pending:
                entrant.rounds.setdefault(n, Round(n, "Z"))
    dates = db.one(
        "SELECT min(date_lo), max(date_hi), min(CASE WHEN site IN (?, '') THEN NULL "
        "ELSE site END) FROM games WHERE event = ?",
        ("?", eid),  # (a ? in the text would be taken for a parameter)
    )
    if dates is not None:
        event.start, event.end, event.site = (str(v or "") for v in dates)
    return event


def _games(archive: Archive, event: Tournament) -> tuple[list[_Game], list[_Game]]:
    """The event's games that count, and those not finished yet; the others (and the
    unfinished) go to ``left_out``, with the reason."""
    db = archive.db
    seats: dict[int, list[tuple[str, int]]] = {}
    for gid, role, pid in db.rows(
        "SELECT gp.game, gp.role, gp.player FROM game_players gp JOIN games g "
        "ON g.id = gp.game WHERE g.event = ? ORDER BY gp.game, gp.seat",
        (event.id,),
    ):
        seats.setdefault(int(gid), []).append((str(role), int(pid)))
    out, unfinished = [], []
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
        if len({pid for _, pid in sat}) < len(sat):
            event.left_out.append((gid, "one player holds two seats"))
            continue
        scores = parse_result(str(result), len(sat))
        if scores is None:
            event.left_out.append((gid, f"not finished (result {result})"))
            unfinished.append(_Game(gid, number, sat, (), False, False))
            continue
        forfeit = " ".join(str(termination or "").split()).casefold() == "forfeit"
        out.append(_Game(gid, number, sat, scores, forfeit, int(plies) > 0))
    return out, unfinished


def _add_game(event: Tournament, entrants: dict[int, Entrant], game: _Game) -> None:
    event.seats = max(event.seats, len(game.seats))
    codes = _codes(game.scores, game.forfeit, game.moved)
    numbers = [entrants[pid].number for _, pid in game.seats]
    for i, (role, pid) in enumerate(game.seats):
        others = tuple(n for j, n in enumerate(numbers) if j != i)
        colour = ("w", "b")[i] if len(game.seats) == 2 else role
        standard = game.scores[i] in (WIN, DRAW, LOSS) and len(game.seats) == 2
        score = None if standard else game.scores[i]
        _put(
            event,
            entrants[pid],
            Round(game.round, codes[i], others, colour, game.id, score),
            f"game #{game.id}",
        )


def _add_roster(
    event: Tournament,
    entrants: dict[int, Entrant],
    number: int,
    pid: int,
    code: str,
    opponent: int | None,
    colour: str,
) -> None:
    entrant = entrants[pid]
    others = () if opponent is None else (entrants[opponent].number,)
    if code == " ":  # paired, not played yet
        event.pending[(number, entrant.number)] = (others, colour)
        return
    held = entrant.rounds.get(number)
    if held is not None and held.game is not None:
        # a game stored after the roster was read: it must tell the same story
        if held.opponents == others and same_result(held.code, code):
            return
        raise EventError(
            f"{event.name!r}, round {number}: the roster gives {entrant.name} a "
            f"{CODES[code][2]}, and game #{held.game} a {CODES[held.code][2]}"
            + ("" if held.opponents == others else " against another opponent")
            + "; zrec archive roster reads a corrected roster, zrec archive remove takes a "
            "game out"
        )
    _put(event, entrant, Round(number, code, others, colour), "a roster entry")


def _put(event: Tournament, entrant: Entrant, done: Round, where: str) -> None:
    there = entrant.rounds.get(done.number)
    if there is not None:
        first = f"game #{there.game}" if there.game else "a roster entry"
        raise EventError(
            f"{event.name!r}, round {done.number}: {entrant.name} has two results "
            f"({first} and {where}); zrec archive remove takes a game out"
        )
    entrant.rounds[done.number] = done
