"""A game's page of ``zrec serve`` links each position of its main line to the explorer:
the link of ply k leads to an explorer page whose moves played next are those of
``/api/tree`` for the moves up to ply k, exactly; a game that starts from a ``Setup``
links positions instead, and the explorer takes them; a bad position is a page that
says why, status 400.  Against the real application (FastAPI's TestClient) on a real
SQLite archive of the samples.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from zrec.archive import Archive
from zrec.archive.store.ingest import Importer
from zrec.notation.reader import read_game, read_string
from zrec.notation.writer import write_game
from zrec.render.diagram import record_frames
from zrec.serve import create_app
from zrec.serve.plies import BY_MOVES

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ["mosona-lined.zrec", "mosona-bent.zrec", "kolowis.zrec", "stone-warriors.zrec"]


def with_setup(text: str) -> str:
    """The record with its start written as a ``Setup`` tag (the same moves follow)."""
    record = read_game(text, "sample")
    replay, frames = record_frames(record)
    setup = replay.engine.setup_text(frames[0].position)
    return write_game(type(record)((*record.tags, ("Setup", setup)), record.line,
                                   record.result))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    db = str(tmp_path / "a.sqlite")
    with Archive.open(db, create=True) as archive:
        importer = Importer(archive)
        for name in SAMPLES:
            text = (ROOT / "samples" / name).read_text(encoding="utf-8")
            importer.import_records(read_string(text, name), name)
        lined = (ROOT / "samples" / SAMPLES[0]).read_text(encoding="utf-8")
        importer.import_records(read_string(with_setup(lined), "setup.zrec"), "setup.zrec")
    with TestClient(create_app(db)) as served:
        yield served


def explore_links(page: str) -> list[tuple[str, str]]:
    found = re.search(r'<ol class="explore-plies">(.*?)</ol>', page, re.S)
    assert found is not None, page
    return [(html.unescape(label), html.unescape(href))
            for href, label in re.findall(r'<a href="([^"]+)">([^<]*)</a>', found.group(1))]


def tree_rows(page: str) -> list[tuple[str, int]]:
    """The moves played next on an explorer page, with their games."""
    return [(html.unescape(move), int(games)) for move, games in re.findall(
        r'<tr><td>(?:<a class="move" href="[^"]*">)?([^<]+)(?:</a>)?</td>'
        r'<td class="num">(\d+)</td>', page)]


def as_rows(tree: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return [(branch["move"], branch["games"]) for branch in tree]


def test_each_ply_links_to_its_position(client: TestClient) -> None:
    links = explore_links(client.get("/games/1").text)
    assert len(links) == 45  # the start and 44 plies
    options = ("O=Board%3Dlined&O=Jumps%3Dline&O=Middle%3Dright&O=EndRule%3Dmajority"
               "&O=First%3DWhite")
    assert links[0] == ("start", f"/explorer?game=mosona&{options}")
    assert links[3] == ("2. b7xb5", f"/explorer?game=mosona&{options}"
                                    "&moves=1.+b6-b5+1...+b4xb6+2.+b7xb5")
    for label, href in (links[0], links[3], links[10], links[-1]):
        page = client.get(href)
        assert page.status_code == 200, (label, page.text)
        tree = client.get("/api/tree" + href.removeprefix("/explorer"))
        assert tree.status_code == 200
        assert tree_rows(page.text) == as_rows(tree.json())
        assert 'aria-current="page">' + html.escape(label) in page.text.replace("&#39;", "'")
    after_three = client.get(links[3][1]).text
    assert tree_rows(after_three) == [("b3-b4", 2)]  # this game and its copy with a Setup
    assert tree_rows(client.get(links[-1][1]).text) == []


def test_a_game_from_a_setup_links_positions(client: TestClient) -> None:
    setup_game = max(int(i) for i in re.findall(r'href="/games/(\d+)"', client.get("/").text))
    links = explore_links(client.get(f"/games/{setup_game}").text)
    assert len(links) == 45 and all("&position=" in href and "moves=" not in href
                                    for _, href in links)
    for _, href in (links[0], links[3]):
        page = client.get(href)
        assert page.status_code == 200, page.text
        tree = client.get("/api/tree" + href.removeprefix("/explorer"))
        assert tree_rows(page.text) == as_rows(tree.json()) != []
        board = re.search(r'<img src="([^"]+)" alt="the board at the position">', page.text)
        assert board is not None
        svg = client.get(html.unescape(board.group(1)))
        assert svg.status_code == 200 and svg.headers["content-type"] == "image/svg+xml"
        assert "Awithlaknannai Mosona — the position given" in svg.text
    # from a position, a move played next links to the position it reaches: ply 4's
    step = re.search(r'<a class="move" href="([^"]+)">b3-b4</a>', client.get(links[3][1]).text)
    assert step is not None and html.unescape(step.group(1)) == links[4][1]


def test_a_bad_position_is_a_page_that_says_why(client: TestClient) -> None:
    page = client.get("/explorer?game=mosona&position=BBB%2Fnonsense")
    assert page.status_code == 400
    assert page.headers["content-type"].startswith("text/html")
    assert "<h1>400: bad-tree</h1>" in page.text
    assert ("--position &#39;BBB/nonsense&#39; is not a position: [Setup &#34;BBB/nonsense&#34;]"
            " is not a position of Awithlaknannai Mosona") in page.text
    assert "Traceback" not in page.text
    both = client.get("/explorer?game=mosona&position=x&moves=1.+b6-b5")
    assert both.status_code == 400 and "give --moves or --position, not both" in both.text


def test_past_the_sixtieth_ply_a_link_gives_the_position(client: TestClient) -> None:
    long = next(g for g in client.get("/api/games?game=kolowis").json() if g["plies"] > 61)
    links = explore_links(client.get(f"/games/{long['id']}").text)
    assert len(links) == long["plies"] + 1
    assert all("&moves=" in href for _, href in links[1:BY_MOVES + 1])
    assert all("&position=" in href and "moves=" not in href for _, href in links[BY_MOVES + 1:])
    href = links[BY_MOVES + 1][1]
    tree = client.get("/api/tree" + href.removeprefix("/explorer")).json()
    assert tree_rows(client.get(href).text) == as_rows(tree) != []
