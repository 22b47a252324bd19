"""The engine protocol (:mod:`zrec.rules.base`) as the serpent games and Stone Warriors
provide it: seats and whose move it is, move numbers, events, routes, outcomes with a
score per seat, position keys and views; and the games behind :class:`GameRules`."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from written import turn

from zrec.rules import all_games
from zrec.rules.awethi.rules import AWETHI
from zrec.rules.base import (
    REMOVED,
    Engine,
    Event,
    GameRules,
    MoveNumber,
    Outcome,
    Piece,
    Setting,
    configure,
)
from zrec.rules.serpent.rules import KOLOWIS, MOSONA, SerpentEngine, SerpentPosition
from zrec.rules.stonewarriors.rules import STONE_WARRIORS, StonePosition, StoneWarriors

ONE, NIL, HALF = Fraction(1), Fraction(0), Fraction(1, 2)
SW = StoneWarriors()
CULIN = StoneWarriors("culin")


def go(v: SerpentEngine, pos: SerpentPosition, *moves: str) -> SerpentPosition:
    for text in moves:
        pos, _ = v.apply(pos, v.resolve(pos, turn(text)).move)
    return pos


def sw_events(pos: StonePosition, text: str, v: StoneWarriors = SW) -> tuple[Event, ...]:
    return v.apply(pos, v.resolve(pos, turn(text)).move)[1]


def go_sw(pos: StonePosition, *moves: str, v: StoneWarriors = SW) -> StonePosition:
    for text in moves:
        pos, _ = v.apply(pos, v.resolve(pos, turn(text)).move)
    return pos


def place(white: str, black: str, *, to_move: str = "White", off: str = "-") -> StonePosition:
    """``Pg5`` is a priest on g5, a bare name a warrior."""
    pieces = {s.lstrip("P"): "W" + "P" * s.startswith("P") for s in white.split()}
    pieces |= {s.lstrip("P"): "B" + "P" * s.startswith("P") for s in black.split()}
    return SW.place(pieces, to_move=to_move, priests_off=off)


# -- structural conformance ------------------------------------------------------------


def _check(e: Engine[Any, Any]) -> None:
    """What every two-seat engine without dice promises, walked over a short game."""
    assert e.seats == ("White", "Black") and e.title
    pos = e.start()
    assert e.to_move(pos) == 0 and e.move_number(pos) == MoveNumber(1, 1, True, 0)
    assert e.setup(e.setup_text(pos)) == pos and e.render(pos)
    rng = random.Random(5)
    for _ in range(40):
        if e.outcome(pos) is not None:
            assert e.to_move(pos) is None
            break
        assert e.to_move(pos) in (0, 1) and e.chance(pos) is None
        moves = e.legal_moves(pos, None)
        move = rng.choice(list(moves))
        assert e.resolve(pos, e.spell(pos, move)).move == move
        routes = e.routes(pos, move)
        assert all(isinstance(r, tuple) and r for r in routes)
        pos, events = e.apply(pos, move)
        assert isinstance(events, tuple) and all(isinstance(x, Event) for x in events)
        assert isinstance(e.key(pos), bytes)
        view = e.view(pos)
        assert view.seats == e.seats and view.board is e.view(e.start()).board
        assert {p.square for p in view.pieces} <= set(view.board.cells)
    assert isinstance(e.judge_end(pos, "*", {}), list)


@pytest.mark.parametrize(
    "engine",
    [MOSONA.engine(), KOLOWIS.engine(Pieces="23", Jumps="bent"), SW, CULIN],
    ids=["mosona", "kolowis-23-bent", "stone-warriors", "culin"],
)
def test_engines_meet_the_protocol(engine: SerpentEngine | StoneWarriors) -> None:
    _check(engine)
    assert not hasattr(engine, "turn_label")


def test_games_meet_the_protocol() -> None:
    games: list[GameRules] = [MOSONA, KOLOWIS, STONE_WARRIORS, AWETHI]
    assert list(all_games()) == games
    for game in games[:2]:
        assert game.seats == ("White", "Black") and dict(game.inputs) == {}
    # White and Black, and the four seats of Ludii's team game (Ruleset "ludii")
    assert STONE_WARRIORS.seats == ("White", "Black", "South", "West", "North", "East")
    assert dict(STONE_WARRIORS.inputs) == {}
    assert AWETHI.seats == ("Shepherd1", "Shepherd2", "Shepherd3", "Shepherd4", "Wolves")
    assert sorted(AWETHI.inputs) == ["Herd1", "Herd2", "Herd3", "Herd4", "Map"]
    tags = {"Shepherd1": "a", "Herd1": "cwcbwc"}
    engine = AWETHI.engine_for(configure(AWETHI, tags))
    assert engine is not None and engine.seats == ("Shepherd1", "Wolves")
    kolowis = KOLOWIS.engine_for(configure(KOLOWIS, {"Board": "Open", "Event": "club"}))
    assert kolowis is KOLOWIS.engine(Board="open")
    assert kolowis.options["Pieces"] == "24" and kolowis.title == "Kolowis Awithlaknannai"
    culin = STONE_WARRIORS.engine_for(Setting({"Ruleset": "culin", "First": "Black"}))
    assert isinstance(culin, StoneWarriors)  # not the four-seat engine of Ruleset "ludii"
    assert dict(culin.options) == {"Ruleset": "culin", "First": "Black"}
    assert culin.title == STONE_WARRIORS.title == "Awithlaknakwe (Stone Warriors)"
    assert culin.to_move(culin.start()) == 1


# -- move numbers and whose move it is ----------------------------------------------------


def test_serpent_move_numbers() -> None:
    v = MOSONA.engine()
    start = v.start()
    after_one = go(v, start, "b6-b5")
    assert (
        v.move_number(start) == MoveNumber(1, 1, True, 0) and v.move_number(start).text() == "1."
    )
    assert v.move_number(after_one) == MoveNumber(1, 3, True, 1)
    assert v.move_number(after_one).text() == "1..." and v.to_move(after_one) == 1
    assert v.move_number(go(v, after_one, "b4xb6")) == MoveNumber(2, 1, True, 0)
    black = v.setup("BBBBBBBB/BBBB1WWWW/WWWWWWWW b")  # a Setup with Black to move: "1..."
    assert v.move_number(black) == MoveNumber(1, 3, True, 1) and v.to_move(black) == 1
    assert v.move_number(go(v, black, "b4-b5")) == MoveNumber(2, 1, True, 0)
    first_black = MOSONA.engine(First="Black")
    assert first_black.move_number(first_black.start()) == MoveNumber(1, 1, True, 1)
    assert first_black.to_move(first_black.start()) == 1
    assert first_black.move_number(first_black.setup(v.setup_text(start))) == MoveNumber(
        1, 3, True, 0
    )


def test_stone_warriors_move_numbers_and_entries() -> None:
    start = SW.start()
    assert SW.move_number(start) == MoveNumber(1, 1, True, 0)
    assert SW.move_number(go_sw(start, "e1-e2")) == MoveNumber(1, 3, True, 1)
    black = SW.setup(SW.setup_text(start).replace(" w ", " b "))
    assert (
        SW.move_number(black) == MoveNumber(1, 3, True, 1)
        and SW.move_number(black).text() == "1..."
    )
    assert StoneWarriors(first="Black").move_number(black) == MoveNumber(1, 1, True, 1)
    # Black loses f7: its priest's entry is due and possible, and it is not a turn
    due = go_sw(place("f5 f8 a6 a7 n6 n7", "f7 b12 c12 d12 k12 l12", off="Pp"), "f5-f6xf7")
    assert SW.move_number(due) == MoveNumber(1, 3, False, 1) and SW.to_move(due) == 1
    entered = go_sw(due, "P@g14")
    assert SW.move_number(entered) == MoveNumber(1, 3, True, 1) and SW.to_move(entered) == 1
    # due but the home arm is full: the side plays a turn
    full = go_sw(place("f5 f8 j14 a7 n6 n7", "f7 e14 f14 g14 h14 i14", off="Pp"), "f5-f6xf7")
    assert full.entry_due(1) and SW.move_number(full) == MoveNumber(1, 3, True, 1)


def test_to_move_is_none_once_the_game_is_over() -> None:
    v = MOSONA.engine()
    assert v.to_move(v.setup("8/9/2W5 b")) is None
    assert v.to_move(v.setup("8/1WB1B4/8 w")) == 0
    over = go_sw(place("e14 f14 g13", "b5 c5"), "g13-g14")
    assert SW.to_move(over) is None and SW.legal_moves(over) == ()


# -- events ------------------------------------------------------------------------------


def test_serpent_events() -> None:
    v = MOSONA.engine()
    start = v.start()
    after, events = v.apply(start, v.resolve(start, turn("b6-b5")).move)
    assert events == ()
    _, events = v.apply(after, v.resolve(after, turn("b4xb6")).move)
    assert events == (Event(REMOVED, "White loses b5", ("b5",)),)
    # jumped b4, b5 and a4: the squares come in reading order, row letter first
    pos = v.setup("8/3BB4/2WB4 w")
    _, events = v.apply(pos, v.resolve(pos, turn("a3xc4xa5xa3")).move)
    assert events == (Event(REMOVED, "Black loses a4, b4 and b5", ("a4", "b4", "b5")),)
    k = KOLOWIS.engine()
    pos = k.setup("16/7WB1B6/16 w")
    _, events = k.apply(pos, k.resolve(pos, turn("b8xb10xb12")).move)
    assert events == (Event(REMOVED, "Black loses b9 and b11", ("b9", "b11")),)


NORTH_ARM = ("e14", "f14", "g14", "h14", "i14", "j14")
SOUTH_ARM = ("e1", "f1", "g1", "h1", "i1", "j1")


def test_stone_warriors_events() -> None:
    first_loss = place("f5 f8 a6 a7 n6 n7", "f7 b12 c12 d12 k12 l12", off="Pp")
    assert sw_events(first_loss, "f5-f6xf7") == (
        Event(REMOVED, "Black loses f7", ("f7",)),
        Event("priest-due", "Black's priest must enter on e14-j14", NORTH_ARM),
    )
    # Black has lost pieces before (4 of 7, priest on the board): a removal only
    double = place("f5 f8 h6 b2", "f7 g6 m13")
    assert sw_events(double, "f5-f6xg6xf7") == (
        Event(REMOVED, "Black loses f7 and g6", ("f7", "g6")),
    )
    # White's first loss, its priest off the board
    white_loses = place("e1 f1 g1 h1 i1 g5", "g7 g4 m13", to_move="Black", off="P")
    assert sw_events(white_loses, "g7-g6xg5") == (
        Event(REMOVED, "White loses g5", ("g5",)),
        Event("priest-due", "White's priest must enter on e1-j1", SOUTH_ARM),
    )
    # Black's second loss, its priest still off the board (waiting for room): no priest-due
    second = place("f5 f8 b2", "f7 e14 f14 g14 h14", off="p")
    assert second.entry_due(1)
    assert sw_events(second, "f5-f6xf7") == (Event(REMOVED, "Black loses f7", ("f7",)),)
    assert sw_events(SW.start(), "e1-e2") == ()
    assert sw_events(go_sw(first_loss, "f5-f6xf7"), "P@g14") == ()
    stuck = place("m13", "l13 b5")
    assert sw_events(stuck, "--") == ()


# -- routes ------------------------------------------------------------------------------


def test_routes() -> None:
    v = MOSONA.engine()
    pos = v.setup("8/1WB1B4/8 w")
    chain = v.resolve(pos, turn("b2xb4xb6")).move
    assert v.routes(pos, chain) == (("b2", "b4", "b6"),)
    assert v.routes(v.start(), v.resolve(v.start(), turn("b6-b5")).move) == (("b6", "b5"),)
    capture = place("f5 f8 a6 a7 n6 n7", "f7 b12 c12 d12 k12 l12", off="Pp")
    step = SW.resolve(capture, turn("f5-f6xf7")).move
    assert SW.routes(capture, step) == (("f5", "f6"),)
    due = go_sw(capture, "f5-f6xf7")
    assert SW.routes(due, SW.resolve(due, turn("P@g14")).move) == (("g14",),)
    stuck = place("m13", "l13 b5")
    assert SW.routes(stuck, SW.legal_moves(stuck)[0]) == ()


# -- outcomes ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "options", "termination", "scores", "result"),
    [
        ("8/9/2W5 b", {}, "no-pieces", (ONE, NIL), "1-0"),
        ("B7/9/8 w", {}, "no-pieces", (NIL, ONE), "0-1"),
        ("8/9/8 w", {}, "no-pieces", (HALF, HALF), "1/2-1/2"),
        ("BBBWWWBB/BBBWWWWBB/2WWWWW1 w", {"Board": "open"}, "no-move", (ONE, NIL), "1-0"),
        ("BBBBBWBB/BBBWWWWBB/2WWWWW1 w", {"Board": "open"}, "no-move", (NIL, ONE), "0-1"),
        (
            "BBBWWWBB/BBBWWWWBB/2WWWWW1 w",
            {"Board": "open", "EndRule": "draw"},
            "no-move",
            (HALF, HALF),
            "1/2-1/2",
        ),
    ],
)
def test_serpent_outcomes(
    setup: str,
    options: dict[str, str],
    termination: str,
    scores: tuple[Fraction, ...],
    result: str,
) -> None:
    v = MOSONA.engine(**options)
    end = v.outcome(v.setup(setup))
    assert end is not None and (end.termination, end.scores, end.result) == (
        termination,
        scores,
        result,
    )
    assert all(type(s) is Fraction for s in end.scores)


def test_serpent_outcome_in_full() -> None:
    v = MOSONA.engine()
    assert v.outcome(v.setup("8/9/2W5 b")) == Outcome(
        "no-pieces", (Fraction(1), Fraction(0)), "Black has no pieces left, so White wins"
    )


def test_stone_warriors_outcomes() -> None:
    crossed = SW.outcome(go_sw(place("e14 f14 g13", "b5 c5"), "g13-g14"))
    assert crossed == Outcome(
        "crossed",
        (Fraction(1), Fraction(0)),
        "every White piece on the board stands on Black's home arm; the score is 8-4",
    )
    assert crossed.result == "1-0"
    victim = go_sw(place("f5 f8 a6 a7 n6 n7", "e1 f1 g1 h1 i1 f7", off="Pp"), "f5-f6xf7")
    end = SW.outcome(victim)
    assert end is not None and (end.termination, end.scores, end.result) == (
        "crossed",
        (NIL, ONE),
        "0-1",
    )
    passed = CULIN.setup(CULIN.setup_text(place("c13", "c2")))
    passed = go_sw(passed, "--", "--", v=CULIN)
    end = CULIN.outcome(passed)
    assert end is not None and (end.termination, end.scores, end.result) == (
        "both-passed",
        (HALF, HALF),
        "1/2-1/2",
    )


# -- keys --------------------------------------------------------------------------------


def test_serpent_keys() -> None:
    v = MOSONA.engine()
    pos = v.setup("5B1B/9/W1W5 w")
    one = go(v, pos, "a1-b2", "c8-c7", "a3-b4", "c6-b6")
    other = go(v, pos, "a3-b4", "c6-b6", "a1-b2", "c8-c7")
    assert one == other and v.key(one) == v.key(other)
    again = v.setup(v.setup_text(one))  # the same position, move 1 of a new record
    assert again.ply != one.ply and v.key(again) == v.key(one)
    black = v.setup(v.setup_text(one)[:-1] + "b")
    assert v.key(black) != v.key(one)
    assert v.key(go(v, pos, "a1-b2", "c8-c7")) != v.key(go(v, pos, "a1-a2", "c8-c7"))
    assert len(v.key(v.start())) == 9 and len(KOLOWIS.engine().key(KOLOWIS.engine().start())) == 15


def test_stone_warriors_keys() -> None:
    start = SW.start()
    one = go_sw(start, "e1-e2", "e14-e13", "f1-f2")
    other = go_sw(start, "f1-f2", "e14-e13", "e1-e2")
    assert SW.key(one) == SW.key(other)
    assert SW.key(replace(one, ply=0)) == SW.key(one)
    assert SW.key(replace(one, to_move=0)) != SW.key(one)
    assert SW.key(replace(one, passes=1)) != SW.key(one)
    assert SW.key(replace(one, priests_off=(True, False))) != SW.key(one)
    assert SW.key(go_sw(start, "e1-e2")) != SW.key(go_sw(start, "f1-f2"))
    assert len(SW.key(start)) <= 20


def test_keys_are_canonical_over_random_games() -> None:
    """Two positions have the same key exactly when they have the same Setup string
    (and, in Stone Warriors, the same run of passes)."""
    for v in (MOSONA.engine(), MOSONA.engine(Board="open"), KOLOWIS.engine()):
        rng, seen = random.Random(3), set()
        for _ in range(30):
            pos = v.start()
            while v.outcome(pos) is None and pos.ply < 80:
                seen.add((v.key(pos), v.setup_text(pos)))
                pos, _ = v.apply(pos, rng.choice(v.legal_moves(pos)))
        assert len({k for k, _ in seen}) == len({t for _, t in seen}) == len(seen) > 500
    for e in (SW, CULIN):
        rng, sw_seen = random.Random(3), set()
        for _ in range(6):
            spos = e.start()
            while e.outcome(spos) is None and spos.ply < 150:
                sw_seen.add((e.key(spos), (e.setup_text(spos), spos.passes)))
                spos, _ = e.apply(spos, rng.choice(list(e.legal_moves(spos))))
        assert len({k for k, _ in sw_seen}) == len({t for _, t in sw_seen}) == len(sw_seen) > 500


# -- views -------------------------------------------------------------------------------


def test_serpent_view() -> None:
    v = MOSONA.engine()
    pos = go(v, v.start(), "b6-b5")
    view = v.view(pos)
    assert view.codes() == v.pieces(pos) and len(view.pieces) == 24
    assert view.board is v.view(v.start()).board is v.board
    assert view.board.kind == "lattice" and view.board.cells == v.points
    assert view.board.lines == v.lines and view.board.jumps == v.jumps
    assert view.board.regions == {} and view.seats == ("White", "Black")
    assert view.pieces[0] == Piece("a1", 0, "", "W")
    assert Piece("c8", 1, "", "B") in view.pieces and Piece("b5", 0, "", "W") in view.pieces
    squares = [p.square for p in view.pieces]
    assert squares == [s for s in v.points if s in squares]  # in board order


def test_stone_warriors_view() -> None:
    due = go_sw(place("f5 f8 a6 a7 n6 n7", "f7 b12 c12 d12 k12 l12", off="Pp"), "f5-f6xf7")
    pos = go_sw(due, "P@g14")
    view = SW.view(pos)
    assert view.codes() == SW.pieces(pos) and view.codes()["g14"] == "BP"
    assert Piece("g14", 1, "priest", "BP") in view.pieces
    assert Piece("f6", 0, "", "W") in view.pieces
    assert view.board is SW.view(SW.start()).board is CULIN.view(pos).board
    assert view.board.kind == "grid" and view.board.cells == SW.squares
    regions = view.board.regions
    assert (regions["e1"], regions["j14"], regions["a5"], regions["n10"]) == (
        "south",
        "north",
        "west",
        "east",
    )
    assert regions["b2"] == regions["m13"] == "main" and len(regions) == 168
    squares = [p.square for p in view.pieces]
    assert squares == [s for s in SW.squares if s in squares]
    white_priest = SW.view(place("Pg5 f8", "m13"))
    assert Piece("g5", 0, "priest", "WP") in white_priest.pieces
    assert SW.view(SW.start()).codes() == SW.pieces(SW.start())
