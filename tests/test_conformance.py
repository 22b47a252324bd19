"""Random legal games validate cleanly; one illegal move is caught exactly where it is.

The test suite plays ``ZREC_RANDOM_GAMES`` games (default 1,000) per game, board and
jump rule; ``benchmarks/conformance.py`` runs the full 10,000 of the issue.
"""

from __future__ import annotations

import io
import os
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zrec.check.diagnostics import Totals
from zrec.check.validate import validate_game, validate_records
from zrec.moves import Turn, step
from zrec.notation.model import Game, Line
from zrec.notation.reader import read_records
from zrec.notation.writer import write_games
from zrec.play import positions
from zrec.play.replay import prepare_rules
from zrec.play.selfplay import random_game, random_games
from zrec.rules import find_game
from zrec.rules.base import IllegalMoveError
from zrec.rules.stonewarriors.rules import StoneWarriors

COUNT = int(os.environ.get("ZREC_RANDOM_GAMES", "1000"))

CONFIGS = [
    ("mosona", {"Board": "lined", "Jumps": "line"}, COUNT),
    ("mosona", {"Board": "open", "Jumps": "line"}, COUNT),
    ("mosona", {"Board": "lined", "Jumps": "bent"}, COUNT),
    ("mosona", {"Board": "open", "Jumps": "bent"}, COUNT),
    ("kolowis", {"Board": "lined", "Jumps": "line"}, COUNT // 4),
    ("kolowis", {"Board": "open", "Jumps": "bent"}, COUNT // 4),
    ("kolowis", {"Pieces": "23"}, COUNT // 4),
    ("stone-warriors", {"Ruleset": "default"}, COUNT // 10),
    ("stone-warriors", {"Ruleset": "culin"}, COUNT // 10),
    *(("awethi", {"Seats": str(n)}, COUNT // 20) for n in (1, 2, 3, 4)),
]


@pytest.mark.parametrize(("game", "tags", "count"), CONFIGS, ids=lambda v: str(v))
def test_random_games_validate_cleanly(game: str, tags: dict[str, str], count: int) -> None:
    options = {k: v for k, v in tags.items() if k != "Seats"}
    seats = int(tags["Seats"]) if "Seats" in tags else None
    games = random_games(find_game(game), options, count, seed=2026, seats=seats)
    text = "".join(write_games(games))
    summary = Totals()
    for report in validate_records(read_records(io.BytesIO(text.encode()), "random"), "random"):
        summary.add(report)
        assert report.diagnostics == [], [d.format() for d in report.diagnostics]
    assert (summary.games, summary.valid) == (count, count)
    assert summary.plies > count * 10


def _illegal_text(
    game: str, tags: dict[str, str], record: Game, ply: int, rng: random.Random
) -> str:
    """A move written as a player might, but illegal in the position before ``ply``."""
    replay = prepare_rules(find_game(game), tags)
    engine = replay.engine
    steps = positions(replay, record.line, ply)
    pos = steps[-1].after if steps else replay.start
    squares = sorted(
        {sq for m in engine.legal_moves(pos) for sq in engine.spell(pos, m).actions[0].squares}
    )
    squares += sorted(engine.view(pos).codes())
    for _ in range(1000):
        a, b = rng.sample(squares, 2)
        turn = step(a, b)
        try:
            engine.resolve(pos, Turn((turn,)))
        except IllegalMoveError:
            return turn.text()
    raise AssertionError("no illegal move found")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(
        [
            ("mosona", {}),
            ("mosona", {"Board": "open", "Jumps": "bent"}),
            ("kolowis", {}),
            ("stone-warriors", {}),
            ("stone-warriors", {"Ruleset": "culin"}),
        ]
    ),
    st.integers(0, 10_000),
    st.floats(0, 1, exclude_max=True),
)
def test_one_illegal_move_is_rejected_at_exactly_that_move(
    config: tuple[str, dict[str, str]], seed: int, where: float
) -> None:
    game, tags = config
    record = random_game(find_game(game), tags, random.Random(seed), max_plies=80)
    moves = record.line.moves
    if not moves:
        return
    ply = int(where * len(moves))
    text = _illegal_text(game, tags, record, ply, random.Random(seed))
    bad = replace(moves[ply], turn=Turn((step(*text.split("-")),)))
    mutated = replace(record, line=Line((*moves[:ply], bad, *moves[ply + 1 :])), result="*")
    mutated = replace(
        mutated, tags=tuple((k, "*" if k == "Result" else v) for k, v in mutated.tags)
    )
    report = validate_game(mutated, "mutated")
    errors = [d for d in report.diagnostics if d.severity == "error"]
    assert len(errors) == 1, [d.format() for d in report.diagnostics]
    # plies count turns: the move replaced has the ply the original move had
    original = positions(prepare_rules(find_game(game), tags), record.line)
    assert errors[0].ply == original[ply].ply
    assert errors[0].move == text
    assert errors[0].code in {"illegal-move", "game-over"}
    assert validate_game(replace(record), "original").valid


@pytest.mark.parametrize(("ruleset", "least"), [("default", 0.8), ("culin", 0.5)])
def test_stone_warriors_random_games_end_by_rule_with_their_scores(
    ruleset: str, least: float
) -> None:
    """Most random games end by rule (the player follows the engine's progress hint),
    and each ended game's result and stated score agree with its last position."""
    count = max(COUNT // 10, 50)
    rules = find_game("stone-warriors")
    games = list(random_games(rules, {"Ruleset": ruleset}, count, seed=99))
    ended = [g for g in games if g.result != "*"]
    assert len(ended) >= least * count
    terminations: dict[str, int] = {}
    for record in ended:
        replay = prepare_rules(rules, record.tag_map())
        last = positions(replay, record.line)[-1].after
        engine = replay.engine
        assert isinstance(engine, StoneWarriors)
        outcome = engine.outcome(last)
        assert outcome is not None and outcome.result == record.result
        terminations[outcome.termination] = terminations.get(outcome.termination, 0) + 1
        white, black = engine.score(last)
        assert record.result == ("1-0" if white > black else "0-1" if black > white else "1/2-1/2")
        scored = replace(record, tags=(*record.tags, ("Score", f"{white}-{black}")))
        assert validate_game(scored).diagnostics == []
        wrong = replace(record, tags=(*record.tags, ("Score", f"{white + 1}-{black}")))
        assert [d.code for d in validate_game(wrong).diagnostics] == ["wrong-score"]
    assert set(terminations) <= {"crossed", "both-passed"} and terminations.get("crossed")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 4), st.integers(0, 10_000), st.floats(0, 1, exclude_max=True))
def test_one_illegal_awethi_turn_is_rejected_at_exactly_that_ply(
    seats: int, seed: int, where: float
) -> None:
    """A die out of range in one turn of a random Awéthi game: exactly one error, at
    exactly that ply, and the game without the change is valid."""
    rng = random.Random(seed)
    record = random_game(find_game("awethi"), {}, rng, max_plies=120, seats=seats)
    moves = record.line.moves
    ply = int(where * len(moves))
    turn = moves[ply].turn
    assert turn.dice is not None
    values = list(turn.dice.values)
    values[rng.randrange(len(values))] = 7 if len(values) == 2 else 5  # no d4 or d6 shows it
    bad = replace(moves[ply], turn=replace(turn, dice=replace(turn.dice, values=tuple(values))))
    mutated = replace(record, line=Line((*moves[:ply], bad, *moves[ply + 1 :])), result="*")
    mutated = replace(
        mutated, tags=tuple((k, "*" if k == "Result" else v) for k, v in mutated.tags)
    )
    errors = [d for d in validate_game(mutated, "mutated").diagnostics if d.severity == "error"]
    assert [(e.code, e.ply) for e in errors] == [("dice", ply + 1)]
    assert validate_game(record, "original").valid
