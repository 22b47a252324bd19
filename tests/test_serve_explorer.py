"""The opening explorer of ``zrec serve`` against the real application (FastAPI's
TestClient) on a real archive of random games: ``GET /api/tree`` is what ``zrec archive
tree --format json`` prints for the same arguments, byte for byte, and agrees with
every stored game replayed; its errors are JSON with the tree's words; the page
``/explorer`` shows the tree's moves and counts, links each move to the position after
it, draws the board and lists the games there.  On SQLite, and on PostgreSQL when
``ZREC_TEST_PG`` names a server.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from fastapi.testclient import TestClient

from test_archive_tree import _first, _numbered, _text, brute
from zrec.archive import Archive
from zrec.archive.store.ingest import Importer
from zrec.archive.store.query import SearchError
from zrec.archive.store.tree import tree
from zrec.notation.reader import read_string
from zrec.serve import create_app


def make_archive(url: str) -> None:
    """Random Mosona games (plain and with bent jumps) and Kolowis games."""
    texts = {
        "plain.zrec": _text("mosona", {}, 80, 1),
        "bent.zrec": _text("mosona", {"Jumps": "bent"}, 30, 2),
        "kolowis.zrec": _text("kolowis", {}, 15, 3),
    }
    with Archive.open(url, create=True) as archive:
        importer = Importer(archive)
        for name, text in texts.items():
            importer.import_records(read_string(text, name), name)


def printed(db: str, *args: str) -> bytes:
    done = subprocess.run(
        [sys.executable, "-m", "zrec", "archive", "tree", "--db", db, "--format", "json", *args],
        capture_output=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


def counts(items: list[dict[str, Any]]) -> dict[str, tuple[int, dict[str, Fraction]]]:
    return {
        i["move"]: (i["games"], {s: Fraction(v) for s, v in i["score"].items()}) for i in items
    }


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    make_archive(db_url)
    with TestClient(create_app(db_url)) as client:
        yield client


def test_the_api_tree_is_what_the_command_prints(client: TestClient, db_url: str) -> None:
    with Archive.open(db_url) as archive:
        first = _first(archive, "mosona", 2)
        bent_first = [b.move for b in tree(archive, "mosona", {"Jumps": "bent"})][:1]
        cases: list[tuple[dict[str, Any], list[str], Any]] = [
            ({}, [], brute(archive)),
            ({"game": "mosona", "moves": _numbered(first[:1])},
             ["--game", "mosona", "--moves", _numbered(first[:1])],
             brute(archive, "mosona", {}, first[:1])),
            ({"game": "mosona", "moves": _numbered(first)},
             ["--game", "mosona", "--moves", _numbered(first)],
             brute(archive, "mosona", {}, first)),
            ({"O": "Jumps=bent"}, ["-O", "Jumps=bent"], brute(archive, None, {"Jumps": "bent"})),
            ({"game": "mosona", "O": ["Jumps=bent"], "moves": _numbered(bent_first)},
             ["--game", "mosona", "-O", "Jumps=bent", "--moves", _numbered(bent_first)],
             brute(archive, "mosona", {"Jumps": "bent"}, bent_first)),
        ]
    for params, args, replayed in cases:
        answer = client.get("/api/tree", params=params)
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-type"] == "application/json"
        assert answer.content == printed(db_url, *args), params
        found = answer.json()
        assert found, params
        assert counts(found) == replayed, params
    start = client.get("/api/tree").json()
    assert sum(i["games"] for i in start) == 80 + 30 + 15
    bent = client.get("/api/tree", params={"O": "Jumps=BENT"}).json()
    assert sum(i["games"] for i in bent) == 30


def test_errors_are_json_with_the_tree_s_words(client: TestClient, db_url: str) -> None:
    with Archive.open(db_url) as archive:
        def words(**asked: Any) -> str:
            with pytest.raises(SearchError) as caught:
                tree(archive, **asked)
            return str(caught.value)

        cases = [
            ({"moves": "1. zz"}, words(moves="1. zz")),
            ({"moves": "1. b6-b4"}, words(game="mosona", moves="1. b6-b4")),
            ({"game": "nope"}, words(game="nope")),
            ({"O": "Jumps=sideways"}, words(options={"Jumps": "sideways"})),
            ({"O": "Colour=blue"}, words(options={"Colour": "blue"})),
            ({"moves": "1. b6-b5", "position": "x"}, "give --moves or --position, not both"),
            ({"O": "Jumps"}, "O takes Tag=value, not 'Jumps'"),
        ]
    assert "b6-b4" in cases[1][1] and "nope" in cases[2][1] and "sideways" in cases[3][1]
    for params, message in cases:
        if params.get("moves") == "1. b6-b4":
            params = {**params, "game": "mosona"}
        answer = client.get("/api/tree", params=params)
        assert answer.status_code == 400, params
        assert answer.json() == {"error": {"code": "bad-tree", "message": message}}
    long = client.get("/api/tree", params={"moves": "a" * 5000})
    assert long.status_code == 400 and long.json()["error"]["code"] == "bad-request"


def test_the_api_tree_is_described(client: TestClient) -> None:
    described = client.get("/openapi.json").json()["paths"]["/api/tree"]["get"]
    assert [p["name"] for p in described["parameters"]] == ["game", "moves", "position", "O"]
    assert "/explorer" not in client.get("/openapi.json").json()["paths"]


ROW = re.compile(r'<a class="move" href="([^"]+)">([^<]+)</a></td><td class="num">(\d+)</td>')


def rows(page: str) -> list[tuple[str, str, int]]:
    """The moves of the explorer's table: the link, the move and its games."""
    return [(html.unescape(h), m, int(n)) for h, m, n in ROW.findall(page)]


