"""Awéthi order of play, dice and the herd's turn (docs/rules.md, Awéthi: order of play,
waking and dice; the herd's turn), and where a structural mistake is reported."""

from __future__ import annotations

import pytest
from test_awethi_helpers import E1, E2, after, engine, events, move, pieces, play, refusal, turn

from zrec.moves import Dice, Turn
from zrec.rules.awethi.rules import AwethiEngine, AwethiPosition
from zrec.rules.base import Chance, MoveNumber

FAR = {"u23": "c2"}  # Shepherd2 keeps one animal, far away


def herd(e: AwethiEngine, pos: AwethiPosition, die: int) -> dict[str, str]:
    """The animals after the herd turn of ``die``."""
    moved = play(e, pos, f"{die}: H")
    return {s: c for s, c in pieces(e, moved).items() if c[0] in "cwbCWB" and s not in FAR}


# -- order of play and numbering ---------------------------------------------------------


def test_groups_of_turns_and_their_numbers() -> None:
    pos = E2.start()
    seen = []
    for text in (
        "1: H",
        "1111e: a1-a2, a1-b1, a1, a1",
        "3: H",
        "1111e: y25-y24, y25-x25, y25, y25",
    ):
        seen.append((E2.move_number(pos), E2.to_move(pos), E2.chance(pos)))
        pos = play(E2, pos, text)
    seen.append((E2.move_number(pos), E2.to_move(pos), E2.chance(pos)))
    d4, d4x4 = Chance((4,)), Chance((4, 4, 4, 4))
    assert seen == [
        (MoveNumber(1, 1, True, 0), 0, d4),
        (MoveNumber(1, 3, True, 0), 0, d4x4),
        (MoveNumber(2, 1, True, 1), 1, d4),
        (MoveNumber(2, 3, True, 1), 1, d4x4),
        (MoveNumber(3, 1, True, 0), 0, d4),
    ]
    one = play(E1, E1.start(), "1: H", "1111e: a1-a2, a1-b1, a1, a1")
    assert E1.move_number(one) == MoveNumber(2, 1, True, 0)


def test_shepherds_waking_the_wolves_end_their_group_with_a_wolf_turn() -> None:
    pos = E2.place({"h9": "S1", "c4": "c1", **FAR}, seat=1, turn="shepherds")
    woken, news = after(E2, pos, "1111e: h9-i9, a1-a2, a1-b1, a1")
    assert [(x.code, x.message, x.squares) for x in news] == [
        (
            "wolves-woken",
            "the wolves wake: a shepherd of Shepherd1 enters the forest at i9",
            ("i9",),
        )
    ]
    assert E2.move_number(woken) == MoveNumber(1, 3, True, 2) and E2.to_move(woken) == 2
    assert E2.chance(woken) == Chance((4, 6))
    nxt = play(E2, woken, "31: m13-m12")
    assert E2.move_number(nxt) == MoveNumber(2, 1, True, 1) and E2.chance(nxt) == Chance((4,))
    # from now on every group ends with a wolf turn
    group2 = play(E2, nxt, "1: H", "1111e: y25-y24, y25-x25, y25, y25")
    assert E2.move_number(group2) == MoveNumber(2, 3, True, 2)
    # one seat: the wolf turn closes the only seat's group
    solo = E1.place({"h9": "S1", "c4": "c1"}, turn="shepherds")
    solo = play(E1, solo, "1111e: h9-i9, a1-a2, a1-b1, a1")
    assert E1.move_number(solo) == MoveNumber(1, 3, True, 1)
    assert E1.move_number(play(E1, solo, "31: m13-m12")) == MoveNumber(2, 1, True, 0)


