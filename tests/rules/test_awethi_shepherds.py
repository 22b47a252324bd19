"""Awéthi shepherds' turn (docs/rules.md, Awéthi: the shepherds' turn, catching):
amounts, paths, forced moves, the order of the paths, which shepherd, catching, and
completing or lapsing catches."""

from __future__ import annotations

import pytest
from test_awethi_helpers import E2, after, engine, events, move, pieces, play, refusal

from zrec.rules.awethi.rules import AwethiPosition
from zrec.rules.base import MoveNumber

FAR = {"u23": "c2"}
FIELD = E2.place(
    {"c5": "S1", "e7": "S1", "g10": "S1", "l12": "S1", "f10": "w1", **FAR}, turn="shepherds"
)


def shepherds(pos: AwethiPosition, seat: str = "S1") -> list[str]:
    return sorted(s for s, codes in pieces(E2, pos).items() for c in codes.split() if c == seat)


# -- amounts and paths ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("1234e: c5-c6, e7-e8-e9, g10-g11-g12-g13, l12-l11-l10-l9-l8", ["c6", "e9", "g13", "l8"]),
        ("4321e: l12-l11-l10-l9-l8, g10-g11-g12-g13, e7-e8-e9, c5-c6", ["c6", "e9", "g13", "l8"]),
        ("1243s: c5-c6-c7, e7-e8-e9, g10-g11-g12, l12-l11-l10", ["c7", "e9", "g12", "l10"]),
        ("1111s: c5-c6, e7-e8, g10-g11, l12-l11", ["c6", "e8", "g11", "l11"]),
        (
            "4444s: c5-d6-d7-d8, e7-e6-e5-e4-e3, g10-h11-i12, l12-l11-l10-l9-l8",
            ["d8", "e3", "i12", "l8"],
        ),
    ],
)
def test_amounts_under_e_and_s_and_diagonal_steps(text: str, ends: list[str]) -> None:
    after_turn = play(E2, FIELD, text)
    assert shepherds(after_turn) == sorted(ends)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "1234e: c5-d6, e7-e8-e9, g10-g11-g12-g13, l12-l11-l10-l9-l8",
            "path 1, c5-d6, costs 2 (a diagonal step costs 2) but its die is 1",
        ),
        (
            "2234e: c5-c6, e7-e8-e9, g10-g11-g12-g13, l12-l11-l10-l9-l8",
            "path 1, c5-c6, costs 1 but its die is 2",
        ),
        (
            "1234e: c5-c6, e7-e8-e9, g10-g11-g12-g13, l12-l11-l10-l9",
            "path 4, l12-l11-l10-l9, costs 3 but its die is 4",
        ),
        (
            "1334s: c5-c6-c7, e7-e8-e9, g10-g11-g12-g13, l12-l11-l10-l9",
            "path 3, g10-g11-g12-g13, costs 3 but every path costs 2 under option s (the sum 11 "
            "divided by four)",
        ),
        (
            "1244e: c5-c6, e7-e8-e9, g10-g11-h12, l12-l11-l10-l9-l8",
            "path 3, g10-g11-h12, costs 3 (a diagonal step costs 2) but its die is 4",
        ),
    ],
)
def test_path_cost(text: str, reason: str) -> None:
    error = refusal(E2, FIELD, text)
    assert (error.code, error.reason) == ("path-cost", reason)
    assert 0 < len(error.legal) <= 12


def test_path_cost_lists_the_shepherds_legal_paths() -> None:
    error = refusal(E2, FIELD, "2234e: c5-c6, e7-e8-e9, g10-g11-g12-g13, l12-l11-l10-l9-l8")
    assert error.legal == (
        "c5-c6-c7", "c5-c6-d6", "c5-c6-b6", "c5-d5-d6", "c5-d5-e5", "c5-d5-d4",
        "c5-c4-d4", "c5-c4-c3", "c5-c4-b4", "c5-b5-b6", "c5-b5-b4", "c5-b5-a5",
    )  # fmt: skip


