"""The serpent games' move options (docs/rules.md, "Captures" and "Chains"): optional
captures, huffing, one jump a move, chains that may stop.  Move lists from set
positions under each value, the written moves under each, huff records with their
messages, the combinations that are refused, and perft against the naive generator
(tests/naive_serpent.py), which shares nothing with the engine."""

from __future__ import annotations

import io
import itertools
import random

import pytest
from test_serpent import act, at, legal, play, turn

from naive_serpent import Naive
from zrec.check.validate import validate_records
from zrec.moves import Turn
from zrec.notation.reader import read_records
from zrec.rules.base import (
    AmbiguousMoveError,
    Finding,
    IllegalMoveError,
    MoveNumber,
    OptionConflict,
)
from zrec.rules.serpent.rules import (
    KOLOWIS,
    MOSONA,
    SerpentEngine,
    SerpentGame,
    SerpentMove,
    SerpentPosition,
)

STEPS = ["b2-a1", "b2-a2", "b2-b1", "b2-c1", "b2-c2"]
CHAIN = "8/1WB1B4/8 w"  # b2 can jump b3 to b4, then b5 to b6
CONFLICT = (
    'Captures "huff" cannot go with Chains "one": a huff also punishes a chain stopped '
    'while it could jump on, and under Chains "one" a capture is a single jump, so no '
    'chain goes on; take Captures "optional" or "compulsory" with Chains "one"'
)
READINGS = [
    (c, ch)
    for c, ch in itertools.product(("compulsory", "optional", "huff"), ("whole", "one", "stop"))
    if (c, ch) != ("huff", "one")
]


def check(record: str) -> list[tuple[str, str, int | None, str]]:
    """The validator's findings for a Mosona record under huffing."""
    text = f'[Game "mosona"]\n[Captures "huff"]\n\n{record}\n'
    [report] = validate_records(read_records(io.BytesIO(text.encode()), "t.zrec"), "t.zrec")
    return [(d.severity, d.code, d.ply, d.message) for d in report.diagnostics]


# -- the options and their conflicts --------------------------------------------------


@pytest.mark.parametrize("game", [MOSONA, KOLOWIS], ids=["mosona", "kolowis"])
def test_every_combination_builds_an_engine_or_is_refused_naming_both_tags(
    game: SerpentGame,
) -> None:
    names = list(game.options)
    refused = []
    for values in itertools.product(*(game.options[n].values for n in names)):
        options = dict(zip(names, values, strict=True))
        try:
            assert isinstance(game.engine(**options), SerpentEngine)
        except OptionConflict as exc:
            refused.append(options)
            assert f'{exc.tag} "{exc.value}"' in str(exc)
            assert f'{exc.other} "{exc.other_value}"' in str(exc)
            if exc.tag == "Captures":
                assert str(exc) == CONFLICT
    # every refusal is huffing with one jump a move, or (Kolowis) Pieces "23" on Ludii's
    # 48-point board, and every such combination is refused
    assert refused
    assert all(
        (o["Captures"], o["Chains"]) == ("huff", "one")
        or (o.get("Pieces"), o.get("Lattice")) == ("23", "48")
        for o in refused
    )
    total = 1
    for n in names:
        total *= len(game.options[n].values)
    pieces_48 = total // 4 if "Lattice" in names else 0
    assert len(refused) == total // 9 + pieces_48 - pieces_48 // 9


def test_the_defaults_are_todays_reading() -> None:
    assert MOSONA.options["Captures"].values == ("compulsory", "optional", "huff")
    assert MOSONA.options["Chains"].values == ("whole", "one", "stop")
    assert MOSONA.engine(Captures="compulsory", Chains="whole") is MOSONA.engine()


def test_a_record_with_conflicting_options_is_refused_with_the_conflict() -> None:
    text = '[Game "mosona"]\n[Captures "huff"]\n[Chains "one"]\n\n1. b6-b5 *\n'
    [report] = validate_records(read_records(io.BytesIO(text.encode()), "t.zrec"), "t.zrec")
    assert [(d.code, d.message) for d in report.diagnostics] == [("option-conflict", CONFLICT)]


