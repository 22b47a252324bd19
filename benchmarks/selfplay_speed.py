"""Self-play speed of the study players: games per second per core, each game.

Every seat of every game is played by one player (as ``zrec study --player P`` does,
the games of ``zrec study --seed S``: :func:`zrec.research.study.play_games`), in this
one process; the time is the process's CPU time, so the figure is per core whatever
else the machine runs.  For each game and player the script prints the games played,
the CPU seconds, games/s, plies/s and how many games finished before ``--max-plies``.
A search player's games are few (``--search-games``) because they are slow; its
games/s is then rough.

Usage::

    python benchmarks/selfplay_speed.py [--game mosona]... [--player random]...
        [--games 200] [--search-games 3] [--max-plies 300] [--seed 1]

Without ``--game``: every game with an engine; without ``--player``: ``random``,
``mcts:50`` and ``mcts:200``.
"""

from __future__ import annotations

import argparse
import time

from zrec.research.study import Reading, parse_players, play_games
from zrec.rules import all_games, find_game


def rate(x: float) -> str:
    """A rate: whole above 100, else three significant figures (0.0123)."""
    return f"{x:.0f}" if x >= 100 else f"{x:.3g}"


def measure(game: str, player: str, games: int, max_plies: int, seed: int) -> str:
    rules = find_game(game)
    reading = Reading((), parse_players(player))
    start = time.process_time()
    results = play_games(rules, reading, seed, 0, games, max_plies)
    cpu = time.process_time() - start
    plies = sum(r.plies for r in results)
    finished = sum(1 for r in results if r.scores is not None)
    return (
        f"{rules.name:<15} {player:<12} {games:>6} {cpu:>9.2f} {rate(games / cpu):>9} "
        f"{rate(plies / cpu):>9} {finished:>5}/{games}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append", help="a game (default: every game)")
    parser.add_argument("--player", action="append", help="a player (default: see above)")
    parser.add_argument("--games", type=int, default=200, help="games of random/greedy")
    parser.add_argument("--search-games", type=int, default=3, help="games of a search player")
    parser.add_argument("--max-plies", type=int, default=300, help="cut a game off here")
    parser.add_argument("--seed", type=int, default=1, help="the study seed")
    args = parser.parse_args()
    names = args.game or [g.name for g in all_games()]
    players = args.player or ["random", "mcts:50", "mcts:200"]
    print(f"{'game':<15} {'player':<12} {'games':>6} {'cpu s':>9} {'games/s':>9} "
          f"{'plies/s':>9} finished")
    for name in names:
        for player in players:
            searching = ":" in parse_players(player)[0]
            games = args.search_games if searching else args.games
            print(measure(name, player, games, args.max_plies, args.seed), flush=True)


if __name__ == "__main__":
    main()
