"""The clicks that enter each legal move on the recording board (zrec.rules.clicking)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from zrec.play.replay import prepare_rules
from zrec.rules import all_games, find_game
from zrec.rules.clicking import Choice, ClickTable, Entry


def test_a_piece_then_its_landings() -> None:
    table = ClickTable([
        Entry("A", "a1-a2", ("a1", "a2")),
        Entry("B", "a1-b1", ("a1", "b1")),
        Entry("C", "c1-c2", ("c1", "c2")),
    ])
    assert table.choices([]).options == (Choice("a1", "a1"), Choice("c1", "c1"))
    assert [c.click for c in table.choices(["a1"]).options] == ["a2", "b1"]
    assert table.choices(["a1", "b1"]).move == "B"
    assert table.choices(["a1", "c2"]).options == ()
    assert table.choices(["a1", "c2"]).move is None


def test_the_jumped_piece_chooses_where_two_jumps_land_alike() -> None:
    # Two chains by the same landings, jumping b2 or a2 first; a third that stops early.
    table = ClickTable([
        Entry("X", "a1xa3xa5 (b2)", ("a1", "a3", "a5"), ("b2", "a4")),
        Entry("Y", "a1xa3xa5 (a2)", ("a1", "a3", "a5"), ("a2", "a4")),
        Entry("Z", "a1xa3", ("a1", "a3"), ("b2",)),
    ])
    assert table.clicks() == [
        ("a1xa3xa5 (b2)", ("a1", "b2", "a3", "a5")),
        ("a1xa3xa5 (a2)", ("a1", "a2", "a3", "a5")),
        ("a1xa3", ("a1", "a3")),
    ]
    assert [c.click for c in table.choices(["a1"]).options] == ["b2", "a2", "a3"]


def test_a_pass_has_no_clicks() -> None:
    table = ClickTable([Entry("P", "--", ())])
    choices = table.choices([])
    assert (choices.options, choices.move) == ((), "P")


def _random_positions(name: str, seed: int) -> Any:
    rules = find_game(name)
    rng = random.Random(seed)
    tags = {"Game": rules.name, **rules.random_tags(None, rng)}
    for tag, spec in rules.options.items():
        tags[tag] = rng.choice(spec.values)
    replay = prepare_rules(rules, tags)
    engine, pos = replay.engine, replay.start
    for _ in range(120):
        if engine.to_move(pos) is None:
            return
        chance = engine.chance(pos)
        roll = chance.roll(rng) if chance else None
        yield engine, pos, roll
        move = engine.sample_move(pos, roll, rng)
        if move is None:
            return
        pos, _ = engine.apply(pos, move)


@pytest.mark.parametrize("name", [g.name for g in all_games()])
def test_every_listed_move_is_entered_by_its_clicks(name: str) -> None:
    """Each click of each legal move is offered after the ones before it, and the whole
    list makes that move and no other (random games, a few seeds)."""
    checked = 0
    for seed in range(3):
        for engine, pos, roll in _random_positions(name, seed):
            table = engine.click_table(pos, roll)
            if table is None:  # a turn built step by step
                continue
            legal = {engine.spell(pos, m).text() for m in engine.legal_moves(pos, roll)}
            assert {text for text, _ in table.clicks()} == legal
            for entry, clicks in table.rows[:: max(1, len(table.rows) // 4)]:
                for k in range(len(clicks)):
                    assert clicks[k] in [c.click for c in table.choices(clicks[:k]).options]
                assert table.choices(clicks).move == entry.move
                checked += 1
            entry, clicks = table.rows[-1]
            assert engine.choices(pos, roll, clicks).move == entry.move
    assert checked > 100
