"""Awéthi: a turn read once.  Reading a shepherds' turn walks its paths on a board and
makes the position after it there; applying the move read hands that position over.
These tests check that what is handed over is what applying the move afresh gives, that
a written path remembered from an earlier turn is still checked against the board of
each turn, and that the herd's order, kept as numbers, is the rule's order."""

from __future__ import annotations

from test_awethi_helpers import E2, refusal, turn
from test_awethi_shepherds import CATCH, FAR, FIELD

from zrec.rules.awethi.board import CELLS, KIND_LETTERS, reading_key
from zrec.rules.awethi.position import (
    _KIND_ORDER,
    ShepherdsMove,
    _move_order,
    ahead,
    herd_direction,
)
from zrec.rules.awethi.shepherds import apply_shepherds


def test_the_position_handed_over_is_the_one_applying_makes() -> None:
    for pos, text in (
        (FIELD, "1234e: c5-c6, e7-e8-e9, g10-g11-g12-g13, l12-l11-l10-l9-l8"),
        (E2.place(CATCH, turn="shepherds", group=3), "1111e: f4-f5, a1-a2, a1-b1, a1"),
        (E2.place({"c2": "S1", "a2": "S2", "b3": "S1", "b1": "c2", "c4": "c1", "v22": "c2"},
                  turn="shepherds"), "1111e: c2-c1, b3-b2, a1, a1"),
    ):  # fmt: skip
        move = E2.resolve(pos, turn(text)).move
        assert isinstance(move, ShepherdsMove)
        handed = E2.apply(pos, move)
        fresh = apply_shepherds(E2.table, pos, move)
        assert handed == fresh
        # an equal move that is not the one read, or an equal position: applied afresh
        assert E2.apply(pos, move._replace(paths=tuple(move.paths))) == fresh
        assert E2.apply(pos._replace(group=pos.group), move) == fresh


def test_a_remembered_path_is_checked_on_each_board() -> None:
    written = turn("1111e: c5-c6, e7-e8, g10-g11, l12-l11")
    E2.resolve(FIELD, written)  # legal here, and now remembered
    blocked = E2.place(
        {"c5": "S1", "e7": "S1", "g10": "S1", "l12": "S1", "c6": "w1", **FAR}, turn="shepherds"
    )
    error = refusal(E2, blocked, written)
    assert (error.code, error.reason) == (
        "path-blocked",
        "path 1, c5-c6: c6 holds Shepherd1's cow",
    )
    costly = turn("2111e: c5-c6, e7-e8, g10-g11, l12-l11")
    assert refusal(E2, FIELD, costly).code == "path-cost"


def test_the_herds_order_as_numbers_is_the_rules_order() -> None:
    every = [(kind, square) for kind in range(len(KIND_LETTERS)) for square in range(CELLS)]
    for die in range(1, 5):
        order = _move_order(die)

        def rule(ks: tuple[int, int], die: int = die) -> tuple[int, ...]:
            kind, square = ks
            return (
                _KIND_ORDER.index(kind),
                -ahead(square, herd_direction(kind, die)),
                *reading_key(square),
            )

        assert sorted(every, key=rule) == sorted(every, key=lambda ks: order[ks[0]][ks[1]])
