"""Ratings in ``zrec serve``: ``/ratings`` lists what ``zrec archive ratings`` gives,
in the same order with the same numbers; a player's page shows their history; names
are escaped; a bad ``as_of`` or ``game`` is a 400.  SQLite and PostgreSQL (when
``ZREC_TEST_PG`` names a server)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from test_serve_api import _pg_database, zrec
from zrec.notation.writer import write_game
from zrec.play.selfplay import random_games
from zrec.rules import find_game
from zrec.serve.app import create_app

ROOT = Path(__file__).resolve().parents[1]
CLUB = [ROOT / "samples" / "club" / f"round{n}.zrec" for n in (1, 2, 3)]
MARKUP = "<script>alert(1)</script>, Sam"


def odd_games(folder: Path) -> Path:
    """Three random two-seat games between a player named as markup and Adams."""
    texts = []
    for game in random_games(find_game("mosona"), {}, 3, 11):
        tags = {"White": MARKUP, "Black": "Adams, Ada", "Event": "Odd", "Date": "2026.10.01"}
        texts.append(write_game(replace(game, tags=tuple((k, tags.get(k, v))
                                                         for k, v in game.tags))))
    file = folder / "odd.zrec"
    file.write_text("\n".join(texts), encoding="utf-8")
    return file


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("ratings")
    files = [*map(str, CLUB), str(odd_games(folder))]
    if request.param == "sqlite":
        target = str(folder / "archive.sqlite")
        zrec("archive", "import", "--db", target, "-q", *files)
        yield target
        return
    for url in _pg_database():
        zrec("archive", "import", "--db", url, "-q", *files)
        yield url


@pytest.fixture(scope="module")
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db)) as client:
        yield client


def cells(html: str) -> list[list[str]]:
    """The rows of the page's rating tables, their cells' text."""
    rows = re.findall(r"<tr><td.*?</tr>", html, re.S)
    return [[re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)]
            for r in rows]


def test_the_ratings_page_is_what_the_command_prints(client: TestClient, db: str) -> None:
    page = client.get("/ratings")
    assert page.status_code == 200
    (pool,) = json.loads(zrec("archive", "ratings", "--db", db, "--format", "json"))
    got = cells(page.text)
    assert [(row[0], row[1], row[5]) for row in got] == [
        (str(p["rank"]), p["name"].replace("<", "&lt;").replace(">", "&gt;"), str(p["games"]))
        for p in pool["players"]]
    # the page shows one decimal of what the JSON gives to two
    for row, player in zip(got, pool["players"], strict=True):
        assert float(row[2]) == pytest.approx(player["rating"], abs=0.051)
        assert float(row[3]) == pytest.approx(player["rd"], abs=0.051)
        assert float(row[4]) == pytest.approx(player["volatility"], abs=0.000006)
    assert "<script>alert" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    assert '<a href="/ratings">Ratings</a>' in page.text


def test_as_of_and_game(client: TestClient) -> None:
    before = client.get("/ratings", params={"as_of": "2026.09.01"})
    assert before.status_code == 200 and "<h1>Ratings as of 2026.09.01</h1>" in before.text
    names = [row[1] for row in cells(before.text)]
    assert sorted(names) == ["Adams, Ada", "Brown, Bea", "Clark, Cal", "Dunn, Dov"]
    assert "No rated game." in client.get("/ratings", params={"game": "awethi"}).text
    for params in ({"as_of": "2026.13.01"}, {"game": "chess"}, {"as_of": "????"}):
        answer = client.get("/ratings", params=params)
        assert answer.status_code == 400, params
        assert "<script" not in answer.text


def test_a_player_s_page_shows_the_history(client: TestClient, db: str) -> None:
    page = client.get("/players/Adams, Ada").text
    assert "<h2>Ratings</h2>" in page
    (mine,) = json.loads(zrec("archive", "ratings", "--db", db, "--player", "Adams, Ada",
                              "--format", "json"))
    rows = [r for r in cells(page) if len(r) == 6]
    assert [(r[0], r[1], r[5]) for r in rows] == [
        (s["period"], s["date"], str(s["games"])) for s in mine["history"]]
    assert [float(r[2]) for r in rows] == pytest.approx([s["rating"] for s in mine["history"]],
                                                        abs=0.051)
    # the club's rounds 1 and 3 (a forfeit in round 2), then the three rounds of Odd
    assert [r[0] for r in rows] == [f"Club Championship 2026, round {n}" for n in (1, 3)] + [
        f"Odd, round {n}" for n in (1, 2, 3)]
    odd = client.get("/players/" + MARKUP).text
    assert "<script>alert" not in odd and "<h2>Ratings</h2>" in odd


def test_a_list_as_of_a_day_is_rated_once_per_archive_state(
    client: TestClient, db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/ratings?as_of=`` asked for again, or by 8 clients at once, is not rated again
    (it was, every request); a game imported meanwhile makes it rated again."""
    import zrec.serve.ratings as ratings

    calls: list[tuple[Any, ...]] = []

    def counted(*args: Any) -> Any:
        calls.append(args[1:])
        return real(*args)

    from zrec.archive.rated import rate as real

    monkeypatch.setattr(ratings, "rate", counted)
    day = {"as_of": "2026.12.30"}
    first = client.get("/ratings", params=day).text
    with ThreadPoolExecutor(8) as pool:
        again = list(pool.map(lambda _: client.get("/ratings", params=day).text, range(8)))
    assert again == [first] * 8 and calls == [(None, "2026.12.30")]
    client.get("/ratings", params={"as_of": "2026.12.30", "game": "mosona"})
    assert calls == [(None, "2026.12.30"), ("mosona", "2026.12.30")]
    game = next(random_games(find_game("mosona"), {}, 1, 9))
    tags = {"White": "Later, Lou", "Black": "Brown, Bea", "Event": "Later", "Round": "1",
            "Date": "2026.12.01"}
    file = tmp_path / "later.zrec"
    file.write_text(write_game(replace(game, tags=tuple((k, tags.get(k, v))
                                                        for k, v in game.tags))))
    zrec("archive", "import", "--db", db, "-q", str(file))
    after = client.get("/ratings", params=day).text
    assert "Later, Lou" in after and "Later, Lou" not in first
    assert calls[2:] == [(None, "2026.12.30")]
    client.get("/ratings", params=day)
    assert len(calls) == 3


def test_the_kept_ratings_follow_an_import_and_a_merge(
    client: TestClient, db: str, tmp_path: Path
) -> None:
    """(Last: it changes the module's archive.)"""
    assert "New, Ned" not in client.get("/ratings").text  # (computed, and kept)
    game = next(random_games(find_game("mosona"), {}, 1, 5))
    tags = {"White": "New, Ned", "Black": "Brown, Bea", "Event": "Late", "Round": "1",
            "Date": "2026.11.01"}
    file = tmp_path / "late.zrec"
    file.write_text(write_game(replace(game, tags=tuple((k, tags.get(k, v))
                                                        for k, v in game.tags))))
    zrec("archive", "import", "--db", db, "-q", str(file))
    assert "New, Ned" in client.get("/ratings").text
    assert "Late, round 1" in client.get("/players/Brown, Bea").text
    zrec("archive", "alias", "New, Ned", "Dunn, Dov", "--db", db)
    page = client.get("/ratings").text
    assert "New, Ned" not in page
    (pool,) = json.loads(zrec("archive", "ratings", "--db", db, "--format", "json"))
    dunn = next(row for row in cells(page) if row[1] == "Dunn, Dov")
    assert int(dunn[5]) == next(p["games"] for p in pool["players"] if p["name"] == "Dunn, Dov")
