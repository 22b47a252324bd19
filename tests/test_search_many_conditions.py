"""A search with many conditions: a thousand repeats of a player or rule option are
answered like the same search with one (repeats are counted once), and more distinct
players, seats and options than :data:`MAX_CONDITIONS` are refused as the searcher's
mistake.  Before, SQLite refused the query ("Expression tree is too large (maximum
depth 1000)", which the server answered 503 archive-unavailable and the command as a
database error) and PostgreSQL planned it for minutes.  SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from zrec.archive import Archive
from zrec.archive.store.search import MAX_CONDITIONS, Query, SearchError, search_page
from zrec.serve import create_app

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "samples").glob("*.zrec"))
ZREC = [sys.executable, "-m", "zrec"]


def _archive(db: str) -> None:
    subprocess.run([*ZREC, "archive", "import", "-q", "--db", db, *map(str, SAMPLES)],
                   check=True, timeout=300, capture_output=True)


def test_a_thousand_conditions_find_what_one_finds(db_url: str) -> None:
    _archive(db_url)
    with Archive.open(db_url, read_only=True) as archive:
        one = search_page(archive, Query(options=[("Jumps", "line")]))
        many = search_page(archive, Query(options=[("Jumps", "line")] * 1200))
        assert many == one and one[1] > 0
        player = "Naglani, A."
        alone = search_page(archive, Query(players=[player]))
        assert search_page(archive, Query(players=[player] * 1200)) == alone
        assert alone[1] > 0
        both = search_page(archive, Query(players=[player], game="awethi",
                                          options=[("Points", "advanced")]))
        assert search_page(archive, Query(players=[player] * 700, game="awethi",
                                          options=[("Points", "advanced")] * 700)) == both
    with TestClient(create_app(db_url)) as client:
        first = client.get("/api/games", params=[("O", "Jumps=line")])
        answer = client.get("/api/games", params=[("O", "Jumps=line")] * 1200)
        assert answer.status_code == 200, answer.text
        assert answer.json() == first.json() != []
        page = client.get("/search", params=[("player", player)] * 1200)
        assert page.status_code == 200 and "archive-unavailable" not in page.text
    argv = [*ZREC, "archive", "search", "--db", db_url, "--format", "json"]
    once = subprocess.run([*argv, "-O", "Jumps=line"], capture_output=True, timeout=300)
    often = subprocess.run([*argv, *["-O", "Jumps=line"] * 1100], capture_output=True,
                           timeout=300)
    assert (often.returncode, often.stderr) == (0, b"")
    assert often.stdout == once.stdout


def test_more_distinct_conditions_than_taken_are_refused_in_words(db_url: str) -> None:
    _archive(db_url)
    many = MAX_CONDITIONS + 1
    said = (f"the search names {many} players, seats and rule options: "
            f"at most {MAX_CONDITIONS} are taken")
    names = [f"Player {n}" for n in range(many)]
    with Archive.open(db_url, read_only=True) as archive:
        with pytest.raises(SearchError) as raised:
            search_page(archive, Query(players=names))
        assert str(raised.value) == said
        assert search_page(archive, Query(players=names[:MAX_CONDITIONS])) == ([], 0)
    with TestClient(create_app(db_url)) as client:
        answer = client.get("/api/games", params=[("player", n) for n in names])
        assert answer.status_code == 400
        assert answer.json()["error"] == {"code": "bad-search", "message": said}
        page = client.get("/search", params=[("player", n) for n in names])
        assert page.status_code == 400 and said in page.text
        assert 'value="Player 0"' in page.text  # (the form as it was filled)
    argv = [*ZREC, "archive", "search", "--db", db_url]
    run = subprocess.run([*argv, *[a for n in names for a in ("--player", n)]],
                         capture_output=True, timeout=300, text=True)
    assert (run.returncode, run.stdout) == (2, "")
    assert said in run.stderr
