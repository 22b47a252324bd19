"""A published site in a real browser (Debian's Chromium driven by Playwright, pages
opened from the disk as a reader opens them): the Spring Swiss with round 5 paired and
one of its four games in, and an Awéthi game on a map.

Every page carries the site's Content-Security-Policy and logs no error (a refused
inline style or script is one: the map's own stylesheet is allowed by its hash); a
game page has the font and link colour of the other pages and is titled by its players,
event and round; the pairings show each board's result or ``pending``; the standings
say which round is not complete.  Each page is photographed into ``ZREC_SCREENSHOTS``
(a folder) when it is set, else into the test's temporary folder.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zrec.cli import app

CHROMIUM = Path("/usr/bin/chromium")
SAMPLES = Path(__file__).resolve().parents[1] / "samples"
SWISS = "Spring Swiss 2026"
runner = CliRunner()

if not CHROMIUM.exists():
    if os.environ.get("CI") == "true":
        raise RuntimeError("the browser tests need Chromium at /usr/bin/chromium on CI")
    pytest.skip("no Chromium at /usr/bin/chromium (Debian: apt-get install chromium)",
                allow_module_level=True)

from playwright.sync_api import Browser, Page  # noqa: E402


def ok(*args: str) -> str:
    result = runner.invoke(app, ["archive", *args])
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return str(result.stdout)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Swiss paired round by round (Hill's bye before round 3), round 5 paired with
    one game in; an Awéthi game on a map as round 1 of another event; published."""
    folder = tmp_path_factory.mktemp("published")
    db = str(folder / "a.sqlite")
    club = SAMPLES / "club"
    ok("roster", "--db", db, str(club / "spring.trf"))
    for n in range(1, 6):
        if n == 3:
            ok("bye", "--db", db, SWISS, "3", "Hill, Hal", "--kind", "half")
        ok("pair", "--db", db, SWISS)
        text = (club / f"spring-round{n}.zrec").read_text(encoding="utf-8")
        if n == 5:  # its first game only
            text = re.split(r"\n(?=\[Game )", text)[0] + "\n"
        (folder / f"r{n}.zrec").write_text(text, encoding="utf-8")
        ok("import", "--db", db, "-q", str(folder / f"r{n}.zrec"))
    awethi = (SAMPLES / "awethi.zrec").read_text(encoding="utf-8")
    awethi = re.sub(r'\[Event "[^"]*"\]', '[Event "Map Cup"]', awethi, count=1)
    awethi = awethi.replace('[Round "-"]', '[Round "1"]', 1)
    (folder / "map.zrec").write_text(awethi, encoding="utf-8")
    ok("import", "--db", db, "-q", str(folder / "map.zrec"))
    ok("publish", "--all", "--ratings", "--db", db, "-o", str(folder / "site"))
    return folder / "site"




def opened(browser: Browser, path: Path, errors: list[str], width: int = 1100) -> Page:
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page


def look(page: Page, selector: str, prop: str) -> str:
    return str(page.eval_on_selector(selector, f"e => getComputedStyle(e).{prop}"))


def test_every_page_has_the_policy_and_logs_no_error(site: Path, browser: Browser) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 30
    for path in pages:
        text = path.read_text(encoding="utf-8")
        assert '<meta content="default-src \'self\'; script-src \'self\'; style-src \'self\'' \
            in text or '<meta http-equiv="Content-Security-Policy"' in text, path
        assert "Content-Security-Policy" in text and " style=" not in text, path
        assert "unsafe-inline" not in text, path
        errors: list[str] = []
        opened(browser, path, errors).close()
        assert errors == [], (path, errors)


def test_a_game_page_looks_like_the_others_and_is_titled_by_its_game(
    site: Path, browser: Browser, shots: Path
) -> None:
    errors: list[str] = []
    event = opened(browser, site / "spring-swiss-2026" / "index.html", errors)
    font, link = look(event, "body", "fontFamily"), look(event, "a", "color")
    event.close()
    game = opened(browser, site / "spring-swiss-2026" / "game-1.html", errors)
    assert game.title() == "Adams, Ada – Evans, Eli, Spring Swiss 2026 round 1 — zrec replay"
    assert game.inner_text("#zrec-title") == "Adams, Ada – Evans, Eli, Spring Swiss 2026 round 1"
    assert look(game, "body", "fontFamily") == font == "system-ui, sans-serif"
    assert look(game, "nav.site a", "color") == link == "rgb(122, 59, 18)"
    game.screenshot(path=str(shots / "site-game.png"))
    game.close()
    # a map carries its own stylesheet: allowed by its hash, and applied
    path = next((site / "map-cup").glob("game-*.html"))
    assert "<style>" in path.read_text(encoding="utf-8") and "'sha256-" in path.read_text(
        encoding="utf-8")
    maps = opened(browser, path, errors)
    assert maps.title().startswith("Naglani, A. – Naglani, C. – Naglani, B., Map Cup round 1")
    maps.screenshot(path=str(shots / "site-map-game.png"))
    maps.close()
    assert errors == []


def test_the_event_page_shows_results_and_what_is_pending(
    site: Path, browser: Browser, shots: Path
) -> None:
    errors: list[str] = []
    page = opened(browser, site / "spring-swiss-2026" / "index.html", errors)
    headings = page.locator("h3").all_inner_texts()
    assert headings == ["Round 1 (all 4 games in)", "Round 2 (all 4 games in)",
                        "Round 3 (all 3 games in)", "Round 4 (all 4 games in)",
                        "Round 5 (1 of 4 games in; 3 pending)"]
    fifth = page.locator("table.pairings").nth(4)
    rows = [r.split("\t") for r in fifth.locator("tbody tr").all_inner_texts()]
    assert rows == [["1", "Hill, Hal (8)", "0–1", "Adams, Ada (1)"],
                    ["2", "Brown, Bea (2)", "pending", "Gray, Gus (7)"],
                    ["3", "Fox, Fay (6)", "pending", "Clark, Cal (3)"],
                    ["4", "Dunn, Dov (4)", "pending", "Evans, Eli (5)"]]
    assert fifth.locator("a").get_attribute("href") == "game-16.html"
    assert look(page, "td.pending", "fontStyle") == "italic"
    assert page.inner_text("#standings") == (
        "Standings after round 5 (1 of 4 games in; 3 pending)")
    assert "Round 5 (1 game; 3 boards pending)" in page.inner_text("ul.rounds")
    page.screenshot(path=str(shots / "site-event.png"), full_page=True)
    page.close()
    fifth_page = opened(browser, site / "spring-swiss-2026" / "round-5.html", errors)
    assert fifth_page.inner_text("p.meta") == (
        "1 of 4 games in; 3 pending. The round's pairings, with each board's result, are on "
        "the event page.")
    fifth_page.click("p.meta a")
    assert fifth_page.url.endswith("spring-swiss-2026/index.html#pairings")
    fifth_page.close()
    assert errors == []