# -- move lists -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("captures", "chains", "moves"),
    [
        ("compulsory", "whole", ["b2xb4xb6"]),
        ("compulsory", "one", ["b2xb4"]),  # each jump is a move
        ("compulsory", "stop", ["b2xb4", "b2xb4xb6"]),  # every prefix of a chain
        ("optional", "whole", [*STEPS, "b2xb4xb6"]),  # the steps too
        ("optional", "one", [*STEPS, "b2xb4"]),
        ("optional", "stop", [*STEPS, "b2xb4", "b2xb4xb6"]),
        ("huff", "whole", [*STEPS, "b2xb4", "b2xb4xb6"]),  # stops, to be huffed
        ("huff", "stop", [*STEPS, "b2xb4", "b2xb4xb6"]),
    ],
)
def test_the_moves_of_a_position_with_a_capture_open(
    captures: str, chains: str, moves: list[str]
) -> None:
    assert at(CHAIN, Captures=captures, Chains=chains) == moves


def test_single_jumps_under_bent_jumps_name_the_jumped_piece_where_two_fit() -> None:
    # c3 to b3 passes over c2 or over b4: two moves, each written with its jumped point
    one = ["c3x(b4)b3", "c3x(c2)b3", "c3xa3", "c3xa4", "c3xb2", "c3xb5", "c3xc1", "c3xc4"]
    assert at("1BW5/3B5/8 w", Jumps="bent", Chains="one") == one
    assert at("1BW5/3B5/8 w", Jumps="bent", Chains="one", Captures="optional") == sorted(
        ["c3-b3", "c3-c4", *one]
    )
    stop = at("1BW5/3B5/8 w", Jumps="bent", Chains="stop")
    assert stop == sorted([*one, "c3xb3xa3", "c3xb3xa4", "c3xb3xb2", "c3xb3xb5",
                           "c3xb3xc1", "c3xb3xc3", "c3xb3xc4"])  # fmt: skip
    v = MOSONA.engine(Jumps="bent", Chains="one")
    pos = v.setup("1BW5/3B5/8 w")
    with pytest.raises(AmbiguousMoveError) as err:
        v.resolve(pos, turn("c3xb3"))
    assert err.value.reason == (
        "c3xb3 fits several chains: c3x(c2)b3, c3x(b4)b3; write the jumped point in parentheses"
    )
    assert v.resolve(pos, turn("c3x(c2)b3")).move == SerpentMove.named("c3xb3", "c2")


def test_culins_opening_under_optional_captures() -> None:
    v = MOSONA.engine(Captures="optional")
    pos = play(v, v.start(), "b6-b5")
    assert legal(v, pos) == ["b4xb6", "c5-b6", "c6-b6"]
    after = play(v, pos, "c5-b6")
    assert after.huff == 0 and after.turn == 0


def test_under_chains_one_a_chain_goes_on_next_turn_if_at_all() -> None:
    v = MOSONA.engine(Chains="one")
    pos = play(v, v.setup(CHAIN), "b2xb4")
    assert v.setup_text(pos) == "8/3WB4/8 b"
    assert legal(v, pos) == ["b5xb3"]  # Black's turn: and it must capture


# -- written moves --------------------------------------------------------------------


@pytest.mark.parametrize(("captures", "chains"), [("optional", "whole"), ("huff", "whole"),
                                                  ("optional", "one"), ("huff", "stop")])
def test_a_step_while_a_capture_is_open_is_legal_where_captures_are_not_compulsory(
    captures: str, chains: str
) -> None:
    v = MOSONA.engine(Captures=captures, Chains=chains)
    pos = v.setup(CHAIN)
    done = v.resolve(pos, turn("b2-a2"))
    assert done.move == SerpentMove.named("b2-a2") and done.notes == ()
    assert v._resolve_checked(pos, turn("b2-a2")) == done


@pytest.mark.parametrize("chains", ["whole", "one", "stop"])
def test_a_step_while_a_capture_is_open_under_compulsory_captures(chains: str) -> None:
    v = MOSONA.engine(Chains=chains)
    with pytest.raises(IllegalMoveError) as err:
        v.resolve(v.setup(CHAIN), turn("b2-a2"))
    assert err.value.reason == "a capture is compulsory here"


