"""The serpent games (docs/rules.md, Awithlaknannai Mosona and Kolowis Awithlaknannai):
board, start, jumps, captures, the end, the written moves (resolve/spell), Setup strings
and the drawing.  Perft is in test_serpent_perft."""

from __future__ import annotations

import random
import re

import pytest
from written import label

from zrec.moves import PASS, Action, Dice, Turn
from zrec.rules import find_game
from zrec.rules.base import (
    AmbiguousMoveError,
    Finding,
    IllegalMoveError,
    OptionError,
    Outcome,
    Setting,
    SetupError,
    check_options,
)
from zrec.rules.serpent.rules import (
    KOLOWIS,
    MOSONA,
    SerpentEngine,
    SerpentGame,
    SerpentMove,
    SerpentPosition,
)

MOSONA_START = "BBBBBBBB/BBBB1WWWW/WWWWWWWW w"


def act(text: str) -> Action:
    """A written path such as ``b6-b5``, ``b4xb6xa5`` or ``a4x(a5)b6`` as an Action."""
    squares: list[str] = []
    seps: list[str] = []
    vias: list[str | None] = []
    for sep, via, square in re.findall(r"([-x]?)(?:\((\w+)\))?(\w\d+)", text):
        if squares:
            seps.append(sep)
            vias.append(via or None)
        squares.append(square)
    return Action("path", tuple(squares), tuple(seps), tuple(vias))


def turn(text: str) -> Turn:
    return Turn((act(text),))


def legal(v: SerpentEngine, pos: SerpentPosition) -> list[str]:
    return sorted(v.spell(pos, m).text() for m in v.legal_moves(pos))


def play(v: SerpentEngine, pos: SerpentPosition, *moves: str) -> SerpentPosition:
    for text in moves:
        pos, _ = v.apply(pos, v.resolve(pos, turn(text)).move)
    return pos


def at(setup: str, game: SerpentGame = MOSONA, /, **options: str) -> list[str]:
    """The legal moves in a Setup position."""
    v = game.engine(**options)
    return legal(v, v.setup(setup))


# -- the board ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "board", "points", "lines", "jumps"),
    [
        (MOSONA, "lined", 25, 54, 70),
        (MOSONA, "open", 25, 40, 46),
        (KOLOWIS, "lined", 49, 110, 150),
        (KOLOWIS, "open", 49, 80, 94),
    ],
)
def test_board_counts(game: SerpentGame, board: str, points: int, lines: int, jumps: int) -> None:
    v = game.engine(Board=board)
    assert (len(v.points), len(v.lines), len(v.jumps)) == (points, lines, jumps)
    assert len(set(v.points)) == points


def test_points_lines_and_jumps_by_name() -> None:
    v = MOSONA.engine()
    assert v.points[:3] == ("a1", "a2", "a3") and v.points[-1] == "c8"
    assert {"a1", "a8", "b1", "b9", "c1", "c8"} <= set(v.points)
    assert ("b1", "b2") in v.lines and ("a1", "b1") in v.lines and ("a1", "b2") in v.lines
    lines = {frozenset(pair) for pair in v.lines}
    assert frozenset(("a1", "a2")) in lines and frozenset(("a1", "c1")) not in lines
    open_lines = {frozenset(p) for p in MOSONA.engine(Board="open").lines}
    assert frozenset(("a1", "a2")) not in open_lines
    jumps = set(v.jumps)
    ends = {("a1", "b1", "c1"), ("c1", "b1", "a1"), ("a8", "b9", "c8"), ("c8", "b9", "a8")}
    straight = {("a3", "b4", "c4"), ("c3", "b4", "a4"), ("b3", "b4", "b5"), ("a3", "a4", "a5")}
    assert ends <= jumps and straight <= jumps
    assert ("a3", "b4", "a4") not in jumps  # a turn at b4: only under bent jumps
    assert ("a3", "b4", "a4") in MOSONA.engine(Jumps="bent").jumps
    assert v.coordinates["b1"] == (0, 0) and v.coordinates["a1"] == (1, -1)
    assert v.coordinates["c8"] == (15, 1)
    assert v.centre == "b5" and KOLOWIS.engine().centre == "b9"


# -- start positions ---------------------------------------------------------------------

K = "B" * 16
KW = "W" * 16


