"""Ludii's serpent boards in zrec's point names: the data that reads a Ludii trial of
Awithlaknan Mosona or Kolowis Awithlaknannai (:mod:`zrec.rules.ludii`).

Ludii numbers the points of its ``.lud`` boards (v1.3.13) in the order it builds them.
Read row by row (bottom row ``a``, middle ``b``, top ``c``, each west to east), its
Mosona board is zrec's 25-point board, and its Kolowis board is zrec's 48-point board
(``Lattice "48"``: the 49-point board without the east end point ``b17``).  Ludii's
first mover, player 1, starts on the bottom row: zrec's White.
"""

from __future__ import annotations

from zrec.rules.ludii import LudiiBoard


def _points(text: str) -> tuple[str, ...]:
    return tuple(text.split())


#: Ludii's site i is MOSONA_SITES[i] ("Awithlaknan Mosona.lud", 25 sites).
MOSONA_SITES = _points(
    "b1 b2 c1 a1 b3 b4 b5 b6 b7 b8 c2 c3 c4 c5 c6 c7 c8 a2 a3 a4 a5 a6 a7 a8 b9"
)

#: Ludii's site i is KOLOWIS_SITES[i] ("Kolowis Awithlaknannai.lud", 48 sites).
KOLOWIS_SITES = _points(
    "b1 b2 c1 a1 b3 b4 b5 b6 b7 b8 b9 b10 b11 b12 b13 b14 b15 b16 "
    "c2 c3 c4 c5 c6 c7 c8 c9 c10 c11 c12 c13 c14 c15 c16 "
    "a2 a3 a4 a5 a6 a7 a8 a9 a10 a11 a12 a13 a14 a15 a16"
)

#: Ludii's board of each serpent game, by the number of points in an outer row.
LUDII_BOARDS = {
    8: LudiiBoard("Awithlaknan Mosona", MOSONA_SITES),
    16: LudiiBoard("Kolowis Awithlaknannai", KOLOWIS_SITES),
}
