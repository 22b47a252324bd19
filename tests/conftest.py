"""Fixtures for the tests that need a database: a fresh PostgreSQL database per test, and
``db_url``, which runs a test once on SQLite and once on PostgreSQL.  The tests keep
zrec's cache (Lark's analysis of the grammar) in a folder of their own, never in the
user's home (``XDG_CACHE_HOME``, set for the whole run and the processes it starts),
and see no terminal width (``COLUMNS``) unless a test sets one.

The PostgreSQL server is named by ``ZREC_TEST_PG`` (a ``postgresql://`` URL of a user
that may create databases).  ``scripts/test`` starts a throwaway server with
``scripts/pg`` and sets it; without it the PostgreSQL tests skip, except on CI
(``CI=true``), where they fail, so that they cannot go missing unnoticed.

``two_workers`` is a Dask cluster of two workers on this machine, one for the whole run,
for the tests of ``--cluster``.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
from psycopg import sql


def pytest_configure(config: pytest.Config) -> None:
    """zrec's cache for this run (each xdist worker its own): not the user's home."""
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="zrec-test-cache-")
    # pytest-xdist's workers are given COLUMNS=80: the tests see no terminal width,
    # with xdist or without, unless a test sets one
    os.environ.pop("COLUMNS", None)


def _with_database(url: str, name: str) -> str:
    """``url`` naming the database ``name`` instead (its query string is kept)."""
    return urlsplit(url)._replace(path="/" + name).geturl()


@pytest.fixture
def pg_url() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped after the test."""
    server = os.environ.get("ZREC_TEST_PG")
    if not server:
        if os.environ.get("CI") == "true":
            pytest.fail("ZREC_TEST_PG is not set: scripts/test starts a PostgreSQL server on CI")
        pytest.skip(
            "no PostgreSQL server: set ZREC_TEST_PG=postgresql://... or run scripts/test,"
            " which starts one"
        )
    name = "zrec_t_" + uuid.uuid4().hex[:12]
    database = sql.Identifier(name)
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(database))
    try:
        yield _with_database(server, name)
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(database))


@pytest.fixture(params=["sqlite", "postgresql"], ids=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where an archive can live: a SQLite file, then a PostgreSQL database URL."""
    if request.param == "sqlite":
        yield str(tmp_path / "archive.sqlite")
    else:
        url: str = request.getfixturevalue("pg_url")
        yield url


@pytest.fixture(scope="session")
def two_workers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a Dask scheduler with two worker processes of one thread each
    (tests/dask_cluster.py), for the tests of ``--cluster``."""
    from dask_cluster import two_workers as cluster

    with cluster(tmp_path_factory.mktemp("cluster")) as address:
        yield address


#: the Chromium of the browser tests (Debian's package)
CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium driven by Playwright (a ``playwright.sync_api.Browser``), one
    for a test module; the module skips itself where there is no Chromium."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"],
        )
        yield launched
        launched.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where a browser test puts its screenshots: ``ZREC_SCREENSHOTS`` when it is set
    (to look at them), else the test's temporary folder."""
    folder = Path(os.environ.get("ZREC_SCREENSHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