@pytest.mark.parametrize("captures", ["compulsory", "optional"])
def test_a_written_chain_of_two_jumps_under_chains_one(captures: str) -> None:
    v = MOSONA.engine(Chains="one", Captures=captures)
    pos = v.setup(CHAIN)
    with pytest.raises(IllegalMoveError) as err:
        v.resolve(pos, turn("b2xb4xb6"))
    assert err.value.reason == 'a capture is a single jump under Chains "one"; b2xb4xb6 makes 2'
    assert list(err.value.legal) == legal(v, pos)
    assert v.resolve(pos, turn("b2xb4")).move == SerpentMove.named("b2xb4", "b3")


@pytest.mark.parametrize(("captures", "chains"), [("compulsory", "stop"), ("huff", "whole")])
def test_a_chain_may_stop_early(captures: str, chains: str) -> None:
    v = MOSONA.engine(Captures=captures, Chains=chains)
    pos = v.setup(CHAIN)
    assert v.resolve(pos, turn("b2xb4")).move == SerpentMove.named("b2xb4", "b3")
    assert v._resolve_checked(pos, turn("b2xb4")).move == SerpentMove.named("b2xb4", "b3")
    # the short form of the whole chain still reads, with its warning
    short = v.resolve(pos, turn("b2xb6"))
    assert short.move == SerpentMove.named("b2xb4xb6", "b3 b5")
    assert short.notes == (
        Finding("short-chain", "warning",
                "b2xb6 gives only the start and the last landing point; "
                "the full chain is b2xb4xb6"),
    )  # fmt: skip


def test_the_click_table_offers_a_stop_and_the_next_landing() -> None:
    v = MOSONA.engine(Chains="stop")
    choices = v.choices(v.setup(CHAIN), None, ["b2", "b4"])
    assert choices.move == SerpentMove.named("b2xb4", "b3")
    assert [c.click for c in choices.options] == ["b6"]


# -- huffing --------------------------------------------------------------------------


def test_a_step_instead_of_a_capture_leaves_a_huff_due() -> None:
    v = MOSONA.engine(Captures="huff")
    pos = play(v, v.start(), "b6-b5", "c5-b6")  # b4 could have jumped b5
    assert legal(v, pos) == ["b4"]
    assert v.move_number(pos) == MoveNumber(2, 1, False, 0)  # not a turn: no number
    assert v.render(pos).splitlines()[-1] == "White to huff b4 (White 12, Black 12)"
    assert v.to_move(pos) == 0 and v.outcome(pos) is None
    move = v.resolve(pos, turn("b4")).move
    assert move == SerpentMove((9,), (9,)) and v.spell(pos, move) == turn("b4")
    after, events = v.apply(pos, move)
    assert [e.message for e in events] == ["Black loses b4 (huffed)"]
    assert v.move_number(after) == MoveNumber(2, 1, True, 0)  # White's own move 2
    assert legal(v, after) == ["a3-b4", "a4-b4", "a6xc5", "b5-b4", "b5-c5"]
    assert v.key(after) != v.key(pos) != v.key(pos._replace(huff=0))
    assert v.choices(pos, None, ["b4"]).move == move


def test_the_piece_that_stepped_is_huffed_where_it_landed() -> None:
    v = MOSONA.engine(Captures="huff")
    pos = play(v, v.setup(CHAIN), "b2-a1")
    assert legal(v, pos) == ["a1"]


def test_with_several_pieces_that_could_have_jumped_the_opponent_chooses() -> None:
    v = MOSONA.engine(Captures="huff")
    pos = play(v, v.setup("8/1WB1BW3/8 w"), "b2-a1")  # b2 and b6 could both jump
    assert legal(v, pos) == ["a1", "b6"]
    with pytest.raises(IllegalMoveError) as err:
        v.resolve(pos, turn("b5xb7"))
    assert err.value.reason == (
        "Black must first huff one of the White pieces that could have jumped and did not "
        "(a1 or b6), written as its point alone"
    )
    with pytest.raises(IllegalMoveError) as err:
        v.resolve(pos, turn("b3"))
    assert err.value.reason == (
        "there is no White piece on b3: the pieces that may be huffed are a1 and b6"
    )


