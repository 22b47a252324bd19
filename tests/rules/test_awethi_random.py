"""Awéthi random play: every sampled move reads back from its spelling, random games stay
consistent (pieces kept, keys, views), validate cleanly and mostly end by rule."""

from __future__ import annotations

import io
import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from test_awethi_helpers import E2, engine

from zrec.check.validate import validate_records
from zrec.moves import Action, Dice, Turn
from zrec.notation.grammar import parse_turn_text
from zrec.notation.reader import read_records
from zrec.notation.writer import write_games
from zrec.play.selfplay import random_games
from zrec.rules.awethi.board import NAME, ORTHOGONAL, SQUARES, STEP
from zrec.rules.awethi.paths import _read_path as read_path
from zrec.rules.awethi.position import (
    SHEPHERDS_TURN,
    WOLF_TURN,
    HerdMove,
    ShepherdsMove,
    WolfMove,
)
from zrec.rules.awethi.rules import AWETHI, AwethiEngine, AwethiPosition
from zrec.rules.awethi.shepherds import ShepherdsBoard
from zrec.rules.base import IllegalMoveError


def _consistent(e: AwethiEngine, pos: AwethiPosition) -> None:
    n = len(e.seats) - 1
    assert all(len(s) == 4 for s in pos.shepherds) and len(pos.wolves) == n
    on_board = Counter(a[1] for a in pos.animals)
    total = sum(on_board.values()) + sum(map(sum, pos.sheltered)) + sum(map(sum, pos.eaten))
    assert total == 6 * n
    if e.options["Catch"] == "owner":
        for k in range(n):
            assert on_board[k] + sum(pos.sheltered[k]) + sum(pos.eaten[k]) == 6
    assert len({a[0] for a in pos.animals}) == len(pos.animals)
    assert {p.square for p in e.view(pos).pieces} <= set(SQUARES)
    assert (e.outcome(pos) is None) == (e.to_move(pos) is not None) == (e.chance(pos) is not None)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from([1, 2, 3, 4]),
    st.sampled_from(["basic", "advanced"]),
    st.sampled_from(["owner", "catcher"]),
)
def test_sampled_moves_read_back_from_their_spelling(
    seed: int, seats: int, points: str, catch: str
) -> None:
    rng = random.Random(seed)
    herds = tuple(AWETHI.random_tags(seats, rng)[f"Herd{k}"] for k in range(1, seats + 1))
    e = AwethiEngine(E2.map, seats, herds, points, catch)
    pos = e.start()
    for _ in range(120):
        _consistent(e, pos)
        chance = e.chance(pos)
        if chance is None:
            break
        roll = chance.roll(rng)
        move = e.sample_move(pos, roll, rng)
        assert move is not None
        written = e.spell(pos, move)
        assert parse_turn_text(written.text()) == written
        assert e.resolve(pos, written).move == move
        routes = e.routes(pos, move)
        assert all(r and set(r) <= set(SQUARES) for r in routes)
        pos, events = e.apply(pos, move)
        assert all(x.code for x in events)


def test_the_shepherds_representatives_are_legal() -> None:
    pos = E2.place({"c5": "S1", "c4": "c1", "u23": "c2"}, turn="shepherds")
    moves = E2.legal_moves(pos, (1, 2, 3, 4))
    assert [E2.spell(pos, m).text() for m in moves] == [
        "1234e: a1-a2, a1-b1-b2, a1-b1-c1-c2, c5-c6-c7-c8-c9",
        "1234s: a1-a2-a3, a1-a2-b2, a1-b1-c1, c5-c6-c7",
    ]
    assert all(
        isinstance(m, ShepherdsMove) and E2.resolve(pos, E2.spell(pos, m)).move == m for m in moves
    )
    assert E2.legal_moves(E2.start(), (3,)) == (HerdMove(3),) and E2.legal_moves(pos, None) == ()


