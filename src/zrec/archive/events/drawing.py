"""Drawing an event's rounds into the archive: a Swiss round paired by the FIDE Dutch
system (``zrec archive pair``), a round-robin table by the Berger tables (``schedule
--round-robin``), and the tables of a game of more seats (``seat``).

Each stores its boards (:mod:`zrec.archive.events.pairstore`) in one transaction and
refuses, with nothing written:

- a round that already has stored pairings, unless asked to replace them;
- a round with a stored game or a result from the roster (its pairings are history);
- a round whose earlier rounds still have a board without a result;
- a round past the event's rounds (as :func:`zrec.archive.events.byes.event_rounds`
  counts them), unless asked to extend the event.

The players are the event's entrants with their pairing numbers
(:func:`zrec.archive.events.loading.load_event`: the roster's, else by name); a
player with a bye or an absence already entered for the round is not drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from zrec.archive.events.byes import event_rounds
from zrec.archive.events.loading import event_row, load_event
from zrec.archive.events.pairstore import stored_boards, write_boards
from zrec.archive.store import Archive
from zrec.tournament.berger import berger_rounds
from zrec.tournament.boards import Board
from zrec.tournament.event import (
    MAX_ROUNDS,
    Entrant,
    EventError,
    Round,
    Tournament,
    round_number,
)
from zrec.tournament.seating import seat_round

__all__ = ["Drawn", "event_seats", "next_round", "pair_event", "schedule_event", "seat_event"]


@dataclass(frozen=True, slots=True)
class Drawn:
    """What was stored: the event as it stands now, the rounds drawn, and the event's
    stored boards."""

    event: Tournament
    rounds: list[int]
    boards: list[Board]


def next_round(event: Tournament, boards: Sequence[Board]) -> int:
    """One past the last round with games (finished or not) or stored pairings: a
    round that holds only byes and absences entered ahead is the one to draw."""
    played = (n for e in event.entrants for n, r in e.rounds.items() if r.opponents)
    return max([0, *played, *(n for n, _ in event.pending), *(b.round for b in boards)]) + 1


def _as_drawn(archive: Archive, event: Tournament, number: int) -> list[Entrant]:
    """The entrants as round ``number`` is drawn from: their rounds before it, and in
    it only the byes and absences entered for it (``zrec archive bye``, the roster).
    The event counts a round without a game as an absence for everyone else; that is
    the score of a round played, not of one being drawn."""
    entered = {
        int(pid): str(code)
        for pid, code in archive.db.rows(
            "SELECT player, code FROM event_rounds WHERE event = ? AND round = ?",
            (event.id, number),
        )
    }
    return [
        replace(e, rounds={
            **{n: r for n, r in e.rounds.items() if n < number},
            **({number: Round(number, entered[e.player])} if e.player in entered else {}),
        })
        for e in event.entrants
    ]


def _games_of(archive: Archive, event: Tournament, number: int | None) -> list[int]:
    """The ids of the event's stored games of round ``number`` (None: of any round)."""
    return [
        int(gid)
        for gid, tag in archive.db.rows(
            "SELECT id, round FROM games WHERE event = ? ORDER BY id", (event.id,)
        )
        if number is None or round_number(None if tag is None else str(tag)) == number
    ]


def _check_round(
    archive: Archive, event: Tournament, declared: int, boards: Sequence[Board],
    number: int, replace: bool, extend: bool, how: str,
) -> None:
    name = event.name
    if not 1 <= number <= MAX_ROUNDS:
        raise EventError(f"rounds are 1 to {MAX_ROUNDS}, not {number}")
    if any(b.round == number for b in boards) and not replace:
        raise EventError(
            f"{name!r}, round {number} already has stored pairings: {how} --replace draws "
            "it again"
        )
    games = _games_of(archive, event, number)
    if games:
        listed = ", ".join(f"#{g}" for g in games[:5]) + (", …" if len(games) > 5 else "")
        raise EventError(
            f"{name!r}, round {number} has stored games ({listed}): its pairings stand; "
            "zrec archive remove ID takes a game out"
        )
    known = [e for e in event.entrants if (r := e.rounds.get(number)) and r.opponents]
    if known:
        raise EventError(
            f"{name!r}, round {number}: the roster gives {known[0].name} a result in that "
            "round: its pairings stand"
        )
    open_ = sorted((n, p) for n, p in event.pending if n < number)
    if open_:
        n, p = open_[0]
        raise EventError(
            f"{name!r}, round {n} is not finished: {event.entrant(p).name} has no result "
            f"yet; round {number} is drawn once the rounds before it have their results"
        )
    rounds, why = event_rounds(event, declared)
    if number > rounds and not extend:
        raise EventError(
            f"{name!r} has {rounds} rounds ({why}): drawing round {number} would add a "
            "round; --extend-rounds adds it"
        )


