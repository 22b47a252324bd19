"""The toy game of docs/architecture.md ("Adding a game") is a complete game.

Its two files are taken from the document's blocks as written (each block starts with
the comment ``# src/zrec/rules/race/<file>``) into a ``race`` package in a temporary
folder that the registry searches (``zrec.rules.__path__``). The race then goes where
every game goes: the registry, reading and validating (a wrong move, a wrong result,
a ``Setup`` tag, a named reading), the diagram and the text, the recording board
(``board_at`` and ``POST /api/position``), and self-play. Its engine inherits
:class:`zrec.rules.defaults.BaseEngine`, so what it does not state comes from there.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import zrec.rules as registry
from zrec.notation.reader import read_game
from zrec.rules.base import GameRules

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
MARK = "# src/zrec/rules/race/"
RACE = """[Game "race"]
[Result "1-0"]

1. a1-a3 b1-b2 2. a3-a5 b2-b4 3. a5-a6 1-0
"""


def doc_files() -> dict[str, str]:
    """The race package's files as docs/architecture.md gives them: name -> text."""
    blocks = re.findall(r"```python\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.S)
    return {b.split("\n", 1)[0][len(MARK):]: b + "\n" for b in blocks if b.startswith(MARK)}


def _forget() -> None:
    for cached in (registry.usual_names, registry._load, registry.all_games, registry._names):
        cached.cache_clear()


@pytest.fixture(scope="module")
def race(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GameRules]:
    """The race, found by the registry in a package written from the document."""
    folder = tmp_path_factory.mktemp("rules")
    (folder / "race").mkdir()
    for name, text in doc_files().items():
        (folder / "race" / name).write_text(text, encoding="utf-8")
    registry.__path__.append(str(folder))
    _forget()
    try:
        yield registry.find_game("race")
    finally:
        registry.__path__.remove(str(folder))
        _forget()


def test_the_document_gives_the_package_s_two_files() -> None:
    files = doc_files()
    assert sorted(files) == ["__init__.py", "rules.py"]
    assert 120 <= files["rules.py"].count("\n") <= 220


def test_the_registry_finds_the_race_by_its_names(race: GameRules) -> None:
    assert race.name == "race" and race.title == "Race"
    assert registry.find_game("Toy Race") is race
    assert [g.name for g in registry.all_games()][-1] == "race"  # LISTED = 4: last
    assert race.readings["long"] == {"Longest": "3"}


def test_a_record_of_the_race_validates(race: GameRules) -> None:
    from zrec.check.validate import validate_game

    report = validate_game(read_game(RACE))
    assert report.valid and report.diagnostics == [] and report.plies == 5


def test_a_wrong_move_and_a_wrong_result_are_reported(race: GameRules) -> None:
    from zrec.check.validate import validate_game

    report = validate_game(read_game('[Game "race"]\n\n1. a1-a4 b1-b2 *\n'))
    assert [(d.code, d.message) for d in report.diagnostics] == [
        ("illegal-move", "move 1 (White): a1-a4 is illegal: a runner moves 1 to 2 squares "
         "up its own file; legal moves: a1-a2, a1-a3"),
    ]
    long = validate_game(read_game('[Game "race"]\n[Reading "long"]\n\n1. a1-a4 *\n'))
    assert long.valid and long.plies == 1
    wrong = validate_game(read_game(RACE.replace("1-0", "0-1")))
    assert [(d.code, d.message) for d in wrong.diagnostics] == [
        ("wrong-result", "the result is 0-1 but White reached square 6 (1-0)"),
    ]


def test_a_setup_tag_is_read_and_written_both_ways(race: GameRules) -> None:
    from zrec.check.validate import validate_game
    from zrec.play.replay import prepare

    text = '[Game "race"]\n[Setup "3 1 b"]\n\n1... b1-b3 2. a3-a5 *\n'
    assert validate_game(read_game(text)).valid
    replay = prepare(read_game(text))
    assert replay.engine.setup_text(replay.start) == "3 1 b"
    assert str(replay.engine.move_number(replay.start)) == "1..."
    bad = validate_game(read_game('[Game "race"]\n[Setup "3 9 b"]\n\n*\n'))
    assert [d.message for d in bad.diagnostics] == [
        '[Setup "3 9 b"] is not a position of Race: it needs two squares from 1 to 6 and '
        'w or b, as "3 1 b"'
    ]


def test_the_race_is_drawn_and_written_out(race: GameRules) -> None:
    from zrec.play.replay import prepare
    from zrec.render.diagram import diagram

    replay = prepare(read_game(RACE))
    engine, start = replay.engine, replay.start
    svg = diagram(engine, start)
    assert svg.count('class="square') == 12
    assert 'data-square="a1"' in svg and 'data-square="b1"' in svg
    assert engine.render(start) == "White: a1\nBlack: b1\nWhite to move"
    assert engine.standing(start) == "White 1 piece, Black 1"
    assert engine.material(start) == (1, 1) and engine.chance(start) is None


def test_the_recording_board_plays_the_race(race: GameRules) -> None:
    from zrec.play.board import board_at

    game = read_game(RACE)
    board = board_at(game, 2)
    assert (board.number, board.to_move, board.outcome) == ("2.", "White", None)
    assert board.legal == (("a3-a4", ("a3", "a4")), ("a3-a5", ("a3", "a5")))
    assert [c for c, _ in board.choices.options] == ["a3"]
    chosen = board_at(game, 2, clicks=["a3"])
    assert [c for c, _ in chosen.choices.options] == ["a4", "a5"]
    assert board_at(game, 2, clicks=["a3", "a5"]).choices.move == "a3-a5"
    end = board_at(game)
    assert end.outcome == ("1-0", "normal", "White reached square 6")
    assert end.legal == () and end.to_move is None


def test_the_board_page_and_its_api_answer_for_the_race(race: GameRules, tmp_path: Path) -> None:
    """``POST /api/position`` as its worker answers it (the server's workers are
    processes of their own, which find the games installed, not this test's folder),
    and ``GET /board``, the page, from the server itself."""
    from fastapi.testclient import TestClient

    from zrec.serve import create_app
    from zrec.serve.board import position_json

    state = position_json(RACE.encode("utf-8"), 1, None, "b1")
    assert (state["game"], state["number"], state["to_move"]) == ("race", "1...", "Black")
    assert state["choices"]["options"] == [
        {"click": "b2", "label": "b2"}, {"click": "b3", "label": "b3"}]
    assert 'data-square="a3"' in state["view"]
    from zrec.archive import Archive

    db = str(tmp_path / "race.sqlite")
    Archive.open(db, create=True).close()
    with TestClient(create_app(db)) as client:
        page = client.get("/board", params={"game": "race"})
    assert page.status_code == 200, page.text
    assert '<option value="race"' in page.text and "Longest" in page.text


def test_self_play_runs_the_race_home(race: GameRules) -> None:
    from zrec.play.selfplay import random_game

    results = {random_game(race, {}, random.Random(seed)).result for seed in range(20)}
    assert results == {"1-0", "0-1"}


def test_an_engine_that_leaves_out_a_method_cannot_be_made() -> None:
    from zrec.rules.defaults import BaseEngine

    class Partial(BaseEngine[int, int]):
        title = "Partial"
        seats = ("One",)

    with pytest.raises(TypeError, match="abstract method") as caught:
        Partial()  # type: ignore[abstract]
    named = re.findall(r"[a-z_]+", str(caught.value).split("abstract method", 1)[1])
    assert sorted(set(named) - {"s"}) == [
        "apply", "key", "legal_moves", "move_number", "outcome", "routes", "setup_text",
        "spell", "start", "to_move", "view",
    ]
