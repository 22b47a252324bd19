"""The serpent kernel's written lines (``Board.line``, ``SerpentEngine.play_line``) held
to the reference (:func:`zrec.rules.lines.reference_line` over the Python engine).

For every named reading and the combinations of the rule options the kernel reads
(board, jumps, first side, captures, chains, pieces, lattice): random games written
out and read back (the reader's plain lines), each also spoilt in the ways a record
goes wrong (a move from elsewhere in the game, a wrong move number, a chain written
short or stopped early, a jumped point named wrongly, a step written with ``x``),
and every serpent game of the samples: the kernel and the reference stop at the
same move, with the same position, plies, keys and removals.  Without the kernel
built this file skips (and fails where ``CI`` is ``true``); it runs the kernel whatever
``ZREC_KERNEL`` says.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from kernels import compiled
from zrec.moves import Action, Turn
from zrec.notation.fastpath import plain_turn
from zrec.notation.model import MoveNode
from zrec.notation.plainmoves import PlainMoves
from zrec.notation.reader import read_records, read_string
from zrec.notation.writer import write_games
from zrec.play import GameSetupError, prepare
from zrec.play.selfplay import random_games
from zrec.rules import find_game, kernel
from zrec.rules.lines import Run, reference_line
from zrec.rules.serpent.engine import SerpentEngine

SAMPLES = Path(__file__).resolve().parents[2] / "samples"

compiled("zrec.rules.serpent", module_level=True)


def _settings(game: str) -> list[dict[str, str]]:
    """The named readings and the combinations of the options the kernel reads."""
    rules = find_game(game)
    found = [dict(options) for options in rules.readings.values()]
    extra = [{"Pieces": "23"}, {"Lattice": "48"}] if game == "kolowis" else [{}]
    for board, jumps, first, captures, chains, more in itertools.product(
        ("lined", "open"),
        ("line", "bent"),
        ("White", "Black"),
        ("compulsory", "optional", "huff"),
        ("whole", "one", "stop"),
        extra,
    ):
        if captures == "huff" and chains == "one":
            continue  # refused together
        if game == "kolowis" and jumps == "bent" and (board, first) != ("lined", "White"):
            continue  # the Python engine lists the legal moves of an illegal one slowly
        if game == "kolowis" and jumps == "bent" and captures == "huff" and chains == "whole":
            continue  # (there: seconds a game)
        found.append(
            {
                "Board": board,
                "Jumps": jumps,
                "First": first,
                "Captures": captures,
                "Chains": chains,
                **more,
            }
        )
    return found


def _engines(game: str, options: dict[str, str]) -> tuple[SerpentEngine, SerpentEngine]:
    rules = find_game(game)
    with kernel.compiled_engines():
        compiled = rules.engine(**options)  # type: ignore[attr-defined]
    with kernel.python_engines():
        python = rules.engine(**options)  # type: ignore[attr-defined]
    assert compiled._board is not None and python._board is None
    return compiled, python


def _same(
    compiled: SerpentEngine, python: SerpentEngine, pos: object, moves: PlainMoves, start: int = 0
) -> Run:
    """Both ways, keys and removals too, the answers equal; the kernel's answer."""
    args = (moves.turns, moves.numbers, moves.dots)
    mine = compiled.play_line(pos, *args, keys=True)  # type: ignore[arg-type]
    theirs = reference_line(python, pos, *args, keys=True)
    assert mine == theirs
    assert tuple(mine.position) == tuple(theirs.position)
    plain = compiled.play_line(pos, *args)  # type: ignore[arg-type]
    assert plain == (*mine[:3], None, None)
    return mine


