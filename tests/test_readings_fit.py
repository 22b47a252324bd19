"""``zrec readings --fit``: readings ranked by the share of the records legal under
each, then by the log-likelihood per move of the legal ones under the stated player
model (a softmax over the pieces each legal move takes)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from zrec.cli import app
from zrec.notation.reader import read_records
from zrec.play.replay import prepare
from zrec.play.walk import positions
from zrec.research.fit import fit_records, move_loglik

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted(str(p) for p in (ROOT / "samples").glob("*.zrec"))
CULIN = ROOT / "samples" / "culin-opening.zrec"
DEFAULTS = {"Board": "lined", "Jumps": "line", "Middle": "right", "EndRule": "majority",
            "First": "White", "Captures": "compulsory", "Chains": "whole",
            "Blocked": "endrule", "NoCapture": "off", "Repetition": "off"}
runner = CliRunner()


def fit_json(*args: str) -> list[dict[str, Any]]:
    result = runner.invoke(app, ["readings", "--fit", "--format", "json", *args])
    assert result.exit_code == 0, (result.stdout, result.stderr)
    found: list[dict[str, Any]] = json.loads(result.stdout)
    return found


def test_with_beta_zero_every_legal_move_is_alike() -> None:
    (record,) = [r for r in read_records(CULIN) if r.game is not None]
    assert record.game is not None
    replay = prepare(record.game)
    steps = positions(replay, record.game.line)
    counts = [len(replay.engine.legal_moves(s.before)) for s in steps]
    assert counts[0] == 3  # Mosona's first position: three moves (perft 1)
    found = move_loglik(record.game, DEFAULTS, 0.0)
    assert found is not None
    total, moves = found
    assert moves == len(counts)
    assert math.isclose(total, -sum(math.log(n) for n in counts))
    # with beta, a move that takes pieces is likelier than one that does not: Culin's
    # opening takes pieces at most of its plies, so its likelihood rises with beta
    rising = [move_loglik(record.game, DEFAULTS, b) for b in (0.0, 1.0, 3.0)]
    assert [r[0] for r in rising if r] == sorted(r[0] for r in rising if r)


def test_readings_are_ranked_by_share_legal_then_likelihood() -> None:
    fits = fit_json(*SAMPLES)
    mosona = sorted((f for f in fits if f["game"] == "mosona"), key=lambda f: f["rank"])
    # every sample is legal with bent jumps (a line jump is one too) where captures are
    # optional and a chain may stop, and mosona-bent.zrec's 50 plies without a capture
    # need NoCapture "off"; EndRule, Blocked and Repetition do not touch the samples
    best = mosona[0]
    assert best["options"] == {**DEFAULTS, "Jumps": "bent", "Captures": "optional",
                               "Chains": "stop"}
    assert (best["records"], best["legal"]) == (7, 7)
    assert best["share_legal"] == {"value": 1.0, "low": 1.0, "high": 1.0}
    # five of the seven are legal under the defaults
    (default,) = [f for f in mosona if f["options"] == DEFAULTS]
    assert (default["rank"], default["records"], default["legal"]) == (33, 7, 5)
    assert default["share_legal"]["value"] == round(5 / 7, 4)
    assert default["share_legal"]["low"] <= 5 / 7 <= default["share_legal"]["high"]
    assert math.isclose(best["loglik_per_move"]["value"], best["loglik"] / best["moves"],
                        abs_tol=1e-3)
    shares = [f["share_legal"]["value"] for f in mosona]
    assert shares == sorted(shares, reverse=True)
    # equal scores share a rank, the next skipping as many places (1, 1, 3, 3, 5, ...)
    for place, fit in enumerate(mosona, 1):
        key = (fit["share_legal"]["value"], fit["loglik_per_move"])
        tied = [f["rank"] for f in mosona
                if (f["share_legal"]["value"], f["loglik_per_move"]) == key]
        assert fit["rank"] == min(tied) == 1 + sum(
            1 for f in mosona if f["rank"] < fit["rank"])
        assert place >= fit["rank"]
    # games with dice are fitted for legality alone
    assert all(f["loglik_per_move"] is None for f in fits if f["game"] == "awethi")


def test_an_archive_fits_as_its_files_do(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    assert runner.invoke(app, ["archive", "import", "-q", "--db", db, *SAMPLES]).exit_code == 0
    from_archive = {(f["game"], json.dumps(f["options"])): f for f in fit_json(db)}
    from_files = {(f["game"], json.dumps(f["options"])): f for f in fit_json(*SAMPLES)}
    assert from_archive == from_files


def test_fit_records_is_the_same_for_a_seed() -> None:
    games = [r.game for r in read_records(CULIN) if r.game is not None]
    first = [f.to_json() for f in fit_records(games, 1.0, 3)]
    assert first == [f.to_json() for f in fit_records(games, 1.0, 3)]


def test_inputs_it_cannot_take_are_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["readings", str(CULIN), str(CULIN)])
    assert result.exit_code == 2 and "give one FILE (--fit reads several)" in result.stderr
    db = str(tmp_path / "a.sqlite")
    runner.invoke(app, ["archive", "import", "-q", "--db", db, str(CULIN)])
    result = runner.invoke(app, ["readings", "--fit", db, str(CULIN)])
    assert result.exit_code == 2
    assert "--fit reads one archive, or record files: not both" in result.stderr


def test_records_left_out_are_named_and_beta_is_bounded(tmp_path: Path) -> None:
    bad = tmp_path / "bad.zrec"
    bad.write_text(CULIN.read_text(encoding="utf-8") + '\n[Game "nosuchgame"]\n\n1-0\n',
                   encoding="utf-8")
    result = runner.invoke(app, ["readings", "--fit", str(bad)])
    assert result.exit_code == 0
    assert 'zrec: warning: left out: record 2: [Game "nosuchgame"] names no game' in (
        result.stderr)
    assert "mosona: 1 record\n" in result.stdout
    result = runner.invoke(app, ["readings", "--fit", "--beta", "1000", str(CULIN)])
    assert result.exit_code == 2


def test_equal_readings_share_a_rank_in_text_and_json() -> None:
    """EndRule, Blocked and Repetition do not change the samples' games (no side is
    blocked, none repeats a position), and NoCapture only mosona-bent.zrec's (50 plies
    without a capture): the readings that differ in them alone tie, and share a rank
    (standard competition ranking): 8 at rank 1 (NoCapture "off", every sample legal),
    16 at 9 (line jumps: mosona-bent.zrec illegal whatever NoCapture says), 8 at 25
    (bent jumps with NoCapture "50"), 16 at 33 (the defaults' captures and chains)."""
    mosona = sorted((f for f in fit_json(*SAMPLES) if f["game"] == "mosona"),
                    key=lambda f: f["rank"])
    ranks = [1] * 8 + [9] * 16 + [25] * 8 + [33] * 16 + [49]
    assert [f["rank"] for f in mosona[:49]] == ranks
    assert [f["options"]["EndRule"] for f in mosona[:8:4]] == ["majority", "draw"]
    assert {f["options"]["NoCapture"] for f in mosona[:8]} == {"off"}
    assert {f["options"]["NoCapture"] for f in mosona[24:32]} == {"50"}
    awethi = [f["rank"] for f in fit_json(*SAMPLES) if f["game"] == "awethi"]
    assert awethi == [1, 1, 1, 1]  # every reading legal, no likelihood: all tie
    result = runner.invoke(app, ["readings", "--fit", *SAMPLES])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.split("mosona: 7 records\n")[1].splitlines()[1:50]
    assert [int(line.split()[0]) for line in lines] == ranks
