"""A deliberately naive move generator for Mosona and Kolowis, written from docs/rules.md
(Awithlaknannai Mosona), for the tests that check the engine against something that
shares nothing with it: the perft counts (tests/rules/test_serpent_perft.py) and the
random player's metrics (tests/test_metrics_naive.py).

It names points by strings, lists the lines with plain loops, finds the straight jumps
as collinear triples of drawing coordinates (the two curved end lines are listed by
hand), keeps the board in a dict and searches capture chains recursively.  Its moves
come in a fixed order (points in the order listed, jumps and neighbours sorted), so
that a random player drawing from them plays the same games for the same seed.

It knows the options ``Captures`` (compulsory, optional, huff) and ``Chains`` (whole,
one, stop) as docs/rules.md states them: under huffing, the points the opponent may
huff after each move are worked out from the boards before and after it, and a huff
is a move of its own (not a turn: the same side moves next), as perft counts it.
"""

from __future__ import annotations

Board = dict[str, str]  # point -> "W", "B" or "" (empty)
Due = frozenset[str]  # the points of the pieces the side to move may huff


class Naive:
    """The rules of docs/rules.md (Awithlaknannai Mosona) in the plainest form: ``n``
    points a side (8: Mosona, 16: Kolowis), the lined or open board, straight or bent
    jumps."""

    def __init__(
        self,
        n: int,
        lined: bool = True,
        bent: bool = False,
        captures: str = "compulsory",
        chains: str = "whole",
        ludii: bool = False,
    ) -> None:
        self.n = n
        self.captures = captures
        self.chains = chains
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

    def can_jump(self, board: Board, at: str) -> bool:
        """Whether the piece on ``at`` has an enemy piece to jump and a point to land."""
        enemy = "B" if board[at] == "W" else "W"
        return any(p == at and board[q] == enemy and board[r] == "" for p, q, r in self.jumps)

    def moves(self, board: Board, side: str) -> list[Board]:
        """The positions after each legal move (each chain once)."""
        return [after for after, _ in self.turns(board, side)]

    def turns(self, board: Board, side: str) -> list[tuple[Board, Due]]:
        """The position after each legal move, with the points of the pieces the other
        side may then huff (empty unless captures are "huff")."""
        enemy = "B" if side == "W" else "W"
        # a chain may stop after any jump where chains may stop, and under huffing
        stops = self.chains == "stop" or self.captures == "huff"
        chains: dict[tuple[tuple[str, ...], frozenset[str]], tuple[Board, Due]] = {}

        def jump(board: Board, at: str, path: tuple[str, ...], taken: frozenset[str]) -> None:
            went_on = False
            for p, q, r in self.jumps:
                if p == at and board[q] == enemy and board[r] == "":
                    went_on = True
                    after = dict(board)
                    after[p], after[q], after[r] = "", "", side
                    if self.chains == "one":
                        chains[(*path, r), taken | {q}] = (after, frozenset())
                    else:
                        jump(after, r, (*path, r), taken | {q})
            if taken and (stops or not went_on):
                # under huffing a chain that stops while it could go on leaves its
                # piece to be huffed, unless chains may stop
                short = went_on and self.captures == "huff" and self.chains == "whole"
                chains[path, taken] = (board, frozenset({at}) if short else frozenset())

        for p in self.points:
            if board[p] == side:
                jump(board, p, (p,), frozenset())
        if chains and self.captures == "compulsory":
            return list(chains.values())
        jumpers = frozenset(p for p in self.points if board[p] == side and self.can_jump(board, p))
        out = list(chains.values())
        for after in self._steps(board, side):
            due: Due = frozenset()
            if self.captures == "huff":
                moved = next(p for p in self.points if board[p] == side and after[p] == "")
                landed = next(p for p in self.points if board[p] == "" and after[p] == side)
                due = frozenset(landed if p == moved else p for p in jumpers)
            out.append((after, due))
        return out

    def _steps(self, board: Board, side: str) -> list[Board]:
        steps = []
        for p in self.points:
            for r in sorted(self.nbrs[p]):
                if board[p] == side and board[r] == "":
                    after = dict(board)
                    after[p], after[r] = "", side
                    steps.append(after)
        return steps

    def perft(self, board: Board, side: str, depth: int, due: Due = frozenset()) -> int:
        """The number of move sequences ``depth`` long from ``board``, ``side`` to move
        (with ``due`` the pieces it must first huff one of); a huff is a move."""
        if depth == 0:
            return 1
        other = "B" if side == "W" else "W"
        if side not in board.values() or other not in board.values():
            return 0  # the game is over
        if due:
            return sum(self.perft({**board, x: ""}, side, depth - 1) for x in sorted(due))
        return sum(self.perft(b, other, depth - 1, d) for b, d in self.turns(board, side))

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
