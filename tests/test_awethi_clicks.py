"""Entering an Awéthi shepherds' turn on the recording board click by click
(zrec.rules.awethi.clicks): the split, each path square by square, stays and jumps back,
refused clicks, and every recorded or random turn re-entered by its clicks."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from zrec.notation.reader import read_game, read_games
from zrec.play.replay import prepare
from zrec.play.selfplay import random_games
from zrec.play.walk import positions
from zrec.rules import find_game
from zrec.rules.awethi.engine import AwethiEngine
from zrec.rules.awethi.position import SHEPHERDS_TURN, ShepherdsMove
from zrec.rules.clicking import Choice

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = next(read_games(ROOT / "samples" / "awethi.zrec"))
# Shepherd1 alone; at its fourth shepherds' turn (1341s) the shepherd on a2, moved last,
# has no path of 2 left: b1, b3, c2 hold shepherds, a3 leads only to b4 (a calf) and a4
# (a cow), a1 only to b1 and a2 itself
BLOCKED = """[Game "awethi"]
[Shepherd1 "A"]
[Wolves "B"]
[Herd1 "bwwccc"]

1. 4: H 2143s: a1-b1-c1, a1-a2-a3, a1, a1 2. 1: H 3114e: a1-a2-b1, a3-a2, c1-c2, a1
3. 4: H 4423e: b1-b2-b3-c3-d3, a2-a1-b1-b2-b3, c2-b2-a2, a1-b2-c2 4. 4: H 1341s:
b3-b2-b1, c2-b3, d3-c2, a2 *
"""
FIRST_THREE = ("=s", "b3", "b2", "b1", "c2", "b3", "d3", "c2")


def shepherds_turns(game: Any) -> Iterator[tuple[Any, Any, Any, str]]:
    """(engine, position, move, written text) of each shepherds' turn of a record's
    main line, the move as the engine reads it."""
    replay = prepare(game)
    for step in positions(replay, game.line):
        if isinstance(step.move, ShepherdsMove):
            yield replay.engine, step.before, step.move, step.node.turn.text()


def offered(engine: Any, pos: Any, roll: Any, clicks: tuple[str, ...] | list[str]) -> list[str]:
    return [c.click for c in engine.choices(pos, roll, clicks).options]


def first_turn() -> tuple[Any, Any, Any, str]:
    return next(shepherds_turns(SAMPLE))


def test_the_first_shepherds_turn_of_the_sample_click_by_click() -> None:
    engine, pos, _, text = first_turn()
    assert text == "1234e: a1-b1, a1-b2, a1-a2-a3-b3, a1-a2-a3-a4-b4"
    roll = (1, 2, 3, 4)
    assert engine.click_table(pos, roll) is None
    start = engine.choices(pos, roll, [])
    assert start.options == (
        Choice("=e", "one die each: 1, 2, 3, 4"),
        Choice("=s", "the sum divided: 2 each"),
    )
    assert (start.move, start.prompt) == (
        None,
        "Shepherd1's shepherds' turn, 1234: one die each (e) or the sum divided (s)?",
    )
    split = engine.choices(pos, roll, ["=e"])
    assert split.options == (Choice("a1", "a1"),)  # all four in the shelter
    assert split.prompt == "path 1 of 4 (die 1): click a shepherd to move"
    after_a1 = engine.choices(pos, roll, ["=e", "a1"])
    assert after_a1.options == (Choice("b1", "b1"), Choice("a2", "a2"))
    assert after_a1.prompt == "path 1 of 4 (die 1): 0 of 1"
    # the second path (die 2): b1 holds the first shepherd, so not b1; b2 diagonally
    assert offered(engine, pos, roll, ["=e", "a1", "b1", "a1"]) == ["a2", "b2"]
    # the third (die 3) from a1: only a2 (b1 and b2 are taken); then a3, or b3 diagonally
    clicks = ["=e", "a1", "b1", "a1", "b2", "a1", "a2"]
    third = engine.choices(pos, roll, clicks)
    assert ([c.click for c in third.options], third.prompt) == (
        ["a3", "b3"],
        "path 3 of 4 (die 3): 1 of 3",
    )
    # under s every path costs 10 // 4 = 2
    assert engine.choices(pos, roll, ["=s", "a1"]).prompt == "path 1 of 4 (2 each): 0 of 2"
    assert offered(engine, pos, roll, ["=s", "a1"]) == ["b1", "a2", "b2"]


def test_a_complete_entry_makes_the_move_the_engine_reads() -> None:
    engine, pos, move, text = first_turn()
    roll = move.dice
    clicks = engine.clicks(pos, roll, move)
    assert clicks == (
        "=e", "a1", "b1", "a1", "b2", "a1", "a2", "a3", "b3", "a1", "a2", "a3", "a4", "b4",
    )  # fmt: skip
    done = engine.choices(pos, roll, clicks)
    assert done.move == move
    assert done.options == ()
    assert done.prompt == f"the turn is complete: {text}"
    assert engine.spell(pos, done.move).text() == text
    assert engine.choices(pos, roll, clicks[:-1]).move is None


def blocked() -> tuple[Any, Any, Any, str]:
    return list(shepherds_turns(read_game(BLOCKED)))[-1]


def test_a_blocked_shepherd_stays_or_goes_back() -> None:
    engine, pos, move, _ = blocked()
    roll = move.dice
    stuck = engine.choices(pos, roll, [*FIRST_THREE, "a2"])
    assert stuck.options == (
        Choice("=stay", "a2: stays"),
        Choice("=back", "a2>a1: back to the shelter"),
    )
    assert stuck.prompt == (
        "path 4 of 4 (2 each): the shepherd on a2 has no path of 2: it stays or goes back"
    )
    stay = engine.choices(pos, roll, [*FIRST_THREE, "a2", "=stay"]).move
    assert stay == move
    assert engine.clicks(pos, roll, move) == (*FIRST_THREE, "a2", "=stay")
    back = engine.choices(pos, roll, [*FIRST_THREE, "a2", "=back"]).move
    assert back is not None and back.back == 0b1000
    written = engine.spell(pos, back)
    assert written.text() == "1341s: b3-b2-b1, c2-b3, d3-c2, a2>a1"
    assert engine.resolve(pos, written).move == back
    assert engine.clicks(pos, roll, back) == (*FIRST_THREE, "a2", "=back")
    # the same shepherd moved first still has paths: no stay offered then
    assert offered(engine, pos, roll, ["=s", "a2"]) == ["a1", "b1", "b2"]


def test_a_blocked_shepherd_in_its_shelter_only_stays() -> None:
    # samples/awethi.zrec, Shepherd2's first shepherds' turn: the fourth shepherd in
    # y25 has no path of 2 left (y24-y23, x24, x25-w25 taken)
    engine, pos, move, text = list(shepherds_turns(SAMPLE))[1]
    assert text == "2114s: y25-y24-y23, y25-x24, y25-x25-w25, y25"
    clicks = engine.clicks(pos, move.dice, move)
    assert clicks[-2:] == ("y25", "=stay")
    stuck = engine.choices(pos, move.dice, clicks[:-1])
    assert stuck.options == (Choice("=stay", "y25: stays"),)
    assert stuck.prompt.endswith("the shepherd on y25 has no path of 2: it stays")


def test_a_shepherd_in_water_with_no_way_out_goes_back() -> None:
    engine = prepare(read_game('[Game "awethi"]\n[Shepherd1 "A"]\n[Herd1 "cwcbwc"]\n*')).engine
    assert isinstance(engine, AwethiEngine)
    # f6 is water; f5 and e6 hold shepherds, f7 and g6 are water: no path of 1 out
    pos = engine.place({"f6": "S1", "f5": "S1", "e6": "S1", "c3": "c1"}, turn="shepherds")
    stuck = engine.choices(pos, (1, 1, 1, 1), ["=e", "f6"])
    assert stuck.options == (Choice("=back", "f6>a1: back to the shelter"),)
    assert stuck.prompt == (
        "path 1 of 4 (die 1): the shepherd on f6 stands in water with no path of 1 out of "
        "it: it goes back to its shelter"
    )


@pytest.mark.parametrize(
    ("clicks", "prompt"),
    [
        (["=x"], "click 1, =x: the turn starts with the split, =e or =s"),
        (["=s", "b2"], "click 2, b2: a path starts on the square of a shepherd not yet moved"),
        (["=s", "b3", "b2", "b4"], "click 4, b4: no path of 2 goes on from b2 to b4"),
        (
            ["=s", "b3", "b2", "b1", "b1"],
            "click 5, b1: the shepherd on b1 has already moved this turn",
        ),
        (
            ["=s", "a2", "=stay"],
            "click 3, =stay: the shepherd on a2 has a path of 2: it must take one",
        ),
        ([*FIRST_THREE, "a2", "=back", "a1"], "click 11, a1: the turn is complete"),
    ],
)
def test_a_click_no_legal_turn_allows_is_refused(clicks: list[str], prompt: str) -> None:
    engine, pos, move, _ = blocked()
    refused = engine.choices(pos, move.dice, clicks)
    assert (refused.options, refused.move, refused.prompt) == ((), None, prompt)


def recorded_and_random_turns() -> Iterator[tuple[Any, Any, Any, str]]:
    for path in sorted((ROOT / "samples").glob("awethi*.zrec")):
        for game in read_games(path):
            yield from shepherds_turns(game)
    rules = find_game("awethi")
    for seats in (1, 2, 3, 4):
        for game in random_games(rules, {}, 1, seats, max_plies=90, seats=seats):
            yield from shepherds_turns(game)


def test_every_recorded_and_random_turn_is_entered_by_its_clicks() -> None:
    """Each click of each turn is offered after the clicks before it, and all of them
    make the move the engine reads from the record (samples, random games)."""
    turns = calls = 0
    spent = 0.0
    for engine, pos, move, text in recorded_and_random_turns():
        roll = move.dice
        clicks = engine.clicks(pos, roll, move)
        began = time.perf_counter()
        for k in range(len(clicks)):
            choices = engine.choices(pos, roll, clicks[:k])
            assert clicks[k] in [c.click for c in choices.options], (text, clicks[:k])
            assert choices.move is None
        done = engine.choices(pos, roll, clicks)
        spent += time.perf_counter() - began
        calls += len(clicks) + 1
        assert done.move == move, text
        assert engine.spell(pos, done.move).text() == text
        turns += 1
    assert turns > 150
    assert spent / calls < 0.02  # seconds a call, on average (about 0.03 ms measured)


def test_every_turn_the_clicks_complete_is_legal() -> None:
    """Random clicks among those offered always finish a turn, and its written form
    reads back as the same legal move."""
    rng = random.Random(7)
    done = 0
    for engine, pos, move, _ in list(recorded_and_random_turns())[::3]:
        roll = move.dice
        clicks: list[str] = []
        while True:
            choices = engine.choices(pos, roll, clicks)
            if choices.move is not None:
                break
            assert choices.options, clicks
            clicks.append(rng.choice(choices.options).click)
        made = choices.move
        assert engine.resolve(pos, engine.spell(pos, made)).move == made
        assert engine.clicks(pos, roll, made) == tuple(clicks)
        done += 1
    assert done > 50


def test_without_a_roll_nothing_is_offered() -> None:
    engine, pos, _, _ = first_turn()
    assert pos.stage == SHEPHERDS_TURN
    table = engine.click_table(pos, None)
    assert table is not None and table.clicks() == []
    assert engine.choices(pos, None, []).options == ()
