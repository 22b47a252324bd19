"""Live play of a dice game with three seats in real browsers (Debian's Chromium driven
by Playwright against ``zrec serve`` started as a process).  Two users take two
Awéthi shepherd seats by their links and play by clicking the board (a herd turn,
which needs no click, with the page's Play button), a study player holds the Wolves
(its moves made by the server), an anonymous third context follows and sees each move
within a second of the move's answer, and nobody sees the herds' hidden orders while
the game is played.  At the end the game is in the archive, with its dice and its
herds, and the event's standings count it.  Pages are photographed into
``ZREC_SCREENSHOTS`` when it is set."""

from __future__ import annotations

import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from serving import served
from test_live_browser import CHROMIUM, PASSWORD, context, get, log_in
from zrec.archive import Archive
from zrec.serve.accounts import add_user

if not CHROMIUM.exists():  # (test_live_browser skips or fails the module the same way)
    pytest.skip("no Chromium at /usr/bin/chromium", allow_module_level=True)

from playwright.sync_api import Browser, Page, Response

#: the most plies the test plays (a game of Awéthi played with the first choice each
#: time ends in 75 to 211 plies with a greedy wolf)
MOST_PLIES = 400


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("live-dice")
    with Archive.open(str(folder / "a.sqlite"), create=True) as archive:
        for name in ("Ada", "Bob"):
            add_user(archive, name, "editor", PASSWORD)
    with served(folder, "a.sqlite") as url:
        yield url


def nothing_hidden_shown(page: Page) -> None:
    """The page shows no herd's hidden order: no HerdK tag in the record, and no
    face-down token named."""
    assert "[Herd" not in page.locator("#live-record").inner_text()
    assert page.locator("#live-view .face-down[data-piece]").count() == 0


def play_turn(gid: int, page: Page) -> None:
    """The seat to move plays its turn on ``page`` by clicking what the page offers:
    a turn of no click with its Play button, a move that may stop early with its Stop
    button, else the first choice named beside the board (the option letter of the
    dice), else the first square marked on the board; the page sends the move when
    the clicks make one."""
    sent: list[int] = []

    def heard(answer: Response) -> None:
        if answer.url.endswith(f"/api/live/{gid}/move") and answer.request.method == "POST":
            sent.append(answer.status)

    page.on("response", heard)
    while not sent:
        before = page.locator("#live-prompt").inner_text()
        play = page.locator("#live-choices button.board-play-move")
        named = page.locator("#live-choices button.board-named")
        if play.count():
            play.first.click()
        elif named.count():
            named.first.click()
        elif page.locator("#live-view .board-option").count():
            page.locator("#live-view .board-option").first.dispatch_event("click")
        else:
            break  # (the clicks made a move: the page sends it)
        page.wait_for_function(
            "b => (document.getElementById('live-prompt').textContent || '') !== b", arg=before)
        if not page.locator("#live-prompt").inner_text():
            break  # (the move is sent: the page no longer offers anything)
    for _ in range(250):
        if sent:
            break
        page.wait_for_timeout(20)
    page.remove_listener("response", heard)
    assert sent == [200], sent


