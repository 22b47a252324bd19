"""The serpent board as drawn: arrows through the points a chain jumps, and point
numbers that each name one point beyond doubt.

The golden pictures in tests/golden show the numbering; regenerate them after a
deliberate change with ``ZREC_REGEN_GOLDEN=1 pytest tests/test_diagram.py`` and look at
them (``rsvg-convert -z 2 tests/golden/NAME.svg -o /tmp/NAME.png``) before committing.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from zrec import Game, read_game, read_games
from zrec.render.boards import board_for
from zrec.render.diagram import diagram, diagram_for_record, record_frames
from zrec.rules.base import Engine
from zrec.rules.serpent.rules import KOLOWIS, MOSONA

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
BENT = read_game(
    '[Game "mosona"]\n[Jumps "bent"]\n\n1. a3xb5xb4xc4xb5 c6xc5xb6xb5xb4 2. a2xc3x(c2)b3xa2 *\n'
)

Point = tuple[float, float]


def centres(svg: str) -> dict[str, Point]:
    """Where the picture puts each point (the first board of the picture)."""
    return {
        e.attrib["data-point"]: (float(e.attrib["cx"]), float(e.attrib["cy"]))
        for e in ET.fromstring(svg).iter(f"{SVG}circle")
        if "data-point" in e.attrib
    }


def arrow_corners(svg: str) -> list[Point]:
    """Every point the last-move arrow's path passes through: its start and the end
    of each of its lines and arcs."""
    (arrow,) = [
        e.attrib["d"]
        for e in ET.fromstring(svg).iter(f"{SVG}path")
        if e.attrib.get("class") == "last-move arrow"
    ]
    corners = []
    for _command, args in re.findall(r"([MLA])([^MLA]+)", arrow):
        numbers = [float(n) for n in args.split()]
        corners.append((numbers[-2], numbers[-1]))
    assert arrow.startswith("M")
    return corners


def passes(point: Point, corners: list[Point]) -> bool:
    return any(math.isclose(point[0], x) and math.isclose(point[1], y) for x, y in corners)


# -- item: a jump's arrow goes through the point it jumps ---------------------------------


def test_a_bent_jumps_arrow_passes_through_the_jumped_points() -> None:
    svg = diagram_for_record(BENT)  # after 2. a2xc3x(c2)b3xa2
    at, corners = centres(svg), arrow_corners(svg)
    # a2 over b3 to c3, c3 over c2 to b3 (a hop between two neighbours), b3 over b2 to a2
    assert corners[:6] == [at[p] for p in ("a2", "b3", "c3", "c2", "b3", "b2")]
    assert passes(at["c2"], corners)


def sample_chains() -> list[tuple[str, int, Game]]:
    chains: list[tuple[str, int, Game]] = []
    for path in sorted((ROOT / "samples").glob("*.zrec")):
        for game in read_games(path):
            if game.tag("Game") in ("mosona", "kolowis"):
                chains.append((path.name, len(chains), game))
    return chains


@pytest.mark.parametrize(
    ("name", "index", "game"), sample_chains(), ids=[f"{n}#{i}" for n, i, _ in sample_chains()]
)
def test_every_arrow_of_every_serpent_sample_passes_through_what_it_jumps(
    name: str, index: int, game: Game
) -> None:
    replay, frames = record_frames(game)
    for frame in frames:
        if frame.last_move is None or not frame.last_move.captured:
            continue
        svg = diagram(replay.engine, frame.position, last_move=frame.last_move)
        at, corners = centres(svg), arrow_corners(svg)
        for square, _ in frame.last_move.captured:
            assert passes(at[square], corners), f"{frame.caption}: the arrow misses {square}"
        for square in frame.last_move.path[:-1]:
            assert passes(at[square], corners), f"{frame.caption}: the arrow misses {square}"


def test_a_chain_that_jumps_between_two_neighbours_is_not_read_as_a_step() -> None:
    engine = MOSONA.engine(Jumps="bent")
    board = board_for(engine.view(engine.start()).board)
    route = board.route(("c3", "b3"), ["c2"])
    assert [s.end for s in route] == [board.centres["c2"], board.centres["b3"]]
    assert [s.end for s in board.route(("c3", "b3"), [])] == [board.centres["b3"]]  # a step


# -- item: every point number names one point -------------------------------------------


def boards() -> list[tuple[str, Engine[Any, Any], bool]]:
    return [
        (f"{name}{'-flipped' if flip else ''}", engine, flip)
        for name, engine in (
            ("mosona-lined", MOSONA.engine()),
            ("mosona-open", MOSONA.engine(Board="open")),
            ("kolowis", KOLOWIS.engine()),
        )
        for flip in (False, True)
    ]


@pytest.mark.parametrize(("name", "engine", "flip"), boards(), ids=[b[0] for b in boards()])
def test_every_point_number_is_next_to_the_point_it_names(
    name: str, engine: Engine[Any, Any], flip: bool
) -> None:
    svg = diagram(engine, engine.start(), flip=flip)
    at = centres(svg)
    rows: dict[str, float] = {}
    named: dict[str, str] = {}
    for text in ET.fromstring(svg).iter(f"{SVG}text"):
        if "coord" not in text.attrib["class"].split():
            continue
        x, y = float(text.attrib["x"]), float(text.attrib["y"])
        if not (text.text or "").isdigit():
            rows[text.text or ""] = y  # a row letter
            continue
        nearest = min(at, key=lambda p: math.dist(at[p], (x, y)))
        assert nearest[1:] == text.text, f"{text.text} at ({x}, {y}) is nearest to {nearest}"
        assert nearest not in named, f"{nearest} is numbered twice"
        named[nearest] = text.text
        assert math.dist(at[nearest], (x, y)) < 30  # beside its point, not a row away
    assert set(named) == set(at)  # every point is numbered
    # the row letters stand level with their rows, top to bottom as the board is turned
    assert rows == {row: at[f"{row}1"][1] for row in "abc"}
    assert (rows["a"] < rows["c"]) == flip
