"""Awéthi wolf turn (docs/rules.md, Awéthi: the wolf turn): distance, direction, circles, barriers,
eating, the 8 squares around a shepherd, the Lair, other wolves and the pass."""

from __future__ import annotations

import pytest
from test_awethi_helpers import E2, after, move, pieces, refusal

from zrec.rules.awethi.rules import AwethiPosition
from zrec.rules.base import REMOVED, MoveNumber

FAR = {"u23": "c2", "c4": "c1"}
# one wolf in the Lair, one on f10 next to a shepherd on f9; a calf on m9, a caught cow on h8
WOLF = E2.place({"m9": "c1", "f10": "X", "f9": "S1", "h8": "w1/2", **FAR}, turn="wolf")


def spelled(pos: AwethiPosition, roll: tuple[int, int]) -> list[str]:
    return [E2.spell(pos, m).text() for m in E2.legal_moves(pos, roll)]


@pytest.mark.parametrize(
    "text",
    [
        "35: m13-m12-m11-m10-m9-m8",  # passes over the calf on m9
        "36: m13-m12-m11-m10-m9-m8-m7",
        "15: m13-m14-m15-m14-m15-m16",  # circles back over its squares
        "15: m13-m12-m13-m14-m13-m14",  # in and out of the Lair, one square north
        "21: m13-n13",
        "24: f10-g10-g11-h11-h12",  # h is further east than f
        "35: f10-g10-h10-h9-h8-h7",  # passes over the caught cow
        "11: f10-f11",  # may start next to a shepherd
    ],
)
def test_legal_wolf_paths(text: str) -> None:
    pos, news = after(E2, WOLF, text)
    assert news == () and E2.move_number(pos) == MoveNumber(2, 1, True, 1)
    path = text.split(": ")[1].split("-")
    assert pieces(E2, pos)[path[-1]] == "X" and E2.routes(WOLF, move(E2, WOLF, text)) == (
        tuple(path),
    )


@pytest.mark.parametrize(
    ("pos", "text", "reason"),
    [
        (
            WOLF,
            "35: m13-m12-m11-m10-m9-m8-m7",
            "the wolf must move exactly 5 squares (its distance die), not 6",
        ),
        (
            WOLF,
            "35: m13-m12-m11-m10",
            "the wolf must move exactly 5 squares (its distance die), not 3",
        ),
        (
            WOLF,
            "15: m13-m12-m11-m10-m9-m8",
            "the wolf must end at least one square further north than m13",
        ),
        (
            WOLF,
            "44: f10-g10-h10-h9-h8",
            "the wolf must end at least one square further west than f10",
        ),
        (
            WOLF,
            "34: f10-f11-g11-h11-h10",
            "the wolf must end at least one square further south than f10",
        ),
        (WOLF, "22: m13-m14-m13", "the wolf must end at least one square further east than m13"),
        (
            WOLF,
            "35: m13-n12-n11-n10-n9-n8",
            "m13-n12 is not a step along a rank or a file: a wolf moves orthogonally",
        ),
        (WOLF, "35: a5-a4-a3-a2-a1-b1", "no wolf stands on a5"),
        (WOLF, "12: m24-m25-m26", "m26 is not a square of the board (a1-y25)"),
        (WOLF, "31: f10-f9", "f9 holds a shepherd: a wolf never passes a shepherd"),
        (
            WOLF,
            "33: f10-e10-e9-e8",
            "e8 is next to the shepherd on f9: a wolf that does not eat may not end there",
        ),
        (WOLF, "34: f10-g10-h10-h9xh8", "Shepherd1's cow on h8 is caught: it cannot be eaten"),
        (
            WOLF,
            "34: m13-m12-m11-m10-m9",
            "the wolf eats Shepherd1's calf on m9: write x before the last square "
            "(m13-m12-m11-m10xm9)",
        ),
        (
            WOLF,
            "35: m13-m12-m11-m10-m9xm8",
            "there is no animal to eat on m8: join the squares with -",
        ),
        (
            WOLF,
            "35: m13-m12xm11-m10-m9-m8",
            "join a wolf's squares with -; only an eating move writes x, before its last square",
        ),
        (
            E2.place({"e15": "X", **FAR}, turn="wolf"),
            "31: e15-e14",
            "e14 is water: a wolf never steps on water",
        ),
        (
            E2.place({"b2": "X", **FAR}, turn="wolf"),
            "42: b2-b1-a1",
            "a1 is a shelter: a wolf never enters one",
        ),
        (
            E2.place({"m10": "X", "m8": "X", **FAR}, turn="wolf"),
            "32: m10-m9-m8",
            "m8 holds another wolf: outside the Lair a wolf never ends on one",
        ),
        (
            E2.place({"m11": "X", "l12": "S1", **FAR}, turn="wolf"),
            "12: m11-m12-m13",
            "m13 is next to the shepherd on l12: a wolf that does not eat may not end there",
        ),
        (
            E2.place({"n8": "S1", "m9": "c1", **FAR}, turn="wolf"),
            "35: m13-m12-m11-m10-m9-m8",
            "m8 is next to the shepherd on n8: a wolf that does not eat may not end there",
        ),
    ],
)
def test_wolf_move_refused(pos: AwethiPosition, text: str, reason: str) -> None:
    error = refusal(E2, pos, text)
    assert (error.code, error.reason) == ("wolf-move", reason)


