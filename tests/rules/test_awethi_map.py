"""Awéthi board and setup (docs/rules.md, Awéthi: the board, seats and pieces, options):
the default map, the Map string, every bad-map reason, the Herd tags, seats from the
tags, engines and the start."""

from __future__ import annotations

import random
from collections import Counter
from importlib import resources

import pytest
from test_awethi_helpers import E1, E2, E4, pieces

from zrec.play.replay import GameSetupError, prepare_rules
from zrec.rules import find_game
from zrec.rules.awethi.board import (
    NAME,
    SIZE,
    AwethiMap,
    board_spec,
    default_map,
    map_from_rows,
    parse_herd,
    parse_map,
)
from zrec.rules.awethi.rules import AWETHI, AwethiEngine
from zrec.rules.base import Chance, InputError, MoveNumber, OptionError, SetupError, configure

DEFAULT = default_map()
ROWS = list(DEFAULT.rows())
TAGS = {"Shepherd1": "Ann", "Shepherd2": "Bo", "Herd1": "cwcbwc", "Herd2": "bwwccc"}


def district_counts(amap: AwethiMap) -> list[list[dict[str, int]]]:
    """Terrain letters per district, north row of districts first."""
    out = []
    for ranks in ((17, 25), (8, 17), (0, 8)):
        row = []
        for files in ((0, 8), (8, 17), (17, 25)):
            cells = (amap.terrain[r * SIZE + f] for r in range(*ranks) for f in range(*files))
            row.append(dict(sorted(Counter(cells).items())))
        out.append(row)
    return out


def test_the_default_map_is_shipped_unchanged_and_read_exactly() -> None:
    text = resources.files("zrec.rules.awethi").joinpath("default.map").read_text("utf-8")
    assert text.splitlines() == ROWS and len(ROWS) == 25 and text.endswith("s\n")
    corner = {".": 53, "h": 6, "s": 1, "w": 4}
    edge = {".": 65, "w": 7}
    assert district_counts(DEFAULT) == [
        [corner, edge, corner],
        [edge, {"L": 1, "f": 80}, edge],
        [corner, edge, corner],
    ]
    assert [[NAME[i] for i in point] for point in DEFAULT.herding] == [
        ["c4", "d4", "e4", "c3", "d3", "e3"],
        ["u23", "v23", "w23", "u22", "v22", "w22"],
        ["u4", "v4", "w4", "u3", "v3", "w3"],
        ["c23", "d23", "e23", "c22", "d22", "e22"],
    ]
    regions = board_spec(DEFAULT).regions
    assert [s for s, r in regions.items() if r == "shelter"] == ["a1", "y1", "a25", "y25"]
    assert [s for s, r in regions.items() if r == "lair"] == ["m13"]
    assert (regions["i9"], regions["q17"], regions["h9"], regions["c3"]) == (
        "forest",
        "forest",
        "open",
        "herding",
    )
    assert regions["m1"] == regions["a13"] == "water" and len(regions) == 625
    assert parse_map("default") is DEFAULT and parse_map(" Default ") is DEFAULT


def test_the_inline_map_round_trip() -> None:
    text = DEFAULT.text()
    assert text.startswith("s11.w11.s/12.w12./2.3h7.w7.3h2./")
    assert text.endswith("/3w5.4fL4f5.3w/" + text.split("/3w5.4fL4f5.3w/")[1])
    assert parse_map(text) == DEFAULT and parse_map(text).herding == DEFAULT.herding
    spelled_out = "/".join(ROWS)  # no repeat counts at all
    assert parse_map(spelled_out) == DEFAULT
    moved = ROWS[:]
    moved[2] = "..hhh.......w........hhh."  # Shepherd2's point one file east: still 6
    other = parse_map("/".join(moved))
    assert other != DEFAULT and parse_map(other.text()) == other
    assert [NAME[i] for i in other.herding[1][:3]] == ["v23", "w23", "x23"]


def _with(row: int, col: int, letter: str) -> list[str]:
    rows = ROWS[:]
    rows[row] = rows[row][:col] + letter + rows[row][col + 1 :]
    return rows


