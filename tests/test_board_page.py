"""The recording board's page and what it asks the server, without a browser: the form
offers every game of the rules registry with its seats, options and setup tags; the
address makes the new game's record; an archived game, the record ``zrec board FILE``
was started with, ``POST /api/record``'s move list with node numbers; the event page's
form for editors; ``zrec board`` itself (a real server on a free port)."""

from __future__ import annotations

import html
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from test_serve_auth import EDITOR, EDITOR_PASSWORD, EVENT, log_in, make_archive
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
        '[Game "mosona"]\n[Event "Club"]\n[Round "3"]\n[White "Ada <b>"]\n'
        '[Jumps "bent"]\n[Result "*"]\n\n*\n')
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
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/board\?start=1", url), url
        with urllib.request.urlopen(url, timeout=10) as answer:
            assert record_shown(answer.read().decode()) == SMALL
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert (tmp_path / "b.sqlite").exists()


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