def test_refusals_list_some_legal_wolf_moves() -> None:
    error = refusal(E2, WOLF, "32: m13-m12-m11-m10")
    assert error.legal == ("m13-m12-m11", "m13-l13-l12", "m13-n13-n12")  # one path per end


def test_eating() -> None:
    pos, news = after(E2, WOLF, "34: m13-m12-m11-m10xm9")
    assert news[0].code == REMOVED and news[0].message == "the wolves eat Shepherd1's calf on m9"
    assert news[0].squares == ("m9",) and pos.eaten == ((1, 0, 0), (0, 0, 0))
    assert pieces(E2, pos)["m9"] == "X" and "m13" not in pieces(E2, pos)
    assert [p.count for p in E2.view(pos).pieces if p.kind == "eaten"] == [1]
    # the hunger is bigger than the fear: eating next to a shepherd
    near = E2.place({"n9": "S1", "m9": "c2", "c4": "c1", "u23": "c2"}, turn="wolf")
    assert after(E2, near, "34: m13-m12-m11-m10xm9")[1][0].message == (
        "the wolves eat Shepherd2's calf on m9"
    )


def test_the_lair_holds_several_wolves() -> None:
    pos = E2.place({"m11": "X", **FAR}, turn="wolf")
    home, _ = after(E2, pos, "12: m11-m12-m13")
    assert pieces(E2, home)["m13"] == "X X"
    assert [p.count for p in E2.view(home).pieces if p.kind == "wolf"] == [2]


def test_the_pass_only_when_no_wolf_can_move() -> None:
    error = refusal(E2, WOLF, "15: --")
    assert (error.code, error.reason) == (
        "wolf-pass",
        "a wolf can move (e.g. f10-f11-e11-d11-c11-b11): -- is written only when no wolf has a "
        "legal move",
    )
    stuck = E2.place({"l15": "S1", **FAR}, turn="wolf")  # north 1 reaches only m14, next to l15
    pos, news = after(E2, stuck, "11: --")
    assert news == () and E2.move_number(pos) == MoveNumber(2, 1, True, 1)
    assert E2.routes(stuck, move(E2, stuck, "11: --")) == ()
    assert spelled(stuck, (1, 1)) == ["11: --"] and spelled(stuck, (1, 2)) != ["12: --"]
    error = refusal(E2, stuck, "11: m13-m14")
    assert (
        error.reason
        == "m14 is next to the shepherd on l15: a wolf that does not eat may not end there"
    )
    form = refusal(E2, stuck, "11: m13-m14, m13-m14")
    assert form.code == "turn-order"


def test_legal_moves_list_every_path() -> None:
    assert spelled(WOLF, (3, 1)) == ["31: m13-m12"]
    # every path: f10 cannot go south (f9), nor end next to f9, nor stay on rank 10
    assert spelled(WOLF, (3, 2)) == [
        "32: m13-n13-n12",
        "32: m13-m12-n12",
        "32: m13-m12-m11",
        "32: m13-m12-l12",
        "32: m13-l13-l12",
    ]
    paths = spelled(WOLF, (1, 3))
    assert len(paths) == len(set(paths)) and "13: m13-m14-m15-m16" in paths
    assert "13: m13-m12-m13-m14" in paths and "13: m13-m14-m13-m14" in paths
    assert all(E2.resolve(WOLF, E2.spell(WOLF, m)).move == m for m in E2.legal_moves(WOLF, (1, 3)))