@pytest.mark.parametrize(
    ("rows", "reason"),
    [
        (ROWS[:24], "the map has 24 rows; it needs 25, from rank 25 down to rank 1, joined by /"),
        (
            [*ROWS[:3], ROWS[3][:24], *ROWS[4:]],
            "row 4 (rank 22) has 24 squares; every row needs 25 (files a-y)",
        ),
        (_with(0, 0, "."), "a25 must be a shelter (s): each corner holds one (Shepherd4's)"),
        (_with(24, 24, "."), "y1 must be a shelter (s): each corner holds one (Shepherd3's)"),
        (_with(5, 0, "s"), "a20 is a shelter (s): shelters stand only on the four corners"),
        (_with(12, 12, "f"), "m13 must be the Lair (L)"),
        (_with(11, 10, "L"), "k14 is marked L: the Lair is m13 alone"),
        (
            _with(11, 10, "w"),
            "k14 is water in the forest district i9-q17: the forest has no water",
        ),
        (
            _with(2, 2, "."),
            "the herding point of Shepherd4 (the h squares nearest to a25) has 5 squares; "
            "it needs 6",
        ),
        (
            _with(2, 5, "h"),
            "the herding point of Shepherd4 (the h squares nearest to a25) has 7 squares; "
            "it needs 6",
        ),
        (
            _with(20, 12, "h"),
            "the herding square m5 is as near to a1 as to y1: each h square belongs to the "
            "shelter nearest to it",
        ),
    ],
)
def test_bad_maps(rows: list[str], reason: str) -> None:
    with pytest.raises(InputError) as caught:
        map_from_rows(rows)
    assert caught.value.reason == reason and caught.value.code == "bad-map"
    with pytest.raises(InputError) as inline:
        parse_map("/".join(rows))
    assert inline.value.reason == reason


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "x" + DEFAULT.text()[1:],
            "row 1 (rank 25): 'x' is not a terrain letter (. open, h herding point, f forest, "
            "w water, L Lair, s shelter)",
        ),
        ("0." + DEFAULT.text(), "row 1 (rank 25): a repeat count must be 1 or more"),
        ("25.3/" + DEFAULT.text(), "row 1 (rank 25) ends with the number 3: a letter follows it"),
        (
            DEFAULT.text() + "/",
            "the map has 26 rows; it needs 25, from rank 25 down to rank 1, joined by /",
        ),
    ],
)
def test_bad_map_strings(text: str, reason: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_map(text)
    assert caught.value.reason == reason and caught.value.code == "bad-map"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "cwcbw",
            "'cwcbw' has 2 calves, 2 cows, 1 bull; a herd has 6 animals: 3 calves (c), "
            "2 cows (w) and 1 bull (b)",
        ),
        (
            "ccccwb",
            "'ccccwb' has 4 calves, 1 cow, 1 bull; a herd has 6 animals: 3 calves (c), "
            "2 cows (w) and 1 bull (b)",
        ),
        ("cwcbwx", "'cwcbwx': 'x' is not an animal (c calf, w cow, b bull)"),
        ("CWCBWC", "'CWCBWC': 'C' is not an animal (c calf, w cow, b bull)"),
    ],
)
def test_bad_herds(text: str, reason: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_herd(text)
    assert caught.value.reason == reason and caught.value.code == "bad-herd"


def test_herd_tags_read() -> None:
    assert parse_herd(" bwwccc ") == "bwwccc"
    assert parse_herd("cwcbwc") == "cwcbwc"


# -- seats and engines ------------------------------------------------------------------


def _engine(tags: dict[str, str]) -> AwethiEngine:
    return AWETHI.engine_for(configure(AWETHI, tags))


def test_game_object() -> None:
    assert find_game("Awéthi") is AWETHI and find_game("awethi!") is AWETHI
    assert AWETHI.seats == ("Shepherd1", "Shepherd2", "Shepherd3", "Shepherd4", "Wolves")
    assert {t: s.values for t, s in AWETHI.options.items()} == {
        "Points": ("basic", "advanced"),
        "Catch": ("owner", "catcher"),
    }
    assert list(AWETHI.inputs) == ["Map", "Herd1", "Herd2", "Herd3", "Herd4"]


@pytest.mark.parametrize(
    ("present", "seats"),
    [
        (["Shepherd1"], ("Shepherd1", "Wolves")),
        (["Shepherd1", "Shepherd2", "Wolves"], ("Shepherd1", "Shepherd2", "Wolves")),
        (["Shepherd1", "Shepherd2", "Shepherd3", "Shepherd4"], (*AWETHI.seats,)),
    ],
)
def test_seats_from_tags(present: list[str], seats: tuple[str, ...]) -> None:
    tags = {name: "?" for name in present} | {f"Herd{k}": "cwcbwc" for k in range(1, 5)}
    e = _engine(tags)
    assert e.seats == seats and e.options == {"Points": "basic", "Catch": "owner"}


@pytest.mark.parametrize(
    ("tags", "code", "tag", "message"),
    [
        (
            {"Wolves": "Cy", "Herd1": "cwcbwc"},
            "bad-seats",
            "Shepherd1",
            '[Shepherd1]: the record names no shepherd player: write [Shepherd1 "..."] ... '
            '[ShepherdN "..."] for N = 1 to 4',
        ),
        (
            {"Shepherd1": "A", "Shepherd3": "C", "Herd1": "cwcbwc", "Herd3": "cwcbwc"},
            "bad-seats",
            "Shepherd2",
            "[Shepherd2]: Shepherd3 plays but Shepherd2 is missing: the shepherd seats go "
            "Shepherd1 ... ShepherdN with no gap",
        ),
        (
            {"Shepherd1": "A", "Shepherd2": "B", "Herd1": "cwcbwc"},
            "missing-herd",
            "Herd2",
            "[Herd2]: Shepherd2 plays, so the record states its herd's order, e.g. "
            '[Herd2 "cwcbwc"]',
        ),
    ],
)
def test_bad_seat_tags(tags: dict[str, str], code: str, tag: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        _engine(tags)
    assert (caught.value.code, caught.value.tag, str(caught.value)) == (code, tag, message)


def test_herd_tags_of_seats_not_in_play_are_ignored_and_bad_ones_refused() -> None:
    e = _engine(TAGS | {"Herd3": "cccwwb"})
    assert e is _engine(TAGS)  # one engine per map, seats, herds and options
    with pytest.raises(InputError) as caught:
        configure(AWETHI, TAGS | {"Herd1": "cwcbw"})
    assert caught.value.tag == "Herd1" and caught.value.reason.startswith("'cwcbw' has 2 calves")
    with pytest.raises(InputError) as bad_map:
        configure(AWETHI, TAGS | {"Map": "25."})
    assert bad_map.value.tag == "Map" and "the map has 1 row;" in bad_map.value.reason
    with pytest.raises(GameSetupError) as setup:
        prepare_rules(AWETHI, TAGS | {"Herd2": "cwcbwcc"})
    assert setup.value.tag == "Herd2"


def test_engines_from_tags_use_map_herds_and_options() -> None:
    inline = _engine(TAGS | {"Map": DEFAULT.text(), "Points": "Advanced", "Catch": "catcher"})
    assert inline.map == DEFAULT and inline.options == {"Points": "advanced", "Catch": "catcher"}
    start = _engine(TAGS).start()
    assert pieces(_engine(TAGS), start)["u23"] == "b2" and pieces(E2, E2.start())["u23"] == "c2"


def test_unknown_option_values_are_refused() -> None:
    for tag in ("Points", "Catch"):
        with pytest.raises(OptionError) as caught:
            configure(AWETHI, TAGS | {tag: "both"})
        assert caught.value.tag == tag


def test_random_tags() -> None:
    rng = random.Random(1)
    tags = AWETHI.random_tags(None, rng)
    assert sorted(tags) == ["Herd1", "Herd2", "Shepherd1", "Shepherd2", "Wolves"]
    assert all(parse_herd(tags[f"Herd{k}"]) for k in (1, 2))
    assert len(_engine(AWETHI.random_tags(4, rng)).seats) == 5
    assert _engine(AWETHI.random_tags(1, rng)).seats == ("Shepherd1", "Wolves")
    for bad in (0, 5):
        with pytest.raises(InputError) as caught:
            AWETHI.random_tags(bad, rng)
        assert caught.value.code == "bad-seats"
        assert caught.value.reason == (
            f"Awéthi is played by 1 to 4 shepherd players and the wolves, not {bad}"
        )


# -- the start (docs/rules.md, Awéthi: seats and pieces) --------------------------------


CODES1 = ["c1", "w1", "c1", "b1", "w1", "c1"]
CODES2 = ["c2", "w2", "c2", "b2", "w2", "c2"]


def test_start_position() -> None:
    start = E2.start()
    assert pieces(E2, start) == {
        "a1": "S1 S1 S1 S1",
        "y25": "S2 S2 S2 S2",
        "m13": "X X",
        **dict(zip(["c4", "d4", "e4", "c3", "d3", "e3"], CODES1, strict=True)),
        **dict(zip(["u23", "v23", "w23", "u22", "v22", "w22"], CODES2, strict=True)),
    }
    assert all(p.hidden for p in E2.view(start).pieces if p.kind in ("calf", "cow", "bull"))
    assert E2.to_move(start) == 0 and E2.chance(start) == Chance((4,))
    assert E2.move_number(start) == MoveNumber(1, 1, True, 0) and E2.outcome(start) is None
    four = E4.start()
    assert pieces(E4, four)["m13"] == "X X X X" and pieces(E4, four)["a25"] == "S4 S4 S4 S4"
    assert pieces(E1, E1.start())["m13"] == "X" and "y25" not in pieces(E1, E1.start())
    with pytest.raises(SetupError) as caught:
        E2.setup("anything")
    assert str(caught.value) == "Awéthi has no Setup tag: the Map and Herd tags are its setup"
    assert E2.setup_text(start).startswith("move 1, Shepherd1 herd turn, wolves asleep;")

