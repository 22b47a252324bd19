"""``zrec serve`` in a real browser: Debian's Chromium driven by Playwright (no browser
is downloaded) against ``zrec serve`` started as a process on a free port.

Search for a player, open a game and step through it, open an event and read its
standings; a player named ``<script>alert(1)</script>`` shows as text and runs
nothing; no page logs an error (a Content-Security-Policy violation is one).  Each
page is photographed into ``ZREC_SCREENSHOTS`` (a folder) when it is set, else into
the test's temporary folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from serving import served
from test_serve_api import ODD, SCRIPTED  # the record of a player named as markup

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"

if not CHROMIUM.exists():
    if os.environ.get("CI") == "true":
        raise RuntimeError("the browser tests need Chromium at /usr/bin/chromium on CI")
    pytest.skip("no Chromium at /usr/bin/chromium (Debian: apt-get install chromium)",
                allow_module_level=True)

from playwright.sync_api import Browser, ConsoleMessage, Page  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``zrec serve`` on an archive of the samples, the club's rounds and the odd game;
    its base URL."""
    folder = tmp_path_factory.mktemp("browser")
    (folder / "odd.zrec").write_text(ODD, encoding="utf-8")
    files = [*sorted(SAMPLES.glob("*.zrec")), *sorted((SAMPLES / "club").glob("*.zrec"))]
    subprocess.run(
        [sys.executable, "-m", "zrec", "archive", "import", "--db", "a.sqlite", "-q",
         *map(str, files), "odd.zrec"],
        cwd=folder, check=True, capture_output=True,
    )
    with served(folder, "a.sqlite") as url:
        yield url




class Watched:
    """A page with what it logged as errors and the dialogs it opened."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("dialog", self._dialog)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def _dialog(self, dialog: object) -> None:
        self.dialogs.append("dialog")


@pytest.fixture
def watched(browser: Browser) -> Iterator[Watched]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    yield Watched(context.new_page())
    context.close()


def test_search_a_player_open_a_game_and_step_it(
    server: str, watched: Watched, shots: Path
) -> None:
    page = watched.page
    page.goto(server + "/")
    assert page.locator("h1").inner_text() == "zrec archive"
    page.screenshot(path=shots / "home.png", full_page=True)
    page.fill("input[name=player]", "ada lovelace")
    page.click("form.search button[type=submit]")
    page.wait_for_url("**/search?**")
    assert "games 1–4 of 4" in page.locator("p.pager").inner_text()
    rows = page.locator("table.games tbody tr")
    assert rows.count() == 4
    page.screenshot(path=shots / "search.png", full_page=True)
    page.click("table.games a[href='/games/11']")
    page.wait_for_url("**/games/11")
    caption = page.locator("#zrec-caption")
    assert caption.inner_text() == "start position"
    page.click("#zrec-forward")
    after_one = caption.inner_text()
    page.keyboard.press("ArrowRight")
    after_two = caption.inner_text()
    assert (after_one, after_two) == ("after 1. a5-b5", "after 1... c6xa5")
    assert page.locator("#zrec-moves").inner_text().strip() != ""
    assert "Lovelace, Ada" in page.locator("section.zrec-site-game").inner_text()
    page.screenshot(path=shots / "game.png", full_page=True)
    page.keyboard.press("End")
    assert caption.inner_text() == "after 9... c8-b8"
    page.keyboard.press("Home")
    assert caption.inner_text() == "start position"
    # (no script needed) the explorer at the position after ply 2 of this game
    page.click("ol.explore-plies a:text('1... c6xa5')")
    page.wait_for_url("**/explorer?**moves=1.+a5-b5+1...+c6xa5")
    assert page.locator("nav.trail").inner_text() == "start › 1. a5-b5 › 1... c6xa5"
    assert page.locator("table.games a[href='/games/11']").count() == 1
    assert watched.errors == []


def test_an_event_shows_its_standings(server: str, watched: Watched, shots: Path) -> None:
    page = watched.page
    page.goto(server + "/events/Zuni%20Club%20Championship%202026")
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 4
    assert rows.nth(0).locator("td").all_inner_texts() == [
        "1", "1", "Hopper, Grace", "1.5", "2", "3.5", "4.5", "0", "1",
    ]
    assert page.locator("table.crosstable").count() == 1
    page.screenshot(path=shots / "event.png", full_page=True)
    page.click("table.standings a:text('Hopper, Grace')")
    page.wait_for_url("**/players/**")
    assert page.locator("h1").inner_text() == "Hopper, Grace"
    assert page.locator("p.score").inner_text() == "1 won, 1 drawn, 1 lost, 0 unfinished"
    page.screenshot(path=shots / "player.png", full_page=True)
    assert watched.errors == []


def test_a_name_of_markup_is_text_and_runs_nothing(
    server: str, watched: Watched, shots: Path
) -> None:
    page = watched.page
    page.goto(server + "/events/Odd%20names")
    link = page.locator("table.games td.players a").first
    assert link.inner_text() == SCRIPTED
    link.click()
    page.wait_for_url("**/players/**")
    assert page.locator("h1").inner_text() == SCRIPTED
    page.screenshot(path=shots / "odd-player.png", full_page=True)
    page.goto(server + "/search?player=" + "%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    assert page.locator("input[name=player]").input_value() == SCRIPTED
    game = page.locator("table.games a").first.get_attribute("href")
    page.goto(server + str(game))
    page.click("#zrec-forward")
    page.screenshot(path=shots / "odd-game.png", full_page=True)
    assert watched.dialogs == [] and watched.errors == []


def test_pages_not_found_and_no_script_needed(
    server: str, browser: Browser, shots: Path
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    answer = page.goto(server + "/games/99999")
    assert answer is not None and answer.status == 404
    assert page.locator("p.problem").inner_text() == "there is no game #99999"
    page.screenshot(path=shots / "not-found.png", full_page=True)
    page.goto(server + "/search?event=Zuni%20Club%20Championship%202026&limit=2")
    assert "games 1–2 of 5" in page.locator("p.pager").inner_text()
    page.click("a[rel=next]")
    assert "games 3–4 of 5" in page.locator("p.pager").inner_text()
    page.goto(server + "/games/11")  # without script: the record and its tags are there
    record = page.locator("pre.record").inner_text()
    assert '[White "Lovelace, Ada"]' in record and "1. a5-b5 c6xa5 2. b7-c6" in record
    assert page.locator("section.zrec-site-game li").first.inner_text() == (
        "White: Lovelace, Ada"
    )
    context.close()
