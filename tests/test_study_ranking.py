"""``zrec study --rank``: readings that fail the playability test are set aside with
their reason; the rest are ranked by the stated score, the mean of Balance,
Completion, DecisionMoves, LeadChange and 1 - Timeouts (recomputed here from the same
JSON's metrics)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from typer.testing import CliRunner

from zrec.cli import app
from zrec.research.metrics import NAMES
from zrec.research.metrics_ci import kinds_for, reading_metrics
from zrec.research.metrics_trace import Trace
from zrec.research.ranking import NEEDED, Playability, forced_first, why_unplayable
from zrec.research.study import study_readings, study_tags
from zrec.research.study_runs import run_study
from zrec.rules import find_game

runner = CliRunner()


def study(*args: str) -> list[dict[str, Any]]:
    result = runner.invoke(app, ["study", "--game", "mosona", "-q", "--format", "json",
                                 "--rank", *args])
    assert result.exit_code == 0, (result.stdout, result.stderr)
    data: list[dict[str, Any]] = json.loads(result.stdout)
    return data


def value(reading: dict[str, Any], name: str) -> float:
    found: float = reading["metrics"][name]["value"]
    return found


def test_playable_readings_are_ranked_by_the_stated_score() -> None:
    data = study("-O", "Jumps=line", "-O", "Jumps=bent", "--games", "150", "--seed", "4")
    for reading in data:
        expected = (value(reading, "Balance") + value(reading, "Completion")
                    + value(reading, "DecisionMoves") + value(reading, "LeadChange")
                    + 1 - value(reading, "Timeouts")) / 5
        assert reading["ranking"]["rejected"] is None
        assert abs(reading["ranking"]["score"] - expected) < 1e-3
    best = max(data, key=lambda r: r["ranking"]["score"])
    assert best["ranking"]["rank"] == 1
    assert sorted(r["ranking"]["rank"] for r in data) == [1, 2]
    assert set(NEEDED) <= set(data[0]["metrics"]) <= set(NAMES)


def test_a_reading_cut_off_too_often_fails_and_says_why() -> None:
    (reading,) = study("--games", "40", "--max-plies", "6")
    assert reading["ranking"] == {
        "rank": None, "score": None,
        "rejected": "100% of the games cut off (more than 20%)",
    }
    (reading,) = study("--games", "40", "--max-plies", "6", "--max-timeouts", "1")
    assert reading["ranking"]["rank"] == 1 and reading["ranking"]["rejected"] is None
    result = runner.invoke(app, ["study", "--game", "mosona", "-q", "--rank", "--games",
                                 "40", "--max-plies", "6"])
    assert result.stdout.splitlines()[-1].split("  fails: ") == [
        "   -  defaults  random", "100% of the games cut off (more than 20%)"]


def test_a_forced_first_move_fails() -> None:
    rules = find_game("mosona")
    names = ("DecisionMoves", "Timeouts", "Drawishness")
    (summary,) = run_study(rules, study_readings(study_tags(rules, []), ["random"]), 20, 1,
                           kinds=kinds_for(names))
    measured = reading_metrics(summary, names)
    assert not forced_first(summary)  # Mosona's first position offers three moves
    assert why_unplayable(summary, measured, Playability()) is None
    one = replace(summary, results=tuple(
        replace(r, trace=Trace(legal=(1, *r.trace.legal[1:]))) for r in summary.results
        if r.trace is not None))
    assert forced_first(one)
    assert why_unplayable(one, measured, Playability()) == (
        "the first move is forced (one legal move) in every game")


def test_a_game_whose_first_turn_throws_dice_is_not_judged_on_its_first_move() -> None:
    # Awethi's first turn is the herd's one move after the throw: no choice, and no fault
    result = runner.invoke(app, ["study", "--game", "awethi", "--games", "4", "--seats", "1",
                                 "--rank", "--format", "json", "-q"])
    assert result.exit_code == 0, result.stderr
    (reading,) = json.loads(result.stdout)
    assert reading["ranking"]["rejected"] is None and reading["ranking"]["rank"] == 1


def test_the_thresholds_without_rank_are_refused() -> None:
    for option, value in (("--max-draws", "0.5"), ("--max-timeouts", "0")):
        result = runner.invoke(app, ["study", "--game", "mosona", "-q", "--games", "3",
                                     option, value])
        assert (result.exit_code, result.stdout) == (2, "")
        assert result.stderr == f"zrec: {option} is a threshold of --rank: give --rank too\n"
