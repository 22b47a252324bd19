"""The recording board's page and what it asks the server, without a browser: the form
offers every game of the rules registry with its seats, options and setup tags; the
address makes the new game's record; an archived game, the record ``zrec board FILE``
was started with, ``POST /api/record``'s move list with node numbers; the event page's
form for editors; ``zrec board`` itself (a real server on a free port)."""

from __future__ import annotations

import datetime
import html
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from test_serve_auth import EDITOR, EDITOR_PASSWORD, EVENT, log_in, make_archive
from zrec.archive import Archive
from zrec.rules import all_games
from zrec.serve import create_app

ROOT = Path(__file__).resolve().parents[1]
SMALL = """[Game "mosona"]
[Result "*"]

{Before.} 1. b6-b5 {Opened.} ({Other.} 1. a5-b5 $1 c6xa5) 1... b4xb6 2. b7xb5 *
"""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    db = str(tmp_path / "a.sqlite")
    make_archive(db)
    with TestClient(create_app(db, board_start=SMALL)) as c:
        yield c


def record_shown(page: str) -> str:
    found = re.search(r'<textarea class="board-text"[^>]*>(.*?)</textarea>', page, re.S)
    assert found is not None
    return html.unescape(found.group(1))


def test_the_form_offers_every_game_with_its_options_and_setup_tags(
    client: TestClient
) -> None:
    page = client.get("/board").text
    for rules in all_games():
        fields = page.split(f'data-game="{rules.name}"')[1].split("</fieldset>")[0]
        for seat in rules.seats:
            assert f'name="{seat}"' in fields
        for tag, spec in rules.options.items():
            for value in spec.values:
                assert f'value="{tag}={value}"' in fields
        for tag in rules.inputs:
            assert f'name="{tag}"' in fields
    assert page.count("<fieldset") == len(all_games())
    assert ('<script src="/static/board.js" defer></script>\n'
            '<script src="/static/board-record.js" defer></script>') in page
    assert "<style" not in page and "onclick" not in page


def test_the_address_starts_a_new_game_with_its_tags(client: TestClient) -> None:
    page = client.get("/board", params=[
        ("game", "awithlaknannai mosona"), ("O", "Jumps=bent"), ("Event", "Club"),
        ("Round", "3"), ("White", "Ada <b>"), ("Black", ""), ("id_like", "x")]).text
    assert record_shown(page) == (
        f'[Game "mosona"]\n[Event "Club"]\n[Date "{today()}"]\n[Round "3"]\n'
        '[White "Ada <b>"]\n[Jumps "bent"]\n[Result "*"]\n\n*\n')
    assert "Ada <b>" not in page  # (escaped)
    unknown = client.get("/board?game=chess").text
    assert '<p class="problem">' in unknown and "chess" in unknown


def test_an_archived_game_and_the_start_record(client: TestClient) -> None:
    shown = record_shown(client.get("/board?id=1").text)
    assert shown.startswith('[Game "mosona"]\n[Event "Club Championship 2026"]')
    assert shown.endswith("\n\n1. a5-b5 c6xa5 2. b7-c6 b4xb6 1-0\n")
    assert client.get("/board?id=999").status_code == 404
    game_page = client.get("/games/1").text
    assert '<a class="board" href="/board?id=1">open on the board</a>' in game_page
    assert '<a href="/board">Board</a>' in game_page and '<a href="/board">Board</a>' in (
        client.get("/").text)
    assert record_shown(client.get("/board?start=1").text) == SMALL
    assert record_shown(client.get("/board").text) == ""


def test_the_record_listed_with_node_numbers(client: TestClient) -> None:
    answer = client.post("/api/record", content=SMALL.encode())
    assert answer.status_code == 200
    listed = answer.json()
    assert listed["text"] == SMALL
    assert listed["tags"] == [["Game", "mosona"], ["Result", "*"]]
    assert listed["comment"] == "Before."

    def flat(moves: list[dict[str, object]]) -> list[tuple[object, ...]]:
        out: list[tuple[object, ...]] = []
        for m in moves:
            out.append((m["node"], m["before"], m["label"], m["nags"], m["comment_before"],
                        m["comment"]))
            for v in m["variations"]:  # type: ignore[attr-defined]
                out += flat(v)
        return out

    assert flat(listed["moves"]) == [
        (1, 0, "1. b6-b5", [], "", "Opened."),  # (its comment before is the record's)
        (2, 0, "1. a5-b5", ["$1"], "Other.", ""),
        (3, 2, "c6xa5", [], "", ""),
        (4, 1, "1... b4xb6", [], "", ""),
        (5, 4, "2. b7xb5", [], "", ""),
    ]
    bad = client.post("/api/record", content=b'[Game "mosona"]\n\n1. b6-b9 *\n')
    assert bad.status_code == 422
    assert bad.json()["error"]["code"] == "invalid-record"


