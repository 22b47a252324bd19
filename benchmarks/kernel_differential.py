"""The compiled rules kernels held to the Python engines at length (issue 38).

The differential tests (``tests/rules/test_kernel_<package>.py``) run in seconds; this
script plays many more games both ways, each game's part in a function of its own
(``GAMES``), and prints per part the games, the moves compared and the seconds.  It
stops at the first difference, with the seed that shows it.

Usage::

    python benchmarks/kernel_differential.py [--game awethi]... [--games 2000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from itertools import product

from zrec.rules import kernel
from zrec.rules.loops import NO_LIMIT, play_randomly, reference_play


def awethi(games: int, seed: int) -> tuple[int, int]:
    """Awéthi: whole random games both ways, every seat count and option combination
    in turn, herds as ``random_tags`` hides them; the ``Played`` values, the keys and
    the generators' states after each game equal.  Answers (games, moves)."""
    from zrec.rules.awethi.board import default_map
    from zrec.rules.awethi.rules import AWETHI, AwethiEngine

    configs = list(product((1, 2, 3, 4), ("basic", "advanced"), ("owner", "catcher")))
    moves = 0
    for game in range(games):
        seats, points, catch = configs[game % len(configs)]
        rng = random.Random(f"kernel-differential/awethi/{seed}/{game}")
        tags = AWETHI.random_tags(seats, rng)
        herds = tuple(tags[f"Herd{k}"] for k in range(1, seats + 1))
        compiled = AwethiEngine(default_map(), seats, herds, points, catch)
        with kernel.python_engines():
            python = AwethiEngine(default_map(), seats, herds, points, catch)
        if compiled._board is None:
            raise SystemExit("the Awéthi kernel is not in use: build it (pip install -e .)")
        fast, slow = random.Random(game), random.Random(game)
        native = play_randomly(compiled, compiled.start(), fast, 400, NO_LIMIT)
        reference = reference_play(python, python.start(), slow, 400, NO_LIMIT)
        if native != reference or fast.getstate() != slow.getstate():
            raise SystemExit(f"awethi: game {game} (seed {seed}) differs: {native} {reference}")
        if compiled.key(native.pos) != python.key(reference.pos):
            raise SystemExit(f"awethi: game {game} (seed {seed}): the keys differ")
        moves += native.moves
    return games, moves


#: Each game's part, by name.
GAMES: dict[str, Callable[[int, int], tuple[int, int]]] = {"awethi": awethi}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="a part")
    parser.add_argument("--games", type=int, default=2000, help="games per part")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the games")
    args = parser.parse_args()
    print(f"{'part':<12} {'games':>7} {'moves':>9} {'seconds':>9}")
    for name in args.game or sorted(GAMES):
        start = time.perf_counter()
        games, moves = GAMES[name](args.games, args.seed)
        print(f"{name:<12} {games:>7} {moves:>9} {time.perf_counter() - start:>9.1f}", flush=True)


if __name__ == "__main__":
    main()
