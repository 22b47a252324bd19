"""Awéthi's written lines played in one call (``AwethiEngine.play_line``, the kernel's
``Board.line``) held to :func:`zrec.rules.lines.reference_line` on the Python engine.

Every seat count (1-4 shepherd seats and the Wolves), every combination of the rule
options (Points, Catch), the default map and one with water and woods near the
shelters: the lines of random games, with and without their move numbers, and the
same lines spoilt one turn at a time in each way a record goes wrong (a turn of
another kind, dice of the wrong kind or out of range, an option letter, a stay or a
jump back where a path was due or allowed, a path too short, through a piece or off
the board, a wolf's x missing or extra, a pass, a number or its dots wrong) give the
same answer: how far the line is played, the position after it (field by field), its
plies, and with ``keys`` the keys and removals; the same lines held as their words
(:class:`~zrec.moves.WrittenTurns`, as the reader holds a line with dice: the kernel's
``Board.words``) give it too.  So does every Awéthi record of the samples under every
option.  And the kernel plays a plain random game's whole line itself, from its turns
or from its words, handing no turn back.

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
from zrec.moves import HERD, PASS, Action, Dice, Turn, WrittenTurns
from zrec.notation.fastpath import CommonPath
from zrec.notation.reader import read_records
from zrec.play.replay import prepare
from zrec.rules import kernel
from zrec.rules.awethi.board import NAME, AwethiMap, default_map, parse_map
from zrec.rules.awethi.rules import AWETHI, AwethiEngine, AwethiPosition
from zrec.rules.lines import Run, play_line, reference_line

PACKAGE = "zrec.rules.awethi"
SAMPLES = Path(__file__).resolve().parents[2] / "samples"
OPTIONS = [
    {"Points": points, "Catch": catch}
    for points, catch in product(("basic", "advanced"), ("owner", "catcher"))
]


def _marsh() -> AwethiMap:
    """The default map with water beside the shelters and woods near them (shepherds
    stand in water and go back; the wolves wake early)."""
    rows = list(default_map().rows())
    rows[23] = ".ww.........w......ff...."  # rank 2
    rows[1] = "..w.........w........ff.."  # rank 24
    rows[20] = "ff.........w.w.......www."  # rank 5
    return parse_map("/".join(rows))


MAPS = {"default": default_map(), "marsh": _marsh()}


@pytest.fixture(autouse=True)
def _kernel_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel on in every run (``ZREC_KERNEL=0`` too: the tests compare it with the
    reference); a kernel not built (or stale) skips the tests, and fails them on CI."""
    monkeypatch.setenv("ZREC_KERNEL", "1")
    compiled(PACKAGE)


def _pair(
    seats: int, herds: tuple[str, ...], options: dict[str, str], amap: AwethiMap
) -> tuple[AwethiEngine, AwethiEngine]:
    args = (amap, seats, herds, options["Points"], options["Catch"])
    compiled = AwethiEngine(*args)
    with kernel.python_engines():
        python = AwethiEngine(*args)
    assert compiled._board is not None and python._board is None
    return compiled, python


Line = tuple[list[Turn], list[int | None], list[int]]


def _words(turns: list[Turn]) -> WrittenTurns | None:
    """The turns held as their words, as the reader holds a line with dice (the kernel
    reads them with ``Board.words``); ``None`` where a turn is not one the reader would
    hold so (no dice, a point jumped over, a herd action with squares)."""
    words: list[str] = []
    bounds: list[int] = []
    for turn in turns:
        bounds.append(len(words))
        if turn.dice is not None:
            words.append(turn.dice.text())
        words.extend(action.text() for action in turn.actions)
    bounds.append(len(words))
    held = WrittenTurns(words, bounds, CommonPath().written)
    try:
        return held if held == turns and not any(t.dice is None for t in turns) else None
    except ValueError:  # a word that is not a plain action
        return None


def _same(compiled: AwethiEngine, python: AwethiEngine, pos: AwethiPosition, line: Line) -> Run:
    """Both ways (and with keys) the answers equal, the line held as its turns or as
    their words; the kernel's answer."""
    mine = play_line(compiled, pos, *line)
    theirs = reference_line(python, pos, *line)
    assert mine == theirs, line
    assert type(mine.position) is AwethiPosition
    assert tuple(mine.position) == tuple(theirs.position)
    held = _words(line[0])
    if held is not None:
        worded = play_line(compiled, pos, held, line[1], line[2])
        assert worded == theirs, line
        assert tuple(worded.position) == tuple(theirs.position)
    assert compiled.key(mine.position) == python.key(theirs.position)
    keyed = play_line(compiled, pos, *line, keys=True)
    assert keyed == reference_line(python, pos, *line, keys=True)
    assert keyed[:3] == mine[:3]
    return mine