def board_of(page: str) -> str:
    found = re.search(r'<img src="([^"]+)"', page)
    assert found, page
    return html.unescape(found.group(1))


def test_the_explorer_page_follows_the_tree(client: TestClient, db_url: str) -> None:
    with Archive.open(db_url) as archive:
        start = tree(archive, "mosona")
        page = client.get("/explorer", params={"game": "mosona"})
        assert page.status_code == 200
        assert "<script" not in page.text and "style=" not in page.text
        shown = rows(page.text)
        assert [(m, n) for _, m, n in shown] == [(b.move, b.games) for b in start]
        assert f"{len(start)} moves, 110 games" in page.text
        assert "games 1–20 of 110" in page.text
        boards = [board_of(page.text)]
        trail: list[str] = []
        for _ in range(2):  # two moves, each by its link
            href, move, games = shown[0]
            trail.append(move)
            page = client.get(href)
            assert page.status_code == 200
            after = tree(archive, "mosona", {}, _numbered(trail))
            shown = rows(page.text)
            assert [(m, n) for _, m, n in shown] == [(b.move, b.games) for b in after]
            assert f"games 1–{min(20, games)} of {games}" in page.text
            assert sum(n for _, _, n in shown) == games  # (no game ends this early)
            boards.append(board_of(page.text))
        assert "1. " + trail[0] in page.text and "1... " + trail[1] in page.text
        back = re.findall(r'<nav class="trail"[^>]*>(.*?)</nav>', page.text, re.S)[0]
        assert [html.unescape(h) for h in re.findall(r'href="([^"]+)"', back)] == [
            "/explorer?game=mosona", "/explorer?game=mosona&moves=1.+" + trail[0]]
    svgs = [client.get(b) for b in boards]
    assert all(s.status_code == 200 and s.headers["content-type"] == "image/svg+xml"
               for s in svgs)
    assert all(s.text.startswith("<svg") for s in svgs)
    assert len({s.text for s in svgs}) == 3  # the board changes with each move
    assert "after 1... " + trail[1] in svgs[2].text


