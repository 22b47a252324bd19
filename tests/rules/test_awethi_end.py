"""Awéthi end and results (docs/rules.md, Awéthi: the end and the result), and the
position as the outputs see it: view, text rendering, standing, key."""

from __future__ import annotations

from fractions import Fraction

import pytest
from test_awethi_helpers import E2, E4, after, engine, refusal

from zrec.rules.awethi.board import SQUARES, board_spec, default_map
from zrec.rules.awethi.rules import AwethiEngine
from zrec.rules.base import Finding, MoveNumber, Outcome, Piece

ONE, HALF, NIL = Fraction(1), Fraction(1, 2), Fraction(0)
GONE = {"c4": "c1"}  # Shepherd2 has no animal on the board: the game is over


def end(
    e: AwethiEngine, sheltered: dict[int, str], eaten: dict[int, str] | None = None
) -> Outcome:
    out = e.outcome(e.place(GONE, sheltered=sheltered, eaten=eaten))
    assert out is not None
    return out


@pytest.mark.parametrize(
    ("sheltered", "eaten", "options", "scores"),
    [
        ({1: "cc", 2: "c"}, {}, {}, (NIL, NIL, ONE)),  # M = 2: the wolves
        ({}, {2: "cccwwb"}, {}, (NIL, NIL, ONE)),  # M = 0
        ({1: "ccw", 2: "cw"}, {}, {}, (HALF, NIL, HALF)),  # M = 3: that seat and the wolves
        ({1: "ccw", 2: "cwb"}, {}, {}, (HALF, HALF, HALF)),
        ({1: "ccwb", 2: "cwb"}, {}, {}, (ONE, NIL, NIL)),  # M = 4: the seat wins
        ({1: "ccwb", 2: "cwwb"}, {}, {}, (HALF, HALF, NIL)),  # shared first place
        ({1: "wb", 2: "ccc"}, {2: "cw"}, {"points": "advanced"}, (ONE, NIL, NIL)),  # 8, 3, 4
        ({1: "w", 2: "c"}, {2: "ccc"}, {"points": "advanced"}, (HALF, NIL, HALF)),  # 3, 1, 3
        ({1: "c"}, {2: "cw"}, {"points": "advanced"}, (NIL, NIL, ONE)),  # 1, 0, 4
        ({}, {}, {"points": "advanced"}, (HALF, HALF, HALF)),  # 0, 0, 0
    ],
)
def test_results(
    sheltered: dict[int, str],
    eaten: dict[int, str],
    options: dict[str, str],
    scores: tuple[Fraction, ...],
) -> None:
    out = end(engine(2, **options), sheltered, eaten)
    assert out.termination == "herd-gone" and out.scores == scores
    assert all(type(s) is Fraction for s in out.scores)


def test_result_reasons() -> None:
    assert end(E2, {1: "cc", 2: "c"}).reason == (
        "Shepherd2's herd is gone; no shelter holds 3 animals or more (the most is 2), so the "
        "Wolves win"
    )
    assert end(E2, {1: "ccw", 2: "cwb"}).reason == (
        "Shepherd2's herd is gone; the most animals in a shelter is 3 (Shepherd1 and "
        "Shepherd2), so Shepherd1 and Shepherd2 and the Wolves draw"
    )
    assert end(E2, {1: "ccwb", 2: "cw"}).reason == (
        "Shepherd2's herd is gone; Shepherd1 has the most animals in its shelter (4) and wins"
    )
    assert end(E2, {1: "ccwb", 2: "cwwb"}).reason == (
        "Shepherd2's herd is gone; Shepherd1 and Shepherd2 have the most animals in their "
        "shelters (4) and share first place"
    )
    advanced = engine(2, points="advanced")
    assert end(advanced, {1: "wb", 2: "ccc"}, {2: "cw"}).reason == (
        "Shepherd2's herd is gone; points: Shepherd1 8, Shepherd2 3, Wolves 4, so Shepherd1 wins"
    )
    assert end(advanced, {1: "w", 2: "c"}, {2: "ccc"}).result == "1/2-0-1/2"
    both = E2.outcome(E2.place({}, sheltered={1: "ccc"}, eaten={2: "ccc"}))
    assert both is not None and both.reason.startswith(
        "the herds of Shepherd1 and Shepherd2 are gone;"
    )


