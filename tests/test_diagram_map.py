"""A map of terrain as drawn: ground with fill and texture, tokens with a shape per kind
and their seat's number, counters, the legend, every route of a turn, flip, and the
replay page.

Most tests draw hand-made views of the shape the Awéthi engine gives (``BoardSpec``
``grid`` whose regions are kinds of ground, seats ``Shepherd1`` ... ``Wolves``), through a
stand-in engine; the last ones draw the real engine's positions.  To look at the
pictures: ``zrec diagram samples/... -o map.svg && rsvg-convert map.svg -o map.png``
(add ``-s grey.css`` with ``svg { filter: grayscale(1); }`` in it to see them in grey).
"""

from __future__ import annotations

import math
import os
import random
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from page_decode import page_data
from zrec import Game, read_game
from zrec.play import GameSetupError, prepare
from zrec.play.selfplay import random_game
from zrec.render.boards import GridBoard, MapBoard, board_for
from zrec.render.diagram import Frame as StripFrame
from zrec.render.diagram import diagram
from zrec.render.layers import LastMove, mark_move, position_layer
from zrec.render.pieces import TERRAINS
from zrec.render.replay_page import replay_page
from zrec.render.strip import strip
from zrec.render.svg import MAP_CSS
from zrec.rules import find_game
from zrec.rules.base import REMOVED, BoardSpec, Event, MoveNumber, Piece, View
from zrec.rules.stonewarriors.rules import StoneWarriors

SVG = "{http://www.w3.org/2000/svg}"
GOLDEN = Path(__file__).resolve().parent / "golden"

#: The default map (docs/rules.md, Awéthi: the board), rank 25 first: ``.`` open, ``h``
#: herding point, ``f`` forest, ``w`` water, ``L`` the Lair, ``s`` a shelter.
MAP = """\
s...........w...........s
............w............
..hhh.......w.......hhh..
..hhh......w.w......hhh..
...........w.w...........
.....ww...........ww.....
.....ww...........ww.....
.........................
........fffffffff........
........fffffffff........
........fffffffff........
...ww...fffffffff...ww...
www.....ffffLffff.....www
...ww...fffffffff...ww...
........fffffffff........
........fffffffff........
........fffffffff........
.........................
.....ww...........ww.....
.....ww...........ww.....
...........w.w...........
..hhh......w.w......hhh..
..hhh.......w.......hhh..
............w............
s...........w...........s
"""
WORDS = {
    ".": "open",
    "h": "herding",
    "f": "forest",
    "w": "water",
    "L": "lair",
    "s": "shelter",
}
FILES = "abcdefghijklmnopqrstuvwxy"


def map_spec() -> BoardSpec:
    rows = MAP.split()
    regions = {
        f"{FILES[f]}{25 - r}": WORDS[letter]
        for r, row in enumerate(rows)
        for f, letter in enumerate(row)
    }
    cells = tuple(f"{FILES[i % 25]}{i // 25 + 1}" for i in range(625))
    return BoardSpec("grid", cells=cells, regions=regions)


SPEC = map_spec()
SEATS = ("Shepherd1", "Shepherd2", "Wolves")


def start_view() -> View:
    """A two-seat start: four shepherds in each shelter, the herds face down on their
    herding points, two wolves in the Lair."""
    pieces = [Piece("a1", 0, "shepherd", "S1", 4)]
    for seat, squares in ((0, "c4 d4 e4 c3 d3 e3"), (1, "u23 v23 w23 u22 v22 w22")):
        for square, kind in zip(squares.split(), ("calf", "cow", "calf", "bull", "cow", "calf"),
                                strict=True):  # fmt: skip
            pieces.append(Piece(square, seat, kind, f"{kind[0]}{seat + 1}", hidden=True))
    pieces += [Piece("m13", 2, "wolf", "X", 2), Piece("y25", 1, "shepherd", "S2", 4)]
    return View(SPEC, SEATS, tuple(pieces))


def middle_view() -> View:
    """Later: shepherds out, a caught calf, animals sheltered and eaten."""
    return View(
        SPEC,
        SEATS,
        (
            Piece("a1", 0, "shepherd", "S1", 2),
            Piece("a1", 0, "sheltered", "H1", 3),
            Piece("c5", 0, "shepherd", "S1"),
            Piece("e5", 0, "shepherd", "S1"),
            Piece("d6", 1, "shepherd", "S2"),
            Piece("d5", 0, "calf", "c1", state="caught"),
            Piece("g4", 0, "cow", "w1"),
            Piece("h2", 0, "bull", "b1"),
            Piece("u22", 1, "calf", "c2", hidden=True),
            Piece("k10", 2, "wolf", "X"),
            Piece("m13", 2, "wolf", "X"),
            Piece("m13", 2, "eaten", "E", 2),
            Piece("y25", 1, "shepherd", "S2", 4),
        ),
    )