def test_the_boards_look_is_a_stylesheet_and_the_script_a_file(client: TestClient) -> None:
    sheet = client.get("/static/diagram.css")
    assert sheet.headers["content-type"].startswith("text/css")
    assert ".piece.white" in sheet.text and ".square.water" in sheet.text
    for name in ("board.js", "board-record.js"):
        script = client.get("/static/" + name)
        assert script.headers["content-type"].startswith("text/javascript")
        assert "innerHTML" not in script.text and "eval(" not in script.text


def test_an_editor_is_offered_the_board_on_the_event_page(client: TestClient) -> None:
    address = "/events/" + EVENT
    assert "Record a game on the board" not in client.get(address).text
    assert log_in(client, EDITOR, EDITOR_PASSWORD) == 303
    page = client.get(address).text
    form = page.split('<form class="editing board-event"')[1].split("</form>")[0]
    assert '<input type="hidden" name="Event" value="Club Championship 2026">' in form
    assert '<input type="hidden" name="game" value="mosona">' in form
    assert '<input type="text" name="Round" value="2"' in form
    for seat in ("White", "Black"):
        assert f'<select name="{seat}">' in form
    assert form.count('<option value="Adams, Ada">') == 2


def test_zrec_board_serves_the_file_it_was_given(tmp_path: Path) -> None:
    record = tmp_path / "game.zrec"
    record.write_text(SMALL, encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "zrec", "board", str(record), "--no-open", "--db",
         str(tmp_path / "b.sqlite")],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/board\?token=[\w-]{43}&start=1", url), url
        with urllib.request.urlopen(url, timeout=10) as answer:
            assert answer.url.endswith("/board?start=1")  # (the token left the address)
            assert record_shown(answer.read().decode()) == SMALL
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert (tmp_path / "b.sqlite").exists()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any) -> None:  # (the answer itself is wanted)
        return None