@pytest.mark.parametrize(
    ("game", "options", "setup"),
    [
        (MOSONA, {}, MOSONA_START),
        (MOSONA, {"Board": "open", "Jumps": "bent"}, MOSONA_START),
        (MOSONA, {"Middle": "left"}, "BBBBBBBB/WWWW1BBBB/WWWWWWWW w"),
        (MOSONA, {"First": "Black"}, "BBBBBBBB/BBBB1WWWW/WWWWWWWW b"),
        (KOLOWIS, {}, f"{K}/BBBBBBBB1WWWWWWWW/{KW} w"),
        (KOLOWIS, {"Middle": "left"}, f"{K}/WWWWWWWW1BBBBBBBB/{KW} w"),
        (KOLOWIS, {"Pieces": "23"}, f"{K}/1BBBBBBB1WWWWWWW1/{KW} w"),
        (KOLOWIS, {"Pieces": "23", "Middle": "left"}, f"{K}/1WWWWWWW1BBBBBBB1/{KW} w"),
        (KOLOWIS, {"Pieces": "23", "First": "Black"}, f"{K}/1BBBBBBB1WWWWWWW1/{KW} b"),
    ],
)
def test_start_positions(game: SerpentGame, options: dict[str, str], setup: str) -> None:
    v = game.engine(**options)
    assert v.setup_text(v.start()) == setup
    assert v.setup(setup) == v.start()
    assert v.start().ply == 0


def test_start_piece_counts_and_pieces() -> None:
    v = MOSONA.engine()
    pieces = v.pieces(v.start())
    assert len(pieces) == 24 and "b5" not in pieces
    assert pieces["a1"] == pieces["b6"] == pieces["b9"] == "W"
    assert pieces["c8"] == pieces["b1"] == pieces["b4"] == "B"
    k = KOLOWIS.engine(Pieces="23")
    assert list(k.pieces(k.start()).values()).count("W") == 23


# -- the jumps -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "options", "moves"),
    [
        # along the middle line, both ways
        ("8/2WB5/8 w", {}, ["b3xb5"]),
        ("8/4BW3/8 w", {}, ["b6xb4"]),
        # along a diagonal a_j-1 b_j c_j, both ways
        ("8/3B5/2W5 w", {}, ["a3xc4"]),
        ("3W4/3B5/8 w", {}, ["c4xa3"]),
        # along a diagonal c_j-1 b_j a_j, both ways
        ("2W5/3B5/8 w", {}, ["c3xa4"]),
        ("8/3B5/3W4 w", {}, ["a4xc3"]),
        # along an outer line: only on the lined board
        ("8/9/2WB4 w", {}, ["a3xa5"]),
        ("8/9/2WB4 w", {"Board": "open"}, ["a3-b3", "a3-b4"]),
        ("2WB4/9/8 w", {}, ["c3xc5"]),
        ("2WB4/9/8 w", {"Board": "open"}, ["c3-b3", "c3-b4"]),
        # round the curved ends, both ways, on either board
        ("8/B8/W7 w", {}, ["a1xc1"]),
        ("W7/B8/8 w", {}, ["c1xa1"]),
        ("8/8B/7W w", {}, ["a8xc8"]),
        ("7W/8B/8 w", {"Board": "open"}, ["c8xa8"]),
        # bent: a jump may turn at the jumped point onto any line
        ("8/3B5/2W5 w", {"Jumps": "bent"}, ["a3xa4", "a3xb3", "a3xb5", "a3xc3", "a3xc4"]),
        ("8/9/2WB4 w", {"Jumps": "bent"}, ["a3xa5", "a3xb4", "a3xb5"]),
        ("8/B8/W7 w", {"Jumps": "bent"}, ["a1xb2", "a1xc1"]),
    ],
)
def test_each_kind_of_jump(setup: str, options: dict[str, str], moves: list[str]) -> None:
    assert at(setup, **options) == moves


def test_a_bent_jump_only_under_bent() -> None:
    # a3 and c4 are White, b4 Black: the straight jumps over b4 land on a White piece.
    setup = "3W4/3B5/2W5 w"
    assert at(setup) == ["a3-a2", "a3-a4", "a3-b3", "c4-b5", "c4-c3", "c4-c5"]
    assert at(setup, Jumps="bent") == [
        "a3xa4", "a3xb3", "a3xb5", "a3xc3", "c4xa4", "c4xb3", "c4xb5", "c4xc3"
    ]  # fmt: skip


def test_bent_jumps_give_white_a_capture_on_move_one() -> None:
    v = MOSONA.engine(Jumps="bent")
    start = v.start()
    assert legal(v, start) == [
        "a3xb5xb4xa3", "a3xb5xb4xc4xb5", "a4xb5xb4xc4xb5", "b6xb5xc5xb6"
    ]  # fmt: skip
    move = v.resolve(start, turn("a3x(b4)b5x(c4)b4x(b3)a3")).move
    assert move == SerpentMove.named("a3xb5xb4xa3", "b4 c4 b3")
    after, _ = v.apply(start, move)
    assert v.setup_text(after) == "BBB1BBBB/BB3WWWW/WWWWWWWW b"