class MapEngine:
    """Just enough of an engine to draw hand-made views: a position is its view."""

    def __init__(self, start: View, routes: Sequence[Sequence[str]] = (), removed: str = ""):
        self._start, self._routes, self._removed = start, routes, removed

    def start(self) -> View:
        return self._start

    def view(self, pos: View) -> View:
        return pos

    def outcome(self, pos: View) -> None:
        return None

    def move_number(self, pos: View) -> MoveNumber:
        return MoveNumber(1, 1, True, 0)

    def setup_text(self, pos: View) -> str:
        return "-"

    def routes(self, pos: View, move: object) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(r) for r in self._routes)

    def apply(self, pos: View, move: object) -> tuple[View, tuple[Event, ...]]:
        events = (Event(REMOVED, "eaten", (self._removed,)),) if self._removed else ()
        return pos, events


def map_board(*, flip: bool = False) -> MapBoard:
    board = board_for(SPEC, flip=flip)
    assert isinstance(board, MapBoard)
    return board


def draw(view: View, **options: Any) -> ET.Element:
    engine: Any = MapEngine(start_view())
    return ET.fromstring(diagram(engine, view, **options))


def classes(e: ET.Element) -> list[str]:
    return e.attrib.get("class", "").split()


def legend_of(root: ET.Element) -> ET.Element:
    (found,) = [e for e in root.iter() if classes(e) == ["legend"]]
    return found


def having(root: ET.Element, *names: str, legend: bool = False) -> list[ET.Element]:
    """The elements with all these classes: on the map (or in the legend, with ``legend``)."""
    keys = {id(e) for e in legend_of(root).iter()}
    return [e for e in root.iter() if set(names) <= set(classes(e)) and (id(e) in keys) == legend]


def centre_of(e: ET.Element) -> tuple[float, float]:
    """The centre of a token: a circle's centre, or the middle of a path's box."""
    if e.tag == f"{SVG}circle":
        return float(e.attrib["cx"]), float(e.attrib["cy"])
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", e.attrib["d"])]
    xs, ys = numbers[0::2], numbers[1::2]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


# -- the ground --------------------------------------------------------------------------


def test_a_grid_of_ground_kinds_is_a_map_and_the_cross_board_is_not() -> None:
    assert isinstance(board_for(SPEC), MapBoard)
    cross = StoneWarriors()
    board = board_for(cross.view(cross.start()).board)
    assert isinstance(board, GridBoard) and not isinstance(board, MapBoard)
    assert "terrain" not in diagram(cross, cross.start())


def test_every_square_has_its_ground_as_fill_and_texture() -> None:
    root = draw(start_view())
    assert len(having(root, "square")) == 625
    assert len(having(root, "square", legend=True)) == len(TERRAINS)  # a sample of each
    counts = {kind: len(having(root, "square", kind)) for kind in TERRAINS}
    assert counts == {
        "open": 625 - 24 - 80 - 44 - 1 - 4,
        "herding": 24,
        "forest": 80,
        "water": 44,
        "lair": 1,
        "shelter": 4,
    }
    textures = {classes(e)[1]: e for e in having(root, "terrain") if e.tag == f"{SVG}path"}
    # every kind but open ground is textured as well as filled, so that it reads in grey
    assert {"herding", "forest", "water", "lair", "shelter"} <= set(textures)
    assert textures["water"].attrib["d"].count("M") >= 2 * 44  # two wavy lines a square
    assert textures["forest"].attrib["d"].count("Z") >= 2 * 80  # two trees a square
    assert not having(root, "trail")  # no diagonals on a map
    style = root.find(f"{SVG}style")
    assert style is not None and style.text is not None and MAP_CSS in style.text
    for kind in TERRAINS:
        assert f".square.{kind}" in MAP_CSS


