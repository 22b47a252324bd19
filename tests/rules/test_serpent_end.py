"""The serpent games' end options (docs/rules.md, Awithlaknannai Mosona: a blocked side,
draws by rule): ``Blocked`` endrule|loses, ``NoCapture`` off|50 and ``Repetition``
off|3, their outcomes and messages, records judged against them, and every
combination of the options either building an engine or refused by name."""

from __future__ import annotations

import io
import itertools
from fractions import Fraction

import pytest

from naive_serpent import Naive
from zrec.check.validate import validate_records
from zrec.notation.reader import read_records
from zrec.rules.base import Finding, OptionConflict, Outcome
from zrec.rules.serpent.draws import CountedPosition, DrawRulesEngine
from zrec.rules.serpent.rules import (
    KOLOWIS,
    MOSONA,
    SerpentEngine,
    SerpentGame,
    SerpentPosition,
)

HALF = (Fraction(1, 2), Fraction(1, 2))
# White to move on the open board is blocked although it has more pieces (12 to 10);
# BLACK_BLOCKED is its mirror image north to south, colours swapped: Black is blocked.
BLOCKED = "BBBWWWBB/BBBWWWWBB/2WWWWW1 w"
BLACK_BLOCKED = "2BBBBB1/WWWBBBBWW/WWWBBBWW b"
OPEN = {"Board": "open"}


def play(v: SerpentEngine, pos: SerpentPosition, *moves: str) -> SerpentPosition:
    """``pos`` after the moves, each written as the engine spells it."""
    for text in moves:
        move = next(m for m in v.legal_moves(pos) if v.spell(pos, m).text() == text)
        pos, _ = v.apply(pos, move)
    return pos


# -- a blocked side ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "options", "result", "reason"),
    [
        (BLOCKED, OPEN, "1-0",
         'White has no legal move, and with White 12 pieces and Black 10 the end rule '
         '"majority" gives the game to White'),
        (BLOCKED, OPEN | {"Blocked": "endrule"}, "1-0",
         'White has no legal move, and with White 12 pieces and Black 10 the end rule '
         '"majority" gives the game to White'),
        (BLOCKED, OPEN | {"Blocked": "loses"}, "0-1",
         'White has no legal move, so Black wins (Blocked "loses")'),
        (BLOCKED, OPEN | {"Blocked": "loses", "EndRule": "draw"}, "0-1",
         'White has no legal move, so Black wins (Blocked "loses")'),
        (BLACK_BLOCKED, OPEN, "0-1",
         'Black has no legal move, and with White 10 pieces and Black 12 the end rule '
         '"majority" gives the game to Black'),
        (BLACK_BLOCKED, OPEN | {"Blocked": "loses"}, "1-0",
         'Black has no legal move, so White wins (Blocked "loses")'),
        # no pieces is no pieces, whatever the Blocked option
        ("8/9/2W5 b", {"Blocked": "loses"}, "1-0", "Black has no pieces left, so White wins"),
    ],
)  # fmt: skip
def test_blocked_outcome(setup: str, options: dict[str, str], result: str, reason: str) -> None:
    v = MOSONA.engine(**options)
    pos = v.setup(setup)
    end = v.outcome(pos)
    assert isinstance(end, Outcome) and (end.result, end.reason) == (result, reason)
    assert v.to_move(pos) is None


def test_blocked_loses_judges_the_result_and_not_an_agreed_end() -> None:
    v = MOSONA.engine(Board="open", Blocked="loses")
    pos = v.setup(BLOCKED)
    assert v.judge_end(pos, "0-1", {}) == []
    why = 'White has no legal move, so Black wins (Blocked "loses")'
    assert v.judge_end(pos, "1-0", {}) == [
        Finding("wrong-result", "error", f"the result is 1-0 but {why} (0-1)")
    ]
    # an agreed end is still scored by the end rule: 2 pieces to 1 gives 1-0
    assert v.judge_end(v.setup("B7/2W6/1W6 b"), "1-0", {}) == []
    assert MOSONA.engine(Blocked="loses").outcome(MOSONA.engine().start()) is None


# -- draws by rule -------------------------------------------------------------------

