"""The recording board's API against the real application (FastAPI's TestClient):
``POST /api/position`` (the state at a node: whose turn, the dice, legal moves with
their clicks, the choices after some clicks, the outcome), ``POST /api/edit``,
``GET /api/roll`` and ``POST /api/json``; and the round trip the issue asks for: every
record of samples/ rebuilt from an empty one by the clicks the API offers and its
edits comes out byte for byte as ``zrec fmt`` writes it, and so do random games."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zrec.notation.model import Game, Line, MoveNode
from zrec.notation.reader import read_game, read_games
from zrec.notation.writer import write_game
from zrec.play.editing import _before
from zrec.play.places import Place, line_at, node_of, places
from zrec.play.replay import prepare
from zrec.play.selfplay import random_game
from zrec.rules import all_games
from zrec.serve import create_app

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
LINED = (SAMPLES / "mosona-lined.zrec").read_text(encoding="utf-8")
#: a Kolowis game with bent jumps, two plies in: White's a6 reaches a6 again over
#: c7 and b7 jumping c6 or b8 at the second step (found among random games)
KOLOWIS = """[Game "kolowis"]
[Result "*"]
[Jumps "bent"]

1. a7xb9xb8xc8xb9 c10xc9xb10xb9xb8 *
"""
SMALL = """[Game "mosona"]
[Result "*"]