# -- captures ------------------------------------------------------------------------


def test_capture_is_compulsory() -> None:
    v = MOSONA.engine()
    pos = play(v, v.start(), "b6-b5")
    assert legal(v, pos) == ["b4xb6"]
    with pytest.raises(IllegalMoveError) as err:
        v.resolve(pos, turn("c5-b6"))
    assert err.value.reason == "a capture is compulsory here"
    assert err.value.legal == ("b4xb6",)


def test_a_chain_must_go_on() -> None:
    v = MOSONA.engine()
    pos = v.setup("8/1WB1B4/8 w")
    assert legal(v, pos) == ["b2xb4xb6"]
    with pytest.raises(IllegalMoveError) as err:
        v.resolve(pos, turn("b2xb4"))
    assert err.value.reason == "the chain must go on: the piece on b4 can still jump"
    assert err.value.legal == ("b2xb4xb6",)


def test_a_chain_may_land_again_on_a_point_it_passed() -> None:
    # a3 jumps b4, b5 and a4 in either order, ending where it started.
    v = MOSONA.engine()
    pos = v.setup("8/3BB4/2WB4 w")
    assert legal(v, pos) == ["a3xa5xc4xa3", "a3xc4xa5xa3"]
    after, _ = v.apply(pos, v.resolve(pos, turn("a3xc4xa5xa3")).move)
    assert v.setup_text(after) == "8/9/2W5 b"
    assert at("8/3BB4/2WB4 w", Board="open") == ["a3xc4xa5"]


def test_a_jumped_piece_is_gone_at_once_and_not_jumped_twice() -> None:
    # b2 over b3 to b4, back over... b3 is gone, so the chain ends on b4 or goes on to b6.
    assert at("8/1WB1B4/8 w") == ["b2xb4xb6"]
    v = MOSONA.engine()
    move = v.legal_moves(v.setup("8/1WB1B4/8 w"))[0]
    assert move.captured == (6, 12)  # b3, b5
    assert repr(move) == "SerpentMove.named('b2xb4xb6', 'b3 b5')"


def test_free_choice_among_pieces_and_branches() -> None:
    # Two white pieces can capture, a6 by two branches; any chain may be chosen, the
    # longest (three pieces) or not.
    assert at("8/1WB1B1B2/4BW2 w") == ["a6xa4xc5", "a6xc7", "b2xb4xb6xb8"]


def test_culins_opening() -> None:
    v = MOSONA.engine()
    start = v.start()
    assert legal(v, start) == ["a4-b5", "a5-b5", "b6-b5"]
    assert legal(v, play(v, start, "b6-b5")) == ["b4xb6"]
    assert legal(v, play(v, start, "a4-b5")) == ["c5xa4"]
    assert legal(v, play(v, start, "a5-b5")) == ["c4xa5", "c6xa5"]
    after = play(v, start, "a5-b5", "c6xa5")  # takes b6, not the man in the centre
    assert v.pieces(after)["b5"] == "W" and "b6" not in v.pieces(after)


def test_middle_left() -> None:
    v = MOSONA.engine(Middle="left")
    assert legal(v, v.start()) == ["a4-b5", "a5-b5", "b4-b5"]
    assert legal(v, play(v, v.start(), "b4-b5")) == ["b6xb4"]


# -- Kolowis, Pieces 23 ----------------------------------------------------------------


def test_kolowis_start_moves() -> None:
    v = KOLOWIS.engine()
    assert legal(v, v.start()) == ["a8-b9", "a9-b9", "b10-b9"]
    assert legal(v, play(v, v.start(), "b10-b9")) == ["b8xb10"]


@pytest.mark.parametrize("jumps", ["line", "bent"])
def test_pieces_23_first_move_goes_to_the_centre(jumps: str) -> None:
    v = KOLOWIS.engine(Pieces="23", Jumps=jumps)
    start = v.start()
    assert legal(v, start) == ["a8-b9", "a9-b9", "b10-b9"]
    with pytest.raises(IllegalMoveError) as err:
        v.resolve(start, turn("a16-b17"))
    assert err.value.reason == "the first move must go to the centre (b9)"
    assert err.value.legal == ("a8-b9", "a9-b9", "b10-b9")
    pos = play(v, start, "a9-b9")  # afterwards the usual rules: Black must capture
    assert all("x" in m for m in legal(v, pos))
    if jumps == "line":
        assert legal(v, pos) == ["c10xa9", "c8xa9"]


