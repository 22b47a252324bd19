"""Live play in real browsers: Debian's Chromium driven by Playwright against ``zrec
serve`` started as a process.  Two contexts (two users) play a Mosona game with
multi-jump chains to its end by clicking the board; a third, anonymous, watches and
sees each move within a second of the move's answer; the game is then in the archive
and the event's standings have changed.  Pages are photographed into
``ZREC_SCREENSHOTS`` when it is set."""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from serving import served
from test_live_archive import CHAIN_GAME
from zrec.archive import Archive
from zrec.serve.accounts import add_user

CHROMIUM = Path("/usr/bin/chromium")
PASSWORD = "player password 1"

if not CHROMIUM.exists():
    if os.environ.get("CI") == "true":
        raise RuntimeError("the browser tests need Chromium at /usr/bin/chromium on CI")
    pytest.skip("no Chromium at /usr/bin/chromium (Debian: apt-get install chromium)",
                allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("live")
    with Archive.open(str(folder / "a.sqlite"), create=True) as archive:
        for name in ("Ada", "Bob"):
            add_user(archive, name, "editor", PASSWORD)
    with served(folder, "a.sqlite") as url:
        yield url


def context(browser: Browser, errors: list[str]) -> tuple[BrowserContext, Page]:
    made = browser.new_context(viewport={"width": 1200, "height": 900})
    page = made.new_page()
    page.on("console", lambda m: errors.append(f"{page.url}: {m.text} {m.location['url']}")
            if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return made, page


def log_in(page: Page, url: str, name: str, then: str) -> None:
    page.goto(url + "/login?next=" + urllib.parse.quote(then, safe=""))
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.account-form button[type=submit]")
    page.wait_for_url("**" + then)


def clicks_of(url: str, record: str, move: str) -> list[str]:
    """The clicks of a legal move, as the board's API lists them."""
    request = urllib.request.Request(url + "/api/position", record.encode(),
                                     {"Content-Type": "text/plain; charset=utf-8"})
    with urllib.request.urlopen(request, timeout=20) as answer:
        legal = json.loads(answer.read())["legal"]
    found = [entry["clicks"] for entry in legal if entry["move"] == move]
    assert found, (move, [entry["move"] for entry in legal])
    clicks: list[str] = found[0]
    return clicks


def get(url: str) -> object:
    with urllib.request.urlopen(url, timeout=20) as answer:
        return json.loads(answer.read())


def test_two_users_play_a_game_to_its_end_and_a_spectator_follows(
        server: str, browser: Browser, shots: Path) -> None:
    url = server
    errors: list[str] = []
    ada_context, ada = context(browser, errors)
    bob_context, bob = context(browser, errors)
    watch_context, watcher = context(browser, errors)
    assert get(url + "/api/live") == []
    with pytest.raises(urllib.error.HTTPError):  # (no event yet: no standings)
        get(f"{url}/api/events/Live%20Cup/standings")
    # Ada starts a game on /live: she is White, Black is open
    log_in(ada, url, "Ada", "/live")
    ada.select_option("#live-new select[name=game]", "mosona")
    ada.fill("#live-new input[name=event]", "Live Cup")
    ada.fill("#live-new input[name=round]", "1")
    ada.click("#live-new button[type=submit]")
    ada.wait_for_url("**/live/*?seat=White")
    gid = int(ada.url.split("/live/")[1].split("?")[0])
    ada.wait_for_selector("#live-you p:text-is('You play White')")  # (the page's script)
    assert ada.locator("#live-you").inner_text() == "You play White"
    black = ada.locator("#live-seats tr[data-seat=Black] a").get_attribute("href")
    assert black == f"{url}/live/{gid}?seat=Black"
    # Bob opens Black's link, logs in and takes the seat; a visitor watches
    log_in(bob, url, "Bob", f"/live/{gid}?seat=Black")
    bob.click("button.live-take")
    bob.wait_for_selector("#live-you p:text-is('You play Black')")
    watcher.goto(f"{url}/live/{gid}")
    watcher.wait_for_selector("#live-turn:text-is('White to move')")
    assert watcher.locator("#live-you").inner_text() == "You are watching"
    assert watcher.locator("#live-actions").is_hidden()
    ada.wait_for_selector("#live-turn:text-is('White to move')")
    ada.screenshot(path=shots / "live-start.png", full_page=True)

    delays = []
    for ply, move in enumerate(CHAIN_GAME, 1):
        player = ada if ply % 2 else bob
        player.wait_for_selector(f"#live-app[data-ply='{ply - 1}']")
        state = get(f"{url}/api/live/{gid}")
        assert isinstance(state, dict)
        clicks = clicks_of(url, state["record"], move)
        with player.expect_response(lambda r: r.url.endswith(f"/api/live/{gid}/move")
                                    ) as answered:
            for i, point in enumerate(clicks):
                if i:
                    player.wait_for_selector(
                        "#live-prompt:has-text('so far: " + " → ".join(clicks[:i]) + "')")
                player.locator(f"#live-view [data-point='{point}']").first.dispatch_event(
                    "click")
        assert answered.value.status == 200, answered.value.text()
        moved = time.monotonic()
        watcher.wait_for_selector(f"#live-moves li:nth-child({ply})", timeout=5000)
        delays.append(time.monotonic() - moved)
        assert watcher.locator(f"#live-moves li:nth-child({ply})").inner_text() == move
        if ply == 10:
            watcher.screenshot(path=shots / "live-watching.png", full_page=True)
            bob.screenshot(path=shots / "live-black.png", full_page=True)
    assert max(delays) < 1.0, delays

    watcher.wait_for_selector("#live-turn:text-is('The game is over: 0-1 (normal)')")
    stored = watcher.locator("#live-stored a")
    assert stored.inner_text().endswith("in the archive")
    game_id = int(stored.get_attribute("href").rsplit("/", 1)[1])  # type: ignore[union-attr]
    tags = dict(get(f"{url}/api/games/{game_id}")["tags"])  # type: ignore[index]
    assert (tags["Event"], tags["White"], tags["Black"], tags["Result"]) == (
        "Live Cup", "Ada", "Bob", "0-1")
    standings = get(f"{url}/api/events/Live%20Cup/standings")
    assert [(r["player"], r["points"]) for r in standings] == [  # type: ignore[attr-defined]
        ("Bob", 1), ("Ada", 0)]
    watcher.screenshot(path=shots / "live-over.png", full_page=True)
    watcher.goto(url + "/live")
    assert watcher.locator("text=No live game is being played.").count() == 1
    assert watcher.locator(f"a[href='/games/{game_id}']").count() == 1
    watcher.screenshot(path=shots / "live-list.png", full_page=True)
    for made in (ada_context, bob_context, watch_context):
        made.close()
    # (the three browsers are one address to the server: the pool of expensive work
    # answers /api/position 429 beyond 4 of its requests at once, and the page asks
    # again after Retry-After)
    assert [e for e in errors if "status of 429" not in e] == [], errors


def test_the_event_page_lists_the_round_played_online(
        tmp_path: Path, browser: Browser, shots: Path) -> None:
    from test_serve_results import SWISS, swiss_round_5_begun
    from zrec.serve.accounts import new_token

    db = str(tmp_path / "a.sqlite")
    swiss_round_5_begun(db, tmp_path)
    with Archive.open(db) as archive:
        add_user(archive, "Eddie", "editor", PASSWORD)
        token = new_token(archive, "Eddie")
    with served(tmp_path, db) as url:
        request = urllib.request.Request(
            f"{url}/api/events/{urllib.parse.quote(SWISS)}/live",
            json.dumps({"round": 5, "clock": "900+10"}).encode(),
            {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=20) as answer:
            games = json.loads(answer.read())["games"]
        assert [g["board"] for g in games] == [2, 3, 4]
        errors: list[str] = []
        made, page = context(browser, errors)
        page.goto(f"{url}/events/{SWISS}")
        rows = page.locator("section.live-now tr[data-live]")
        assert rows.count() == 3
        assert rows.nth(0).locator("td").all_inner_texts()[:4] == [
            str(games[0]["id"]), "mosona", "5.2", "White: open, Black: open"]
        page.locator("section.live-now").screenshot(path=shots / "live-event.png")
        rows.nth(0).locator("a").click()
        page.wait_for_selector("#live-turn:text-is('Waiting for players')")
        page.wait_for_selector("#live-view svg")
        assert page.locator("#live-seats td.live-player").all_inner_texts() == [
            "open, kept for Brown, Bea", "open, kept for Gray, Gus"]
        assert page.locator("h1").inner_text() == (
            f"Live game #{games[0]['id']}: {SWISS}, round 5.2")
        page.screenshot(path=shots / "live-event-game.png", full_page=True)
        made.close()
        assert errors == [], errors



def test_a_turn_of_no_click_is_played_with_its_button(server: str, browser: Browser,
                                                      shots: Path) -> None:
    """Awéthi with the server's dice: the herd's turn (``3: H``, no click) is played
    with the Play button, the roll written in the record; the herd's order is not on
    the page while the game is played."""
    url = server
    errors: list[str] = []
    made, ada = context(browser, errors)
    log_in(ada, url, "Ada", "/live")
    token = ada.locator("#live-new").get_attribute("data-csrf") or ""
    answer = ada.request.post(url + "/api/live", data={
        "game": "awethi", "options": {}, "clock": None,
        "seats": {"Shepherd1": "Ada", "Wolves": "Ada"}}, headers={"X-CSRF-Token": token})
    assert answer.status == 201, answer.text()
    gid = answer.json()["id"]
    ada.goto(f"{url}/live/{gid}?seat=Shepherd1")
    roll = get(f"{url}/api/live/{gid}")["roll"]  # type: ignore[index]
    button = ada.locator("#live-choices button.board-play-move")
    button.wait_for()
    assert button.inner_text() == f"Play {roll[0]}: H"
    assert "Herd1" not in ada.locator("#live-record").inner_text()
    assert ada.locator("#live-view .face-down").count() > 0
    ada.screenshot(path=shots / "live-awethi.png", full_page=True)
    button.click()
    ada.wait_for_selector("#live-app[data-ply='1']")
    assert get(f"{url}/api/live/{gid}")["moves"] == [f"{roll[0]}: H"]  # type: ignore[index]
    made.close()
    assert [e for e in errors if "status of 429" not in e] == [], errors
