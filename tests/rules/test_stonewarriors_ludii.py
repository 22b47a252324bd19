"""Stone Warriors under Ludii's rules (``[Ruleset "ludii"]``): the point board, the
four seats in two teams, the moves, captures along every line, the large piece placed
on the captured point, the end, the score and the result (docs/rules.md, "Ludii's
reading")."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from zrec.moves import PASS, Action, Turn
from zrec.research.perft import perft
from zrec.rules.base import IllegalMoveError, OptionConflict, OptionError, Setting, SetupError
from zrec.rules.stonewarriors import points
from zrec.rules.stonewarriors.rules import STONE_WARRIORS
from zrec.rules.stonewarriors.teams import TeamMove, TeamPosition, TeamStoneWarriors

LUDII = {"Ruleset": "ludii", "First": "White"}


def engine() -> TeamStoneWarriors:
    made = STONE_WARRIORS.engine_for(Setting(LUDII))
    assert isinstance(made, TeamStoneWarriors)
    return made


V = engine()
HALF, ONE, NIL = Fraction(1, 2), Fraction(1), Fraction(0)


def path(*squares: str) -> Turn:
    n = len(squares) - 1
    return Turn((Action("path", squares, ("-",) + ("x",) * (n - 1), (None,) * n),))


def moves(pos: TeamPosition) -> list[str]:
    return sorted(m.text() for m in V.legal_moves(pos))


def play(pos: TeamPosition, *written: str) -> TeamPosition:
    for text in written:
        move = next(m for m in V.legal_moves(pos) if m.text() == text)
        pos = V.apply(pos, move)[0]
    return pos


# -- the board -------------------------------------------------------------------------


def test_the_point_board() -> None:
    assert len(points.POINTS) == 365 and len(points.LINES) == 1036
    assert sum(points.CENTRE) == 168  # a centre for every square
    # rows 1-29 south to north; a centre takes the letter of the line west of it
    assert points.POINTS[:7] == ("e1", "f1", "g1", "h1", "i1", "j1", "k1")
    assert points.POINTS[7:13] == ("e2", "f2", "g2", "h2", "i2", "j2")
    assert points.POINTS[-1] == "k29"

    def around(name: str) -> dict[str, str]:
        i = points.INDEX[name]
        return {
            points.DIRECTION_NAMES[d]: points.POINTS[points.STEP[d][i]]
            for d in range(8)
            if points.STEP[d][i] >= 0
        }

    # a corner of the main grid: 4 corners along the sides, 4 centres on the diagonals
    assert around("g9") == {
        "north": "g11", "north-east": "g10", "east": "h9", "south-east": "g8",
        "south": "g7", "south-west": "f8", "west": "f9", "north-west": "f10",
    }
    # a centre: its square's 4 corners only
    assert around("f8") == {
        "north-east": "g9", "south-east": "g7", "south-west": "f7", "north-west": "f9",
    }
    # the corner where the south arm meets the main grid: no line runs south-west
    assert around("e3") == {
        "north": "e5", "north-east": "e4", "east": "f3", "south-east": "e2",
        "south": "e1", "west": "d3", "north-west": "d4",
    }
    assert points.BOARD.kind == "points" and points.BOARD.cells == points.POINTS


# -- seats, start and options ----------------------------------------------------------------


def test_seats_options_and_conflicts() -> None:
    assert V.seats == ("South", "West", "North", "East")
    assert dict(V.options) == LUDII and V.title == "Awithlaknakwe (Stone Warriors)"
    assert STONE_WARRIORS.random_tags(4, random.Random(0)) == {"Ruleset": "ludii"}
    with pytest.raises(OptionConflict) as caught:
        STONE_WARRIORS.engine_for(Setting({"Ruleset": "ludii", "First": "Black"}))
    assert str(caught.value) == (
        'First "Black" cannot go with Ruleset "ludii": under Ludii\'s rules South always '
        "moves first (the First tag chooses between White and Black, which this rule set "
        "does not have)"
    )
    assert isinstance(caught.value, OptionError) and caught.value.tag == "First"
    # the other combinations are legal readings
    for ruleset in ("default", "culin"):
        for first in ("White", "Black"):
            made = STONE_WARRIORS.engine_for(Setting({"Ruleset": ruleset, "First": first}))
            assert made is not None and made.seats == ("White", "Black")


def test_start_position_and_its_moves() -> None:
    start = V.start()
    assert V.pieces(start) == {
        **{p: "S" for p in ("e2", "f2", "g2", "h2", "i2", "j2")},
        **{p: "W" for p in ("a10", "a12", "a14", "a16", "a18", "a20")},
        **{p: "N" for p in ("e28", "f28", "g28", "h28", "i28", "j28")},
        **{p: "E" for p in ("n10", "n12", "n14", "n16", "n18", "n20")},
    }
    assert V.setup(V.setup_text(start)) == start
    assert V.setup_text(start).endswith(" s SWNE 0-0-0-0")
    assert V.to_move(start) == 0 and V.move_number(start).text() == "1."
    # South's warriors step north-east or north-west, from centre to corner
    assert moves(start) == [
        "e2-e3", "e2-f3", "f2-f3", "f2-g3", "g2-g3", "g2-h3",
        "h2-h3", "h2-i3", "i2-i3", "i2-j3", "j2-j3", "j2-k3",
    ]
    after = play(start, "e2-e3")
    assert V.move_number(after).text() == "1..." and V.to_move(after) == 1
    # West faces east: north-east or south-east
    assert moves(after)[:4] == ["a10-b11", "a10-b9", "a12-b11", "a12-b13"]
    after = play(after, "a10-b9")
    # North faces south: south-east or south-west
    assert moves(after)[:4] == ["e28-e27", "e28-f27", "f28-f27", "f28-g27"]
    after = play(after, "e28-e27")
    # East faces west: north-west or south-west
    assert moves(after)[:4] == ["n10-n11", "n10-n9", "n12-n11", "n12-n13"]
    after = play(after, "n10-n9")
    assert V.move_number(after).text() == "2." and V.to_move(after) == 0
    # from a corner a warrior steps on to a centre
    assert [m for m in moves(after) if m.startswith("e3")] == ["e3-d4", "e3-e4"]


def test_perft_from_the_start() -> None:
    # Ludii 1.3.13 counts the same on its own Awithlaknakwe.lud (depths 1-6, the sixth
    # 2,585,664, docs/perft.md): counted with a driver of the Ludii source, outside zrec.
    assert perft(STONE_WARRIORS, {"Ruleset": "ludii"}, 5) == [12, 144, 1728, 20736, 231552]


# -- moves of the large piece ---------------------------------------------------------------


def test_large_piece_steps_right_left_forward_and_diagonally_forward() -> None:
    pos = V.place({"g9": "SL", "c9": "WL", "k19": "NL", "m21": "EL"}, hands="")
    assert moves(pos) == ["g9-f10", "g9-f9", "g9-g10", "g9-g11", "g9-h9"]
    pos = V.place({"g9": "SL", "f10": "S"}, hands="")
    assert moves(pos) == ["f10-f11", "f10-g11", "g9-f9", "g9-g10", "g9-g11", "g9-h9"]
    # from a centre only the diagonal steps exist
    pos = V.place({"f8": "SL"}, hands="")
    assert moves(pos) == ["f8-f9", "f8-g9"]
    pos = V.place({"g9": "WL"}, to_move="West", hands="")
    assert moves(pos) == ["g9-g10", "g9-g11", "g9-g7", "g9-g8", "g9-h9"]
    pos = V.place({"g9": "NL"}, to_move="North", hands="")
    assert moves(pos) == ["g9-f8", "g9-f9", "g9-g7", "g9-g8", "g9-h9"]
    pos = V.place({"g9": "EL"}, to_move="East", hands="")
    assert moves(pos) == ["g9-f10", "g9-f8", "g9-f9", "g9-g11", "g9-g7"]


# -- captures and the large piece's placement ----------------------------------------------


def test_capture_along_sides_and_half_diagonals_places_the_large_piece() -> None:
    pos = V.place({"f8": "S", "h9": "W", "i9": "E", "g11": "N", "g13": "S"}, hands="SWNE")
    assert moves(pos) == ["f8-f9", "f8-g9xg11xh9", "g13-f14", "g13-g14"]
    (move,) = [m for m in V.legal_moves(pos) if m.captures]
    # two lines at once (north, then east: Ludii's order): the large piece goes north
    assert move == TeamMove("step", points.INDEX["f8"], points.INDEX["g9"],
                            (points.INDEX["g11"], points.INDEX["h9"]), points.INDEX["g11"])
    after, events = V.apply(pos, move)
    assert V.pieces(after) == {"g9": "S", "g11": "SL", "i9": "E", "g13": "S"}
    assert after.scores == (2, 0, 0, 0) and after.hands == (False, True, True, True)
    assert [(e.code, e.message, e.squares) for e in events] == [
        ("removed", "West and North lose g11 and h9; South scores 2", ("g11", "h9")),
        ("large-placed", "South's large piece is placed on g11", ("g11",)),
    ]
    # along a half diagonal: from the corner n17 over the centre m16 to the corner m15
    pos = V.place({"n16": "E", "m16": "W", "m15": "S"}, to_move="East", hands="E")
    assert moves(pos) == ["n16-n15", "n16-n17xm16"]
    after = play(pos, "n16-n17xm16")
    assert V.pieces(after) == {"n17": "E", "m16": "EL", "m15": "S"}
    assert after.scores == (0, 0, 0, 1) and after.to_move == 0


def test_no_capture_without_a_friend_beyond_or_of_a_friend() -> None:
    # beyond the enemy stands an enemy: nothing; a partner's piece is never taken
    pos = V.place({"f8": "S", "h9": "W", "i9": "N", "g11": "E", "g13": "S"})
    assert moves(pos) == ["f8-f9", "f8-g9", "g13-f14", "g13-g14"]
    # a piece that steps in between two enemies is safe
    pos = V.place({"f8": "S", "f9": "W", "h9": "N"})
    assert "f8-g9" in moves(pos)
    # the large piece already placed: a later capture places nothing
    pos = V.place({"f8": "S", "h9": "W", "i9": "S", "a20": "SL"}, hands="WNE")
    (move,) = [m for m in V.legal_moves(pos) if m.captures]
    assert move.text() == "f8-g9xh9" and move.placed == -1
    after = V.apply(pos, move)[0]
    assert V.pieces(after) == {"g9": "S", "i9": "S", "a20": "SL"}


# -- the end, the score and the result ------------------------------------------------------

#: One move from the end: North's e3-e2 brings the last piece home.
NEAR_END = {"g28": "S", "a14": "SL", "a16": "E", "h28": "EL", "f2": "W", "n12": "WL",
            "e3": "N", "n14": "NL"}


def test_the_game_ends_when_both_teams_stand_on_the_other_teams_start_points() -> None:
    pos = V.place(NEAR_END, to_move="North", scores=(2, 1, 1, 1))
    assert V.outcome(pos) is None and moves(pos) == ["e3-e2", "n14-n13", "n14-o13"]
    end = play(pos, "e3-e2")
    outcome = V.outcome(end)
    assert outcome is not None and V.to_move(end) is None and V.legal_moves(end) == ()
    assert outcome.termination == "crossed" and outcome.result == "1-0-0-1"
    assert outcome.reason == (
        "both teams stand on the other team's start points; captures 3-2 (South and East "
        "against West and North; South 2, West 1, North 1, East 1)"
    )
    assert V.judge_end(end, "1-0-0-1", {"Score": "2-1-1-1"}) == []
    (wrong,) = V.judge_end(end, "0-1-1-0", {})
    assert (wrong.code, wrong.message) == (
        "wrong-result",
        f"the game is over ({outcome.reason}), so the result is 1-0-0-1, not 0-1-1-0",
    )
    (score,) = V.judge_end(end, "1-0-0-1", {"Score": "3-2"})
    assert (score.code, score.message) == (
        "bad-score",
        '[Score "3-2"] is not a score: write the captures of South, West, North and East, '
        'e.g. [Score "2-1-0-1"]',
    )
    # equal captures: a draw; West and North ahead: they win
    even = play(V.place(NEAR_END, to_move="North", scores=(1, 1, 1, 1)), "e3-e2")
    assert V.outcome(even) is not None and V.outcome(even).result == "1/2-1/2-1/2-1/2"  # type: ignore[union-attr]
    behind = play(V.place(NEAR_END, to_move="North", scores=(0, 1, 1, 0)), "e3-e2")
    assert V.outcome(behind).result == "0-1-1-0"  # type: ignore[union-attr]


def test_a_large_piece_in_hand_does_not_keep_the_game_going() -> None:
    # Ludii tests the pieces on the board only (its driver, on this position: over)
    placed = {p: c for p, c in NEAR_END.items() if c != "WL"}
    end = play(V.place(placed, to_move="North", hands="W", scores=(0, 2, 0, 1)), "e3-e2")
    assert V.outcome(end) is not None and V.outcome(end).result == "0-1-1-0"  # type: ignore[union-attr]
    # one piece off the start points: the game goes on
    pos = play(V.place({**placed, "g27": "N"}, to_move="North", hands="W"), "e3-e2")
    assert V.outcome(pos) is None and V.to_move(pos) == 3
    (early,) = V.judge_end(pos, "1/2-1/2-1/2-1/2", {})
    assert early.code == "ended-early"


def test_four_passes_in_a_row_draw() -> None:
    # every seat's last warrior stands where it can go no further
    pos = V.place({"e29": "S", "o11": "W", "e1": "N", "a11": "E"})
    for seat in range(4):
        assert V.to_move(pos) == seat and list(V.legal_moves(pos)) == [TeamMove("pass")]
        assert V.resolve(pos, Turn((PASS,))).move == TeamMove("pass")
        pos = V.apply(pos, TeamMove("pass"))[0]
    outcome = V.outcome(pos)
    assert outcome is not None and outcome.termination == "all-passed"
    assert outcome.result == "1/2-1/2-1/2-1/2"
    # a pass when a move is open is refused
    with pytest.raises(IllegalMoveError) as caught:
        V.resolve(V.start(), Turn((PASS,)))
    assert caught.value.reason == "South cannot pass: it has legal moves"


def test_random_games_end_at_ludii_turn_limit() -> None:
    rng, pos = random.Random(3), V.start()
    while V.to_move(pos) is not None:
        move = V.sample_move(pos, None, rng)
        assert move is not None
        pos = V.apply(pos, move)[0]
    outcome = V.outcome(pos)
    assert outcome is not None and outcome.termination == "turn-limit" and pos.ply == 5000
    assert outcome.scores == (HALF,) * 4


# -- written moves ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "code", "reason"),
    [
        (("e2", "e1"), "illegal-move",
         "a warrior steps only diagonally forward: South's warriors step north-east or "
         "north-west, not south-west"),
        (("e2", "e4"), "illegal-move",
         "a piece steps to a neighbouring point: e4 is not next to e2 along a line"),
        (("e3", "e4"), "illegal-move", "there is no South piece on e3"),
        (("p3", "e4"), "illegal-move", "p3 is not a point of the board"),
        (("e2", "e3", "f5"), "wrong-captures", "e2-e3 captures nothing, not f5"),
    ],
)
def test_written_moves_that_are_refused(written: tuple[str, ...], code: str, reason: str) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        V.resolve(V.start(), path(*written))
    assert (caught.value.code, caught.value.reason) == (code, reason)


def test_large_piece_backward_and_drops_are_refused() -> None:
    pos = V.place({"g9": "SL"}, hands="")
    with pytest.raises(IllegalMoveError) as caught:
        V.resolve(pos, path("g9", "g7"))
    assert caught.value.reason == (
        "South's large piece steps north or north-east or east or west or north-west, "
        "not south (never backward)"
    )
    with pytest.raises(IllegalMoveError) as caught:
        V.resolve(pos, Turn((Action("drop", ("g11",), piece="P"),)))
    assert caught.value.reason == (
        "under Ludii's rules the large piece is placed by the capture itself: write the "
        "capturing step only"
    )


def test_captures_written_in_any_order_or_left_out() -> None:
    pos = V.place({"f8": "S", "h9": "W", "i9": "E", "g11": "N", "g13": "S"}, hands="SWNE")
    full = V.resolve(pos, path("f8", "g9", "g11", "h9"))
    assert V.resolve(pos, path("f8", "g9", "h9", "g11")).move == full.move
    bare = V.resolve(pos, path("f8", "g9"))
    assert bare.move == full.move
    assert [(f.code, f.message) for f in bare.notes] == [
        ("missing-captures", "f8-g9 captures g11 and h9; write f8-g9xg11xh9")
    ]
    assert V.spell(pos, full.move) == path("f8", "g9", "g11", "h9")


def test_spell_and_resolve_agree_over_a_random_game() -> None:
    rng, pos = random.Random(7), V.start()
    for _ in range(400):
        move = V.sample_move(pos, None, rng)
        assert move is not None
        assert V.resolve(pos, V.spell(pos, move)).move == move
        assert V.setup(V.setup_text(pos)) == pos.__class__(
            pos.pieces, pos.large, pos.hands, pos.scores, pos.to_move
        )
        pos = V.apply(pos, move)[0]


def test_setup_strings_that_are_refused() -> None:
    start = V.setup_text(V.start())
    board = start.split()[0]
    with pytest.raises(SetupError, match="four fields"):
        V.setup(board + " s SWNE")
    with pytest.raises(SetupError, match=r"^the seat to move is 'x': write s, w, n or e$"):
        V.setup(f"{board} x SWNE 0-0-0-0")
    with pytest.raises(SetupError, match=r"^South has one large piece: on the board or in hand$"):
        V.setup(f"{board.replace('7/', '3S3/', 1)} s SWNE 0-0-0-0")
    with pytest.raises(SetupError, match=r"^row 29 describes 8 points; it has 7 \(e29-k29\)$"):
        V.setup(f"8/{board.split('/', 1)[1]} s SWNE 0-0-0-0")


def test_the_seats_of_the_game_are_those_of_the_engine() -> None:
    from zrec.rules.stonewarriors.rules import TEAM_SEATS
    from zrec.rules.stonewarriors.teams import SEATS

    assert TEAM_SEATS == SEATS


def test_random_games_of_four_seats_are_ludii_games() -> None:
    from zrec.play.selfplay import random_game
    from zrec.rules.base import InputError

    game = random_game(STONE_WARRIORS, {}, random.Random(1), max_plies=8, seats=4)
    assert [game.tag(t) for t in ("Ruleset", "South", "West", "North", "East")] == [
        "ludii", "random", "random", "random", "random"
    ]
    assert game.tag("White") is None
    with pytest.raises(InputError) as caught:
        random_game(STONE_WARRIORS, {}, random.Random(1), seats=3)
    assert caught.value.reason == (
        "Awithlaknakwe (Stone Warriors) is played by 2 sides, or by 4 seats under Ludii's "
        "rules (Ruleset ludii), not 3"
    )


def test_four_captures_at_once_place_the_large_piece_on_the_northern_one() -> None:
    # Ludii's driver on the same position: its large piece on g11, f9, g10 and h9
    # emptied, South's score 4
    pos = V.place({"f8": "S", "h9": "W", "i9": "E", "g11": "N", "g13": "S", "f9": "N",
                   "e9": "E", "g10": "W", "h11": "S"}, hands="SWNE")
    after = play(pos, "f8-g9xf9xg10xg11xh9")
    assert V.pieces(after) == {"g9": "S", "g11": "SL", "i9": "E", "g13": "S", "e9": "E",
                               "h11": "S"}
    assert after.scores == (4, 0, 0, 0) and V.outcome(after) is None


def test_a_team_with_no_piece_left_meets_the_end_test() -> None:
    # Ludii's driver on the same position: over, South and East ranked first
    pos = V.place({"g27": "S", "a14": "E"}, scores=(1, 0, 0, 0))
    end = play(pos, "g27-g28")
    assert V.outcome(end) is not None and V.outcome(end).result == "1-0-0-1"  # type: ignore[union-attr]


def test_a_result_that_splits_a_team_is_refused() -> None:
    (wrong,) = V.judge_end(V.start(), "1-0-0-0", {})
    assert (wrong.code, wrong.severity, wrong.message) == (
        "wrong-result", "error",
        "'1-0-0-0' is not a result of two teams: write 1-0-0-1 (South and East win), "
        "0-1-1-0 (West and North win), 1/2-1/2-1/2-1/2 or *",
    )
    assert V.judge_end(V.start(), "*", {}) == []
