"""The Dutch system's pairing of one round, bracket by bracket (FIDE C.04.3).

:func:`dutch_pairs` takes the players to pair, best first (score, then rank), and
returns who plays whom, and the player left for the pairing-allocated bye.

The method is the one of the FIDE-endorsed bbpPairings (written anew here from the
handbook and that program's description): every pair of players gets a weight that
writes the quality criteria (:mod:`dutch_weights`), and a maximum-weight matching of
all the players still to pair gives a pairing of the current bracket that the criteria
prefer and that leaves the rest of the round pairable.  Where several pairings are
equally good, the handbook's order decides: which moved-down players are paired and
with whom, then which players are exchanged between the bracket's halves S1 and S2,
then the opponent of each S1 player.  Each choice is made by raising or lowering one
player's weights a little and solving again, then fixing what the solution shows, as
a person would try the transpositions in order.

The matchings are :mod:`matching`'s (exact with integer weights of any size).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby

from zrec.tournament.dutch_weights import Context, Standing, edge_weight
from zrec.tournament.matching import max_weight_matching

__all__ = ["Unpairable", "dutch_pairs"]


class Unpairable(Exception):
    """No pairing of the round meets the absolute criteria."""


class _Matcher:
    """The weights of every pair of players still to pair, and their best matching."""

    def __init__(self, size: int) -> None:
        self.weights = [[0] * size for _ in range(size)]
        self.done: set[int] = set()
        self.mate: list[int] = list(range(size))

    def set(self, u: int, v: int, w: int) -> None:
        if u not in self.done and v not in self.done:
            self.weights[u][v] = self.weights[v][u] = max(w, 0)

    def fix(self, u: int, v: int) -> None:
        """Pair ``u`` with ``v`` for good: both leave the matching."""
        self.done |= {u, v}
        self.mate[u], self.mate[v] = v, u

    def solve(self) -> list[int]:
        alive = [v for v in range(len(self.mate)) if v not in self.done]
        rows = [[self.weights[a][b] for b in alive] for a in alive]
        for a, b in zip(alive, max_weight_matching(rows), strict=True):
            self.mate[a] = alive[b]
        return self.mate


def _bits(n: int) -> int:
    return max(n, 1).bit_length()


def _completion(ctx: Context, order: Sequence[Standing], m: _Matcher) -> None:
    """The first weights of an odd round: pair everyone but one bye-eligible player,
    from the lowest score groups (bbpPairings' first pass)."""
    shift = ctx.shifts
    top = order[0].score
    for i, p in enumerate(order):
        for j in range(i):
            o = order[j]
            w = 0
            if ctx.compatible(p, o):
                w = 1 + (not p.bye_eligible) + (not o.bye_eligible)
                w = (w << ctx.groups_shift) | (shift[p.score] + shift[o.score])
                w = (w << ctx.size_bits) | int(p.score >= top)
            m.set(i, j, w)


def dutch_pairs(ctx: Context, order: list[Standing]) -> tuple[list[tuple[int, int]], int | None]:
    """The pairs (by pairing number, unordered) and the bye of the round."""
    n = len(order)
    if n == 0:
        return [], None
    groups = [len(list(run)) for _, run in groupby(reversed(order), lambda p: p.score)]
    shift, at = 0, n  # the score groups, lowest first
    for size in groups:
        at -= size
        ctx.shifts[order[at].score] = shift
        shift += _bits(size)
    ctx.groups_shift = shift
    ctx.size_bits = _bits(max(groups))
    m = _Matcher(n)
    odd = n % 2 == 1
    if odd:
        _completion(ctx, order, m)
    else:
        for i in range(n):
            for j in range(i):
                m.set(i, j, edge_weight(ctx, order[j], order[i], False, False, 0, False, {}))
    mate = m.solve()
    alone = [i for i in range(n) if mate[i] == i]
    if len(alone) > 1 or (alone and not order[alone[0]].bye_eligible):
        raise Unpairable("no pairing of the round meets the absolute criteria")
    bye_score, single, ranks = 0, False, {}
    if odd:
        bye_score = order[alone[0]].score
        top = order[0].score
        single = bye_score >= top and all(
            order[mate[i]].score >= top for i in range(n) if order[i].score >= top
        )
        counts = sorted((p.games for p in order if p.score == bye_score), reverse=True)
        ranks = {games: rank for rank, games in enumerate(counts)}
        for i in range(n):
            for j in range(i):
                w = edge_weight(ctx, order[j], order[i], False, False, bye_score, single, ranks)
                m.set(i, j, w)
    state = _Round(ctx, order, m, bye_score, single, ranks)
    state.run()
    pairs = [(order[i].number, order[j].number) for i, j in state.pairs]
    left = [i for i in range(n) if i not in state.paired]
    return pairs, (order[left[0]].number if left else None)


class _Round:
    """The walk through the brackets of one round (the state bbpPairings keeps)."""

    def __init__(
        self, ctx: Context, order: list[Standing], m: _Matcher, bye_score: int,
        single: bool, ranks: dict[int, int],
    ) -> None:
        self.ctx, self.order, self.m = ctx, order, m
        self.bye_score, self.single, self.ranks = bye_score, single, ranks
        self.matched = [False] * len(order)
        self.pairs: list[tuple[int, int]] = []
        self.paired: set[int] = set()

    def run(self) -> None:
        order, n = self.order, len(self.order)
        nxt = 0
        top = order[0].score
        verts: list[int] = []
        while nxt < n and order[nxt].score >= top:
            verts.append(nxt)
            nxt += 1
        begin = 0  # moved-down players in the bracket
        begin_v = 0  # the vertex of the bracket's first resident
        while len(verts) > 1 or nxt < n:
            end = len(verts)  # the bracket is verts[:end]; the next score group follows
            end_v = begin_v + (end - begin)
            group_at = nxt
            while nxt < n and order[nxt].score >= order[group_at].score:
                verts.append(nxt)  # a player's vertex is their place in the order
                nxt += 1
            self.bracket(verts, begin, end, begin_v, end_v)
            new: list[int] = []
            begin = 0
            single = (len(order) % 2 == 1 and group_at < n
                      and self.bye_score >= order[group_at].score)
            mate = self.m.mate
            for idx, v in enumerate(verts):
                if idx < end and self.matched[v]:
                    if v not in self.paired:
                        self.pairs.append((v, mate[v]))
                        self.paired |= {v, mate[v]}
                else:
                    new.append(v)
                    if idx < end:
                        begin += 1
                    if single and order[mate[v]].score < order[group_at].score:
                        single = False
            self.single = single
            verts = new
            begin_v = end_v

    def bracket(self, verts: list[int], begin: int, end: int, begin_v: int, end_v: int) -> None:
        order, m, ctx = self.order, self.m, self.ctx
        size = len(verts)
        base: list[list[int]] = [[] for _ in range(size)]
        for hi_idx in range(begin, size):
            for lo_idx in range(hi_idx):
                base[hi_idx].append(edge_weight(
                    ctx, order[verts[lo_idx]], order[verts[hi_idx]], hi_idx < end,
                    hi_idx >= end, self.bye_score, self.single, self.ranks,
                ))
        for hi_idx in range(size):
            for lo_idx, w in enumerate(base[hi_idx]):
                m.set(verts[hi_idx], verts[lo_idx], w)
        bits = ctx.size_bits

        def tuned(lo_idx: int, hi_idx: int, lo_rem: int, rem_pairs: int) -> int:
            w = base[hi_idx][lo_idx]
            if w:
                add = int(lo_rem < rem_pairs)
                add = ((add << (2 * bits)) - lo_rem) << 1
                w += add
            return w

        def resident(v: int) -> bool:
            return begin_v <= self.m.mate[v] < end_v

        m.solve()
        self.moved_down(verts, base, begin, end, resident)
        remainder = [i for i in range(begin, end) if m.mate[verts[i]] >= begin_v]
        rem_pairs = sum(1 for i in remainder if m.mate[verts[i]] < verts[i])
        for hi_idx in remainder:
            for a, lo_idx in enumerate(remainder):
                if hi_idx <= lo_idx:
                    break
                m.set(verts[lo_idx], verts[hi_idx], tuned(lo_idx, hi_idx, a, rem_pairs))
        m.solve()

        def downward(v: int) -> bool:  # paired with a later player of the bracket
            return v < self.m.mate[v] < end_v

        first_end = remainder[rem_pairs] if rem_pairs < len(remainder) else size
        exchanges = sum(1 for i in remainder if i < first_end and not downward(verts[i]))
        left = exchanges
        pos = rem_pairs
        while pos > 0 and left:  # S1's lowest players to exchange, where possible
            pos -= 1
            v = verts[remainder[pos]]
            if downward(v):
                for q in range(pos + 1, len(remainder)):
                    w = tuned(remainder[pos], remainder[q], pos, rem_pairs)
                    if w:
                        m.set(v, verts[remainder[q]], w - 1)
                m.solve()
            swap = not downward(v)
            left -= swap
            for q in range(pos + 1, len(remainder)):
                if swap:
                    base[remainder[q]][remainder[pos]] = 0
                m.set(v, verts[remainder[q]], tuned(remainder[pos], remainder[q], pos, rem_pairs))
        left = exchanges
        pos = rem_pairs
        while pos < len(remainder) and left > 1:  # S2's highest players to exchange
            v = verts[remainder[pos]]
            already = downward(v)
            if not already:
                for q in range(pos + 1, len(remainder)):
                    w = tuned(remainder[pos], remainder[q], pos, rem_pairs)
                    if w:
                        m.set(v, verts[remainder[q]], w + 1)
                m.solve()
            if downward(v):
                left -= 1
                for q in range(pos):
                    base[remainder[pos]][remainder[q]] = 0
                    m.set(v, verts[remainder[q]], 0)
                for o in range(end, size):
                    base[o][remainder[pos]] = 0
                    m.set(v, verts[o], 0)
            if not already:
                for q in range(pos + 1, len(remainder)):
                    m.set(v, verts[remainder[q]],
                          tuned(remainder[pos], remainder[q], pos, rem_pairs))
            pos += 1
        for a, lo_idx in enumerate(remainder):  # keep only S1 -> S2 pairs
            v = verts[lo_idx]
            for hi_idx in remainder[a + 1:]:
                u = verts[hi_idx]
                if not downward(v) or downward(u):
                    base[hi_idx][lo_idx] = 0
                m.set(v, u, base[hi_idx][lo_idx])
        for lo_idx in remainder:  # each S1 player's opponent, highest first
            v = verts[lo_idx]
            if not downward(v):
                continue
            offers = [(verts[hi], base[hi][lo_idx]) for hi in reversed(remainder)
                      if hi > lo_idx and not self.matched[verts[hi]]]
            self.settle(v, offers, 0, True)

    def moved_down(self, verts: list[int], base: list[list[int]], begin: int, end: int,
                   resident: Callable[[int], bool]) -> None:
        """Which moved-down players are paired in the bracket, and with whom."""
        m, order = self.m, self.order
        left = hit = 0
        score = 0
        for idx in range(begin):
            v = verts[idx]
            if idx == 0 or order[v].score < score:
                score = order[v].score
                left = hit = 0
                k = idx
                while k < begin and order[verts[k]].score >= score:
                    left += 1
                    hit += int(resident(verts[k]))
                    k += 1
            if not hit:
                continue
            if left <= hit:
                self.matched[v] = True
                continue
            left -= 1
            if not resident(v):
                for o in range(begin, end):
                    w = base[o][idx]
                    if w:
                        m.set(v, verts[o], w | 1)
                m.solve()
            if resident(v):
                self.matched[v] = True
                hit -= 1
                for o in range(begin, end):
                    w = base[o][idx]
                    if w:
                        m.set(v, verts[o], (w | (end - begin)) + 1)
        for idx in range(begin):
            v = verts[idx]
            if not self.matched[v]:
                continue
            offers = [(verts[o], base[o][idx]) for o in range(end - 1, begin - 1, -1)
                      if not self.matched[verts[o]]]
            self.settle(v, offers, len(verts), False)

    def settle(self, v: int, offers: list[tuple[int, int]], add: int, every: bool) -> None:
        """Pair ``v`` for good with the opponent the matching gives it, each offer
        (vertex, weight) raised a little more than the one before (the later the
        better), so that among equal pairings the order decides; ``every``: an offer
        of weight 0 (not allowed) takes its step too."""
        for u, w in offers:
            if w:
                self.m.set(v, u, w + add)
            if w or every:
                add += 1
        self.m.solve()
        u = self.m.mate[v]
        self.matched[v] = self.matched[u] = True
        self.m.fix(v, u)