def _prepare(
    archive: Archive, name: str, number: int | None, replace: bool, extend: bool, how: str
) -> tuple[Tournament, int, int]:
    """The event without the stored pairings of the round to draw (when replaced), the
    round, and the rounds the event declares (in the caller's transaction)."""
    eid, title, declared = event_row(archive, name)
    event = load_event(archive, title)
    boards = stored_boards(archive.db, eid)
    if number is None:  # (replace: the last round with stored pairings, drawn again)
        last = max((b.round for b in boards), default=None)
        number = last if replace and last is not None else next_round(event, boards)
    _check_round(archive, event, declared, boards, number, replace, extend, how)
    following = next_round(event, boards)
    if number > following:
        raise EventError(
            f"{title!r}, round {number}: round {following} is not drawn yet; rounds are "
            f"drawn in order ({how} --round {following}), or every player would be "
            "absent in the rounds between"
        )
    if any(b.round == number for b in boards):  # (replace): drawn again from the start
        write_boards(archive.db, eid, {number: []})
        event = load_event(archive, title)
    if not event.entrants:
        raise EventError(
            f"{title!r} has no players yet: zrec archive roster reads them from a TRF file"
        )
    return event, number, declared


def _drawing(entrants: Sequence[Entrant], number: int) -> list[int]:
    """The pairing numbers of the players drawn in round ``number``: everyone without
    a bye or an absence already entered for it."""
    return [e.number for e in entrants if number not in e.rounds]


def _store(
    archive: Archive, event: Tournament, rounds: dict[int, list[tuple[tuple[int, ...], str]]]
) -> Drawn:
    ids = {e.number: e.player for e in event.entrants}
    boards = {
        n: [Board(n, i, tuple(ids[p] for p in players), code)
            for i, (players, code) in enumerate(drawn, 1)]
        for n, drawn in rounds.items()
    }
    write_boards(archive.db, event.id, boards)
    stored = stored_boards(archive.db, event.id)
    return Drawn(load_event(archive, event.name), sorted(rounds), stored)


def pair_event(
    archive: Archive, name: str, number: int | None = None, replace: bool = False,
    extend: bool = False, first_colour: str = "",
) -> Drawn:
    """Pair a Swiss round (by default the next) by the FIDE Dutch system and store it
    (``first_colour``: ``w`` or ``b``, the top seed's colour in round 1; by default as
    round 1 was paired, else ``w``)."""
    from zrec.tournament.swiss import pair_round

    with archive.db.transaction(lock=True):
        event = load_event(archive, name)
        if not event.two_player:
            raise EventError(
                f"{event.name!r} has games of {event.seats} seats: zrec archive seat seats "
                "its tables"
            )
        event, number, declared = _prepare(archive, name, number, replace, extend,
                                           "zrec archive pair")
        pairing = pair_round(_as_drawn(archive, event, number), number,
                             rounds=max(declared, number),
                             first_colour=first_colour)
        drawn: list[tuple[tuple[int, ...], str]] = [(pair, "") for pair in pairing.pairs]
        if pairing.bye is not None:
            drawn.append(((pairing.bye,), "U"))
        return _store(archive, event, {number: drawn})


