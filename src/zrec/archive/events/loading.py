"""An archive's event loaded as a tournament (:class:`~zrec.tournament.event.Tournament`).

:func:`load_event` reads one event of an archive: its stored games (the ``Round`` tag
gives the round, the result token each seat's score) and its roster
(``event_players``: pairing numbers; ``event_rounds``: byes, absences and results
known without a record).  Every round of every entrant becomes a
:class:`~zrec.tournament.event.Round` with its TRF result code.  docs/tournaments.md
gives the rules this module follows:

- a game counts in the round its ``Round`` tag names (``3``, or ``3.2`` for board 2);
  games without a round, and unfinished games (``*``), do not count;
- a game with a ``Termination "forfeit"`` tag was not played: its scores are forfeit
  wins and losses (``+`` and ``-``); a game that ended before its first move by any
  other termination was played, but is not rated (``W D L``);
- a round a player has no game and no roster entry for is an absence (``Z``, no
  points), up to the last round being counted;
- the stored pairings (:mod:`zrec.archive.events.pairstore`) give the
  pairing-allocated byes, and keep a paired round open until its game is stored.

:func:`archive_mismatches` checks the stored games of every paired event against its
stored pairings (:mod:`zrec.tournament.paired`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from zrec.archive.events.pairstore import stored_boards
from zrec.archive.store import Archive
from zrec.rules.values import parse_result
from zrec.tournament.boards import open_boards
from zrec.tournament.event import (
    CODES,
    DRAW,
    LOSS,
    WIN,
    Entrant,
    EventError,
    Round,
    Tournament,
    round_number,
    same_result,
    seat_codes,
)
from zrec.tournament.paired import game_mismatches

__all__ = ["archive_mismatches", "event_row", "load_event"]


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
    codes = seat_codes(game.scores, game.forfeit, game.moved)
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


def archive_mismatches(archive: Archive) -> list[tuple[int, str]]:
    """:func:`game_mismatches` of every event with stored pairings (an event that cannot
    be scored as it stands is left to its standings to report)."""
    found: list[tuple[int, str]] = []
    for eid, name in archive.db.rows(
        "SELECT id, name FROM events WHERE id IN (SELECT event FROM event_pairings) "
        "ORDER BY name"
    ):
        try:
            event = load_event(archive, str(name))
        except EventError:
            continue
        found += game_mismatches(event, stored_boards(archive.db, int(eid)))
    return found