def test_three_seats_two_people_and_a_study_player_play_to_the_end(
        server: str, browser: Browser, shots: Path) -> None:
    url = server
    errors: list[str] = []
    ada_context, ada = context(browser, errors)
    bob_context, bob = context(browser, errors)
    watch_context, watcher = context(browser, errors)
    with pytest.raises(urllib.error.HTTPError):  # (no event yet: no standings)
        get(f"{url}/api/events/Dice%20Cup/standings")
    # Ada starts the game on /live: Shepherd1 hers, Shepherd2 open, the Wolves a study
    # player
    log_in(ada, url, "Ada", "/live")
    ada.select_option("#live-new select[name=game]", "awethi")
    ada.fill("#live-new textarea[name=seats]",
             "Shepherd1=Ada\nShepherd2=\nWolves=study:greedy")
    ada.fill("#live-new input[name=event]", "Dice Cup")
    ada.fill("#live-new input[name=round]", "1")
    ada.fill("#live-new input[name=clock]", "")
    ada.click("#live-new button[type=submit]")
    ada.wait_for_url("**/live/*?seat=Shepherd1")
    gid = int(ada.url.split("/live/")[1].split("?")[0])
    # (the page says whose seat it is once its script has the game: not at its load)
    ada.wait_for_selector("#live-you p:text-is('You play Shepherd1')")
    link = ada.locator("#live-seats tr[data-seat=Shepherd2] a").get_attribute("href")
    assert link == f"{url}/live/{gid}?seat=Shepherd2"
    log_in(bob, url, "Bob", f"/live/{gid}?seat=Shepherd2")
    bob.click("button.live-take")
    bob.wait_for_selector("#live-you p:text-is('You play Shepherd2')")
    watcher.goto(f"{url}/live/{gid}")
    watcher.wait_for_selector("#live-turn:has-text('Shepherd1 to move')")
    assert watcher.locator("#live-you").inner_text() == "You are watching"
    assert watcher.locator("#live-actions").is_hidden()
    state: Any = get(f"{url}/api/live/{gid}")
    assert state["seats"] == {"Shepherd1": "Ada", "Shepherd2": "Bob",
                              "Wolves": "study:greedy"}
    assert watcher.locator("#live-seats td.live-player").all_inner_texts() == [
        "Ada", "Bob", "study:greedy"]

    pages = {"Shepherd1": ada, "Shepherd2": bob}
    delays, turns, started = [], {"Shepherd1": 0, "Shepherd2": 0}, time.monotonic()
    while state["status"] == "playing":
        assert state["ply"] < MOST_PLIES, state["ply"]
        seat = state["to_move"]
        assert seat in pages, state  # (the study player's turns are made by the server)
        assert state["roll"], state  # (every turn rolls dice: the server's)
        page = pages[seat]
        page.wait_for_selector(f"#live-app[data-version='{state['version']}']")
        if state["ply"] in (0, 1, 20):
            for seen in (ada, bob, watcher):
                seen.wait_for_selector(f"#live-app[data-version='{state['version']}']")
                nothing_hidden_shown(seen)
        play_turn(gid, page)
        turns[seat] += 1
        moved = time.monotonic()
        state = get(f"{url}/api/live/{gid}")
        watcher.wait_for_selector(f"#live-moves li:nth-child({state['ply']})", timeout=5000)
        delays.append(time.monotonic() - moved)
        assert watcher.locator("#live-moves li").all_inner_texts() == state["moves"]
        if state["ply"] in (6, 7, 8):
            page.screenshot(path=shots / "live-dice-player.png", full_page=True)
            watcher.screenshot(path=shots / "live-dice-watching.png", full_page=True)
    played = time.monotonic() - started
    assert max(delays) < 1.0, delays
    assert turns["Shepherd1"] > 3 and turns["Shepherd2"] > 3, turns
    seats = [seat for seat in ("Shepherd1", "Shepherd2", "Wolves")]
    # every move was made by the seat whose turn it was, the roll written in it
    assert all(":" in move for move in state["moves"]), state["moves"]

    watcher.wait_for_selector("#live-turn:has-text('The game is over: ')")
    assert watcher.locator("#live-turn").inner_text() == (
        f"The game is over: {state['result']} (normal)")
    stored = watcher.locator("#live-stored a")
    game_id = int(stored.get_attribute("href").rsplit("/", 1)[1])  # type: ignore[union-attr]
    assert game_id == state["game_id"]
    kept: Any = get(f"{url}/api/games/{game_id}")
    tags = dict(kept["tags"])
    assert (tags["Game"], tags["Event"], tags["Round"], tags["Shepherd1"], tags["Shepherd2"],
            tags["Wolves"], tags["Result"]) == (
        "awethi", "Dice Cup", "1", "Ada", "Bob", "study:greedy", state["result"])
    assert tags["Herd1"] and tags["Herd2"]  # (the archive's record has the herds)
    assert len(kept["moves"]) == state["ply"]
    standings: Any = get(f"{url}/api/events/Dice%20Cup/standings")
    points = dict(zip(seats, (Fraction(p) for p in state["result"].split("-")), strict=True))
    assert sorted((r["player"], Fraction(str(r["points"]))) for r in standings) == sorted(
        (tags[s], points[s]) for s in seats)
    watcher.screenshot(path=shots / "live-dice-over.png", full_page=True)
    print(f"{state['ply']} plies ({turns} by clicks) in {played:.1f} s; "
          f"slowest spectator {max(delays):.3f} s")
    for made in (ada_context, bob_context, watch_context):
        made.close()
    assert [e for e in errors if "status of 429" not in e] == [], errors
