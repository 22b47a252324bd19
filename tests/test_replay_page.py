"""The replay page: its data, escaping, the CLI command, and a real browser.

The browser tests drive Debian's headless ``chromium`` through the page's own test
harness (``page.html#autotest=ArrowRight,End``) and read the dumped DOM.  They are
skipped when chromium is not installed, unless CI is "true" (then they fail).
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from page_decode import layer_pieces, page_data, page_json
from zrec import Game, Line, read_game, read_games
from zrec.cli import app
from zrec.play import prepare
from zrec.render.replay_page import PageError, replay_page

ROOT = Path(__file__).resolve().parent.parent
CULIN = ROOT / "samples" / "culin-opening.zrec"
EVIL = "<script>alert(1)</script> ]]> \"quoted\" 'single' &amp; & <!-- x --> </script>"
runner = CliRunner()


def positions(game: Game) -> Iterator[tuple[list[str], dict[str, str]]]:
    """Every position of every line, in the page's node order: (path of moves, pieces)."""
    replay = prepare(game)
    engine = replay.engine
    yield [], engine.view(replay.start).codes()

    def walk(line: Line, pos: Any, path: list[str]) -> Iterator[tuple[list[str], dict[str, str]]]:
        for node in line.moves:
            after, _ = engine.apply(pos, engine.resolve(pos, node.turn).move)
            here = [*path, node.turn.text()]
            yield here, engine.view(after).codes()
            for variation in node.variations:
                yield from walk(variation, pos, path)
            pos, path = after, here

    yield from walk(game.line, replay.start, [])


def evil_game() -> Game:
    tag = EVIL.replace("\\", "\\\\").replace('"', '\\"')
    return read_game(
        f'[Game "mosona"]\n[Event "{tag}"]\n[Annotator "{tag}"]\n\n'
        f"{{{EVIL}}} 1. b6-b5 {{{EVIL}}} (1. a4-b5 {{{EVIL}}}) b4xb6 *\n"
    )


# -- the page's data -----------------------------------------------------------------


@pytest.mark.parametrize("path", sorted((ROOT / "samples").glob("*.zrec")), ids=lambda p: p.name)
def test_every_node_of_every_sample_has_the_engines_pieces(path: Path) -> None:
    games = list(read_games(path))
    data = page_data(replay_page(games))
    for game, shown in zip(games, data["games"], strict=True):
        expected = list(positions(game))
        assert len(shown["nodes"]) == len(expected)
        for node, (_, pieces) in zip(shown["nodes"], expected, strict=True):
            assert layer_pieces(node["layer"]) == pieces


def test_the_tree_of_nodes() -> None:
    data = page_data(replay_page([next(read_games(CULIN))]))
    game = data["games"][0]
    nodes = game["nodes"]
    assert [n["move"] for n in nodes[1:]] == [
        "b6-b5",
        "a4-b5",
        "c5xa4",
        "a5-b5",
        "c4xa5",
        "c6xa5",
        "b4xb6",
    ]
    assert game["line"]["moves"] == [1, 7]
    assert nodes[0]["next"] == 1 and nodes[1]["next"] == 7 and nodes[7]["next"] == -1
    assert nodes[7]["prev"] == 1 and nodes[1]["prev"] == 0
    assert nodes[2]["prev"] == 0 and nodes[3]["prev"] == 2  # 1. a4-b5 c5xa4
    assert nodes[6]["prev"] == 4  # 1... c6xa5, an alternative to 1... c4xa5
    assert [n["num"] for n in nodes[1:]] == ["1.", "1.", "", "1.", "", "1...", "1..."]
    assert nodes[6]["caption"] == "after 1... c6xa5 (variation)"
    assert nodes[7]["caption"] == "after 1... b4xb6"
    assert game["tags"][1] == ["Event", "Culin's opening"]


def test_the_page_is_deterministic_and_self_contained() -> None:
    games = list(read_games(ROOT / "samples" / "stone-warriors.zrec"))
    page = replay_page(games)
    assert page == replay_page(games)
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">')
    assert not re.search(r"(src|href)=", page)
    assert "http" not in page.replace("http://www.w3.org/2000/svg", "")  # a name, not a link