# White's piece on a7 and Black's on c1 walk to and fro: no capture is ever open.
SHUTTLE = "B7/9/6W1 w"
TO_AND_FRO = ("a7-a8", "c1-c2", "a8-a7", "c2-c1")
QUIET = 'the game is drawn after 50 plies without a capture (NoCapture "50")'
THIRD = (
    'the position before 5. (White to move) occurs for the third time (it stood before '
    '1. and 3. too), so the game is drawn (Repetition "3")'
)


def test_the_default_reading_keeps_plain_positions() -> None:
    v = MOSONA.engine()
    assert type(v) is SerpentEngine and type(v.start()) is SerpentPosition
    after = play(v, v.setup(SHUTTLE), *TO_AND_FRO)
    assert type(after) is SerpentPosition
    assert type(MOSONA.engine(NoCapture="50")) is DrawRulesEngine
    assert type(MOSONA.engine(Repetition="3").start()) is CountedPosition


def test_fifty_plies_without_a_capture() -> None:
    v = MOSONA.engine(NoCapture="50")
    pos = v.setup(SHUTTLE)
    assert isinstance(pos, CountedPosition) and pos.quiet == 0
    for ply in range(1, 51):
        assert v.outcome(pos) is None, ply
        pos = play(v, pos, TO_AND_FRO[(ply - 1) % 4])
    assert isinstance(pos, CountedPosition) and pos.quiet == 50
    assert v.outcome(pos) == Outcome("no-capture", HALF, QUIET)
    assert v.to_move(pos) is None
    assert v.judge_end(pos, "1/2-1/2", {}) == []
    assert v.judge_end(pos, "0-1", {}) == [
        Finding("wrong-result", "error", f"the result is 0-1 but {QUIET} (1/2-1/2)")
    ]
    # the position repeats all along, but Repetition is off
    assert MOSONA.engine().outcome(pos) is None


def test_a_capture_starts_the_count_again() -> None:
    v = MOSONA.engine(NoCapture="50", Repetition="3")
    # White's a1 jumps b1 to land on c1 (the curved west end); Black's c8 walks on
    pos = play(v, v.setup("7B/B8/W7 w"), "a1xc1", "c8-c7")
    assert isinstance(pos, CountedPosition)
    assert (pos.quiet, len(pos.seen)) == (1, 2)
    assert [ply for _, ply in pos.seen] == [1, 2]


def test_threefold_repetition() -> None:
    v = MOSONA.engine(Repetition="3")
    pos = v.setup(SHUTTLE)
    pos = play(v, pos, *TO_AND_FRO)
    assert v.outcome(pos) is None  # the second time
    pos = play(v, pos, *TO_AND_FRO[:3])
    assert v.outcome(pos) is None  # Black to move: the second time of that one
    pos = play(v, pos, TO_AND_FRO[3])
    assert v.outcome(pos) == Outcome("repetition", HALF, THIRD)
    assert v.judge_end(pos, "1-0", {})[0].message == f"the result is 1-0 but {THIRD} (1/2-1/2)"
    # the key is the pieces and the side to move, as without the draw rules
    assert v.key(pos) == MOSONA.engine().key(MOSONA.engine().setup(SHUTTLE))


def test_repetition_by_black_numbers_the_moves_with_dots() -> None:
    v = MOSONA.engine(Repetition="3")
    black_first = ("c1-c2", "a7-a8", "c2-c1", "a8-a7")
    pos = play(v, v.setup("B7/9/6W1 b"), *black_first, *black_first)
    end = v.outcome(pos)
    assert end is not None and end.reason == (
        'the position before 5... (Black to move) occurs for the third time (it stood '
        'before 1... and 3... too), so the game is drawn (Repetition "3")'
    )


def record(moves: list[str], result: str, **tags: str) -> str:
    head = "".join(f'[{t} "{v}"]\n' for t, v in tags.items())
    body = " ".join(
        f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves)
    )
    return f'[Game "mosona"]\n[Setup "{SHUTTLE}"]\n{head}[Result "{result}"]\n\n{body} {result}\n'


def diagnostics(text: str) -> list[tuple[str, str]]:
    reports = list(validate_records(read_records(io.BytesIO(text.encode()), "r"), "r"))
    assert len(reports) == 1
    return [(d.code, d.message) for d in reports[0].diagnostics]


