"""Stored pairings: the boards of an event's rounds as ``zrec archive pair``,
``schedule`` and ``seat`` made them (the table ``event_pairings``, schema version 9).

A :class:`Board` is its players in seat order (a two-player game: White, then Black).
A board of one player is a round without an opponent: code ``U``, the
pairing-allocated bye of a Swiss round (a win's points), or ``Z``, the round a player
of a round robin with an odd number of players sits out.

- :func:`add_pairings` is what :func:`~zrec.archive.tournament.event.load_event` takes
  from them: a pairing-allocated bye counts (``U``) where the player has nothing else in
  that round, and a board whose game is not stored yet leaves its players' round open
  (as an unfinished game does), not an absence.  A round-robin round off is not counted
  ahead: the round is an absence when it comes, as it would be without pairings.
- :func:`mismatches` lists, in words, each stored game of a paired round that is not
  what the pairings say (other players, or colours the other way round).
- :func:`archive_mismatches` does so for every event with stored pairings (what
  ``zrec archive import`` warns of);
- :func:`write_boards` replaces the stored boards of some rounds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from zrec.archive.store import Archive
from zrec.archive.store.db import Database
from zrec.archive.tournament.event import Entrant, EventError, Round, Tournament, load_event

__all__ = [
    "Board", "add_pairings", "archive_mismatches", "mismatches", "stored_boards", "write_boards",
]


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a round: its players (archive ids) in seat order, and for a board
    of one player the code of that round (``U`` or ``Z``)."""

    round: int
    board: int
    players: tuple[int, ...]
    code: str = ""

    @property
    def bye(self) -> bool:
        return len(self.players) == 1


def stored_boards(db: Database, event: int) -> list[Board]:
    """The event's stored boards, by round and board."""
    seats: dict[tuple[int, int], list[int]] = {}
    codes: dict[tuple[int, int], str] = {}
    for number, board, player, code in db.rows(
        "SELECT round, board, player, code FROM event_pairings WHERE event = ? "
        "ORDER BY round, board, seat",
        (event,),
    ):
        key = (int(number), int(board))
        seats.setdefault(key, []).append(int(player))
        codes[key] = str(code or "")
    return [Board(n, b, tuple(p), codes[(n, b)]) for (n, b), p in sorted(seats.items())]


def write_boards(db: Database, event: int, rounds: Mapping[int, Sequence[Board]]) -> None:
    """Store the boards of each round given, in place of that round's stored boards
    (in the caller's transaction)."""
    for number, boards in rounds.items():
        db.execute("DELETE FROM event_pairings WHERE event = ? AND round = ?", (event, number))
        for board in boards:
            for seat, player in enumerate(board.players):
                db.execute(
                    "INSERT INTO event_pairings (event, round, board, seat, player, code) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (event, number, board.board, seat, player, board.code),
                )


def add_pairings(
    event: Tournament, entrants: Mapping[int, Entrant], boards: Iterable[Board]
) -> None:
    """Count the stored pairings in ``event`` (``entrants`` by player id): the
    pairing-allocated byes, and the open rounds of boards not played yet."""
    for board in boards:
        seated = [entrants[p] for p in board.players if p in entrants]
        if len(seated) != len(board.players):
            continue
        numbers = [e.number for e in seated]
        for i, entrant in enumerate(seated):
            key = (board.round, entrant.number)
            if board.round in entrant.rounds or key in event.pending:
                continue  # a game, a roster entry or a bye of its own holds the round
            if board.bye:
                if board.code == "U":
                    entrant.rounds[board.round] = Round(board.round, "U")
                continue
            others = tuple(n for j, n in enumerate(numbers) if j != i)
            colour = ("w", "b")[i] if len(numbers) == 2 else ""
            event.pending[key] = (others, colour)


def _who(event: Tournament, number: int) -> str:
    return f"{event.entrant(number).name} ({number})"


def _board_words(event: Tournament, board: tuple[int, ...], code: str = "") -> str:
    if len(board) == 1:
        return f"{_who(event, board[0])} {'the bye' if code == 'U' else 'a round off'}"
    return " – ".join(_who(event, n) for n in board)


def mismatches(event: Tournament, boards: Iterable[Board]) -> list[str]:
    """Each stored game of a paired round that the round's pairings do not have: its
    players not paired together, or (two players) the colours the other way round."""
    by_player = {e.player: e.number for e in event.entrants}
    paired: dict[int, dict[int, tuple[tuple[int, ...], str]]] = {}
    for board in boards:
        numbers = tuple(by_player[p] for p in board.players if p in by_player)
        for number in numbers:
            paired.setdefault(board.round, {})[number] = (numbers, board.code)
    found = []
    for number in sorted(paired):
        seen: set[int] = set()
        table = paired[number]
        for entrant in event.entrants:
            held = entrant.rounds.get(number)
            if held is None or held.game is None or held.game in seen:
                continue
            seen.add(held.game)
            game: tuple[int, ...]
            if held.colour == "b" and len(held.opponents) == 1:
                game = (held.opponents[0], entrant.number)
            else:
                game = (entrant.number, *held.opponents)
            where = {n: table.get(n) for n in game}
            boards_of = {b for b in where.values() if b is not None}
            if len(boards_of) == 1:
                (at, _) = next(iter(boards_of))
                if at == game or (len(game) > 2 and sorted(at) == sorted(game)):
                    continue
                if len(game) == 2 and at == game[::-1]:
                    found.append(
                        f"{event.name!r}, round {number}: game #{held.game} has "
                        f"{_who(event, game[0])} with White, but the pairings give White to "
                        f"{_who(event, at[0])}"
                    )
                    continue
            said = "; ".join(
                "not paired" if b is None else _board_words(event, *b)
                for b in dict.fromkeys(where[n] for n in game)
            )
            found.append(
                f"{event.name!r}, round {number}: game #{held.game} "
                f"({' – '.join(_who(event, n) for n in game)}) is not in the round's "
                f"pairings ({said})"
            )
    return found


def archive_mismatches(archive: Archive) -> list[str]:
    """:func:`mismatches` of every event with stored pairings (an event that cannot be
    scored as it stands is left to its standings to report)."""
    found = []
    for eid, name in archive.db.rows(
        "SELECT id, name FROM events WHERE id IN (SELECT event FROM event_pairings) "
        "ORDER BY name"
    ):
        try:
            event = load_event(archive, str(name))
        except EventError:
            continue
        found += mismatches(event, stored_boards(archive.db, int(eid)))
    return found