@pytest.mark.parametrize(("chains", "due"), [("whole", ["b4"]), ("stop", [])])
def test_a_chain_stopped_early_is_huffed_only_where_chains_must_go_on(
    chains: str, due: list[str]
) -> None:
    v = MOSONA.engine(Captures="huff", Chains=chains)
    pos = play(v, v.setup(CHAIN), "b2xb4")
    assert (legal(v, pos) == due) if due else ("b4" not in legal(v, pos) and not pos.huff)
    whole = play(v, v.setup(CHAIN), "b2xb4xb6")
    assert whole.huff == 0


def test_a_capture_by_another_piece_is_no_fault() -> None:
    v = MOSONA.engine(Captures="huff")
    pos = play(v, v.setup("8/1WB1BW3/8 w"), "b6xb4")
    assert pos.huff == 0


def test_the_pieces_23_first_move_leaves_no_huff() -> None:
    # under bent jumps White could capture at once, but the first move goes to the centre
    v = KOLOWIS.engine(Pieces="23", Jumps="bent", Captures="huff")
    start = v.start()
    assert legal(v, start) == ["a8-b9", "a9-b9", "b10-b9"]
    assert play(v, start, "a9-b9").huff == 0


def test_the_random_player_huffs_when_a_huff_is_due() -> None:
    v = MOSONA.engine(Captures="huff")
    pos = play(v, v.setup("8/1WB1BW3/8 w"), "b2-a1")
    rng = random.Random(3)
    assert {v.sample_move(pos, None, rng) for _ in range(20)} == {
        SerpentMove((1,), (1,)), SerpentMove((15,), (15,)),
    }


@pytest.mark.parametrize(
    ("record", "findings"),
    [
        ("1. b6-b5 c5-b6 b4 2. a6xc5 *", []),
        ("1. b6-b5 c5-b6 b4 1-0", []),
        (
            "1. b6-b5 c5-b6 2. a6xc5 *",
            [
                ("warning", "move-number", 2, "the move number 2. does not fit: this move "
                 "is not a turn and carries no number (White)"),
                ("error", "illegal-move", 2, "move 2 (White): a6xc5 is illegal: White must "
                 "first huff the Black piece that could have jumped and did not (b4), "
                 "written as its point alone; legal moves: b4"),
            ],
        ),
        (
            "1. b6-b5 c5-b6 c4 *",
            [("error", "illegal-move", 2, "move 2 (White): c4 is illegal: the Black piece "
              "on c4 cannot be huffed: the piece that may be huffed is b4; legal moves: b4")],
        ),
        (
            "1. b6-b5 b4xb6 a5 *",
            [("error", "illegal-move", 3, "move 2 (White): a5 is illegal: no huff is due "
              "here (a huff follows a move that did not jump when it could); legal moves: "
              "a3-b4, a4-b4, a4-b5, a5-b5, b7xb5")],
        ),
        (
            "1. b6-b5 c5-b6 1/2-1/2",
            [("warning", "huff-open", 2, "the game ends by agreement while White still has "
              "a huff due (b4), which the end rule does not count")],
        ),
    ],
)  # fmt: skip
def test_huff_records(record: str, findings: list[tuple[str, str, int, str]]) -> None:
    assert check(record) == findings


# -- the end ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "warned"),
    [({}, True), ({"Chains": "one"}, True), ({"Captures": "optional"}, False),
     ({"Captures": "huff"}, False)],
)  # fmt: skip
def test_an_agreed_end_with_a_capture_open_is_warned_only_under_compulsory_captures(
    options: dict[str, str], warned: bool
) -> None:
    v = MOSONA.engine(**options)
    findings = v.judge_end(v.setup("8/BW1B5/8 b"), "0-1", {})
    assert [f.code for f in findings] == (["capture-open"] if warned else [])


