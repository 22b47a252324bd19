"""Playing a study player on the recording board (``/board``) in a real browser:
Debian's Chromium driven by Playwright against ``zrec serve`` started as a process
(the fixtures of :mod:`test_board_browser`).  Nobody logs in: asking for a move is
reading.

A person takes Black in a hand-made Mosona position, clicks a move, and the reply of
``alphabeta:1`` (White), asked of ``POST /api/reply``, appears on the board: the double
capture rather than the single one.  In Awéthi the player takes every seat but the
person's, its dice rolled by the server from the seed.  A player that refuses the game
(alphabeta and the dice of Awéthi) is said in words, and the game against it stops.
The page is photographed into ``ZREC_SCREENSHOTS`` (a folder) when it is set.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

import test_board_browser as board  # (Chromium there, or the module is skipped)
import test_serve_login_browser as login

server = board.server
SAMPLES = board.SAMPLES
#: the Awéthi sample's tags (two shepherd players, advanced points), no move yet
AWETHI = (SAMPLES / "awethi.zrec").read_text(encoding="utf-8").split("\n\n", 1)[0].replace(
    '[Result "0-0-1"]', '[Result "*"]') + "\n\n*\n"
#: Black to move; then White on b5 takes one piece (b5xb3) or two (b5xb7xb9)
SETUP = """[Game "mosona"]
[Setup "B7/3BWB1B1/8 b"]
[Result "*"]

*
"""


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A page whose errors fail the test, but the 400 of a refusal (a failed resource)."""
    yield from login.watched(browser, "status of 400")


def start_playing(page: Page, player: str, seat: str, seed: str = "") -> None:
    page.fill("#board-opponent-player", player)
    page.select_option("#board-opponent-seat", seat)
    page.fill("#board-opponent-seed", seed)
    page.click("#board-opponent-start")


def test_a_person_moves_and_the_players_reply_is_on_the_board(
    server: tuple[str, Path], page: Page, shots: Path
) -> None:
    url, _ = server
    board.open_record(page, url, SETUP)
    offered = page.eval_on_selector_all("#board-opponents option", "os => os.map(o => o.value)")
    assert offered == ["mcts:50", "alphabeta:3", "random", "greedy"]
    assert page.locator("#board-opponent-seat option").all_inner_texts() == ["White", "Black"]
    start_playing(page, "alphabeta:1", "Black", seed="1")
    assert page.inner_text("#board-opponent-status") == "You play Black against alphabeta:1."
    assert page.inner_text("#board-turn") == "Black to move (move 1...)"  # (no reply yet)
    board.click(page, "c1")
    board.click(page, "c2")
    page.wait_for_selector("#board-opponent-status:has-text('played')")
    board.settle(page)
    assert board.movetext(page) == "1... c1-c2 2. b5xb7xb9 *"
    assert page.inner_text("#board-opponent-status") == "alphabeta:1 played b5xb7xb9 (White)"
    assert page.inner_text("#board-turn") == "Black to move (move 2...)"
    pieces = page.eval_on_selector_all(
        "#board-view .piece", "ps => ps.map(p => p.getAttribute('data-piece') + "
        "p.getAttribute('data-square')).sort()")
    assert pieces == ["Bb4", "Bc2", "Wb9"]
    page.screenshot(path=shots / "board-player.png", full_page=True)
    assert page.locator("#board-problem").is_hidden()
    # Undo takes the player's move back and stops the game against it (not answered
    # by the same move at once); Start plays on from there
    page.click("#board-undo")
    page.wait_for_selector("#board-opponent-status:has-text('undone')")
    board.settle(page)
    assert board.movetext(page) == "1... c1-c2 *"
    assert page.inner_text("#board-opponent-status") == (
        "Stopped after a move was undone: press Start to play on from here.")
    page.click("#board-opponent-start")
    page.wait_for_selector("#board-opponent-status:has-text('played')")
    board.settle(page)
    assert board.movetext(page) == "1... c1-c2 2. b5xb7xb9 *"


def test_a_player_that_refuses_the_game_is_said_in_words(
    server: tuple[str, Path], page: Page
) -> None:
    url, _ = server
    board.open_record(page, url, AWETHI)
    assert page.inner_text("#board-turn") == "Shepherd1 to move (move 1.)"
    start_playing(page, "alphabeta", "Wolves")
    page.wait_for_selector("#board-problem:not([hidden])")
    assert page.inner_text("#board-problem") == (
        "alphabeta plays two-seat games only; this Awéthi game has 3 seats")
    assert page.inner_text("#board-opponent-status") == ""
    assert page.is_enabled("#board-opponent-start")
    assert board.movetext(page) == "*"


def test_the_player_takes_every_other_seat_with_the_servers_dice(
    server: tuple[str, Path], page: Page
) -> None:
    url, _ = server
    board.open_record(page, url, AWETHI)
    start_playing(page, "random", "Wolves", seed="5")
    page.wait_for_selector("#board-turn:has-text('Wolves to move')")
    board.settle(page)
    # the shepherds' seats played by the player, each turn's dice rolled from the seed,
    # until the wolves come on: the person's turn, its dice to roll
    moves = page.locator("#board-moves .board-move").all_inner_texts()
    assert (len(moves), moves[:3]) == (
        31, ["start", "1. 2: H", "2134e: a1-a2-a3, a1-a2, a1-b1-b2-c2, a1-b1-c1-d2"])
    last = "4422s: d2-d1-e2, c2-d2-d1-e1, b1-c1-c2-d2, e3-e4-f4-f3"
    assert moves[-1] == last
    assert page.inner_text("#board-opponent-status") == f"random played {last} (Shepherd1)"
    assert page.inner_text("#board-dice") == "Roll d4+d6"