FIFTY = [TO_AND_FRO[i % 4] for i in range(50)]
THREEFOLD = [*TO_AND_FRO, *TO_AND_FRO]


@pytest.mark.parametrize(
    ("moves", "tags", "end"),
    [(FIFTY, {"NoCapture": "50"}, QUIET), (THREEFOLD, {"Repetition": "3"}, THIRD)],
)
def test_records_drawn_by_rule(moves: list[str], tags: dict[str, str], end: str) -> None:
    assert diagnostics(record(moves, "1/2-1/2", **tags)) == []
    assert diagnostics(record(moves[:-1], "*", **tags)) == []
    assert diagnostics(record(moves, "0-1", **tags)) == [
        ("wrong-result", f"the result is 0-1 but {end} (1/2-1/2)")
    ]
    after = TO_AND_FRO[len(moves) % 4]
    number = f"{len(moves) // 2 + 1}."
    assert diagnostics(record([*moves, after], "1/2-1/2", **tags)) == [
        (
            "game-over",
            f"move {number[:-1]} (White): {after} is played after the game has ended ({end})",
        )
    ]
    # without the draw rule the game goes on: an agreed draw (White 1 piece, Black 1)
    assert diagnostics(record([*moves, after], "1/2-1/2")) == []


# -- every combination ----------------------------------------------------------------


@pytest.mark.parametrize("game", [MOSONA, KOLOWIS])
def test_every_combination_builds_or_is_refused_by_name(game: SerpentGame) -> None:
    names = list(game.options)
    assert {"Blocked", "NoCapture", "Repetition"} <= set(names)
    built = 0
    for values in itertools.product(*(game.options[n].values for n in names)):
        chosen = dict(zip(names, values, strict=True))
        try:
            v = game.engine(**chosen)
        except OptionConflict as exc:
            named = f'{exc.tag} "{exc.value}" cannot go with {exc.other} "{exc.other_value}"'
            assert str(exc).startswith(named + ": ")
            assert chosen[exc.tag] == exc.value and chosen[exc.other] == exc.other_value
            continue
        built += 1
        pos = v.start()
        assert v.outcome(pos) is None and v.legal_moves(pos)
        assert dict(v.options) == chosen
    # The conflicts: Pieces "23" with Lattice "48" (the 48-point board sets the pieces
    # itself) and Captures "huff" with Chains "one" (a huff punishes a chain stopped short)
    expected = 0
    for values in itertools.product(*(game.options[n].values for n in names)):
        chosen = dict(zip(names, values, strict=True))
        huff_one = (chosen["Captures"], chosen["Chains"]) == ("huff", "one")
        pieces_48 = (chosen.get("Pieces"), chosen.get("Lattice")) == ("23", "48")
        expected += not (huff_one or pieces_48)
    assert built == expected == (6144 if game is KOLOWIS else 2048)


def perft(v: SerpentEngine, pos: SerpentPosition, depth: int) -> int:
    if v.outcome(pos) is not None:
        return 0
    moves = v.legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(v, v.apply(pos, m)[0], depth - 1) for m in moves)


# On the open board, White's a8 and Black's c1 alone: no capture is ever open.
CORNERS = "B7/9/7W w"


@pytest.mark.parametrize(
    ("options", "counts"),
    [
        ({}, [2, 4, 18, 81, 243, 729, 2889, 11444, 39930]),
        # the first threefold repetitions end 32 lines at ply 8
        ({"Repetition": "3"}, [2, 4, 18, 81, 243, 729, 2889, 11444, 39898]),
    ],
)
def test_perft_with_the_draw_rules_against_the_naive_generator(
    options: dict[str, str], counts: list[int]
) -> None:
    v = MOSONA.engine(Board="open", **options)
    start = v.setup(CORNERS)
    engine = [perft(v, start, d) for d in range(1, len(counts) + 1)]
    assert engine == counts
    naive = Naive(8, lined=False)
    board = {p: "" for p in naive.points} | {"a8": "W", "c1": "B"}
    repetition = options.get("Repetition") == "3"
    assert [naive.perft_drawn(board, "W", d, False, repetition) for d in (8, 9)] == counts[7:]