def test_pieces_23_rule_only_from_the_start() -> None:
    v = KOLOWIS.engine(Pieces="23")
    pos = play(v, v.start(), "a9-b9", "c8xa9")
    assert pos.turn == 0 and legal(v, pos) == ["a7xc8"]  # White's first move is made
    other = v.setup(f"{K}/1BBBBBBB2WWWWWW1/{KW} w")  # not the start: no first-move rule
    assert "a16-b17" in legal(v, other) and "a1-b1" in legal(v, other)
    assert legal(KOLOWIS.engine(), v.start()) != legal(v, v.start())


# -- the end ---------------------------------------------------------------------------

# White to move on the open board is blocked although it has more pieces (12 to 10).
BLOCKED = "BBBWWWBB/BBBWWWWBB/2WWWWW1 w"
OPEN = {"Board": "open"}
DRAW = {"EndRule": "draw"}
NO_BLACK = "Black has no pieces left, so White wins"


def no_move(rule: str, result: str, white: int, black: int) -> str:
    return (
        f"White has no legal move, and with White {white} pieces and Black {black}"
        f' the end rule "{rule}" '
        + {"1-0": "gives the game to White", "0-1": "gives the game to Black"}.get(
            result, "makes it a draw"
        )
    )


@pytest.mark.parametrize(
    ("setup", "options", "result", "reason"),
    [
        (BLOCKED, OPEN, "1-0", no_move("majority", "1-0", 12, 10)),
        (BLOCKED, OPEN | DRAW, "1/2-1/2", no_move("draw", "1/2-1/2", 12, 10)),
        ("BBBBWWBB/BBBWWWWBB/2WWWWW1 w", OPEN, "1/2-1/2", no_move("majority", "1/2-1/2", 11, 11)),
        ("BBBBBWBB/BBBWWWWBB/2WWWWW1 w", OPEN, "0-1", no_move("majority", "0-1", 10, 12)),
        ("8/9/2W5 b", {}, "1-0", NO_BLACK),
        ("8/9/2W5 w", DRAW, "1-0", NO_BLACK),
        ("B7/9/8 w", {}, "0-1", "White has no pieces left, so Black wins"),
        ("8/9/8 w", {}, "1/2-1/2", "neither side has a piece left"),
    ],
)  # fmt: skip
def test_outcome(setup: str, options: dict[str, str], result: str, reason: str) -> None:
    v = MOSONA.engine(**options)
    pos = v.setup(setup)
    end = v.outcome(pos)
    assert isinstance(end, Outcome) and (end.result, end.reason) == (result, reason)
    assert v.legal_moves(pos) == [] or not pos.white or not pos.black


def test_blocked_only_on_the_open_board() -> None:
    v = MOSONA.engine()
    pos = v.setup(BLOCKED)
    assert v.outcome(pos) is None
    assert legal(v, pos) == ["a3-a2", "a7-a8"]


def test_annihilation_after_a_capture() -> None:
    v = MOSONA.engine()
    pos = play(v, v.setup("8/1WB1B4/8 w"), "b2xb4xb6")
    end = v.outcome(pos)
    assert end is not None
    assert (end.result, end.reason) == ("1-0", "Black has no pieces left, so White wins")
    assert v.outcome(v.start()) is None


def wrong(message: str) -> Finding:
    return Finding("wrong-result", "error", message)


def agreed(result: str, gives: str, white: int = 0, black: int = 0) -> Finding:
    """The wrong-result finding of an agreed end; ``gives`` is what the end rule gives."""
    rule = '"draw" makes it 1/2-1/2'
    if gives != "draw":
        rule = f'"majority" gives {gives} (White {white} pieces, Black {black})'
    return wrong(f"the result is {result} but the game ends by agreement and the end rule {rule}")


def capture_open(side: str, captures: str) -> Finding:
    message = f"the game ends by agreement while {side} still has {captures}"
    return Finding("capture-open", "warning", message)


BLOCKED_WHY = no_move("majority", "1-0", 12, 10)
CHOICE = "8/1WB1B1B2/4BW2 w"  # White has three captures; White 2 pieces, Black 4
CHOICES = "captures: a6xa4xc5, a6xc7, b2xb4xb6xb8"