def _games(seats: int, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    tags = AWETHI.random_tags(seats, rng)
    return [g.result for g in random_games(AWETHI, tags, count, seed, max_plies=300, seats=seats)]


def test_random_games_validate_cleanly_and_mostly_end_by_rule() -> None:
    for seats in (1, 2, 3, 4):
        rng = random.Random(seats)
        games = list(random_games(AWETHI, AWETHI.random_tags(seats, rng), 6, seats, seats=seats))
        text = "".join(write_games(games))
        for report in validate_records(read_records(io.BytesIO(text.encode()), "r"), "r"):
            assert report.diagnostics == [], [d.format() for d in report.diagnostics]
        ended = sum(1 for r in _games(seats, 12, 100 + seats) if r != "*")
        assert ended >= 8, (seats, ended)


def test_options_play_through() -> None:
    for options in ({"points": "advanced"}, {"catch": "catcher"}):
        e = engine(3, **options)
        rng = random.Random(4)
        pos = e.start()
        while e.chance(pos) is not None:
            chance = e.chance(pos)
            assert chance is not None
            pos, _ = e.apply(pos, e.sample_move(pos, chance.roll(rng), rng))  # type: ignore[arg-type]
            _consistent(e, pos)
        assert e.outcome(pos) is not None


def _paths(start: int, seq: tuple[int, ...]) -> tuple[int, ...] | None:
    path = [start]
    for d in seq:
        nxt = STEP[d][path[-1]]
        if nxt < 0:
            return None
        path.append(nxt)
    return tuple(path)


def test_listed_moves_agree_with_reading_written_ones() -> None:
    """Brute force over every step sequence: the wolf moves listed and the shepherd paths
    searched (to judge stays and jumps back) are exactly those the reader accepts."""
    e = engine(3)
    rng = random.Random(9)
    pos = e.start()
    wolves = shepherds = 0
    while e.chance(pos) is not None and (wolves < 24 or shepherds < 40):
        chance = e.chance(pos)
        assert chance is not None
        if pos.stage == WOLF_TURN and wolves < 24:
            for d, n in ((1, 1), (2, 2), (3, 3), (4, 2)):
                listed = {
                    m.path
                    for m in e.legal_moves(pos, (d, n))
                    if isinstance(m, WolfMove) and m.path
                }
                accepted = set()
                for start in set(pos.wolves):
                    for seq in itertools.product(ORTHOGONAL, repeat=n):
                        path = _paths(start, seq)
                        if path is None:
                            continue
                        for sep in "-x":
                            action = Action(
                                "path",
                                tuple(NAME[s] for s in path),
                                ("-",) * (n - 1) + (sep,),
                                (None,) * n,
                            )
                            try:
                                e.resolve(pos, Turn((action,), Dice((d, n))))
                            except IllegalMoveError:
                                continue
                            accepted.add(path)
                assert listed == accepted
                wolves += 1
        if pos.stage == SHEPHERDS_TURN and shepherds < 40:
            board = ShepherdsBoard(e.table, pos)
            for start in set(board.own):
                amount = rng.randint(1, 4)
                listed = set(board.walks(start, amount, e.table.water[start]))
                accepted = set()
                steps = range(1, amount + 1)
                for seq in itertools.chain(
                    *(itertools.product(range(8), repeat=k) for k in steps)
                ):
                    path = _paths(start, seq)
                    if path is None:
                        continue
                    n = len(path) - 1
                    action = Action("path", tuple(NAME[s] for s in path), ("-",) * n, (None,) * n)
                    try:
                        read_path(
                            e.table,
                            ShepherdsBoard(e.table, pos),
                            0,
                            action,
                            amount,
                            (amount,) * 4,
                            "e",
                        )
                    except IllegalMoveError:
                        continue
                    accepted.add(path)
                assert listed == accepted
                shepherds += 1
        pos, _ = e.apply(pos, e.sample_move(pos, chance.roll(rng), rng))  # type: ignore[arg-type]
    assert wolves >= 24 and shepherds >= 40