def _random_line(
    engine: AwethiEngine, rng: random.Random, plies: int
) -> tuple[Line, list[AwethiPosition]]:
    """A random game's line as the engine spells it (numbers written before some turns,
    as a record may write them) and the position before each turn."""
    pos = engine.start()
    turns: list[Turn] = []
    numbers: list[int | None] = []
    dots: list[int] = []
    seen = []
    for _ in range(plies):
        chance = engine.chance(pos)
        if chance is None:
            break
        move = engine.sample_move(pos, chance.roll(rng), rng)
        assert move is not None
        number = engine.move_number(pos)
        seen.append(pos)
        turns.append(engine.spell(pos, move))
        numbers.append(number.number if rng.random() < 0.5 else None)
        dots.append(number.dots)
        pos = engine.apply(pos, move)[0]
    return (turns, numbers, dots), seen


def _path(squares: tuple[str, ...], sep: str = "-") -> Action:
    return Action("path", squares, (sep,) * (len(squares) - 1), (None,) * (len(squares) - 1))


def _spoilt_turns(turn: Turn, pos: AwethiPosition, rng: random.Random) -> Iterator[Turn]:
    """The turn written wrong (or oddly but rightly) in the ways a record goes wrong."""
    dice = turn.dice
    assert dice is not None
    values = dice.values
    yield Turn(turn.actions, None)
    yield Turn(turn.actions, Dice((*values, 1)))
    yield Turn(turn.actions, Dice(values, "e" if dice.option is None else None))
    yield Turn(turn.actions, Dice((9, *values[1:]), dice.option))
    yield Turn(turn.actions, Dice(values, "x" if dice.option else dice.option))
    yield Turn((HERD,), Dice((rng.randint(1, 4),)))
    yield Turn((PASS,), Dice((rng.randint(1, 4), rng.randint(1, 6))))
    yield Turn((HERD, HERD), dice)
    yield Turn((Action("herd", ("a1",)),), dice)
    actions = turn.actions
    if len(actions) == 4:  # a shepherds' turn
        k = rng.randrange(4)
        squares = actions[k].squares
        start = squares[0]
        others = [
            (start,),  # a stay
            (start, NAME[0]),  # a jump back, to the first seat's shelter
            (start, NAME[24]),
            squares[:-1] if len(squares) > 2 else squares,  # too short
            (*squares, squares[-2]) if len(squares) > 1 else squares,  # a square twice
            ("z9", *squares[1:]),  # off the board
            (*squares[:-1], "m13"),  # the Lair
            tuple(rng.choice(NAME) for _ in squares),
        ]
        for other in others:
            sep = ">" if len(other) == 2 and other[1] in (NAME[0], NAME[24]) else "-"
            changed = list(actions)
            changed[k] = _path(other, sep)
            yield Turn(tuple(changed), dice)
        changed = list(actions)
        changed[k] = Action(
            "path", squares, ("x",) * (len(squares) - 1), (None,) * (len(squares) - 1)
        )
        yield Turn(tuple(changed), dice)
        changed[k] = Action("path", squares, actions[k].seps, ("b2",) * len(actions[k].vias))
        yield Turn(tuple(changed), dice)
        yield Turn(actions[:3], dice)
        yield Turn((actions[1], actions[0], actions[2], actions[3]), dice)
        yield Turn(actions, Dice(values, "s" if dice.option == "e" else "e"))
        yield Turn(actions, Dice(tuple(rng.randint(1, 4) for _ in values), dice.option))
    elif actions[0].kind == "path":  # a wolf's
        squares = actions[0].squares
        seps = actions[0].seps
        flipped = "-" if seps[-1] == "x" else "x"
        yield Turn((Action("path", squares, (*seps[:-1], flipped), actions[0].vias),), dice)
        yield Turn((_path(squares[:-1]),), dice)
        yield Turn((_path((*squares, squares[-2])),), dice)
        yield Turn((_path(tuple(reversed(squares))),), dice)
        yield Turn((PASS,), dice)
        yield Turn(actions, Dice((rng.randint(1, 4), rng.randint(1, 6))))
        yield Turn(actions, Dice((values[0], 7)))
    elif actions[0].kind == "pass":
        yield Turn((_path(("m13", "m14")),), dice)
    else:  # the herd's
        yield Turn((HERD, PASS), dice)
        yield Turn(actions, Dice((5,)))


