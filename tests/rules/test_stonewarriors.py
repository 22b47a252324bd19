"""Stone Warriors rules (docs/rules.md, Stone Warriors): board, moves, captures, priest
entry, passes, end."""

from __future__ import annotations

import pytest
from written import label, turn

from zrec.moves import Turn, step
from zrec.rules import find_game
from zrec.rules.base import (
    Engine,
    GameRules,
    IllegalMoveError,
    OptionError,
    Setting,
    check_options,
)
from zrec.rules.stonewarriors.board import INDEX, SQUARE_KINDS, SQUARES
from zrec.rules.stonewarriors.rules import STONE_WARRIORS, StoneMove, StonePosition, StoneWarriors

V = StoneWarriors()
CULIN = StoneWarriors("culin")


def place(
    white: str = "",
    black: str = "",
    *,
    to_move: str = "White",
    off: str = "-",
    v: StoneWarriors = V,
) -> StonePosition:
    """A position from square lists; ``Pg5`` is a priest on g5, a bare name a warrior."""
    pieces = {}
    for side, text in (("W", white), ("B", black)):
        for word in text.split():
            pieces[word.lstrip("P")] = side + "P" if word.startswith("P") else side
    return v.place(pieces, to_move=to_move, priests_off=off)


def play(pos: StonePosition, *moves: str, v: StoneWarriors = V) -> StonePosition:
    for text in moves:
        pos, _ = v.apply(pos, v.resolve(pos, turn(text)).move)
    return pos


def legal(pos: StonePosition, v: StoneWarriors = V) -> list[str]:
    return sorted(m.text() for m in v.legal_moves(pos))


def refusal(pos: StonePosition, text: str, v: StoneWarriors = V) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as caught:
        v.resolve(pos, turn(text))
    return caught.value


# -- board and start ---------------------------------------------------------------------


def test_168_squares_and_their_kinds() -> None:
    assert len(SQUARES) == len(set(SQUARES)) == 168 and V.squares == SQUARES
    kinds = list(SQUARE_KINDS.values())
    assert [kinds.count(k) for k in ("main", "south", "north", "west", "east")] == [
        144,
        6,
        6,
        6,
        6,
    ]
    arms = {k: [s for s in SQUARES if SQUARE_KINDS[s] == k] for k in ("south", "north")}
    assert arms == {
        "south": ["e1", "f1", "g1", "h1", "i1", "j1"],
        "north": ["e14", "f14", "g14", "h14", "i14", "j14"],
    }
    assert [s for s in SQUARES if SQUARE_KINDS[s] == "west"] == [f"a{r}" for r in range(5, 11)]
    assert [s for s in SQUARES if SQUARE_KINDS[s] == "east"] == [f"n{r}" for r in range(5, 11)]
    assert V.square_kind("b2") == V.square_kind("m13") == "main"
    for outside in ("a1", "a4", "a11", "b1", "d1", "k1", "n4", "n11", "b14", "m14", "a2"):
        assert outside not in SQUARE_KINDS


def test_registry_names_and_options() -> None:
    for name in ("stone-warriors", "Awithlaknakwe", "stonewarriors", "Stone Warriors"):
        assert find_game(name) is STONE_WARRIORS
    game: GameRules = STONE_WARRIORS  # mypy checks both protocols here
    engine_type: Engine[StonePosition, StoneMove] = V
    assert game.seats == ("White", "Black", "South", "West", "North", "East")
    assert engine_type.options["First"] == "White"
    chosen = check_options(STONE_WARRIORS.options, {"Ruleset": "Culin", "First": "black"})
    assert chosen == {"Ruleset": "culin", "First": "Black"}
    engine = STONE_WARRIORS.engine_for(Setting(chosen))
    assert engine is not None and engine.options == {"Ruleset": "culin", "First": "Black"}
    with pytest.raises(OptionError):
        check_options(STONE_WARRIORS.options, {"Ruleset": "ludi"})


