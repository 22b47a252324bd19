"""SVG diagrams: golden pictures, every sample position, escaping, the CLI command.

The golden files in tests/golden are compared byte for byte.  After a deliberate
change to the pictures, regenerate them and look at them before committing:

    ZREC_REGEN_GOLDEN=1 pytest tests/test_diagram.py
    for f in tests/golden/*.svg; do rsvg-convert -z 2 "$f" -o "/tmp/${f##*/}.png"; done

(rsvg-convert is in Debian's librsvg2-bin; it ignores ``dominant-baseline``, so its
labels sit a little lower than a browser's.)  A caption that fits its picture must not
change the bytes: only long captions wrap (tests/test_diagram_text.py).
"""

from __future__ import annotations

import math
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from zrec import Game, read_game, read_games
from zrec.cli import app
from zrec.play import positions, prepare
from zrec.render.boards import board_for
from zrec.render.diagram import (
    DiagramError,
    LastMove,
    all_diagrams,
    diagram,
    diagram_for_record,
    mark_move,
    position_text,
    record_frames,
)
from zrec.render.strip import strip, strip_for_record
from zrec.rules.base import Engine
from zrec.rules.serpent.rules import KOLOWIS, MOSONA
from zrec.rules.stonewarriors.rules import StoneWarriors

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").glob("*.zrec"))
GOLDEN = Path(__file__).resolve().parent / "golden"
SVG = "{http://www.w3.org/2000/svg}"
EVIL = "<script>alert(1)</script> ]]> \"quoted\" 'single' &amp; & <!-- x -->"
runner = CliRunner()


def sample(name: str) -> Game:
    return next(read_games(ROOT / "samples" / name))


