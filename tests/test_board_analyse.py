"""``POST /api/analyse``, the recording board's "Analyse this game", against the real
application (FastAPI's TestClient): the record comes back with its analysis written in
(the planted blunder marked ``??``), as ``zrec analyse`` writes it; the player within
``/api/reply``'s web budgets; refusals in words; the bounds on what a request costs
(its time, analyses at once).  Nobody is logged in: asking for an analysis is reading,
and nothing is written."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from test_analysis import planted
from zrec.archive import Archive
from zrec.cli import app
from zrec.notation.writer import write_game
from zrec.serve import board_analyse, create_app

ROOT = Path(__file__).resolve().parents[1]
SOLO = (ROOT / "samples" / "awethi-solo.zrec").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    db = str(tmp_path_factory.mktemp("analyse") / "a.sqlite")
    Archive.open(db, create=True).close()
    with TestClient(create_app(db)) as c:
        yield c, db


def analyse(client: TestClient, text: str, status: int = 200, **args: Any) -> Any:
    answer = client.post("/api/analyse", json={"text": text, **args})
    assert answer.status_code == status, answer.text
    return answer.json()


def test_the_record_comes_back_analysed_as_zrec_analyse_writes_it(
    served: tuple[TestClient, str], tmp_path: Path
) -> None:
    client, db = served
    game, blunder = planted("mosona", {}, 1)
    text = write_game(game)
    done = analyse(client, text)
    assert (done["player"], done["seed"], done["seats"]) == ("alphabeta:4", 0, ["White", "Black"])
    assert [m["ply"] for m in done["moves"] if m["mark"]] == [blunder]
    assert [s["marks"]["??"] for s in done["summary"]] == [1, 0]
    source = tmp_path / "game.zrec"
    source.write_text(text, encoding="utf-8")
    assert done["text"] == CliRunner().invoke(app, ["analyse", str(source)]).output
    # nothing was written: the archive holds no game
    with Archive.open(db) as archive:
        assert archive.count() == 0
    # the analysed record is refused (its marks, comments and lines would be written in
    # twice), here and by zrec analyse
    again = analyse(client, done["text"], 400)
    message = (
        'the record is analysed already (Analysis alphabeta:4, seed 0): send it as it was '
        "written, without that analysis's marks, comments and lines"
    )
    assert again["error"] == {"code": "analysed-already", "message": message}
    source.write_text(done["text"], encoding="utf-8")
    refused = CliRunner().invoke(app, ["analyse", str(source)])
    assert refused.exit_code == 1
    assert refused.stderr.splitlines()[0] == (
        f"zrec: {source}: game 1: the record is analysed already (Analysis alphabeta:4, "
        "seed 0): analyse it as it was written, without that analysis's marks, comments "
        "and lines"
    )
    # another player, within the web's budgets, and another seed
    other = analyse(client, text, player="mcts:16", seed=3)
    assert (other["player"], other["seed"]) == ("mcts:16", 3)
    assert '[Analysis "mcts:16, seed 3"]' in other["text"]


@pytest.mark.parametrize(("text", "args", "status", "code", "message"), [
    ("mosona", {"player": "mcts:2000"}, 400, "bad-player",
     "player mcts:2000: over the web, mcts searches with a budget of at most 1000 "
     "(playouts); zrec play takes more"),
    ("mosona", {"player": "alphabeta:7"}, 400, "bad-player",
     "player alphabeta:7: over the web, alphabeta searches with a budget of at most 6 "
     "(depth); zrec play takes more"),
    ("mosona", {"player": "random"}, 400, "bad-player",
     "an analysis takes a search player, mcts[:playouts[:moves]] or alphabeta[:depth]; "
     "not 'random'"),
    ("solo", {"player": "alphabeta:2"}, 400, "player-refuses",
     "alphabeta plays games without dice only; Awéthi rolls dice"),
])
def test_what_the_server_refuses(served: tuple[TestClient, str], text: str, args: Any,
                                 status: int, code: str, message: str) -> None:
    record = write_game(planted("mosona", {}, 1)[0]) if text == "mosona" else SOLO
    error = analyse(served[0], record, status, **args)["error"]
    assert error == {"code": code, "message": message}


def test_an_analysis_is_stopped_at_its_time(served: tuple[TestClient, str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(board_analyse, "ANALYSE_SECONDS", 0.0)
    monkeypatch.setattr(board_analyse, "WORK_SECONDS", 0.5)
    error = analyse(served[0], SOLO, 422, player="mcts:1000")["error"]
    assert error["code"] == "over-budget"
    assert error["message"] == ("the work of this request ran past its budget of 0.5 s "
                                "and was stopped: send a smaller request")


def test_analyses_at_once_are_bounded(served: tuple[TestClient, str]) -> None:
    client, _ = served
    assert board_analyse._analysing.acquire(blocking=False)
    try:
        answer = client.post("/api/analyse", json={"text": SOLO})
        assert answer.status_code == 503
        assert answer.json()["error"] == {
            "code": "busy", "message": "the server is already analysing 1 game(s) for other "
            "requests: ask again in a moment"}
    finally:
        board_analyse._analysing.release()


def test_the_board_page_offers_the_analysis(served: tuple[TestClient, str]) -> None:
    client, _ = served
    page = client.get("/board").text
    assert ('<datalist id="board-analysers"><option value="mcts:50"><option '
            'value="alphabeta:3"></datalist>') in page
    assert '<button type="submit" id="board-analyse-start">Analyse this game</button>' in page
    assert '<script src="/static/board-analyse.js" defer></script>' in page
    script = client.get("/static/board-analyse.js").text
    assert "innerHTML" not in script and "eval(" not in script
    assert set(client.get("/openapi.json").json()["paths"]["/api/analyse"]) == {"post"}