@pytest.mark.parametrize(
    ("setup", "options", "result", "findings"),
    [
        # over by rule: the result must agree, and "*" is wrong too
        ("8/9/2W5 b", {}, "1-0", []),
        ("8/9/2W5 b", {}, "0-1", [wrong(f"the result is 0-1 but {NO_BLACK} (1-0)")]),
        ("8/9/2W5 b", {}, "*", [wrong(f"the result is * but {NO_BLACK} (1-0)")]),
        (BLOCKED, OPEN, "0-1", [wrong(f"the result is 0-1 but {BLOCKED_WHY} (1-0)")]),
        # not over: "*" is fine, any other result is an agreed end
        (MOSONA_START, {}, "*", []),
        (MOSONA_START, {}, "1/2-1/2", []),
        (MOSONA_START, {}, "1-0", [agreed("1-0", "1/2-1/2", 12, 12)]),
        ("B7/2W6/1W6 b", {}, "1-0", []),
        ("B7/2W6/1W6 b", {}, "0-1", [agreed("0-1", "1-0", 2, 1)]),
        ("B7/2W6/1W6 b", DRAW, "1/2-1/2", []),
        ("B7/2W6/1W6 b", DRAW, "1-0", [agreed("1-0", "draw")]),
        # an agreed end while the side to move can still capture
        ("8/BW1B5/8 b", {}, "0-1", [capture_open("Black", "a capture: b1xb3")]),
        (CHOICE, {}, "0-1", [capture_open("White", CHOICES)]),
        (CHOICE, {}, "1-0", [agreed("1-0", "0-1", 2, 4),
                             capture_open("White", CHOICES)]),
        (CHOICE, {}, "*", []),
    ],
)  # fmt: skip
def test_judge_end(
    setup: str, options: dict[str, str], result: str, findings: list[Finding]
) -> None:
    v = MOSONA.engine(**options)
    assert v.judge_end(v.setup(setup), result, {}) == findings


def test_judge_end_of_an_unknown_result() -> None:
    v = MOSONA.engine()
    assert v.judge_end(v.start(), "2-0", {})[0].code == "wrong-result"


# -- written moves -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "written", "reason"),
    [
        (MOSONA_START, "x9-b5", "x9 is not a point of this board"),
        (MOSONA_START, "a4x(b10)b5", "b10 is not a point of this board"),
        (MOSONA_START, "b3-b5", "there is no White piece on b3"),
        (MOSONA_START, "b5-b4", "there is no White piece on b5"),
        (MOSONA_START, "a3-b5", "a3 and b5 are not joined by a line"),
        (MOSONA_START, "a5-b6", "b6 is not empty"),
        (MOSONA_START, "b6-b5-b4", "a step goes from one point to the next only"),
        (MOSONA_START, "b6", "a move names at least two points"),
        (MOSONA_START, "b6-b5xb4", "a move is either a step (with -) or a chain (with x)"),
        ("8/3B5/8 b", "b4xb6", "there is no enemy piece to jump between b4 and b6"),
        ("8/3B5/8 b", "b4xb7", "there is no jump from b4 to b7"),
        ("8/3B1W3/8 b", "b4x(a4)b6", "a jump from b4 to b6 passes over b5, not a4"),
        ("8/1WB1B4/8 w", "b2xb4", "the chain must go on: the piece on b4 can still jump"),
        ("8/1WB1BB3/8 w", "b2xb4xb6", "b6 is not empty"),
    ],
)
def test_illegal_moves(setup: str, written: str, reason: str) -> None:
    v = MOSONA.engine()
    pos = v.setup(setup)
    with pytest.raises(IllegalMoveError) as err:
        v.resolve(pos, turn(written))
    assert err.value.reason == reason
    assert err.value.code == "illegal-move"
    assert list(err.value.legal) == legal(v, pos)


@pytest.mark.parametrize(
    ("t", "reason"),
    [
        (Turn((act("b6-b5"),), Dice((3,))), "Awithlaknannai Mosona uses no dice"),
        (Turn((act("b6-b5"), act("a5-b6"))), "a turn is one move, not 2"),
        (Turn(()), "a turn is one move, not 0"),
        (Turn((PASS,)), "-- is not a move of Awithlaknannai Mosona"),
        (
            Turn((Action("drop", ("b5",), piece="W"),)),
            "W@b5 is not a move of Awithlaknannai Mosona",
        ),
    ],
)
def test_turns_that_are_not_one_move(t: Turn, reason: str) -> None:
    v = MOSONA.engine()
    with pytest.raises(IllegalMoveError) as err:
        v.resolve(v.start(), t)
    assert err.value.reason == reason
    assert err.value.legal == ("a4-b5", "a5-b5", "b6-b5")


