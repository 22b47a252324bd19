"""The ``diagram`` and ``html`` commands: folders, groups of files written all or
none, ply ranges of a strip, positions inside variations, several inputs."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from zrec import read_game, read_games
from zrec.cli import app
from zrec.play import path_to, prepare
from zrec.render.diagram import (
    DiagramError,
    PlyRangeError,
    all_diagrams,
    diagram_for_node,
    diagram_for_record,
    mark_move,
    ply_range,
    record_frames,
)
from zrec.render.replay_page import replay_page
from zrec.render.strip import strip_for_record

ROOT = Path(__file__).resolve().parent.parent
CULIN = ROOT / "samples" / "culin-opening.zrec"
KOLOWIS = ROOT / "samples" / "kolowis.zrec"
WARRIORS = ROOT / "samples" / "stone-warriors.zrec"
SVG = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


def invoke(*args: str | Path, stdin: str | None = None) -> Result:
    return runner.invoke(app, [str(a) for a in args], input=stdin)


def title(svg: str) -> str:
    found = ET.fromstring(svg).find(f"{SVG}title")
    assert found is not None and found.text is not None
    return found.text


def captions(svg: str) -> list[str]:
    return [
        t.text or ""
        for t in ET.fromstring(svg).iter(f"{SVG}text")
        if t.attrib.get("class") == "caption"
    ]


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# -- --all into a folder, all or none ----------------------------------------------------


def test_all_into_an_existing_folder_or_a_name_ending_in_a_slash(tmp_path: Path) -> None:
    expected = ["culin-opening-000.svg", "culin-opening-001.svg", "culin-opening-002.svg"]
    existing = tmp_path / "existing"
    existing.mkdir()
    result = invoke("diagram", CULIN, "--all", "-o", existing)
    assert result.exit_code == 0, result.output
    assert names(existing) == expected
    assert names(tmp_path) == ["existing"]  # nothing beside the folder
    pictures = list(all_diagrams(next(read_games(CULIN))))
    assert [(existing / n).read_text(encoding="utf-8") for n in expected] == pictures
    result = invoke("diagram", CULIN, "--all", "-o", f"{tmp_path / 'new'}/")
    assert result.exit_code == 0, result.output
    assert names(tmp_path / "new") == expected
    result = invoke(
        "diagram", "-", "--all", "-o", f"{tmp_path / 'piped'}/", stdin=CULIN.read_text()
    )
    assert result.exit_code == 0, result.output
    assert names(tmp_path / "piped") == ["game-000.svg", "game-001.svg", "game-002.svg"]
    # -o naming a file still names the files after it, beside it
    result = invoke("diagram", CULIN, "--all", "-o", tmp_path / "new" / "pic.svg")
    assert result.exit_code == 0
    assert "pic-002.svg" in names(tmp_path / "new")


def test_all_writes_no_file_when_a_later_one_cannot_be_written(tmp_path: Path) -> None:
    (tmp_path / "culin-002.svg").mkdir()  # the third picture cannot go there
    result = invoke("diagram", CULIN, "--all", "-o", tmp_path / "culin.svg")
    assert result.exit_code == 2
    assert result.stderr.startswith("zrec: cannot write") and "Traceback" not in result.output
    assert names(tmp_path) == ["culin-002.svg"]  # neither 000 nor 001 was left behind


def test_a_single_picture_into_a_folder_is_named_after_its_input(tmp_path: Path) -> None:
    result = invoke("diagram", CULIN, "--ply", "1", "-o", f"{tmp_path}/")
    assert result.exit_code == 0, result.output
    assert names(tmp_path) == ["culin-opening.svg"]
    game = next(read_games(CULIN))
    assert (tmp_path / "culin-opening.svg").read_text(encoding="utf-8") == diagram_for_record(
        game, 1
    )


# -- --strip --from --to -----------------------------------------------------------------


def test_a_strip_of_a_range_of_plies(tmp_path: Path) -> None:
    game = next(read_games(CULIN))
    assert captions(strip_for_record(game, first=1, last=2)) == ["1. b6-b5", "1... b4xb6"]
    assert captions(strip_for_record(game, last=0)) == ["start position"]
    assert captions(strip_for_record(game, first=2)) == ["1... b4xb6"]
    out = tmp_path / "range.svg"
    result = invoke("diagram", CULIN, "--strip", "--from", "1", "--to", "1", "-o", out)
    assert result.exit_code == 0, result.output
    assert captions(out.read_text(encoding="utf-8")) == ["1. b6-b5"]
    assert out.read_text(encoding="utf-8") == strip_for_record(game, first=1, last=1)
    with pytest.raises(PlyRangeError, match="the main line has 2 plies"):
        strip_for_record(game, first=3)


@pytest.mark.parametrize(
    "args",
    [
        ["--strip", "--from", "3"],
        ["--strip", "--to", "3"],
        ["--strip", "--from", "2", "--to", "1"],
        ["--ply", "1", "--from", "0"],
        ["--ply", "1", "--to", "1"],
        ["--all", "--from", "1", "-o", "x.svg"],
        ["--from", "1"],
        ["--strip", "--from", "-1"],
    ],
)
def test_bad_ply_ranges_are_usage_errors(args: list[str], tmp_path: Path) -> None:
    result = invoke("diagram", CULIN, *args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(("zrec: ", "Usage:")) and "Traceback" not in result.output
    assert not (tmp_path / "x.svg").exists()


def test_a_range_counts_turns_and_a_priests_entry_goes_with_the_turn_before_it() -> None:
    game = next(read_games(WARRIORS))
    _, frames = record_frames(game)
    at = [f.caption for f in frames].index("P@e1")
    ply = frames[at].ply  # the turn before the entry has the same ply
    assert frames[at - 1].ply == ply and frames[at + 1].ply == ply + 1
    shown = [f.caption for f in ply_range(frames, ply, ply + 1)]
    assert shown == [frames[at - 1].caption, "P@e1", frames[at + 1].caption]
    # to ply N ends where --ply N ends: before the entry
    assert [f.caption for f in ply_range(frames, ply - 1, ply)][-1] == frames[at - 1].caption
    assert title(diagram_for_record(game, ply)).endswith(f"after {frames[at - 1].caption}")
    total = frames[-1].ply
    assert total < len(frames) - 1  # two entries are not plies
    assert ply_range(frames, None, None) == frames
    with pytest.raises(PlyRangeError):
        diagram_for_record(game, total + 1)
    assert invoke("diagram", WARRIORS, "--ply", str(total)).exit_code == 0
    assert invoke("diagram", WARRIORS, "--ply", str(total + 1)).exit_code == 2


# -- --node ------------------------------------------------------------------------------


def test_a_position_inside_a_variation() -> None:
    game = next(read_games(CULIN))
    svg = diagram_for_node(game, 6)  # 1. b6-b5 (a4-b5 c5xa4) (a5-b5 c4xa5 (c6xa5))
    assert title(svg) == "Awithlaknannai Mosona — after 1... c6xa5 (variation)"
    replay = prepare(game)
    last = path_to(replay, game.line, 6)[-1]
    pieces = {
        e.attrib["data-square"]: e.attrib["data-piece"]
        for e in ET.fromstring(svg).iter(f"{SVG}circle")
        if "data-square" in e.attrib
    }
    assert pieces == replay.engine.view(last.after).codes()
    mark = mark_move(replay.engine, last.before, last.move, last.events)
    assert mark is not None and mark.path == ("c6", "a5") and mark.captured == (("b6", "W"),)
    assert 'class="last-move arrow"' in svg and 'class="ghost white"' in svg
    assert title(diagram_for_node(game, 7)) == "Awithlaknannai Mosona — after 1... b4xb6"
    assert title(diagram_for_node(game, 0)) == "Awithlaknannai Mosona — start position"
    with pytest.raises(PlyRangeError, match="7 moves, variations included"):
        diagram_for_node(game, 8)


def test_cli_node(tmp_path: Path) -> None:
    result = invoke("diagram", CULIN, "--node", "3")
    assert result.exit_code == 0, result.output
    assert title(result.stdout) == "Awithlaknannai Mosona — after 1... c5xa4 (variation)"
    result = invoke("diagram", CULIN, "--node", "8")
    assert result.exit_code == 2
    assert result.stderr == (
        "zrec: the record has 7 moves, variations included: the move must be 0 to 7\n"
    )
    assert invoke("diagram", CULIN, "--node", "1", "--ply", "1").exit_code == 2
    assert invoke("diagram", CULIN, "--node", "1", "--strip").exit_code == 2
    bad = tmp_path / "bad.zrec"
    bad.write_text('[Game "mosona"]\n\n1. b6-b5 (1. a4-b5 c4xa5) b4xb6 *\n')
    result = invoke("diagram", bad, "--node", "3")
    assert result.exit_code == 1
    assert "c4xa5 is illegal" in result.stderr and "Traceback" not in result.output
    assert invoke("diagram", bad, "--node", "2").exit_code == 0
    with pytest.raises(DiagramError):
        diagram_for_node(read_game(bad.read_text()), 4)


# -- several inputs ----------------------------------------------------------------------


def test_diagram_of_several_files_writes_one_picture_each(tmp_path: Path) -> None:
    out = tmp_path / "pictures"
    result = invoke("diagram", CULIN, KOLOWIS, "-o", f"{out}/")
    assert result.exit_code == 0, result.output
    assert names(out) == ["culin-opening.svg", "kolowis.svg"]
    for path, source in ((out / "culin-opening.svg", CULIN), (out / "kolowis.svg", KOLOWIS)):
        alone = invoke("diagram", source)
        assert path.read_text(encoding="utf-8") == alone.stdout
    result = invoke("diagram", CULIN, KOLOWIS, "--all", "-o", out)
    assert result.exit_code == 0, result.output
    assert "kolowis-000.svg" in names(out) and "culin-opening-002.svg" in names(out)
    result = invoke("diagram", CULIN, KOLOWIS, "--strip", "-o", f"{tmp_path / 'strips'}/")
    assert result.exit_code == 0
    assert names(tmp_path / "strips") == ["culin-opening.svg", "kolowis.svg"]


def test_diagram_of_several_files_needs_a_folder_and_writes_all_or_none(tmp_path: Path) -> None:
    result = invoke("diagram", CULIN, KOLOWIS)
    assert result.exit_code == 2 and "must name a folder" in result.stderr
    assert invoke("diagram", CULIN, KOLOWIS, "-o", tmp_path / "one.svg").exit_code == 2
    bad = tmp_path / "bad.zrec"
    bad.write_text('[Game "mosona"]\n\n1. b6-b5 b3-b4 *\n')
    out = tmp_path / "out"
    result = invoke("diagram", CULIN, bad, "-o", f"{out}/")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"zrec: {bad}: ") and "b3-b4 is illegal" in result.stderr
    assert not out.exists()
    result = invoke("diagram", CULIN, KOLOWIS, "--ply", "3", "-o", f"{out}/")
    assert result.exit_code == 2 and result.stderr.startswith(f"zrec: {CULIN}: ")
    assert not out.exists()
    twice = tmp_path / "b" / "culin-opening.zrec"
    twice.parent.mkdir()
    twice.write_text(CULIN.read_text())
    result = invoke("diagram", CULIN, twice, "-o", f"{out}/")
    assert result.exit_code == 2 and "named twice" in result.stderr
    assert list(out.iterdir()) == []


def test_html_of_several_files_shows_all_their_games(tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    result = invoke("html", CULIN, WARRIORS, KOLOWIS, "-o", out)
    assert result.exit_code == 0, result.output
    games = [*read_games(CULIN), *read_games(WARRIORS), *read_games(KOLOWIS)]
    sources = [str(CULIN)] + [str(WARRIORS)] * 1 + [str(KOLOWIS)] * (len(games) - 2)
    expected = replay_page(games, numbers=[1, 1, *range(1, len(games) - 1)], sources=sources)
    assert out.read_text(encoding="utf-8") == expected
    assert f'"label":"{CULIN}, game 1: Awithlaknannai Mosona' in expected
    assert '<label class="chooser">' in expected
    # one file: the page is as before, games named by number only
    alone = invoke("html", CULIN)
    assert alone.stdout == replay_page(list(read_games(CULIN)))
    assert '"label":"Game 1: Awithlaknannai Mosona' in alone.stdout
    # --game picks that game of every file; a file without it is a usage error
    result = invoke("html", CULIN, WARRIORS, "--game", "1")
    assert result.exit_code == 0
    assert '"label":"' in result.stdout and result.stdout.count('"heading":') == 2
    result = invoke("html", CULIN, WARRIORS, "--game", "2")
    assert result.exit_code == 2
    assert result.stderr == f"zrec: {CULIN}: there is no game 2 in the file (it has 1)\n"
    unknown = tmp_path / "chess.zrec"
    unknown.write_text('[Game "chess"]\n\n*\n', encoding="utf-8")
    result = invoke("html", CULIN, unknown, "-o", tmp_path / "no.html")
    assert result.exit_code == 1 and not (tmp_path / "no.html").exists()
