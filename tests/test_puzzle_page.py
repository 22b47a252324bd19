"""Solving a puzzle of ``zrec puzzles`` on ``zrec serve``'s board: ``/board?puzzle=N``
opens the position alone with its task, ``POST /api/puzzle`` says whether a move is the
solution's (and shows the solution once found or asked for); in FastAPI's TestClient,
then in headless Chromium (looked at).  Nobody logs in: it is reading."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page
from typer.testing import CliRunner

import test_board_browser as board  # (Chromium there, or the module is skipped)
import test_serve_login_browser as login
from serving import served
from zrec.cli import app
from zrec.serve import create_app
from zrec.serve.puzzle import PUZZLE_TEXT

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
CLUB = [str(ROOT / "samples" / "club" / f"round{n}.zrec") for n in (1, 2)]
TASK = ("Black to play: one move wins material (a lead 2 pieces more), and no other "
        "does.")
START = '[Setup "BBBBBBBB/BBBBWWWWW/WWWW1WWW b"]'
SOLUTION = "1... c6xa5 2. b5-b6 a5xc6 3. a4-b5 *"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An archive of the club's first two rounds' one puzzle (#1) and a game (#2)."""
    here = tmp_path_factory.mktemp("puzzle")
    puzzles = here / "puzzles.zrec"
    assert runner.invoke(app, ["puzzles", *CLUB, "-o", str(puzzles)]).exit_code == 0
    done = runner.invoke(app, ["archive", "import", "--db", str(here / "a.sqlite"), "-q",
                               str(puzzles), CLUB[0]])
    assert done.exit_code == 0, done.output
    return here


def test_the_page_hides_the_solution_and_the_api_judges_a_move(folder: Path) -> None:
    with TestClient(create_app(str(folder / "a.sqlite"))) as client:
        page = client.get("/board?puzzle=1")
        assert page.status_code == 200
        assert f"<strong>Puzzle #1:</strong> {TASK} Play your move on the board." in page.text
        shown = html.unescape(page.text)
        assert START in shown and "c6xa5" not in shown
        assert '<script src="/static/board-puzzle.js" defer></script>' in page.text
        position = shown.split('id="board-text"', 1)[1].split(">", 1)[1].split("</", 1)[0]
        assert position.endswith("\n\n*\n")

        def tried(move: str | None, reveal: bool = False) -> dict[str, object]:
            text = position.replace("\n\n*\n", f"\n\n{move} *\n" if move else "\n\n*\n")
            answer = client.post("/api/puzzle", json={"id": 1, "text": text,
                                                      "reveal": reveal})
            assert answer.status_code == 200, answer.text
            found: dict[str, object] = answer.json()
            return found

        assert tried("1... c4xa5") == {"solved": False, "move": "c4xa5"}
        assert tried("1... c6xa5") == {"solved": True, "move": "c6xa5", "solution": SOLUTION}
        assert tried(None, reveal=True) == {"solved": False, "move": None,
                                            "solution": SOLUTION}
        no_move = client.post("/api/puzzle", json={"id": 1, "text": position})
        assert no_move.status_code == 400
        for gid, message in ((2, "game #2 is no puzzle: a puzzle has a Setup and its "
                                 "solution (zrec puzzles makes them)"),
                             (99, "there is no game #99")):
            missing = client.post("/api/puzzle", json={"id": gid, "text": position})
            assert missing.status_code == 404
            assert missing.json()["error"]["message"] == message
            assert client.get(f"/board?puzzle={gid}").status_code == 404
        # a record longer than any puzzle's is refused unread, in words
        long = position.replace("\n\n*\n", "\n\n{" + "x" * PUZZLE_TEXT + "} *\n")
        refused = client.post("/api/puzzle", json={"id": 1, "text": long})
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"] == {
            "code": "bad-request",
            "message": "body.text: String should have at most 16384 characters",
        }


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    yield from login.watched(browser)


def test_a_person_solves_the_puzzle_on_the_board(folder: Path, page: Page,
                                                  shots: Path) -> None:
    with served(folder, "a.sqlite") as url:
        page.goto(url + "/board?puzzle=1")
        board.settle(page)
        assert page.inner_text("#board-turn") == "Black to move (move 1...)"
        page.fill("#board-typed-move", "c4xa5")
        page.click("#board-typed button[type=submit]")
        page.wait_for_selector("#board-puzzle-said:has-text('not the move')")
        assert page.inner_text("#board-puzzle-said") == (
            "c4xa5 is not the move: Undo last move, and try again.")
        page.click("#board-undo")
        board.settle(page)
        page.fill("#board-typed-move", "c6xa5")
        page.click("#board-typed button[type=submit]")
        page.wait_for_selector("#board-puzzle-said:has-text('Solved')")
        assert page.inner_text("#board-puzzle-said") == (
            f"Solved: c6xa5 is the move. The solution: {SOLUTION}")
        page.screenshot(path=shots / "puzzle.png", full_page=True)