def schedule_event(
    archive: Archive, name: str, double: bool = False, replace: bool = False
) -> Drawn:
    """Store the whole round-robin table (the Berger tables; ``double``: twice, the
    colours reversed) as the pairings of rounds 1, 2, …."""
    with archive.db.transaction(lock=True):
        eid, title, _ = event_row(archive, name)
        event = load_event(archive, title)
        boards = stored_boards(archive.db, eid)
        games = _games_of(archive, event, None)
        if (boards or games) and not replace:
            held = "stored pairings" if boards else f"stored games (#{games[0]}, …)"
            raise EventError(
                f"{title!r} has {held}: zrec archive schedule --replace writes the table "
                "in place of every stored pairing"
            )
        write_boards(archive.db, eid, {b.round: [] for b in boards})
        event = load_event(archive, title)
        numbers = [e.number for e in event.entrants]
        if len(numbers) < 2:
            raise EventError(f"{title!r} has {len(numbers)} players: a round robin needs 2")
        real = len(numbers)
        rounds: dict[int, list[tuple[tuple[int, ...], str]]] = {}
        for n, table in enumerate(berger_rounds(real, double), 1):
            drawn: list[tuple[tuple[int, ...], str]] = []
            for white, black in table:
                if real < max(white, black):  # the dummy: a round off
                    drawn.append(((numbers[min(white, black) - 1],), "Z"))
                else:
                    drawn.append(((numbers[white - 1], numbers[black - 1]), ""))
            drawn.sort(key=lambda d: len(d[0]) == 1)  # the round off after the boards
            rounds[n] = drawn
        return _store(archive, event, rounds)


def event_seats(archive: Archive, event: Tournament) -> tuple[int | None, int | None]:
    """The seats the event's games are played with (None without a game), and the most
    seats its game has (the seats of the game and rule options most of its games play:
    its engine's, or every seat of the game when no engine is made from the options
    alone; None for a game zrec does not know)."""
    from zrec.archive.store import split_options
    from zrec.errors import ZrecError
    from zrec.rules import find_game
    from zrec.rules.base import UnknownGameError, configure

    row = archive.db.one(
        "SELECT g.game, o.options, count(*) AS n FROM games g "
        "JOIN rule_options o ON o.id = g.options_id WHERE g.event = ? "
        "GROUP BY g.game, o.options ORDER BY n DESC, g.game, o.options LIMIT 1",
        (event.id,),
    )
    if row is None:
        return None, None
    try:
        rules = find_game(str(row[0]))
    except UnknownGameError:
        return event.seats, None
    try:
        engine = rules.engine_for(configure(rules, split_options(str(row[1]))))
    except ZrecError:
        engine = None
    return event.seats, len(engine.seats if engine is not None else rules.seats)


def seat_event(
    archive: Archive, name: str, seats: int | None = None, number: int | None = None,
    replace: bool = False, extend: bool = False,
) -> Drawn:
    """Seat a round (by default the next) at tables of ``seats`` by score groups, the
    seats rotated (:mod:`zrec.tournament.seating`), and store it."""
    with archive.db.transaction(lock=True):
        event, number, _ = _prepare(archive, name, number, replace, extend,
                                    "zrec archive seat")
        played, most = event_seats(archive, event)
        count = seats or played
        if count is None:
            raise EventError(
                f"{event.name!r} has no game to take the seats from: give --seats K"
            )
        if count < 2 or (most is not None and count > most):
            raise EventError(
                f"a table has 2 seats or more, not {count}" if count < 2 else
                f"{event.name!r}: its game has at most {most} seats, not {count}"
            )
        players = _drawing(_as_drawn(archive, event, number), number)
        if len(players) < 2:
            raise EventError(
                f"{event.name!r}, round {number}: {len(players)} players to seat; a table "
                "needs 2"
            )
        by_player = {e.player: e.number for e in event.entrants}
        had: dict[int, list[int]] = {}
        for tag, seat, pid in archive.db.rows(
            "SELECT g.round, gp.seat, gp.player FROM game_players gp JOIN games g "
            "ON g.id = gp.game WHERE g.event = ? ORDER BY g.id, gp.seat",
            (event.id,),
        ):
            played = round_number(None if tag is None else str(tag))
            if played is not None and played < number and int(pid) in by_player:
                had.setdefault(by_player[int(pid)], []).append(int(seat))
        points = [(n, event.entrant(n).points(number - 1)) for n in players]
        tables = seat_round(points, count, number, had)
        return _store(archive, event, {number: [(t, "") for t in tables]})
