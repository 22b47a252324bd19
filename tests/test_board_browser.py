"""The recording board (``/board``) in a real browser: Debian's Chromium driven by
Playwright against ``zrec serve`` started as a process on a free port.

Games are recorded by clicks on the board the server draws: a Mosona chain of three
jumps (with a comment, a NAG, a variation, the arrow keys and Escape), saved by an
editor and read back from the archive as the text shown; a Kolowis bent chain whose
second jump is chosen by a click on the jumped piece; a Stone Warriors capture and a
priest's entry; an Awéthi game of three seats through a herd turn (dice typed, and
rolled by the server), a shepherds' turn and a wolf turn; a round entered from an
event's page, its standings changed.  No page logs an error (a CSP violation is one).
Pages are photographed into ``ZREC_SCREENSHOTS`` (a folder) when it is set, else into
the test's temporary folder.
"""

from __future__ import annotations

import datetime
import json
import re
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import test_serve_login_browser as login  # (Chromium there, or the module is skipped)

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
EVENT, PASSWORD, zrec = login.EVENT, login.PASSWORD, login.zrec
# the fixtures of the login test: zrec serve on the club's first two rounds with the
# editor Eddie, a page whose errors fail the test
server, page = login.server, login.page


def settle(page: Page) -> None:
    """Wait until the board's requests are answered."""
    page.wait_for_selector("#board-app:not([data-busy])", state="attached")


def text(page: Page) -> str:
    return page.input_value("#board-text")


def movetext(page: Page) -> str:
    return " ".join(text(page).split("\n\n", 1)[1].split())


def marked(page: Page) -> list[str]:
    """The points and pieces marked as what can be clicked next."""
    names: list[str] = page.eval_on_selector_all(
        "#board-view .board-option",
        "es => es.map(e => e.getAttribute('data-square') || e.getAttribute('data-point'))")
    return sorted(set(names))


def position(url: str, record: str, **query: str) -> Any:
    address = url + "/api/position?" + urllib.parse.urlencode(query)
    with urllib.request.urlopen(urllib.request.Request(address, record.encode())) as answer:
        return json.load(answer)


def clicks_of(url: str, page: Page, move: str) -> list[str]:
    """The clicks of a legal move at the board's node, as the API lists them."""
    at = page.get_attribute("#board-moves .board-current", "data-node") or "0"
    legal = position(url, text(page), at=at)["legal"]
    found: list[str] = next(m["clicks"] for m in legal if m["move"] == move)
    return found


def click(page: Page, name: str) -> None:
    """A click on the board (a point, square or piece), or on a named choice."""
    if name.startswith("="):
        page.click(f'#board-choices button[data-click="{name}"]')
    else:
        target = page.locator(f'#board-view .board-option[data-square="{name}"], '
                              f'#board-view .board-option[data-point="{name}"]')
        target.first.click(force=True)  # (a piece stands over its point: the same name)
    settle(page)


def landed(page: Page) -> tuple[str, bool]:
    """Where the piece moving in a chain is drawn: its point, and whether it stands on
    that point's centre (the drawing, not the name only)."""
    found: list[Any] = page.eval_on_selector(
        "#board-view .piece.board-moving",
        """e => {
          const name = e.getAttribute('data-square');
          const p = document.querySelector(`#board-view circle.point[data-point="${name}"]`);
          return [name, p.getAttribute('cx') === e.getAttribute('cx')
                        && p.getAttribute('cy') === e.getAttribute('cy')];
        }""")
    return found[0], found[1]


def enter(page: Page, clicks: list[str]) -> None:
    """A move entered click by click; "stop here" when the move could go on."""
    before = text(page)
    for name in clicks:
        click(page, name)
    if text(page) == before:
        page.click("#board-choices .board-play-move")
        settle(page)


def log_in(page: Page, url: str, then: str) -> None:
    page.goto(url + "/login?next=" + urllib.parse.quote(then, safe=""))
    page.fill("input[name=name]", "Eddie")
    page.fill("input[name=password]", PASSWORD)
    page.click("form.account-form button[type=submit]")
    page.wait_for_url("**" + then.split("?")[0] + "*")
    if then.startswith("/board"):
        settle(page)