def test_a_herd_waking_the_wolves_mid_group() -> None:
    pos = E2.place({"h10": "c2", "c4": "c1"}, seat=2)
    woken, news = after(E2, pos, "2: H")
    assert [(x.code, x.message) for x in news] == [
        ("wolves-woken", "the wolves wake: Shepherd2's calf enters the forest at i10")
    ]
    assert woken.awake and E2.move_number(woken) == MoveNumber(1, 3, True, 1)
    wolf_due = play(E2, woken, "1111e: y25-y24, y25-x25, y25, y25")
    assert E2.move_number(wolf_due) == MoveNumber(1, 3, True, 2)


@pytest.mark.parametrize(
    ("pieces_", "die", "wakes"),
    [
        ({"g10": "b1"}, 2, True),  # walks h10, i10: ends in the forest
        ({"g10": "b1", "i10": "S2"}, 2, False),  # ends on h10, short of the forest
        ({"g10": "b1", "h10": "S2"}, 2, True),  # passes over h10 to i10
        ({"h10": "b1", "i10": "S2", "j10": "S2"}, 2, False),  # stays: passes nothing
        ({"i10": "b1"}, 3, True),  # passes i9 (forest), ends on i8
        ({"i10": "b1", "i9": "S2", "i8": "S2"}, 3, False),  # stays
    ],
)
def test_waking_counts_the_squares_passed_up_to_where_the_piece_stops(
    pieces_: dict[str, str], die: int, wakes: bool
) -> None:
    pos = E2.place({**pieces_, **FAR})
    assert play(E2, pos, f"{die}: H").awake is wakes


# -- structural mistakes: dice and the kind of turn ---------------------------------------


WOKEN = play(
    E2,
    E2.place({"h9": "S1", "c4": "c1", **FAR}, seat=1, turn="shepherds"),
    "1111e: h9-i9, a1-a2, a1-b1, a1",
)
SHEPHERDS_DUE = E2.place({"c4": "c1", **FAR}, seat=1, turn="shepherds")


@pytest.mark.parametrize(
    ("pos", "text", "reason"),
    [
        (
            WOKEN,
            "1: H",
            "the wolves are awake: the wolf turn of move 1 is due after Shepherd1's "
            "shepherds' turn (its two dice and a wolf's path, or --), not a herd turn",
        ),
        (
            WOKEN,
            "1111e: i9-i10, a2-a3, b1-c1, a1-b1",
            "the wolves are awake: the wolf turn of move 1 is due after Shepherd1's "
            "shepherds' turn (its two dice and a wolf's path, or --), not a shepherds' turn",
        ),
        (
            SHEPHERDS_DUE,
            "1: H",
            "Shepherd1's shepherds' turn is due (four dice, e or s, and a path for each "
            "shepherd), not a herd turn",
        ),
        (
            SHEPHERDS_DUE,
            "31: m13-m12",
            "Shepherd1's shepherds' turn is due (four dice, e or s, and a path for each "
            "shepherd), not a wolf turn",
        ),
        (
            E2.start(),
            "1111e: a1-a2, a1-b1, a1, a1",
            "Shepherd1's herd turn is due (its die and H, e.g. 3: H), not a shepherds' turn",
        ),
        (
            E2.start(),
            "31: m13-m12",
            "no wolf turn is due here: the wolves are still asleep, and Shepherd1's herd turn "
            "comes next",
        ),
        (
            play(E2, WOKEN, "31: m13-m12"),
            "26: --",
            "no wolf turn is due here: the wolves have moved, and Shepherd2's herd turn comes "
            "next",
        ),
    ],
)
def test_turn_order(pos: AwethiPosition, text: str, reason: str) -> None:
    error = refusal(E2, pos, text)
    assert (error.code, error.reason, error.legal) == ("turn-order", reason, ())


