"""A live game's page for seats kept for their players and for a draw of three seats,
in real browsers (Debian's Chromium driven by Playwright against ``zrec serve``
started as a process): a seat Ada named for Bob is shown kept for him, another user
who opens its link is told it is not theirs, Bob takes it with the page's button; a
draw offered in a three-seat Awéthi game shows who agreed, and the game goes on until
every player has.  Pages are photographed into ``ZREC_SCREENSHOTS`` when it is set."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from serving import served
from test_live_browser import CHROMIUM, PASSWORD, context, get, log_in
from zrec.archive import Archive
from zrec.serve.accounts import add_user, new_token

if not CHROMIUM.exists():  # (test_live_browser skips or fails the module the same way)
    pytest.skip("no Chromium at /usr/bin/chromium", allow_module_level=True)

from playwright.sync_api import Browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    folder = tmp_path_factory.mktemp("live-kept")
    with Archive.open(str(folder / "a.sqlite"), create=True) as archive:
        tokens = {}
        for name in ("Ada", "Bob", "Cy"):
            add_user(archive, name, "editor", PASSWORD)
            tokens[name] = new_token(archive, name)
    with served(folder, "a.sqlite") as url:
        yield url, tokens


def post(url: str, token: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, json.dumps(body).encode(), {
        "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.loads(answer.read())


def test_a_kept_seat_and_a_draw_of_three_seats_on_the_page(
        server: tuple[str, dict[str, str]], browser: Browser, shots: Path) -> None:
    url, tokens = server
    errors: list[str] = []
    bob_context, bob = context(browser, errors)
    cy_context, cy = context(browser, errors)
    gid = post(f"{url}/api/live", tokens["Ada"], {"game": "awethi", "seats": {
        "Shepherd1": "Ada", "Shepherd2": "Bob", "Wolves": "Cy"}})["id"]
    # Cy opens Bob's link: the seat is kept for Bob, not Cy's to take
    log_in(cy, url, "Cy", f"/live/{gid}?seat=Shepherd2")
    cy.wait_for_selector("#live-you p")
    assert cy.locator("#live-you").inner_text() == (
        "The seat Shepherd2 is kept for Bob: you are watching")
    assert cy.locator("button.live-take").count() == 0
    assert cy.locator("#live-seats td.live-player").all_inner_texts() == [
        "Ada", "open, kept for Bob", "open, kept for Cy"]
    assert cy.locator("#live-turn").inner_text() == "Waiting for players"
    cy.wait_for_selector("#live-view svg")
    cy.screenshot(path=shots / "live-kept-for-another.png", full_page=True)
    # Bob opens it and takes it; Cy takes hers
    log_in(bob, url, "Bob", f"/live/{gid}?seat=Shepherd2")
    bob.click("button.live-take")
    bob.wait_for_selector("#live-you p:text-is('You play Shepherd2')")
    cy.goto(f"{url}/live/{gid}?seat=Wolves")
    cy.click("button.live-take")
    cy.wait_for_selector("#live-you p:text-is('You play Wolves')")
    # Ada plays the herd's turn and offers a draw; Bob agrees: Cy has not
    post(f"{url}/api/live/{gid}/move", tokens["Ada"], {"move": "H"})
    post(f"{url}/api/live/{gid}/move", tokens["Ada"], {"action": "draw-offer"})
    post(f"{url}/api/live/{gid}/move", tokens["Bob"], {"action": "draw-accept"})
    cy.wait_for_selector("#live-turn:has-text('Shepherd1 offers a draw (Shepherd2 agreed)')")
    assert cy.locator("#live-actions button[data-action=draw-accept]").is_visible()
    bob.wait_for_selector("#live-turn:has-text('(Shepherd2 agreed)')")
    assert bob.locator("#live-actions button[data-action=draw-accept]").is_hidden()
    cy.wait_for_selector("#live-view svg")
    cy.screenshot(path=shots / "live-draw-agreed.png", full_page=True)
    cy.click("#live-actions button[data-action=draw-accept]")
    cy.wait_for_selector("#live-turn:text-is('The game is over: 1/2-1/2-1/2 (agreement)')")
    state: Any = get(f"{url}/api/live/{gid}")
    assert (state["result"], state["termination"]) == ("1/2-1/2-1/2", "agreement")
    assert cy.locator(f"#live-stored a[href='/games/{state['game_id']}']").count() == 1
    bob_context.close()
    cy_context.close()
    assert errors == [], errors
