"""The boards of a round, as a pairing draws them, and the rounds they open.

A :class:`Board` is its players in seat order (a two-player game: White, then Black).
A board of one player is a round without an opponent: code ``U``, the
pairing-allocated bye of a Swiss round (a win's points), or ``Z``, the round a player
of a round robin with an odd number of players sits out.

:func:`open_boards` says what an event takes from them: a pairing-allocated bye counts
(``U``) where the player has nothing else in that round, and a board whose game is not
played yet leaves its players' round open (as an unfinished game does), not an
absence.  A round-robin round off is not counted ahead: the round is an absence when
it comes, as it would be without pairings.  :mod:`zrec.tournament.paired` checks games
against them; :mod:`zrec.archive.events.pairstore` stores them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

__all__ = ["Board", "Opened", "open_boards"]


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a round: its players (their ids, an entrant's ``player``) in seat
    order, and for a board of one player the code of that round (``U`` or ``Z``)."""

    round: int
    board: int
    players: tuple[int, ...]
    code: str = ""

    @property
    def bye(self) -> bool:
        return len(self.players) == 1


class Seated(Protocol):
    """An entrant as :func:`open_boards` reads it (its pairing number and rounds)."""

    @property
    def number(self) -> int: ...

    @property
    def rounds(self) -> Mapping[int, object]: ...


#: (round, pairing number) -> (the other players' numbers, colour)
Opened = dict[tuple[int, int], tuple[tuple[int, ...], str]]


def open_boards(
    boards: Iterable[Board],
    entrants: Mapping[int, Seated],
    pending: Mapping[tuple[int, int], object],
) -> tuple[Opened, list[tuple[int, int]]]:
    """The rounds the stored pairings open (``entrants`` by player id; ``pending``: the
    rounds already open), and the pairing-allocated byes to count: (player id, round).
    A round the player already has (a game, a roster entry, a bye) is left as it is."""
    opened: Opened = {}
    byes: list[tuple[int, int]] = []
    for board in boards:
        if not all(p in entrants for p in board.players):
            continue
        numbers = [entrants[p].number for p in board.players]
        for i, pid in enumerate(board.players):
            key = (board.round, numbers[i])
            if board.round in entrants[pid].rounds or key in pending or key in opened:
                continue
            if board.bye:
                if board.code == "U":
                    byes.append((pid, board.round))
                continue
            others = tuple(n for j, n in enumerate(numbers) if j != i)
            opened[key] = (others, ("w", "b")[i] if len(numbers) == 2 else "")
    return opened, byes
