"""Stone Warriors' compiled kernel against its Python engines, the reference.

For every combination of the game's rule options (``Ruleset`` default, culin and ludii,
``First`` White and Black where the rule set has it): the legal moves, in the engine's
order and as the engine's own move objects, at every position of every sample of the
game and of random games; perft from the start and from positions met on the way;
random games played both ways from the same seeds, move by move (each ply's listed
moves, the move drawn, the keys and the outcome) and natively (the ``Played`` values
and the generators' states afterwards equal).  The longer run is
``benchmarks/kernel_differential.py``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from kernels import compiled as built_kernel
from zrec.notation.reader import read_games
from zrec.play.replay import GameSetupError, prepare
from zrec.play.walk import Step, Visitor, walk
from zrec.rules import find_game, kernel
from zrec.rules.base import Setting, UnknownGameError
from zrec.rules.loops import NO_LIMIT, count_sequences, reference_counts, reference_play
from zrec.rules.stonewarriors import points
from zrec.rules.stonewarriors.board import INDEX, INDICES
from zrec.rules.stonewarriors.points import POINTS
from zrec.rules.stonewarriors.position import PASS_MOVE, StoneMove, StonePosition
from zrec.rules.stonewarriors.rules import STONE_WARRIORS
from zrec.rules.stonewarriors.teams import PASS_MOVE as TEAM_PASS
from zrec.rules.stonewarriors.teams import TeamMove, TeamPosition

PACKAGE = "zrec.rules.stonewarriors"
SAMPLES = Path(__file__).resolve().parents[2] / "samples"
#: Every combination of the rule options (ludii: South always moves first).
COMBINATIONS = (
    ("default", "White"),
    ("default", "Black"),
    ("culin", "White"),
    ("culin", "Black"),
    ("ludii", "White"),
)


@pytest.fixture(autouse=True)
def _needs_kernel() -> None:
    built_kernel(PACKAGE)


def engines(ruleset: str, first: str) -> tuple[Any, Any]:
    """The engine with its kernel and the Python one, for these options."""
    setting = Setting({"Ruleset": ruleset, "First": first})
    with kernel.compiled_engines():
        compiled = STONE_WARRIORS.engine_for(setting)
    with kernel.python_engines():
        python = STONE_WARRIORS.engine_for(setting)
    return compiled, python


def ids(combination: tuple[str, str]) -> str:
    return "-".join(combination)


def test_the_engines_run_the_kernel_only_where_it_is_switched_on() -> None:
    for ruleset, first in COMBINATIONS:
        compiled, python = engines(ruleset, first)
        assert compiled._board is not None and python._board is None
        assert compiled is not python and compiled.options == python.options
    # the engine cache hands out the Python engine inside python_engines()
    with kernel.python_engines():
        assert STONE_WARRIORS.engine_for(Setting({}))._board is None


def same_moves(compiled: Any, python: Any, pos: Any) -> tuple[Any, ...]:
    """The legal moves both ways, equal and in the same order, as the engine's own
    objects (a pass is the engine's own pass move)."""
    listed, reference = compiled.legal_moves(pos), python.legal_moves(pos)
    assert listed == reference, compiled.setup_text(pos)
    assert type(listed) is type(reference) is tuple
    for move in listed:
        assert type(move) in (StoneMove, TeamMove)
        if move.kind == "pass":
            assert move is (TEAM_PASS if type(move) is TeamMove else PASS_MOVE)
    return tuple(listed)


# -- perft ------------------------------------------------------------------------------

#: Perft from the start, as the Python engine counts it (checked here both ways).
START_PERFT = {
    ("default", "White"): [6, 36, 348, 3364],
    ("default", "Black"): [6, 36, 348, 3364],
    ("culin", "White"): [12, 144, 1632, 18496],
    ("culin", "Black"): [12, 144, 1632, 18496],
    ("ludii", "White"): [12, 144, 1728, 20736],
}


@pytest.mark.parametrize("combination", COMBINATIONS, ids=ids)
def test_perft_from_the_start(combination: tuple[str, str]) -> None:
    compiled, python = engines(*combination)
    pos = compiled.start()
    expected = START_PERFT[combination]
    assert count_sequences(compiled, pos, 4) == expected
    assert reference_counts(python, pos, 3) == expected[:3]
    # deeper natively: each count is the sum of the counts after each first move
    deep = compiled.count_sequences(pos, 5)
    assert deep[:4] == expected
    assert deep[4] == sum(
        compiled.count_sequences(compiled.apply(pos, m)[0], 4)[3]
        for m in compiled.legal_moves(pos)
    )


@pytest.mark.parametrize("combination", COMBINATIONS, ids=ids)
def test_perft_from_positions_of_random_games(combination: tuple[str, str]) -> None:
    """Mid-game positions (captures made, priests due or entered, large pieces placed,
    passes): perft to depth 2 both ways, depth 3 at every tenth."""
    compiled, python = engines(*combination)
    rng = random.Random(f"perft {combination}")
    checked = 0
    for _ in range(4):
        pos = compiled.start()
        for ply in range(160):
            if compiled.outcome(pos) is not None:
                break
            depth = 3 if ply % 10 == 0 else 2
            assert compiled.count_sequences(pos, depth) == reference_counts(python, pos, depth)
            checked += 1
            move = python.sample_move(pos, None, rng)
            pos = python.apply(pos, move)[0]
        # the end: no moves, counts of 0
        assert compiled.count_sequences(pos, 2) == reference_counts(python, pos, 2)
    assert checked > 350


# -- the samples --------------------------------------------------------------------------


class _Positions(Visitor):
    """Every position of a record, before and after each legal move (variations too)."""

    def __init__(self) -> None:
        self.seen: list[Any] = []

    def step(self, step: Step) -> None:
        self.seen.append(step.before)
        if step.after is not None:
            self.seen.append(step.after)


def sample_games() -> list[tuple[str, Any]]:
    """Every Stone Warriors game of samples/ (valid or not) with its file."""
    found = []
    for path in sorted(SAMPLES.rglob("*.zrec")):
        try:
            games = list(read_games(path))
        except Exception:  # a sample of broken syntax: no positions to check
            continue
        for game in games:
            try:
                rules = find_game(game.tag_map().get("Game", ""))
            except UnknownGameError:
                continue
            if rules.name == "stone-warriors":
                found.append((str(path.relative_to(SAMPLES)), game))
    return found


def test_every_position_of_every_sample() -> None:
    games = sample_games()
    files = {name for name, _ in games}
    # the game's own samples are here, each rule set among them
    assert {
        "stone-warriors.zrec",
        "stone-warriors-culin.zrec",
        "ludii/stone-warriors.zrec",
    } <= files
    rulesets, positions = set(), 0
    for name, game in games:
        try:
            with kernel.python_engines():
                replay = prepare(game)
        except GameSetupError:  # a sample of bad tags (invalid/): no positions
            continue
        options = replay.engine.options
        compiled, python = engines(options["Ruleset"], options["First"])
        assert python is replay.engine
        visitor = _Positions()
        walk(replay, game.line, visitor)
        rulesets.add(options["Ruleset"])
        for pos in [replay.start, *visitor.seen]:
            for move in same_moves(compiled, python, pos):
                # each move applies the same (the engine's apply, from either list)
                assert compiled.apply(pos, move) == python.apply(pos, move)
            assert compiled.count_sequences(pos, 2) == reference_counts(python, pos, 2), name
            positions += 1
    assert rulesets == {"default", "culin", "ludii"}
    assert positions > 300


# -- random games ------------------------------------------------------------------------


def stepwise(compiled: Any, python: Any, seed: int, max_moves: int) -> int:
    """A random game played both ways a move at a time: the moves listed, the move each
    engine's sample_move draws, the positions, keys and outcomes stay equal; answers
    the moves made."""
    one, two = random.Random(seed), random.Random(seed)
    pos = compiled.start()
    made = 0
    while made < max_moves:
        assert compiled.outcome(pos) == python.outcome(pos)
        listed = same_moves(compiled, python, pos)
        if compiled.outcome(pos) is not None:
            assert listed == ()
            assert compiled.sample_move(pos, None, one) is None
            break
        move = compiled.sample_move(pos, None, one)
        assert move == python.sample_move(pos, None, two)
        assert move in listed
        after, events = python.apply(pos, move)
        assert compiled.apply(pos, move) == (after, events)
        assert compiled.key(after) == python.key(after)
        pos = after
        made += 1
    assert one.getstate() == two.getstate()
    return made


@pytest.mark.parametrize("combination", COMBINATIONS, ids=ids)
def test_random_games_move_by_move(combination: tuple[str, str]) -> None:
    compiled, python = engines(*combination)
    made = sum(stepwise(compiled, python, seed, 300) for seed in range(40))
    assert made > 4000


@pytest.mark.parametrize("combination", COMBINATIONS, ids=ids)
def test_random_games_natively(combination: tuple[str, str]) -> None:
    """The kernel's play_randomly is reference_play: the same Played value (end
    position, moves, turns, pieces removed by each seat, stalled) and the generator
    left in the same state, for the whole game and under limits of moves and turns."""
    compiled, python = engines(*combination)
    ludii = combination[0] == "ludii"
    games = 60 if ludii else 200
    whole = ended = removed = 0
    for seed in range(games):
        # a game to its end (Ludii's: every sixth seed, the others cut at 300 turns as
        # the Culin rules' games, where a priest may step sideways for ever), and cut
        for max_moves, max_turns in (
            (NO_LIMIT, NO_LIMIT),
            (seed % 37, NO_LIMIT),
            (NO_LIMIT, seed % 41),
        ):
            if max_moves == max_turns == NO_LIMIT and (
                combination[0] == "culin" or (ludii and seed % 6)
            ):
                max_turns = 300
            one, two = random.Random(seed), random.Random(seed)
            start = compiled.start()
            played = compiled.play_randomly(start, one, max_moves, max_turns)
            reference = reference_play(python, start, two, max_moves, max_turns)
            assert played == reference, (combination, seed, max_moves, max_turns)
            assert one.getstate() == two.getstate()
            assert compiled.key(played.pos) == python.key(reference.pos)
            assert compiled.outcome(played.pos) == python.outcome(reference.pos)
            finished = compiled.outcome(played.pos) is not None
            ended += finished
            removed += sum(played.removed)
            if max_moves == max_turns == NO_LIMIT:
                whole += 1
                assert finished  # no limit: the game ends by rule
    # whole games end by rule (or Ludii's turn limit); pieces are taken
    assert whole == {"default": games, "culin": 0, "ludii": 10}[combination[0]]
    assert ended >= max(whole, games // 10) and removed > games


def test_random_games_from_set_up_positions() -> None:
    """From positions of every sample, with a priest due or entered, large pieces
    placed, a seat about to pass: the native games are the reference's."""
    checked = 0
    for name, game in sample_games():
        try:
            with kernel.python_engines():
                replay = prepare(game)
        except GameSetupError:
            continue
        compiled, python = engines(
            replay.engine.options["Ruleset"], replay.engine.options["First"]
        )
        visitor = _Positions()
        walk(replay, game.line, visitor)
        for k, pos in enumerate(visitor.seen[::7]):
            one, two = random.Random(k), random.Random(k)
            limit = 200
            played = compiled.play_randomly(pos, one, limit, NO_LIMIT)
            assert played == reference_play(python, pos, two, limit, NO_LIMIT), name
            assert one.getstate() == two.getstate()
            checked += 1
    assert checked > 40


# -- the kernel's own checks ----------------------------------------------------------------


def test_the_kernel_refuses_what_is_not_a_position() -> None:
    compiled, _ = engines("default", "White")
    board = compiled._board
    with pytest.raises(TypeError, match="a StonePosition expected"):
        board.moves("not a position")
    with pytest.raises(TypeError, match=r"moves\(\) takes 1 argument"):
        board.moves()
    with pytest.raises(ValueError, match="a perft depth from 1 to 64, not 0"):
        board.perft(compiled.start(), 0)
    team, _ = engines("ludii", "White")
    with pytest.raises(TypeError, match="a TeamPosition expected"):
        team._board.moves(compiled.start())
    with pytest.raises(TypeError, match=r"play\(\) takes 4 arguments"):
        team._board.play(team.start(), random.Random(1))


# -- positions no game reaches as often ------------------------------------------------------


def scattered(ruleset: str, rng: random.Random) -> Any:
    """A position of pieces put anywhere: few or none of a side, pieces on the enemy
    arm, priests on the board, off it or lost, passes in a row, the turn limit near."""
    if ruleset == "ludii":
        chosen = rng.sample(range(len(POINTS)), 28)
        pieces, large, hands = [0, 0, 0, 0], 0, [False] * 4
        for seat in range(4):
            mine = chosen[7 * seat : 7 * seat + rng.randint(0, 7)]
            for i in mine:
                pieces[seat] |= 1 << i
            if mine and rng.random() < 0.5:
                large |= 1 << mine[0]
            else:
                hands[seat] = rng.random() < 0.7
        return TeamPosition(
            tuple(pieces),  # type: ignore[arg-type]
            large,
            tuple(hands),  # type: ignore[arg-type]
            tuple(rng.randint(0, 9) for _ in range(4)),  # type: ignore[arg-type]
            rng.randrange(4),
            rng.choice((0, 17, 4998, 4999, 5000)),
            rng.choice((0, 0, 3, 4)),
        )
    chosen = rng.sample(INDICES, 14)
    white = sum(1 << i for i in chosen[: rng.randint(0, 7)])
    black = sum(1 << i for i in chosen[7 : 7 + rng.randint(0, 7)])
    priests, off = 0, [True, True]
    for side, bits in enumerate((white, black)):
        if bits and rng.random() < 0.5:
            priests |= bits & -bits
            off[side] = False
        else:
            off[side] = rng.random() < 0.7
    return StonePosition(
        None,
        rng.randrange(2),
        (off[0], off[1]),
        rng.randint(0, 40),
        rng.choice((0, 0, 1, 2)),
        white=white,
        black=black,
        priests=priests,
    )


def blocked(ruleset: str) -> list[Any]:
    """Positions whose side to move has no move (it passes): a warrior in a corner of
    the main grid, its one step taken (by an enemy piece), its priest lost; South's
    warrior on the north edge of the points."""
    if ruleset == "ludii":
        edge = POINTS.index("f29")
        return [
            TeamPosition(
                (1 << edge, 1 << points.INDEX["a16"], 0, 0),
                0,
                (False, True, True, True),
                (0, 0, 0, 0),
                0,
                8,
                passes,
            )
            for passes in (0, 3)
        ]
    bit = {name: 1 << i for name, i in INDEX.items()}
    return [
        StonePosition(
            None, 0, (False, True), 6, passes, white=bit["b13"], black=bit["c13"] | bit["m2"]
        )
        for passes in (0, 1)
    ] + [
        StonePosition(
            None, 1, (True, False), 6, passes, white=bit["c2"] | bit["m13"], black=bit["b2"]
        )
        for passes in (0, 1)
    ]


@pytest.mark.parametrize("combination", COMBINATIONS, ids=ids)
def test_scattered_positions(combination: tuple[str, str]) -> None:
    compiled, python = engines(*combination)
    rng = random.Random(f"scattered {combination}")
    kinds: set[str] = set()
    positions = blocked(combination[0]) + [scattered(combination[0], rng) for _ in range(400)]
    for k, pos in enumerate(positions):
        listed = same_moves(compiled, python, pos)
        kinds.update(m.kind for m in listed)
        kinds.update("capture" for m in listed if m.captures)
        if compiled.outcome(pos) is not None:
            kinds.add("over")
        assert compiled.count_sequences(pos, 2) == reference_counts(python, pos, 2)
        one, two = random.Random(k), random.Random(k)
        played = compiled.play_randomly(pos, one, 60, NO_LIMIT)
        assert played == reference_play(python, pos, two, 60, NO_LIMIT)
        assert one.getstate() == two.getstate()
        assert compiled.sample_move(pos, None, one) == python.sample_move(pos, None, two)
        assert one.getstate() == two.getstate()
    expected = {"step", "pass", "capture", "over"} | (
        set() if combination[0] == "ludii" else {"enter"}
    )
    assert kinds == expected