def test_a_map_is_700_to_900_px_wide_with_files_below_and_ranks_at_the_left() -> None:
    root = draw(start_view())
    board = board_for(SPEC)
    assert 700 <= float(root.attrib["width"]) <= 900
    cell = board.centres["b1"][0] - board.centres["a1"][0]
    bottom = max(float(e.attrib["y"]) for e in having(root, "square")) + cell
    labels = {e.text: e for e in having(root, "coord")}
    assert len(labels) == 25 + 25
    for file in FILES:
        x, y = float(labels[file].attrib["x"]), float(labels[file].attrib["y"])
        assert math.isclose(x, board.centres[f"{file}1"][0]) and y > bottom
    for rank in range(1, 26):
        x, y = float(labels[str(rank)].attrib["x"]), float(labels[str(rank)].attrib["y"])
        assert (
            math.isclose(y, board.centres[f"a{rank}"][1]) and x < board.centres["a1"][0] - cell / 2
        )
    assert board.centres["a25"][1] < board.centres["a1"][1]  # north at the top


def test_a_flipped_map_is_turned_half_round_and_keeps_its_legend_below() -> None:
    plain, flipped = board_for(SPEC), board_for(SPEC, flip=True)
    px, py = plain.pivot
    for name, (x, y) in plain.centres.items():
        fx, fy = flipped.centres[name]
        assert math.isclose(fx, 2 * px - x) and math.isclose(fy, 2 * py - y), name
    assert flipped.centres["y25"][1] > flipped.centres["a1"][1]
    root = draw(middle_view(), flip=True)
    heads = [e.text for e in having(root, "legend-head", legend=True)]
    assert heads == ["Ground", "Animals", "Pieces", "Seats", "Last move"]
    map_bottom = max(y for _, y in flipped.centres.values())
    assert min(float(e.attrib["y"]) for e in having(root, "legend-head", legend=True)) > map_bottom
    (bull,) = having(root, "piece", "bull")
    assert math.dist(centre_of(bull), flipped.centres["h2"]) < 1  # on h2, turned half round
    (rank1,) = [e for e in having(root, "coord") if e.text == "1"]
    assert math.isclose(float(rank1.attrib["y"]), flipped.centres["a1"][1])  # at the top


def test_the_legend_names_every_ground_token_seat_and_mark() -> None:
    root = draw(start_view())
    labels = [e.text for e in having(root, "legend-label", legend=True)]
    assert labels == [
        "open ground", "herding point", "forest", "water", "Lair", "shelter",
        "calf", "cow", "bull", "face down", "caught",
        "shepherd (seat 1)", "wolf", "three on one square", "in a shelter", "eaten",
        "Shepherd1", "Shepherd2", "Wolves",
        "a move", "stayed", "taken off",
    ]  # fmt: skip
    board = board_for(SPEC)
    map_bottom = max(y for _, y in board.centres.values())
    for e in having(root, "legend-label", legend=True):
        assert float(e.attrib["y"]) > map_bottom
    samples = having(root, "sample", legend=True)
    assert samples and not [e for e in samples if "data-square" in e.attrib]
    seats = [e for e in samples if "shepherd" in classes(e) or "wolf" in classes(e)]
    assert {c for e in seats for c in classes(e) if c.startswith("seat-")} == {
        "seat-1",
        "seat-2",
        "seat-3",
    }
    # without a view of the game (the replay page's board), the legend has no seats
    bare = ET.Element("svg")
    bare.extend(board_for(SPEC).background())
    assert "Shepherd1" not in [e.text for e in having(bare, "legend-label", legend=True)]


# -- the pieces --------------------------------------------------------------------------


def test_each_kind_has_its_own_shape_and_each_token_its_seat_number() -> None:
    root = draw(middle_view())
    tokens = {
        e.attrib["data-piece"] + "@" + e.attrib["data-square"]: e for e in having(root, "piece")
    }
    assert len(tokens) == len(middle_view().pieces)
    unit = map_board().unit
    shepherd, calf = tokens["S1@c5"], tokens["c1@d5"]
    assert shepherd.tag == calf.tag == f"{SVG}circle"
    assert float(shepherd.attrib["r"]) == pytest.approx(12 * unit)
    assert float(calf.attrib["r"]) == pytest.approx(7.5 * unit)
    cow, bull, wolf = tokens["w1@g4"], tokens["b1@h2"], tokens["X@k10"]
    assert cow.attrib["d"].count("L") == 3 and bull.attrib["d"].count("L") == 2  # square, triangle
    assert wolf.attrib["d"].count("Z") == 4  # a head with two eyes and a nose cut out
    for code, kind in (("S1@c5", "shepherd"), ("c1@d5", "calf"), ("w1@g4", "cow"),
                       ("b1@h2", "bull"), ("X@k10", "wolf")):  # fmt: skip
        assert kind in classes(tokens[code])
    texts = [(e.text or "", classes(e)) for e in having(root, "glyph-text")]
    numbers = [t for t, c in texts if "shepherd" in c]
    assert sorted(numbers) == ["1", "1", "1", "2", "2"]  # every shepherd token carries its seat
    assert ("1", ["glyph-text", "cow", "shepherd1", "seat-1"]) in texts