def open_record(page: Page, url: str, record: str) -> None:
    page.goto(url + "/board")
    page.fill("#board-paste", record)
    page.click("#board-open button[type=submit]")
    settle(page)


def test_a_mosona_chain_commented_varied_and_saved(
    server: tuple[str, Path], page: Page, shots: Path
) -> None:
    url, folder = server
    log_in(page, url, "/board")
    page.select_option("#board-game", "mosona")
    page.fill("form.board-new input[name=Event]", "Board test")
    page.fill("form.board-new input[name=Round]", "1")
    fields = page.locator('fieldset[data-game="mosona"]')
    fields.locator("input[name=White]").fill("Ann")
    fields.locator("input[name=Black]").fill("Bob")
    fields.locator("select[name=O]").nth(1).select_option("Jumps=bent")
    page.click("form.board-new button[type=submit]")
    page.wait_for_url("**/board?game=mosona*")
    settle(page)
    assert '[Jumps "bent"]' in text(page) and '[White "Ann"]' in text(page)
    assert page.inner_text("#board-turn") == "White to move (move 1.)"
    first = {m["clicks"][0] for m in position(url, text(page))["legal"]}
    assert marked(page) == sorted(first) == ["a3", "a4", "b6"]
    click(page, "a3")
    assert page.inner_text("#board-prompt") == "so far: a3"
    page.keyboard.press("Escape")  # a half-made move cancelled
    settle(page)
    assert page.inner_text("#board-prompt") == ""
    assert page.locator("#board-view .board-chosen").count() == 0
    click(page, "a3")
    click(page, "b5")
    assert landed(page) == ("b5", True)  # mid-chain: the piece drawn on its landing
    click(page, "b4")
    assert landed(page) == ("b4", True)
    assert marked(page) == ["a3", "c4"]
    page.screenshot(path=shots / "board-chain.png", full_page=True)
    click(page, "a3")  # the third landing: the move is made
    assert movetext(page) == "1. a3xb5xb4xa3 *"
    reply = "c6xb5xb6xa5xb4xb3xa3"
    enter(page, clicks_of(url, page, reply))
    assert movetext(page) == f"1. a3xb5xb4xa3 {reply} *"
    page.click('#board-moves .board-move[data-node="1"]')
    settle(page)
    page.fill("#board-comment", "Three jumps at once.")
    page.click("#board-comment-save")
    settle(page)
    page.click("#board-nags button:text-is('!')")
    settle(page)
    other = next(m for m in position(url, text(page), at="1")["legal"] if m["move"] != reply)
    enter(page, other["clicks"])  # another answer at move 1: a variation
    assert movetext(page) == (f"1. a3xb5xb4xa3! {{Three jumps at once.}} {reply} "
                              f"(1... {other['move']}) *")
    page.keyboard.press("Home")
    settle(page)
    assert page.get_attribute("#board-moves .board-current", "data-node") == "0"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    settle(page)
    assert page.inner_text("#board-moves .board-current") == f"{reply}"
    page.keyboard.press("End")
    settle(page)
    page.screenshot(path=shots / "board-mosona.png", full_page=True)
    shown = text(page)
    page.click("#board-save")
    settle(page)
    assert page.inner_text("#board-report p.board-summary") == "Saved: 1 read, 1 added"
    assert page.get_attribute("#board-report a", "href") == "/events/Board%20test"
    found = json.loads(zrec(folder, "archive", "search", "--db", "a.sqlite", "--event",
                            "Board test", "--format", "json"))
    stored = zrec(folder, "archive", "show", str(found[0]["id"]), "--db", "a.sqlite")
    assert stored == shown + "\n"  # (show ends each record with a blank line)
    assert zrec(folder, "validate", "-", stdin=stored.encode()) == (
        "1 game read, 1 valid, 0 invalid, 0 warnings\n")
    page.click("#board-save")  # the same game again: a duplicate
    settle(page)
    assert page.inner_text("#board-report p.board-summary") == (
        "Saved: 1 read, 0 added, 1 duplicates")
    assert page.locator("#board-report li.board-report-duplicate").count() == 1


