"""``zrec serve`` under a little load while an import writes into its SQLite archive:
a short run of ``benchmarks/serve_load.py`` (a few clients for a few seconds, a real
server and a real ``zrec archive import``): every answer a success, none and no log
saying "database is locked"; and a game's page is made once per worker.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from zrec.archive import Archive
from zrec.serve import create_app

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from serve_load import DEFAULT_TREE, SAMPLES, record_of_plies, run  # noqa: E402

#: the games of the samples the server's archive is made of
SAMPLE_GAMES = sum(f.read_text(encoding="utf-8").count("[Game ") for f in SAMPLES)


def test_serving_while_an_import_writes(tmp_path: Path) -> None:
    games = tmp_path / "random.zrec"
    subprocess.run([sys.executable, "-m", "zrec", "random", "--game", "mosona", "--count",
                    "300", "--seed", "23", "-o", str(games)], check=True, timeout=300)
    db = tmp_path / "load.sqlite"
    args = argparse.Namespace(clients=4, seconds=4.0, think=0.0, db=str(db), workers=None,
                              tree=DEFAULT_TREE, import_file=str(games), no_import=False,
                              wait_import=True)
    result = run(args)
    assert result["db"] == "sqlite" and result["workers"] == 1
    assert result["import"].endswith("; exit 0")
    for name, endpoint in result["endpoints"].items():
        assert endpoint["requests"] > 0, name
        assert endpoint["errors"] == {}, name
        assert endpoint["locked_answers"] == 0, name
    assert {"game", "search-player", "search-moves", "validate", "position", "position-new"
            } <= set(result["endpoints"])
    assert result["locked_in_logs"] == {"server": 0, "import": 0}
    assert result["tracebacks_in_server_log"] == 0
    with Archive.open(str(db), read_only=True) as archive:
        assert archive.count() == SAMPLE_GAMES + 300


def test_a_kept_connection_sees_an_import_made_meanwhile(tmp_path: Path) -> None:
    """The worker's SQLite connection is kept between requests, and a game another
    process imports meanwhile is in the next answer (the same connection's)."""
    from zrec.serve.opening import _IDLE

    db = str(tmp_path / "kept.sqlite")
    zrec = [sys.executable, "-m", "zrec", "archive", "import", "-q", "--db", db]
    subprocess.run([*zrec, str(SAMPLES[0])], check=True, timeout=120)
    with TestClient(create_app(db)) as client:
        assert client.get("/api/health").status_code == 200
        (kept,) = _IDLE[db]
        before = len(client.get("/api/games", params={"limit": "1000"}).json())
        subprocess.run([*zrec, *map(str, SAMPLES[1:])], check=True, timeout=120)
        after = len(client.get("/api/games", params={"limit": "1000"}).json())
        assert _IDLE[db] == [kept]
    assert (before, after) == (1, SAMPLE_GAMES)


def test_record_of_plies_is_a_valid_game_of_that_length() -> None:
    text = record_of_plies(100)
    done = subprocess.run([sys.executable, "-m", "zrec", "validate", "-", "--format", "json"],
                          input=text.encode(), capture_output=True, timeout=120)
    assert done.returncode == 0, done.stdout
    assert "50. " in text and "51. " not in text


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    db = tmp_path_factory.mktemp("page") / "page.sqlite"
    subprocess.run([sys.executable, "-m", "zrec", "archive", "import", "-q", "--db", str(db),
                    *map(str, SAMPLES)], check=True, timeout=300)
    return TestClient(create_app(str(db)))


def test_a_game_page_is_made_once_per_worker(client: TestClient) -> None:
    from zrec.serve.replays import PAGES

    PAGES.clear()
    first = client.get("/games/9")
    assert (PAGES.made, PAGES.hits) == (1, 0)
    again = client.get("/games/9")
    assert (PAGES.made, PAGES.hits) == (1, 1)
    assert first.status_code == again.status_code == 200
    assert first.content == again.content
    client.get("/games/3")
    assert (PAGES.made, PAGES.hits) == (2, 1)


def test_a_page_asked_for_at_once_is_made_once(client: TestClient) -> None:
    from zrec.serve.replays import PAGES

    PAGES.clear()
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: client.get("/games/9"), range(8)))
    assert {a.status_code for a in answers} == {200}
    assert len({a.content for a in answers}) == 1
    assert (PAGES.made, PAGES.hits) == (1, 7)


def test_the_pages_kept_are_the_last_ones() -> None:
    from zrec.serve.replays import _Pages

    pages = _Pages(size=2)
    texts = [record_of_plies(plies) for plies in (10, 12, 14)]
    for text in [texts[0], texts[1], texts[0], texts[2], texts[1], texts[0]]:
        pages.page(text, 1)
    # 0 and 1 made, 0 kept (hit), 2 made (1 goes), 1 made again (0 goes), 0 made again
    assert (pages.made, pages.hits) == (5, 1)


def test_a_page_too_large_to_keep_is_made_each_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import zrec.serve.replays as pages_module
    from zrec.serve.replays import _Pages

    pages = _Pages(size=4)
    short, long = record_of_plies(4), record_of_plies(40)
    made = len(pages.page(long, 1))
    pages.clear()
    monkeypatch.setattr(pages_module, "_KEPT_MOST", made - 1)
    for text in (long, short, long, short):
        pages.page(text, 1)
    # the long game's page, one character over the bound, is never kept
    assert (pages.made, pages.hits) == (3, 1)