def ply_of(game: Game, written: str) -> int:
    """The ply of the main-line move written ``written`` (plies count turns: a priest's
    entry is not one)."""
    steps = positions(prepare(game), game.line)
    return next(step.ply for step in steps if step.node.turn.text() == written)


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("ZREC_REGEN_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    assert path.exists(), f"{path} is missing: run ZREC_REGEN_GOLDEN=1 pytest {__file__}"
    assert text.encode("utf-8") == path.read_bytes(), f"{name} differs from its golden file"


def pieces_drawn(svg: str) -> dict[str, str]:
    """Occupied squares -> piece code, as :meth:`View.codes` gives them (a square that
    several pieces share: the last one drawn, the last of the view)."""
    root = ET.fromstring(svg)
    return {
        e.attrib["data-square"]: e.attrib["data-piece"]
        for e in root.iter()
        if "piece" in e.attrib.get("class", "").split()
    }


def words(text: ET.Element) -> str:
    """The words of a ``<text>``, its lines (``<tspan>``s, if wrapped) joined by spaces."""
    spans = text.findall(f"{SVG}tspan")
    return " ".join(s.text or "" for s in spans) if spans else text.text or ""


# -- golden pictures -----------------------------------------------------------------


def test_golden_mosona_lined_start() -> None:
    game = read_game('[Game "mosona"]\n\n*\n')
    check_golden("mosona-lined-start.svg", diagram_for_record(game, 0))


def test_golden_mosona_open_after_a_capture() -> None:
    game = sample("mosona-open.zrec")  # 1. a4-b5 c5xa4: c5 jumps b5
    svg = diagram_for_record(game, 2)
    assert 'class="line outer"' not in svg
    assert 'class="last-move arrow"' in svg and 'class="ghost white"' in svg
    check_golden("mosona-open-capture.svg", svg)


def test_golden_kolowis_start_flipped() -> None:
    game = read_game('[Game "kolowis"]\n\n*\n')
    check_golden("kolowis-start-flipped.svg", diagram_for_record(game, 0, flip=True))


def test_golden_kolowis_chain_round_the_curved_end() -> None:
    game = sample("kolowis.zrec")
    svg = diagram_for_record(game, ply_of(game, "c16xa16xc15xc13"))
    arrow = re.search(r'class="last-move arrow" d="([^"]+)"', svg)
    assert arrow is not None and "A" in arrow.group(1)  # round the curve over b17
    check_golden("kolowis-curved-chain.svg", svg)


def test_golden_stone_warriors_priests_and_a_capture() -> None:
    game = sample("stone-warriors.zrec")
    svg = diagram_for_record(game, ply_of(game, "f8-e9xe8"))
    assert 'class="piece white priest"' in svg and 'class="piece black priest"' in svg
    assert 'class="captured"' in svg and 'class="ghost black"' in svg
    check_golden("stone-warriors-priest-capture.svg", svg)


# -- every sample ----------------------------------------------------------------------


def sample_games() -> list[tuple[str, int, Game]]:
    return [(path.name, i, game) for path in SAMPLES for i, game in enumerate(read_games(path), 1)]


@pytest.mark.parametrize(
    ("name", "number", "game"),
    sample_games(),
    ids=[f"{name}#{i}" for name, i, _ in sample_games()],
)
def test_every_position_of_every_sample_is_valid_svg(name: str, number: int, game: Game) -> None:
    try:
        replay, frames = record_frames(game)
    except DiagramError as exc:
        assert "no rules engine" in str(exc)
        pytest.skip(str(exc))
    pictures = list(all_diagrams(game))
    assert len(pictures) == len(game.line.moves) + 1 == len(frames)
    for frame, svg in zip(frames, pictures, strict=True):
        root = ET.fromstring(svg)
        assert root.tag == f"{SVG}svg"
        assert root.find(f"{SVG}title") is not None
        desc = root.find(f"{SVG}desc")
        assert desc is not None and desc.text == position_text(replay.engine, frame.position)
        assert pieces_drawn(svg) == replay.engine.view(frame.position).codes()
    ET.fromstring(strip_for_record(game, flip=True, coordinates=False))


def test_the_output_is_deterministic_with_sorted_attributes() -> None:
    game = sample("stone-warriors.zrec")
    first = strip_for_record(game, size=900)
    assert first == strip_for_record(game, size=900)
    for attributes in re.findall(r"<[a-z]+((?: [a-z-]+=\"[^\"]*\")+)", first):
        names = re.findall(r' ([a-z-]+)="', attributes)
        assert names == sorted(names)


def test_a_flipped_board_is_the_board_turned_half_round() -> None:
    engines: list[Engine[Any, Any]] = [MOSONA.engine(), KOLOWIS.engine(Board="open")]
    for variant in [*engines, StoneWarriors()]:
        spec = variant.view(variant.start()).board
        plain, flipped = board_for(spec), board_for(spec, flip=True)
        assert plain.pivot == flipped.pivot
        px, py = plain.pivot
        for name, (x, y) in plain.centres.items():
            fx, fy = flipped.centres[name]
            assert math.isclose(fx, 2 * px - x) and math.isclose(fy, 2 * py - y), name


def test_options_size_coordinates_css_caption() -> None:
    variant = MOSONA.engine(Board="open")
    svg = diagram(
        variant,
        variant.start(),
        size=300,
        coordinates=False,
        caption="Figure 1",
        css=".piece.black { fill: navy; }",
    )
    root = ET.fromstring(svg)
    assert root.attrib["width"] == "300"
    assert float(root.attrib["height"]) < 300
    assert 'class="coord"' not in svg
    style = root.find(f"{SVG}style")
    assert style is not None and style.text is not None
    assert style.text.index(".piece.black { fill: #") < style.text.index("fill: navy")
    assert [t.text for t in root.iter(f"{SVG}text")] == ["Figure 1"]


def test_lined_and_open_boards() -> None:
    lined = diagram(MOSONA.engine(), MOSONA.engine().start())
    opened = diagram(MOSONA.engine(Board="open"), MOSONA.engine(Board="open").start())
    assert lined.count('class="line outer"') == 14
    assert opened.count('class="line outer"') == 0
    for svg in (lined, opened):
        assert svg.count('class="line curve"') == 2  # the two curved ends
        assert svg.count('class="point"') == 25


def test_position_text() -> None:
    variant = MOSONA.engine()
    assert position_text(variant, variant.start()) == (
        "White: a1 a2 a3 a4 a5 a6 a7 a8 b6 b7 b8 b9; "
        "Black: b1 b2 b3 b4 c1 c2 c3 c4 c5 c6 c7 c8; White to move (move 1). "
        "Setup: BBBBBBBB/BBBB1WWWW/WWWWWWWW w"
    )


def test_marks_of_moves() -> None:
    game = sample("stone-warriors.zrec")
    replay, frames = record_frames(game)
    at = [frame.caption for frame in frames].index("P@e1")
    assert frames[at - 1].last_move == LastMove(("h9", "g9"), (("g10", "W"),))
    entry = frames[at].last_move
    assert entry == LastMove(("e1",))
    assert frames[at].ply == frames[at - 1].ply  # an entry is not a turn
    svg = diagram(replay.engine, frames[at].position, last_move=entry)
    assert 'class="last-move entry"' in svg and 'class="last-move arrow"' not in svg
    culin = sample("stone-warriors-culin.zrec")
    _, frames = record_frames(culin, upto=ply_of(culin, "--"))
    assert frames[-1].last_move is None  # a pass moves nothing
    mosona = MOSONA.engine()
    start = mosona.start()
    turn = read_game('[Game "mosona"]\n1. a4-b5 *').line.moves[0].turn
    assert mark_move(mosona, start, mosona.resolve(start, turn).move) == LastMove(("a4", "b5"))


def test_strip_layout() -> None:
    game = sample("culin-opening.zrec")
    svg = strip_for_record(game)
    root = ET.fromstring(svg)
    captions = [t.text for t in root.iter(f"{SVG}text") if "caption" in t.attrib["class"]]
    assert captions == [
        "Awithlaknannai Mosona — Culin's opening",
        "start position",
        "1. b6-b5",
        "1... b4xb6",
    ]
    boards = [g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "board"]
    assert len(boards) == 3
    wide = strip_for_record(game, columns=3)
    assert float(ET.fromstring(wide).attrib["width"]) > 3 * float(root.attrib["width"]) - 100
    with pytest.raises(DiagramError):
        strip(MOSONA.engine(), [])


# -- escaping ------------------------------------------------------------------------


def evil_record() -> str:
    tag = EVIL.replace("\\", "\\\\").replace('"', '\\"')
    return (
        f'[Game "mosona"]\n[Event "{tag}"]\n[White "{tag}"]\n\n'
        f"{{{EVIL}}} 1. b6-b5 {{{EVIL}}} (1. a4-b5 {{{EVIL}}}) b4xb6 *\n"
    )


def test_record_text_is_escaped_in_svg() -> None:
    game = read_game(evil_record())
    assert game.tag("Event") == EVIL
    root = ET.fromstring(strip_for_record(game))
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == f"Awithlaknannai Mosona — {EVIL}"
    heads = [words(t) for t in root.iter(f"{SVG}text") if "title" in t.attrib["class"].split()]
    assert heads == [f"Awithlaknannai Mosona — {EVIL}"]  # wrapped onto several lines
    assert not [e for e in root.iter() if e.tag.endswith("script")]
    one = ET.fromstring(diagram_for_record(game, 1, caption=EVIL, css=EVIL))
    assert [t.text for t in one.iter(f"{SVG}text") if t.attrib["class"] == "caption"] == [EVIL]
    style = one.find(f"{SVG}style")
    assert style is not None and style.text is not None and style.text.endswith(EVIL + "\n")


# -- the command ---------------------------------------------------------------------


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


def test_cli_diagram_to_stdout_and_file(tmp_path: Path) -> None:
    culin = str(ROOT / "samples" / "culin-opening.zrec")
    result = invoke("diagram", culin, "--ply", "1")
    assert result.exit_code == 0, result.output
    root = ET.fromstring(result.stdout)
    assert root.find(f"{SVG}title").text == "Awithlaknannai Mosona — after 1. b6-b5"  # type: ignore[union-attr]
    out = tmp_path / "culin.svg"
    result = invoke("diagram", culin, "--strip", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == strip_for_record(sample("culin-opening.zrec"))
    css = tmp_path / "mine.css"
    css.write_text(".piece.white { fill: ivory; }")
    result = invoke(
        "diagram", culin, "--flip", "--no-coordinates", "--size", "400", "--css", str(css)
    )
    assert result.exit_code == 0
    assert 'width="400"' in result.stdout and "fill: ivory" in result.stdout
    assert 'class="coord"' not in result.stdout


def test_cli_diagram_all(tmp_path: Path) -> None:
    culin = str(ROOT / "samples" / "culin-opening.zrec")
    result = invoke("diagram", culin, "--all", "-o", str(tmp_path / "culin.svg"))
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["culin-000.svg", "culin-001.svg", "culin-002.svg"]
    for path in tmp_path.iterdir():
        ET.fromstring(path.read_text(encoding="utf-8"))
    assert invoke("diagram", culin, "--all").exit_code == 2


def test_cli_diagram_errors(tmp_path: Path) -> None:
    culin = str(ROOT / "samples" / "culin-opening.zrec")
    unknown = tmp_path / "other" / "chess.zrec"
    unknown.parent.mkdir()
    unknown.write_text('[Game "chess"]\n\n*\n')
    result = invoke("diagram", str(unknown))
    assert result.exit_code == 1
    assert result.stderr.startswith('zrec: [Game "chess"] names no game zrec knows')
    assert result.stderr.endswith(": cannot draw its positions\n")
    assert invoke("diagram", culin, "--ply", "3").exit_code == 2
    assert invoke("diagram", culin, "--ply", "1", "--strip").exit_code == 2
    assert invoke("diagram", culin, "--columns", "2").exit_code == 2
    assert invoke("diagram", culin, "--css", str(tmp_path / "none.css")).exit_code == 2
    assert invoke("diagram", culin, "--game", "2").exit_code == 2
    bad = tmp_path / "bad.zrec"
    bad.write_text('[Game "mosona"]\n\n1. b6-b5 b3-b4 *\n')
    result = invoke("diagram", str(bad), "--all", "-o", str(tmp_path / "bad.svg"))
    assert result.exit_code == 1
    assert "ply 2, move 1 (Black): b3-b4 is illegal" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.zrec", "other"]
    assert invoke("diagram", str(bad), "--ply", "1").exit_code == 0