def test_start_position() -> None:
    start = V.start()
    assert V.setup_text(start) == "wwwwww/12/12/12/14/14/14/14/14/14/12/12/12/WWWWWW w Pp"
    assert V.pieces(start) == {
        **{f"{f}1": "W" for f in "efghij"},
        **{f"{f}14": "B" for f in "efghij"},
    }
    assert label(V, start) == (1, "White")
    assert legal(start) == ["e1-e2", "f1-f2", "g1-g2", "h1-h2", "i1-i2", "j1-j2"]
    assert V.score(start) == (0, 0) and V.outcome(start) is None


def test_first_black_and_move_numbers() -> None:
    v = StoneWarriors(first="Black")
    pos = v.start()
    assert label(v, pos) == (1, "Black")
    assert legal(pos, v) == ["e14-e13", "f14-f13", "g14-g13", "h14-h13", "i14-i13", "j14-j13"]
    refusal(pos, "e1-e2", v)
    pos = play(pos, "e14-e13", v=v)
    assert label(v, pos) == (1, "White")
    pos = play(pos, "e1-e2", v=v)
    assert label(v, pos) == (2, "Black")
    assert label(V, play(V.start(), "e1-e2", "e14-e13")) == (2, "White")


# -- moves -------------------------------------------------------------------------------


def test_warrior_moves_forward_or_sideways_never_backward() -> None:
    pos = place("g5", "b13")
    assert legal(pos) == ["g5-f5", "g5-g6", "g5-h5"]
    play(pos, "g5-g6")
    play(pos, "g5-f5")
    e = refusal(pos, "g5-g4")
    assert e.reason == "a warrior never moves backward" and e.code == "illegal-move"
    assert e.legal == ("g5-f5", "g5-g6", "g5-h5")
    assert refusal(pos, "g5-h6").reason == "a warrior moves only forward or sideways"
    assert refusal(pos, "g5-h4").reason == "a warrior never moves backward"
    black = place("g5", "g10", to_move="Black")
    assert legal(black) == ["g10-f10", "g10-g9", "g10-h10"]
    assert refusal(black, "g10-g11").reason == "a warrior never moves backward"


def test_east_and_west_arms_are_ordinary_squares_and_the_edge_stops() -> None:
    assert legal(place("b7", "m2")) == ["b7-a7", "b7-b8", "b7-c7"]
    assert legal(place("a7", "m2")) == ["a7-a8", "a7-b7"]
    assert legal(place("a10", "m2")) == ["a10-b10"]
    assert legal(place("m13", "b2")) == ["m13-l13"]


def test_priest_moves_to_all_eight_neighbours() -> None:
    pos = place("Pg5", "b13")
    assert legal(pos) == [f"g5-{s}" for s in ("f4", "f5", "f6", "g4", "g6", "h4", "h5", "h6")]
    assert legal(place("b2", "Pg10", to_move="Black")) == [
        f"g10-{s}" for s in ("f10", "f11", "f9", "g11", "g9", "h10", "h11", "h9")
    ]


def test_plain_refusals() -> None:
    pos = place("g5 g6 b2", "f7 m13")
    assert refusal(pos, "g5-g6").reason == "g6 is not empty"
    assert refusal(pos, "f7-f6").reason == "there is no White piece on f7"
    assert refusal(pos, "e7-e8").reason == "there is no White piece on e7"
    assert (
        refusal(pos, "g6-g8").reason == "a piece moves one square at a time: g8 is not next to g6"
    )
    assert refusal(pos, "q3-q4").reason == "q3 is not a square of the board"
    assert refusal(pos, "b2-a2").reason == "a2 is not a square of the board"


# -- captures ----------------------------------------------------------------------------


def test_custodian_capture_single() -> None:
    pos = place("f5 f8 b2", "f7 m13")
    assert "f5-f6xf7" in legal(pos)
    after = play(pos, "f5-f6xf7")
    assert V.pieces(after) == {"f6": "W", "f8": "W", "b2": "W", "m13": "B"}
    assert V.score(after) == (6, 4)


