"""Awéthi's compiled kernel held to the Python engine (docs: zrec.rules.kernel).

Every seat count (1-4 shepherd seats and the Wolves), every combination of the rule
options (Points, Catch), the herds ``random_tags`` hides, the default map and one of
marsh and woods: random games played both ways from the same seeds give equal
``Played`` values and leave the generators in equal states (the kernel draws exactly
as the engine does); at every position of the samples (under their own rolls) and of
random games the legal moves are the same, in the same order, and the self-play move
is the same, drawn the same way.  So are they at positions strewn as ``place`` allows,
with a generator of another class, and where the kernel leaves a position to the
Python code.  A longer run is ``benchmarks/kernel_differential.py``.

Without the kernel built these tests skip, saying why; with ``CI=true`` they fail.
"""

from __future__ import annotations

import glob
import random
from collections.abc import Iterator
from itertools import product
from pathlib import Path

import pytest

from kernels import compiled
from zrec.notation.model import Game
from zrec.notation.reader import read_records
from zrec.play.replay import prepare
from zrec.rules import kernel
from zrec.rules.awethi.board import INDEX, AwethiMap, default_map, parse_map
from zrec.rules.awethi.position import ShepherdsMove
from zrec.rules.awethi.rules import AWETHI, AwethiEngine, AwethiPosition
from zrec.rules.base import configure
from zrec.rules.loops import NO_LIMIT, Played, play_randomly, reference_play

PACKAGE = "zrec.rules.awethi"
SAMPLES = Path(__file__).resolve().parents[2] / "samples"
OPTIONS = [
    {"Points": points, "Catch": catch}
    for points, catch in product(("basic", "advanced"), ("owner", "catcher"))
]
SEATS = (1, 2, 3, 4)
_ROLLS = ((3,), (1, 2, 3, 4), (2, 5))  # a roll of each kind of turn


def _marsh() -> AwethiMap:
    """The default map with water beside Shepherd1's shelter and on Shepherd3's side,
    and woods near three corners (the wolves wake early; shepherds stand in water)."""
    rows = list(default_map().rows())
    rows[23] = ".ww.........w......ff...."  # rank 2
    rows[1] = "..w.........w........ff.."  # rank 24
    rows[20] = "ff.........w.w.......www."  # rank 5
    return parse_map("/".join(rows))


MAPS = {"default": default_map(), "marsh": _marsh()}


