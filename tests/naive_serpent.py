"""A deliberately naive move generator for Mosona and Kolowis, written from docs/rules.md
(Awithlaknannai Mosona), for the tests that check the engine against something that
shares nothing with it: the perft counts (tests/rules/test_serpent_perft.py) and the
random player's metrics (tests/test_metrics_naive.py).

It names points by strings, lists the lines with plain loops, finds the straight jumps
as collinear triples of drawing coordinates (the two curved end lines are listed by
hand), keeps the board in a dict and searches capture chains recursively.  Its moves
come in a fixed order (points in the order listed, jumps and neighbours sorted), so
that a random player drawing from them plays the same games for the same seed.
"""

from __future__ import annotations

Board = dict[str, str]  # point -> "W", "B" or "" (empty)


class Naive:
    """The rules of docs/rules.md (Awithlaknannai Mosona) in the plainest form: ``n``
    points a side (8: Mosona, 16: Kolowis), the lined or open board, straight or bent
    jumps."""

    def __init__(
        self, n: int, lined: bool = True, bent: bool = False, ludii: bool = False
    ) -> None:
        self.n = n
        self.ludii = ludii
        a = [f"a{i}" for i in range(1, n + 1)]
        b = [f"b{i}" for i in range(1, n + 1 if ludii else n + 2)]
        c = [f"c{i}" for i in range(1, n + 1)]
        self.xy = {p: (2 * i, 0) for i, p in enumerate(b)}
        self.xy |= {p: (2 * i + 1, -1) for i, p in enumerate(a)}
        self.xy |= {p: (2 * i + 1, 1) for i, p in enumerate(c)}
        self.points = list(self.xy)
        lines = [(b[i], b[i + 1]) for i in range(len(b) - 1)]
        for i in range(n):
            lines += [(a[i], b[i]), (c[i], b[i])]
            if i + 1 < len(b):
                lines += [(a[i], b[i + 1]), (c[i], b[i + 1])]
        if lined:
            lines += [(a[i], a[i + 1]) for i in range(n - 1)]
            lines += [(c[i], c[i + 1]) for i in range(n - 1)]
        self.lines = lines
        self.nbrs: dict[str, set[str]] = {p: set() for p in self.xy}
        for x, y in lines:
            self.nbrs[x].add(y)
            self.nbrs[y].add(x)
        jumps = set()
        for q in self.xy:
            for p in self.nbrs[q]:
                for r in self.nbrs[q]:
                    if r == p:
                        continue
                    (px, py), (qx, qy), (rx, ry) = self.xy[p], self.xy[q], self.xy[r]
                    if bent or (qx - px, qy - py) == (rx - qx, ry - qy):
                        jumps.add((p, q, r))
        if not bent and not ludii:  # the curved ends (Ludii's board has none)
            for p, q, r in [(a[0], b[0], c[0]), (a[-1], b[-1], c[-1])]:
                jumps |= {(p, q, r), (r, q, p)}
        self.jumps = sorted(jumps)

    def start(self) -> Board:
        n = self.n
        board = {p: "" for p in self.points}
        for i in range(1, n + 1):
            board[f"a{i}"], board[f"c{i}"] = "W", "B"
        if self.ludii:  # Ludii's 48 points: b1 and b9 empty
            for i in range(2, n // 2 + 1):
                board[f"b{i}"], board[f"b{n // 2 + i}"] = "B", "W"
            return board
        for i in range(1, n // 2 + 1):
            board[f"b{i}"], board[f"b{n + 2 - i}"] = "B", "W"
        return board

    def moves(self, board: Board, side: str) -> list[Board]:
        """The positions after each legal move (each whole chain once)."""
        enemy = "B" if side == "W" else "W"
        chains: dict[tuple[tuple[str, ...], frozenset[str]], Board] = {}

        def jump(board: Board, at: str, path: tuple[str, ...], taken: frozenset[str]) -> None:
            went_on = False
            for p, q, r in self.jumps:
                if p == at and board[q] == enemy and board[r] == "":
                    went_on = True
                    after = dict(board)
                    after[p], after[q], after[r] = "", "", side
                    jump(after, r, (*path, r), taken | {q})
            if not went_on and taken:
                chains[path, taken] = board

        for p in self.points:
            if board[p] == side:
                jump(board, p, (p,), frozenset())
        if chains:
            return list(chains.values())
        steps = []
        for p in self.points:
            for r in sorted(self.nbrs[p]):
                if board[p] == side and board[r] == "":
                    after = dict(board)
                    after[p], after[r] = "", side
                    steps.append(after)
        return steps

    def perft(self, board: Board, side: str, depth: int) -> int:
        """The number of move sequences ``depth`` long from ``board``, ``side`` to move."""
        if depth == 0:
            return 1
        other = "B" if side == "W" else "W"
        return sum(self.perft(b, other, depth - 1) for b in self.moves(board, side))

    def perft_drawn(
        self, board: Board, side: str, depth: int, no_capture: bool, repetition: bool
    ) -> int:
        """``perft`` under the draw rules: a line ends, drawn, after 50 plies in a row
        without a capture (``no_capture``) or when a position (the board and the side to
        move) stands for the third time since the last capture (``repetition``); the
        start counts as seen once."""

        def count(board: Board, side: str, depth: int, history: list[tuple[object, ...]]) -> int:
            if depth == 0:
                return 1
            if no_capture and len(history) > 50:
                return 0
            if repetition and history.count(history[-1]) >= 3:
                return 0
            other = "B" if side == "W" else "W"
            total = 0
            for after in self.moves(board, side):
                taken = sum(1 for x in after.values() if x) < sum(1 for x in board.values() if x)
                state = (other, *sorted(after.items()))
                total += count(after, other, depth - 1, [state] if taken else [*history, state])
            return total

        return count(board, side, depth, [(side, *sorted(board.items()))])
