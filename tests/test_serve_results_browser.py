"""Recording a result by picking a board of the round, in a real browser: Debian's
Chromium driven by Playwright against ``zrec serve`` started as a process.

The Spring Swiss has round 5 paired and one of its four games in.  The event's page
says so (``After round 5 (1 of 4 games in; 3 pending)``, each board's result or
``pending``); the editor's form starts at round 5 and today's date and offers the
three pending boards: picking one fills the round and the players from the stored
pairing; the result recorded, the page says 2 of 4.  No page logs an error (a CSP
violation is one).  Pages are photographed into ``ZREC_SCREENSHOTS`` (a folder) when
it is set, else into the test's temporary folder.
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from serving import served

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[1]
CLUB = ROOT / "samples" / "club"
SWISS = "Spring Swiss 2026"
PASSWORD = "editor password 1"

if not CHROMIUM.exists():
    if os.environ.get("CI") == "true":
        raise RuntimeError("the browser tests need Chromium at /usr/bin/chromium on CI")
    pytest.skip("no Chromium at /usr/bin/chromium (Debian: apt-get install chromium)",
                allow_module_level=True)

from playwright.sync_api import Browser, Page  # noqa: E402

from test_serve_login_browser import watched, zrec  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``zrec serve`` on the Spring Swiss with round 5 begun, with the editor Eddie."""
    folder = tmp_path_factory.mktemp("results")
    zrec(folder, "archive", "roster", "--db", "a.sqlite", str(CLUB / "spring.trf"))
    for n in range(1, 6):
        if n == 3:
            zrec(folder, "archive", "bye", "--db", "a.sqlite", SWISS, "3", "Hill, Hal",
                 "--kind", "half")
        zrec(folder, "archive", "pair", "--db", "a.sqlite", SWISS)
        text = (CLUB / f"spring-round{n}.zrec").read_text(encoding="utf-8")
        if n == 5:
            text = re.split(r"\n(?=\[Game )", text)[0] + "\n"
        (folder / f"r{n}.zrec").write_text(text, encoding="utf-8")
        zrec(folder, "archive", "import", "--db", "a.sqlite", "-q", f"r{n}.zrec")
    zrec(folder, "archive", "users", "add", "Eddie", "--role", "editor", "--db", "a.sqlite",
         stdin=f"{PASSWORD}\n".encode())
    with served(folder, "a.sqlite") as url:
        yield url


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    yield from watched(browser)


def test_an_organiser_picks_a_board_and_records_its_result(
    server: str, page: Page, shots: Path
) -> None:
    page.goto(server + "/login?next=/events/" + SWISS)
    page.fill("input[name=name]", "Eddie")
    page.fill("input[name=password]", PASSWORD)
    page.click("form.account-form button[type=submit]")
    page.wait_for_url("**/events/**")
    assert page.locator("p.after").inner_text().startswith(
        "After round 5 (1 of 4 games in; 3 pending); tie-breaks: ")
    assert page.locator("h3", has_text="Round 5 (").inner_text() == (
        "Round 5 (1 of 4 games in; 3 pending)")
    form = page.locator("form[action$='/results']")
    assert form.locator("input[name=round]").input_value() == "5"
    today = datetime.date.today().strftime("%Y.%m.%d")
    assert form.locator("input[name=date]").input_value() == today
    assert form.locator("select[name=board] option").all_inner_texts() == [
        "—", "Round 5, board 2: Brown, Bea – Gray, Gus",
        "Round 5, board 3: Fox, Fay – Clark, Cal", "Round 5, board 4: Dunn, Dov – Evans, Eli"]
    form.locator("select[name=board]").select_option("5.3")
    assert form.locator("input[name=round]").input_value() == "5.3"
    assert form.locator("input[name=White]").input_value() == "Fox, Fay"
    assert form.locator("input[name=Black]").input_value() == "Clark, Cal"
    form.locator("select[name=result]").select_option("0-1")
    form.screenshot(path=str(shots / "result-form.png"))
    form.locator("button[type=submit]").click()
    page.wait_for_url("**?added=*#recorded")
    assert page.locator("p.recorded").inner_text().startswith("the result is recorded as game #")
    assert page.locator("h3", has_text="Round 5 (").inner_text() == (
        "Round 5 (2 of 4 games in; 2 pending)")
    third = page.locator("table.pairings").nth(4).locator("tbody tr").nth(2)
    assert third.locator("td").all_inner_texts() == ["3", "Fox, Fay (6)", "0–1", "Clark, Cal (3)"]
    assert form.locator("select[name=board] option").count() == 3  # two boards left
    page.screenshot(path=str(shots / "event-pending.png"), full_page=True)
