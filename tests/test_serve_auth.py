"""Accounts on ``zrec serve``: logging in and out, the session cookie, CSRF tokens, the
limit on failed logins, API tokens, and writing (imports, byes, removing games) by
role.  Against the real application (FastAPI's TestClient) on a real archive, SQLite
and PostgreSQL (when ``ZREC_TEST_PG`` names a server); what the server writes is
compared with what the commands print.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from zrec.archive import Archive
from zrec.cli import app as cli_app
from zrec.serve import create_app
from zrec.serve.accounts import add_user, new_token, remove_user, revoke_tokens

ROOT = Path(__file__).resolve().parents[1]
CLUB = ROOT / "samples" / "club"
EVENT = "Club Championship 2026"
EDITOR, EDITOR_PASSWORD = "Eddie", "editor password 1"
ADMIN, ADMIN_PASSWORD = "Root", "admin password 12"


def zrec(*args: str, stdin: str | None = None) -> str:
    """What ``zrec ARGS`` prints (run in this process)."""
    done = CliRunner().invoke(cli_app, list(args), input=stdin)
    assert done.exit_code in (0, 1), done.output
    return done.stdout


def make_archive(db: str) -> None:
    """The club's first two rounds, an editor and an admin."""
    zrec("archive", "import", "--db", db, "-q", str(CLUB / "round1.zrec"),
         str(CLUB / "round2.zrec"))
    archive = Archive.open(db)
    try:
        add_user(archive, EDITOR, "editor", EDITOR_PASSWORD)
        add_user(archive, ADMIN, "admin", ADMIN_PASSWORD)
    finally:
        archive.close()


@pytest.fixture
def served(db_url: str) -> Iterator[tuple[TestClient, str]]:
    make_archive(db_url)
    with TestClient(create_app(db_url)) as client:
        yield client, db_url


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found is not None, html
    return found.group(1)


def log_in(client: TestClient, name: str, password: str, next_path: str = "/") -> int:
    token = csrf_of(client.get("/login").text)
    answer = client.post("/login", data={"name": name, "password": password, "csrf": token,
                                         "next": next_path}, follow_redirects=False)
    status: int = answer.status_code
    return status


def with_archive(db: str, action):  # type: ignore[no-untyped-def]
    archive = Archive.open(db)
    try:
        return action(archive)
    finally:
        archive.close()