def _spoilt(moves: PlainMoves, rng: random.Random) -> Iterator[PlainMoves]:
    """The line with one move or number spoilt, in each way a record goes wrong."""
    n = len(moves)
    if not n:
        return
    turns, numbers, dots = list(moves.turns), moves.numbers, moves.dots
    for _ in range(2):
        i = rng.randrange(n)
        j = rng.randrange(n)
        yield _line([*turns[:i], turns[j], *turns[i + 1 :]], numbers, dots)
        wrong = [*numbers]
        wrong[i] = (numbers[i] or i // 2 + 1) + rng.choice((-1, 1, 0))
        dotted = [*dots]
        dotted[i] = rng.choice((1, 3))
        yield _line(turns, wrong, dotted)
    chains = [i for i, turn in enumerate(turns) if len(turn.actions[0].squares) > 2]
    steps = [i for i, turn in enumerate(turns) if len(turn.actions[0].squares) == 2]
    picked = rng.sample(chains, min(2, len(chains))) + rng.sample(steps, min(2, len(steps)))
    for i in picked:
        turn = turns[i]
        action = turn.actions[0]
        squares, seps = action.squares, action.seps
        if not seps or seps[0] != "x":
            if len(squares) == 2:  # a step written as a capture
                yield _replaced(moves, i, plain_turn("x".join(squares)))
            continue
        if len(squares) > 2:  # short, stopped early
            yield _replaced(moves, i, plain_turn(f"{squares[0]}x{squares[-1]}"))
            yield _replaced(moves, i, plain_turn("x".join(squares[:-1])))
        # a jumped point named, rightly or not
        for via in rng.sample(("a1", "b2", "c3", squares[0], squares[1]), 2):
            vias = (via, *action.vias[1:])
            yield _replaced(moves, i, Turn((Action("path", squares, seps, vias),)))
        # a move off the board, and dice
        yield _replaced(moves, i, Turn((Action("path", ("z9", *squares[1:]), seps, action.vias),)))
        yield _replaced(moves, i, plain_turn("--"))


def _replaced(moves: PlainMoves, i: int, turn: Turn | None) -> PlainMoves:
    assert turn is not None
    return _line([*moves.turns[:i], turn, *moves.turns[i + 1 :]], moves.numbers, moves.dots)


def _plain(moves: Sequence[MoveNode]) -> PlainMoves:
    """The line as the reader's fast path holds it (a chain with a jumped point named
    is read by the grammar: its moves are a tuple)."""
    if isinstance(moves, PlainMoves):
        return moves
    nodes = list(moves)
    return _line([m.turn for m in nodes], [m.number for m in nodes], [m.dots for m in nodes])


def _line(turns: list[Turn], numbers: list[int | None], dots: list[int]) -> PlainMoves:
    n = len(turns)
    return PlainMoves(turns, list(numbers), list(dots), [1] * n, [1] * n)


@pytest.mark.parametrize("game", ["mosona", "kolowis"])
def test_random_games_and_their_spoilt_lines_play_alike(game: str) -> None:
    rng = random.Random(38)
    rules = find_game(game)
    lines = stops = removals = 0
    for k, options in enumerate(_settings(game)):
        compiled, python = _engines(game, options)
        games = list(random_games(rules, options, 2, 1000 + k, max_plies=60))
        for record in read_string("".join(write_games(games))):
            assert record.game is not None
            moves = _plain(record.game.line.moves)
            start = compiled.start()
            whole = _same(compiled, python, start, moves)
            assert whole.played == len(moves)  # a game the engine played is legal
            removals += len(whole.removals or ())
            lines += 1
            for spoilt in _spoilt(moves, rng):
                run = _same(compiled, python, start, spoilt)
                stops += run.played < len(spoilt)
                lines += 1
    assert lines > 1000 and stops > 300 and removals > 100, (lines, stops, removals)


def test_every_serpent_sample_plays_alike() -> None:
    checked = 0
    for path in sorted(SAMPLES.rglob("*.zrec")):
        for record in read_records(path):
            game = record.game
            if game is None or any(node.variations for node in game.line.moves):
                continue
            try:
                with kernel.compiled_engines():
                    replay = prepare(game)
            except GameSetupError:  # a record whose tags cannot be played
                continue
            if not isinstance(replay.engine, SerpentEngine):
                continue
            with kernel.python_engines():
                python = prepare(game)
            assert python.engine._board is None  # type: ignore[attr-defined]
            _same(replay.engine, python.engine, replay.start, _plain(game.line.moves))  # type: ignore[arg-type]
            checked += 1
    assert checked >= 10, checked