EDGE = E2.place(
    {"x25": "S1", "b25": "S1", "l13": "S1", "y24": "S2", "f6": "X", "c4": "c1", **FAR},
    turn="shepherds",
)


@pytest.mark.parametrize(
    ("pos", "text", "reason"),
    [
        (
            FIELD,
            "2234e: c5-c6-c5, e7-e8-e9, g10-g11-g12-g13, l12-l11-l10-l9-l8",
            "path 1, c5-c6-c5: it visits c5 twice",
        ),
        (
            FIELD,
            "2234e: c5-c7, e7-e8-e9, g10-g11-g12-g13, l12-l11-l10-l9-l8",
            "path 1, c5-c7: c7 is not next to c5 (a step goes to one of the 8 squares around)",
        ),
        (
            FIELD,
            "1234e: c5-c6, e7-e8-e9, g10-f10-f11-f12, l12-l11-l10-l9-l8",
            "path 3, g10-f10-f11-f12: f10 holds Shepherd1's cow",
        ),
        (
            FIELD,
            "1324e: c5-c6, e7-d7-c6, g10-g11-g12, l12-l11-l10-l9-l8",
            "path 2, e7-d7-c6: c6 holds a shepherd of Shepherd1",  # moved there by path 1
        ),
        (
            FIELD,
            "1234e: c5-c6, c6-c7-c8, g10-g11-g12-g13, l12-l11-l10-l9-l8",
            "path 2, c6-c7-c8: the shepherd on c6 has already moved this turn",
        ),
        (
            FIELD,
            "1234e: c5-c6, c5-c6-c7, g10-g11-g12-g13, l12-l11-l10-l9-l8",
            "path 2, c5-c6-c7: the shepherd on c5 has already moved this turn",
        ),
        (
            FIELD,
            "1234e: c5-c6, d5-d6-d7, g10-g11-g12-g13, l12-l11-l10-l9-l8",
            "path 2, d5-d6-d7: no shepherd of Shepherd1 stands on d5",
        ),
        (
            FIELD,
            "1234e: c5-c6, a1>a1, g10-g11-g12-g13, l12-l11-l10-l9-l8",
            "path 2, a1>a1: no shepherd of Shepherd1 stands on a1",
        ),
        (
            EDGE,
            "1111e: x25-y25, b25-c25, l13-l12, a1-a2",
            "path 1, x25-y25: y25 is Shepherd2's shelter: only its own shepherds enter it",
        ),
        (
            EDGE,
            "1111e: x25-w25, b25-a25, l13-l12, a1-a2",
            "path 2, b25-a25: a25 is the shelter of Shepherd4, who is not in play",
        ),
        (
            EDGE,
            "1111e: x25-w25, b25-c25, l13-m13, a1-a2",
            "path 3, l13-m13: m13 is the Lair: shepherds never enter it",
        ),
        (EDGE, "1111e: x25-x24, b25-c25, l13-l12, a1-a2", ""),
        (
            EDGE,
            "2111e: x25-x24-y24, b25-c25, l13-l12, a1-a2",
            "path 1, x25-x24-y24: y24 holds a shepherd of Shepherd2",
        ),
        (EDGE, "1112e: x25-w25, b25-c25, l13-l12, a1-a2-a3", ""),
        (EDGE, "1112e: x25-w25, b25-c25, l13-l12, a1-b2", ""),
        (EDGE, "1114e: x25-w25, b25-c25, l13-l12, a1-b2-c2-d2", ""),
        (
            EDGE,
            "1112e: x25-w25, b25-c25, l13-l12, a1-a2-a1",
            "path 4, a1-a2-a1: it visits a1 twice",
        ),
        (
            E2.place({"e6": "S1", "f6": "X", "c4": "c1", **FAR}, turn="shepherds"),
            "1111e: e6-f6, a1-a2, a1-b1, a1",
            "path 1, e6-f6: f6 holds a wolf",
        ),
        (
            EDGE,
            "2111e: x25-x26-x27, b25-c25, l13-l12, a1-a2",
            "path 1, x25-x26-x27: x26 is not a square of the board (a1-y25)",
        ),
    ],
)
def test_path_blocked(pos: AwethiPosition, text: str, reason: str) -> None:
    if not reason:
        move(E2, pos, text)  # legal: the contrast
        return
    error = refusal(E2, pos, text)
    assert (error.code, error.reason) == ("path-blocked", reason)