@pytest.mark.parametrize(
    ("pos", "written", "reason"),
    [
        (E2.start(), turn("H"), "a herd turn is written with its direction die: e.g. 3: H"),
        (E2.start(), turn("12: H"), "a herd turn rolls one die, its direction (e.g. 3: H), not 2"),
        (E2.start(), turn("5: H"), "5 is not a roll of the direction die (a d4: 1-4)"),
        (
            E2.start(),
            turn("1e: H"),
            "a herd turn has no option letter: write its die alone, e.g. 3: H",
        ),
        (
            SHEPHERDS_DUE,
            turn("2413: a1, a1, a1, a1"),
            "write e (each path its own die) or s (every path the sum divided by four) after "
            "the four dice",
        ),
        (
            SHEPHERDS_DUE,
            turn("2413x: a1, a1, a1, a1"),
            "x is not an option: write e (each path its own die) or s (the sum divided by four)",
        ),
        (
            SHEPHERDS_DUE,
            turn("241e: a1, a1"),
            "a shepherds' turn rolls four dice, not 3 (e.g. 2413e)",
        ),
        (SHEPHERDS_DUE, turn("2453e: a1, a1"), "5 is not a roll of a shepherd's die (a d4: 1-4)"),
        (
            SHEPHERDS_DUE,
            Turn(turn("a1-a2").actions * 4),
            "a shepherds' turn is written with its four dice and e or s: e.g. 2413e:",
        ),
        (
            WOKEN,
            turn("m13-m12"),
            "a wolf turn is written with its direction and distance dice: e.g. 35: "
            "m13-m12-m11-m10-m9-m8",
        ),
        (
            WOKEN,
            turn("3: m13-m12"),
            "a wolf turn rolls two dice, its direction (d4) and its distance (d6), not 1",
        ),
        (
            WOKEN,
            turn("35e: m13-m12"),
            "a wolf turn has no option letter: write its two dice, e.g. 35:",
        ),
        (
            WOKEN,
            Turn(turn("m13-m12").actions, Dice((3, 7))),
            "7 is not a roll of the distance die (a d6: 1-6)",
        ),
        (
            WOKEN,
            Turn(turn("m13-m12").actions, Dice((0, 1))),
            "0 is not a roll of the direction die (a d4: 1-4)",
        ),
    ],
)
def test_dice(pos: AwethiPosition, written: Turn, reason: str) -> None:
    error = refusal(E2, pos, written)
    assert (error.code, error.reason, error.legal) == ("dice", reason, ())


def test_a_herd_turn_is_its_die_and_h_alone() -> None:
    for text in ("1: H, H", "1: a1-a2"):
        error = refusal(E2, E2.start(), text)
        assert error.code == "form" and error.reason == (
            "a herd turn is written as its die and H alone (e.g. 3: H): the die decides every "
            "animal's move"
        )


# -- the herd's turn (docs/rules.md, Awéthi: the herd's turn) ----------------------------


@pytest.mark.parametrize(
    ("die", "result"),
    [
        (1, {"f16": "c1", "e17": "w1", "h17": "b1"}),  # north / north-west / north
        (2, {"g15": "c1", "i17": "w1", "j15": "b1"}),  # east / north-east / east
        (3, {"f14": "c1", "i13": "w1", "h13": "b1"}),  # south / south-east / south
        (4, {"e15": "c1", "e13": "w1", "h15": "b1"}),  # west / south-west / west (blocked)
    ],
)
def test_each_kind_moves_as_the_die_says(die: int, result: dict[str, str]) -> None:
    pos = E2.place({"f15": "c1", "g15": "w1", "h15": "b1", **FAR}, awake=True)
    assert herd(E2, pos, die) == result


@pytest.mark.parametrize(
    ("placed", "die", "result"),
    [
        # the bull first: it passes the calf on c16; the calf then finds c17 taken
        ({"c15": "b1", "c16": "c1"}, 1, {"c17": "b1", "c16": "c1"}),
        # calves: the one furthest north first, so both move
        ({"c15": "c1", "c16": "c1"}, 1, {"c16": "c1", "c17": "c1"}),
        # cows going north-west: c17 (rank - file 14) before e15 (10), which then reaches c17
        ({"e15": "w1", "c17": "w1"}, 1, {"a19": "w1", "c17": "w1"}),
        # calves going south: the southern one first
        ({"c17": "c1", "c16": "c1"}, 3, {"c15": "c1", "c16": "c1"}),
        # cows before calves: the calf finds b18 taken by the cow from d16
        ({"d16": "w1", "b17": "c1"}, 1, {"b18": "w1", "b17": "c1"}),
    ],
)
def test_herd_order(placed: dict[str, str], die: int, result: dict[str, str]) -> None:
    assert herd(E2, E2.place({**placed, **FAR}), die) == result