@pytest.mark.parametrize("amap", sorted(MAPS))
@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_random_lines_and_their_spoilt_turns_play_alike(seats: int, amap: str) -> None:
    rng = random.Random(seats * 100 + len(amap))
    handed_back = 0
    for options in OPTIONS:
        tags = AWETHI.random_tags(seats, rng)
        herds = tuple(tags[f"Herd{k}"] for k in range(1, seats + 1))
        compiled, python = _pair(seats, herds, options, MAPS[amap])
        for _ in range(2):
            (turns, numbers, dots), seen = _random_line(python, rng, rng.choice((40, 150)))
            run = _same(compiled, python, python.start(), (turns, numbers, dots))
            assert run.played == len(turns)
            for _ in range(3):
                i = rng.randrange(len(turns))
                for turn in _spoilt_turns(turns[i], seen[i], rng):
                    line = ([*turns[:i], turn, *turns[i + 1 :]], numbers, dots)
                    handed_back += _same(compiled, python, python.start(), line).played <= i
                wrong = [*numbers]
                wrong[i] = (numbers[i] or 1) + rng.choice((-1, 1, 0))
                dotted = [*dots]
                dotted[i] = 4 - dots[i]
                _same(compiled, python, python.start(), (turns, wrong, dots))
                _same(compiled, python, python.start(), (turns, numbers, dotted))
                # the line from a position in the middle
                _same(compiled, python, seen[i], (turns[i:], numbers[i:], dots[i:]))
    assert handed_back > 50


def test_a_plain_line_is_played_by_the_kernel_alone() -> None:
    """Every turn of a plain random game is one the kernel reads itself: ``Board.line``
    plays the whole line and hands no turn back (the common path is native)."""
    rng = random.Random(5)
    for seats in (1, 2, 3, 4):
        for amap in MAPS.values():
            tags = AWETHI.random_tags(seats, rng)
            herds = tuple(tags[f"Herd{k}"] for k in range(1, seats + 1))
            compiled, python = _pair(seats, herds, OPTIONS[seats - 1], amap)
            (turns, numbers, dots), _ = _random_line(python, rng, 300)
            played, pos = compiled._board.line(python.start(), turns, numbers, dots, 0)
            assert played == len(turns)
            assert pos == reference_line(python, python.start(), turns, numbers, dots).position
            held = _words(turns)
            assert held is not None
            board = compiled._board
            assert board.words(python.start(), held.words, held.bounds, numbers, dots, 0) == (
                played, pos)
            fresh = WrittenTurns(held.words, held.bounds, CommonPath().written)
            assert play_line(compiled, python.start(), fresh, numbers, dots) == (
                played, pos, played, None, None)
            assert fresh._made is None  # no turn was made: the kernel read every word


def test_the_kernel_hands_back_where_the_reference_stops() -> None:
    """A turn the kernel does not read (a wolf's pass written while a wolf can move, a
    stay where a path is due) comes back to the engine, which stops there as the
    reference does; a position the kernel cannot hold is played by the reference."""
    rng = random.Random(7)
    compiled, python = _pair(2, ("cwbcwc", "cccwbw"), OPTIONS[0], MAPS["marsh"])
    (turns, numbers, dots), seen = _random_line(python, rng, 300)
    waking = next(
        i for i, p in enumerate(seen) if p.stage == 2 and turns[i].actions[0].kind == "path"
    )
    spoilt = [*turns[:waking], Turn((PASS,), turns[waking].dice), *turns[waking + 1 :]]
    found, _ = compiled._board.line(python.start(), spoilt, numbers, dots, 0)
    assert found == waking
    run = _same(compiled, python, python.start(), (spoilt, numbers, dots))
    assert run.played == waking and run.turns == waking
    many = seen[0]._replace(group=1 << 63)
    assert compiled._board.line(many, turns, [None] * len(turns), dots, 0) is None
    _same(compiled, python, many, (turns, [None] * len(turns), dots))


def _sample_games() -> Iterator[tuple[str, object]]:
    for path in sorted(glob.glob(str(SAMPLES / "**" / "*.zrec"), recursive=True)):
        if b"awethi" not in Path(path).read_bytes().lower():
            continue
        for record in read_records(path):
            game = record.game
            if game is not None and (game.tag("Game") or "").lower() == "awethi":
                yield Path(path).name, game


def test_every_sample_under_every_option_plays_alike() -> None:
    games = list(_sample_games())
    assert {name for name, _ in games} >= {"awethi.zrec", "awethi-solo.zrec"}
    lines = 0
    for _, game in games:
        for options in OPTIONS:
            tags = {**game.tag_map(), **options}  # type: ignore[attr-defined]
            try:
                compiled = prepare(game, tags).engine  # type: ignore[arg-type]
                with kernel.python_engines():
                    python = prepare(game, tags).engine  # type: ignore[arg-type]
            except ValueError:
                continue
            assert isinstance(compiled, AwethiEngine) and isinstance(python, AwethiEngine)
            moves = list(game.line.moves)  # type: ignore[attr-defined]
            line = ([m.turn for m in moves], [m.number for m in moves], [m.dots for m in moves])
            _same(compiled, python, python.start(), line)
            lines += 1
    assert lines >= 8
