"""The compiled rules kernels against their Python engines, at length.

The differential tests (``tests/rules/test_kernel_*.py``) run in seconds; this runs the
same comparisons on many more games and deeper perft, one function per rules package
(add yours to :data:`PARTS`).  Each function plays its games both ways, fails with an
``AssertionError`` naming the game at the first difference, and returns a line of
figures: what it compared and the CPU seconds it took.

Usage::

    python benchmarks/kernel_differential.py [--part stone-warriors]... [--games 2000]
        [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from typing import Any

from zrec.rules import find_game, kernel
from zrec.rules.base import Setting
from zrec.rules.loops import NO_LIMIT, reference_counts, reference_play


def _both(game: str, options: dict[str, str]) -> tuple[Any, Any]:
    """The engine with its kernel (whatever ZREC_KERNEL says) and the Python one."""
    rules = find_game(game)
    old = os.environ.get("ZREC_KERNEL")
    os.environ["ZREC_KERNEL"] = "1"
    try:
        compiled = rules.engine_for(Setting(options))
    finally:
        if old is None:
            del os.environ["ZREC_KERNEL"]
        else:
            os.environ["ZREC_KERNEL"] = old
    with kernel.python_engines():
        python = rules.engine_for(Setting(options))
    if getattr(compiled, "_board", None) is None:
        raise SystemExit(f"{game}: no kernel built (pip install -e .)")
    return compiled, python


def stonewarriors(games: int, seed: int) -> str:
    """Stone Warriors, every rule set and First side: perft from the start to depth 5
    (4 in Python); ``games`` random games per combination move by move (the moves
    listed at every ply, the move drawn, keys and outcomes), as many natively (the
    ``Played`` values and the generators' states), whole or cut at 300 turns."""
    combinations = (("default", "White"), ("default", "Black"), ("culin", "White"),
                    ("culin", "Black"), ("ludii", "White"))
    start = time.process_time()
    plies = played = 0
    for ruleset, first in combinations:
        compiled, python = _both("stone-warriors", {"Ruleset": ruleset, "First": first})
        pos = compiled.start()
        deep = compiled.count_sequences(pos, 5)
        assert deep[:4] == reference_counts(python, pos, 4), (ruleset, first)
        for n in range(games):
            label = (ruleset, first, seed, n)
            one, two = random.Random(f"{seed} {n}"), random.Random(f"{seed} {n}")
            pos = compiled.start()
            for _ in range(300):
                listed = compiled.legal_moves(pos)
                assert listed == python.legal_moves(pos), label
                assert compiled.outcome(pos) == python.outcome(pos), label
                if not listed:
                    break
                move = compiled.sample_move(pos, None, one)
                assert move == python.sample_move(pos, None, two), label
                pos = python.apply(pos, move)[0]
                assert compiled.key(pos) == python.key(pos), label
                plies += 1
            assert one.getstate() == two.getstate(), label
            turns = NO_LIMIT if ruleset == "default" else 300
            one, two = random.Random(n), random.Random(n)
            start_pos = compiled.start()
            native = compiled.play_randomly(start_pos, one, NO_LIMIT, turns)
            assert native == reference_play(python, start_pos, two, NO_LIMIT, turns), label
            assert one.getstate() == two.getstate(), label
            played += 1
    cpu = time.process_time() - start
    return (
        f"stone-warriors: {len(combinations)} rule-option combinations, perft to 5, "
        f"{plies} plies move by move, {played} native games: equal ({cpu:.1f} s CPU)"
    )


#: Each rules package's long run, by name.
PARTS: dict[str, Callable[[int, int], str]] = {"stone-warriors": stonewarriors}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", action="append", choices=sorted(PARTS),
                        help="a rules package's run (default: every one)")
    parser.add_argument("--games", type=int, default=2000, help="random games per reading")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games")
    args = parser.parse_args()
    for name in args.part or sorted(PARTS):
        print(PARTS[name](args.games, args.seed), flush=True)


if __name__ == "__main__":
    main()