def test_a_face_down_animal_hides_its_kind_and_a_caught_one_is_ringed() -> None:
    root = draw(middle_view())
    (tile,) = having(root, "piece", "face-down")
    assert tile.attrib["data-square"] == "u22"
    assert not {"calf", "cow", "bull"} & set(classes(tile))
    assert "seat-2" in classes(tile)
    board = board_for(SPEC)
    assert len(having(root, "face-down-mark")) == 1
    caught = having(root, "piece", "caught")
    assert [e.attrib["data-square"] for e in caught] == ["d5"]
    (ring,) = [e for e in having(root, "caught-mark") if e.tag == f"{SVG}circle"]
    assert (float(ring.attrib["cx"]), float(ring.attrib["cy"])) == board.centres["d5"]


def test_counts_badges_and_counters_on_shared_squares() -> None:
    root = draw(middle_view())
    board = board_for(SPEC)
    badges = [e.text for e in having(root, "count-text")]
    assert badges == ["2", "4"]  # the shepherds in a1 and y25
    counters = {
        e.attrib["data-piece"]: e
        for e in having(root, "piece")
        if e.attrib["data-piece"] in ("H1", "E")
    }
    assert set(counters) == {"H1", "E"}
    shelter, lair = board.centres["a1"], board.centres["m13"]
    sheltered = centre_of(counters["H1"])
    shepherds = next(
        e for e in having(root, "piece", "shepherd") if e.attrib["data-square"] == "a1"
    )
    # a counter sharing its square sits in the lower left corner, the shepherds upper right
    assert sheltered[0] < shelter[0] and sheltered[1] > shelter[1]
    sx, sy = centre_of(shepherds)
    assert sx > shelter[0] and sy < shelter[1]
    eaten = centre_of(counters["E"])
    assert eaten[0] < lair[0] and eaten[1] > lair[1]
    counts = {e.text for e in having(root, "glyph-text", "sheltered")} | {
        e.text for e in having(root, "glyph-text", "eaten")
    }
    assert {"3", "2"} <= counts
    # the pieces as View.codes() gives them: on a shared square the last of the view
    drawn = {e.attrib["data-square"]: e.attrib["data-piece"] for e in having(root, "piece")}
    assert drawn == middle_view().codes()


def test_an_unknown_ground_and_an_unknown_kind_are_still_drawn_and_named() -> None:
    regions = {**SPEC.regions, "c7": "marsh"}
    spec = BoardSpec("grid", SPEC.cells, regions=regions)
    view = View(spec, SEATS, (Piece("c7", 1, "goat", "g2"), Piece("d7", None, "", "?")))
    engine: Any = MapEngine(view)
    root = ET.fromstring(diagram(engine, view))
    assert len(having(root, "square", "marsh")) == 1
    assert not having(root, "terrain", "marsh")  # a plain square: no texture is known
    assert "marsh" in [e.text for e in having(root, "legend-label", legend=True)]
    goat, nobody = having(root, "piece")
    assert goat.tag == nobody.tag == f"{SVG}circle"
    assert "goat" in classes(goat) and "seat-2" in classes(goat)
    assert "other" in classes(nobody) and "plain" in classes(nobody)
    assert [e.text for e in having(root, "glyph-text")] == ["2"]  # nobody's has no number


# -- the marks of a turn -----------------------------------------------------------------


def test_every_route_of_a_shepherds_turn_is_an_arrow_and_a_stay_a_ring() -> None:
    routes = (("a1", "a2", "b2"), ("a1", "b1", "c1"), ("a1", "b2", "c3", "d4", "e5"), ("a1",))
    engine: Any = MapEngine(start_view(), routes)
    mark = mark_move(engine, start_view(), object())
    assert mark is not None and mark.paths == routes
    root = ET.fromstring(diagram(engine, middle_view(), last_move=mark))
    arrows = having(root, "last-move", "arrow")
    assert len(arrows) == 3 and len(having(root, "last-move", "halo")) == 3
    assert len(having(root, "last-move", "head")) == 3
    assert len(having(root, "last-move", "origin")) == 3
    (stay,) = having(root, "last-move", "stay")
    board = map_board()
    assert (float(stay.attrib["cx"]), float(stay.attrib["cy"])) == board.centres["a1"]
    for arrow, route in zip(arrows, routes, strict=False):
        points = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", arrow.attrib["d"])]
        start, end = (points[0], points[1]), (points[-2], points[-1])
        assert start == board.centres[route[0]]
        assert math.dist(end, board.centres[route[-1]]) < board.cell  # stops short of the token