def test_path_blocked_on_the_first_square_lists_the_shepherds_still_to_move() -> None:
    error = refusal(E2, FIELD, "1234e: c5-c6, d5-d6-d7, g10-g11-g12-g13, l12-l11-l10-l9-l8")
    assert error.legal == ("e7-e8-e9", "g10-g11-g12", "l12-l13-l14")


@pytest.mark.parametrize(
    ("text", "code", "reason"),
    [
        (
            "1234e: c5-c6, e7-e8-e9, g10-g11-g12-g13",
            "path-count",
            "Shepherd1 has 4 shepherds: write 4 paths, one for each, not 3",
        ),
        (
            "1234e: c5-c6, e7-e8-e9, g10-g11-g12-g13, l12-l11-l10-l9-l8, a1",
            "path-count",
            "Shepherd1 has 4 shepherds: write 4 paths, one for each, not 5",
        ),
        (
            "1234e: c5-c6, e7-e8xe9, g10-g11-g12-g13, l12-l11-l10-l9-l8",
            "form",
            "path 2, e7-e8xe9: a shepherd's path joins its squares with - (shepherds never "
            "capture)",
        ),
        (
            "1234e: c5-c6, e7>y25, g10-g11-g12-g13, l12-l11-l10-l9-l8",
            "form",
            "path 2, e7>y25: a shepherd goes back only to its own shelter, a1",
        ),
        (
            "1234e: c5-c6, e7-e8>a1, g10-g11-g12-g13, l12-l11-l10-l9-l8",
            "form",
            "path 2, e7-e8>a1: going back is written alone, the shepherd's square, > and its "
            "shelter (e7>a1)",
        ),
        (
            "1234e: c5-c6, --, g10-g11-g12-g13, l12-l11-l10-l9-l8",
            "form",
            "path 2, --: a shepherd's turn writes a path for each shepherd (its square alone to "
            "stay, e.g. c3; c3>a1 to go back to the shelter)",
        ),
    ],
)
def test_path_count_and_form(text: str, code: str, reason: str) -> None:
    error = refusal(E2, FIELD, text)
    assert (error.code, error.reason) == (code, reason)


# -- forced moves ---------------------------------------------------------------------------

# x1 can step only to w1 (x2 holds a Shepherd2 shepherd, y1 is the shelter of a seat not in
# play); v1 can step to w1 first
CORNER = E2.place({"v1": "S1", "x1": "S1", "x2": "S2", "c4": "c1", **FAR}, turn="shepherds")
BOXED = E2.place({"x1": "S1", "w1": "S2", "x2": "S2", "c4": "c1", **FAR}, turn="shepherds")
WET = E2.place({"m1": "S1", "c4": "c1", **FAR}, turn="shepherds")
STUCK_WET = E2.place({"m1": "S1", "l1": "S2", "n1": "S2", "c4": "c1", **FAR}, turn="shepherds")


