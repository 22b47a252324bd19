"""The search players of ``zrec study``: alphabeta on hand-worked Mosona positions, mcts
seeded and stronger than random, Awéthi with mcts, ``--player NAME[:budget]``."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from typer.testing import CliRunner

from zrec.cli import app
from zrec.research.alphabeta import WIN, alphabeta_move, scored
from zrec.research.mcts import evaluation, mcts_move, playout
from zrec.research.players import PlayerError, player_spec
from zrec.research.study import (
    Reading,
    StudyError,
    game_rng,
    parse_players,
    play_games,
    prepare_reading,
    seat_players,
)
from zrec.rules import find_game
from zrec.rules.serpent.rules import MOSONA

runner = CliRunner()


def spelt(engine: Any, pos: Any, move: Any) -> str:
    return str(engine.spell(pos, move).text())


# -- alphabeta -----------------------------------------------------------------------------


def test_depth_1_takes_the_longest_chain() -> None:
    # White b2, a6; Black b3, b5, b7, a5 (White 2 - Black 4), White to move.
    # b2xb4xb6xb8 takes three (2-1: +1), a6xa4xc5 two, a5 and b5 (2-2: 0), a6xc7 one,
    # b7 (2-3: -1).  At depth 1 every value is the material after the move, exact.
    v = MOSONA.engine()
    pos = v.setup("8/1WB1B1B2/4BW2 w")
    assert sorted((value, spelt(v, pos, m)) for value, m in scored(v, pos, 1)) == [
        (-1, "a6xc7"),
        (0, "a6xa4xc5"),
        (1, "b2xb4xb6xb8"),
    ]
    for seed in range(5):
        move = alphabeta_move(v, pos, None, random.Random(seed), 1)
        assert spelt(v, pos, move) == "b2xb4xb6xb8"
    # At depth 2: after b2xb4xb6xb8 (White b8, a6; Black a5) Black's a5xa7xc8 takes
    # both White pieces, the game lost; after a6xa4xc5 Black's b3xb1 (1-2: -1); after
    # a6xc7 b3xb1 too (1-3: worse, only its bound is known).
    values = {spelt(v, pos, m): value for value, m in scored(v, pos, 2)}
    assert values["b2xb4xb6xb8"] == -(WIN - 2)
    assert values["a6xa4xc5"] == -1
    assert values["a6xc7"] < -1
    for seed in range(5):
        move = alphabeta_move(v, pos, None, random.Random(seed), 2)
        assert spelt(v, pos, move) == "a6xa4xc5"


def test_depth_2_gives_up_the_longer_chain_that_is_taken_back() -> None:
    # Black c1, c2, b1, b6; White b2, a1, a3 (Black 4 - White 3), Black to move.
    # c1xa2xa4 takes b2 and a3 (4-1: +3) but empties c1, so White's a1 jumps b1 to c1
    # and c2 to c3 (2-1: +1); b1xb3 takes b2 only (4-2: +2) and leaves White (a1, a3)
    # no capture.  Depth 1 takes two, depth 2 one.
    v = MOSONA.engine()
    pos = v.setup("BB6/BW3B3/W1W5 b")
    assert sorted((value, spelt(v, pos, m)) for value, m in scored(v, pos, 1)) == [
        (2, "b1xb3"),
        (3, "c1xa2xa4"),
    ]
    assert sorted((value, spelt(v, pos, m)) for value, m in scored(v, pos, 2)) == [
        (1, "c1xa2xa4"),
        (2, "b1xb3"),
    ]
    for seed in range(5):
        rng = random.Random(seed)
        assert spelt(v, pos, alphabeta_move(v, pos, None, rng, 1)) == "c1xa2xa4"
        assert spelt(v, pos, alphabeta_move(v, pos, None, rng, 2)) == "b1xb3"


def test_depth_2_never_steps_next_to_a_capture() -> None:
    # White c4 alone against Black c1, b1, b3, a1, a2, a4, White to move, no capture.
    # c4-b4 is taken by b3xb5, c4-b5 by a4xc5 (White's last piece: the game is lost);
    # c4-c3 and c4-c5 cannot be jumped.  At depth 1 the four moves are alike.
    v = MOSONA.engine()
    pos = v.setup("B2W4/B1B6/BB1B4 w")
    assert {spelt(v, pos, m): value for value, m in scored(v, pos, 1)} == {
        "c4-c3": -5, "c4-b4": -5, "c4-b5": -5, "c4-c5": -5,
    }  # fmt: skip
    assert {spelt(v, pos, m): value for value, m in scored(v, pos, 2)} == {
        "c4-c3": -5, "c4-b4": -(WIN - 2), "c4-b5": -(WIN - 2), "c4-c5": -5,
    }  # fmt: skip
    seeds = range(20)
    deep = {spelt(v, pos, alphabeta_move(v, pos, None, random.Random(s), 2)) for s in seeds}
    shallow = {spelt(v, pos, alphabeta_move(v, pos, None, random.Random(s), 1)) for s in seeds}
    assert deep == {"c4-c3", "c4-c5"}
    assert shallow == {"c4-c3", "c4-b4", "c4-b5", "c4-c5"}


def test_alphabeta_refuses_awethi_in_words() -> None:
    three = runner.invoke(
        app, ["study", "-q", "--game", "awethi", "--player", "alphabeta:2", "--games", "1"]
    )
    assert three.exit_code == 2
    assert three.stderr == (
        "zrec: alphabeta plays two-seat games only; this Awéthi game has 3 seats\n"
    )
    one = runner.invoke(
        app, ["study", "-q", "--game", "awethi", "--seats", "1", "--player", "alphabeta"]
    )
    assert one.exit_code == 2
    assert one.stderr == "zrec: alphabeta plays games without dice only; Awéthi rolls dice\n"


# -- mcts ----------------------------------------------------------------------------------


def mcts_line(seed: int, playouts: int, plies: int) -> list[str]:
    v = MOSONA.engine()
    pos, rng, out = v.start(), game_rng(seed, 0), []
    for _ in range(plies):
        if v.outcome(pos) is not None:
            break
        move = mcts_move(v, pos, None, rng, playouts)
        out.append(spelt(v, pos, move))
        pos = v.apply(pos, move)[0]
    return out


def test_mcts_with_a_seed_plays_the_same_moves_twice() -> None:
    first = mcts_line(3, 30, 12)
    assert len(first) == 12
    assert mcts_line(3, 30, 12) == first
    assert mcts_line(4, 30, 12) != first  # the seed matters


@pytest.mark.parametrize(
    ("player", "wins"),
    [("mcts:10", (18, 20)), ("mcts:10:400", (16, 17))],
)
def test_mcts_beats_random_in_most_short_mosona_games(player: str, wins: tuple[int, int]) -> None:
    # playouts cut at 20 moves and scored by material win more than whole random games
    rules = find_game("mosona")
    for players, seat in (((player, "random"), 0), (("random", player), 1)):
        results = play_games(rules, Reading((("Jumps", "bent"),), players), 7, 0, 20, 300)
        assert len(results) == 20
        won = sum(1 for r in results if r.scores is not None and r.scores[seat] == 1)
        assert won == wins[seat]


def test_a_playout_cut_off_scores_each_seat_by_its_share_of_the_pieces() -> None:
    rules = find_game("mosona")
    engine = prepare_reading(rules, Reading((("Jumps", "bent"),)), game_rng(1, 0), None).engine
    pos = engine.start()
    assert playout(engine, pos, 2, random.Random(1), 0) == (0.5, 0.5)  # 12 pieces each
    assert evaluation((9, 3)) == (0.75, 0.25)
    assert evaluation((0, 0, 0)) == (1 / 3, 1 / 3, 1 / 3)
    # a playout long enough to end the game gives the game's own scores
    scores = playout(engine, pos, 2, random.Random(1), 1000)
    assert sorted(scores) == [0.0, 1.0]


# -- --player NAME[:budget] ------------------------------------------------------------------


def test_player_names_take_a_budget_and_default_one() -> None:
    assert parse_players("mcts:50,random") == ("mcts:50", "random")
    assert parse_players("MCTS") == ("mcts:200",)
    assert parse_players("alphabeta") == ("alphabeta:3",)
    assert parse_players("alphabeta: 2 ,greedy") == ("alphabeta:2", "greedy")
    assert player_spec("random") is None
    assert parse_players("mcts:16:4,mcts:16:20,mcts:8:0") == ("mcts:16:4", "mcts:16", "mcts:8:0")
    with pytest.raises(PlayerError, match=r"second number of mcts \(moves a playout\) is a whole"):
        parse_players("mcts:16:x")
    with pytest.raises(PlayerError, match="alphabeta takes one number, its depth"):
        parse_players("alphabeta:2:3")
    with pytest.raises(PlayerError, match=r"budget of mcts \(playouts\) is a whole number"):
        parse_players("mcts:0")
    with pytest.raises(StudyError, match="--player takes random or greedy or mcts"):
        parse_players("random:3")


@pytest.mark.parametrize(
    ("player", "message"),
    [
        ("mcts:x", "zrec: --player mcts:x: the budget of mcts (playouts) is a whole number "
         "at least 1, not 'x'\n"),
        ("alphabeta:-1", "zrec: --player alphabeta:-1: the budget of alphabeta (depth) is a "
         "whole number at least 1, not '-1'\n"),
        ("minimax:2", "zrec: --player takes random or greedy or mcts[:playouts[:moves]] or "
         "alphabeta[:depth] (or one per seat, joined by commas), not 'minimax:2'\n"),
    ],
)  # fmt: skip
def test_a_bad_player_exits_2(player: str, message: str) -> None:
    result = runner.invoke(app, ["study", "-q", "--game", "mosona", "--player", player])
    assert result.exit_code == 2
    assert result.stderr == message


def test_the_study_json_names_each_seats_player_with_its_budget() -> None:
    result = runner.invoke(
        app,
        ["study", "-q", "--game", "mosona", "-O", "Jumps=bent", "--games", "2",
         "--player", "alphabeta:1,mcts:5", "--player", "random", "--format", "json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [d["players"] for d in data] == [
        {"White": "alphabeta:1", "Black": "mcts:5"},
        {"White": "random", "Black": "random"},
    ]


def test_a_three_seat_awethi_game_with_mcts_plays_to_the_end_legally() -> None:
    # Shepherd1 searches (3 playouts a move), Shepherd2 and the Wolves play at random;
    # every move the engine's reader takes back from its written form, dice included.
    rules = find_game("awethi")
    rng = game_rng(2, 0)
    replay = prepare_reading(rules, Reading((), ("mcts:3", "random", "random")), rng, 2)
    engine = replay.engine
    assert engine.seats == ("Shepherd1", "Shepherd2", "Wolves")
    players = seat_players(engine, ("mcts:3", "random", "random"))
    pos, searched, plies = replay.start, 0, 0
    while engine.outcome(pos) is None:
        assert plies < 1000
        seat = engine.move_number(pos).seat
        chance = engine.chance(pos)
        roll = chance.roll(rng) if chance is not None else None
        move = players[seat](engine, pos, roll, rng)
        read = engine.resolve(pos, engine.spell(pos, move)).move
        after = engine.apply(pos, move)[0]
        assert engine.key(engine.apply(pos, read)[0]) == engine.key(after)
        searched += seat == 0
        plies += 1
        pos = after
    outcome = engine.outcome(pos)
    assert outcome is not None and outcome.termination == "herd-gone"
    assert (plies, searched, outcome.result) == (244, 104, "0-0-1")  # this seed's game


def test_search_games_do_not_depend_on_how_the_games_are_cut_in_pieces() -> None:
    # each game has its own generator: games 0-3 at once or as 0-1 and 2-3 are the same
    rules = find_game("mosona")
    reading = Reading((("Jumps", "bent"),), ("mcts:4", "alphabeta:1"))
    whole = play_games(rules, reading, 5, 0, 4, 300)
    assert (
        play_games(rules, reading, 5, 0, 2, 300) + play_games(rules, reading, 5, 2, 4, 300)
        == whole
    )
    assert len({r.plies for r in whole}) > 1  # four different games


def test_a_budget_is_written_in_ascii_digits() -> None:
    from typer.testing import CliRunner

    from zrec.cli import app

    result = CliRunner().invoke(app, ["study", "--game", "mosona", "--games", "2",
                                      "--player", "mcts:²", "-q"])
    assert result.exit_code == 2 and "Traceback" not in result.stderr
