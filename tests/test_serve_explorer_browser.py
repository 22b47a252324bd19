"""The opening explorer in a real browser (Debian's Chromium driven by Playwright, as
tests/test_serve_browser.py does) against ``zrec serve`` started as a process: open
the explorer, choose the game, follow two moves by clicking, and see the counts of
the tree and a board that changes; no page logs an error (a Content-Security-Policy
violation is one).  Each page is photographed into ``ZREC_SCREENSHOTS`` when it is
set, else into the test's temporary folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from serving import served
from test_serve_browser import Watched, watched  # noqa: F401
from test_serve_explorer import make_archive
from zrec.archive import Archive
from zrec.archive.store.tree import tree


@pytest.fixture(scope="module")
def explorer_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``zrec serve`` on an archive of random games; its base URL and the archive."""
    folder = tmp_path_factory.mktemp("explorer")
    db = folder / "a.sqlite"
    make_archive(str(db))
    with served(folder, str(db)) as url:
        yield url, db


def _shown(seen: Watched) -> list[tuple[str, int]]:
    rows = seen.page.locator("table.tree tbody tr")
    return [
        (rows.nth(i).locator("td").nth(0).inner_text(),
         int(rows.nth(i).locator("td").nth(1).inner_text()))
        for i in range(rows.count())
    ]


def _board(seen: Watched) -> bytes:
    """The board as the browser drew it (the image's pixels)."""
    image = seen.page.locator(".explorer-board img")
    width = image.evaluate("i => i.naturalWidth")
    assert width > 0  # the image loaded
    return image.screenshot()


def test_open_the_explorer_and_follow_two_moves(
    explorer_server: tuple[str, Path], watched: Watched, shots: Path  # noqa: F811
) -> None:
    url, db = explorer_server
    page = watched.page
    page.goto(url + "/")
    page.click("header nav a:text('Explorer')")
    page.wait_for_url("**/explorer")
    page.select_option("select[name=game]", "mosona")
    page.click("form.explorer-form button[type=submit]")
    page.wait_for_url("**/explorer?game=mosona**")
    played: list[str] = []
    with Archive.open(str(db)) as archive:
        branches = tree(archive, "mosona")
        assert _shown(watched) == [(b.move, b.games) for b in branches]
        assert page.locator("p.summary").inner_text() == f"{len(branches)} moves, 110 games"
        page.screenshot(path=shots / "explorer-start.png", full_page=True)
        boards = [_board(watched)]
        for step in range(2):
            move, games = _shown(watched)[0]
            played.append(move)
            page.click(f"table.tree a.move:text-is('{move}')")
            page.wait_for_load_state()
            numbered = f"1. {played[0]}" + (f" {played[1]}" if step else "")
            branches = tree(archive, "mosona", {}, numbered)
            assert _shown(watched) == [(b.move, b.games) for b in branches]
            assert sum(b.games for b in branches) == games
            assert f"of {games}" in page.locator("p.pager").inner_text()
            boards.append(_board(watched))
            page.screenshot(path=shots / f"explorer-{step + 1}.png", full_page=True)
    trail = page.locator("nav.trail").inner_text()
    assert trail == f"start › 1. {played[0]} › 1... {played[1]}"
    assert len(set(boards)) == 3  # the board changed with each move
    page.click(f"nav.trail a:text-is('1. {played[0]}')")  # back one move
    page.wait_for_load_state()
    assert page.locator("nav.trail").inner_text() == f"start › 1. {played[0]}"
    assert page.locator("input[name=moves]").input_value() == f"1. {played[0]}"
    assert watched.errors == []