@pytest.mark.parametrize(
    ("pos", "text", "reason"),
    [
        (
            FIELD,
            "1234e: c5-c6, e7, g10-g11-g12-g13, l12-l11-l10-l9-l8",
            "path 2, e7: the shepherd on e7 can move 2 (e.g. e7-e8-e9), so it must",
        ),
        (
            FIELD,
            "1234e: c5-c6, e7>a1, g10-g11-g12-g13, l12-l11-l10-l9-l8",
            "path 2, e7>a1: the shepherd on e7 can move 2 (e.g. e7-e8-e9), so it may not go back",
        ),
        (
            CORNER,
            "1111e: x1, v1-w1, a1-a2, a1-b1",
            "path 1, x1: the shepherd on x1 can move 1 (e.g. x1-w1), so it must",
        ),
        (
            BOXED,
            "1111e: x1, a1-a2, a1-b1, a1>a1",
            "path 4, a1>a1: the shepherd is in its shelter already: write the stay, a1",
        ),
        (
            WET,
            "1111e: m1, a1-a2, a1-b1, a1",
            "path 1, m1: the shepherd on m1 stands in water and must leave it: it has a path of 1 "
            "out of the water (e.g. m1-n1)",
        ),
        (
            WET,
            "1111e: m1-m2, a1-a2, a1-b1, a1",
            "path 1, m1-m2: the shepherd started in water and must leave it, but m2 is water",
        ),
        (
            WET,
            "2111e: m1-m2-m3, a1-a2, a1-b1, a1",
            "path 1, m1-m2-m3: the shepherd started in water and must leave it, but m3 is water",
        ),
        (
            WET,
            "1111e: m1>a1, a1-a2, a1-b1, a1",
            "path 1, m1>a1: the shepherd on m1 can move 1 (e.g. m1-n1), so it may not go back",
        ),
        (
            STUCK_WET,
            "1111e: m1, a1-a2, a1-b1, a1",
            "path 1, m1: the shepherd on m1 stands in water and must leave it: with no path of 1 "
            "out of the water it goes back, m1>a1",
        ),
        (
            STUCK_WET,
            "1111e: m1-m2, a1-a2, a1-b1, a1",
            "path 1, m1-m2: the shepherd started in water and must leave it, but m2 is water",
        ),
    ],
)
def test_forced_moves(pos: AwethiPosition, text: str, reason: str) -> None:
    error = refusal(E2, pos, text)
    assert (error.code, error.reason) == ("forced-move", reason)


@pytest.mark.parametrize(
    ("pos", "text", "ends"),
    [
        (CORNER, "1111e: v1-w1, x1, a1-a2, a1-b1", ["a2", "b1", "w1", "x1"]),
        (BOXED, "1111e: x1, a1-a2, a1-b1, a1", ["a1", "a2", "b1", "x1"]),
        (BOXED, "1111e: x1>a1, a1-a2, a1-b1, a1", ["a1", "a1", "a2", "b1"]),
        (WET, "2111e: m1-l1-k1, a1-a2, a1-b1, a1", ["a1", "a2", "b1", "k1"]),
        (WET, "2111e: m1-m2-l2, a1-a2, a1-b1, a1", ["a1", "a2", "b1", "l2"]),
        (STUCK_WET, "1111e: m1>a1, a1-a2, a1-b1, a1", ["a1", "a1", "a2", "b1"]),
        # water may be crossed and entered by a shepherd that starts outside it
        (
            E2.place({"k1": "S1", "c4": "c1", **FAR}, turn="shepherds"),
            "2111e: k1-l1-m1, a1-a2, a1-b1, a1",
            ["a1", "a2", "b1", "m1"],
        ),
        (
            E2.place({"k1": "S1", "c4": "c1", **FAR}, turn="shepherds"),
            "4111e: k1-l1-m1-n1-o1, a1-a2, a1-b1, a1",
            ["a1", "a2", "b1", "o1"],
        ),
        # a diagonal step passes between two pieces
        (
            E2.place({"c5": "S1", "c6": "S2", "d5": "S2", "c4": "c1", **FAR}, turn="shepherds"),
            "2111e: c5-d6, a1-a2, a1-b1, a1",
            ["a1", "a2", "b1", "d6"],
        ),
        (
            E2.place({"b1": "S1", "c4": "c1", **FAR}, turn="shepherds"),
            "2223e: b1-a1-a2, a1-b1-c1, a1-b2, a1-b1-c2",
            ["a2", "b2", "c1", "c2"],
        ),
        (
            FIELD,
            "4444e: g10-g11-g12-g13-g14, c5-d5-d6-d7-d8, e7-e6-e5-e4-e3, l12-l11-l10-l9-l8",
            ["d8", "e3", "g14", "l8"],
        ),
    ],
)
def test_legal_stays_jumps_back_water_and_own_shelter(
    pos: AwethiPosition, text: str, ends: list[str]
) -> None:
    assert shepherds(play(E2, pos, text)) == sorted(ends)