def test_an_eaten_animal_is_a_ghost_beside_the_wolf_that_ate_it() -> None:
    before = View(SPEC, SEATS, (Piece("k7", 0, "calf", "c1"), Piece("k9", 2, "wolf", "X")))
    after = View(SPEC, SEATS, (Piece("k7", 2, "wolf", "X"),))
    engine: Any = MapEngine(start_view(), (("k9", "k8", "k7"),), removed="k7")
    mark = mark_move(engine, before, object())
    assert mark == LastMove(("k9", "k8", "k7"), (("k7", "c1"),))
    assert [g.code for g in mark.ghosts] == ["c1"]
    board = board_for(SPEC)
    layer = position_layer(board, after, mark)
    (ghost,) = [e for e in layer if "ghost" in (e.get("class") or "").split()]
    assert "calf" in ghost.attrib["class"] and "data-square" not in ghost.attrib
    x, y = board.centres["k7"]
    gx, gy = float(ghost.attrib["cx"]), float(ghost.attrib["cy"])
    assert gx > x and gy > y  # in the lower right corner: the wolf stands in the middle
    assert layer.index(ghost) > max(
        i for i, e in enumerate(layer) if "piece" in (e.get("class") or "")
    )
    assert [e for e in layer if e.get("class") == "captured"]
    # an animal taken from a square left empty is a ghost in the middle of it
    layer = position_layer(board, View(SPEC, SEATS, ()), mark)
    (ghost,) = [e for e in layer if "ghost" in (e.get("class") or "").split()]
    assert (float(ghost.attrib["cx"]), float(ghost.attrib["cy"])) == (x, y)


def test_a_strip_of_maps_has_one_stylesheet_and_one_empty_board_each_uses() -> None:
    engine: Any = MapEngine(start_view())
    root = ET.fromstring(
        strip(
            engine,
            [StripFrame(start_view(), None, "start"), StripFrame(middle_view(), None, "later")],
        )
    )
    assert len(root.findall(f".//{SVG}style")) == 1
    legends = [e for e in root.iter() if classes(e) == ["legend"]]
    assert len(legends) == 1 and len(having(legends[0], "legend-head", legend=True)) == 5
    (empty,) = root.findall(f"{SVG}defs/{SVG}g")  # the board with its legend, drawn once
    assert legends[0] in list(empty.iter())
    boards = [g for g in root.iter(f"{SVG}g") if classes(g) == ["board"]]
    assert [[u.get("href") for u in g.findall(f"{SVG}use")] for g in boards] == [
        [f"#{empty.get('id')}"]
    ] * 2


def test_golden_map_with_every_kind_of_token_and_the_marks_of_a_turn() -> None:
    """Regenerate with ``ZREC_REGEN_GOLDEN=1 pytest tests/test_diagram_map.py`` and look."""
    routes = (("a1", "a2", "b2"), ("a1", "b1", "c1"), ("a1", "b2", "c3", "d4", "e5"), ("a1",))
    eaten = Piece("k10", 0, "calf", "c1")
    mark = LastMove(routes[0], (("k10", "c1"),), routes[1:], (eaten,))
    engine: Any = MapEngine(start_view())
    svg = diagram(engine, middle_view(), last_move=mark, caption="a map, after a turn")
    path = GOLDEN / "map-tokens-and-marks.svg"
    if os.environ.get("ZREC_REGEN_GOLDEN") == "1":
        path.write_bytes(svg.encode("utf-8"))
    assert path.exists(), f"{path} is missing: run ZREC_REGEN_GOLDEN=1 pytest {__file__}"
    assert svg.encode("utf-8") == path.read_bytes(), f"{path.name} differs from its golden file"


# -- the replay page ---------------------------------------------------------------------


def test_a_board_made_for_a_page_carries_its_own_stylesheet() -> None:
    board = board_for(SPEC)
    first = board.background()[0]
    assert first.tag == "style" and first.text is not None and MAP_CSS in first.text
    assert board.background(style=False)[0].tag != "style"
    cross = StoneWarriors()
    assert board_for(cross.view(cross.start()).board).background()[0].tag != "style"


