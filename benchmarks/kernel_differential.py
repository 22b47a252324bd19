"""The compiled rules kernels against their Python engines, at length.

The differential tests (``tests/rules/test_kernel_*.py``) run in seconds; this runs the
same comparisons on many more games and deeper perft, one function per rules package
(add yours to :data:`PARTS`).  Each function plays its games both ways, fails with an
``AssertionError`` naming the game at the first difference, and returns a line of
figures: what it compared and the CPU seconds it took.

Usage::

    python benchmarks/kernel_differential.py [--part serpent]... [--games 2000]
        [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from itertools import product
from typing import Any

from zrec.rules import find_game, kernel
from zrec.rules.base import Setting
from zrec.rules.loops import (
    NO_LIMIT,
    WIN,
    play_randomly,
    reference_counts,
    reference_play,
    reference_search,
)


def _both(game: str, options: dict[str, str]) -> tuple[Any, Any]:
    """The engine with its kernel (whatever ZREC_KERNEL says) and the Python one."""
    rules = find_game(game)
    with kernel.compiled_engines():
        compiled = rules.engine_for(Setting(options))
    with kernel.python_engines():
        python = rules.engine_for(Setting(options))
    if getattr(compiled, "_board", None) is None:
        raise SystemExit(f"{game}: no kernel built (pip install -e .)")
    return compiled, python


def serpent(games: int, seed: int) -> str:
    """Mosona and Kolowis, every named reading and the draw rules: perft to depth 7 and
    6 (the Python engine to 5 and 4); ``games`` random games per reading natively and in
    Python (the ``Played`` values and the generators' states), the moves listed at every
    ply of a tenth of them, and the material search at depth 3 at each of their ends."""
    start = time.process_time()
    played = plies = searched = 0
    for game, deep, shallow in (("mosona", 7, 5), ("kolowis", 6, 4)):
        rules: Any = find_game(game)
        readings = [dict(c) for c in rules.readings.values()]
        readings.append({"Captures": "optional", "NoCapture": "50", "Repetition": "3"})
        for options in readings:
            full = {name: spec.default for name, spec in rules.options.items()} | options
            compiled, python = _both(game, full)
            pos = compiled.start()
            counts = compiled.count_sequences(pos, deep)
            assert counts[:shallow] == reference_counts(python, pos, shallow), (game, options)
            for n in range(games):
                label = (game, options, seed, n)
                one, two = random.Random(f"{seed} {n}"), random.Random(f"{seed} {n}")
                native = compiled.play_randomly(pos, one, NO_LIMIT, 300)
                assert native == reference_play(python, pos, two, NO_LIMIT, 300), label
                assert one.getstate() == two.getstate(), label
                played += 1
                end = native.pos
                want = reference_search(python, end, n % 2, 3, 1, -WIN - 1, WIN + 1)
                assert compiled.search_value(end, n % 2, 3, 1, -WIN - 1, WIN + 1) == want, label
                searched += 1
                if n % 10:
                    continue
                rng, at = random.Random(n), pos
                for _ in range(300):
                    listed = python.legal_moves(at)
                    assert compiled.legal_moves(at) == listed, label
                    if python.outcome(at) is not None or not listed:
                        break
                    at = python.apply(at, rng.choice(listed))[0]
                    plies += 1
    cpu = time.process_time() - start
    return (
        f"serpent: the named readings and the draw rules of both games, perft to 7 and 6, "
        f"{played} native games, {searched} searches, {plies} plies move by move: equal "
        f"({cpu:.1f} s CPU)"
    )


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


def awethi(games: int, seed: int) -> str:
    """Awéthi: whole random games both ways, every seat count and option combination
    in turn, herds as ``random_tags`` hides them; the ``Played`` values, the keys and
    the generators' states after each game equal."""
    from zrec.rules.awethi.board import default_map
    from zrec.rules.awethi.rules import AWETHI, AwethiEngine

    start = time.process_time()
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
    cpu = time.process_time() - start
    return f"awethi: {games} native games, {moves} moves: equal ({cpu:.1f} s CPU)"


#: Each rules package's long run, by name.
PARTS: dict[str, Callable[[int, int], str]] = {
    "serpent": serpent,
    "stone-warriors": stonewarriors,
    "awethi": awethi,
}


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