def test_a_kolowis_bent_jump_chosen_by_the_jumped_piece(
    server: tuple[str, Path], page: Page, shots: Path
) -> None:
    url, _ = server
    page.goto(url + "/board?game=kolowis&O=Jumps%3Dbent&White=Ann&Black=Bob")
    settle(page)
    for move in ("a7xb9xb8xc8xb9", "c10xc9xb10xb9xb8"):
        enter(page, clicks_of(url, page, move))
    click(page, "a6")
    click(page, "c7")
    # c6 and b8: pieces a chain to b7 may jump; the others: landings of other chains
    assert marked(page) == ["a7", "a8", "b7", "b8", "b9", "c6", "c8"]
    assert page.locator('#board-view .piece.board-option[data-square="b8"]').count() == 1
    page.screenshot(path=shots / "board-kolowis.png", full_page=True)
    click(page, "b8")
    assert marked(page) == ["b7"]
    click(page, "b7")
    click(page, "a6")
    assert movetext(page) == "1. a7xb9xb8xc8xb9 c10xc9xb10xb9xb8 2. a6xc7x(b8)b7xa6 *"


def test_a_stone_warriors_capture_and_priest_entry(
    server: tuple[str, Path], page: Page, shots: Path
) -> None:
    url, _ = server
    open_record(page, url, (SAMPLES / "stone-warriors.zrec").read_text(encoding="utf-8"))
    assert page.get_attribute("#board-moves .board-current", "data-node") == "154"
    page.fill('#board-tag-rows input[data-tag="Score"]', "")  # (the score of the end)
    page.click("#board-tags button[type=submit]")
    settle(page)
    assert "[Score " not in text(page)
    page.click('#board-moves .board-move[data-node="56"]')
    settle(page)
    page.click("#board-cut")  # 28... h9-g9xg10 and all after it taken back
    settle(page)
    assert movetext(page).endswith("28. g9-g10 *")
    assert page.inner_text("#board-turn") == "Black to move (move 28...)"
    click(page, "h9")
    assert marked(page) == ["g9", "h8"]
    click(page, "g9")  # the capture is written by the engine
    assert movetext(page).endswith("28. g9-g10 h9-g9xg10 *")
    assert page.inner_text("#board-turn") == "White to move"
    assert marked(page) == ["e1", "f1", "g1", "h1", "i1", "j1"]
    click(page, "f1")
    assert movetext(page).endswith("28. g9-g10 h9-g9xg10 P@f1 *")
    page.screenshot(path=shots / "board-stone-warriors.png", full_page=True)
    page.click('#board-moves .board-move[data-node="56"]')  # back to 28. g9-g10
    settle(page)
    page.click("#board-undo")  # takes back the line's last move, not the one shown
    settle(page)
    assert movetext(page).endswith("28. g9-g10 h9-g9xg10 *")