def asked(url: str, data: bytes | None = None, **headers: str) -> tuple[int, Any, str]:
    """The status, headers and text of a request to the local board (no redirect
    followed)."""
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(urllib.request.Request(url, data, headers), timeout=10) as answer:
            return answer.status, answer.headers, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def test_zrec_board_writes_nothing_unasked_and_its_owner_saves(tmp_path: Path) -> None:
    here, scratch = tmp_path / "here", tmp_path / "tmp"
    here.mkdir()
    scratch.mkdir()
    environment = {k: v for k, v in os.environ.items() if k != "ZREC_DB"}
    process = subprocess.Popen(
        [sys.executable, "-m", "zrec", "board", "--no-open"], cwd=here,
        env={**environment, "TMPDIR": str(scratch)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        found = re.fullmatch(r"(http://127\.0\.0\.1:(\d+))/board\?token=([\w-]{43})", url)
        assert found is not None, url
        base, port, token = found.groups()
        # anyone else: anonymous, and the saving button is not offered
        status, _, page = asked(base + "/board")
        assert status == 200 and 'id="board-save"' not in page
        assert asked(base + "/board?token=" + token[::-1])[0] == 403
        # the owner: the address gives a session, and the token leaves the address
        status, headers, _ = asked(url)
        assert (status, headers["location"]) == (303, "/board")
        cookie = headers["set-cookie"].split(";")[0]
        status, _, page = asked(base + "/board", Cookie=cookie)
        assert 'id="board-save"' in page and "you (zrec board) (editor)" in page
        csrf = re.search(r'data-csrf="([^"]+)"', page)
        assert csrf is not None
        status, _, said = asked(base + "/api/games", SMALL.encode(), Cookie=cookie,
                                **{"X-CSRF-Token": csrf.group(1),
                                   "Content-Type": "text/plain"})
        assert status == 200 and json.loads(said)["added"] == 1
        assert asked(base + "/games/1")[0] == 200
        # a page of another site reaching 127.0.0.1 under its own name (DNS rebinding)
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example"):
            status, _, said = asked(base + "/board", Host=host)
            assert (status, said) == (400, (
                "zrec board answers only to localhost, 127.0.0.1 or [::1] (the Host this "
                f"request names is {host}): open the address zrec board printed\n"))
        for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", "localhost"):
            assert asked(base + "/board", Host=host)[0] == 200
        (made,) = [p.name for p in scratch.iterdir()]
        assert made.startswith("zrec-board-")
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert list(here.iterdir()) == [] and list(scratch.iterdir()) == []


@pytest.mark.parametrize(("content", "message"), [
    (None, "cannot read it: No such file or directory"),
    (SMALL + "\n" + SMALL, "holds 2 records: the board opens a file of one record"),
])
def test_zrec_board_refuses_a_file_it_cannot_open(
    tmp_path: Path, content: str | None, message: str
) -> None:
    record = tmp_path / "game.zrec"
    if content is not None:
        record.write_text(content, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "zrec", "board", str(record), "--no-open",
                           "--db", str(tmp_path / "b.sqlite")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == f"zrec: {record}: {message}\n"


def today() -> str:
    return datetime.date.today().strftime("%Y.%m.%d")


def tags_of(record: str) -> dict[str, str]:
    return dict(re.findall(r'^\[(\w+) "(.*)"\]$', record, re.M))


def form_query(
    page: str, game: str, **typed: str
) -> list[tuple[str, str | int | float | bool | None]]:
    """What the new-game form of ``page`` sends for ``game`` with the fields ``typed``
    filled in and every other one as the form has it (its defaults)."""
    form = page.split('<form class="board-new"')[1].split("</form>")[0]
    fields = form.split(f'data-game="{game}"')[1].split("</fieldset>")[0]
    shared = form.split("<fieldset")[0]
    sent: list[tuple[str, str | int | float | bool | None]] = [("game", game)]
    for part in (shared, fields):
        for name, value in re.findall(r'<input type="text" name="(\w+)" value="([^"]*)"', part):
            sent.append((name, typed.get(name, html.unescape(value))))
        for name, body in re.findall(r'<select name="(\w+)">(.*?)</select>', part, re.S):
            if name == "game":
                continue
            chosen = re.search(r'<option value="([^"]*)" selected>', body)
            assert chosen is not None, body
            sent.append((name, html.unescape(chosen.group(1))))
    return sent


def test_a_new_awethi_game_has_its_herds_drawn_by_the_server(client: TestClient) -> None:
    record = record_shown(client.get(
        "/board?game=awethi&Shepherd1=Ana&Wolves=Wil").text)
    tags = tags_of(record)
    assert list(tags) == ["Game", "Date", "Shepherd1", "Wolves", "Herd1", "Result"]
    assert (tags["Shepherd1"], tags["Wolves"], tags["Date"]) == ("Ana", "Wil", today())
    assert sorted(tags["Herd1"]) == sorted("cccwwb")
    answer = client.post("/api/position", content=record.encode())
    assert answer.status_code == 200, answer.text
    assert answer.json()["seats"] == ["Shepherd1", "Wolves"]
    # the form as it comes, with the names typed: it offers to draw the herds
    page = client.get("/board").text
    assert ('<option value="draw" selected>drawn by the server (any left empty below)'
            '</option>') in page
    sent = form_query(page, "awethi", Shepherd1="Ana", Shepherd2="Bo", Wolves="Wil")
    assert ("hidden", "draw") in sent and ("Date", today()) in sent
    tags = tags_of(record_shown(client.get("/board", params=sent).text))
    assert [tags[k] for k in ("Shepherd1", "Shepherd2", "Wolves")] == ["Ana", "Bo", "Wil"]
    assert sorted(tags["Herd1"]) == sorted(tags["Herd2"]) == sorted("cccwwb")
    assert "Herd3" not in tags and "Shepherd3" not in tags
    # the form's defaults alone start a game (two shepherd players, names unknown)
    record = record_shown(client.get("/board", params=form_query(page, "awethi")).text)
    tags = tags_of(record)
    assert [tags[k] for k in ("Shepherd1", "Shepherd2", "Wolves")] == ["?", "?", "?"]
    assert client.post("/api/position", content=record.encode()).status_code == 200
    # herds entered are kept; "entered below" draws nothing
    tags = tags_of(record_shown(client.get(
        "/board?game=awethi&Shepherd1=Ana&Wolves=Wil&Herd1=cwcbwc").text))
    assert tags["Herd1"] == "cwcbwc"
    record = record_shown(client.get(
        "/board?game=awethi&Shepherd1=Ana&Wolves=Wil&hidden=enter").text)
    assert "Herd1" not in tags_of(record)
    error = client.post("/api/position", content=record.encode()).json()["error"]
    assert error["message"] == (
        'line 1, column 1: error[missing-herd]: [Herd1]: Shepherd1 plays, so the record '
        'states its herd\'s order, e.g. [Herd1 "cwcbwc"]')


def test_the_date_is_todays_unless_given(client: TestClient) -> None:
    page = client.get("/board").text
    assert f'<input type="text" name="Date" value="{today()}"' in page
    tags = tags_of(record_shown(client.get("/board?game=kolowis&White=A&Black=B").text))
    assert tags["Date"] == today()
    tags = tags_of(record_shown(client.get("/board?game=kolowis&Date=1923.07.14").text))
    assert tags["Date"] == "1923.07.14"


def test_a_web_records_errors_name_no_file(client: TestClient) -> None:
    finished = SMALL.replace('"*"', '"1-0"').replace(" *\n", " 1-0\n")
    error = client.post("/api/position", content=finished.encode()).json()["error"]
    assert error["message"].startswith(
        "line 4, column 73: error[wrong-result], ply 3: the result is 1-0 but")
    assert "<stdin>" not in error["message"]


def test_a_game_saved_twice_from_the_board_has_no_source(client: TestClient) -> None:
    assert log_in(client, EDITOR, EDITOR_PASSWORD) == 303
    csrf = re.search(r'data-csrf="([^"]+)"', client.get("/board").text)
    assert csrf is not None
    for _ in range(2):
        saved = client.post("/api/games", content=SMALL.encode(),
                            headers={"X-CSRF-Token": csrf.group(1)})
        assert saved.status_code == 200, saved.text
    assert [saved.json()[k] for k in ("added", "duplicates")] == [0, 1]
    (gid,) = [r["other"] for r in saved.json()["reports"]]
    page = client.get(f"/games/{gid}").text
    assert "<stdin>" not in page
    assert page.split("<h3>Found in</h3>")[1].split("</ul>")[0] == (
        '\n<ul class="sources">\n<li>no file recorded</li>')


def test_the_import_page_lists_the_games_it_stored_while_another_import_runs(
    tmp_path: Path
) -> None:
    import threading

    from zrec.serve.games import page_import

    db = str(tmp_path / "c.sqlite")
    Archive.open(db, create=True).close()

    bodies = ["".join(
        f'[Game "mosona"]\n[Event "{side}"]\n[Round "{n}"]\n[Result "*"]\n\n'
        '*\n\n'
        for n in range(1, 41)) for side in ("A", "B")]
    reports: dict[int, dict[str, object]] = {}

    def run(i: int) -> None:
        with Archive.open(db, wait=30) as archive:  # (each import its own connection)
            reports[i] = page_import(archive, bodies[i].encode(), "-", False)

    threads = [threading.Thread(target=run, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    archive = Archive.open(db)
    try:
        events: dict[int, str] = dict(archive.db.rows(
            "SELECT g.id, e.name FROM games g JOIN events e ON e.id = g.event"))
    finally:
        archive.close()
    for i, side in enumerate("AB"):
        ids = reports[i]["ids"]
        assert isinstance(ids, list) and len(ids) == 40
        assert {events[gid] for gid in ids} == {side}


def test_an_import_names_its_own_games_when_another_lands_in_the_middle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long import (A) commits in batches; a short one (B) is stored between two of
    them, so B's games have ids inside A's range: A's report names A's games, every one
    and no other, and B's names B's (the highest ids after an import, ``max(id)``,
    would hand A B's games)."""
    import threading
    import time

    from zrec.archive.store import ingest
    from zrec.serve.games import import_document, page_import

    db = str(tmp_path / "c.sqlite")
    Archive.open(db, create=True).close()

    def body(side: str, count: int) -> bytes:
        return "".join(f'[Game "mosona"]\n[Event "{side}"]\n[Round "{n}"]\n[Result "*"]\n\n'
                       "*\n\n" for n in range(1, count + 1)).encode()

    found: dict[str, list[int]] = {}
    # a transaction a chunk of 500 games (the rule ends one after a second of work, and
    # these games without moves take less): B gets in between two of A's
    monkeypatch.setattr(ingest, "TRANSACTION_SECONDS", 0.0)

    def long_import() -> None:
        with Archive.open(db, wait=60) as archive:
            found["A"] = import_document(archive, body("A", 4000))[2]

    thread = threading.Thread(target=long_import)
    thread.start()
    with Archive.open(db, read_only=True) as reader:  # (A's first batch committed)
        deadline = time.monotonic() + 120
        while not reader.db.value("SELECT count(*) FROM games") and time.monotonic() < deadline:
            time.sleep(0.01)
    with Archive.open(db, wait=60) as archive:
        found["B"] = page_import(archive, body("B", 3), "-", False)["ids"]
    thread.join()
    with Archive.open(db, read_only=True) as archive:
        events = {int(gid): str(name) for gid, name in archive.db.rows(
            "SELECT g.id, e.name FROM games g JOIN events e ON e.id = g.event")}
    a, b = found["A"], found["B"]
    assert min(a) < min(b) < max(b) < max(a)  # (B landed between two batches of A)
    assert len(a) == 4000 and {events[gid] for gid in a} == {"A"}
    assert len(b) == 3 and {events[gid] for gid in b} == {"B"}
    assert sorted(a + b) == sorted(events)
