"""Stone Warriors' kernel playing written lines (``Board.line`` and ``TeamBoard.line``
behind the engines' ``play_line``) held to the reference
(:func:`zrec.rules.lines.reference_line` over the Python engines).

For every combination of the rule options (``Ruleset`` default, culin and ludii,
``First`` White and Black where the rule set has it): random games written out and
read back (the reader's plain lines), each also spoilt in the ways a record goes wrong
(a move from elsewhere in the game, a wrong move number or dots, captures left out,
written in another order, one too few, one too many or twice, a step written with
``x`` or a jumped square, a square off the board, a pass, a priest's entry or a move of
two actions or with dice where they do not belong, a move after the end); lines of
random moves from scattered positions (priests due, entered or lost, passes in a row,
games over, Ludii's turn limit) and from blocked ones that pass; and every Stone
Warriors game of the samples.  The kernel and the reference stop at the same move, with
the same position, turns, keys and removals (and the engines' ``key`` of the
positions at both ends is the same, native or not).  Without the kernel built this file skips
(and fails where ``CI`` is ``true``); it runs the kernel whatever ``ZREC_KERNEL`` says.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from kernels import compiled as built_kernel
from zrec.moves import PASS, Action, Dice, Turn
from zrec.notation.fastpath import plain_turn
from zrec.notation.model import MoveNode
from zrec.notation.plainmoves import PlainMoves
from zrec.notation.reader import read_records, read_string
from zrec.notation.writer import write_games
from zrec.play import GameSetupError, prepare
from zrec.play.selfplay import random_games
from zrec.rules import kernel
from zrec.rules.base import Setting
from zrec.rules.lines import Run, play_line, reference_line
from zrec.rules.stonewarriors.board import INDEX, INDICES, NAME
from zrec.rules.stonewarriors.points import POINTS
from zrec.rules.stonewarriors.position import StonePosition
from zrec.rules.stonewarriors.rules import STONE_WARRIORS
from zrec.rules.stonewarriors.teams import TeamPosition

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
    assert compiled._board is not None and python._board is None
    return compiled, python


def ids(combination: tuple[str, str]) -> str:
    return "-".join(combination)


def same(compiled: Any, python: Any, pos: Any, moves: PlainMoves) -> Run:
    """Both ways, keys and removals too, the answers equal; the kernel's answer."""
    args = (moves.turns, moves.numbers, moves.dots)
    mine: Run = compiled.play_line(pos, *args, keys=True)
    theirs = reference_line(python, pos, *args, keys=True)
    assert mine == theirs, [t.text() for t in moves.turns[mine.played - 1 : theirs.played + 1]]
    assert type(mine.position) is type(theirs.position)
    # the engine's key, native with the kernel, at both ends
    assert compiled.key(pos) == python.key(pos)
    assert compiled.key(mine.position) == python.key(theirs.position)
    plain = compiled.play_line(pos, *args)
    assert plain == (*mine[:3], None, None)
    # and through zrec.rules.lines.play_line, as the walker calls it
    assert play_line(compiled, pos, *args) == plain
    return mine


def line(turns: Sequence[Turn], numbers: Sequence[int | None], dots: Sequence[int]) -> PlainMoves:
    n = len(turns)
    return PlainMoves(list(turns), list(numbers), list(dots), [1] * n, [1] * n)


def plain(moves: Sequence[MoveNode]) -> PlainMoves:
    """The line as the reader's fast path holds it."""
    if isinstance(moves, PlainMoves):
        return moves
    nodes = list(moves)
    return line([m.turn for m in nodes], [m.number for m in nodes], [m.dots for m in nodes])


def replaced(moves: PlainMoves, i: int, turn: Turn | None) -> PlainMoves:
    assert turn is not None
    return line([*moves.turns[:i], turn, *moves.turns[i + 1 :]], moves.numbers, moves.dots)


def path(
    squares: Sequence[str],
    seps: Sequence[str] | None = None,
    vias: Sequence[str | None] | None = None,
) -> Turn:
    n = len(squares) - 1
    seps = ("-",) + ("x",) * (n - 1) if seps is None else seps
    return Turn((Action("path", tuple(squares), tuple(seps), tuple(vias or (None,) * n)),))