def test_an_awethi_game_of_three_seats_with_dice(
    server: tuple[str, Path], page: Page, shots: Path
) -> None:
    url, _ = server
    sample = (SAMPLES / "awethi.zrec").read_text(encoding="utf-8")
    open_record(page, url, sample)
    herd = page.locator("#board-moves .board-move", has_text="11. 2: H").get_attribute(
        "data-node")
    page.click(f'#board-moves .board-move[data-node="{herd}"]')
    settle(page)
    page.click("#board-cut")
    settle(page)
    assert page.inner_text("#board-turn") == "Shepherd1 to move (move 11.)"
    assert page.inner_text("#board-dice") == "Roll d4"
    page.click("#board-roll-server")  # rolled by the server, then typed over
    settle(page)
    rolled = page.input_value("#board-roll-typed")
    assert rolled in {"1", "2", "3", "4"}
    assert page.inner_text("#board-choices .board-play-move") == f"Play {rolled}: H"
    page.fill("#board-roll-typed", "2")
    page.click("#board-roll-use")
    settle(page)
    page.click("#board-choices .board-play-move")  # the herd's turn
    settle(page)
    assert movetext(page).endswith("11. 2: H *")
    assert page.inner_text("#board-dice") == "Roll 4×d4"
    page.fill("#board-roll-typed", "1311")
    page.click("#board-roll-use")
    settle(page)
    shepherds = "1311s: d2-e2, c3-d3, e6-e5, e1-f1"
    assert page.inner_text("#board-prompt") == (
        "Shepherd1's shepherds' turn, 1311: one die each (e) or the sum divided (s)?")
    assert page.locator("#board-choices button.board-named").all_inner_texts() == [
        "one die each: 1, 3, 1, 1", "the sum divided: 1 each"]
    click(page, "=s")  # the split, then each shepherd's path square by square
    click(page, "d2")
    assert page.inner_text("#board-prompt") == (
        "path 1 of 4 (1 each): 0 of 1 · so far: the sum divided: 1 each → d2")
    page.screenshot(path=shots / "board-shepherds.png", full_page=True)
    for name in ("e2", "c3", "d3", "e6", "e5", "e1", "f1"):
        click(page, name)
    assert movetext(page).endswith(f"11. 2: H {shepherds} *")
    assert page.inner_text("#board-turn").startswith("Wolves to move")
    page.fill("#board-roll-typed", "15")
    page.keyboard.press("Enter")
    settle(page)
    assert marked(page) == ["m13"]
    page.screenshot(path=shots / "board-awethi.png", full_page=True)
    enter(page, ["m13", "l13", "k13", "k14", "j14", "i14"])
    assert movetext(page).endswith(f"11. 2: H {shepherds} 15: m13-l13-k13-k14-j14-i14 *")


def test_a_round_entered_from_the_event_page(
    server: tuple[str, Path], page: Page, shots: Path
) -> None:
    url, folder = server
    log_in(page, url, "/events/" + urllib.parse.quote(EVENT))
    form = page.locator("form.board-event")
    form.locator("input[name=Round]").fill("3")
    form.locator("select[name=White]").select_option("Adams, Ada")
    form.locator("select[name=Black]").select_option("Dunn, Dov")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/board?**")
    settle(page)
    for tag in (f'[Event "{EVENT}"]', '[Site "Zuni Pueblo"]', '[Round "3"]',
                '[White "Adams, Ada"]', '[Black "Dunn, Dov"]'):
        assert tag in text(page)
    enter(page, clicks_of(url, page, "a5-b5"))
    page.fill("#board-result-value", "0-1")
    page.fill("#board-termination", "resignation")
    page.click("#board-result-save")
    settle(page)
    assert movetext(page) == "1. a5-b5 0-1"
    page.click("#board-save")
    settle(page)
    assert page.inner_text("#board-report p.board-summary") == "Saved: 1 read, 1 added"
    page.screenshot(path=shots / "board-event.png", full_page=True)
    page.click("#board-report a:text('the standings of')")
    page.wait_for_url("**/events/**")
    printed = json.loads(zrec(folder, "archive", "standings", EVENT, "--db", "a.sqlite",
                              "--format", "json"))
    assert page.inner_text("h3:text('Round 3')") == "Round 3"
    assert {line["player"]: line["points"] for line in printed}["Dunn, Dov"] >= 1


def test_a_new_awethi_game_from_the_form(
    server: tuple[str, Path], page: Page, shots: Path
) -> None:
    url, _ = server
    page.goto(url + "/board")
    page.select_option("#board-game", "awethi")
    fields = page.locator('fieldset[data-game="awethi"]')
    assert fields.locator("select[name=hidden]").input_value() == "draw"
    fields.locator("input[name=Shepherd1]").fill("Ana")
    fields.locator("input[name=Wolves]").fill("Wil")
    page.screenshot(path=shots / "board-new-awethi-form.png", full_page=True)
    page.click("form.board-new button[type=submit]")
    page.wait_for_url("**/board?game=awethi*")
    settle(page)
    assert page.is_hidden("#board-problem")
    assert page.inner_text("#board-turn") == "Shepherd1 to move (move 1.)"
    assert page.locator("#board-view svg").count() == 1
    herd = re.search(r'\[Herd1 "([cwb]{6})"\]', text(page))
    assert herd is not None and sorted(herd.group(1)) == sorted("cccwwb")
    assert f'[Date "{datetime.date.today():%Y.%m.%d}"]' in text(page)
    page.screenshot(path=shots / "board-new-awethi.png", full_page=True)
    # the form's defaults alone start a game too
    page.goto(url + "/board")
    page.select_option("#board-game", "awethi")
    page.click("form.board-new button[type=submit]")
    page.wait_for_url("**/board?game=awethi*")
    settle(page)
    assert page.is_hidden("#board-problem")
    assert page.inner_text("#board-turn") == "Shepherd1 to move (move 1.)"


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return {"x": found["x"], "y": found["y"], "width": found["width"],
            "height": found["height"]}


