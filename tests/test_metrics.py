"""The plausibility metrics of ``zrec study`` (docs/study.md, Metrics): exact values on
hand-made games, bounds, the JSON and table, and the random player's metrics against an
independent count made here with a deliberately naive Mosona move generator."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from zrec.cli import app
from zrec.research.metrics import NAMES, metric_set, parse_metrics
from zrec.research.metrics_ci import bootstrap, kinds_for
from zrec.research.metrics_trace import Trace
from zrec.research.study import GameResult
from zrec.rules import find_game

runner = CliRunner()
H = Fraction(1, 2)


def values(results: Sequence[GameResult], names: Sequence[str] = NAMES) -> dict[str, Any]:
    """The metrics' values (no interval) of hand-made two-seat games."""
    out = {}
    for metric in metric_set(names, ("W", "B"), 0):
        columns = [list(c) for c in zip(*(metric.columns(r) for r in results), strict=True)]
        out[metric.name] = bootstrap(columns, metric.combine, ()).value
    return out


def game(plies: int, scores: tuple[Fraction, ...] | None, trace: Trace) -> GameResult:
    return GameResult(plies, "x", scores, (0, 0), trace)


A = game(10, (Fraction(1), Fraction(0)), Trace(
    (3, 1, 2), ((2, 2), (2, 1), (1, 1), (1, 0)), (4, 3, 2, 1), 5, 10, (1, 2, 1), 1, 4
))  # fmt: skip
B = game(4, (H, H), Trace((1,), ((1, 1), (1, 1)), (2, 2), 3, 10, (1,), 0, 2))
C = game(300, None, Trace((2, 2), ((3, 1), (3, 1), (3, 1)), (4, 4, 4), 4, 10, (1, 1), 2, 3))


def close(a: float | None, b: float) -> bool:
    return a is not None and math.isclose(a, b, abs_tol=1e-12)


def test_every_metric_on_three_hand_made_games() -> None:
    v = values([A, B, C])
    expected = {
        "DurationTurns": 314 / 3,
        "Completion": 1 / 3,
        "Drawishness": 1 / 3,
        "Timeouts": 1 / 3,
        "AdvantageP1": 1 / 3,
        "Balance": 2 / 3,
        "OutcomeUniformity": 7 / 9,
        "BranchingFactor": 11 / 6,
        "DecisionMoves": 4 / 6,
        "BoardCoverageDefault": 0.4,
        "BoardSitesOccupied": 0.85 / 3,
        "PieceNumber": 8.5 / 3,
        "MoveDistance": 7 / 6,
        "SituationalRepetition": 11 / 36,
        "LeadChange": 1 / 3,
        "Stability": 1 / 36,
        "Decisiveness": 1 / 3,
        "Drama": 0.0,
    }
    assert set(v) == set(expected)
    wrong = {k: (v[k], e) for k, e in expected.items() if not close(v[k], e)}
    assert not wrong


def test_the_evaluation_metrics_of_a_game_won_from_behind() -> None:
    d = game(2, (Fraction(0), Fraction(1)), Trace(material=((2, 2), (2, 1), (0, 1))))
    v = values([d], ("Drama", "Decisiveness", "LeadChange"))
    assert close(v["Drama"], 1 / 3)  # behind by 2/3 - 1/3 once
    assert close(v["Decisiveness"], 1.0)  # above the loser's best (2/3) at the end only
    assert close(v["LeadChange"], 1.0)  # both, White, Black
    assert values([B], ("Decisiveness",))["Decisiveness"] is None  # no game with a winner


def test_more_than_two_seats_gives_advantage_and_balance_per_seat() -> None:
    seats = ("S1", "S2", "W")
    one, zero = Fraction(1), Fraction(0)
    games = [
        game(1, (one, zero, zero), Trace()),
        game(1, (H, H, zero), Trace()),  # S1 and S2 share the top
        game(1, (zero, zero, one), Trace()),
        game(1, (H, H, H), Trace()),  # a draw
    ]
    names = ("AdvantageP1", "Balance")
    got = {}
    for metric in metric_set(names, seats, 0):
        columns = [list(c) for c in zip(*(metric.columns(r) for r in games), strict=True)]
        got[metric.name] = bootstrap(columns, metric.combine, ()).value
    assert list(got) == [
        "AdvantageP1", "Advantage:S1", "Advantage:S2", "Advantage:W",
        "Balance", "Balance:S1", "Balance:S2", "Balance:W",
    ]  # fmt: skip
    assert got["AdvantageP1"] == got["Advantage:S1"] == 0.5
    assert got["Advantage:S2"] == got["Advantage:W"] == 0.25
    assert got["Balance"] == 0.75 and got["Balance:W"] == 0.75


