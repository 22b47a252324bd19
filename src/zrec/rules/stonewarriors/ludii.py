"""Ludii's Awithlaknakwe board in zrec's point names: the data that reads a Ludii trial of
Awithlaknakwe (:mod:`zrec.rules.ludii`), the game of ``[Ruleset "ludii"]``.

Ludii (v1.3.13) plays Awithlaknakwe on the 365 points of the cross board (the corners
of the squares and the centre of each square) and numbers them in the order it builds
the board.  zrec names a point by the vertical line it stands on (a corner) or the line
just west of it (a centre), ``a`` to ``o`` west to east, and its row, ``1`` (south) to
``29`` (north): Ludii's point at (x, y) has zrec's doubled coordinates
(2(x + 1), 2(y + 1)).  Ludii's players 1 to 4 (N, E, S and W in its .lud) start on the
south, west, north and east arms and move in that order: zrec's seats South, West,
North and East.  The large pieces Ludii keeps in hand (its sites 672 to 675) are no
points: a capture places one without a move of its own, and zrec writes none.  A
pass is ``--``.
"""

from __future__ import annotations

from zrec.rules.ludii import LudiiBoard


def _points(text: str) -> tuple[str, ...]:
    return tuple(text.split())


#: Ludii's site i is POINTS[i] ("Awithlaknakwe.lud", 365 sites).
POINTS = _points(
    "b3 c3 d3 e3 f3 g3 h3 i3 j3 k3 l3 m3 n3 b4 c4 d4 e4 f4 g4 h4 i4 j4 k4 l4 m4 b5 c5 d5 "
    "e5 f5 g5 h5 i5 j5 k5 l5 m5 n5 b6 c6 d6 e6 f6 g6 h6 i6 j6 k6 l6 m6 b7 c7 d7 e7 f7 g7 "
    "h7 i7 j7 k7 l7 m7 n7 b8 c8 d8 e8 f8 g8 h8 i8 j8 k8 l8 m8 b9 c9 d9 e9 f9 g9 h9 i9 j9 "
    "k9 l9 m9 n9 b10 c10 d10 e10 f10 g10 h10 i10 j10 k10 l10 m10 b11 c11 d11 e11 f11 g11 "
    "h11 i11 j11 k11 l11 m11 n11 b12 c12 d12 e12 f12 g12 h12 i12 j12 k12 l12 m12 b13 c13 "
    "d13 e13 f13 g13 h13 i13 j13 k13 l13 m13 n13 b14 c14 d14 e14 f14 g14 h14 i14 j14 k14 "
    "l14 m14 b15 c15 d15 e15 f15 g15 h15 i15 j15 k15 l15 m15 n15 b16 c16 d16 e16 f16 g16 "
    "h16 i16 j16 k16 l16 m16 b17 c17 d17 e17 f17 g17 h17 i17 j17 k17 l17 m17 n17 b18 c18 "
    "d18 e18 f18 g18 h18 i18 j18 k18 l18 m18 b19 c19 d19 e19 f19 g19 h19 i19 j19 k19 l19 "
    "m19 n19 b20 c20 d20 e20 f20 g20 h20 i20 j20 k20 l20 m20 b21 c21 d21 e21 f21 g21 h21 "
    "i21 j21 k21 l21 m21 n21 b22 c22 d22 e22 f22 g22 h22 i22 j22 k22 l22 m22 b23 c23 d23 "
    "e23 f23 g23 h23 i23 j23 k23 l23 m23 n23 b24 c24 d24 e24 f24 g24 h24 i24 j24 k24 l24 "
    "m24 b25 c25 d25 e25 f25 g25 h25 i25 j25 k25 l25 m25 n25 b26 c26 d26 e26 f26 g26 h26 "
    "i26 j26 k26 l26 m26 b27 c27 d27 e27 f27 g27 h27 i27 j27 k27 l27 m27 n27 e1 f1 g1 h1 "
    "i1 j1 k1 e2 f2 g2 h2 i2 j2 e28 f28 g28 h28 i28 j28 e29 f29 g29 h29 i29 j29 k29 a10 "
    "a12 a14 a16 a18 a20 a9 a11 a13 a15 a17 a19 a21 o9 o11 o13 o15 o17 o19 o21 n10 n12 n14 "
    "n16 n18 n20"
)

#: Under Ruleset "ludii" zrec ends the game at Ludii's turn limit too.
LUDII_BOARD = LudiiBoard(
    "Awithlaknakwe", POINTS, seats=4, captures="listed", passing="--", limit_ends=True
)
