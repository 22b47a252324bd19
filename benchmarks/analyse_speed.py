"""Speed of ``zrec analyse``: seconds of CPU to analyse a 60-ply game of each game, and
(``--luck``) the seats' luck over many games of equal players.

Each game is a game of two ``mcts:50`` players (:func:`zrec.research.study.play_games`,
the games of ``zrec study --player mcts:50 --seed S``), played to ``--plies`` plies
(default 60, the issue's target for a Mosona game: at most 10 s on one core) or to its
end; it is analysed in this one process by the default player of the game
(``alphabeta:4`` or ``mcts:200``) or by each ``--player``.  The time is the process's
CPU time, so the figure is per core whatever else the machine runs.

``--luck N`` analyses N random games of the dice game (two random players, cut off at
``--plies``) with ``--luck-player`` (default ``mcts:16``) and prints each seat's mean
luck a game with its standard error: it should be within about two standard errors of
0 (tests/test_analysis.py runs a short version).

Usage::

    python benchmarks/analyse_speed.py [--game mosona]... [--player alphabeta:4]...
        [--plies 60] [--seed 1] [--luck 200] [--luck-player mcts:16]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from zrec.notation.model import Game, Line, MoveNode
from zrec.play.replay import prepare_rules
from zrec.play.selfplay import random_games
from zrec.research.analysis import analyse_game
from zrec.research.study import Reading, game_rng, seat_players
from zrec.rules import all_games, find_game
from zrec.rules.base import GameRules


def played(rules: GameRules, plies: int, seed: int) -> Game:
    """A game of two ``mcts:50`` players of ``plies`` plies (or fewer, where it ends)."""
    rng = game_rng(seed, 0)
    replay = prepare_rules(rules, rules.random_tags(None, rng))
    engine, pos = replay.engine, replay.start
    choose = seat_players(engine, Reading((), ("mcts:50",)).players)
    nodes: list[MoveNode] = []
    while engine.outcome(pos) is None and len(nodes) < plies:
        chance = engine.chance(pos)
        roll = chance.roll(rng) if chance is not None else None
        seat = engine.move_number(pos).seat
        move = choose[seat](engine, pos, roll, rng)
        nodes.append(MoveNode(engine.spell(pos, move)))
        pos = engine.apply(pos, move)[0]
    tags = {"Game": rules.name, **replay.setting.tags}
    return Game(tuple(tags.items()), Line(tuple(nodes)), "*")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="A game (default: every game).")
    parser.add_argument("--player", action="append", help="A player (default: the game's).")
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--luck", type=int, default=0, metavar="N")
    parser.add_argument("--luck-player", default="mcts:16")
    args = parser.parse_args()
    games = [find_game(g) for g in args.game] if args.game else list(all_games())
    print(f"{'game':16} {'player':14} {'plies':>5} {'CPU s':>7} {'wall s':>7} {'s/ply':>7}  "
          "marks ?!/?/??")
    for rules in games:
        game = played(rules, args.plies, args.seed)
        for player in args.player or [None]:
            start, wall = time.process_time(), time.perf_counter()
            analysis = analyse_game(game, player, args.seed, 1)
            took, wall = time.process_time() - start, time.perf_counter() - wall
            marks = " ".join(
                f"{s.seat}:{s.marks['?!']}/{s.marks['?']}/{s.marks['??']}"
                for s in analysis.summary
            )
            plies = len(analysis.moves)
            print(f"{rules.name:16} {analysis.player:14} {plies:5} {took:7.2f} {wall:7.2f} "
                  f"{took / max(plies, 1):7.3f}  {marks}")
    if args.luck:
        dice = next(g for g in all_games() if _rolls(g))
        totals: dict[str, list[float]] = {}
        start = time.process_time()
        for i, game in enumerate(random_games(dice, {}, args.luck, args.seed, args.plies, 1)):
            for s in analyse_game(game, args.luck_player, args.seed, i).summary:
                totals.setdefault(s.seat, []).append(s.luck or 0.0)
        took = time.process_time() - start
        print(f"\nluck over {args.luck} games of {args.plies} plies, {args.luck_player}, "
              f"{took:.1f} s CPU")
        for seat, lucks in totals.items():
            error = statistics.stdev(lucks) / math.sqrt(len(lucks))
            print(f"  {seat:10} mean {statistics.fmean(lucks):+.4f}  standard error {error:.4f}")


def _rolls(rules: GameRules) -> bool:
    replay = prepare_rules(rules, rules.random_tags(None, game_rng(0, 0)))
    return replay.engine.chance(replay.start) is not None


if __name__ == "__main__":
    main()