def test_double_capture_at_once() -> None:
    pos = place("f5 f8 h6 b2", "f7 g6 m13")
    assert V.resolve(pos, turn("f5-f6xf7xg6")).move.captures == (INDEX["f7"], INDEX["g6"])
    after = play(pos, "f5-f6xg6xf7")  # any written order
    assert set(V.pieces(after)) == {"f6", "f8", "h6", "b2", "m13"}


def test_moving_between_two_enemies_is_safe() -> None:
    pos = place("f5 b2", "e6 g6 m13")
    assert legal(pos).count("f5-f6") == 1
    after = play(pos, "f5-f6", "m13-m12")
    assert V.pieces(after)["f6"] == "W"


def test_capture_needs_a_friendly_piece_beyond_on_the_same_line() -> None:
    assert V.resolve(place("f5 g8 b2", "f7 m13"), turn("f5-f6")).move.captures == ()
    assert V.resolve(place("f5 e8 b2", "f7 m13"), turn("f5-f6")).move.captures == ()
    # orthogonal only in the default rules: a diagonal sandwich captures nothing
    assert V.resolve(place("f5 h8 b2", "g7 m13"), turn("f5-f6")).move.captures == ()
    # the enemy must be next to the piece that moved
    assert V.resolve(place("f4 f8 b2", "f7 m13"), turn("f4-f5")).move.captures == ()


def test_capture_is_active_only() -> None:
    # Black steps in between f6 and f8 itself: nothing is taken; later moves elsewhere
    # do not take it either.
    pos = place("f6 f8 b2 c3", "g7 m13", to_move="Black")
    after = play(pos, "g7-f7", "c3-c4")
    assert V.pieces(after)["f7"] == "B"


def test_priests_capture_and_are_captured() -> None:
    by_priest = place("Pf5 f8 b2", "f7 m13")
    assert V.resolve(by_priest, turn("f5-f6xf7")).move.captures == (INDEX["f7"],)
    priest_as_anvil = place("Pf8 f5 b2", "f7 m13")
    assert V.resolve(priest_as_anvil, turn("f5-f6xf7")).move.captures == (INDEX["f7"],)
    on_priest = place("f5 f8 b2", "Pf7 m13")
    after = play(on_priest, "f5-f6xf7")
    assert "f7" not in V.pieces(after) and after.lost(1) == 6


# -- priest entry ------------------------------------------------------------------------

# White to move; neither side has lost a piece, both priests off the board.
ENTRY = "f5 f8 a6 a7 n6 n7", "f7 b12 c12 d12 k12 l12"


def test_priest_entry_after_the_first_loss_is_its_own_move() -> None:
    pos = play(place(*ENTRY, off="Pp"), "f5-f6xf7")
    assert pos.lost(1) == 1 and label(V, pos) == (1, "Black")
    assert legal(pos) == [f"P@{f}14" for f in "efghij"]
    e = refusal(pos, "b12-b11")
    assert e.reason == (
        "the priest must enter now: place it on an empty square of your home arm (e14-j14)"
    )
    assert e.legal == tuple(f"P@{f}14" for f in "efghij")
    assert refusal(pos, "--").reason == e.reason
    assert (
        refusal(pos, "P@g13").reason
        == "the priest enters on Black's home arm (e14-j14), not on g13"
    )
    entered = play(pos, "P@g14")
    assert V.pieces(entered)["g14"] == "BP" and entered.priests_off == (True, False)
    assert label(V, entered) == (1, "Black") and entered.ply == pos.ply
    assert "g14-g13" in legal(entered) and "b12-b11" in legal(entered)
    after = play(entered, "b12-b11")
    assert label(V, after) == (2, "White")


def test_priest_is_not_in_play_before_a_loss() -> None:
    e = refusal(V.start(), "P@e1")
    assert e.reason == "the priest is not in play yet: it enters when White loses a first piece"
    assert e.legal == ("e1-e2", "f1-f2", "g1-g2", "h1-h2", "i1-i2", "j1-j2")