def spoilt(moves: PlainMoves, rng: random.Random, names: Sequence[str]) -> Iterator[PlainMoves]:
    """The line with one move or number spoilt, in each way a record goes wrong."""
    n = len(moves)
    if not n:
        return
    turns, numbers, dots = moves.turns, moves.numbers, moves.dots
    for _ in range(2):
        i, j = rng.randrange(n), rng.randrange(n)
        yield replaced(moves, i, turns[j])
        wrong, dotted = [*numbers], [*dots]
        wrong[i] = (numbers[i] or i // 2 + 1) + rng.choice((-1, 1, 0))
        dotted[i] = rng.choice((1, 3))
        yield line(turns, wrong, dotted)
    steps = [i for i, t in enumerate(turns) if t.actions[0].kind == "path"]
    captures = [i for i in steps if len(turns[i].actions[0].squares) > 2]
    for i in rng.sample(captures, min(3, len(captures))):
        squares = turns[i].actions[0].squares
        taken = list(squares[2:])
        yield replaced(moves, i, path(squares[:2]))  # captures left out: a note
        yield replaced(moves, i, path([*squares[:2], *reversed(taken)]))  # another order
        yield replaced(moves, i, path([*squares[:2], *taken[1:]]))  # one too few
        yield replaced(moves, i, path([*squares, rng.choice(names)]))  # one too many
        yield replaced(moves, i, path([*squares, taken[0]]))  # one twice
        yield replaced(moves, i, path([*squares[:2], *[taken[-1]] * len(taken)]))  # the count
        yield replaced(moves, i, path([*squares[:2], rng.choice(names)]))  # another
    for i in rng.sample(steps, min(3, len(steps))):
        squares = turns[i].actions[0].squares
        yield replaced(moves, i, path(squares, ("x",) * (len(squares) - 1)))
        yield replaced(moves, i, path(squares, vias=(squares[0],) + (None,) * (len(squares) - 2)))
        yield replaced(moves, i, path(("z9", *squares[1:])))
        yield replaced(moves, i, path(squares[:1]))
        yield replaced(moves, i, path((squares[1], squares[0])))  # backward
    for i in rng.sample(range(n), min(3, n)):
        square = rng.choice(names)
        yield replaced(moves, i, plain_turn("--"))
        yield replaced(moves, i, plain_turn(f"P@{square}"))
        yield replaced(moves, i, Turn((Action("drop", (square,), piece="W"),)))
        yield replaced(moves, i, Turn((PASS, PASS)))
        yield replaced(moves, i, Turn(turns[i].actions, Dice((3,))))
        yield replaced(moves, i, Turn((Action("herd"),)))
    # a move after the last (after the end, where the game ended by rule)
    yield line([*turns, turns[0]], [*numbers, None], [*dots, 1])


def random_lines(ruleset: str, first: str, count: int, seed: int) -> list[PlainMoves]:
    """Random games written out and read back, as the reader holds their main lines."""
    options = {"Ruleset": ruleset} if first == "White" else {"Ruleset": ruleset, "First": first}
    games = random_games(STONE_WARRIORS, options, count, seed, max_plies=300)
    found = []
    for record in read_string("".join(write_games(games))):
        assert record.game is not None
        found.append(plain(record.game.line.moves))
    return found


@pytest.mark.parametrize("combination", COMBINATIONS, ids=ids)
def test_random_games_and_their_spoilt_lines_play_alike(combination: tuple[str, str]) -> None:
    compiled, python = engines(*combination)
    ludii = combination[0] == "ludii"
    names = POINTS if ludii else [NAME[i] for i in INDICES]
    rng = random.Random(f"lines {combination}")
    lines = stops = removals = entries = 0
    for moves in random_lines(*combination, 12 if ludii else 24, 38):
        start = compiled.start()
        whole = same(compiled, python, start, moves)
        assert whole.played == len(moves)  # a game the engine played is legal
        removals += len(whole.removals or ())
        entries += whole.played - whole.turns
        lines += 1
        for bad in spoilt(moves, rng, names):
            run = same(compiled, python, start, bad)
            stops += run.played < len(bad)
            lines += 1
    assert lines > 500 and stops > 300 and removals > 20, (lines, stops, removals)
    assert entries == 0 if ludii else entries > 10, entries  # priests' entries


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
            rng.choice((0, 17, 4990, 4999, 5000)),
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
    """Positions whose side to move has no move (it passes)."""
    if ruleset == "ludii":
        edge = POINTS.index("f29")
        from zrec.rules.stonewarriors import points

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


def played_line(python: Any, pos: Any, rng: random.Random, length: int) -> PlainMoves:
    """Random moves from ``pos`` as written (the engine's spelling), numbered where a
    writer might number them (the right number, else none)."""
    turns: list[Turn] = []
    numbers: list[int | None] = []
    dots: list[int] = []
    for _ in range(length):
        move = python.sample_move(pos, None, rng)
        if move is None:
            break
        number = python.move_number(pos)
        turns.append(python.spell(pos, move))
        written = number.turn and rng.random() < 0.5
        numbers.append(number.number if written else None)
        dots.append(number.dots if written else 1)
        pos = python.apply(pos, move)[0]
    return line(turns, numbers, dots)


@pytest.mark.parametrize("combination", COMBINATIONS, ids=ids)
def test_lines_from_scattered_and_blocked_positions(combination: tuple[str, str]) -> None:
    compiled, python = engines(*combination)
    ruleset = combination[0]
    names = POINTS if ruleset == "ludii" else [NAME[i] for i in INDICES]
    rng = random.Random(f"scattered lines {combination}")
    kinds: set[str] = set()
    positions = blocked(ruleset) * 3 + [scattered(ruleset, rng) for _ in range(200)]
    for pos in positions:
        moves = played_line(python, pos, rng, rng.choice((1, 5, 40)))
        kinds.update(t.actions[0].kind for t in moves.turns)
        run = same(compiled, python, pos, moves)
        assert run.played == len(moves)
        if python.outcome(run.position) is not None:
            kinds.add("over")
        for bad in spoilt(moves, rng, names):
            same(compiled, python, pos, bad)
    expected = {"path", "pass", "over"} | (set() if ruleset == "ludii" else {"drop"})
    assert kinds == expected


def test_every_sample_plays_alike() -> None:
    checked, rulesets = 0, set()
    for path_ in sorted(SAMPLES.rglob("*.zrec")):
        try:
            records = list(read_records(path_))
        except Exception:  # a sample of broken syntax
            continue
        for record in records:
            game = record.game
            if game is None or any(node.variations for node in game.line.moves):
                continue
            try:
                with kernel.compiled_engines():
                    replay = prepare(game)
            except GameSetupError:  # a record whose tags cannot be played
                continue
            if replay.rules is not STONE_WARRIORS:
                continue
            with kernel.python_engines():
                python = prepare(game)
            assert python.engine._board is None  # type: ignore[attr-defined]
            same(replay.engine, python.engine, replay.start, plain(game.line.moves))
            rulesets.add(replay.engine.options["Ruleset"])
            checked += 1
    assert rulesets == {"default", "culin", "ludii"}
    assert checked >= 8, checked


def test_the_kernel_refuses_what_is_not_a_line() -> None:
    compiled, python = engines("default", "White")
    board, start = compiled._board, compiled.start()
    turn = plain_turn("f1-f2")
    with pytest.raises(TypeError, match=r"line\(\) takes 6 arguments"):
        board.line(start, [turn], [None], [1], False)
    with pytest.raises(TypeError, match="line\\(\\) takes lists of turns, numbers and dots"):
        board.line(start, (turn,), [None], [1], False, 0)
    with pytest.raises(ValueError, match="turns, numbers and dots differ in length"):
        board.line(start, [turn], [], [1], False, 0)
    with pytest.raises(TypeError, match="a StonePosition expected"):
        board.line("start", [turn], [None], [1], False, 0)
    team, _ = engines("ludii", "White")
    with pytest.raises(TypeError, match=r"line\(\) takes 5 arguments"):
        team._board.line(team.start(), [turn], [None], [1], False, 0)
    # tuples (not the reader's lists) go to the reference, with the same answer
    moves = random_lines("default", "White", 1, 5)[0]
    args = (tuple(moves.turns), tuple(moves.numbers), tuple(moves.dots))
    assert compiled.play_line(start, *args, keys=True) == reference_line(
        python, start, *args, keys=True
    )
