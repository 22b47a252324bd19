"""Stone Warriors and records: written moves, Setup strings, results, Score, drawings."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from written import label, turn

from zrec.moves import Action, Dice, Turn
from zrec.rules.base import Finding, IllegalMoveError, SetupError
from zrec.rules.stonewarriors.board import NAME
from zrec.rules.stonewarriors.rules import StoneMove, StonePosition, StoneWarriors

V = StoneWarriors()
START = "wwwwww/12/12/12/14/14/14/14/14/14/12/12/12/WWWWWW w Pp"


def place(white: str, black: str, *, to_move: str = "White", off: str = "-") -> StonePosition:
    pieces = {s.lstrip("P"): "W" + "P" * s.startswith("P") for s in white.split()}
    pieces |= {s.lstrip("P"): "B" + "P" * s.startswith("P") for s in black.split()}
    return V.place(pieces, to_move=to_move, priests_off=off)


def refusal(pos: StonePosition, written: Turn | str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as caught:
        V.resolve(pos, turn(written) if isinstance(written, str) else written)
    return caught.value


# -- captures in the notation ------------------------------------------------------------

DOUBLE = "f5 f8 h6 b2", "f7 g6 m13"


def test_spelled_captures_come_by_file_then_rank() -> None:
    pos = place(*DOUBLE)
    move = V.resolve(pos, turn("f5-f6xf7xg6")).move
    assert V.spell(pos, move) == Turn(
        (Action("path", ("f5", "f6", "f7", "g6"), ("-", "x", "x"), (None, None, None)),)
    )
    assert V.spell(pos, move).text() == "f5-f6xf7xg6" == str(move)


def test_missing_captures_are_accepted_with_a_warning() -> None:
    pos = place(*DOUBLE)
    resolved = V.resolve(pos, turn("f5-f6"))
    assert resolved.move.text() == "f5-f6xf7xg6"
    assert resolved.notes == (
        Finding("missing-captures", "warning", "f5-f6 captures f7 and g6; write f5-f6xf7xg6"),
    )
    single = V.resolve(place("f5 f8 b2", "f7 m13"), turn("f5-f6"))
    assert single.notes[0].message == "f5-f6 captures f7; write f5-f6xf7"
    assert V.resolve(pos, turn("f5-f6xf7xg6")).notes == ()


@pytest.mark.parametrize(
    ("written", "reason"),
    [
        ("f5-f6xf7", "f5-f6 captures f7 and g6, not f7 alone"),
        ("f5-f6xf7xg6xe6", "f5-f6 captures f7 and g6, not f7, g6 and e6"),
        ("f5-f6xe6", "f5-f6 captures f7 and g6, not e6"),
    ],
)
def test_wrong_captures_are_refused(written: str, reason: str) -> None:
    e = refusal(place(*DOUBLE), written)
    assert (e.code, e.reason) == ("wrong-captures", reason)
    assert "f5-f6xf7xg6" in e.legal and list(e.legal) == sorted(e.legal)


def test_captures_written_where_there_are_none() -> None:
    single = place("f5 f8 b2", "f7 m13")
    assert refusal(single, "f5-f6xf7xg6").reason == "f5-f6 captures f7 alone, not f7 and g6"
    e = refusal(place("f5 b2", "f7 m13"), "f5-f6xf7")
    assert (e.code, e.reason) == ("wrong-captures", "f5-f6 captures nothing, not f7")


def test_malformed_written_moves() -> None:
    start = V.start()
    assert refusal(start, "e1xe2").reason == (
        "write the step with '-' (e1-e2), then each captured square after 'x'"
    )
    assert refusal(start, "e1-e2-e3").reason == refusal(start, "e1xe2").reason
    jump = Turn((Action("path", ("e1", "e3"), ("-",), ("e2",)),))
    assert refusal(start, jump).reason == "pieces never jump in Stone Warriors: write no (square)"
    rolled = Turn((Action("path", ("e1", "e2"), ("-",), (None,)),), Dice((3,)))
    assert refusal(start, rolled).reason == "Stone Warriors is played without dice: write no roll"
    two = Turn((*turn("e1-e2").actions, *turn("f1-f2").actions))
    assert refusal(start, two).reason == (
        "write one move at a time (an entry is a move of its own)"
    )
    assert refusal(start, Turn((Action("herd"),))).reason == "H is not a move of Stone Warriors"
    warrior = Turn((Action("drop", ("e2",), piece="W"),))
    assert refusal(start, warrior).reason == "only the priest is placed on the board: write P@e2"
    assert refusal(start, "P@z9").reason == "z9 is not a square of the board"
    bare = Turn((Action("path", ("e1",), (), ()),))
    assert (
        refusal(start, bare).reason == "a move names the square it leaves and the one it reaches"
    )
    assert refusal(start, Turn((Action("drop", (), piece="P"),))).reason == (
        "an entry names one square, e.g. P@g14"
    )


# -- round trips over random games -------------------------------------------------------


def advances(move: StoneMove, side: int) -> bool:
    """Whether a step goes forward (towards rank 14 for White, rank 1 for Black)."""
    if move.kind != "step":
        return True
    climb = int(NAME[move.target][1:]) - int(NAME[move.origin][1:])
    return climb > 0 if side == 0 else climb < 0


def random_positions(v: StoneWarriors, seed: int, games: int, plies: int) -> list[StonePosition]:
    """Every position of random games; the players lean to captures and forward steps."""
    rng = random.Random(seed)
    seen = []
    for _ in range(games):
        pos = v.start()
        for _ in range(plies):
            seen.append(pos)
            moves = list(v.legal_moves(pos))
            if not moves:
                break
            eager = [m for m in moves if m.captures or advances(m, pos.to_move)]
            pos, _ = v.apply(pos, rng.choice(eager if eager and rng.random() < 0.7 else moves))
        seen.append(pos)
    return seen


@pytest.mark.parametrize(
    ("ruleset", "expected"),
    [("default", {"step", "stepx", "enter"}), ("culin", {"step", "stepx", "enter", "pass"})],
)
def test_spell_resolve_round_trip_over_random_games(ruleset: str, expected: set[str]) -> None:
    v = StoneWarriors(ruleset)
    kinds: set[str] = set()
    ends: set[str] = set()
    for pos in random_positions(v, seed=2024, games=10, plies=300):
        for move in v.legal_moves(pos):
            kinds.add(move.kind + ("x" if move.captures else ""))
            written = v.spell(pos, move)
            assert written.text() == move.text()
            resolved = v.resolve(pos, written)
            assert resolved.move == move and resolved.notes == ()
        again = v.setup(v.setup_text(pos))
        assert (again.cells, again.to_move, again.priests_off) == (
            pos.cells,
            pos.to_move,
            pos.priests_off,
        )
        end = v.outcome(pos)
        if end is not None:
            ends.add(end.reason.split(";")[0].split(" piece")[0])
    assert kinds == expected
    assert ends, "some random games should end by rule"


def test_random_games_keep_the_piece_counts() -> None:
    for pos in random_positions(V, seed=7, games=6, plies=500):
        for side in (0, 1):
            assert 0 <= pos.lost(side) <= 7 and pos.on_board(side) <= 7
            assert pos.cells.count("Pp"[side]) <= 1


# -- Setup strings -------------------------------------------------------------------------


def test_setup_round_trip() -> None:
    assert V.setup(START) == V.start()
    for text in (
        START,
        "6/11w/12/12/14/14/5W8/5w8/14/5W8/12/12/W11/6 w p",
        "p5/12/12/12/14/14/14/14/14/13P/12/12/12/6 b -",
        "wwwww1/12/12/12/14/14/14/14/14/14/12/12/12/WWWWWW b Pp",
    ):
        assert V.setup_text(V.setup(text)) == text
    pos = V.setup("6/11w/12/12/14/14/5W8/5w8/14/5W8/12/12/W11/6 w p")
    assert V.pieces(pos) == {"m13": "B", "f8": "W", "f7": "B", "f5": "W", "b2": "W"}
    assert (pos.lost(0), pos.lost(1), pos.priests_off) == (4, 4, (False, True))


def test_setup_numbers_the_moves_from_the_side_to_move() -> None:
    black_to_move = V.setup(START.replace(" w ", " b "))
    assert label(V, black_to_move) == (1, "Black")
    assert label(V, V.apply(black_to_move, V.legal_moves(black_to_move)[0])[0]) == (2, "White")
    assert label(StoneWarriors(first="Black"), black_to_move) == (1, "Black")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (START.split()[0] + " w", "a Setup string has three fields"),
        ("/".join(START.split()[0].split("/")[:13]) + " w Pp", "the board has 13 ranks"),
        (START.replace("wwwwww", "wwwww"), "rank 14 describes 5 squares; it has 6 (e14-j14)"),
        (START.replace("/12/12/12/14", "/12/11/12/14"), "rank 12 describes 11 squares; it has 12"),
        (START.replace("/14/14/14/14/14/14/", "/14/14/15/14/14/14/"), "rank 8 describes 15"),
        (
            START.replace("wwwwww/12", "wwwwww/w11"),
            "Black has 7 warriors on the board; a side has 6",
        ),
        (START.replace("/12/12/12/WWWWWW", "/P11/P11/12/WWWWWW"), "White has 2 priests"),
        (START.replace("wwwwww/12", "wwwwww/x11"), "rank 13 has 'x'"),
        (START.replace("wwwwww/12", "wwwwww/012"), "rank 13 has '012'"),
        (START.replace(" w ", " white "), "the side to move is 'white': write w (White) or b"),
        (START.replace(" Pp", " PP"), "the priests off the board are 'PP'"),
        (START.replace(" Pp", " Q"), "the priests off the board are 'Q'"),
        (START.replace("/12/12/12/WWWWWW", "/P11/12/12/WWWWW1"), "White's priest is both on"),
        (START.replace(" Pp", " p"), "White's priest has entered, but all 6 White warriors"),
    ],
)
def test_setup_errors(text: str, message: str) -> None:
    with pytest.raises(SetupError) as caught:
        V.setup(text)
    assert str(caught.value).startswith(message)


def test_place_refuses_bad_codes() -> None:
    with pytest.raises(SetupError, match="cannot place 'X' on 'e1'"):
        V.place({"e1": "X"})
    with pytest.raises(SetupError, match="cannot place 'W' on 'a1'"):
        V.place({"a1": "W"})


# -- results and the Score tag -------------------------------------------------------------

ARRIVED = "e14 f14 g14", "b5 c5"  # White has every piece on Black's arm: 8-4


def test_judge_a_finished_game() -> None:
    pos = place(*ARRIVED)
    assert V.outcome(pos) is not None
    assert V.judge_end(pos, "1-0", {"Score": "8-4"}) == []
    assert V.judge_end(pos, "0-1", {}) == [
        Finding(
            "wrong-result",
            "error",
            "the game is over (every White piece on the board stands on Black's home arm; "
            "the score is 8-4), so the result is 1-0, not 0-1",
        )
    ]
    assert [f.code for f in V.judge_end(pos, "*", {})] == ["wrong-result"]
    assert [f.code for f in V.judge_end(pos, "2-0", {})] == ["wrong-result"]


def test_score_tag_is_checked() -> None:
    pos = place(*ARRIVED)
    assert V.judge_end(pos, "1-0", {"Score": "8-3"}) == [
        Finding(
            "wrong-score",
            "error",
            '[Score "8-3"] is wrong: the score is 8-4 (White: 3 on Black\'s home arm + 5 '
            "captured; Black: 4 captured)",
            "Score",
        )
    ]
    bad = V.judge_end(pos, "1-0", {"Score": "eight-four"})
    assert [(f.code, f.severity) for f in bad] == [("bad-score", "error")]
    assert bad[0].message.startswith('[Score "eight-four"] is not a score')
    start = V.start()
    assert V.judge_end(start, "*", {"Score": "0-0"}) == []
    assert V.judge_end(start, "*", {"Score": "1-0"})[0].message == (
        '[Score "1-0"] is wrong: the score is 0-0 (White: 0; Black: 0)'
    )


def test_a_result_before_the_end_is_a_game_ended_early() -> None:
    start = V.start()
    assert V.judge_end(start, "*", {}) == []
    (found,) = V.judge_end(start, "1/2-1/2", {})
    assert (found.code, found.severity) == ("ended-early", "warning")
    assert found.message == (
        "the game is not over by rule (White is to move; the score is 0-0 (White: 0; "
        "Black: 0)): the result 1/2-1/2 records a game ended by agreement or abandoned"
    )


def test_moves_after_the_end_are_refused() -> None:
    e = refusal(place(*ARRIVED, to_move="Black"), "b5-b4")
    assert e.code == "game-over" and e.legal == ()
    assert e.reason == (
        "the game is over: every White piece on the board stands on Black's home arm; the "
        "score is 8-4"
    )


# -- pictures ------------------------------------------------------------------------------


def test_render_draws_the_cross() -> None:
    pos = replace(V.setup("6/11w/12/12/14/14/5W8/5w8/14/5W8/12/12/W11/6 b p"), ply=7)
    assert V.render(pos).splitlines() == [
        "    a b c d e f g h i j k l m n",
        "14          . . . . . .",
        "13    . . . . . . . . . . . w",
        "12    . . . . . . . . . . . .",
        "11    . . . . . . . . . . . .",
        "10  . . . . . . . . . . . . . .",
        " 9  . . . . . . . . . . . . . .",
        " 8  . . . . . W . . . . . . . .",
        " 7  . . . . . w . . . . . . . .",
        " 6  . . . . . . . . . . . . . .",
        " 5  . . . . . W . . . . . . . .",
        " 4    . . . . . . . . . . . .",
        " 3    . . . . . . . . . . . .",
        " 2    W . . . . . . . . . . .",
        " 1          . . . . . .",
        "    a b c d e f g h i j k l m n",
        "Black to move (move 4); priests off the board: Black; score 4-4",
        "Black's priest must enter now, on e14-j14",
    ]
