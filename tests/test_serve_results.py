"""Recording a result on an event's page of ``zrec serve``: an editor's forfeit becomes a
result-only record imported as ``/import`` imports it, and the standings change exactly
as ``zrec archive standings`` then prints them; nobody logged in, a form without its
CSRF token, a bad field and the same result twice are each answered as they should be.
Against the real application (FastAPI's TestClient) on the club's archive, SQLite and
PostgreSQL (when ``ZREC_TEST_PG`` names a server).
"""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from test_serve_auth import (
    EDITOR,
    EDITOR_PASSWORD,
    EVENT,
    csrf_of,
    log_in,
    served,  # noqa: F401 - the fixture: the club's first two rounds, an editor, an admin
    with_archive,
    zrec,
)

FORFEIT = {"round": "3", "White": "Adams, Ada", "Black": "Brown, Bea", "result": "1-0",
           "termination": "forfeit", "date": "2026-09-15"}
RESULTS = f"/events/{EVENT}/results"
ROOT = Path(__file__).resolve().parents[1]


def editor_page(client: TestClient) -> str:
    assert log_in(client, EDITOR, EDITOR_PASSWORD) == 303
    return client.get(f"/events/{EVENT}").text


def line_of(standings: list[dict[str, Any]], player: str) -> dict[str, Any]:
    return next(line for line in standings if line["player"] == player)


def test_an_editor_records_a_forfeit(
    served: tuple[TestClient, str],  # noqa: F811 - test_serve_auth's fixture
) -> None:
    client, db = served
    anonymous = client.get(f"/events/{EVENT}").text
    assert "Record a result" not in anonymous and 'action="/events' not in anonymous
    page = editor_page(client)
    assert "<h2>Record a result</h2>" in page
    assert ('<datalist id="players"><option value="Adams, Ada"><option value="Brown, Bea">'
            '<option value="Clark, Cal"><option value="Dunn, Dov"><option value="Evans, Eli">'
            '</datalist>') in page
    assert ('<select name="result"><option value="1-0">1-0</option><option value="0-1">0-1'
            '</option><option value="1/2-1/2">1/2-1/2</option></select>') in page
    assert '<option value="forfeit">forfeit</option>' in page
    assert '<option value="normal">' not in page  # (no moves: the rules cannot have ended it)
    before = client.get(f"/api/events/{EVENT}/standings").json()
    answer = client.post(RESULTS, data={**FORFEIT, "csrf": csrf_of(page)},
                         follow_redirects=False)
    assert answer.status_code == 303, answer.text
    assert answer.headers["location"] == "/events/Club%20Championship%202026?added=5#recorded"
    shown = client.get(answer.headers["location"]).text
    assert '<p class="recorded" id="recorded" role="status">the result is recorded as game #5.' \
        in shown
    record = with_archive(db, lambda a: next(iter(a.games([5]))).text)
    assert record == (
        '[Game "mosona"]\n[Board "lined"]\n[Jumps "line"]\n[Middle "right"]\n'
        '[EndRule "majority"]\n[First "White"]\n[Event "Club Championship 2026"]\n'
        '[Date "2026.09.15"]\n[Round "3"]\n[White "Adams, Ada"]\n[Black "Brown, Bea"]\n'
        '[Result "1-0"]\n[Termination "forfeit"]\n\n1-0\n'
    )
    after_text = client.get(f"/api/events/{EVENT}/standings").text
    assert after_text == zrec("archive", "standings", EVENT, "--db", db, "--format", "json")
    after = json.loads(after_text)
    ada, bea = line_of(after, "Adams, Ada"), line_of(after, "Brown, Bea")
    assert (line_of(before, "Adams, Ada")["points"], ada["points"]) == (1, 2)
    assert (line_of(before, "Brown, Bea")["points"], bea["points"]) == (0, 0)
    # a forfeit is an unplayed round: counted in the points, not in the games played
    assert (line_of(before, "Adams, Ada")["games"], ada["games"]) == (1, 1)
    assert [line["player"] for line in after][:1] == ["Adams, Ada"]
    unchanged = ["Clark, Cal", "Dunn, Dov", "Evans, Eli"]
    assert [line_of(after, p)["points"] for p in unchanged] == \
        [line_of(before, p)["points"] for p in unchanged]