def test_record_text_is_escaped_in_the_page() -> None:
    game = evil_game()
    assert game.tag("Event") == EVIL
    page = replay_page([game])
    assert "<script>alert" not in page
    assert page.count("</script>") == 2  # the data block and the script
    assert page.count("<script") == 2
    data = page_data(page)
    shown = data["games"][0]
    assert shown["tags"][1] == ["Event", EVIL]
    assert shown["nodes"][1]["before"] == [EVIL] and shown["nodes"][1]["after"] == [EVIL]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # the <title> and <h1>


def test_a_game_that_cannot_be_shown() -> None:
    unknown = read_game('[Game "chess"]\n\n*\n')
    with pytest.raises(PageError, match=r'game 1: \[Game "chess"\] names no game zrec knows'):
        replay_page([unknown])
    bad = read_game('[Game "mosona"]\n\n1. b6-b5 (1. a4-b5 c4xa5) b4xb6 *\n')
    with pytest.raises(
        PageError, match=r"game 1: move 1 \(Black\) c4xa5 in a variation is illegal"
    ):
        replay_page([bad])


# -- the command ---------------------------------------------------------------------


def test_cli_html(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    result = runner.invoke(app, ["html", str(CULIN), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == replay_page(list(read_games(CULIN)))
    two = tmp_path / "two.zrec"
    two.write_text(
        CULIN.read_text(encoding="utf-8")
        + "\n"
        + (ROOT / "samples" / "stone-warriors.zrec").read_text(encoding="utf-8")
    )
    result = runner.invoke(app, ["html", str(two)])
    assert result.exit_code == 0
    assert len(page_data(result.stdout)["games"]) == 2
    assert '<label class="chooser">' in result.stdout  # the selector is shown
    result = runner.invoke(app, ["html", str(two), "--game", "2"])
    assert result.exit_code == 0
    assert page_data(result.stdout)["games"][0]["heading"].startswith("Awithlaknakwe")
    assert 'class="chooser" hidden' in result.stdout
    unknown = tmp_path / "chess.zrec"
    unknown.write_text('[Game "chess"]\n\n*\n', encoding="utf-8")
    result = runner.invoke(app, ["html", str(unknown), "-o", str(out)])
    assert result.exit_code == 1
    assert "cannot draw its positions" in result.stderr
    assert runner.invoke(app, ["html", str(two), "--game", "3"]).exit_code == 2


# -- in a browser --------------------------------------------------------------------


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed, and CI must run the browser tests")
        pytest.skip("chromium is not installed")
    return found


def dump_dom(page: Path, fragment: str) -> str:
    """The DOM of ``page`` after its scripts ran, as headless chromium serialises it."""
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [
                chromium(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                "--virtual-time-budget=5000",
                "--dump-dom",
                page.as_uri() + fragment,
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def read_log(dom: str) -> list[tuple[str, int, dict[str, str]]]:
    match = re.search(r'<pre id="zrec-test-log">(.*?)</pre>', dom, re.S)
    assert match is not None, dom[-2000:]
    steps = []
    for line in html.unescape(match.group(1)).splitlines():
        key, node, placed = line.split("\t")
        pieces = dict(item.split(":") for item in placed.split())
        steps.append((key, int(node), pieces))
    return steps


def test_stepping_through_culins_opening_in_chromium(tmp_path: Path) -> None:
    game = next(read_games(CULIN))
    page = tmp_path / "culin.html"
    page.write_text(replay_page([game]), encoding="utf-8")
    steps = read_log(
        dump_dom(page, "#autotest=ArrowRight,ArrowRight,Home,End,ArrowLeft,Flip,node:6")
    )
    replay = prepare(game)
    engine = replay.engine
    start = engine.view(replay.start).codes()
    after1, _ = engine.apply(
        replay.start, engine.resolve(replay.start, game.line.moves[0].turn).move
    )
    after2, _ = engine.apply(after1, engine.resolve(after1, game.line.moves[1].turn).move)
    one, two = engine.view(after1).codes(), engine.view(after2).codes()
    assert [(key, pieces) for key, _, pieces in steps[:6]] == [
        ("start", start),
        ("ArrowRight", one),
        ("ArrowRight", two),
        ("Home", start),
        ("End", two),
        ("ArrowLeft", one),
    ]
    assert steps[6] == ("Flip", 1, one)  # the flipped board shows the same pieces
    by_path = dict((tuple(path), pieces) for path, pieces in positions(game))
    assert steps[7] == ("node:6", 6, by_path[("a5-b5", "c6xa5")])  # a move of a variation


def test_record_text_is_shown_literally_in_chromium(tmp_path: Path) -> None:
    page = tmp_path / "evil.html"
    page.write_text(replay_page([evil_game()]), encoding="utf-8")
    dom = dump_dom(page, "#autotest=ArrowRight")

    class Texts(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.stack: list[str] = []
            self.found: dict[str, list[str]] = {"td": [], "comment": [], "h1": []}

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            classes = (dict(attrs).get("class") or "").split()
            self.stack.append("comment" if "comment" in classes else tag)

        def handle_endtag(self, tag: str) -> None:
            if self.stack:
                self.stack.pop()

        def handle_data(self, data: str) -> None:
            if self.stack and self.stack[-1] in self.found:
                self.found[self.stack[-1]].append(data)

    texts = Texts()
    texts.feed(dom)
    assert texts.found["td"][1] == EVIL and texts.found["td"][2] == EVIL
    assert texts.found["comment"] == [EVIL] * 3
    assert texts.found["h1"] == [f"Awithlaknannai Mosona — {EVIL}"]
    assert not re.search(r"<script>alert", dom)
    assert read_log(dom)[1][1] == 1  # the script ran and stepped


def test_a_priests_entry_has_no_move_number() -> None:
    game = next(read_games(ROOT / "samples" / "stone-warriors.zrec"))
    nodes = page_data(replay_page([game]))["games"][0]["nodes"]
    written = [(n["num"], n["move"]) for n in nodes[1:]]
    at = written.index(("", "P@e1"))
    assert written[at - 1 : at + 2] == [("", "h9-g9xg10"), ("", "P@e1"), ("29.", "f5-f6")]
    at = written.index(("", "P@e14"))
    assert written[at + 1] == ("48...", "e14-d13")
    assert nodes[at + 1]["caption"] == "after P@e14"


def test_stepping_through_an_awethi_game_in_chromium(tmp_path: Path) -> None:
    """The map page: every step shows the pieces the engine's view has there."""
    game = next(read_games(ROOT / "samples" / "awethi-solo.zrec"))
    text = replay_page([game])
    data = page_data(text)["games"][0]
    page = tmp_path / "awethi.html"
    page.write_text(text, encoding="utf-8")
    steps = read_log(dump_dom(page, "#autotest=ArrowRight,ArrowRight,ArrowRight,End,Home,Flip"))
    last = len(game.line.moves)
    assert [(key, node) for key, node, _ in steps] == [
        ("start", 0),
        ("ArrowRight", 1),
        ("ArrowRight", 2),
        ("ArrowRight", 3),
        ("End", last),
        ("Home", 0),
        ("Flip", 0),
    ]
    for _, node, pieces in steps:
        assert pieces == layer_pieces(data["nodes"][node]["layer"])
    assert len(steps[0][2]) >= 3  # shepherds, hidden herd, wolf
    assert steps[1][2] != steps[0][2] and steps[4][2] != steps[0][2]


def test_the_selector_keeps_a_files_name_as_written() -> None:
    """A file's name is not a sentence: ``culin-game.zrec`` is not shown capitalised."""
    games = list(read_games(CULIN)) * 2
    page = replay_page(games, sources=["culin-game.zrec", "b.zrec"])
    labels = [game["label"] for game in page_json(page)["games"]]
    assert labels == [
        "culin-game.zrec, game 1: Awithlaknannai Mosona — Culin's opening",
        "b.zrec, game 2: Awithlaknannai Mosona — Culin's opening",
    ]
    alone = page_json(replay_page(games[:1]))["games"][0]["label"]
    assert alone == "Game 1: Awithlaknannai Mosona — Culin's opening"
