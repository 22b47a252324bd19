"""A maximum-weight matching of a general graph, exact with integer weights of any size.

:func:`max_weight_matching` takes the weights of a small dense graph (a square table,
0 for no edge) and returns each vertex's mate (itself when unmatched).  The Dutch
pairing (:mod:`dutch`) solves one such matching for every choice it makes, on graphs
of one vertex per player; its weights are integers of a few hundred bits.

The method is Edmonds' blossom algorithm with dual variables in the O(n³) form Galil
describes ("Efficient algorithms for finding maximum matching in graphs", ACM
Computing Surveys 18, 1986), the form the blossom code of networkx also follows.  This
version keeps its tables in lists indexed by vertex and blossom (blossoms are numbered
n … 2n−1) instead of a graph's dictionaries: four times faster on the pairing's graphs
(benchmarks/pairing_speed.py, 60 players and 9 rounds: 0.16 s a round against 0.61 s),
which is its only reason to exist; tests/test_matching.py checks it against networkx.

Edges are pairs of vertices.  A blossom's children form a ring ``childs[0]`` (the one
holding its base) … ``childs[k]``, and ``links[i]`` is the edge ``(x, y)`` joining
``childs[i]`` (holding ``x``) to ``childs[i+1]`` (holding ``y``), the last back to the
first.  A top-level blossom's label is 1 (S: outer) or 2 (T: inner), with the edge it
was reached by as ``came_from`` (outside) and ``came_to`` (inside).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

__all__ = ["max_weight_matching"]

Edge = tuple[int, int]


class _Solver:
    def __init__(self, weights: Sequence[Sequence[int]]) -> None:
        n = self.n = len(weights)
        self.w = weights
        self.nbrs = [[u for u in range(n) if u != v and weights[v][u] > 0] for v in range(n)]
        top = max((x for row in weights for x in row), default=0)
        self.mate = [-1] * n
        self.label = [0] * (2 * n)
        self.came_from = [-1] * (2 * n)
        self.came_to = [-1] * (2 * n)
        self.inb = list(range(n))
        self.parent = [-1] * (2 * n)
        self.childs: list[list[int]] = [[] for _ in range(2 * n)]
        self.links: list[list[Edge]] = [[] for _ in range(2 * n)]
        self.base = list(range(n)) + [-1] * n
        self.best: list[Edge | None] = [None] * (2 * n)
        self.best_list: list[list[Edge] | None] = [None] * (2 * n)
        self.unused = list(range(2 * n - 1, n - 1, -1))
        self.dual = [top] * n + [0] * n
        self.twice = [[2 * x for x in row] for row in weights]
        self.allowed = [[False] * n for _ in range(n)]
        self.queue: list[int] = []

    def slack(self, e: Edge) -> int:
        v, u = e
        return self.dual[v] + self.dual[u] - self.twice[v][u]

    def allow(self, e: Edge) -> None:
        v, u = e
        self.allowed[v][u] = self.allowed[u][v] = True

    def leaves(self, b: int) -> Iterator[int]:
        if b < self.n:
            yield b
        else:
            for c in self.childs[b]:
                yield from self.leaves(c)

    def assign(self, w: int, t: int, frm: int) -> None:
        """Label the top blossom of ``w`` with ``t``, reached from ``frm`` to ``w``."""
        b = self.inb[w]
        self.label[w] = self.label[b] = t
        self.came_from[w] = self.came_from[b] = frm
        self.came_to[w] = self.came_to[b] = w
        self.best[w] = self.best[b] = None
        if t == 1:
            self.queue.extend(self.leaves(b))
        else:
            base = self.base[b]
            self.assign(self.mate[base], 1, base)

    def scan(self, v: int, w: int) -> int:
        """The base of the blossom the S-S edge closes, or -1: an augmenting path."""
        path, found = [], -1
        while v != -1 or w != -1:
            b = self.inb[v]
            if self.label[b] & 4:
                found = self.base[b]
                break
            path.append(b)
            self.label[b] = 5
            frm = self.came_from[b]  # the T-blossom above, then the S-vertex above it
            v = -1 if frm == -1 else self.came_from[self.inb[frm]]
            if w != -1:
                v, w = w, v
        for b in path:
            self.label[b] = 1
        return found

    def add_blossom(self, base: int, v: int, w: int) -> None:
        inb = self.inb
        bb, bv, bw = inb[base], inb[v], inb[w]
        b = self.unused.pop()
        self.base[b], self.parent[b], self.parent[bb] = base, -1, b
        path: list[int] = []
        links: list[Edge] = []
        while bv != bb:
            self.parent[bv] = b
            path.append(bv)
            links.append((self.came_from[bv], self.came_to[bv]))
            bv = inb[self.came_from[bv]]
        path.append(bb)
        path.reverse()
        links.reverse()
        links.append((v, w))
        while bw != bb:
            self.parent[bw] = b
            path.append(bw)
            links.append((self.came_to[bw], self.came_from[bw]))
            bw = inb[self.came_from[bw]]
        self.childs[b], self.links[b] = path, links
        self.label[b] = 1
        self.came_from[b], self.came_to[b] = self.came_from[bb], self.came_to[bb]
        self.dual[b] = 0
        for x in self.leaves(b):
            if self.label[inb[x]] == 2:
                self.queue.append(x)
            inb[x] = b
        best_to: dict[int, Edge] = {}
        for c in path:
            lists = ([[(x, y) for y in self.nbrs[x]] for x in self.leaves(c)]
                     if self.best_list[c] is None else [self.best_list[c] or []])
            for edges in lists:
                for i, j in edges:
                    if inb[j] == b:
                        i, j = j, i
                    bj = inb[j]
                    if bj != b and self.label[bj] == 1:
                        held = best_to.get(bj)
                        if held is None or self.slack((i, j)) < self.slack(held):
                            best_to[bj] = (i, j)
            self.best_list[c] = None
            self.best[c] = None
        self.best_list[b] = list(best_to.values())
        self.best[b] = min(best_to.values(), key=self.slack, default=None)

    def step(self, b: int, j: int, forward: bool) -> Edge:
        """The edge from child ``j`` of ``b`` to the next child in that direction."""
        links = self.links[b]
        if forward:
            return links[j % len(links)]
        y, x = links[(j - 1) % len(links)]
        return x, y

    def expand(self, b: int, endstage: bool) -> None:
        inb, label, childs = self.inb, self.label, self.childs[b]
        for s in childs:
            self.parent[s] = -1
            if s < self.n:
                inb[s] = s
            elif endstage and self.dual[s] == 0:
                self.expand(s, endstage)
            else:
                for x in self.leaves(s):
                    inb[x] = s
        if not endstage and label[b] == 2:
            entry = inb[self.came_to[b]]
            size = len(childs)
            j = childs.index(entry)
            forward = j % 2 == 1
            jstep = 1 if forward else -1
            frm, to = self.came_from[b], self.came_to[b]
            while j % size != 0:
                label[to] = 0
                label[self.step(b, j, forward)[1]] = 0
                self.assign(to, 2, frm)
                self.allow(self.step(b, j, forward))
                j += jstep
                frm, to = self.step(b, j, forward)
                self.allow((frm, to))
                j += jstep
            bv = childs[j % size]
            label[to] = label[bv] = 2
            self.came_from[to] = self.came_from[bv] = frm
            self.came_to[to] = self.came_to[bv] = to
            self.best[bv] = None
            j += jstep
            while childs[j % size] != entry:
                bv = childs[j % size]
                if label[bv] == 1:
                    j += jstep
                    continue
                hit = next((x for x in self.leaves(bv) if label[x] != 0), -1)
                if hit != -1:
                    label[hit] = 0
                    label[self.mate[self.base[bv]]] = 0
                    self.assign(hit, 2, self.came_from[hit])
                j += jstep
        label[b] = 0
        self.came_from[b] = self.came_to[b] = -1
        self.childs[b], self.links[b] = [], []
        self.base[b] = -1
        self.best_list[b], self.best[b] = None, None
        self.unused.append(b)

    def augment_blossom(self, b: int, v: int) -> None:
        """Swap the matched edges of ``b`` so that ``v`` becomes its base."""
        t = v
        while self.parent[t] != b:
            t = self.parent[t]
        if t >= self.n:
            self.augment_blossom(t, v)
        childs = self.childs[b]
        size = len(childs)
        i = j = childs.index(t)
        forward = i % 2 == 1
        jstep = 1 if forward else -1
        while j % size != 0:
            j += jstep
            x, y = self.step(b, j, forward)
            if childs[j % size] >= self.n:
                self.augment_blossom(childs[j % size], x)
            j += jstep
            if childs[j % size] >= self.n:
                self.augment_blossom(childs[j % size], y)
            self.mate[x], self.mate[y] = y, x
        self.childs[b] = childs[i:] + childs[:i]
        self.links[b] = self.links[b][i:] + self.links[b][:i]
        self.base[b] = self.base[self.childs[b][0]]

    def augment(self, v: int, w: int) -> None:
        for s, partner in ((v, w), (w, v)):
            while True:
                bs = self.inb[s]
                if bs >= self.n:
                    self.augment_blossom(bs, s)
                self.mate[s] = partner
                if self.came_from[bs] == -1:
                    break
                bt = self.inb[self.came_from[bs]]
                s, j = self.came_from[bt], self.came_to[bt]
                if bt >= self.n:
                    self.augment_blossom(bt, j)
                self.mate[j] = s
                partner = j

    def stage(self) -> bool:
        """Grow the alternating trees until a path augments the matching (True) or the
        duals prove the matching best (False)."""
        n, label, inb = self.n, self.label, self.inb
        label[:] = [0] * (2 * n)
        self.best[:] = [None] * (2 * n)
        self.best_list[n:] = [None] * n
        self.allowed = [[False] * n for _ in range(n)]
        self.queue.clear()
        for v in range(n):
            if self.mate[v] == -1 and label[inb[v]] == 0:
                self.assign(v, 1, -1)
        while True:
            dual = self.dual
            while self.queue:
                v = self.queue.pop()
                bv, allowed, twice, dv = inb[v], self.allowed[v], self.twice[v], dual[v]
                for w in self.nbrs[v]:
                    bw = inb[w]
                    if bv == bw:
                        continue
                    slack = 0
                    if not allowed[w]:
                        slack = dv + dual[w] - twice[w]
                        if slack <= 0:
                            allowed[w] = self.allowed[w][v] = True
                    if allowed[w]:
                        if label[bw] == 0:
                            self.assign(w, 2, v)
                        elif label[bw] == 1:
                            base = self.scan(v, w)
                            if base < 0:
                                self.augment(v, w)
                                return True
                            self.add_blossom(base, v, w)
                            bv = inb[v]
                        elif label[w] == 0:
                            label[w], self.came_from[w], self.came_to[w] = 2, v, w
                    elif label[bw] == 1:
                        held = self.best[bv]
                        if held is None or slack < self.slack(held):
                            self.best[bv] = (v, w)
                    elif label[w] == 0:
                        held = self.best[w]
                        if held is None or slack < self.slack(held):
                            self.best[w] = (v, w)
            if not self.change_duals():
                return False

    def change_duals(self) -> bool:
        """Move the duals by the largest step that keeps them feasible, and act on
        what stopped it; False when the vertex duals reach zero (optimum)."""
        n, label, inb, dual = self.n, self.label, self.inb, self.dual
        kind, delta = 1, min(dual[:n])
        edge: Edge | None = None
        blossom = -1
        for v in range(n):
            e = self.best[v]
            if label[inb[v]] == 0 and e is not None and self.slack(e) < delta:
                kind, delta, edge = 2, self.slack(e), e
        for b in range(2 * n):
            e = self.best[b]
            if (self.parent[b] == -1 and label[b] == 1 and e is not None
                    and self.slack(e) // 2 < delta):
                kind, delta, edge = 3, self.slack(e) // 2, e
        for b in range(n, 2 * n):
            if (self.base[b] >= 0 and self.parent[b] == -1 and label[b] == 2
                    and dual[b] < delta):
                kind, delta, blossom = 4, dual[b], b
        for v in range(n):
            lab = label[inb[v]]
            dual[v] += -delta if lab == 1 else delta if lab == 2 else 0
        for b in range(n, 2 * n):
            if self.base[b] >= 0 and self.parent[b] == -1:
                dual[b] += delta if label[b] == 1 else -delta if label[b] == 2 else 0
        if kind == 1:
            return False
        if kind in (2, 3):
            assert edge is not None
            self.allow(edge)
            v, w = edge
            self.queue.append(v if label[inb[v]] == 1 else w)
        else:
            self.expand(blossom, False)
        return True

    def solve(self) -> list[int]:
        n = self.n
        for _ in range(n):
            if not self.stage():
                break
            for b in range(n, 2 * n):
                if (self.parent[b] == -1 and self.base[b] >= 0 and self.label[b] == 1
                        and self.dual[b] == 0):
                    self.expand(b, True)
        return [m if m >= 0 else v for v, m in enumerate(self.mate)]


def max_weight_matching(weights: Sequence[Sequence[int]]) -> list[int]:
    """Each vertex's mate in a matching of greatest total weight (a vertex left alone
    is its own mate); ``weights[v][u]`` is the weight of edge v-u, 0 for none."""
    return _Solver(weights).solve()
