"""The stored pairings of an event's rounds (the table ``event_pairings``, schema
version 9), as ``zrec archive pair``, ``schedule`` and ``seat`` drew them: each
round's :class:`~zrec.tournament.boards.Board` list, its players by archive id.

:func:`~zrec.archive.events.loading.load_event` reads them (through
:func:`~zrec.tournament.boards.open_boards`); ``zrec archive import`` checks stored
games against them (:func:`~zrec.archive.events.loading.archive_mismatches`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from zrec.archive.store.db import Database
from zrec.tournament.boards import Board

__all__ = ["stored_boards", "write_boards"]


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
