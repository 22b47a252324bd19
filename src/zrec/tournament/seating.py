"""Seating a round of a game of more than two seats: tables by score groups, and the
seats rotated (``zrec archive seat``; docs/tournaments.md says the method).

- **Tables.** The players are taken by points (most first), then pairing number, and
  cut in that order into ``t = ⌈n / K⌉`` tables whose sizes are as even as possible,
  the larger ones first: 9 players at 3 seats are 3, 3, 3; 10 are 3, 3, 2, 2 (the
  last tables one seat short when the count does not divide).
- **Seats.** At each table the seats (``1 … size``) go to the players so that, summed
  over the table, each player gets a seat they have had as few times as possible
  before.  Among equally good ways, the one that gives the most players their seat of
  the rotation (table position ``i``, counted from 0, takes seat
  ``(i + round − 1) mod size``) is taken, and among those the first in order.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction

__all__ = ["seat_round", "table_sizes"]


def table_sizes(players: int, seats: int) -> list[int]:
    """The sizes of the tables for ``players`` at tables of ``seats``."""
    if seats < 2:
        raise ValueError(f"a table has 2 seats or more, not {seats}")
    if players < 2:
        raise ValueError(f"seating needs 2 players or more, not {players}")
    tables = -(-players // seats)
    small, extra = divmod(players, tables)
    return [small + 1] * extra + [small] * (tables - extra)


def _seats(table: Sequence[int], number: int, had: Mapping[int, Sequence[int]]) -> tuple[int, ...]:
    """The table's players in seat order (see the module's text)."""
    size = len(table)
    best: tuple[tuple[int, int, tuple[int, ...]], tuple[int, ...]] | None = None
    for order in itertools.permutations(range(size)):  # order[i]: the seat of table[i]
        cost = sum(list(had.get(p, ())).count(order[i]) for i, p in enumerate(table))
        rotated = sum(1 for i in range(size) if order[i] == (i + number - 1) % size)
        key = (cost, -rotated, order)
        if best is None or key < best[0]:
            best = (key, order)
    assert best is not None
    order = best[1]
    return tuple(table[order.index(s)] for s in range(size))


def seat_round(
    players: Sequence[tuple[int, Fraction]],
    seats: int,
    number: int,
    had: Mapping[int, Sequence[int]] | None = None,
) -> list[tuple[int, ...]]:
    """The tables of round ``number``: each the pairing numbers in seat order.
    ``players``: (pairing number, points before the round); ``had``: pairing number ->
    the seats (from 0) had in earlier rounds."""
    ranked = [p for p, _ in sorted(players, key=lambda x: (-x[1], x[0]))]
    tables, start = [], 0
    for size in table_sizes(len(ranked), seats):
        tables.append(_seats(ranked[start : start + size], number, had or {}))
        start += size
    return tables