def test_login_sets_a_signed_cookie_with_its_flags(served: tuple[TestClient, str]) -> None:
    client, _ = served
    page = client.get("/login")
    assert page.status_code == 200 and 'type="password"' in page.text
    anonymous = page.headers["set-cookie"]  # the login form's own session (its CSRF token)
    assert "HttpOnly" in anonymous and "SameSite=lax" in anonymous
    answer = client.post(
        "/login",
        data={"name": EDITOR.lower(), "password": EDITOR_PASSWORD, "csrf": csrf_of(page.text),
              "next": "/search"},
        follow_redirects=False,
    )
    assert answer.status_code == 303 and answer.headers["location"] == "/search"
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("zrec_session=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Max-Age=1209600" in cookie
    assert "Secure" not in cookie  # plain HTTP here
    assert EDITOR_PASSWORD not in cookie
    home = client.get("/").text
    assert f'<span class="who">{EDITOR} (editor)</span>' in home
    assert 'action="/logout"' in home and '<a href="/import">Import</a>' in home
    value = client.cookies["zrec_session"]
    # a cookie changed by the client is no session; the same cookie unchanged still is
    client.cookies.clear()
    client.cookies.set("zrec_session", value[:-2] + ("AA" if value[-2:] != "AA" else "BB"))
    assert '<a href="/login">Log in</a>' in client.get("/").text
    client.cookies.clear()
    client.cookies.set("zrec_session", value)
    assert f"{EDITOR} (editor)" in client.get("/").text
    logout = client.post("/logout", data={"csrf": csrf_of(home)}, follow_redirects=False)
    assert logout.status_code == 303
    gone = logout.headers["set-cookie"]
    assert 'zrec_session=""' in gone and "HttpOnly" in gone and "SameSite=lax" in gone
    assert '<a href="/login">Log in</a>' in client.get("/").text


def test_a_cookie_replayed_after_logout_is_anonymous(served: tuple[TestClient, str]) -> None:
    client, db = served
    assert log_in(client, EDITOR, EDITOR_PASSWORD) == 303
    value = client.cookies["zrec_session"]
    home = client.get("/").text
    body = (CLUB / "round3.zrec").read_bytes()
    # another worker (an application of its own, sharing only the archive) and a copy
    with TestClient(create_app(db)) as other:
        other.cookies.set("zrec_session", value)
        assert f"{EDITOR} (editor)" in other.get("/").text
        assert client.post("/logout", data={"csrf": csrf_of(home)}).status_code == 200
        assert with_archive(db, lambda a: a.db.value("SELECT count(*) FROM sessions")) == 0
        for replay in (client, other):
            replay.cookies.clear()
            replay.cookies.set("zrec_session", value)
            assert '<a href="/login">Log in</a>' in replay.get("/").text
            answer = replay.post("/api/games", content=body,
                                 headers={"X-CSRF-Token": csrf_of(home)})
            assert answer.status_code == 401
            assert answer.json() == {"error": {
                "code": "login-needed",
                "message": "log in to import: anonymous visitors only read"}}
            page = replay.get("/import", follow_redirects=False)
            assert page.status_code == 303 and page.headers["location"] == "/login?next=%2Fimport"
    assert with_archive(db, lambda a: a.count()) == 4


def test_the_cookie_is_secure_over_https(db_url: str) -> None:
    make_archive(db_url)
    with TestClient(create_app(db_url), base_url="https://club.example") as client:
        assert log_in(client, EDITOR, EDITOR_PASSWORD) == 303
        assert "Secure" in client.get("/login").headers.get("set-cookie", "Secure")
        page = client.get("/login")
        answer = client.post("/login", data={"name": ADMIN, "password": ADMIN_PASSWORD,
                                             "csrf": csrf_of(page.text)},
                             follow_redirects=False)
        assert "; Secure" in answer.headers["set-cookie"]


def test_csrf_missing_or_wrong_is_refused(served: tuple[TestClient, str]) -> None:
    client, _ = served
    client.get("/login")
    for data in ({"name": EDITOR, "password": EDITOR_PASSWORD},
                 {"name": EDITOR, "password": EDITOR_PASSWORD, "csrf": "made-up"}):
        answer = client.post("/login", data=data)
        assert answer.status_code == 403
        assert "CSRF token is missing or wrong" in answer.text
    assert log_in(client, EDITOR, EDITOR_PASSWORD) == 303
    files = {"file": ("round3.zrec", (CLUB / "round3.zrec").read_bytes())}
    answer = client.post("/import", files=files, data={"csrf": "wrong"})
    assert answer.status_code == 403 and "CSRF token" in answer.text
    api = client.post("/api/games", content=(CLUB / "round3.zrec").read_bytes())
    assert api.status_code == 403
    assert api.json()["error"]["code"] == "csrf"
    home = client.get("/").text
    sent = client.post("/api/games", content=(CLUB / "round3.zrec").read_bytes(),
                       headers={"X-CSRF-Token": csrf_of(home)})
    assert sent.status_code == 200 and json.loads(sent.text)["added"] == 2
    assert client.post("/logout").status_code == 403
    assert f"{EDITOR} (editor)" in client.get("/").text  # still logged in


def test_anonymous_writes_are_refused(served: tuple[TestClient, str]) -> None:
    client, db = served
    body = (CLUB / "round3.zrec").read_bytes()
    api = client.post("/api/games", content=body)
    assert api.status_code == 401
    assert api.json() == {"error": {"code": "login-needed",
                                    "message": "log in to import: anonymous visitors only read"}}
    page = client.get("/import", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == "/login?next=%2Fimport"
    posted = client.post("/import", files={"file": ("r3.zrec", body)}, follow_redirects=False)
    assert posted.status_code == 303 and posted.headers["location"].startswith("/login")
    assert client.post("/games/1/remove", follow_redirects=False).status_code == 303
    assert with_archive(db, lambda a: a.count()) == 4


def test_a_token_imports_as_the_command_does(tmp_path: Path) -> None:
    # (on two SQLite archives made alike: the same ids and answers, byte for byte)
    db_url, twin = str(tmp_path / "club.sqlite"), str(tmp_path / "twin.sqlite")
    make_archive(db_url)
    make_archive(twin)
    token = with_archive(db_url, lambda a: new_token(a, EDITOR))
    body = (CLUB / "round3.zrec").read_text(encoding="utf-8")
    body += (CLUB / "round1.zrec").read_text(encoding="utf-8")  # duplicates
    body += '[Game "mosona"]\n[Result "*"]\n\n1. b6-b5 b6-b5 *\n'  # invalid
    with TestClient(create_app(db_url)) as client:
        answer = client.post("/api/games", content=body.encode(),
                             headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text
        printed = zrec("archive", "import", "--db", twin, "--format", "json", "-", stdin=body)
        assert answer.text == printed
        document = json.loads(answer.text)
        assert (document["added"], document["duplicates"], document["invalid"]) == (2, 2, 1)
        assert [r["kind"] for r in document["reports"]] == ["duplicate", "duplicate", "invalid"]
        with_archive(db_url, lambda a: revoke_tokens(a, EDITOR))
        again = client.post("/api/games", content=body.encode(),
                            headers={"Authorization": f"Bearer {token}"})
        assert again.status_code == 401 and again.json()["error"]["code"] == "bad-token"
        assert "zrec_" not in again.text


@pytest.mark.parametrize("back", ["//elsewhere.example/", "/\t/elsewhere.example", "https://x.example/"])
def test_a_login_goes_back_only_to_this_site(served: tuple[TestClient, str], back: str) -> None:
    client, _ = served
    token = csrf_of(client.get("/login").text)
    answer = client.post("/login", data={"name": EDITOR, "password": EDITOR_PASSWORD,
                                         "csrf": token, "next": back}, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/"


def test_the_sixth_failed_login_waits(served: tuple[TestClient, str]) -> None:
    client, _ = served
    assert log_in(client, EDITOR, "wrong password") == 401
    assert log_in(client, EDITOR, EDITOR_PASSWORD) == 303  # a success clears the failures
    first = time.time()  # the window runs from the first of the five failures
    for _ in range(5):
        assert log_in(client, EDITOR, "wrong password") == 401
    token = csrf_of(client.get("/login").text)
    answer = client.post("/login", data={"name": EDITOR, "password": EDITOR_PASSWORD,
                                         "csrf": token}, follow_redirects=False)
    assert answer.status_code == 429
    waited = time.time() - first  # scrypt takes its time, more on a busy machine
    assert 900 - waited - 2 <= int(answer.headers["retry-after"]) <= 901
    assert "too many failed logins: try again in 15 minutes" in answer.text
    assert log_in(client, ADMIN, ADMIN_PASSWORD) == 303  # another name is not held up


def test_a_new_password_or_a_removed_user_ends_the_session(
    served: tuple[TestClient, str]
) -> None:
    client, db = served
    assert log_in(client, EDITOR, EDITOR_PASSWORD) == 303
    assert client.get("/import").status_code == 200
    zrec("archive", "users", "password", EDITOR, "--db", db, stdin="a new password\n")
    assert client.get("/import", follow_redirects=False).status_code == 303
    assert "Log in</a>" in client.get("/").text
    assert log_in(client, EDITOR, "a new password") == 303
    assert client.get("/import").status_code == 200
    with_archive(db, lambda a: remove_user(a, EDITOR))
    assert client.get("/import", follow_redirects=False).status_code == 303
    assert with_archive(db, lambda a: a.db.value("SELECT count(*) FROM sessions")) == 0


def test_an_admin_removes_a_game_and_an_editor_cannot(served: tuple[TestClient, str]) -> None:
    client, db = served
    assert log_in(client, EDITOR, EDITOR_PASSWORD) == 303
    page = client.get("/games/1").text
    assert "/games/1/remove" not in page
    refused = client.post("/games/1/remove", data={"csrf": csrf_of(client.get("/").text)})
    assert refused.status_code == 403
    assert "a user with the role editor may not remove" in refused.text
    client.post("/logout", data={"csrf": csrf_of(client.get("/").text)})
    assert log_in(client, ADMIN, ADMIN_PASSWORD) == 303
    page = client.get("/games/1").text
    assert 'action="/games/1/remove"' in page
    assert f'<div class="account"><span class="who">{ADMIN} (admin)</span>' in page
    gone = client.post("/games/1/remove", data={"csrf": csrf_of(page)}, follow_redirects=False)
    assert gone.status_code == 303
    assert client.get("/games/1").status_code == 404
    assert with_archive(db, lambda a: a.count()) == 3


def test_an_import_page_changes_the_standings(served: tuple[TestClient, str]) -> None:
    client, db = served
    before = client.get(f"/api/events/{EVENT}/standings").json()
    assert log_in(client, EDITOR, EDITOR_PASSWORD, "/import") == 303
    form = client.get("/import")
    files = {"file": ("round3.zrec", (CLUB / "round3.zrec").read_bytes())}
    report = client.post("/import", files=files, data={"csrf": csrf_of(form.text)})
    assert report.status_code == 200
    assert "2 games read: 2 added" in report.text
    after = client.get(f"/api/events/{EVENT}/standings")
    assert after.json() != before
    printed = zrec("archive", "standings", EVENT, "--db", db, "--format", "json")
    assert after.text == printed
    again = client.post("/import", files=files, data={"csrf": csrf_of(form.text)})
    assert "2 games read: 0 added, 2 duplicates" in again.text
    assert "round3.zrec:1: duplicate: game 1:" in again.text


def test_an_editor_records_a_bye(served: tuple[TestClient, str]) -> None:
    client, db = served
    assert log_in(client, EDITOR, EDITOR_PASSWORD) == 303
    page = client.get(f"/events/{EVENT}").text
    assert "Record a bye" in page
    answer = client.post(f"/events/{EVENT}/byes", follow_redirects=False,
                         data={"csrf": csrf_of(page), "round": "3", "player": "Adams, Ada",
                               "kind": "half"})
    assert answer.status_code == 400  # past the last round: only when told
    assert "--extend-rounds adds it" in answer.text
    answer = client.post(f"/events/{EVENT}/byes", follow_redirects=False,
                         data={"csrf": csrf_of(page), "round": "3", "player": "Adams, Ada",
                               "kind": "half", "extend": "1"})
    assert answer.status_code == 303, answer.text
    printed = zrec("archive", "standings", EVENT, "--db", db, "--format", "json")
    shown = client.get(f"/api/events/{EVENT}/standings").text
    assert shown == printed
    ada = next(line for line in json.loads(shown) if line["player"] == "Adams, Ada")
    assert ada["points"] == 1.5  # 1 from round 1, 1/2 from the bye (1 before)
    assert '<h3>Round 3</h3>' in client.get(f"/events/{EVENT}").text
    bad = client.post(f"/events/{EVENT}/byes",
                      data={"csrf": csrf_of(page), "round": "3", "player": "Nobody",
                            "kind": "half"})
    assert bad.status_code == 400 and "there is no player &#39;Nobody&#39;" in bad.text
