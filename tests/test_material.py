"""``Engine.material``: the pieces each seat has, counted fast, always the same as the
pieces the engine draws for the seat (the archive's material search relies on it)."""

from __future__ import annotations

import pytest

from zrec.play import positions, prepare
from zrec.play.selfplay import random_games
from zrec.rules import find_game


@pytest.mark.parametrize("name", ["mosona", "kolowis", "stone-warriors", "awethi"])
def test_material_counts_the_pieces_the_view_draws(name: str) -> None:
    checked = 0
    for game in random_games(find_game(name), {}, 8, 11):
        replay = prepare(game)
        engine = replay.engine
        for pos in [replay.start, *(step.after for step in positions(replay, game.line))]:
            drawn = [0] * len(engine.seats)
            for piece in engine.view(pos).pieces:
                if piece.owner is not None:
                    drawn[piece.owner] += piece.count
            assert engine.material(pos) == tuple(drawn)
            checked += 1
    assert checked > 8


def test_material_at_the_start_of_mosona() -> None:
    replay = prepare(next(iter(random_games(find_game("mosona"), {}, 1, 1))))
    assert replay.engine.material(replay.start) == (12, 12)