def test_resolve_a_step_and_a_chain_with_its_vias() -> None:
    v = MOSONA.engine()
    pos = play(v, v.start(), "b6-b5")
    assert v.resolve(pos, turn("b4x(b5)b6")).move == SerpentMove.named("b4xb6", "b5")
    assert v.resolve(pos, turn("b4x(b5)b6")).notes == ()
    assert v.resolve(v.start(), turn("b6-b5")).move == SerpentMove.named("b6-b5")


def test_short_chain_is_accepted_with_a_warning() -> None:
    v = MOSONA.engine()
    pos = v.setup("8/1WB1B4/8 w")
    done = v.resolve(pos, turn("b2xb6"))
    assert done.move == SerpentMove.named("b2xb4xb6", "b3 b5")
    assert done.notes == (
        Finding(
            "short-chain",
            "warning",
            "b2xb6 gives only the start and the last landing point; the full chain is b2xb4xb6",
        ),
    )


def test_ambiguous_short_chain() -> None:
    # c8 takes c7, c5, b5 and b6 by two routes that both end on c6.
    v = MOSONA.engine()
    pos = v.setup("4B1BW/3BBB2W/1BB4B w")
    assert legal(v, pos) == ["c8xc6xa5xc4xc6", "c8xc6xc4xa5xc6"]
    with pytest.raises(AmbiguousMoveError) as err:
        v.resolve(pos, turn("c8xc6"))
    assert err.value.reason == (
        "c8xc6 gives only the start and the last landing point, and several chains fit it: "
        "c8xc6xa5xc4xc6, c8xc6xc4xa5xc6"
    )
    assert err.value.code == "ambiguous-move"
    assert err.value.legal == ("c8xc6xa5xc4xc6", "c8xc6xc4xa5xc6")


def test_a_written_whole_chain_is_not_read_as_a_short_one() -> None:
    # c3xa4 is itself a whole chain, although two longer chains also end on a4.
    v = MOSONA.engine()
    pos = v.setup("1BW1W3/1BBB4B/B4B1B w")
    assert legal(v, pos) == ["c3xa2xc1xc3xa4", "c3xa4", "c3xc1xa2xc3xa4"]
    assert v.resolve(pos, turn("c3xa4")) == v.resolve(pos, turn("c3x(b4)a4"))
    assert v.resolve(pos, turn("c3xa4")).notes == ()


def test_bent_chain_needs_a_via() -> None:
    # b2 can reach b3 over a2 or over c2; only the jumped point tells the chains apart.
    v = MOSONA.engine(Jumps="bent")
    pos = v.setup("1B3B2/WW4W2/1BB5 w")
    texts = legal(v, pos)
    assert "b2x(a2)b3xb4" in texts and "b2x(c2)b3xb4" in texts
    assert "b2xb3xb2" in texts  # a2 and c2 in either order: one move
    with pytest.raises(AmbiguousMoveError) as err:
        v.resolve(pos, turn("b2xb3xb4"))
    assert err.value.reason == (
        "b2xb3xb4 fits several chains: b2x(a2)b3xb4, b2x(c2)b3xb4; "
        "write the jumped point in parentheses"
    )
    assert v.resolve(pos, turn("b2x(a2)b3xb4")).move == SerpentMove.named("b2xb3xb4", "a2 a3")
    assert v.resolve(pos, turn("b2x(c2)b3x(a3)b4")).move == SerpentMove.named("b2xb3xb4", "c2 a3")
    assert v.resolve(pos, turn("b2x(c2)b3xb2")) == v.resolve(pos, turn("b2xb3x(c2)b2"))


CONFIGS = [
    (MOSONA, {}),
    (MOSONA, {"Board": "open"}),
    (MOSONA, {"Jumps": "bent"}),
    (MOSONA, {"Board": "open", "Jumps": "bent", "Middle": "left", "First": "Black"}),
    (KOLOWIS, {}),
    (KOLOWIS, {"Pieces": "23", "Jumps": "bent"}),
    (KOLOWIS, {"Pieces": "23", "Board": "open"}),
]


