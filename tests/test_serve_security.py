"""``zrec serve`` against an attacker, on a real server (``zrec serve`` as a process on a
free port, a real SQLite archive): logins are limited per client and name so that a
stranger cannot lock the right user out, and attempts made at once are counted before
their password is checked; ``X-Forwarded-For`` is believed only from the addresses
``--forwarded-allow-ips`` names; headers, cookies and CSRF tokens that are not ASCII
are refused in words (4xx, with the security headers), never a 500.
"""

from __future__ import annotations

import contextlib
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from serving import free_port
from zrec.archive import Archive
from zrec.serve import accounts
from zrec.serve.accounts import add_user

ROOT = Path(__file__).resolve().parents[1]
CLUB = ROOT / "samples" / "club"
NAME, PASSWORD = "Root", "admin password 12"
OTHER, OTHER_PASSWORD = "Eddie", "editor password 1"


@contextlib.contextmanager
def server(folder: Path, *options: str) -> Iterator[str]:
    """``zrec serve`` over ``folder/a.sqlite`` with ``options``; its base URL."""
    port = free_port()
    log = open(folder / f"server-{port}.log", "wb")  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "-m", "zrec", "serve", "--db", "a.sqlite", "--port", str(port),
         *options], cwd=folder, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(url + "/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise AssertionError((folder / f"server-{port}.log").read_text())
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
        logged = (folder / f"server-{port}.log").read_text()
        assert "Traceback" not in logged, logged


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An archive of the club's first round with the admin Root and the editor Eddie,
    their passwords hashed at a low cost (a hash says its cost: the server checks it so)."""
    monkeypatch.setattr(accounts, "SCRYPT_N", 2**10)
    monkeypatch.setattr(accounts, "SCRYPT_P", 1)
    subprocess.run([sys.executable, "-m", "zrec", "archive", "import", "-q", "--db",
                    str(tmp_path / "a.sqlite"), str(CLUB / "round1.zrec")],
                   check=True, capture_output=True, timeout=300)
    with Archive.open(str(tmp_path / "a.sqlite")) as archive:
        add_user(archive, NAME, "admin", PASSWORD)
        add_user(archive, OTHER, "editor", OTHER_PASSWORD)
    return tmp_path


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None, html
    return found.group(1)


def log_in(client: httpx.Client, name: str, password: str,
           headers: dict[str, str] | None = None) -> httpx.Response:
    """A login through the form, as a browser makes it (the form's page first)."""
    token = csrf_of(client.get("/login", headers=headers).text)
    return client.post("/login", data={"name": name, "password": password, "csrf": token},
                       headers=headers, follow_redirects=False)


def raw(url: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` (bytes as they are, not ASCII too) to the server; its status,
    headers (names in lower case) and body."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as conn:
        conn.sendall(request)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def test_a_stranger_cannot_lock_the_right_user_out(folder: Path) -> None:
    """Five wrong passwords from one client make that client wait for that name, not
    the user who logged in from elsewhere, nor another name from the same client."""
    with server(folder) as url, httpx.Client(base_url=url) as user:
        assert log_in(user, NAME, PASSWORD).status_code == 303  # the user's own browser
        user.post("/logout", data={"csrf": csrf_of(user.get("/").text)})
        with httpx.Client(base_url=url) as stranger:
            assert [log_in(stranger, NAME, "wrong password").status_code
                    for _ in range(6)] == [401] * 5 + [429]
            refused = log_in(stranger, NAME, PASSWORD)  # the stranger waits, even so
            assert refused.status_code == 429
            assert "too many failed logins: try again in 15 minutes" in refused.text
            assert 880 <= int(refused.headers["retry-after"]) <= 901
            assert log_in(stranger, OTHER, OTHER_PASSWORD).status_code == 303
        # the user's browser (its device cookie) from the same address
        assert log_in(user, NAME, PASSWORD).status_code == 303


def test_logins_at_once_are_counted_before_the_password_is_checked(folder: Path) -> None:
    """40 wrong passwords for one name sent at once: at most 5 are checked (401), the
    others are refused at once (429); the failures in the archive are 5.  (The name is
    no user's: its password is checked at the full cost, about 0.3 s, as a user's.)"""
    with server(folder) as url, httpx.Client(base_url=url) as first:
        token = csrf_of(first.get("/login").text)
        cookies = dict(first.cookies)

        def attempt(_: int) -> int:
            with httpx.Client(base_url=url, cookies=cookies, timeout=60) as client:
                return client.post("/login", data={"name": "Mallory", "password": "wrong one",
                                                   "csrf": token}).status_code

        with ThreadPoolExecutor(40) as pool:
            statuses = list(pool.map(attempt, range(40)))
    assert sorted(statuses) == [401] * 5 + [429] * 35
    with Archive.open(str(folder / "a.sqlite")) as archive:
        assert archive.db.value("SELECT count(*) FROM login_failures") == 5


def test_many_clients_cannot_lock_a_known_browser_out(folder: Path) -> None:
    """Failures of one name from many addresses (a proxy the operator trusts) stop the
    clients it has never logged in from, never the browser it has (its device cookie)."""
    with server(folder, "--forwarded-allow-ips", "127.0.0.1") as url, \
            httpx.Client(base_url=url) as user:
        assert log_in(user, NAME, PASSWORD).status_code == 303
        statuses = []
        for i in range(21):  # 20 failures of the name from unknown clients: the limit
            with httpx.Client(base_url=url) as client:
                forged = {"X-Forwarded-For": f"203.0.113.{i}"}
                statuses.append(log_in(client, NAME, "wrong password", forged).status_code)
        assert statuses == [401] * 20 + [429]
        assert log_in(user, NAME, PASSWORD).status_code == 303


def test_forwarded_addresses_are_believed_only_when_told(folder: Path) -> None:
    """By default ``X-Forwarded-For`` is ignored: 20 failures from this machine, each
    claiming another address, stop its 21st login; with ``--forwarded-allow-ips`` naming
    this machine, each forwarded address is a client of its own."""
    def failures(url: str) -> list[int]:
        statuses = []
        for i in range(21):
            with httpx.Client(base_url=url) as client:
                forged = {"X-Forwarded-For": f"198.51.100.{i}"}
                statuses.append(log_in(client, f"nobody{i}", "wrong password",
                                       forged).status_code)
        return statuses

    with server(folder) as url:
        assert failures(url) == [401] * 20 + [429]
    with Archive.open(str(folder / "a.sqlite")) as archive:
        archive.db.execute("DELETE FROM login_failures")
    with server(folder, "--forwarded-allow-ips", "127.0.0.1") as url:
        assert failures(url) == [401] * 21


NOT_ASCII = [b"\xe9", b"\xff\xfe", b"caf\xc3\xa9", b"\x80" * 40]


def test_headers_that_are_not_ascii_are_no_server_error(folder: Path) -> None:
    """A session cookie and a CSRF token (header or form field) that are not ASCII:
    4xx or the page, with the security headers, never a 500."""
    with server(folder) as url, httpx.Client(base_url=url) as client:
        assert log_in(client, NAME, PASSWORD).status_code == 303
        session = client.cookies["zrec_session"].encode()
        body = (CLUB / "round2.zrec").read_bytes()
        answers = []
        for bad in NOT_ASCII:
            for path in (b"/", b"/api/games", b"/login"):
                answers.append((200, raw(url, b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n"
                                   b"Cookie: zrec_session=YQ." + bad + b"\r\n"
                                   b"Connection: close\r\n\r\n")))
            for path, kind, content in (
                (b"/logout", b"application/x-www-form-urlencoded", b""),
                (b"/login", b"application/x-www-form-urlencoded", b"name=a&password=b"),
                (b"/api/games", b"text/plain", body),
            ):
                for cookie in (b"YQ." + bad, session):
                    refused = 401 if path == b"/api/games" and cookie != session else 403
                    answers.append((refused, raw(
                        url, b"POST " + path + b" HTTP/1.1\r\nHost: x\r\nCookie: zrec_session="
                        + cookie + b"\r\nX-CSRF-Token: " + bad + b"\r\nContent-Type: " + kind
                        + b"\r\nContent-Length: " + str(len(content)).encode()
                        + b"\r\nConnection: close\r\n\r\n" + content)))
                form = b"csrf=" + b"".join(b"%%%02X" % c for c in bad) + b"&name=a&password=b"
                answers.append((403, raw(
                    url, b"POST " + path + b" HTTP/1.1\r\nHost: x\r\nCookie: zrec_session="
                    + session + b"\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    b"Content-Length: " + str(len(form)).encode()
                    + b"\r\nConnection: close\r\n\r\n" + form)))
        for expected, (status, headers, answered) in answers:
            assert status == expected, (status, answered[:300])
            assert "default-src 'self'" in headers["content-security-policy"]
            assert headers["x-content-type-options"] == "nosniff"
            if status == 403:
                assert b"CSRF token is missing or wrong: load the page again" in answered
            if status == 401:
                assert b"log in to import: anonymous visitors only read" in answered


def test_an_internal_error_carries_the_security_headers(folder: Path) -> None:
    """A route that fails (here one added to fail) is answered 500 in words, as a page
    or as JSON, with the security headers (Starlette answers it outside the middleware
    that adds them to every other answer)."""
    from fastapi.testclient import TestClient

    from zrec.serve import create_app

    app = create_app(str(folder / "a.sqlite"))

    @app.get("/api/fails")
    @app.get("/fails")
    def fails() -> None:
        raise RuntimeError("made to fail")

    with TestClient(app, raise_server_exceptions=False) as client:
        for path in ("/fails", "/api/fails"):
            answer = client.get(path)
            assert answer.status_code == 500
            assert "the server failed to answer (its log says why)" in answer.text
            assert "made to fail" not in answer.text
            assert "default-src 'self'" in answer.headers["content-security-policy"]
            assert answer.headers["x-frame-options"] == "DENY"
        assert client.get("/api/fails").json() == {"error": {
            "code": "internal-error", "message": "the server failed to answer (its log says why)"}}


def test_attempts_are_counted_one_at_a_time_on_both_databases(db_url: str) -> None:
    """``begin_login`` from 40 threads at once, each with a connection of its own: 5
    may check their password, 35 are told to wait; a known device is held only by its
    own failures, and a success forgets only its own client's."""
    from zrec.serve.login import NAME_LIMIT, begin_login, retry_after, succeeded

    with Archive.open(db_url, create=True) as archive:
        archive.count()

    def attempt(_: int) -> tuple[int, int]:
        with Archive.open(db_url) as archive:
            return begin_login(archive, "Ada", "192.0.2.1")

    with ThreadPoolExecutor(40) as pool:
        outcomes = list(pool.map(attempt, range(40)))
    assert sum(wait == 0 for wait, _ in outcomes) == 5
    assert all(895 <= wait <= 901 for wait, row in outcomes if row == 0)
    now = time.time()
    with Archive.open(db_url) as archive:
        assert retry_after(archive, "ADA", "192.0.2.1") > 0  # (names without case)
        assert retry_after(archive, "Ada", "192.0.2.2") == 0
        assert retry_after(archive, "Ada", "192.0.2.1", "device-1") == 0
        for i in range(NAME_LIMIT - 5):  # the name fails from many unknown clients
            assert begin_login(archive, "Ada", f"198.51.100.{i}", None, now)[0] == 0
        assert retry_after(archive, "Ada", "192.0.2.9") > 0
        assert retry_after(archive, "Bob", "192.0.2.9") == 0
        waits = [begin_login(archive, "Ada", "192.0.2.9", "device-1")[0] for _ in range(6)]
        assert waits[:5] == [0] * 5 and waits[5] > 0
        assert begin_login(archive, "Ada", "192.0.2.9", "device-2")[0] == 0
        _, row = begin_login(archive, "Bob", "192.0.2.9")
        succeeded(archive, "Bob", "192.0.2.9", None, row)
        assert archive.db.value("SELECT count(*) FROM login_failures WHERE name = 'bob'") == 0
        assert archive.db.value("SELECT count(*) FROM login_failures") == 5 + 15 + 5 + 1


def test_logins_get_in_within_seconds_during_a_long_import(folder: Path) -> None:
    """While ``zrec archive import`` (a process of its own) stores 20,000 games into the
    served archive, a login every half second gets SQLite's write lock within seconds
    and a game's page answers as usual
    (each waits for the import's transaction under way, a second or so at most): the
    import commits every second or so (ingest.TRANSACTION_SECONDS, TRANSACTION_WALL),
    not once a file."""
    games = folder / "random.zrec"
    subprocess.run([sys.executable, "-m", "zrec", "random", "--game", "mosona", "--count",
                    "20000", "--seed", "7", "-o", str(games)], check=True, timeout=300)
    with server(folder) as url:
        httpx.get(url + "/login")  # (the archive's session key is made before)
        importing = subprocess.Popen(
            [sys.executable, "-m", "zrec", "archive", "import", "-q", "--db", "a.sqlite",
             str(games)], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        took, pages = [], []
        try:
            time.sleep(0.5)  # (the import has started writing)
            while importing.poll() is None:
                with httpx.Client(base_url=url, timeout=60) as client:
                    asked = time.monotonic()
                    answer = log_in(client, NAME, PASSWORD)
                    took.append((time.monotonic() - asked, answer.status_code,
                                 importing.poll() is None))
                    asked = time.monotonic()
                    page = client.get("/games/1")
                    pages.append((time.monotonic() - asked, page.status_code))
                time.sleep(0.2)
        finally:
            out = importing.communicate(timeout=300)[0].decode()
    assert importing.returncode == 0, out
    assert "20000 games read" in out
    during = [t for t in took if t[2]]  # (answered while the import still ran)
    assert len(during) >= 3, took
    assert all(status == 303 and seconds < 4.0 for seconds, status, _ in during), took
    assert all(status == 200 and seconds < 2.0 for seconds, status in pages), pages


def test_a_write_that_waits_too_long_is_answered_archive_busy(folder: Path) -> None:
    """A login while another process holds the archive's write lock for longer than a
    write of the web waits: 503 ``archive-busy`` with ``Retry-After``, in words, and
    nothing written (the login can be tried again at once)."""
    import sqlite3

    from fastapi.testclient import TestClient

    from zrec.serve import create_app
    from zrec.serve.opening import Settings

    app = create_app(str(folder / "a.sqlite"))
    app.state.settings = Settings(str(folder / "a.sqlite"), wait=1.0)
    with TestClient(app) as client:
        token = csrf_of(client.get("/login").text)
        holder = sqlite3.connect(folder / "a.sqlite", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            asked = time.monotonic()
            answer = client.post("/login", data={"name": NAME, "password": PASSWORD,
                                                 "csrf": token}, follow_redirects=False)
            waited = time.monotonic() - asked
            api = client.post("/api/games", content=b"", headers={"X-CSRF-Token": token})
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert answer.status_code == 503 and answer.headers["retry-after"] == "5"
        assert ("the archive is busy with another writer (an import?): nothing was changed; "
                "try again in a few seconds") in answer.text
        assert 0.9 <= waited < 4.0
        assert api.status_code == 401  # (anonymous: refused before any write)
        with Archive.open(str(folder / "a.sqlite")) as archive:
            assert archive.db.value("SELECT count(*) FROM login_failures") == 0
        again = client.post("/login", data={"name": NAME, "password": PASSWORD,
                                            "csrf": token}, follow_redirects=False)
        assert again.status_code == 303


def test_a_writer_that_waits_too_long_is_told_the_archive_is_busy(db_url: str) -> None:
    """``Archive.open(wait=1)`` while another connection holds the writers' lock (SQLite's
    write lock, PostgreSQL's advisory lock): the write gives up after about a second with
    :class:`ArchiveBusyError`, in words; with the lock free it goes through."""
    from zrec.archive.store.db import ArchiveBusyError, connect

    with Archive.open(db_url, create=True) as archive:
        target = archive.db.target
    holder = connect(db_url, False)
    try:
        if holder.dialect == "sqlite":
            holder.execute("BEGIN IMMEDIATE")
        else:
            holder.execute("SELECT pg_advisory_lock(7317)")
        with Archive.open(db_url, wait=1.0) as archive:
            asked = time.monotonic()
            with pytest.raises(ArchiveBusyError) as refused, archive.db.transaction(lock=True):
                archive.db.execute("DELETE FROM login_failures")
            assert 0.9 <= time.monotonic() - asked < 4.0
    finally:
        holder.close()
    assert str(refused.value) == (f"{target} is busy: another writer (an import?) held it for "
                                  "more than 1 s; try again in a few seconds")
    with Archive.open(db_url, wait=1.0) as archive, archive.db.transaction(lock=True):
        archive.db.execute("DELETE FROM login_failures")
