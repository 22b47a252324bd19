"""The serpent games' compiled kernel against their Python engine, in every reading.

The kernel (``rules/serpent/_kernel.c``) lists the moves, counts perft and plays random
games; the Python engine is the reference.  For every combination of the rule options
of Mosona and Kolowis the two engines must agree on the moves listed (the same moves in
the same order) along random games, on the perft counts and on the random games
themselves (the same game from the same generator, which is left in the same state).
The named readings are played longer, every serpent sample is replayed with both, and
a generator the kernel cannot step in place (a subclass of ``random.Random``) gives
the same games through its methods.  ``benchmarks/kernel_differential.py`` runs the
same checks longer.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from kernels import compiled, engines, same_random_game
from zrec.check.readings import combinations
from zrec.notation.reader import read_string
from zrec.play.replay import prepare
from zrec.play.walk import positions
from zrec.rules import find_game, kernel
from zrec.rules.base import REMOVED, OptionConflict
from zrec.rules.loops import NO_LIMIT, WIN, reference_counts, reference_play, reference_search

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
GAMES = ("mosona", "kolowis")
#: the options that only judge the end (the kernel never sees them) or keep a history
#: in Python (the draw rules: the kernel lists their moves): at their defaults in the
#: sweep of every combination, and tested by the named readings and their own test
JUDGED = {"EndRule", "Blocked", "NoCapture", "Repetition"}


@pytest.fixture(scope="module", autouse=True)
def _kernel() -> None:
    compiled("zrec.rules.serpent")


def _moves_along(fast: Any, slow: Any, seed: int, plies: int) -> int:
    """Play a random game of the Python engine, comparing the moves the two engines
    list at every position; answers the positions compared."""
    rng = random.Random(seed)
    pos = slow.start()
    seen = 0
    for _ in range(plies):
        listed = slow.legal_moves(pos)
        assert fast.legal_moves(pos) == listed, f"seed {seed}: {slow.setup_text(pos)}"
        # the pieces each move takes, as applying it says (the greedy player's measure)
        taken = [
            sum(len(e.squares) for e in slow.apply(pos, m)[1] if e.code == REMOVED) for m in listed
        ]
        assert fast.takings(pos) == slow.takings(pos) == taken
        seen += 1
        if slow.outcome(pos) is not None or not listed:
            break
        pos = slow.apply(pos, rng.choice(listed))[0]
    return seen


def _move_readings(game: str) -> list[dict[str, str]]:
    """Every combination of the options the kernel plays by (the others at their
    defaults), without the refused ones."""
    rules: Any = find_game(game)
    out = []
    for chosen in combinations(rules):
        if any(chosen[n] != rules.options[n].default for n in JUDGED if n in chosen):
            continue
        try:
            rules.engine(**chosen)
        except OptionConflict:
            continue
        out.append(chosen)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_reading_lists_counts_and_plays_as_the_engine(game: str) -> None:
    rules = find_game(game)
    readings = _move_readings(game)
    # Board, Jumps, Middle, First (16), Captures and Chains (9, less huff with one
    # hop: 8), and Kolowis's Pieces and Lattice (4, less 23 pieces on Ludii's board: 3)
    assert len(readings) == {"mosona": 16 * 8, "kolowis": 16 * 8 * 3}[game]
    # (the Python engine is slow under free chains with bent jumps on Kolowis's board:
    # shorter games there; benchmarks/kernel_differential.py plays them longer)
    games, plies = {"mosona": (2, 80), "kolowis": (1, 40)}[game]
    compared = 0
    for i, chosen in enumerate(readings):
        fast, slow = engines(rules, chosen)
        assert fast._board is not None and slow._board is None
        assert fast.count_sequences(fast.start(), 2) == reference_counts(slow, slow.start(), 2)
        compared += _moves_along(fast, slow, i, plies // 2)
        for seed in range(games):
            same_random_game(fast, slow, slow.start(), 1000 * i + seed, NO_LIMIT, plies)
    assert compared > len(readings) * 15


@pytest.mark.parametrize("game", GAMES)
def test_the_named_readings_at_length(game: str) -> None:
    rules = find_game(game)
    depth = {"mosona": 6, "kolowis": 5}[game]
    ended = 0
    for name, chosen in rules.readings.items():
        fast, slow = engines(rules, dict(chosen))
        start = slow.start()
        counts = fast.count_sequences(start, depth)
        assert counts == reference_counts(slow, start, depth), name
        for seed in range(150):
            played = same_random_game(fast, slow, start, seed, NO_LIMIT, 300)
            ended += slow.outcome(played.pos) is not None
            # the end position's key and outcome, as each engine gives them
            assert fast.key(played.pos) == slow.key(played.pos)
            assert fast.outcome(played.pos) == slow.outcome(played.pos)
        assert _moves_along(fast, slow, 7, 300) > 20
    assert ended > 100  # (Ludii's free single hops on Kolowis's board rarely end)


@pytest.mark.parametrize("game", GAMES)
def test_the_material_search_finds_the_engines_values(game: str) -> None:
    # the alphabeta player's search, under the options that judge the end too
    rules = find_game(game)
    readings = [dict(c) for c in rules.readings.values()]
    readings += [{"EndRule": "draw"}, {"Blocked": "loses"}, {"Captures": "huff"}]
    searched = 0
    for chosen in readings:
        fast, slow = engines(rules, chosen)
        for seed in range(12):
            rng = random.Random(seed)
            pos = reference_play(slow, slow.start(), rng, max_turns=rng.randrange(60)).pos
            me = rng.randrange(2)
            for depth in (0, 1, 2, 3):
                # the whole window, and a narrow one that cuts
                for alpha, beta in ((-WIN - 1, WIN + 1), (-1, 1)):
                    want = reference_search(slow, pos, me, depth, 1, alpha, beta)
                    assert fast.search_value(pos, me, depth, 1, alpha, beta) == want
                    searched += 1
    assert searched == len(readings) * 12 * 4 * 2


@pytest.mark.parametrize(
    "chosen",
    [
        {"Captures": "optional", "NoCapture": "50"},
        {"Captures": "optional", "Repetition": "3"},
        {"Captures": "huff", "NoCapture": "50", "Repetition": "3", "Middle": "left"},
        {"Chains": "one", "Repetition": "3", "Blocked": "loses"},
    ],
)
def test_the_material_search_under_the_draw_rules(chosen: dict[str, str]) -> None:
    # the history (plies without a capture, the positions since) goes to the kernel:
    # searched where the draw rules are near (40 quiet plies, or a position seen twice)
    rules = find_game("mosona")
    fast, slow = engines(rules, chosen)
    near = 0
    for seed in range(40):
        rng = random.Random(seed)
        pos = slow.start()
        for _ in range(300):
            moves = slow.legal_moves(pos)
            if slow.outcome(pos) is not None or not moves:
                break
            repeated = len(pos.seen) > len({k for k, _ in pos.seen})
            if (pos.quiet >= 40 or repeated) and near < 60:
                near += 1
                for depth in (2, 4):
                    want = reference_search(slow, pos, seed % 2, depth, 1, -WIN - 1, WIN + 1)
                    assert fast.search_value(pos, seed % 2, depth, 1, -WIN - 1, WIN + 1) == want
            pos = slow.apply(pos, rng.choice(moves))[0]
    assert near > 10


def test_the_draw_rules_list_the_kernels_moves_and_keep_their_history() -> None:
    # NoCapture and Repetition keep a history in Python; the moves come from the kernel
    rules = find_game("mosona")
    chosen = {"Captures": "optional", "NoCapture": "50", "Repetition": "3"}
    fast, slow = engines(rules, chosen)
    assert fast._board is not None
    drawn = 0
    for seed in range(40):
        played = same_random_game(fast, slow, slow.start(), seed, NO_LIMIT, 400)
        end = slow.outcome(played.pos)
        drawn += end is not None and end.termination != "no-pieces"
    assert drawn > 0


def test_limits_on_moves_and_turns_stop_the_game_where_the_engine_stops() -> None:
    # under huffing a huff is a move but not a turn: the two limits differ
    rules = find_game("mosona")
    fast, slow = engines(rules, {"Captures": "huff"})
    huffs = 0
    for seed in range(60):
        by_moves = same_random_game(fast, slow, slow.start(), seed, 25, NO_LIMIT)
        assert by_moves.moves <= 25
        by_turns = same_random_game(fast, slow, slow.start(), seed, NO_LIMIT, 25)
        assert by_turns.turns <= 25
        huffs += by_turns.moves - by_turns.turns
    assert huffs > 0


def test_a_generator_the_kernel_cannot_step_in_place_gives_the_same_games() -> None:
    class Generator(random.Random):
        """A subclass: the kernel draws through its methods."""

    rules = find_game("kolowis")
    fast, _ = engines(rules, {})
    for seed in range(20):
        one, two = Generator(seed), random.Random(seed)
        a = fast.play_randomly(fast.start(), one, NO_LIMIT, 300)
        b = fast.play_randomly(fast.start(), two, NO_LIMIT, 300)
        assert a == b
        assert one.getstate() == two.getstate()


def test_the_kernel_steps_a_plain_generator_in_place() -> None:
    # the layout test at import passed on this Python (kernel_random.h)
    assert compiled("zrec.rules.serpent").STATE_DRAWS == 1


SERPENT_SAMPLES = ("mosona", "kolowis", "culin", "tournament")


@pytest.mark.parametrize(
    "sample", sorted(p.name for p in SAMPLES.glob("*.zrec") if p.name.startswith(SERPENT_SAMPLES))
)
def test_every_sample_replays_with_the_same_moves_listed(sample: str) -> None:
    text = (SAMPLES / sample).read_text(encoding="utf-8")
    steps = 0
    for record in read_string(text, sample):
        game = record.game
        assert game is not None
        with kernel.compiled_engines():
            fast = prepare(game)
        with kernel.python_engines():
            slow = prepare(game)
        if getattr(fast.engine, "_board", None) is None:
            continue  # not a serpent game
        assert getattr(slow.engine, "_board", None) is None
        one = positions(fast, game.line)
        two = positions(slow, game.line)
        assert [(s.move, s.after) for s in one] == [(s.move, s.after) for s in two]
        for step in two:
            listed = slow.engine.legal_moves(step.before)
            assert fast.engine.legal_moves(step.before) == listed
            steps += 1
    assert steps > 0
