"""``zrec readings --fit --model alphabeta:D``: the softmax over the search player's
values of the legal moves, checked against a log-likelihood computed here from its
definition (docs/readings.md, Fit): each move's value is the plain minimax value, for
the seat that moves, of the position it leaves, D - 1 moves deeper (no pruning, no
move ordering: every line searched), a finished game worth 10,000 less the moves to it
(won), its negative (lost) or 0 (drawn), else the mover's pieces less the other's."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from zrec.cli import app
from zrec.notation.model import Game
from zrec.notation.reader import read_records
from zrec.play.replay import prepare
from zrec.play.walk import positions
from zrec.research import fit
from zrec.research.fit import FitError, model_spec, move_loglik

ROOT = Path(__file__).resolve().parents[1]
DEFAULTS = {"Board": "lined", "Jumps": "line", "Middle": "right", "EndRule": "majority",
            "First": "White", "Captures": "compulsory", "Chains": "whole",
            "Blocked": "endrule", "NoCapture": "off", "Repetition": "off"}
#: four plies of Mosona: White's three first moves are alike (none takes), Black's
#: reply is forced (it takes one), then White has three moves and Black four
TINY = '[Game "mosona"]\n[Result "*"]\n\n1. a4-b5 c5xa4 2. b6-c5 b4-b5 *\n'
runner = CliRunner()


def minimax(engine: Any, pos: Any, me: int, depth: int, ahead: int) -> int:
    outcome = engine.outcome(pos)
    if outcome is not None:
        mine, theirs = outcome.scores[me], outcome.scores[1 - me]
        return 0 if mine == theirs else (10_000 - ahead) * (1 if mine > theirs else -1)
    moves = engine.legal_moves(pos)
    if depth == 0 or not moves:
        material = engine.material(pos)
        return int(material[me] - material[1 - me])
    values = [minimax(engine, engine.apply(pos, m)[0], me, depth - 1, ahead + 1) for m in moves]
    return max(values) if engine.move_number(pos).seat == me else min(values)


def expected(game: Game, depth: int, beta: float) -> tuple[float, list[list[int]]]:
    """The log-likelihood of the record's moves, and each position's values."""
    replay = prepare(game)
    engine, total, seen = replay.engine, 0.0, []
    for step in positions(replay, game.line):
        me = engine.move_number(step.before).seat
        values = [minimax(engine, engine.apply(step.before, m)[0], me, depth - 1, 1)
                  for m in engine.legal_moves(step.before)]
        mine = minimax(engine, step.after, me, depth - 1, 1)
        assert mine in values
        total += beta * mine - math.log(sum(math.exp(beta * v) for v in values))
        seen.append(values)
    return total, seen


@pytest.fixture
def tiny(tmp_path: Path) -> tuple[Game, Path]:
    path = tmp_path / "tiny.zrec"
    path.write_text(TINY, encoding="utf-8")
    (record,) = read_records(path)
    assert record.game is not None
    return record.game, path


def test_the_first_plies_by_hand(tiny: tuple[Game, Path]) -> None:
    game, _ = tiny
    # one move ahead: the material after each move; White's first three take nothing,
    # Black's forced reply gains one, White's moves then and Black's take nothing
    _, values = expected(game, 1, 1.0)
    assert values == [[0, 0, 0], [1], [-1, -1, -1], [1, 1, 1, 1]]
    found = move_loglik(game, DEFAULTS, 1.0, "alphabeta:1")
    assert found is not None
    assert found[1] == 4
    assert math.isclose(found[0], -math.log(3) + 0 - math.log(3) - math.log(4), rel_tol=1e-12)
    # one move ahead the values are the pieces taken plus the same number for every
    # move of a position: the softmax is the greedy model's
    greedy = move_loglik(game, DEFAULTS, 1.0, "greedy")
    assert greedy is not None and math.isclose(greedy[0], found[0], rel_tol=1e-12)


@pytest.mark.parametrize(("depth", "beta"), [(2, 1.0), (3, 1.0), (3, 0.5), (4, 2.0)])
def test_the_log_likelihood_is_the_definitions(
    tiny: tuple[Game, Path], depth: int, beta: float
) -> None:
    game, _ = tiny
    want, values = expected(game, depth, beta)
    assert len({v for row in values for v in row}) > 1  # the moves are told apart
    found = move_loglik(game, DEFAULTS, beta, f"alphabeta:{depth}")
    assert found is not None
    assert found[1] == 4 and math.isclose(found[0], want, rel_tol=1e-12)


def test_the_command_prints_it(tiny: tuple[Game, Path]) -> None:
    game, path = tiny
    result = runner.invoke(app, ["readings", "--fit", str(path), "--model", "alphabeta:3",
                                 "--format", "json"])
    assert result.exit_code == 0, result.output
    (best,) = [f for f in json.loads(result.stdout) if f["options"] == DEFAULTS]
    want, _ = expected(game, 3, 1.0)
    assert (best["moves"], best["loglik"]) == (4, round(want, 4))
    assert (best["model"], best["beta"]) == ("alphabeta:3", 1.0)
    table = runner.invoke(app, ["readings", "--fit", str(path), "--model", "AlphaBeta"])
    assert table.stdout.startswith("player model: softmax over the alphabeta values at depth "
                                   "3 of the legal moves, beta = 1\n")  # 3 unless given


def test_games_the_search_cannot_play_are_fitted_for_legality_alone(
    tiny: tuple[Game, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    game, path = tiny
    awethi = str(ROOT / "samples" / "awethi.zrec")
    args = ["readings", "--fit", str(path), awethi, "--model", "alphabeta:2", "--format", "json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    (mosona,) = [f for f in data if f["game"] == "mosona" and f["options"] == DEFAULTS]
    want, _ = expected(game, 2, 1.0)
    assert (mosona["moves"], mosona["loglik"]) == (4, round(want, 4))
    shepherds = [f for f in data if f["game"] == "awethi"]
    assert shepherds and all(f["loglik_per_move"] is None for f in shepherds)
    assert any(f["legal"] == 1 for f in shepherds)
    # the same from worker processes, one record a piece
    monkeypatch.setattr(fit, "RECORDS_PER_PIECE", 1)
    two = runner.invoke(app, [*args, "--jobs", "2"])
    assert (two.exit_code, two.stdout) == (0, result.stdout)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("minimax", "--model is greedy or alphabeta[:D], not 'minimax'"),
        ("greedy:2", "--model is greedy or alphabeta[:D], not 'greedy:2'"),
        ("alphabeta:0", "--model alphabeta:0: the depth of alphabeta is a whole number at "
         "least 1, not '0'"),
        ("alphabeta:٣", "--model alphabeta:٣: the depth of alphabeta is a whole number at "
         "least 1, not '٣'"),
    ],
)  # fmt: skip
def test_a_model_it_cannot_read_is_refused(text: str, message: str) -> None:
    with pytest.raises(FitError) as found:
        model_spec(text)
    assert str(found.value) == message
    result = runner.invoke(app, ["readings", "--fit", str(ROOT / "samples" / "culin-opening.zrec"),
                                 "--model", text])
    assert (result.exit_code, result.stderr) == (2, f"zrec: {message}\n")
    assert model_spec(" AlphaBeta:02 ") == "alphabeta:2"