def test_priest_enters_only_once() -> None:
    white = "a8 b10 b2 c2 d2 k2"  # all six: White's priest is off and not due
    for black in ("b9 Pg14 c12 m13", "b9 c12 m13"):  # priest on the board, or captured
        pos = play(place(white, black, off="P"), "a8-b8xb9")
        assert pos.lost(1) >= 4 and all(m.kind == "step" for m in V.legal_moves(pos))
        e = refusal(pos, "P@h14")
        assert e.reason == "Black's priest has already entered: it enters only once"


def test_entry_on_an_occupied_square_is_refused() -> None:
    pos = play(place("f5 f8 a6 a7 n6 n7", "f7 g14 c12 d12 k12 l12", off="Pp"), "f5-f6xf7")
    assert refusal(pos, "P@g14").reason == "g14 is not empty"
    assert legal(pos) == ["P@e14", "P@f14", "P@h14", "P@i14", "P@j14"]


def test_entry_waits_while_the_home_arm_is_full() -> None:
    white = "f5 f8 j14 a7 n6 n7"
    black = "f7 e14 f14 g14 h14 i14"
    pos = play(place(white, black, off="Pp"), "f5-f6xf7")
    assert pos.entry_due(1) and pos.entries() == ()
    assert "P@e14" not in legal(pos) and "e14-e13" in legal(pos)
    assert refusal(pos, "P@e14").reason == (
        "every square of Black's home arm (e14-j14) is taken: the priest enters at the start "
        "of a later turn, once one is empty"
    )
    pos = play(pos, "e14-e13")  # frees e14, but the entry waits for Black's next turn
    assert legal(pos)[0] != "P@e14" and pos.to_move == 0
    pos = play(pos, "a7-a8")
    assert legal(pos) == ["P@e14"] and label(V, pos) == (2, "Black")
    pos = play(pos, "P@e14")
    assert label(V, pos) == (2, "Black") and pos.priests_off == (True, False)


def test_entry_due_on_a_full_arm_with_no_move_passes() -> None:
    pos = place("e13 f13 g13 h13 i13 j14", "e14 f14 g14 h14 i14", to_move="Black", off="Pp")
    assert pos.entry_due(1) and legal(pos) == ["--"]
    assert V.resolve(pos, turn("--")).move.kind == "pass"


# -- passes and the end ------------------------------------------------------------------


def test_pass_only_without_a_legal_move() -> None:
    e = refusal(V.start(), "--")
    assert e.reason == "White cannot pass: it has legal moves"
    stuck = place("m13", "l13 b5")
    assert legal(stuck) == ["--"]
    after = play(stuck, "--")
    assert after.passes == 1 and label(V, after) == (1, "Black") and V.outcome(after) is None
    assert play(after, "b5-b4").passes == 0


def test_two_passes_in_a_row_end_the_game() -> None:
    pos = place("c13", "c2", off="-", v=CULIN)
    assert legal(pos, CULIN) == ["--"]
    pos = play(pos, "--", v=CULIN)
    assert legal(pos, CULIN) == ["--"] and CULIN.outcome(pos) is None
    pos = play(pos, "--", v=CULIN)
    end = CULIN.outcome(pos)
    assert end is not None and end.result == "1/2-1/2"
    assert end.reason == "both sides had to pass, one after the other; the score is 6-6"
    assert CULIN.legal_moves(pos) == ()
    e = refusal(pos, "--", CULIN)
    assert e.code == "game-over" and e.reason.startswith("the game is over: both sides")


def test_an_entry_does_not_break_a_run_of_passes() -> None:
    # White passed; Black's priest is due (Black has lost 4) and enters first.
    pos = StonePosition(place("m13", "l13 b5").cells, 1, (False, True), ply=3, passes=1)
    assert legal(pos)[0] == "P@e14"
    entered = play(pos, "P@e14")
    assert (entered.passes, entered.ply, entered.to_move) == (1, 3, 1)
    assert play(entered, "e14-e13").passes == 0