def test_the_explorer_takes_options_and_says_what_is_wrong(client: TestClient) -> None:
    bent = client.get("/explorer", params=[("game", "mosona"), ("O", "Jumps=bent"), ("O", "")])
    assert bent.status_code == 200
    assert '<option value="Jumps=bent" selected>' in bent.text
    assert sum(n for _, _, n in rows(bent.text)) == 30
    assert all("O=Jumps%3Dbent" in h for h, _, _ in rows(bent.text))
    # every start held with bent jumps is Mosona's: the games found by the moves alone
    assert "games 1–20 of 30" in bent.text
    kolowis = client.get("/explorer", params={"game": "kolowis"})
    assert "games 1–15 of 15" in kolowis.text
    assert sum(n for _, _, n in rows(kolowis.text)) == 15
    anything = client.get("/explorer", params={"game": "", "moves": " "})  # (a form's)
    assert anything.status_code == 200
    assert rows(anything.text) == []  # (no tree: a game is asked for first)
    assert re.findall(r'<li><a href="([^"]+)">(\w+)</a></li>', anything.text) == [
        ("/explorer?game=kolowis", "kolowis"), ("/explorer?game=mosona", "mosona")]
    any_move = client.get("/explorer", params={"game": "", "moves": "1. b6-b5"})
    after = client.get("/api/tree", params={"moves": "1. b6-b5"}).json()
    assert [(m, n) for _, m, n in rows(any_move.text)] == [(b["move"], b["games"])
                                                           for b in after] != []
    assert "Choose a game to see its board." in any_move.text  # (two games held)
    wrong = client.get("/explorer", params={"game": "mosona", "moves": "1. b6-b4"})
    assert wrong.status_code == 400
    assert "text/html" in wrong.headers["content-type"] and "b6-b4" in wrong.text
    assert client.get("/explorer/board.svg", params={"game": "mosona",
                                                     "moves": "1. b6-b4"}).status_code == 404


def test_a_game_page_opens_the_explorer_at_its_start(client: TestClient) -> None:
    page = client.get("/games/1")
    found = re.search(r'<a class="explore" href="([^"]+)">open in explorer</a>', page.text)
    assert found, page.text[-2000:]
    href = html.unescape(found.group(1))
    assert href.startswith("/explorer?game=mosona&O=")
    explorer = client.get(href)
    assert explorer.status_code == 200
    assert sum(n for _, _, n in rows(explorer.text)) == 80  # its rule options: the plain
    assert json.loads(client.get("/api/games/1").text)


def test_the_bare_explorer_does_bounded_work(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/explorer`` with nothing asked (the link of every page) reads the same few rows
    whatever the archive holds: no tree of every start, no game replayed (it took over
    a minute at 22,540 games, the Awéthi games each replayed once per herd order)."""
    from zrec.archive.store.db import Database

    read: list[int] = []
    for method in ("rows", "one", "value"):
        real = getattr(Database, method)

        def counted(self: Any, sql: str, params: Any = (), _real: Any = real) -> Any:
            found = _real(self, sql, params)
            read.append(len(found) if isinstance(found, list) else 1)
            return found

        monkeypatch.setattr(Database, method, counted)
    small, big = str(tmp_path / "small.sqlite"), str(tmp_path / "big.sqlite")
    with Archive.open(small, create=True) as archive:
        Importer(archive).import_records(read_string(_text("awethi", {}, 2, 4), "a"), "a")
    with Archive.open(big, create=True) as archive:
        importer = Importer(archive)
        for name, text in {"a": _text("awethi", {}, 40, 5), "m": _text("mosona", {}, 60, 6),
                           "k": _text("kolowis", {}, 20, 7)}.items():
            importer.import_records(read_string(text, name), name)
    work = []
    for db in (small, big):
        with TestClient(create_app(db)) as client:
            client.get("/api/health")
            read.clear()
            page = client.get("/explorer")
            work.append((len(read), sum(read)))
            assert page.status_code == 200
    # (the big archive's extra rows: its two more games' names and their starts)
    assert work[1][0] == work[0][0] and work[1][1] <= work[0][1] + 4, work
    assert work[1][1] <= 12, work
    assert "<h2>Choose a game</h2>" in page.text