def test_four_seats_share_and_the_end_test_looks_at_each_seats_own_herd() -> None:
    four = {"c4": "c1", "u23": "c2", "u4": "c3"}  # Shepherd4 has none left
    out = E4.outcome(E4.place(four, sheltered={1: "ccwb", 2: "ccww", 3: "c"}))
    assert out is not None and out.result == "1/2-1/2-0-0-0"
    catcher = engine(2, catch="catcher")
    # Shepherd1's shelter holds Shepherd2's animals: Shepherd2's herd is gone, Shepherd1's not
    alive = catcher.place({"c4": "c1", "u23": "c2"}, sheltered={1: "ccwwb"})
    assert catcher.outcome(alive) is None
    out = catcher.outcome(catcher.place({"c4": "c1"}, sheltered={1: "cccwwb"}))
    assert out is not None and out.result == "1-0-0"


def test_completing_a_catch_that_empties_a_herd_still_plays_the_turn() -> None:
    ring = {"e5": "S2", "g5": "S2", "f4": "S1", "f5": "c2/1", "c4": "c1"}
    pos = E2.place(ring, turn="shepherds", sheltered={1: "ww", 2: "cc"}, eaten={2: "cwb"})
    assert E2.outcome(pos) is None
    done, news = after(E2, pos, "1111e: f4-f5, a1-a2, a1-b1, a1")
    assert [x.code for x in news] == ["catch-completed"] and "f5" in {
        p.square for p in E2.view(done).pieces
    }
    out = E2.outcome(done)
    assert out is not None and out.result == "0-1/2-1/2"
    assert E2.to_move(done) is None and E2.chance(done) is None
    assert E2.move_number(done) == MoveNumber(2, 1, True, 1)
    assert (
        E2.legal_moves(done, (1,)) == ()
        and E2.sample_move(done, (1,), __import__("random").Random()) is None
    )
    error = refusal(E2, done, "3: H")
    assert (error.code, error.reason) == (
        "game-over",
        "the game is over: Shepherd2's herd is gone; the most animals in a shelter is 3 "
        "(Shepherd2), so Shepherd2 and the Wolves draw",
    )


def test_the_game_ends_after_a_wolf_eats_the_last_animal() -> None:
    pos = E2.place({"m9": "c2", "c4": "c1"}, turn="wolf", sheltered={1: "c"})
    done, _ = after(E2, pos, "34: m13-m12-m11-m10xm9")
    out = E2.outcome(done)
    assert out is not None and out.result == "0-0-1" and E2.to_move(done) is None


def test_judge_end() -> None:
    over = E2.place(GONE, sheltered={1: "ccwb"})
    assert E2.judge_end(over, "1-0-0", {}) == []
    assert E2.judge_end(over, "*", {}) == [
        Finding(
            "wrong-result",
            "error",
            "the game is over (Shepherd2's herd is gone; Shepherd1 has the most animals in its "
            "shelter (4) and wins), so the result is 1-0-0, not *",
        )
    ]
    assert [f.code for f in E2.judge_end(over, "0-0-1", {})] == ["wrong-result"]
    going = E2.start()
    assert E2.judge_end(going, "*", {}) == []
    assert E2.judge_end(going, "0-0-1", {}) == [
        Finding(
            "wrong-result",
            "error",
            "the game has not ended by rule (sheltered: Shepherd1 0, Shepherd2 0; eaten: 0): its "
            "result is *, not 0-0-1",
        )
    ]


# -- what the outputs see ---------------------------------------------------------------------


