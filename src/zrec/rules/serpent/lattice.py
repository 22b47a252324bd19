"""The three-row lattice of the serpent games: graph, bitmask move tests, Setup, drawing.

Geometry only, no rule options beyond the board's shape: the points, the lines, the
jumps, the neighbour and jump tables, the bit operations the rules engine in
:mod:`zrec.rules.serpent.engine` is built on, the ``Setup`` board string and the text drawing.
A lattice with ``n`` points in each outer row has the points ``a1``–``a<n>``,
``b1``–``b<n+1>`` and ``c1``–``c<n>``; ``a_i`` and ``c_i`` stand between ``b_i`` and
``b_i+1``.  Ludii's 48-point Kolowis board (``lattice(16, ludii=True)``) is the
16-point lattice without the east end point ``b17``, and its ends are no curved lines:
no jump goes round an end (``a1``–``b1``–``c1``, ``a16``–``b16``–``c16``).

Points are bits of an int, interleaved so that most lines and jumps are one shift:
``b_i`` is bit ``3(i-1)``, ``a_i`` bit ``3(i-1)+1``, ``c_i`` bit ``3(i-1)+2``.  The
middle and outer lines join bits 3 apart, the diagonals bits 1 or 2 apart.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from zrec.rules.base import SetupError

ROWS = "bac"  # the row of bit i is ROWS[i % 3]

#: A jump shape and its mirror image: (first shift, second shift, mask of the points a
#: jump of the shape starts from, the same for the mirrored shape).  A shape is the
#: two shifts from the start to the jumped point and on to the landing point; the
#: mirrored shape shifts the other way both times.
Pair = tuple[int, int, int, int]


def point_name(i: int) -> str:
    """The name of bit ``i`` (the same on every lattice): 0 -> ``b1``, 1 -> ``a1``."""
    return f"{ROWS[i % 3]}{i // 3 + 1}"


def point_index(name: str) -> int:
    """The bit of a point name (no range check): ``b1`` -> 0, ``a1`` -> 1, ``c1`` -> 2."""
    return 3 * (int(name[1:]) - 1) + ROWS.index(name[0])


def coordinates(i: int) -> tuple[int, int]:
    """Drawing coordinates of bit ``i``: ``b_k`` at (2k-2, 0), ``a_k``/``c_k`` at (2k-1, ∓1)."""
    k, row = divmod(i, 3)
    return (2 * k, 0) if row == 0 else (2 * k + 1, -1 if row == 1 else 1)


@dataclass(frozen=True, eq=False)
class Lattice:
    """One board: ``n`` points per outer row, lined or open, line or bent jumps."""

    n: int
    lined: bool
    bent: bool
    size: int  # number of points, 3n + 1 (Ludii's board: 3n); the bits are 0 .. size-1
    full: int  # every point
    centre: int
    index: Mapping[str, int]  # name -> bit
    points: tuple[int, ...]  # rows a, b, c, west to east
    lines: tuple[tuple[int, int], ...]  # each line once, smaller bit first
    jumps: tuple[tuple[int, int, int], ...]  # (from, over, to), both directions
    adjacent: tuple[int, ...]  # bit -> mask of its neighbours
    neighbours: tuple[tuple[int, ...], ...]  # bit -> its neighbours
    jumps_from: tuple[tuple[tuple[int, int], ...], ...]  # bit -> ((over, to), ...)
    over: Mapping[tuple[int, int], tuple[int, ...]]  # (from, to) -> the points jumped
    step_up: tuple[tuple[int, int], ...]  # (shift, mask of sources) for steps to higher bits
    step_down: tuple[tuple[int, int], ...]
    jump_straight: tuple[Pair, ...]  # shapes shifting up twice, mirrored: down twice
    jump_turning: tuple[Pair, ...]  # shapes shifting up then down, mirrored: down then up
    east_end: bool = True  # whether b<n+1> is a point (not on Ludii's board)

    @property
    def middle(self) -> int:
        """The number of points of the middle row: n + 1, or n on Ludii's board."""
        return self.n + 1 if self.east_end else self.n

    def can_capture(self, own: int, enemy: int) -> bool:
        """Whether a piece of ``own`` can jump a piece of ``enemy``: for each jump shape
        and its mirror image, the pieces that start one move onto the enemy pieces and
        on to the empty points."""
        empty = self.full & ~(own | enemy)
        for a, b, up, down in self.jump_straight:
            if ((((own & up) << a) & enemy) << b | (((own & down) >> a) & enemy) >> b) & empty:
                return True
        for a, b, up, down in self.jump_turning:
            if ((((own & up) << a) & enemy) >> b | (((own & down) >> a) & enemy) << b) & empty:
                return True
        return False

    def can_step(self, own: int, enemy: int) -> bool:
        """Whether a piece of ``own`` has an empty neighbour."""
        empty = self.full & ~(own | enemy)
        for d, m in self.step_up:
            if ((own & m) << d) & empty:
                return True
        for d, m in self.step_down:  # noqa: SIM110
            if ((own & m) >> d) & empty:
                return True
        return False

    def can_jump_from(self, p: int, others: int, enemy: int) -> bool:
        """Whether a piece on ``p`` can jump; ``others`` is every other occupied point."""
        for q, r in self.jumps_from[p]:  # noqa: SIM110
            if enemy >> q & 1 and not others >> r & 1:
                return True
        return False

    def chains(self, own: int, enemy: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Every whole capture chain of ``own``: (landing path, points jumped in order)."""
        out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        jumps_from = self.jumps_from
        # Only pieces with a jump start a chain: the same test as can_capture, per piece.
        rest = own
        while rest:
            low = rest & -rest
            rest ^= low
            p = low.bit_length() - 1
            others = (own ^ low) | enemy
            for q, r in jumps_from[p]:
                if enemy >> q & 1 and not others >> r & 1:
                    self._extend(p, own ^ low, enemy, [p], [], out)
                    break
        return out

    def hops(self, own: int, enemy: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Every single jump of ``own`` (a move under Chains "one"): ((from, to), (over,))."""
        out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        occupied = own | enemy
        rest = own
        while rest:
            low = rest & -rest
            rest ^= low
            p = low.bit_length() - 1
            out += [((p, r), (q,)) for q, r in self.jumps_from[p]
                    if enemy >> q & 1 and not occupied >> r & 1]
        return out

    def chain_prefixes(
        self, own: int, enemy: int
    ) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Every capture chain of ``own`` that stops after any of its jumps (a move where
        a chain may stop): (landing path, points jumped in order), each prefix of every
        whole chain once per way of jumping it."""
        out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        rest = own
        while rest:
            low = rest & -rest
            rest ^= low
            p = low.bit_length() - 1
            self._prefixes(p, own ^ low, enemy, [p], [], out)
        return out

    def _prefixes(
        self,
        cur: int,
        friends: int,
        enemy: int,
        path: list[int],
        caps: list[int],
        out: list[tuple[tuple[int, ...], tuple[int, ...]]],
    ) -> None:
        occupied = friends | enemy
        for q, r in self.jumps_from[cur]:
            if enemy >> q & 1 and not occupied >> r & 1:
                path.append(r)
                caps.append(q)
                out.append((tuple(path), tuple(caps)))
                self._prefixes(r, friends, enemy ^ (1 << q), path, caps, out)
                path.pop()
                caps.pop()

    def chains_from(
        self, p: int, own: int, enemy: int
    ) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Every whole capture chain of the piece on ``p`` (``own`` includes it)."""
        out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        self._extend(p, own & ~(1 << p), enemy, [p], [], out)
        return [c for c in out if c[1]]

    def _extend(
        self,
        cur: int,
        friends: int,
        enemy: int,
        path: list[int],
        caps: list[int],
        out: list[tuple[tuple[int, ...], tuple[int, ...]]],
    ) -> None:
        occupied = friends | enemy
        went_on = False
        for q, r in self.jumps_from[cur]:
            if enemy >> q & 1 and not occupied >> r & 1:
                went_on = True
                path.append(r)
                caps.append(q)
                self._extend(r, friends, enemy ^ (1 << q), path, caps, out)
                path.pop()
                caps.pop()
        if not went_on and caps:
            out.append((tuple(path), tuple(caps)))


def _lines(n: int, lined: bool) -> list[tuple[int, int]]:
    lines: list[tuple[int, int]] = []
    for k in range(n + 1):  # b_{k+1} - b_{k+2}
        if k < n:
            lines.append((3 * k, 3 * k + 3))
    for k in range(n):  # a_{k+1}, c_{k+1} to b_{k+1} and b_{k+2}
        a, c = 3 * k + 1, 3 * k + 2
        lines += [(3 * k, a), (a, 3 * k + 3), (3 * k, c), (c, 3 * k + 3)]
        if lined and k < n - 1:
            lines += [(a, a + 3), (c, c + 3)]
    return sorted(lines)


def _line_jumps(n: int, lined: bool) -> list[tuple[int, int, int]]:
    """The jumps along one line of the drawing, as (one end, middle, other end)."""
    triples: list[tuple[int, int, int]] = []
    triples += [(3 * k, 3 * k + 3, 3 * k + 6) for k in range(n - 1)]  # middle line
    for j in range(1, n):  # diagonals through b_{j+1}
        b = 3 * j
        triples += [(b - 2, b, b + 2), (b - 1, b, b + 1)]  # a_j b_j+1 c_j+1, c_j b_j+1 a_j+1
    if lined:
        for k in range(n - 2):
            triples += [(3 * k + 1, 3 * k + 4, 3 * k + 7), (3 * k + 2, 3 * k + 5, 3 * k + 8)]
    triples += [(1, 0, 2), (3 * n - 2, 3 * n, 3 * n - 1)]  # the curved ends
    return triples + [(r, q, p) for p, q, r in triples]


def _pairs(jumps: list[tuple[int, int, int]]) -> tuple[tuple[Pair, ...], tuple[Pair, ...]]:
    """The jump shapes, each with its mirror image: those whose two shifts go the same
    way, and those that turn back (as :meth:`Lattice.can_capture` tests them)."""
    shapes: dict[tuple[int, int], int] = {}
    for p, q, r in jumps:
        shapes[q - p, r - q] = shapes.get((q - p, r - q), 0) | 1 << p
    # each shape by the one of it and its mirror image whose first shift goes up
    ups = sorted({(d1, d2) if d1 > 0 else (-d1, -d2) for d1, d2 in shapes})
    straight = tuple(
        (d1, d2, shapes.get((d1, d2), 0), shapes.get((-d1, -d2), 0)) for d1, d2 in ups if d2 > 0
    )
    turning = tuple(
        (d1, -d2, shapes.get((d1, d2), 0), shapes.get((-d1, -d2), 0)) for d1, d2 in ups if d2 < 0
    )
    return straight, turning


@cache
def lattice(n: int, lined: bool = True, bent: bool = False, ludii: bool = False) -> Lattice:
    """The board with ``n`` points per outer row (8 Mosona, 16 Kolowis), built once;
    ``ludii``: Ludii's board, without ``b<n+1>`` and without jumps round the ends."""
    size = 3 * n if ludii else 3 * n + 1
    lines = [(x, y) for x, y in _lines(n, lined) if y < size]
    nbrs: list[list[int]] = [[] for _ in range(size)]
    for x, y in lines:
        nbrs[x].append(y)
        nbrs[y].append(x)
    if bent:
        jumps = [(p, q, r) for p in range(size) for q in nbrs[p] for r in nbrs[q] if r != p]
    elif ludii:
        ends = {(1, 0, 2), (2, 0, 1)}  # a1-b1-c1, both ways (and b<n+1> is gone)
        jumps = [j for j in _line_jumps(n, lined) if max(j) < size and j not in ends]
    else:
        jumps = _line_jumps(n, lined)
    jumps.sort()
    jumps_from: list[list[tuple[int, int]]] = [[] for _ in range(size)]
    over: dict[tuple[int, int], list[int]] = {}
    for p, q, r in jumps:
        jumps_from[p].append((q, r))
        over.setdefault((p, r), []).append(q)
    up: dict[int, int] = {}
    down: dict[int, int] = {}
    for x, y in lines:
        up[y - x] = up.get(y - x, 0) | 1 << x
        down[y - x] = down.get(y - x, 0) | 1 << y
    straight, turning = _pairs(jumps)
    rows = [range(1, size, 3), range(0, size, 3), range(2, size, 3)]
    return Lattice(
        n=n,
        lined=lined,
        bent=bent,
        size=size,
        full=(1 << size) - 1,
        centre=3 * (n // 2),
        index=MappingProxyType({point_name(i): i for i in range(size)}),
        points=tuple(i for row in rows for i in row),
        lines=tuple(lines),
        jumps=tuple(jumps),
        adjacent=tuple(sum(1 << y for y in ys) for ys in nbrs),
        neighbours=tuple(tuple(sorted(ys)) for ys in nbrs),
        jumps_from=tuple(tuple(js) for js in jumps_from),
        over=MappingProxyType({k: tuple(v) for k, v in over.items()}),
        step_up=tuple(sorted(up.items())),
        step_down=tuple(sorted(down.items())),
        jump_straight=straight,
        jump_turning=turning,
        east_end=not ludii,
    )


def read_setup(lat: Lattice, text: str, title: str, max_pieces: int) -> tuple[int, int, int]:
    """The (white, black, side to move) a Setup string gives; raises :class:`SetupError`.

    The string is the rows from north to south, ``<c row>/<b row>/<a row>``, each west to
    east (``W``, ``B``, or a number for a run of empty points), then ``w`` or ``b``.
    """
    n = lat.n
    fields = text.split()
    rows = fields[0].split("/") if fields else []
    if len(fields) != 2 or len(rows) != 3:
        east = "W" * (lat.middle - n // 2 - 1)
        example = f"{'B' * n}/{'B' * (n // 2)}1{east}/{'W' * n} w"
        raise SetupError(
            f"a Setup for {title} is the rows c/b/a and the side to move, "
            f'e.g. "{example}"; got "{text.strip()}"'
        )
    white = black = 0
    for row, cells, length in zip("cba", rows, (n, lat.middle, n), strict=True):
        k = 0
        for token in re.findall(r"[0-9]+|.", cells):  # ASCII digits only
            if token[0] in "0123456789":
                if len(token) > 3:
                    raise SetupError(f'row {row} has the run "{token[:12]}", longer than the row')
                if token.startswith("0"):
                    raise SetupError(
                        f'row {row} has the run "{token}": write runs of empty points '
                        "from 1 up, with no leading zero"
                    )
                k += int(token)
                continue
            if token not in ("W", "B"):
                raise SetupError(
                    f'row {row} has the unknown character "{token}"; '
                    "use W, B or a number of empty points"
                )
            k += 1
            if k <= length:
                bit = 1 << point_index(f"{row}{k}")
                if token == "W":
                    white |= bit
                else:
                    black |= bit
        if k != length:
            raise SetupError(f"row {row} has {k} points; it must have {length}")
    for side, mask in (("White", white), ("Black", black)):
        if mask.bit_count() > max_pieces:
            raise SetupError(
                f"{side} has {mask.bit_count()} pieces; {title} has at most {max_pieces} a side"
            )
    if fields[1] not in ("w", "b"):
        raise SetupError(f'the side to move must be "w" or "b", not "{fields[1]}"')
    return white, black, 0 if fields[1] == "w" else 1


def setup_string(lat: Lattice, white: int, black: int, turn: int) -> str:
    """The Setup string of a position (the inverse of :func:`read_setup`)."""
    rows = []
    for row, length in (("c", lat.n), ("b", lat.middle), ("a", lat.n)):
        out, run = [], 0
        for k in range(1, length + 1):
            i = point_index(f"{row}{k}")
            letter = "W" if white >> i & 1 else "B" if black >> i & 1 else ""
            if not letter:
                run += 1
                continue
            if run:
                out.append(str(run))
            out.append(letter)
            run = 0
        if run:
            out.append(str(run))
        rows.append("".join(out))
    return "/".join(rows) + (" w" if turn == 0 else " b")


def drawing(lat: Lattice, white: int, black: int) -> str:
    """The board as text: rows c, b, a from north to south, ``W``, ``B`` or ``.`` on each
    point, the lines drawn with ``-``, ``/`` and ``\\``, numbers above (rows a and c) and
    below (row b)."""
    n = lat.n
    cut = None if lat.east_end else -1  # no last diagonals to b<n+1>

    def mark(i: int) -> str:
        return "W" if white >> i & 1 else "B" if black >> i & 1 else "."

    def outer(row: int) -> str:
        link = "---" if lat.lined else "   "
        return "  " + link.join(mark(3 * k + row) for k in range(n))

    return "\n".join(
        [
            "      " + "".join(f"{k:<4}" for k in range(1, n + 1)).rstrip(),
            "c   " + outer(2),
            "     " + " ".join("/ \\" for _ in range(n))[:cut].rstrip(),
            "b   " + "---".join(mark(3 * k) for k in range(lat.middle)),
            "     " + " ".join("\\ /" for _ in range(n))[:cut].rstrip(),
            "a   " + outer(1),
            "    " + "".join(f"{k:<4}" for k in range(1, lat.middle + 1)).rstrip(),
        ]
    )
