"""Byes and the event's rounds: a bye past the event's last round is refused unless
``--extend-rounds`` asks for it, ``--remove`` takes a bye back, and a bye refused
because of a stored game names that game (not a roster the archive never had).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from zrec.cli import app

EVENTS = Path(__file__).resolve().parent / "data" / "events"
FIXTURE = "zrec forfeit fixture"  # games in rounds 1 to 3, no roster

runner = CliRunner()


def invoke(*args: str) -> Result:
    return runner.invoke(app, ["archive", *args])


def run(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return str(result.stdout)


def table(db: str, event: str = FIXTURE) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(
        run("standings", "--db", db, event, "--format", "json", "--tiebreaks", "BH,SB"))
    return rows


def fixture(tmp_path: Path) -> str:
    db = str(tmp_path / "a.sqlite")
    run("import", "--db", db, "-q", str(EVENTS / "forfeit-swiss.zrec"))
    return db


def test_a_bye_past_the_last_round_is_refused(tmp_path: Path) -> None:
    db = fixture(tmp_path)
    before = table(db)
    result = invoke("bye", "--db", db, FIXTURE, "4", "Brown, Bea", "--kind", "zero")
    assert result.exit_code == 2, result.stdout
    assert result.stderr == (
        "zrec: 'zrec forfeit fixture' has 3 rounds (the last round of its games and byes): "
        "a bye in round 4 would add a round in which every other player is absent; "
        "--extend-rounds adds it\n"
    )
    assert table(db) == before  # nothing written: every Buchholz as it was


def test_extend_rounds_adds_the_round(tmp_path: Path) -> None:
    db = fixture(tmp_path)
    out = run("bye", "--db", db, FIXTURE, "4", "Brown, Bea", "--kind", "zero",
              "--extend-rounds")
    assert out == (
        "zrec forfeit fixture, round 4: Brown, Bea has a zero bye (the event now has 4 "
        "rounds)\n")
    lines = run("crosstable", "--db", db, FIXTURE).splitlines()
    assert lines[0] == "zrec forfeit fixture, after round 4 (swiss crosstable)"
    # round 4 exists now: another bye in it needs no --extend-rounds
    run("bye", "--db", db, FIXTURE, "4", "Adams, Ada", "--kind", "half")


def test_a_roster_declares_the_rounds(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    trf = tmp_path / "r.trf"
    trf.write_text(
        "012 T\nXXR 5\n"
        "001    1      A                                                                  "
        "1.0    1     2 w 1\n"
        "001    2      B                                                                  "
        "0.0    2     1 b 0\n"
    )
    run("roster", "--db", db, str(trf))
    run("bye", "--db", db, "T", "5", "B", "--kind", "half")  # declared ahead: accepted
    result = invoke("bye", "--db", db, "T", "6", "B", "--kind", "half")
    assert result.exit_code == 2
    assert result.stderr == (
        "zrec: 'T' has 5 rounds (as its roster declares): a bye in round 6 would add a "
        "round in which every other player is absent; --extend-rounds adds it\n"
    )


def test_remove_takes_a_bye_back(tmp_path: Path) -> None:
    db = fixture(tmp_path)
    before = table(db)
    run("bye", "--db", db, FIXTURE, "2", "Dunn, Dov", "--kind", "half")
    assert table(db) != before
    out = run("bye", "--db", db, FIXTURE, "2", "Dunn, Dov", "--remove")
    assert out == "zrec forfeit fixture, round 2: Dunn, Dov's half bye is taken back\n"
    assert table(db) == before
    # an added round goes again with its only bye
    run("bye", "--db", db, FIXTURE, "4", "Dunn, Dov", "--kind", "full", "--extend-rounds")
    run("bye", "--db", db, FIXTURE, "4", "Dunn, Dov", "--remove")
    assert table(db) == before
    assert run("crosstable", "--db", db, FIXTURE).splitlines()[0] == (
        "zrec forfeit fixture, after round 3 (swiss crosstable)")


def test_remove_refuses_what_is_not_a_bye(tmp_path: Path) -> None:
    db = fixture(tmp_path)
    result = invoke("bye", "--db", db, FIXTURE, "2", "Dunn, Dov", "--remove")
    assert (result.exit_code, result.stderr) == (
        2, "zrec: 'zrec forfeit fixture', round 2: Dunn, Dov has no bye to take back\n")
    result = invoke("bye", "--db", db, FIXTURE, "2", "Dunn, Dov", "--remove", "--kind",
                    "half")
    assert (result.exit_code, result.stderr) == (
        2, "zrec: --remove takes back whatever bye the player has: give no --kind\n")
    result = invoke("bye", "--db", db, FIXTURE, "2", "Dunn, Dov")
    assert (result.exit_code, result.stderr) == (
        2, "zrec: --kind is one of pab, full, half, zero (or --remove takes a bye back)\n")


def test_a_bye_over_a_stored_game_names_the_game(tmp_path: Path) -> None:
    """The archive never had a roster: the message names the stored game."""
    db = fixture(tmp_path)
    result = invoke("bye", "--db", db, FIXTURE, "3", "Adams, Ada", "--kind", "half")
    assert result.exit_code == 2
    assert result.stderr == (
        "zrec: 'zrec forfeit fixture', round 3: Adams, Ada has a stored game in that "
        "round, game #5 (a win against Dunn, Dov); zrec archive remove 5 takes it out\n"
    )
    assert "roster" not in result.stderr


def test_a_bye_over_an_unfinished_game_names_the_game(tmp_path: Path) -> None:
    db = fixture(tmp_path)
    game = tmp_path / "open.zrec"
    game.write_text(
        f'[Game "mosona"]\n[Event "{FIXTURE}"]\n[Round "3"]\n[White "Brown, Bea"]\n'
        '[Black "Ford, Fay"]\n[Result "*"]\n\n1. a5-b5 *\n'
    )
    run("import", "--db", db, "-q", str(game))
    result = invoke("bye", "--db", db, FIXTURE, "3", "Brown, Bea", "--kind", "half")
    assert result.exit_code == 2
    assert result.stderr == (
        "zrec: 'zrec forfeit fixture', round 3: Brown, Bea has a stored game in that "
        "round, game #7 (not finished, against Ford, Fay); zrec archive remove 7 takes "
        "it out\n"
    )


def test_a_roster_with_results_past_its_own_rounds_is_refused(tmp_path: Path) -> None:
    """A TRF file whose XXR declares 1 round but gives a result in round 2: refused,
    nothing written (the file would make the event longer than it says)."""
    db = str(tmp_path / "a.sqlite")
    trf = tmp_path / "r.trf"
    trf.write_text(
        "012 T\nXXR 1\n"
        "001    1      A                                                                  "
        "2.0    1     2 w 1     2 b 1\n"
        "001    2      B                                                                  "
        "0.0    2     1 b 0     1 w 0\n"
    )
    result = invoke("roster", "--db", db, str(trf))
    assert (result.exit_code, result.stderr) == (
        2, f"zrec: {trf}, line 3: round 2 is past the 1 rounds that XXR declares (line 2)\n")


def test_byes_on_either_database(db_url: str) -> None:
    """The refusal, --extend-rounds, --remove and the stored game named, on SQLite and
    PostgreSQL."""
    run("import", "--db", db_url, "-q", str(EVENTS / "forfeit-swiss.zrec"))
    before = table(db_url)
    refused = invoke("bye", "--db", db_url, FIXTURE, "4", "Brown, Bea", "--kind", "zero")
    assert refused.exit_code == 2 and "--extend-rounds adds it" in refused.stderr
    run("bye", "--db", db_url, FIXTURE, "4", "Brown, Bea", "--kind", "zero", "--extend-rounds")
    assert table(db_url) != before
    run("bye", "--db", db_url, FIXTURE, "4", "Brown, Bea", "--remove")
    assert table(db_url) == before
    game = invoke("bye", "--db", db_url, FIXTURE, "3", "Adams, Ada", "--kind", "half")
    assert "has a stored game in that round, game #5" in game.stderr


def test_a_bye_for_a_player_already_paired_names_the_board(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    club = Path(__file__).resolve().parents[1] / "samples" / "club"
    run("roster", "--db", db, str(club / "spring.trf"))
    run("pair", "--db", db, "Spring Swiss 2026")  # 1-5, 6-2, 3-7, 8-4
    refused = invoke("bye", "--db", db, "Spring Swiss 2026", "1", "Fox, Fay", "--kind", "half")
    assert refused.exit_code == 2
    assert refused.stderr == (
        "zrec: 'Spring Swiss 2026', round 1: Fox, Fay is paired there (board 2, against "
        "Brown, Bea); enter a bye before the round is drawn, or draw it again after the "
        "bye (zrec archive pair, or seat, --replace --round 1)\n"
    )
    # a bye in a round not paired yet is taken
    run("bye", "--db", db, "Spring Swiss 2026", "2", "Fox, Fay", "--kind", "half")
