"""``POST /api/reply``, a study player's move for the recording board, against the real
application (FastAPI's TestClient): the exact move of a seeded request (alphabeta:1
takes the double capture of a hand-made Mosona position; Awéthi's dice rolled from the
seed, or as given), answered in the notation that ``POST /api/edit`` plays; refusals in
words; and the bounds on what a request costs (the budget's cap, the search's time,
searches at once).  Nobody is logged in: asking for a move is reading."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from zrec.archive import Archive
from zrec.notation.writer import write_game
from zrec.play.selfplay import random_game
from zrec.research.players import SEARCHERS
from zrec.rules import all_games
from zrec.serve import board_player, create_app

ROOT = Path(__file__).resolve().parents[1]
AWETHI = (ROOT / "samples" / "awethi.zrec").read_text(encoding="utf-8")
STONE = '[Game "stone-warriors"]\n[Result "*"]\n\n*\n'
#: White to move on b5: it takes one piece (b5xb3) or two (b5xb7xb9)
CHOICE = '[Game "mosona"]\n[Setup "8/3BWB1B1/8 w"]\n[Result "*"]\n\n*\n'


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = str(tmp_path_factory.mktemp("reply") / "a.sqlite")
    Archive.open(db, create=True).close()  # (an empty archive: the board's page reads one)
    with TestClient(create_app(db)) as c:
        yield c


def reply(client: TestClient, text: str, player: str, status: int = 200, **args: Any) -> Any:
    answer = client.post("/api/reply", json={"text": text, "player": player, **args})
    assert answer.status_code == status, answer.text
    return answer.json()


@pytest.mark.parametrize("seed", [None, 0, 1, 2, 3])
def test_alphabeta_takes_the_double_capture(client: TestClient, seed: int | None) -> None:
    assert reply(client, CHOICE, "alphabeta:1", seed=seed) == {
        "move": "b5xb7xb9", "at": 0, "seat": "White", "player": "alphabeta:1", "roll": None}


def test_the_same_seed_gives_the_same_move(client: TestClient) -> None:
    # random takes either capture, as its seed draws (so the position has a choice)
    assert [reply(client, CHOICE, "random", seed=s)["move"] for s in (1, 2, 2, 1)] == [
        "b5xb7xb9", "b5xb3", "b5xb3", "b5xb7xb9"]
    first = reply(client, STONE, "MCTS:30", seed=7)
    assert first == {"move": "e1-e2", "at": 0, "seat": "White", "player": "mcts:30",
                     "roll": None}
    assert reply(client, STONE, "mcts:30", seed=7) == first
    assert reply(client, CHOICE, "mcts", seed=0)["player"] == "mcts:200"  # (its default)


def test_the_dice_of_the_players_turn_are_rolled_from_the_seed(client: TestClient) -> None:
    answer = reply(client, AWETHI, "mcts:20", seed=7, at=1)
    assert answer == {"move": "2334e: a1-a2-a3, a1-a2-b2-b3, a1-a2-b2-c2, a1-a2-b2-b1-c1",
                      "at": 1, "seat": "Shepherd1", "player": "mcts:20", "roll": [2, 3, 3, 4]}
    assert reply(client, AWETHI, "mcts:20", seed=7, at=1) == answer
    # the board plays the move answered, its roll written in it
    played = client.post("/api/edit", json={"text": AWETHI, "at": 1, "op": "play",
                                            "move": answer["move"]})
    assert played.status_code == 200, played.text
    assert "(1... 2334e: a1-a2-a3, a1-a2-b2-b3, a1-a2-b2-c2, a1-a2-b2-b1-c1)" in (
        played.json()["text"].replace("\n", " "))  # (a variation: the record goes on)
    assert played.json()["at"] == 3
    # dice read off real ones are used as given
    given = reply(client, AWETHI, "random", seed=7, at=1, roll="1234")
    assert (given["roll"], given["move"]) == (
        [1, 2, 3, 4], "1234s: a1-b1-b2, a1-b1-c1, a1-a2-a3, a1")


def test_without_a_seed_the_server_rolls(client: TestClient) -> None:
    answer = reply(client, AWETHI, "random", at=0)
    (rolled,) = answer["roll"]
    herd = client.post("/api/position", params={"at": 0, "roll": str(rolled), "view": "false"},
                       content=AWETHI.encode()).json()
    assert [m["move"] for m in herd["legal"]] == [answer["move"]] == [f"{rolled}: H"]


@pytest.mark.parametrize(("text", "player", "args", "status", "code", "message"), [
    (CHOICE, "minimax", {}, 400, "bad-player",
     "the player is random, greedy, mcts[:playouts[:moves]], alphabeta[:depth], not "
     "'minimax'"),
    (CHOICE, "mcts:0", {}, 400, "bad-player",
     "player mcts:0: the budget of mcts (playouts) is a whole number at least 1, not '0'"),
    (CHOICE, "mcts:1001", {}, 400, "bad-player",
     "player mcts:1001: over the web, mcts searches with a budget of at most 1000 "
     "(playouts); zrec play takes more"),
    (CHOICE, "mcts:1001:4", {}, 400, "bad-player",
     "player mcts:1001:4: over the web, mcts searches with a budget of at most 1000 "
     "(playouts); zrec play takes more"),
    (CHOICE, "mcts:5:101", {}, 400, "bad-player",
     "player mcts:5:101: over the web, a playout of mcts is at most 100 moves; zrec play "
     "takes more"),
    (CHOICE, "mcts:5:99999999999999999999", {}, 400, "bad-player",
     "player mcts:5:99999999999999999999: over the web, a playout of mcts is at most 100 "
     "moves; zrec play takes more"),
    (CHOICE, "alphabeta:7", {}, 400, "bad-player",
     "player alphabeta:7: over the web, alphabeta searches with a budget of at most 6 "
     "(depth); zrec play takes more"),
    (AWETHI, "alphabeta", {"at": 0}, 400, "player-refuses",
     "alphabeta plays two-seat games only; this Awéthi game has 3 seats"),
    (AWETHI, "random", {}, 400, "game-over",
     "the game is over after node 92: no move is left to play"),
    (AWETHI, "random", {"at": 93}, 400, "bad-node",
     "the record has 92 moves, variations included: the node must be 0 to 92, not 93"),
    (AWETHI, "random", {"at": 0, "roll": "9"}, 400, "bad-roll",
     "die 1 of the roll 9 shows 9: a d4 shows 1 to 4"),
    (CHOICE, "random", {"roll": "1"}, 400, "bad-roll",
     "the turn after node 0 rolls no dice: give no roll"),
    ('[Game "mosona"]\n\n1. b6-b4 *\n', "random", {}, 422, "invalid-record",
     "line 3, column 4: error[illegal-move], ply 1: move 1 (White): b6-b4 is illegal: "
     "b6 and b4 are not joined by a line; legal moves: a4-b5, a5-b5, b6-b5"),
])
def test_what_the_server_refuses(client: TestClient, text: str, player: str, args: Any,
                                 status: int, code: str, message: str) -> None:
    error = reply(client, text, player, status, **args)["error"]
    assert (error["code"], error["message"]) == (code, message)


def test_every_search_player_has_a_cap() -> None:
    assert set(board_player.WEB_BUDGETS) == set(SEARCHERS)


def test_a_search_is_stopped_at_its_time(client: TestClient,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(board_player, "SEARCH_SECONDS", 0.0)
    error = reply(client, STONE, "mcts:1000", 422, seed=1)["error"]
    assert error == {"code": "search-too-long", "message": (
        "mcts:1000 searched for more than 0 s, the most the server searches for one "
        "move: ask for a smaller budget")}


def test_searches_at_once_are_bounded(client: TestClient) -> None:
    held = [board_player._searching.acquire(blocking=False)
            for _ in range(board_player.AT_ONCE)]
    try:
        assert held == [True, True]
        error = reply(client, CHOICE, "random", 503)["error"]
        assert error == {"code": "busy", "message": "the server is already searching 2 "
                         "moves for other requests: ask again in a moment"}
    finally:
        for _ in held:
            board_player._searching.release()
    assert reply(client, CHOICE, "random", seed=1)["move"] == "b5xb7xb9"


def test_the_board_page_offers_the_players(client: TestClient) -> None:
    page = client.get("/board").text
    assert ('<datalist id="board-opponents"><option value="mcts:50"><option '
            'value="alphabeta:3"><option value="random"><option value="greedy"></datalist>'
            ) in page
    assert ('title="random, greedy, mcts[:playouts[:moves]], alphabeta[:depth] (mcts at most 1000 '
            'playouts, alphabeta at most 6 depth)"') in page
    assert '<script src="/static/board-player.js" defer></script>' in page
    script = client.get("/static/board-player.js").text
    assert "innerHTML" not in script and "eval(" not in script
    assert set(client.get("/openapi.json").json()["paths"]["/api/reply"]) == {"post"}


@pytest.mark.parametrize("player", ["random", "greedy", "mcts:3", "alphabeta:2"])
@pytest.mark.parametrize("game", [rules.name for rules in all_games()])
def test_every_player_moves_in_every_game_or_says_why(client: TestClient, game: str,
                                                      player: str) -> None:
    rules = next(r for r in all_games() if r.name == game)
    text = write_game(random_game(rules, {}, random.Random(3), max_plies=0))
    answer = client.post("/api/reply", json={"text": text, "player": player, "seed": 3})
    if answer.status_code == 400:  # (alphabeta: two seats and no dice only)
        assert answer.json()["error"]["code"] == "player-refuses", answer.text
        assert player.startswith("alphabeta")
        return
    assert answer.status_code == 200, answer.text
    played = client.post("/api/edit", json={"text": text, "at": 0, "op": "play",
                                            "move": answer.json()["move"]})
    assert (played.status_code, played.json()["at"]) == (200, 1), played.text


def test_the_guides_example_is_what_the_server_answers(client: TestClient) -> None:
    guide = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    section = guide.split("### `POST /api/reply`")[1].split("\n### ")[0]
    sent, shown = (block.split("\n```")[0] for block in section.split("```json\n")[1:3])
    answer = client.post("/api/reply", json=json.loads(sent))
    assert answer.json() == json.loads(shown)