def test_the_same_result_twice_is_a_duplicate(
    served: tuple[TestClient, str],  # noqa: F811 - test_serve_auth's fixture
) -> None:
    client, db = served
    page = editor_page(client)
    first = client.post(RESULTS, data={**FORFEIT, "csrf": csrf_of(page)},
                        follow_redirects=False)
    assert first.headers["location"].endswith("?added=5#recorded")
    again = client.post(RESULTS, data={**FORFEIT, "csrf": csrf_of(page)},
                        follow_redirects=False)
    assert again.status_code == 303
    assert again.headers["location"] == \
        "/events/Club%20Championship%202026?duplicate=5#recorded"
    assert ("the result was not stored: the same game as #5."
            in client.get(again.headers["location"]).text)
    assert with_archive(db, lambda a: a.count()) == 5
    api = client.post(f"/api{RESULTS}", json=FORFEIT,
                      headers={"X-CSRF-Token": csrf_of(page)})
    assert api.status_code == 200
    assert api.json() == {"duplicate": 5, "reports": [{
        "kind": "duplicate", "file": "<stdin>", "game": 1, "line": 1,
        "message": "the same game as #5: not stored again", "id": None, "other": 5}]}


def test_anonymous_and_csrf_are_refused(
    served: tuple[TestClient, str],  # noqa: F811 - test_serve_auth's fixture
) -> None:
    client, db = served
    page = client.post(RESULTS, data=FORFEIT, follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"].startswith("/login")
    api = client.post(f"/api{RESULTS}", json=FORFEIT)
    assert api.status_code == 401
    assert api.json() == {"error": {"code": "login-needed",
                                    "message": "log in to record: anonymous visitors only read"}}
    editor_page(client)
    for data in (FORFEIT, {**FORFEIT, "csrf": "made-up"}):
        refused = client.post(RESULTS, data=data)
        assert refused.status_code == 403 and "CSRF token is missing or wrong" in refused.text
    refused = client.post(f"/api{RESULTS}", json=FORFEIT)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "csrf"
    assert with_archive(db, lambda a: a.count()) == 4


@pytest.mark.parametrize(("field", "value", "message"), [
    ("round", "three", "the round is a number from 1 to 999 (3, or 3.2 for board 2), "
                       "not &#39;three&#39;"),
    ("round", "0", "not &#39;0&#39;"),
    ("result", "2-0", "the result is one of 1-0, 0-1, 1/2-1/2, not &#39;2-0&#39;"),
    ("termination", "normal", "how the game ended is one of resignation, time forfeit, "
                              "abandoned, adjudication, rules infraction, agreement, "
                              "forfeit, not &#39;normal&#39;"),
    ("date", "15 Sept", "the date is written YYYY.MM.DD (or YYYY-MM-DD), not &#39;15 Sept&#39;"),
    ("Black", "  ", "name the player of each seat: Black has none"),
    ("Black", "adams,  ada", "a player cannot play against themselves"),
])
def test_a_bad_field_says_which(
    served: tuple[TestClient, str],  # noqa: F811 - test_serve_auth's fixture
    field: str, value: str, message: str,
) -> None:
    client, db = served
    page = editor_page(client)
    answer = client.post(RESULTS, data={**FORFEIT, field: value, "csrf": csrf_of(page)})
    assert answer.status_code == 400
    assert "<h1>400: bad-result</h1>" in answer.text
    assert message in answer.text
    assert with_archive(db, lambda a: a.count()) == 4


def test_the_api_records_a_draw(
    served: tuple[TestClient, str],  # noqa: F811 - test_serve_auth's fixture
) -> None:
    client, _ = served
    page = editor_page(client)
    draw = {"round": "3", "White": "Clark, Cal", "Black": "Evans, Eli", "result": "1/2-1/2",
            "termination": "agreement"}
    answer = client.post(f"/api{RESULTS}", json=draw, headers={"X-CSRF-Token": csrf_of(page)})
    assert answer.status_code == 200 and answer.json() == {"added": 5, "reports": []}
    bad = client.post(f"/api{RESULTS}", json={**draw, "result": "1-1"},
                      headers={"X-CSRF-Token": csrf_of(page)})
    assert bad.status_code == 400
    assert bad.json() == {"error": {"code": "bad-result", "message":
                                    "the result is one of 1-0, 0-1, 1/2-1/2, not '1-1'"}}
    cal = line_of(client.get(f"/api/events/{EVENT}/standings").json(), "Clark, Cal")
    assert cal["points"] == 1.5 + 0.5


def test_a_game_with_setup_tags_is_imported_as_records(
    served: tuple[TestClient, str],  # noqa: F811 - test_serve_auth's fixture
) -> None:
    client, db = served
    zrec("archive", "import", "--db", db, "-q", str(ROOT / "samples" / "awethi-solo.zrec"))
    event = "/events/zrec%20sample%3A%20one%20shepherd%20player%20against%20the%20wolves"
    page = editor_page(client)
    shown = client.get(event).text
    refused = ("results of Awéthi are imported as records (on the import page): a record of "
               "this game names its seats and setup in tags this form does not ask for")
    assert f"<p>{refused[0].upper()}{refused[1:]}.</p>" in shown
    assert 'action="/events/zrec' not in shown.split("Record a bye")[0]
    answer = client.post(f"/api{event}/results", json=FORFEIT,
                         headers={"X-CSRF-Token": csrf_of(page)})
    assert answer.status_code == 400
    assert answer.json() == {"error": {"code": "bad-result", "message": refused}}


SWISS = "Spring Swiss 2026"


def swiss_round_5_begun(db: str, tmp_path: Path) -> None:
    """The Spring Swiss paired round by round (Hill's bye before round 3), its round 5
    paired with one of its four games in (Hill – Adams, 0-1)."""
    club = ROOT / "samples" / "club"
    zrec("archive", "roster", "--db", db, str(club / "spring.trf"))
    for n in range(1, 6):
        if n == 3:
            zrec("archive", "bye", "--db", db, SWISS, "3", "Hill, Hal", "--kind", "half")
        zrec("archive", "pair", "--db", db, SWISS)
        text = (club / f"spring-round{n}.zrec").read_text(encoding="utf-8")
        if n == 5:
            text = text.split("\n\n[Game ")[0] + "\n"
        (tmp_path / f"r{n}.zrec").write_text(text, encoding="utf-8")
        zrec("archive", "import", "--db", db, "-q", str(tmp_path / f"r{n}.zrec"))


def test_the_form_offers_the_pending_boards_of_the_round_and_today(
    served: tuple[TestClient, str],  # noqa: F811 - test_serve_auth's fixture
    tmp_path: Path,
) -> None:
    client, db = served
    swiss_round_5_begun(db, tmp_path)
    editor_page(client)
    page = client.get(f"/events/{SWISS}").text
    # what the standings count, and what is pending
    assert ('<p class="after">After round 5 (1 of 4 games in; 3 pending); tie-breaks: '
            in page)
    assert "<h3>Round 4 (all 4 games in)</h3>" in page
    assert "<h3>Round 5 (1 of 4 games in; 3 pending)</h3>" in page
    assert '<td class="result"><a href="/games/' in page
    assert page.count('<td class="result pending">pending</td>') == 3
    # the form: round 5 (the one being played), today's date, the boards to pick
    today = datetime.date.today().strftime("%Y.%m.%d")
    form = page.split("<h2>Record a result</h2>")[1].split("</form>")[0]
    assert 'name="round" value="5"' in form
    assert f'name="date" value="{today}"' in form
    assert re.findall(r'<option value="(5\.\d)" data-players="([^"]*)">([^<]*)</option>',
                      form) == [
        ("5.2", "Brown, Bea\nGray, Gus", "Round 5, board 2: Brown, Bea – Gray, Gus"),
        ("5.3", "Fox, Fay\nClark, Cal", "Round 5, board 3: Fox, Fay – Clark, Cal"),
        ("5.4", "Dunn, Dov\nEvans, Eli", "Round 5, board 4: Dunn, Dov – Evans, Eli"),
    ]
    assert '<script src="/static/event-result.js" defer></script>' in page
    # the board's round in the form to record a game on the board: round 5 too
    assert 'name="Round" value="5"' in page
    # a board picked, its seats left blank (no script): the pairing's players, today
    answer = client.post(f"/events/{SWISS}/results", data={
        "board": "5.2", "round": "", "White": "", "Black": "", "result": "0-1",
        "termination": "resignation", "date": "", "csrf": csrf_of(page)},
        follow_redirects=False)
    assert answer.status_code == 303, answer.text
    gid = int(answer.headers["location"].split("added=")[1].split("#")[0])
    record = with_archive(db, lambda a: next(iter(a.games([gid]))).text)
    assert (f'[Event "{SWISS}"]\n[Date "{today}"]\n[Round "5.2"]\n[White "Brown, Bea"]\n'
            '[Black "Gray, Gus"]\n[Result "0-1"]\n') in record
    after = client.get(f"/events/{SWISS}").text
    assert "<h3>Round 5 (2 of 4 games in; 2 pending)</h3>" in after
    assert "After round 5 (2 of 4 games in; 2 pending)" in after


def test_a_result_without_a_date_is_dated_today(
    served: tuple[TestClient, str],  # noqa: F811 - test_serve_auth's fixture
) -> None:
    client, db = served
    page = editor_page(client)
    undated = {k: v for k, v in FORFEIT.items() if k != "date"}
    answer = client.post(f"/api{RESULTS}", json=undated, headers={"X-CSRF-Token": csrf_of(page)})
    assert answer.status_code == 200
    record = with_archive(db, lambda a: next(iter(a.games([5]))).text)
    assert f'[Date "{datetime.date.today().strftime("%Y.%m.%d")}"]' in record
    assert "????" not in record


def test_the_form_asks_for_the_seats_of_the_events_rule_options(
    served: tuple[TestClient, str],  # noqa: F811 - test_serve_auth's fixture
    tmp_path: Path,
) -> None:
    """A Stone Warriors event of the default rules asks for White and Black (the game
    has four more seats, those of its Ruleset "ludii"); an event of Ludii's four-seat
    rules is refused: the form records games of two seats."""
    client, db = served
    zrec("archive", "import", "--db", db, "-q", str(ROOT / "samples" / "stone-warriors.zrec"))
    ludii = tmp_path / "ludii.zrec"
    ludii.write_text(
        '[Game "stone-warriors"]\n[Event "Four seats"]\n[Date "2026.09.01"]\n[Round "1"]\n'
        '[South "A"]\n[West "B"]\n[North "C"]\n[East "D"]\n[Result "1/2-1/2-1/2-1/2"]\n'
        '[Ruleset "ludii"]\n[Termination "agreement"]\n\n1. f2-g3 1/2-1/2-1/2-1/2\n',
        encoding="utf-8")
    zrec("archive", "import", "--db", db, "-q", str(ludii))
    page = editor_page(client)
    shown = client.get("/events/Illustrative%20game").text
    assert "imported as records" not in shown
    two = shown.split('action="/events/Illustrative%20game/results"')[1].split("</form>")[0]
    assert 'name="White"' in two and 'name="Black"' in two and 'name="South"' not in two
    refused = ("results of Awithlaknakwe (Stone Warriors) with 4 seats are imported as "
               "records (on the import page): this form records games of two seats")
    assert f"<p>{refused[0].upper()}{refused[1:]}.</p>" in client.get("/events/Four%20seats").text
    answer = client.post("/api/events/Four%20seats/results", json=FORFEIT,
                         headers={"X-CSRF-Token": csrf_of(page)})
    assert answer.status_code == 400
    assert answer.json() == {"error": {"code": "bad-result", "message": refused}}
