"""The maximum-weight matching gives the greatest total weight (networkx's as the
reference) and a matching: every vertex's mate has it as mate, along an edge."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from zrec.tournament.matching import max_weight_matching


@st.composite
def graphs(draw: st.DrawFn) -> list[list[int]]:
    n = draw(st.integers(0, 12))
    top = draw(st.sampled_from([3, 10, 2**200]))  # few weights tie often; big ones are exact
    weights = [[0] * n for _ in range(n)]
    for a in range(n):
        for b in range(a):
            if draw(st.booleans()):
                weights[a][b] = weights[b][a] = draw(st.integers(1, top))
    return weights


def total(weights: list[list[int]], mate: list[int]) -> int:
    return sum(weights[v][m] for v, m in enumerate(mate) if m > v)


def reference(weights: list[list[int]]) -> int:
    graph: nx.Graph[int] = nx.Graph()
    for a, row in enumerate(weights):
        for b in range(a):
            if row[b]:
                graph.add_edge(a, b, weight=row[b])
    return sum(weights[a][b] for a, b in nx.max_weight_matching(graph))


@settings(max_examples=400, deadline=None)
@given(graphs())
def test_the_matching_weighs_as_much_as_networkx_finds(weights: list[list[int]]) -> None:
    mate = max_weight_matching(weights)
    assert len(mate) == len(weights)
    for v, m in enumerate(mate):
        assert mate[m] == v
        assert m == v or weights[v][m] > 0
    assert total(weights, mate) == reference(weights)


def test_a_blossom_is_found_and_expanded() -> None:
    # a triangle 0-1-2 with a pendant 3 on 2: the best takes 0-1 and 2-3, which only
    # a blossom (the odd cycle) lets the search find
    w = [[0, 6, 5, 0], [6, 0, 5, 0], [5, 5, 0, 4], [0, 0, 4, 0]]
    assert max_weight_matching(w) == [1, 0, 3, 2]
    # no edge worth taking: everyone alone
    assert max_weight_matching([[0, 0], [0, 0]]) == [0, 1]
    # the heavier single edge beats two light ones
    w = [[0, 9, 0, 0], [9, 0, 4, 0], [0, 4, 0, 4], [0, 0, 4, 0]]
    assert max_weight_matching(w) == [1, 0, 3, 2]
    w[1][2] = w[2][1] = 20
    assert max_weight_matching(w) == [0, 2, 1, 3]