def test_paths_apply_in_the_order_written() -> None:
    line = E2.place({"c4": "S1", "c5": "S1", "f4": "c1", **FAR}, turn="shepherds")
    done = play(E2, line, "1111e: c5-c6, c4-c5, a1-a2, a1-b1")
    assert shepherds(done) == ["a2", "b1", "c5", "c6"]
    error = refusal(E2, line, "1111e: c4-c5, c5-c6, a1-a2, a1-b1")
    assert (error.code, error.reason) == (
        "path-blocked",
        "path 1, c4-c5: c5 holds a shepherd of Shepherd1",
    )


def test_routes_of_a_shepherds_turn() -> None:
    pos = BOXED
    assert E2.routes(pos, move(E2, pos, "1111e: x1>a1, a1-a2, a1-b1, a1")) == (
        ("x1", "a1"),
        ("a1", "a2"),
        ("a1", "b1"),
        ("a1",),
    )


def test_a_jump_back_wakes_nothing() -> None:
    ring = {"h10": "S1", "g10": "S2", "h9": "S2", "h11": "S2", "i10": "S2", "c4": "c1", **FAR}
    pos = E2.place(ring, turn="shepherds")
    done, news = after(E2, pos, "1111e: h10>a1, a1-a2, a1-b1, a1")
    assert not done.awake and news == ()


# -- catching ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("placed", "text", "caught"),
    [
        # three of four sides: caught by the seat whose turn it is
        (
            {"e4": "S1", "g6": "S1", "f3": "S1", "f5": "c2"},
            "1111e: e4-e5, g6-g5, f3-f4, a1-a2",
            True,
        ),
        # Shepherd2's shepherds stand on two sides: the catch is still Shepherd1's
        ({"e5": "S2", "g5": "S2", "f3": "S1", "f5": "c2"}, "1111e: f3-f4, a1-a2, a1-b1, a1", True),
        # two sides only
        ({"e4": "S1", "g6": "S1", "f5": "c2"}, "1111e: e4-e5, g6-g5, a1-a2, a1-b1", False),
        # three sides during the turn, two after the last path: no catch
        (
            {"e5": "S1", "g6": "S1", "f3": "S1", "f5": "c2"},
            "1111e: g6-g5, f3-f4, e5-d5, a1-a2",
            False,
        ),
        # diagonals do not count
        (
            {"e3": "S1", "g3": "S1", "f3": "S1", "e6": "S2", "g6": "S2", "f5": "c2"},
            "1111e: e3-e4, g3-g4, f3-f4, a1-a2",
            False,
        ),
        # the shelter counts once, however many stand in it (a1, c1: two squares)
        ({"c2": "S1", "a2": "S2", "b3": "S1", "b1": "c2"}, "1111e: c2-c1, b3-b4, a1, a1", False),
        ({"c2": "S1", "a2": "S2", "b3": "S1", "b1": "c2"}, "1111e: c2-c1, b3-b2, a1, a1", True),
    ],
)
def test_catching(placed: dict[str, str], text: str, caught: bool) -> None:
    pos = E2.place({**placed, "c4": "c1", "v22": "c2"}, turn="shepherds")
    news = events(E2, pos, text)
    square = next(s for s, c in placed.items() if c == "c2")
    expected = [("caught", f"Shepherd1 catches Shepherd2's calf on {square}")] if caught else []
    assert news == expected
    done = play(E2, pos, text)
    state = [p.state for p in E2.view(done).pieces if p.square == square]
    assert state == (["caught"] if caught else [""])