def test_view() -> None:
    pos = E2.place(
        {"f5": "c2/1", "c4": "c1", "d4": "b1", "g6": "X", "a1": "S1 S1"},
        sheltered={1: "cw"},
        eaten={2: "c"},
        revealed="1",
    )
    view = E2.view(pos)
    assert view.seats == ("Shepherd1", "Shepherd2", "Wolves")
    assert view.board is board_spec(default_map()) and view.board.cells == SQUARES
    assert view.board.kind == "grid" and view.board.cells[:2] == ("a1", "b1")
    assert view.pieces == (
        Piece("a1", 0, "shepherd", "S1", 4),
        Piece("a1", 0, "sheltered", "H1", 2),
        Piece("c4", 0, "calf", "c1"),
        Piece("d4", 0, "bull", "b1"),
        Piece("f5", 1, "calf", "c2", hidden=True, state="caught"),
        Piece("g6", 2, "wolf", "X"),
        Piece("m13", 2, "wolf", "X"),
        Piece("m13", 2, "eaten", "E", 1),
        Piece("y25", 1, "shepherd", "S2", 4),
    )


def test_render_and_standing() -> None:
    pos = E2.place({"f5": "c2/1", "c4": "c1", "e5": "S2"}, turn="shepherds", sheltered={1: "cw"})
    text = E2.render(pos).splitlines()
    assert (
        text[0] == "    a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p  q  r  s  t  u  v  w  x  y"
    )
    assert (
        text[1] == "25  s  .  .  .  .  .  .  .  .  .  .  .  w  .  .  .  .  .  .  .  .  .  .  .  S2"
    )
    assert (
        text[13] == "13  w  w  w  .  .  .  .  .  f  f  f  f  X2 f  f  f  f  .  .  .  .  .  w  w  w"
    )
    assert text[21] == " 5  .  .  .  .  S2 C2 .  .  .  .  .  w  .  w" + "  ." * 11
    assert text[27:] == [
        "Move 1: Shepherd1's shepherds' turn, rolling 4×d4 (option e or s).",
        "The wolves are asleep.",
        "Caught, to be sheltered: Shepherd1 caught Shepherd2's calf on f5.",
        "Sheltered: Shepherd1 2 (1 calf, 1 cow), Shepherd2 0.",
        "Eaten, by herd: Shepherd1 0, Shepherd2 0.",
    ]
    assert E2.standing(pos) == "sheltered: Shepherd1 2, Shepherd2 0; eaten: 0"
    over = E2.render(E2.place(GONE, sheltered={1: "ccwb"}))
    assert "game is over" not in over  # zrec show says that, once
    assert not any(line.startswith("Move ") for line in over.splitlines())


def test_keys() -> None:
    pos = E2.place({"f5": "c2/1", "c4": "c1"}, turn="shepherds", group=7)
    same = E2.place({"f5": "c2/1", "c4": "c1"}, turn="shepherds", group=2, revealed="")
    assert E2.key(pos) == E2.key(same) and isinstance(E2.key(pos), bytes)
    others = [
        E2.place({"f5": "c2/1", "c4": "c1"}, turn="herd"),
        E2.place({"f5": "c2/1", "c4": "c1"}, turn="shepherds", seat=2),
        E2.place({"f5": "c2/1", "c4": "c1"}, turn="shepherds", awake=True),
        E2.place({"f5": "c2", "c4": "c1"}, turn="shepherds"),
        E2.place({"f5": "c2/2", "c4": "c1"}, turn="shepherds"),
        E2.place({"f5": "w2/1", "c4": "c1"}, turn="shepherds"),
        E2.place({"f5": "c2/1", "c4": "c1", "b2": "S1"}, turn="shepherds"),
        E2.place({"f5": "c2/1", "c4": "c1", "b2": "X"}, turn="shepherds"),
        E2.place({"f5": "c2/1", "c4": "c1"}, turn="shepherds", sheltered={1: "c"}),
        E2.place({"f5": "c2/1", "c4": "c1"}, turn="shepherds", eaten={1: "c"}),
        E2.place({"f5": "c2/1", "c4": "c1"}, turn="shepherds", eaten={2: "c"}),
    ]
    keys = {E2.key(p) for p in [pos, *others]}
    assert len(keys) == len(others) + 1
    assert len(E2.key(E2.start())) == 4 + 16 + 12 * 5 + 4 + 12