def test_under_free_captures_the_kolowis_start_can_come_back_and_keys_tell_it_apart() -> None:
    v = KOLOWIS.engine(Pieces="23", Captures="optional")
    start = v.start()
    again = play(v, start, "a8-b9", "c1-b1", "b9-a8", "b1-c1")
    assert v.setup_text(again) == v.setup_text(start)
    assert "a1-b1" in legal(v, again) and "a1-b1" not in legal(v, start)
    assert v.key(again) != v.key(start)
    plain = KOLOWIS.engine(Pieces="23")
    assert v.key(start) == plain.key(start)


# -- perft against the naive generator ----------------------------------------------------

ENGINE_BUDGET = 40_000
NAIVE_BUDGET = 3_000


def perft(v: SerpentEngine, pos: SerpentPosition, depth: int) -> int:
    if v.to_move(pos) is None:
        return 0
    moves = v.legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(v, v.apply(pos, m)[0], depth - 1) for m in moves)


@pytest.mark.parametrize(("captures", "chains"), READINGS, ids=["-".join(r) for r in READINGS])
@pytest.mark.parametrize(
    ("game", "board", "jumps"),
    [("mosona", "lined", "line"), ("mosona", "open", "bent"), ("kolowis", "lined", "line")],
)
def test_perft_agrees_with_the_naive_generator(
    game: str, board: str, jumps: str, captures: str, chains: str
) -> None:
    rules = MOSONA if game == "mosona" else KOLOWIS
    v = rules.engine(Board=board, Jumps=jumps, Captures=captures, Chains=chains)
    naive = Naive(v.lattice.n, board == "lined", jumps == "bent", captures, chains)
    counts: list[int] = []
    while not counts or counts[-1] <= NAIVE_BUDGET:
        counts.append(naive.perft(naive.start(), "W", len(counts) + 1))
    assert [perft(v, v.start(), d) for d in range(1, len(counts) + 1)] == counts
    assert len(counts) >= 3


def test_perft_of_a_few_readings() -> None:
    """Counts under a few readings: the default, one free jump a move with the middle
    points on the left (Ludii's reading of the moves), and huffing with the middle
    points on the left (a huff counts as a move)."""
    assert [perft(MOSONA.engine(), MOSONA.engine().start(), d) for d in range(1, 7)] == [
        3, 4, 9, 23, 76, 233,
    ]
    v = MOSONA.engine(Middle="left", Captures="optional", Chains="one")
    assert [perft(v, v.start(), d) for d in range(1, 8)] == [3, 7, 21, 104, 556, 3429, 22587]
    h = MOSONA.engine(Middle="left", Captures="huff")
    assert [perft(h, h.start(), d) for d in range(1, 6)] == [3, 7, 18, 69, 282]


def test_a_huff_is_written_as_a_one_point_path() -> None:
    assert act("b4") == turn("b4").actions[0]
    assert Turn((act("b4"),)).text() == "b4"


ROUND_TRIP = [
    (MOSONA, {"Captures": c, "Chains": ch, **extra})
    for c, ch in READINGS
    if (c, ch) != ("compulsory", "whole")
    for extra in ({}, {"Board": "open", "Jumps": "bent"})
]


@pytest.mark.parametrize(
    ("game", "options"), ROUND_TRIP, ids=["-".join(o.values()) for _, o in ROUND_TRIP]
)
def test_spell_and_resolve_round_trip_in_random_games(
    game: SerpentGame, options: dict[str, str]
) -> None:
    """resolve(spell(m)) is m for every legal move (huffs too), the fast and the checked
    way agree, and a huff is due exactly after a move that did not jump when it could."""
    v = game.engine(**options)
    rng = random.Random(20261129)
    positions = huffs = 0
    for _ in range(6):
        pos = v.start()
        while v.outcome(pos) is None and pos.ply < 80:
            moves = v.legal_moves(pos)
            assert len(set(moves)) == len(moves)
            spelled = [v.spell(pos, m) for m in moves]
            assert len({t.text() for t in spelled}) == len(moves)
            for move, written in zip(moves, spelled, strict=True):
                done = v.resolve(pos, written)
                assert done.move == move and done.notes == ()
                assert v._resolve_checked(pos, written) == done
            huffs += bool(pos.huff)
            move = rng.choice(moves)
            pos, _ = v.apply(pos, move)
            positions += 1
    assert positions > 150
    assert (huffs > 0) == (options["Captures"] == "huff")