@pytest.mark.parametrize(
    ("game", "options"),
    CONFIGS,
    ids=["-".join([g.aliases[0], *o.values()]) for g, o in CONFIGS],
)
def test_spell_and_resolve_round_trip_in_random_games(
    game: SerpentGame, options: dict[str, str]
) -> None:
    """resolve(spell(m)) is m for every legal move, the fast and the checked way agree,
    the capture test agrees with the chains, and Setup strings read back."""
    v = game.engine(**options)
    rng = random.Random(20240601)
    positions = 0
    for _ in range(12):
        pos = v.start()
        while v.outcome(pos) is None and pos.ply < 120:
            moves = v.legal_moves(pos)
            assert len(set(moves)) == len(moves)
            spelled = [v.spell(pos, m) for m in moves]
            assert len({t.text() for t in spelled}) == len(moves)
            for move, written in zip(moves, spelled, strict=True):
                done = v.resolve(pos, written)
                assert done.move == move and done.notes == ()
                assert v._resolve_checked(pos, written) == done
                full = Action(
                    "path",
                    written.actions[0].squares,
                    written.actions[0].seps,
                    written.actions[0].vias,
                )
                assert v.resolve(pos, Turn((full,))).move == move
            own, enemy = (pos.white, pos.black) if pos.turn == 0 else (pos.black, pos.white)
            lat = v.lattice
            assert lat.can_capture(own, enemy) == lat.can_capture(own, enemy)
            assert lat.can_capture(own, enemy) == bool(lat.chains(own, enemy))
            first = 0 if pos.turn == v.start().turn else 1  # 1...: numbered as in PGN
            assert v.setup(v.setup_text(pos)) == pos._replace(ply=first)
            pos, _ = v.apply(pos, rng.choice(moves))
            positions += 1
        assert v.outcome(pos) is not None or pos.ply == 120
    assert positions > 300


def test_spell() -> None:
    v = MOSONA.engine()
    pos = play(v, v.start(), "b6-b5")
    assert v.spell(v.start(), SerpentMove.named("b6-b5")) == turn("b6-b5")
    assert v.spell(pos, SerpentMove.named("b4xb6", "b5")).text() == "b4xb6"
    assert str(SerpentMove.named("b4xb6", "b5")) == "b4xb6"
    assert repr(SerpentMove.named("b6-b5")) == "SerpentMove.named('b6-b5')"


# -- positions, Setup, labels, drawing --------------------------------------------------


def test_apply_and_move_labels() -> None:
    v = MOSONA.engine()
    pos = v.start()
    labels = [label(v, pos)]
    for text in ("b6-b5", "b4xb6", "b7xb5"):
        pos = play(v, pos, text)
        labels.append(label(v, pos))
    assert labels == [(1, "White"), (1, "Black"), (2, "White"), (2, "Black")]
    assert pos == v.setup("BBBBBBBB/BBB1W2WW/WWWWWWWW b")._replace(ply=3)
    b = MOSONA.engine(First="Black")
    pos = b.start()
    labels = [label(b, pos)]
    for text in ("b4-b5", "b6xb4", "b3xb5"):
        pos = play(b, pos, text)
        labels.append(label(b, pos))
    assert labels == [(1, "Black"), (1, "White"), (2, "Black"), (2, "White")]


def test_setup_round_trip_and_multi_digit_runs() -> None:
    k = KOLOWIS.engine()
    pos = k.setup("16/8W8/W15 b")
    assert k.pieces(pos) == {"b9": "W", "a1": "W"}
    assert k.setup_text(pos) == "16/8W8/W15 b"
    assert pos == SerpentPosition(pos.white, 0, 1, 1)
    # Black (the second side) to move: "1..." now, then White's "2."
    # (no Black pieces: the game is over, so the side to move is read off the position)
    assert (k.move_number(pos).number, k.seats[pos.turn]) == (1, "Black")
    white_to_move = k.setup("16/8W8/W15 w")
    assert (k.move_number(white_to_move).number, k.seats[white_to_move.turn]) == (1, "White")
    m = MOSONA.engine()
    black_to_move = m.setup("BBBBBBBB/BBBWB4/8 b")
    after, _ = m.apply(black_to_move, m.legal_moves(black_to_move)[0])  # takes White's last
    assert (m.move_number(after).number, m.seats[after.turn]) == (2, "White")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "BBBBBBBB/BBBB1WWWW w",
            "a Setup for Awithlaknannai Mosona is the rows c/b/a and "
            'the side to move, e.g. "BBBBBBBB/BBBB1WWWW/WWWWWWWW w"; got "BBBBBBBB/BBBB1WWWW w"',
        ),
        (
            MOSONA_START[:-2],
            "a Setup for Awithlaknannai Mosona is the rows c/b/a and the side "
            'to move, e.g. "BBBBBBBB/BBBB1WWWW/WWWWWWWW w"; got "BBBBBBBB/BBBB1WWWW/WWWWWWWW"',
        ),
        ("BBBBBBBB/BBBB2WWWW/WWWWWWWW w", "row b has 10 points; it must have 9"),
        ("BBBBBBB/BBBB1WWWW/WWWWWWWW w", "row c has 7 points; it must have 8"),
        ("8/9/7 w", "row a has 7 points; it must have 8"),
        ("8/9/10 w", "row a has 10 points; it must have 8"),
        (
            "8/9/WWWWWWWx w",
            'row a has the unknown character "x"; use W, B or a number of empty points',
        ),
        (
            "8/9/wwwwwwww w",
            'row a has the unknown character "w"; use W, B or a number of empty points',
        ),
        (
            "8/0WWWWWWWWW/8 w",
            'row b has the run "0": write runs of empty points from 1 up, with no leading zero',
        ),
        (
            "8/01WWWWWWWW/8 w",
            'row b has the run "01": write runs of empty points from 1 up, with no leading zero',
        ),
        (
            "BBBBBBBB/BBBBBBBBB/8 w",
            "Black has 17 pieces; Awithlaknannai Mosona has at most 12 a side",
        ),
        (
            "8/WWWWW4/WWWWWWWW w",
            "White has 13 pieces; Awithlaknannai Mosona has at most 12 a side",
        ),
        ("8/9/8 x", 'the side to move must be "w" or "b", not "x"'),
        ("8/9/8 W", 'the side to move must be "w" or "b", not "W"'),
    ],
)
def test_setup_errors(text: str, message: str) -> None:
    with pytest.raises(SetupError) as err:
        MOSONA.engine().setup(text)
    assert str(err.value) == message