CATCH = {"e5": "S2", "g5": "S2", "f4": "S1", "f5": "c2/1", "c4": "c1", "v22": "c2"}


def test_a_catch_completes_at_the_catchers_next_shepherds_turn() -> None:
    pos = E2.place(CATCH, turn="shepherds", group=3)
    done, news = after(E2, pos, "1111e: f4-f5, a1-a2, a1-b1, a1")
    assert [(x.code, x.message, x.squares) for x in news] == [
        (
            "catch-completed",
            "Shepherd1's catch is complete: Shepherd2's calf on f5 goes to Shepherd2's shelter",
            ("f5",),
        )
    ]
    assert done.sheltered == ((0, 0, 0), (1, 0, 0)) and "f5" in shepherds(done)
    catcher = engine(2, catch="catcher")
    done = play(catcher, catcher.place(CATCH, turn="shepherds"), "1111e: f4-f5, a1-a2, a1-b1, a1")
    assert done.sheltered == ((1, 0, 0), (0, 0, 0))


def test_a_catch_lapses_and_can_be_made_again_at_once() -> None:
    # Shepherd1 caught f5 with e5, g5 and f4; the shepherd on e5 has left since
    left = {"g5": "S2", "f4": "S2", "f5": "c2/1", "e6": "S1", "c4": "c1", "v22": "c2"}
    pos = E2.place(left, turn="shepherds")
    assert pieces(E2, pos)["f5"] == "C2"
    news = events(E2, pos, "1111e: e6-e5, a1-a2, a1-b1, a1")
    assert news == [
        (
            "catch-lapsed",
            "Shepherd1's catch lapses: Shepherd2's calf on f5 no longer has three shepherds next "
            "to it",
        ),
        ("caught", "Shepherd1 catches Shepherd2's calf on f5"),
    ]
    gone = events(E2, pos, "1111e: e6-d6, a1-a2, a1-b1, a1")
    assert gone == [news[0]]


def test_catches_of_other_seats_wait_and_caught_animals_stay() -> None:
    # Shepherd2 caught f5 (Shepherd1's cow); Shepherd1's turn neither completes it nor moves it
    pos = E2.place({"e5": "S2", "g5": "S2", "f4": "S2", "f5": "w1/2", "c4": "c1", "v22": "c2"})
    moved = play(E2, pos, "3: H")
    assert pieces(E2, moved)["f5"] == "W1" and pieces(E2, moved)["c3"] == "c1"
    assert events(E2, moved, "1111e: a1-a2, a1-b1, a1, a1") == []
    # the catcher's own shepherds' turn completes it
    theirs = E2.place(
        {"e5": "S2", "g5": "S2", "f4": "S2", "f5": "w1/2", "c4": "c1", "v22": "c2"},
        seat=2,
        turn="shepherds",
    )
    news = events(E2, theirs, "1111e: y25-y24, e5-e6, g5-g6, f4-f3")
    assert news[0][0] == "catch-completed"


def test_the_whole_cycle_catch_herd_turn_completion() -> None:
    ring = {"e4": "S1", "g6": "S1", "f3": "S1", "f5": "c2", "c4": "c1", "v22": "c2"}
    pos = E2.place(ring, turn="shepherds")
    pos = play(E2, pos, "1111e: e4-e5, g6-g5, f3-f4, a1-a2", "3: H")  # Shepherd2's herd: f5 stays
    assert pieces(E2, pos)["f5"] == "C2" and pieces(E2, pos)["v21"] == "c2"
    pos = play(E2, pos, "1111e: y25-y24, y25-x25, y25, y25", "1: H")
    assert E2.move_number(pos) == MoveNumber(3, 3, True, 0) and pieces(E2, pos)["f5"] == "C2"
    done, news = after(E2, pos, "1111e: e5-e6, g5-g6, f4-f5, a2-a3")
    assert [x.code for x in news] == ["catch-completed"] and pieces(E2, done)["f5"] == "S1"