# -- the real engine ---------------------------------------------------------------------

TWO_SEATS = '[Game "awethi"]\n[Shepherd1 "A"]\n[Shepherd2 "B"]\n[Wolves "W"]\n' \
    '[Herd1 "cwcbwc"]\n[Herd2 "wcbcwc"]\n\n*\n'  # fmt: skip


def real_engine() -> Any:
    try:
        return prepare(read_game(TWO_SEATS))
    except GameSetupError as exc:  # no engine yet
        pytest.skip(str(exc))


def test_the_engines_start_of_a_two_seat_game() -> None:
    replay = real_engine()
    root = ET.fromstring(diagram(replay.engine, replay.start))
    assert len(having(root, "square")) == 625
    assert len(having(root, "piece", "face-down")) == 12  # both herds face down
    shepherds = having(root, "piece", "shepherd")
    assert sorted(e.attrib["data-square"] for e in shepherds) == ["a1", "y25"]
    assert [e.text for e in having(root, "count-text")] == ["4", "2", "4"]  # a1, m13, y25
    assert [e.attrib["data-square"] for e in having(root, "piece", "wolf")] == ["m13"]
    labels = [e.text for e in having(root, "legend-label", legend=True)]
    assert labels[16:19] == ["Shepherd1", "Shepherd2", "Wolves"]


def test_the_engines_shepherds_turn_draws_an_arrow_or_a_ring_for_each_shepherd() -> None:
    replay = real_engine()
    engine, pos = replay.engine, replay.start
    rng = random.Random(3)
    mark = None
    for _ in range(2):  # the herd's turn, then the shepherds'
        chance = engine.chance(pos)
        move = engine.legal_moves(pos, chance.roll(rng) if chance else None)[0]
        after, events = engine.apply(pos, move)
        mark = mark_move(engine, pos, move, events)
        pos = after
    assert mark is not None and len(mark.paths) == 4
    root = ET.fromstring(diagram(engine, pos, last_move=mark))
    moved = [p for p in mark.paths if len(p) > 1]
    stays = [p for p in mark.paths if len(p) == 1]
    assert len(having(root, "last-move", "arrow")) == len(moved)
    assert len(having(root, "last-move", "stay")) == len(stays)


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.skip("chromium is not installed")
    return found


def played(plies: int) -> Game:
    """A random two-seat game of the real engine, ``plies`` turns long."""
    real_engine()
    return random_game(find_game("awethi"), {}, random.Random(2), max_plies=plies, seats=2)


def test_the_page_of_a_game_has_the_map_and_its_stylesheet() -> None:
    game = played(12)
    page = replay_page([game])
    assert page.count(MAP_CSS) == 2  # in the board of each view (plain, flipped)
    nodes = page_data(page)["games"][0]["nodes"]
    assert len(nodes) == 13
    for node in nodes[1:]:
        classes_ = [shape[1].get("class", "") for shape in node["layer"]]
        assert any("last-move" in c for c in classes_)
        assert sum("piece token" in c for c in classes_) >= 12 + 2 + 1


def test_the_page_writes_the_seat_numbers_and_counts_on_the_tokens() -> None:
    data = replay_page([played(2)]).split('type="application/json">')[1]
    assert '"glyph-text' in data and '"4"' in data  # shapes as [tag, attributes, text]


def test_the_page_shows_a_map_and_turns_its_tokens_upright_when_flipped(tmp_path: Path) -> None:
    game = played(6)
    page = tmp_path / "map.html"
    page.write_text(replay_page([game]), encoding="utf-8")
    done = subprocess.run(
        [
            chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=5000",
            "--dump-dom", page.as_uri() + "#autotest=End,Flip",
        ],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    assert re.search(r'<body[^>]*class="[^"]*\btall\b', dom)  # kept within the window
    flipped = dom[dom.index('data-flipped="1"') :]
    layer = flipped[flipped.index('class="position"') :]
    tokens = re.findall(r'<[a-z]+ [^>]*class="piece token[^"]*"[^>]*>', layer)
    assert len(tokens) >= 12 + 2 + 1  # the animals, the shepherds, the wolves
    assert all('transform="rotate(180' in t for t in tokens)
    arrows = re.findall(r'<path [^>]*class="last-move arrow"[^>]*>', layer)
    assert arrows and not [a for a in arrows if "transform" in a]  # routes turn with the board