UNIT = [n for n in NAMES if n not in {"DurationTurns", "PieceNumber", "BranchingFactor",
                                       "MoveDistance"}]  # fmt: skip

outcomes = st.sampled_from([(Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)), (H, H), None])


@st.composite
def games(draw: st.DrawFn) -> GameResult:
    n = draw(st.integers(1, 6))
    material = tuple(draw(st.tuples(st.integers(0, 9), st.integers(0, 9))) for _ in range(n + 1))
    occupied = tuple(draw(st.integers(0, 12)) for _ in range(n + 1))
    trace = Trace(
        tuple(draw(st.integers(0, 9)) for _ in range(n)),
        material,
        occupied,
        draw(st.integers(max(occupied), 12)),
        12,
        tuple(draw(st.integers(0, 4)) for _ in range(n)),
        draw(st.integers(0, n)),
        n + 1,
    )
    return game(n, draw(outcomes), trace)


@settings(max_examples=60, deadline=None)
@given(st.lists(games(), min_size=1, max_size=6))
def test_the_metrics_ludii_bounds_stay_in_zero_one(results: list[GameResult]) -> None:
    v = values(results)
    for name in UNIT:
        assert v[name] is None or -1e-12 <= v[name] <= 1 + 1e-12, (name, v[name])


def test_parse_and_kinds() -> None:
    assert parse_metrics("all") == NAMES
    assert parse_metrics("balance, DurationTurns") == ("DurationTurns", "Balance")
    assert kinds_for(("DurationTurns", "Balance")) == frozenset()
    assert kinds_for(("BranchingFactor", "Drama")) == {"legal", "material"}


def test_json_metrics_and_the_same_bytes_for_any_jobs() -> None:
    args = ["study", "-q", "--game", "mosona", "--games", "150", "--metrics", "all"]
    one = runner.invoke(app, [*args, "--format", "json"])
    two = runner.invoke(app, [*args, "--format", "json", "--jobs", "2"])
    assert one.exit_code == 0 and one.output == two.output
    [reading] = json.loads(one.output)
    assert list(reading["metrics"]) == list(NAMES)
    assert reading["options"] == {} and reading["players"] == {
        "White": "random",
        "Black": "random",
    }
    for m in reading["metrics"].values():
        assert m["low"] <= m["value"] <= m["high"]
    table = runner.invoke(app, args).output
    line = next(x for x in table.splitlines() if x.startswith("BranchingFactor"))
    bf = reading["metrics"]["BranchingFactor"]
    assert line.split()[1:] == [f"{bf['value']:.3f}", f"[{bf['low']:.3f},", f"{bf['high']:.3f}]"]


def test_a_bad_metric_name_exits_2() -> None:
    result = runner.invoke(app, ["study", "-q", "--game", "mosona", "--metrics", "Fun"])
    assert result.exit_code == 2
    assert "--metrics takes all, none or names joined by commas" in result.output
    assert "not 'Fun'" in result.output


def test_a_real_game_is_recorded_position_by_position() -> None:
    from zrec.research.metrics_trace import KINDS
    from zrec.research.study import Reading, play_games

    [r] = play_games(find_game("mosona"), Reading(()), 3, 0, 1, 300, None, KINDS)
    [bare] = play_games(find_game("mosona"), Reading(()), 3, 0, 1, 300)
    assert bare.trace is None and (bare.plies, bare.scores) == (r.plies, r.scores)
    t = r.trace
    assert t is not None
    assert t.positions == r.plies + 1 == len(t.material) == len(t.occupied)
    assert len(t.legal) == len(t.steps) == r.plies
    assert t.material[0] == (12, 12) and t.occupied[0] == 24 and t.sites == 25
    assert [sum(m) for m in t.material] == list(t.occupied)  # one man per point
    assert t.legal[0] == 3  # perft 1 of Mosona
    taken = sum(r.captures)
    assert sum(t.material[0]) - sum(t.material[-1]) == taken
    assert t.covered <= t.sites and all(s >= 1 for s in t.steps)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(*[st.integers(0, 9)] * 5), min_size=1, max_size=12))
def test_stability_of_five_seats_is_at_most_four_fifths(material: list[tuple[int, ...]]) -> None:
    # Stability sums each seat's variance of its share of the pieces; the shares add up
    # to 1, so the sum is E[sum of squares] - sum of squared means <= 1 - 1/5
    seats = ("S1", "S2", "S3", "S4", "W")
    result = GameResult(len(material), "x", None, (0,) * 5, Trace(material=tuple(material)))
    (metric,) = metric_set(["Stability"], seats, 0)
    value = bootstrap([[c] for c in metric.columns(result)], metric.combine, ()).value
    assert value is not None and -1e-12 <= value <= 0.8 + 1e-12
