"""Logging in and writing through ``zrec serve`` in a real browser: Debian's Chromium
driven by Playwright against ``zrec serve`` started as a process on a free port.

An editor logs in, imports the club's third round through ``/import`` (uploading the
file), reads the import's report, and sees the event's standings change to what
``zrec archive standings`` prints, then records a forfeit through the event's form and
sees its row gain the point; an anonymous visitor sent to ``/import`` lands on
the login form; a wrong password says so.  Pages are photographed into
``ZREC_SCREENSHOTS`` (a folder) when it is set, else into the test's temporary folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from serving import served

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[1]
CLUB = ROOT / "samples" / "club"
EVENT = "Club Championship 2026"
PASSWORD = "editor password 1"

if not CHROMIUM.exists():
    if os.environ.get("CI") == "true":
        raise RuntimeError("the browser tests need Chromium at /usr/bin/chromium on CI")
    pytest.skip("no Chromium at /usr/bin/chromium (Debian: apt-get install chromium)",
                allow_module_level=True)

from playwright.sync_api import Browser, Page  # noqa: E402


def zrec(folder: Path, *args: str, stdin: bytes | None = None) -> str:
    done = subprocess.run([sys.executable, "-m", "zrec", *args], cwd=folder, input=stdin,
                          check=True, capture_output=True)
    return done.stdout.decode()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``zrec serve`` on the club's first two rounds, with the editor Eddie; its base
    URL and its folder (the archive is ``a.sqlite`` there)."""
    folder = tmp_path_factory.mktemp("login")
    zrec(folder, "archive", "import", "--db", "a.sqlite", "-q", str(CLUB / "round1.zrec"),
         str(CLUB / "round2.zrec"))
    zrec(folder, "archive", "users", "add", "Eddie", "--role", "editor", "--db", "a.sqlite",
         stdin=f"{PASSWORD}\n".encode())
    with served(folder, "a.sqlite") as url:
        yield url, folder
    logged = (folder / "server.log").read_text()
    assert PASSWORD not in logged and "zrec_session=" not in logged


def watched(chromium: Browser, allowed: str = "status of 401") -> Iterator[Page]:
    """A page whose errors (a CSP violation is one) fail the test, but those that hold
    ``allowed``: an error answer the browser logs as a failed resource (by default a 401
    form answer)."""
    context = chromium.new_context(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    opened = context.new_page()
    opened.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    yield opened
    context.close()
    assert [e for e in errors if allowed not in e] == []


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    yield from watched(browser)



def standings_points(page: Page) -> list[list[str]]:
    rows = page.locator("table.standings tbody tr")
    return [rows.nth(i).locator("td").all_inner_texts()[2:4] for i in range(rows.count())]


def test_an_editor_imports_a_round_and_the_standings_change(
    server: tuple[str, Path], page: Page, shots: Path
) -> None:
    url, folder = server
    page.goto(url + "/events/" + EVENT)
    before = standings_points(page)
    assert page.locator(".account a").inner_text() == "Log in"
    page.goto(url + "/import")  # not logged in: to the login form, then back
    page.wait_for_url("**/login?next=%2Fimport")
    page.fill("input[name=name]", "eddie")
    page.fill("input[name=password]", "not the password")
    page.click("form.account-form button[type=submit]")
    assert page.locator("p.problem").inner_text() == "the name or the password is wrong"
    page.screenshot(path=shots / "login.png", full_page=True)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.account-form button[type=submit]")
    page.wait_for_url("**/import")
    assert page.locator(".account .who").inner_text() == "Eddie (editor)"
    page.set_input_files("input[name=file]", str(CLUB / "round3.zrec"))
    page.click("form.account-form button[type=submit]")
    assert page.locator("section.report p").first.inner_text() == "2 games read: 2 added"
    page.screenshot(path=shots / "import.png", full_page=True)
    page.goto(url + "/events/" + EVENT)
    after = standings_points(page)
    printed = json.loads(zrec(folder, "archive", "standings", EVENT, "--db", "a.sqlite",
                              "--format", "json"))
    assert after != before
    assert after == [[line["player"], f"{line['points']:g}"] for line in printed]
    assert page.locator("h2:text('Record a bye')").count() == 1
    page.screenshot(path=shots / "event-editor.png", full_page=True)
    # a forfeit recorded through the event's form: Evans's row gains the point
    evans = next(p for p, _ in after if p == "Evans, Eli")
    form = page.locator("form[action$='/results']")
    form.locator("input[name=round]").fill("4")
    form.locator("input[name=White]").fill(evans)
    form.locator("input[name=Black]").fill("Dunn, Dov")
    form.locator("select[name=result]").select_option("1-0")
    form.locator("select[name=termination]").select_option("forfeit")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**?added=7#recorded")
    assert page.locator("p.recorded").inner_text() == "the result is recorded as game #7."
    points = dict(standings_points(page))
    assert float(points[evans]) == float(dict(after)[evans]) + 1
    assert points["Dunn, Dov"] == dict(after)["Dunn, Dov"]
    page.screenshot(path=shots / "event-result.png", full_page=True)
    page.click(".account button:text('Log out')")
    page.wait_for_url(url + "/")
    assert page.locator(".account a").inner_text() == "Log in"