def test_game_ends_when_all_remaining_pieces_reach_the_enemy_arm() -> None:
    pos = place("e14 f14 g13", "b5 c5")
    assert V.outcome(pos) is None
    over = play(pos, "g13-g14")
    end = V.outcome(over)
    assert end is not None and end.result == "1-0"
    assert end.reason == (
        "every White piece on the board stands on Black's home arm; the score is 8-4"
    )
    assert V.legal_moves(over) == ()


def test_a_capture_can_end_the_game_for_the_victim_before_its_priest_enters() -> None:
    pos = place("f5 f8 a6 a7 n6 n7", "e1 f1 g1 h1 i1 f7", off="Pp")
    over = play(pos, "f5-f6xf7")
    end = V.outcome(over)
    assert end is not None and end.result == "0-1"
    assert end.reason.startswith("every Black piece on the board stands on White's home arm")
    assert V.legal_moves(over) == () and V.score(over) == (1, 5)


def test_a_side_with_no_piece_left_ends_the_game() -> None:
    over = play(place("f5 f8", "f7"), "f5-f6xf7")
    end = V.outcome(over)
    assert end is not None and end.result == "1-0"
    assert end.reason == "Black has no piece left on the board; the score is 7-5"


def test_score_counts_arrivals_and_captures() -> None:
    pos = place("e14 f14 g14 h14 b2", "e1 c9", off="p")
    # White: 4 on Black's arm + Black lost 7-2-1 = 4; Black: 1 on White's arm + 2 lost
    assert V.score(pos) == (8, 3)
    assert (pos.lost(0), pos.lost(1), pos.across(0), pos.across(1)) == (2, 4, 4, 1)


# -- the Culin ruleset ---------------------------------------------------------------------


def test_culin_warriors_step_diagonally_forward_only() -> None:
    pos = place("g5", "b13", v=CULIN)
    assert legal(pos, CULIN) == ["g5-f6", "g5-h6"]
    assert refusal(pos, "g5-g6", CULIN).reason == (
        "under the Culin rules a warrior moves only diagonally forward"
    )
    assert refusal(pos, "g5-f5", CULIN).reason == refusal(pos, "g5-g6", CULIN).reason
    assert refusal(pos, "g5-f4", CULIN).reason == "a warrior never moves backward"
    assert legal(place("g5", "g10", to_move="Black", v=CULIN), CULIN) == ["g10-f9", "g10-h9"]
    assert legal(CULIN.start(), CULIN)[:3] == ["e1-d2", "e1-f2", "f1-e2"]


def test_culin_priest_steps_sideways_forward_or_diagonally_forward() -> None:
    pos = place("Pg5", "b13", v=CULIN)
    assert legal(pos, CULIN) == ["g5-f5", "g5-f6", "g5-g6", "g5-h5", "g5-h6"]
    for back in ("g5-g4", "g5-f4", "g5-h4"):
        assert refusal(pos, back, CULIN).reason == (
            "under the Culin rules the priest never moves backward"
        )


def test_culin_captures_along_diagonals_only() -> None:
    diagonal = place("e5 h8 b2", "g7 m13", v=CULIN)
    assert CULIN.resolve(diagonal, turn("e5-f6xg7")).move.captures == (INDEX["g7"],)
    orthogonal = place("e5 f8 b2", "f7 m13", v=CULIN)
    assert CULIN.resolve(orthogonal, turn("e5-f6")).move.captures == ()


def test_culin_priest_enters_on_the_home_arm() -> None:
    pos = play(
        place("e5 h8 a6 a7 n6 n7", "g7 b12 c12 d12 k12 l12", off="Pp", v=CULIN),
        "e5-f6xg7",
        v=CULIN,
    )
    assert legal(pos, CULIN) == [f"P@{f}14" for f in "efghij"]


def test_plain_step_does_not_build_the_move_list(monkeypatch: pytest.MonkeyPatch) -> None:
    v = StoneWarriors()

    def boom(pos: StonePosition) -> list[object]:
        raise AssertionError("legal_moves called")

    monkeypatch.setattr(v, "legal_moves", boom)
    assert v.resolve(v.start(), Turn((step("e1", "e2"),))).move.text() == "e1-e2"