@pytest.fixture(autouse=True)
def _kernel_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel on in every run (``ZREC_KERNEL=0`` too: the tests compare it with the
    Python engine); a kernel not built (or stale) skips the tests, and fails them on CI."""
    monkeypatch.setenv("ZREC_KERNEL", "1")
    compiled(PACKAGE)


def _pair(
    seats: int, herds: tuple[str, ...], options: dict[str, str], amap: AwethiMap
) -> tuple[AwethiEngine, AwethiEngine]:
    """The same engine with the kernel and without it."""
    args = (amap, seats, herds, options["Points"], options["Catch"])
    compiled = AwethiEngine(*args)
    with kernel.python_engines():
        python = AwethiEngine(*args)
    assert compiled._board is not None and python._board is None
    return compiled, python


def _herds(seats: int, rng: random.Random) -> tuple[str, ...]:
    tags = AWETHI.random_tags(seats, rng)
    return tuple(tags[f"Herd{k}"] for k in range(1, seats + 1))


def _both_ways(
    compiled: AwethiEngine,
    python: AwethiEngine,
    pos: AwethiPosition,
    seed: int,
    max_moves: int = NO_LIMIT,
    max_turns: int = NO_LIMIT,
) -> Played[AwethiPosition]:
    """One random game each way from the same seed; asserts they are the same game."""
    fast, slow = random.Random(seed), random.Random(seed)
    native = play_randomly(compiled, pos, fast, max_moves, max_turns)
    reference = reference_play(python, pos, slow, max_moves, max_turns)
    assert native == reference, (seed, pos)
    assert fast.getstate() == slow.getstate(), seed
    assert type(native.pos) is AwethiPosition
    assert compiled.key(native.pos) == python.key(reference.pos)
    assert compiled.outcome(native.pos) == python.outcome(reference.pos)
    return native


def _same_turn(
    compiled: AwethiEngine,
    python: AwethiEngine,
    pos: AwethiPosition,
    roll: tuple[int, ...],
    seed: int,
) -> None:
    """The legal moves of a roll, and the self-play move drawn from one generator state."""
    assert compiled.legal_moves(pos, roll) == python.legal_moves(pos, roll), (pos, roll)
    fast, slow = random.Random(seed), random.Random(seed)
    assert compiled.sample_move(pos, roll, fast) == python.sample_move(pos, roll, slow)
    assert fast.getstate() == slow.getstate(), (pos, roll)


# -- random games ------------------------------------------------------------------------


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: f"{o['Points']}-{o['Catch']}")
@pytest.mark.parametrize("seats", SEATS)
def test_random_games_are_the_same_games_both_ways(seats: int, options: dict[str, str]) -> None:
    rng = random.Random(f"games/{seats}/{options}")
    ended = 0
    for game in range(64):
        amap = MAPS["marsh" if game % 4 == 3 else "default"]
        compiled, python = _pair(seats, _herds(seats, rng), options, amap)
        if game < 2:  # whole games
            played = _both_ways(compiled, python, compiled.start(), rng.randrange(10**9))
            ended += python.outcome(played.pos) is not None
            continue
        # a position somewhere in a game (the kernel gets there fast), then 24 moves
        # each way from it
        into = play_randomly(compiled, compiled.start(), random.Random(game), rng.randrange(200))
        _both_ways(compiled, python, into.pos, rng.randrange(10**9), max_moves=24)
    assert ended == 2


def test_the_limits_stop_both_ways_alike() -> None:
    rng = random.Random(5)
    compiled, python = _pair(3, _herds(3, rng), OPTIONS[3], MAPS["default"])
    for max_moves, max_turns in ((0, NO_LIMIT), (1, NO_LIMIT), (NO_LIMIT, 7), (50, 10)):
        played = _both_ways(compiled, python, compiled.start(), 11, max_moves, max_turns)
        assert played.moves == played.turns == min(max_moves, max_turns)
    over = play_randomly(compiled, compiled.start(), random.Random(3))
    assert compiled.outcome(over.pos) is not None and over.stalled is False
    state = rng.getstate()
    assert play_randomly(compiled, over.pos, rng) == Played(over.pos, 0, 0, (0,) * 4, False)
    assert rng.getstate() == state  # a game over draws nothing


def test_the_wolves_eat_and_the_count_goes_to_the_wolves_seat() -> None:
    eaten = 0
    for seed in range(6):
        compiled, python = _pair(2, _herds(2, random.Random(seed)), OPTIONS[0], MAPS["marsh"])
        played = _both_ways(compiled, python, compiled.start(), seed)
        assert played.removed[:2] == (0, 0)
        assert played.removed[2] == sum(sum(c) for c in played.pos.eaten)
        eaten += played.removed[2]
    assert eaten > 0


# -- positions of random games and of the samples --------------------------------------


@pytest.mark.parametrize("seats", SEATS)
def test_every_turn_of_random_games_lists_and_draws_alike(seats: int) -> None:
    rng = random.Random(f"turns/{seats}")
    turns = 0
    for game, options in enumerate(OPTIONS):
        amap = MAPS["marsh" if game % 2 else "default"]
        compiled, python = _pair(seats, _herds(seats, rng), options, amap)
        pos = python.start()
        while (chance := python.chance(pos)) is not None and turns < 150 * (game + 1):
            roll = chance.roll(rng)
            _same_turn(compiled, python, pos, roll, rng.randrange(10**9))
            move = python.sample_move(pos, roll, rng)
            assert move is not None
            pos = python.apply(pos, move)[0]
            turns += 1
    assert turns > 400


def _sample_games() -> Iterator[tuple[str, Game]]:
    """Every Awéthi record of the samples (those with an illegal turn too: their
    positions before it)."""
    for path in sorted(glob.glob(str(SAMPLES / "**" / "*.zrec"), recursive=True)):
        if b"awethi" not in Path(path).read_bytes().lower():
            continue
        for record in read_records(path):
            game = record.game
            if game is not None and (game.tag("Game") or "").lower() == "awethi":
                yield Path(path).name, game


def test_every_position_of_the_samples_under_every_option_lists_alike() -> None:
    positions = 0
    games = list(_sample_games())
    assert {name for name, _ in games} >= {"awethi.zrec", "awethi-solo.zrec"}
    for _, game in games:
        for options in OPTIONS:
            tags = {**game.tag_map(), **options}
            try:
                compiled = prepare(game, tags).engine
                with kernel.python_engines():
                    python = prepare(game, tags).engine
                assert isinstance(compiled, AwethiEngine) and isinstance(python, AwethiEngine)
            except ValueError:
                continue  # a setup the samples show refused
            assert compiled._board is not None and python._board is None
            pos = python.start()
            for node in game.line.moves:
                dice = node.turn.dice
                try:
                    resolved = python.resolve(pos, node.turn)
                except ValueError:
                    break  # the illegal turn an invalid sample shows
                assert dice is not None
                _same_turn(compiled, python, pos, tuple(dice.values), positions)
                pos = python.apply(pos, resolved.move)[0]
                positions += 1
            _both_ways(compiled, python, pos, positions, max_moves=30)
    assert positions > 4 * (93 + 92)


def test_the_study_engines_come_from_the_rules_with_and_without_the_kernel() -> None:
    tags = AWETHI.random_tags(3, random.Random(1))
    compiled = AWETHI.engine_for(configure(AWETHI, tags))
    with kernel.python_engines():
        python = AWETHI.engine_for(configure(AWETHI, tags))
    assert compiled is not python and compiled._board is not None and python._board is None
    assert AWETHI.engine_for(configure(AWETHI, tags)) is compiled
    _both_ways(compiled, python, compiled.start(), 8)


class _Drawn(random.Random):
    """A generator of another class: a kernel may not step its state in place, so it
    calls the methods (the same draws)."""


def test_a_generator_of_another_class_gives_the_same_games() -> None:
    rng = random.Random(17)
    for seats in SEATS:
        compiled, python = _pair(seats, _herds(seats, rng), OPTIONS[seats - 1], MAPS["marsh"])
        mine, theirs = _Drawn(seats), random.Random(seats)
        native = compiled.play_randomly(compiled.start(), mine, 120, NO_LIMIT)
        assert native == reference_play(python, python.start(), theirs, 120, NO_LIMIT)
        assert mine.getstate() == theirs.getstate()


def test_positions_beyond_the_kernel_run_in_python() -> None:
    """A position the kernel does not hold (a catch by a seat not in play, which
    ``place`` lets through; a move number beyond 64 bits) is played by the Python code,
    alike both ways."""
    compiled, python = _pair(2, ("cwcbwc", "bwwccc"), OPTIONS[0], MAPS["default"])
    placed = {"c4": "c1", "c5": "S1", "e6": "w1/4", "u22": "b2", "v22": "c2", "m12": "X"}
    beyond = compiled.place(placed, turn="shepherds")
    far_on = compiled.start()._replace(group=10**30)
    for pos in (beyond, far_on):
        assert compiled._board.play(pos, random.Random(1), 5, 5) is None
        assert compiled._board.moves(pos, (1,) * len(_ROLLS[pos.stage])) is None
        _both_ways(compiled, python, pos, 2, max_moves=40)
        _same_turn(compiled, python, pos, _ROLLS[pos.stage], 3)
    assert compiled.play_randomly(far_on, random.Random(4), 9, 9).pos.group > 10**30


def test_a_stuck_shepherd_goes_home_now_and_then_alike() -> None:
    """A shepherd with no path stays, or (a draw under 0.3, flanking no animal) jumps
    back to its shelter: the same draws both ways, seed after seed."""
    compiled, python = _pair(2, ("cwcbwc", "bwwccc"), OPTIONS[0], MAPS["default"])
    boxed = {"c6": "S2", "d5": "S2", "b5": "S2", "c4": "S2"}  # c5's four sides
    corners = {"b6": "c2", "d6": "w2", "b4": "c2", "d4": "b2"}  # and its diagonals
    pos = compiled.place({"c5": "S1", **boxed, **corners, "k20": "c1"}, turn="shepherds")
    stayed = went_home = 0
    for seed in range(1500):
        roll = tuple(random.Random(seed).randint(1, 4) for _ in range(4))
        _same_turn(compiled, python, pos, roll, seed)
        move = compiled.sample_move(pos, roll, random.Random(seed))
        assert isinstance(move, ShepherdsMove)
        (k,) = [k for k, path in enumerate(move.paths) if path[0] == INDEX["c5"]]
        went_home += move.back >> k & 1
        stayed += move.paths[k] == (INDEX["c5"],)
    assert stayed + went_home == 1500 and 300 < went_home < 900


def _placed(engine: AwethiEngine, rng: random.Random) -> AwethiPosition:
    """A position of pieces strewn anywhere ``place`` allows: shepherds on water, the
    Lair or a shelter, two on one square, caught animals, wolves out of the Lair."""
    seats = len(engine.seats) - 1
    squares = rng.sample(sorted(INDEX), 40)
    pieces: dict[str, list[str]] = {}
    for k in range(1, seats + 1):
        for _ in range(rng.randrange(5)):
            pieces.setdefault(rng.choice(squares[:30]), []).append(f"S{k}")
    for square in squares[30:]:
        owner, catcher = rng.randrange(1, seats + 1), rng.randrange(seats + 3)
        caught = f"/{catcher}" if catcher <= seats and rng.random() < 0.3 else ""
        pieces[square] = [f"{rng.choice('cwb')}{owner}{caught}"]
    for _ in range(rng.randrange(seats + 1)):
        square = rng.choice(squares[:30])
        if not pieces.get(square):
            pieces[square] = ["X"]
    stage = rng.choice(("herd", "shepherds", "wolf"))
    return engine.place(
        {square: " ".join(codes) for square, codes in pieces.items() if codes},
        seat=rng.randrange(1, seats + 1),
        turn=stage,
        awake=rng.random() < 0.5,
    )


def test_strewn_positions_list_draw_and_play_alike() -> None:
    rng = random.Random(29)
    tried = 0
    for game in range(160):
        seats = SEATS[game % 4]
        amap = MAPS["marsh" if game % 3 == 0 else "default"]
        compiled, python = _pair(seats, _herds(seats, rng), OPTIONS[game % 4], amap)
        pos = _placed(python, rng)
        chance = python.chance(pos)
        if chance is None:
            continue
        _same_turn(compiled, python, pos, chance.roll(rng), game)
        _both_ways(compiled, python, pos, game, max_moves=12)
        tried += 1
    assert tried > 100
