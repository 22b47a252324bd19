""""Analyse this game" on the recording board (``/board``) in a real browser: Debian's
Chromium driven by Playwright against ``zrec serve`` started as a process (the
fixtures of :mod:`test_board_browser`).  Nobody logs in: asking for an analysis is
reading.  The planted Mosona blunder is pasted, analysed by the server, and the record
on the board is then the analysed one: its blunder marked ``??``, the summary said.
The page is photographed into ``ZREC_SCREENSHOTS`` (a folder) when it is set.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

import test_board_browser as board  # (Chromium there, or the module is skipped)
import test_serve_login_browser as login
from test_analysis import planted
from zrec.notation.writer import write_game

server = board.server


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    yield from login.watched(browser, "status of 400")  # (the refusal: a failed resource)


def test_the_game_on_the_board_is_analysed_by_the_server(
    server: tuple[str, Path], page: Page, shots: Path
) -> None:
    url, _ = server
    game, blunder = planted("mosona", {}, 1)
    board.open_record(page, url, write_game(game))
    page.click("#board-analyse-start")
    page.wait_for_selector("#board-analyse-status:has-text('Analysed by')")
    board.settle(page)
    assert page.inner_text("#board-analyse-status") == (
        "Analysed by alphabeta:4: White 90.3% (?! 0, ? 0, ?? 1); "
        "Black 100.0% (?! 0, ? 0, ?? 0).")
    text = board.text(page)
    assert '[Analysis "alphabeta:4, seed 0"]' in text
    marked = [m for m in page.locator("#board-moves .board-move").all_inner_texts() if "??" in m]
    assert marked == ["5. a7-b8??"] and blunder == 9
    page.screenshot(path=shots / "board-analysed.png", full_page=True)
    # asked again, the board sends the record as it was written: the same analysis,
    # written in once
    with page.expect_response("**/api/analyse") as again:
        page.click("#board-analyse-start")
    assert again.value.status == 200
    page.wait_for_selector("#board-analyse-start:enabled")
    board.settle(page)
    assert board.text(page) == text
    # a player beyond the web's budget is refused in words
    page.fill("#board-analyse-player", "mcts:5000")
    page.click("#board-analyse-start")
    page.wait_for_selector("#board-problem:not([hidden])")
    assert page.inner_text("#board-problem") == (
        "player mcts:5000: over the web, mcts searches with a budget of at most 1000 "
        "(playouts); zrec play takes more")