def test_kolowis_allows_24_pieces() -> None:
    k = KOLOWIS.engine()
    assert k.setup(k.setup_text(k.start())) == k.start()
    with pytest.raises(SetupError, match="White has 25 pieces; Kolowis Awithlaknannai has at"):
        k.setup(f"16/8WWWWWWWWW/{KW} w")


def test_render() -> None:
    v = MOSONA.engine()
    assert v.render(play(v, v.start(), "b6-b5")) == "\n".join(
        [
            "      1   2   3   4   5   6   7   8",
            "c     B---B---B---B---B---B---B---B",
            "     / \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\",
            "b   B---B---B---B---W---.---W---W---W",
            "     \\ / \\ / \\ / \\ / \\ / \\ / \\ / \\ /",
            "a     W---W---W---W---W---W---W---W",
            "    1   2   3   4   5   6   7   8   9",
            "Black to move (White 12, Black 12)",
        ]
    )
    open_board = MOSONA.engine(Board="open").render(v.start()).splitlines()
    assert open_board[1] == "c     B   B   B   B   B   B   B   B"
    assert open_board[5] == "a     W   W   W   W   W   W   W   W"
    kolowis = KOLOWIS.engine().render(KOLOWIS.engine().start()).splitlines()
    assert kolowis[3] == "b   " + "---".join("B" * 8 + "." + "W" * 8)
    assert kolowis[6].endswith("16  17")


# -- the game registry and options -------------------------------------------------------


def test_registry_and_options() -> None:
    assert find_game("Awithlaknannai Mosona") is MOSONA
    assert find_game("mosona") is MOSONA
    assert find_game("Kolowis Awithlaknannai") is KOLOWIS
    assert find_game("Fighting Serpents") is KOLOWIS
    assert MOSONA.seats == ("White", "Black")
    usual = ["Board", "Jumps", "Middle", "EndRule", "First", "Captures", "Chains"]
    ends = ["Blocked", "NoCapture", "Repetition"]
    assert list(MOSONA.options) == [*usual, *ends]
    assert list(KOLOWIS.options) == [*usual, *ends, "Pieces", "Lattice"]
    assert KOLOWIS.options["Pieces"].default == "24"
    chosen = check_options(KOLOWIS.options, {"Board": "OPEN", "Pieces": "23"})
    v = KOLOWIS.engine_for(Setting(chosen))
    assert isinstance(v, SerpentEngine)
    assert v.options == {
        "Board": "open", "Jumps": "line", "Middle": "right", "EndRule": "majority",
        "First": "White", "Captures": "compulsory", "Chains": "whole",
        "Blocked": "endrule", "NoCapture": "off", "Repetition": "off",
        "Pieces": "23", "Lattice": "49",
    }  # fmt: skip
    assert v is KOLOWIS.engine(Board="open", Pieces="23")
    with pytest.raises(OptionError):
        check_options(MOSONA.options, {"Jumps": "curved"})
    with pytest.raises(OptionError):
        MOSONA.engine(Jumps="curved")
    assert MOSONA.engine(Board="OPEN") is MOSONA.engine(Board="open")
    assert list(MOSONA.engine().options) == list(MOSONA.options)