def test_routes_follow_the_herd_order_ties_in_reading_order() -> None:
    pos = E2.place({"c15": "c1", "f15": "c1", "d17": "w1", "g17": "w1", "b15": "b1", **FAR})
    assert E2.routes(pos, move(E2, pos, "1: H")) == (
        ("b15", "b16", "b17"),
        ("d17", "c18", "b19"),
        ("g17", "f18", "e19"),
        ("c15", "c16"),
        ("f15", "f16"),
    )


@pytest.mark.parametrize(
    ("placed", "die", "result"),
    [
        ({"d15": "c1"}, 3, {"d15": "c1"}),  # water d14: stays
        ({"d16": "b1"}, 3, {"d15": "b1"}),  # d15, then water: ends on d15
        ({"d17": "b1", "d16": "S2"}, 3, {"d15": "b1"}),  # passes d16 to d15
        ({"d16": "b1", "d15": "S2"}, 3, {"d16": "b1"}),  # d15 taken, then water: stays
        ({"c16": "w1"}, 3, {"d15": "w1"}),  # d15, then water e14: ends on d15
        ({"c12": "w1"}, 2, {"d13": "w1"}),  # between c13 and d12 (water) to d13; e14 water
        ({"m14": "c1"}, 3, {"m14": "c1"}),  # the Lair
        ({"k13": "b1"}, 2, {"l13": "b1"}),  # l13, then the Lair
        ({"b1": "c1"}, 4, {"b1": "c1"}),  # a shelter
        ({"c1": "b1"}, 4, {"b1": "b1"}),  # b1, then the shelter
        ({"f25": "c1"}, 1, {"f25": "c1"}),  # the edge
        ({"f24": "b1"}, 1, {"f25": "b1"}),  # f25, then the edge
        ({"g24": "w1"}, 1, {"f25": "w1"}),  # f25, then the edge
        ({"b16": "b1", "b17": "S2"}, 1, {"b18": "b1"}),  # passes over a piece
        ({"b16": "b1", "b18": "S2"}, 1, {"b17": "b1"}),  # the last free square of its walk
        ({"b16": "b1", "b17": "S2", "b18": "X"}, 1, {"b16": "b1"}),  # no free square: stays
        ({"b16": "w1", "a17": "c1"}, 1, {"a18": "c1", "b16": "w1"}),  # a17 taken, then edge
        ({"b16": "w1/2", "b15": "c1"}, 1, {"b16": "W1", "b15": "c1"}),  # caught: does not move
    ],
)
def test_barriers_and_pieces(placed: dict[str, str], die: int, result: dict[str, str]) -> None:
    assert herd(E2, E2.place({**placed, **FAR}, awake=True), die) == result


def test_the_herd_is_turned_face_up_at_its_first_turn() -> None:
    start = E2.start()
    assert events(E2, start, "3: H") == [
        (
            "herd-revealed",
            "Shepherd1's herd is turned face up: c4 calf, d4 cow, e4 calf, c3 bull, d3 cow, "
            "e3 calf",
        )
    ]
    one = play(E2, start, "3: H")
    assert not any(p.hidden for p in E2.view(one).pieces if p.owner == 0)
    assert all(p.hidden for p in E2.view(one).pieces if p.owner == 1 and p.kind != "shepherd")
    again = play(
        E2, one, "1111e: a1-a2, a1-b1, a1, a1", "3: H", "1111e: y25-y24, y25-x25, y25, y25"
    )
    assert events(E2, again, "3: H") == []
    assert engine(2, herd="bwwccc").start() != E2.start()