1. b6-b5 b4xb6 2. b7xb5 *
"""


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("board") / "board.sqlite"
    subprocess.run([sys.executable, "-m", "zrec", "archive", "import", "-q", "--db", str(db),
                    str(SAMPLES / "culin-opening.zrec")], check=True, capture_output=True,
                   timeout=120)
    with TestClient(create_app(str(db))) as c:
        yield c


def position(client: TestClient, text: str, status: int = 200, **query: Any) -> Any:
    answer = client.post("/api/position", params=query, content=text.encode("utf-8"))
    assert answer.status_code == status, answer.text
    return answer.json()


def edited(client: TestClient, text: str, at: int, op: str, status: int = 200,
           **args: Any) -> Any:
    answer = client.post("/api/edit", json={"text": text, "at": at, "op": op, **args})
    assert answer.status_code == status, answer.text
    return answer.json()


def offered(state: Any) -> list[str]:
    return [o["click"] for o in state["choices"]["options"]]


# -- positions -----------------------------------------------------------------------------


def test_a_mosona_record_at_its_start_and_in_a_variation(client: TestClient) -> None:
    state = position(client, LINED, at=0)
    assert state["view"].startswith('<svg class="zrec-diagram"')
    del state["view"]
    assert state == {
        "game": "mosona", "title": "Awithlaknannai Mosona", "seats": ["White", "Black"],
        "at": 0, "number": "1.", "to_move": "White", "roll": None,
        "legal": [{"move": "a4-b5", "clicks": ["a4", "b5"]},
                  {"move": "a5-b5", "clicks": ["a5", "b5"]},
                  {"move": "b6-b5", "clicks": ["b6", "b5"]}],
        "listed": True,
        "choices": {"clicks": [], "options": [{"click": "a4", "label": "a4"},
                                              {"click": "a5", "label": "a5"},
                                              {"click": "b6", "label": "b6"}],
                    "move": None, "prompt": "", "stands": None},
        "outcome": None,
    }
    after_one = position(client, LINED, at=0, clicks="a5")["choices"]
    assert after_one == {"clicks": ["a5"], "options": [{"click": "b5", "label": "b5"}],
                         "move": None, "prompt": "", "stands": None}
    done = position(client, LINED, at=0, clicks="a5,b5", view="false")
    assert (done["view"], done["choices"]["move"], offered(done)) == (None, "a5-b5", [])
    # node 1: the main line's 1. b6-b5; node 2: the variation's 1. a4-b5
    assert [(s["number"], s["to_move"], s["legal"]) for s in
            (position(client, LINED, at=n) for n in (1, 2))] == [
        ("1...", "Black", [{"move": "b4xb6", "clicks": ["b4", "b6"]}]),
        ("1...", "Black", [{"move": "c5xa4", "clicks": ["c5", "a4"]}]),
    ]


def test_the_end_of_a_finished_record(client: TestClient) -> None:
    state = position(client, LINED)
    assert (state["at"], state["to_move"], state["number"], state["legal"]) == (
        50, None, None, [])
    assert state["outcome"] == {"result": "0-1", "termination": "normal",
                                "reason": "White has no pieces left, so Black wins"}
    assert state["choices"]["prompt"] == "the game is over"


def test_a_record_ended_off_the_board_says_how(client: TestClient) -> None:
    text = SMALL.replace('[Result "*"]', '[Result "0-1"]\n[Termination "resignation"]')
    state = position(client, text.replace("2. b7xb5 *", "2. b7xb5 0-1"))
    assert state["to_move"] is None
    assert state["outcome"]["result"] == "0-1"
    assert state["outcome"]["termination"] == "resignation"
    assert state["outcome"]["reason"].startswith("White resigned (")


def test_the_jumped_piece_chooses_between_two_kolowis_chains(client: TestClient) -> None:
    state = position(client, KOLOWIS)
    chains = {m["move"]: m["clicks"] for m in state["legal"] if m["move"].endswith("b7xa6")}
    assert chains == {
        "a6xa7xb7xa6": ["a6", "a7", "b7", "a6"],
        "a6xa7xc7xb7xa6": ["a6", "a7", "c7", "b7", "a6"],
        "a6xc7x(c6)b7xa6": ["a6", "c7", "c6", "b7", "a6"],
        "a6xc7x(b8)b7xa6": ["a6", "c7", "b8", "b7", "a6"],
    }
    after = position(client, KOLOWIS, clicks="a6,c7", view="false")
    # c6 and b8: the pieces a chain to b7 may jump; b7: where the other chains land
    assert offered(after) == ["c6", "b7", "b8", "a7", "a8", "c8", "b9"]
    assert offered(position(client, KOLOWIS, clicks="a6,c7,b8", view="false")) == ["b7"]
    chosen = position(client, KOLOWIS, clicks="a6,c7,b8,b7", view="false")
    assert (offered(chosen), chosen["choices"]["move"]) == (["a6"], None)
    last = position(client, KOLOWIS, clicks="a6,c7,b8,b7,a6", view="false")
    assert last["choices"]["move"] == "a6xc7x(b8)b7xa6"


def test_a_priest_enters_by_a_click_on_its_home_arm(client: TestClient) -> None:
    text = (SAMPLES / "stone-warriors.zrec").read_text(encoding="utf-8")
    state = position(client, text, at=56)  # after 28... h9-g9xg10, White's first loss
    assert (state["to_move"], state["number"]) == ("White", None)
    assert state["legal"] == [{"move": f"P@{c}1", "clicks": [f"{c}1"]} for c in "efghij"]


def test_a_huff_is_one_click_and_is_written_without_a_number(client: TestClient) -> None:
    text = '[Game "mosona"]\n[Result "*"]\n[Captures "huff"]\n\n1. b6-b5 c5-b6 *\n'
    state = position(client, text, view="false")
    assert (state["to_move"], state["number"]) == ("White", None)
    assert state["legal"] == [{"move": "b4", "clicks": ["b4"]}]
    assert position(client, text, clicks="b4", view="false")["choices"]["move"] == "b4"
    huffed = edited(client, text, 2, "play", move="b4")
    assert huffed["text"].endswith("1. b6-b5 c5-b6 b4 *\n")
    played = edited(client, huffed["text"], 3, "play", move="a6xc5")
    assert played["text"].endswith("1. b6-b5 c5-b6 b4 2. a6xc5 *\n")


def test_a_pass_has_no_clicks(client: TestClient) -> None:
    text = (SAMPLES / "stone-warriors-culin.zrec").read_text(encoding="utf-8")
    state = position(client, text, at=152)  # after 76. h9-g10: Black cannot move
    assert (state["number"], state["legal"]) == ("76...", [{"move": "--", "clicks": []}])
    assert state["choices"] == {"clicks": [], "options": [], "move": "--", "prompt": "",
                                "stands": None}


def test_the_herd_turn_needs_its_roll(client: TestClient) -> None:
    text = (SAMPLES / "awethi.zrec").read_text(encoding="utf-8")
    waiting = position(client, text, at=0)
    assert (waiting["roll"], waiting["legal"], waiting["choices"]["prompt"]) == (
        {"dice": "d4", "faces": [4], "given": None}, [], "the roll of d4")
    rolled = position(client, text, at=0, roll="3")
    assert rolled["roll"] == {"dice": "d4", "faces": [4], "given": [3]}
    assert rolled["legal"] == [{"move": "3: H", "clicks": []}]
    assert rolled["choices"]["move"] == "3: H"
    shepherds = position(client, text, at=1)
    assert shepherds["roll"] == {"dice": "4×d4", "faces": [4, 4, 4, 4], "given": None}


def test_the_shepherds_turn_is_not_listed_but_built_by_choices(client: TestClient) -> None:
    text = (SAMPLES / "awethi.zrec").read_text(encoding="utf-8")
    split = position(client, text, at=1, roll="1234", view="false")
    assert (split["listed"], split["legal"]) == (False, [])
    assert split["choices"] == {
        "clicks": [],
        "options": [{"click": "=e", "label": "one die each: 1, 2, 3, 4"},
                    {"click": "=s", "label": "the sum divided: 2 each"}],
        "move": None,
        "prompt": "Shepherd1's shepherds' turn, 1234: one die each (e) or the sum divided (s)?",
        "stands": None,
    }
    path = position(client, text, at=1, roll="1234", clicks="=e", view="false")["choices"]
    assert (path["options"], path["prompt"]) == (
        [{"click": "a1", "label": "a1"}], "path 1 of 4 (die 1): click a shepherd to move")


def test_a_wolf_turn_by_its_path(client: TestClient) -> None:
    text = (SAMPLES / "awethi.zrec").read_text(encoding="utf-8")
    game = read_game(text)
    # 11. 2: H 1311s: d2-e2, c3-d3, e6-e5, e1-f1 15: m13-l13-k13-k14-j14-i14
    wolf = next(i for i, node in enumerate(game.line.moves, 1)
                if node.turn.text() == "15: m13-l13-k13-k14-j14-i14")
    state = position(client, text, at=wolf - 1, roll="15", view="false")
    assert state["to_move"] == "Wolves"
    assert {"move": "15: m13-l13-k13-k14-j14-i14",
            "clicks": ["m13", "l13", "k13", "k14", "j14", "i14"]} in state["legal"]
    assert offered(state) == ["m13"]


@pytest.mark.parametrize(("query", "code", "message"), [
    ({"at": 51}, "bad-node",
     "the record has 50 moves, variations included: the node must be 0 to 50, not 51"),
    ({"at": 0, "roll": "3"}, "bad-roll", "the turn after node 0 rolls no dice: give no roll"),
    ({"at": 0, "clicks": "b6,b4"}, "bad-clicks",
     "the clicks b6,b4 begin no legal move after node 0"),
    ({"clicks": "b6"}, "bad-clicks", "no click can be made after node 50: the game is over"),
    ({"at": "x"}, "bad-request", "at: Input should be a valid integer, unable to parse "
     "string as an integer"),
])
def test_what_a_record_cannot_take(client: TestClient, query: Any, code: str,
                                   message: str) -> None:
    assert position(client, LINED, 400, **query) == {"error": {"code": code,
                                                               "message": message}}


def test_a_roll_the_dice_cannot_show(client: TestClient) -> None:
    text = (SAMPLES / "awethi.zrec").read_text(encoding="utf-8")
    assert position(client, text, 400, at=0, roll="12")["error"]["message"] == (
        "the roll '12' is not a die written as 1 digit (as 1234)")
    assert position(client, text, 400, at=1, roll="125")["error"] == {
        "code": "bad-roll",
        "message": "the roll '125' is not 4 dice written as 4 digits (as 1234)"}
    assert position(client, text, 400, at=1, roll="1250")["error"]["message"] == (
        "die 3 of the roll 1250 shows 5: a d4 shows 1 to 4")


def test_an_illegal_record_is_answered_with_the_validators_diagnostic(
        client: TestClient) -> None:
    bad = SMALL.replace("b4xb6", "b4-b5")
    answer = position(client, bad, 422)
    message = ("move 1 (Black): b4-b5 is illegal: b5 is not empty; legal moves: b4xb6")
    assert answer == {"error": {
        "code": "invalid-record",
        "message": f"line 4, column 10: error[illegal-move], ply 2: {message}",
        "diagnostics": [{"code": "illegal-move", "severity": "error", "file": "<stdin>",
                         "game": 1, "line": 4, "column": 10, "message": message,
                         "ply": 2, "move": "b4-b5"}],
    }}
    assert edited(client, bad, 0, "cut", 422)["error"]["code"] == "invalid-record"
    assert position(client, "", 422)["error"]["message"] == (
        "the body holds no record: send one record")


def test_the_server_rolls_dice(client: TestClient) -> None:
    rolls = [client.get("/api/roll", params={"faces": "4,4,6"}).json()["roll"]
             for _ in range(60)]
    assert all(len(r) == 3 and 1 <= r[0] <= 4 and 1 <= r[1] <= 4 and 1 <= r[2] <= 6
               for r in rolls)
    assert {r[2] for r in rolls} == {1, 2, 3, 4, 5, 6}  # (fails once in 10^4 runs)
    for faces in ("4,1", "21", "4,4,4,4,4,4,4,4,4", "x"):
        answer = client.get("/api/roll", params={"faces": faces})
        assert (answer.status_code, answer.json()["error"]["code"]) == (400, "bad-roll")


def test_a_record_as_json(client: TestClient) -> None:
    answer = client.post("/api/json", content=SMALL.encode())
    assert answer.status_code == 200
    converted = subprocess.run([sys.executable, "-m", "zrec", "convert", "--to", "json", "-"],
                               input=SMALL.encode(), capture_output=True, check=True)
    assert answer.content == converted.stdout


def test_the_board_endpoints_are_described(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"post"} == set(paths["/api/position"]) == set(paths["/api/edit"]) == set(
        paths["/api/json"])
    assert set(paths["/api/roll"]) == {"get"}


# -- edits -----------------------------------------------------------------------------------

HEAD = '[Game "mosona"]\n[Result "*"]\n\n'


@pytest.mark.parametrize(("start", "at", "op", "args", "text", "reached"), [
    (SMALL, 3, "play", {"move": "b3-b4"}, "1. b6-b5 b4xb6 2. b7xb5 b3-b4 *", 4),
    (SMALL, 1, "play", {"move": "b4xb6"}, "1. b6-b5 b4xb6 2. b7xb5 *", 2),
    (SMALL, 0, "play", {"move": "a4-b5"}, "1. b6-b5 (1. a4-b5) b4xb6 2. b7xb5 *", 2),
    ("1. b6-b5 (1. a4-b5) b4xb6 *", 0, "play", {"move": "a4-b5"},
     "1. b6-b5 (1. a4-b5) b4xb6 *", 2),
    ("1. b6-b5 (1. a4-b5) b4xb6 *", 2, "play", {"move": "c5xa4"},
     "1. b6-b5 (1. a4-b5 c5xa4) b4xb6 *", 3),
    ("1. b6-b5 (1. a4-b5 c5xa4) b4xb6 *", 3, "comment", {"comment": "  takes \n back "},
     "1. b6-b5 (1. a4-b5 c5xa4 {takes back}) b4xb6 *", 3),
    ("1. b6-b5 b4xb6 {only move} *", 2, "comment", {"comment": ""}, "1. b6-b5 b4xb6 *", 2),
    (SMALL, 0, "comment", {"comment": "Culin"}, "{Culin} 1. b6-b5 b4xb6 2. b7xb5 *", 0),
    ("*", 0, "comment", {"comment": "Culin"}, "{Culin} *", 0),
    (SMALL, 1, "nag", {"nag": "$1"}, "1. b6-b5 $1 b4xb6 2. b7xb5 *", 1),
    ("1. b6-b5 $1 b4xb6 *", 1, "nag", {"nag": "!"}, "1. b6-b5! $1 b4xb6 *", 1),
    ("1. b6-b5! $1 b4xb6 *", 1, "nag", {"nag": "$1"}, "1. b6-b5! b4xb6 *", 1),
    ("1. b6-b5! b4xb6 *", 1, "nag", {"nag": "!"}, "1. b6-b5 b4xb6 *", 1),
    ("1. b6-b5 (1. a4-b5 c5xa4 {takes back}) b4xb6 2. b7xb5 *", 3, "promote", {},
     "1. a4-b5 (1. b6-b5 b4xb6 2. b7xb5) c5xa4 {takes back} *", 5),
    ("1. b6-b5 (1. a4-b5 c5xa4) (1. a5-b5) b4xb6 *", 4, "promote", {},
     "1. a5-b5 (1. a4-b5 c5xa4) (1. b6-b5 b4xb6) *", 1),
    ("1. b6-b5 (1. a4-b5 c5xa4) b4xb6 2. b7xb5 *", 3, "cut", {},
     "1. b6-b5 (1. a4-b5) b4xb6 2. b7xb5 *", 2),
    ("1. b6-b5 (1. a4-b5 c5xa4) b4xb6 2. b7xb5 *", 2, "cut", {},
     "1. b6-b5 b4xb6 2. b7xb5 *", 0),
    (SMALL, 2, "cut", {}, "1. b6-b5 *", 1),
    # a move with alternatives: the first takes its place, keeping the others
    ("1. b6-b5 (1. a4-b5 c5xa4) b4xb6 2. b7xb5 *", 1, "cut", {},
     "1. a4-b5 c5xa4 *", 1),
    ("1. b6-b5 (1. a4-b5 c5xa4) (1. a5-b5) b4xb6 *", 1, "cut", {},
     "1. a4-b5 (1. a5-b5) c5xa4 *", 1),
])
def test_each_edit(client: TestClient, start: str, at: int, op: str, args: Any, text: str,
                   reached: int) -> None:
    begin = start if start.startswith("[") else HEAD + start + "\n"
    want = begin.split("\n\n")[0] + "\n\n" + text + "\n"
    assert edited(client, begin, at, op, **args) == {"text": want, "at": reached}


def test_tags_and_the_result(client: TestClient) -> None:
    tagged = edited(client, SMALL, 3, "tags", tags={"White": "Zuni, A.", "Result": None,
                                                    "Game": "mosona"})
    assert tagged == {"text": '[Game "mosona"]\n[White "Zuni, A."]\n\n'
                      "1. b6-b5 b4xb6 2. b7xb5 *\n", "at": 3}
    ended = edited(client, SMALL, 3, "result", result="1-0", termination="resignation")
    assert ended["text"] == ('[Game "mosona"]\n[Result "1-0"]\n[Termination "resignation"]'
                             "\n\n1. b6-b5 b4xb6 2. b7xb5 1-0\n")
    again = edited(client, ended["text"], 3, "result", result="*", termination=None)
    assert again["text"] == SMALL
    kept = edited(client, ended["text"], 3, "result", result="0-1")  # (Termination kept)
    assert '[Result "0-1"]\n[Termination "resignation"]' in kept["text"]
    # cutting the main line leaves the game unfinished
    assert edited(client, ended["text"], 3, "cut")["text"] == SMALL.replace(" 2. b7xb5", "")


@pytest.mark.parametrize(("at", "op", "args", "code", "message"), [
    (3, "play", {"move": "b6-b5"}, "illegal-move",
     "b6-b5 cannot be played after node 3: there is no Black piece on b6"),
    (3, "play", {"move": "b6-"}, "bad-move", "'b6-' is not a move in the notation (at 'b6-')"),
    (9, "play", {"move": "b3-b4"}, "bad-node",
     "the record has 3 moves, variations included: the node must be 0 to 3, not 9"),
    (0, "nag", {"nag": "$1"}, "bad-edit", "a NAG goes after a move: node 0 is the start"),
    (1, "nag", {"nag": "good"}, "bad-edit",
     "'good' is no NAG: write $0 to $255 or one of ! ? !! ?? !? ?!"),
    (1, "promote", {}, "bad-edit", "the move at node 1 is on the main line already"),
    (1, "comment", {"comment": "a } b"}, "bad-edit", "a comment cannot hold a }"),
    (1, "play", {}, "bad-edit", "the edit needs 'move' as a str"),
    (0, "tags", {"tags": {"1x": "y"}}, "bad-edit", "'1x' is not a tag name (letters, digits, _)"),
    (0, "tags", {"tags": {"Result": "1-0"}}, "bad-edit",
     "the result is set by the result edit, not as a tag"),
    (0, "tags", {"tags": {f"T{i}": "x" for i in range(65)}}, "bad-edit",
     "65 tags in one edit: at most 64"),
    (0, "tags", {"tags": {"Game": "kolowis"}}, "bad-edit",
     "after this edit the record would not be valid: line 4, column 4: error[illegal-move], "
     "ply 1: move 1 (White): b6-b5 is illegal: there is no White piece on b6; legal moves: "
     "a8-b9, a9-b9, b10-b9"),
    (3, "result", {"result": "1-0"}, "bad-edit",
     "after this edit the record would not be valid: line 4, column 19: error[wrong-result], "
     "ply 3: the result is 1-0 but the game ends by agreement and the end rule \"majority\" "
     "gives 1/2-1/2 (White 11 pieces, Black 11)"),
    (0, "result", {"result": "1-0-0"}, "bad-edit", "'1-0-0' is not * or a result of 2 sides"),
    (0, "undo", {}, "bad-edit",
     "'undo' is no edit: the edits are play, comment, nag, cut, tags, result, promote"),
])
def test_edits_a_record_cannot_take(client: TestClient, at: int, op: str, args: Any, code: str,
                                    message: str) -> None:
    answer = edited(client, SMALL, at, op, 400, **args)
    assert answer == {"error": {"code": code, "message": message}}


def test_an_edit_that_is_not_json(client: TestClient) -> None:
    answer = client.post("/api/edit", content=b"text=1", headers={"content-type": "text/plain"})
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "bad-request")


# -- the round trip: records re-entered by clicks ----------------------------------------------


class _Before:
    """The position before each move of a record, in file order."""

    def __init__(self, game: Game) -> None:
        from zrec.play.walk import Visitor, walk

        self.replay = prepare(game)
        found: list[Any] = []

        class Keep(Visitor):
            def step(self, step: Any) -> None:
                found.append(step.before)

        walk(self.replay, game.line, Keep())
        self.positions = found


def _node_at(game: Game, place: Place) -> MoveNode:
    return line_at(game.line, place).moves[place[-1]]


def rebuild(client: TestClient, game: Game) -> str:
    """The record re-entered through the API from an empty one with its tags: each move
    by the clicks the engine gives it, each click checked to be offered by the choices
    of the clicks before it, the move then played as the choices write it; comments and
    NAGs by their edits, the result last."""
    tags = tuple((k, "*" if k == "Result" else v) for k, v in game.tags if k != "Termination")
    text = write_game(Game(tags, Line(), "*"))
    before = _Before(game)
    engine = before.replay.engine
    for k, place in enumerate(places(game.line), 1):
        node = _node_at(game, place)
        pos = before.positions[k - 1]
        came = _before(place)
        at = 0 if came is None else node_of(game.line, came)
        dice = None if node.turn.dice is None else node.turn.dice.values
        roll: dict[str, Any] = {} if dice is None else {"roll": "".join(map(str, dice))}
        move = engine.resolve(pos, node.turn).move
        clicks = engine.clicks(pos, dice, move)
        for i, click in enumerate(clicks):
            state = position(client, text, at=at, clicks=",".join(clicks[:i]), view="false",
                             **roll)
            if not i and state["listed"]:  # the move is listed with these clicks
                listed = {"move": engine.spell(pos, move).text(), "clicks": list(clicks)}
                assert listed in state["legal"]
            assert click in offered(state), (k, clicks, i)
        state = position(client, text, at=at, clicks=",".join(clicks), view="false", **roll)
        written = state["choices"]["move"]
        assert written == engine.spell(pos, move).text()
        answer = edited(client, text, at, "play", move=written)
        assert answer["at"] == k
        text = answer["text"]
        if place == (0,) and node.comments_before:
            text = edited(client, text, 0, "comment", comment=node.comments_before[0].text)["text"]
        for said in node.comments_after:
            text = edited(client, text, k, "comment", comment=said.text)["text"]
        for mark in [*(f"${n}" for n in node.nags), *([node.suffix] if node.suffix else [])]:
            text = edited(client, text, k, "nag", nag=mark)["text"]
    result: dict[str, Any] = {"result": game.result}
    if game.tag("Termination") is not None:
        result["termination"] = game.tag("Termination")
    return str(edited(client, text, 0, "result", **result)["text"])


def _samples() -> list[tuple[str, int]]:
    return [(path.name, i) for path in sorted(SAMPLES.glob("*.zrec"))
            for i, _ in enumerate(read_games(path))]


@pytest.mark.parametrize(("name", "number"), _samples())
def test_every_sample_is_re_entered_by_clicks(client: TestClient, name: str,
                                              number: int) -> None:
    game = list(read_games(SAMPLES / name))[number]
    assert rebuild(client, game) == write_game(game)



@settings(max_examples=8, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from([g.name for g in all_games()]), seed=st.integers(0, 10**6))
def test_random_games_are_re_entered_by_clicks(client: TestClient, name: str,
                                               seed: int) -> None:
    rules = next(g for g in all_games() if g.name == name)
    game = random_game(rules, {}, random.Random(seed), max_plies=12)
    assert rebuild(client, game) == write_game(game)


def _doc_requests() -> list[tuple[int, str, str, str]]:
    """Each ```http block of docs/board.md with the ```json block after it: its line,
    the request line, the body and the answer shown."""
    lines = (ROOT / "docs" / "board.md").read_text(encoding="utf-8").splitlines()
    blocks: list[tuple[int, str, list[str]]] = []
    at = 0
    while at < len(lines):
        if lines[at].startswith("```") and lines[at] != "```":
            end = lines.index("```", at + 1)
            blocks.append((at + 1, lines[at][3:], lines[at + 1:end]))
            at = end
        at += 1
    found = []
    for (line, lang, body), (_, after, answer) in itertools.pairwise(blocks):
        if lang == "http":
            assert after == "json", f"docs/board.md:{line}: no answer follows"
            found.append((line, body[0], "\n".join(body[1:]), "\n".join(answer)))
    return found


@pytest.mark.parametrize(("line", "request_line", "body", "shown"), _doc_requests())
def test_the_guides_examples_are_what_the_server_answers(
        client: TestClient, line: int, request_line: str, body: str, shown: str) -> None:
    culin = write_game(read_game((SAMPLES / "culin-opening.zrec").read_text("utf-8")))
    method, target = request_line.split(" ")
    if body == "< culin.zrec":
        answer = client.request(method, target, content=culin.encode())
    else:
        sent = json.loads(body)
        if sent.get("text") == "< culin.zrec":
            sent["text"] = culin
        answer = client.request(method, target, json=sent)
    assert answer.json() == json.loads(shown), f"docs/board.md:{line}"


def test_the_guide_shows_every_endpoint() -> None:
    shown = {r.split("?")[0] for _, r, _, _ in _doc_requests()}
    assert shown == {"POST /api/position", "POST /api/edit"}


def test_a_body_over_the_limit_is_refused(tmp_path: Path) -> None:
    with TestClient(create_app(str(tmp_path / "none.sqlite"), max_body=1000)) as small:
        big = (SAMPLES / "stone-warriors.zrec").read_bytes()
        answer = small.post("/api/position", content=big)
        assert (answer.status_code, answer.json()["error"]["code"]) == (413, "too-large")
        answer = small.post("/api/edit", json={"text": big.decode(), "at": 0, "op": "cut"})
        assert (answer.status_code, answer.json()["error"]["code"]) == (413, "too-large")
        assert small.post("/api/position", content=SMALL.encode()).status_code == 200


def test_where_the_moving_piece_stands_mid_chain(client: TestClient) -> None:
    """A chain under way: the board draws the piece on its last landing, which the
    rules say (a click on a jumped piece, choosing between two chains, is none)."""
    text = ('[Game "kolowis"]\n[Jumps "bent"]\n[Result "*"]\n\n'
            "1. a7xb9xb8xc8xb9 c10xc9xb10xb9xb8 *\n")
    stands = [position(client, text, clicks=",".join(clicks), view="false")["choices"]["stands"]
              for clicks in (["a6"], ["a6", "c7"], ["a6", "c7", "b8"], ["a6", "c7", "b8", "b7"])]
    assert stands == [None, "c7", "c7", "b7"]