def test_the_board_and_its_record_side_by_side_and_stacked(
    server: tuple[str, Path], page: Page, shots: Path
) -> None:
    url, _ = server
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(url + "/board?id=1")
    settle(page)
    play, record = box(page, ".board-play"), box(page, ".board-record")
    assert record["x"] >= play["x"] + play["width"] and abs(record["y"] - play["y"]) < 2
    page.screenshot(path=shots / "board-1280.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(url + "/board?game=mosona&White=Ann&Black=Bob")
    settle(page)
    play, record = box(page, ".board-play"), box(page, ".board-record")
    assert record["y"] >= play["y"] + play["height"]
    assert page.evaluate("document.documentElement.scrollWidth") == 390
    # every point or piece to click is at least 24 px across to the finger
    sizes = page.eval_on_selector_all("#board-view .board-option", """es => {
        const most = {};
        for (const e of es) {
          const name = e.getAttribute('data-square') || e.getAttribute('data-point');
          const r = e.getBoundingClientRect();
          most[name] = Math.max(most[name] || 0, Math.min(r.width, r.height));
        }
        return most;
      }""")
    assert sorted(sizes) == ["a4", "a5", "b6"] and min(sizes.values()) >= 24, sizes
    page.locator("#board-view").screenshot(path=shots / "board-390-points.png")
    page.screenshot(path=shots / "board-390.png", full_page=True)
    ring = box(page, '#board-view .board-hit[data-point="a4"]')
    page.mouse.click(ring["x"] + 2, ring["y"] + ring["height"] / 2)  # (its edge)
    settle(page)
    assert page.inner_text("#board-prompt") == "so far: a4"


def test_the_standings_scroll_in_their_own_box_on_a_phone(
    server: tuple[str, Path], page: Page, shots: Path
) -> None:
    url, _ = server
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(url + "/events/" + urllib.parse.quote(EVENT))
    assert page.evaluate("document.documentElement.scrollWidth") == 390
    assert page.locator("table.standings").evaluate(  # (it scrolls, or its box does)
        "e => e.scrollWidth > e.clientWidth"
        " || e.parentElement.scrollWidth > e.parentElement.clientWidth") is True
    page.screenshot(path=shots / "event-390.png", full_page=True)
    page.goto(url + "/players/" + urllib.parse.quote("Adams, Ada"))  # (its ratings too)
    assert page.evaluate("document.documentElement.scrollWidth") == 390
    page.screenshot(path=shots / "player-390.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=shots / "event-1280.png", full_page=True)


@pytest.fixture
def page_400(browser: Browser) -> Iterator[Page]:
    yield from login.watched(browser, "status of 400")


def test_a_bad_search_keeps_the_form_as_it_was_typed(
    server: tuple[str, Path], page_400: Page, shots: Path
) -> None:
    url, _ = server
    page = page_400
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(url + "/search")
        page.fill("form.search input[name=player]", "Adams, Ada")
        page.fill("form.search input[name=position]", "zzz")
        page.click("form.search button[type=submit]")
        page.wait_for_url("**/search?*")
        assert page.inner_text("p.problem").startswith(
            "The search was not made: --position 'zzz' is not a position: ")
        assert page.input_value("form.search input[name=player]") == "Adams, Ada"
        assert page.input_value("form.search input[name=position]") == "zzz"
        page.screenshot(path=shots / f"search-bad-{width}.png", full_page=True)
