"""Tournament edge cases from review: odd round tags and TRF fields, a round count
declared ahead of the games, a roster read before the games, long names, uneven
results, and a round robin seen after an early round.  Each test failed before its fix.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from zrec.cli import app

runner = CliRunner()
#: openings for the records, so that no two games of a test are copies of each other
OPENINGS = [
    "1. a5-b5 c6xa5 ",
    "1. a5-b5 c6xa5 2. b7-c6 b4xb6 ",
    "1. a5-b5 c6xa5 2. b7-b6 a5xc6 ",
    "1. a5-b5 c6xa5 2. b7-c6 b4xb6 3. a4-b4 c3xa4 ",
    "1. a5-b5 c6xa5 2. b7-c6 b4xb6 3. a4-b4 c3xa4 4. a2xc3 a4xa2 ",
    "1. a5-b5 c6xa5 2. b7-b6 a5xc6 3. a7-b7 b4xb6 ",
    "1. a5-b5 c6xa5 2. b7-b6 a5xc6 3. a7-b7 b4xb6 4. b7xb5 c8xa7xa5 ",
]
used = iter(range(10**6))


def records(*games: str, event: str = "T") -> str:
    """Records from ``round|white|black|result[|termination]`` (``f``: a forfeit)."""
    out = []
    for game in games:
        number, white, black, result, *rest = game.split("|")
        term = rest[0] if rest else "resignation"
        moves = "" if term == "f" else OPENINGS[next(used) % len(OPENINGS)]
        term = "forfeit" if term == "f" else term
        out.append(
            f'[Game "mosona"]\n[Event "{event}"]\n[Round "{number}"]\n[White "{white}"]\n'
            f'[Black "{black}"]\n[Result "{result}"]\n[Termination "{term}"]\n\n'
            f"{moves}{result}\n"
        )
    return "\n".join(out)


def invoke(*args: str) -> Result:
    return runner.invoke(app, ["archive", *args])


def run(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return str(result.stdout)


def imported(tmp_path: Path, *games: str, event: str = "T") -> str:
    db = str(tmp_path / "a.sqlite")
    file = tmp_path / f"g{len(list(tmp_path.iterdir()))}.zrec"
    file.write_text(records(*games, event=event))
    run("import", "--db", db, "-q", str(file))
    return db


def table(db: str, event: str = "T", *options: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(
        run("standings", "--db", db, event, "--format", "json", *options))
    return rows


def trf_file(tmp_path: Path, *lines: str, rounds: int | None = None) -> str:
    path = tmp_path / "r.trf"
    head = ["012 T"] + ([f"XXR {rounds}"] if rounds else [])
    path.write_text("\n".join([*head, *lines]) + "\n")
    return str(path)


def player(number: int, name: str, points: str, *rounds: str) -> str:
    """A TRF-16 player line: name from column 15, points in 81-84, rank in 86-89,
    rounds from 92."""
    return f"001 {number:4d}      {name:<66}{points:>4} {number:4d}  " + "  ".join(rounds)


def test_round_tags_with_other_digits_do_not_count(tmp_path: Path) -> None:
    db = imported(tmp_path, "²|A|B|1-0", "１|A|B|1-0", "1|A|B|0-1", "1000|A|B|1-0")
    result = invoke("standings", "--db", db, "T")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == [
        "zrec: game #1 does not count: no round (Round '²')",
        "zrec: game #2 does not count: no round (Round '１')",
        "zrec: game #4 does not count: no round (Round '1000')",
    ]
    assert [(r["player"], r["points"]) for r in table(db)] == [("B", 1), ("A", 0)]


def test_trf_fields_with_other_digits_or_huge_rounds_are_refused(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    for lines, rounds, message in [
        ([player(1, "A", "0.0")], 1000, "line 2: XXR must give the number of rounds (1 to 999)"),
        ([player(1, "A", "0.0").replace("001    1", "001    ²")], None,
         "line 2: columns 5-8 must hold the pairing number (from 1), not '²'"),
        ([player(1, "A", "0.0").replace("001    1", "001    0")], None,
         "columns 5-8 must hold the pairing number (from 1), not '0'"),
        ([player(1, "A", "0.5", "   ² w =")], None, "round 1 has opponent '²'"),
        ([player(1, "A", "0.5", "   1 w =")], None, "round 1: player 1 cannot play himself"),
        ([player(1, "A", "1.0", "   2 w 1"), player(2, "B", "0.0", "   1 w 0")], None,
         "round 1: players 1 and 2 both have 'w'"),
    ]:
        result = invoke("roster", "--db", db, trf_file(tmp_path, *lines, rounds=rounds))
        assert result.exit_code == 2 and message in result.stderr, result.stderr
        assert "Traceback" not in result.stderr
    result = invoke("bye", "--db", db, "T", "100000000", "A", "--kind", "zero")
    assert result.exit_code == 2


def test_a_bom_is_not_part_of_the_first_line(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    path = Path(trf_file(tmp_path, player(1, "A", "1.0", "0000 - U"), rounds=1))
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert run("roster", "--db", db, str(path)).startswith("T: 1 players")


def test_declared_rounds_ahead_of_the_results(tmp_path: Path) -> None:
    """A roster read before round 3 is played: the table stands after round 2 (the cap
    on a bye's dummy counts the rounds played), and the TRF still declares 5."""
    db = str(tmp_path / "a.sqlite")
    path = trf_file(
        tmp_path,
        player(1, "A", "1.5", "0000 - H", "   2 w 1"),
        player(2, "B", "0.0", "   3 w 0", "   1 b 0"),
        player(3, "C", "2.0", "   2 b 1", "0000 - U"),
        rounds=5,
    )
    run("roster", "--db", db, path)
    default = table(db, "T", "--tiebreaks", "BH,SB")
    assert default == table(db, "T", "--round", "2", "--tiebreaks", "BH,SB")
    c = next(r for r in default if r["player"] == "C")
    assert (c["BH"], c["SB"]) == (1, 1)  # B's 0 and the bye's dummy: min(2, 2 × ½) = 1
    assert "XXR 5" in run("standings", "--db", db, "T", "--format", "trf")
    lines = run("crosstable", "--db", db, "T").splitlines()
    assert lines[2].split()[3:] == ["R1", "R2", "Pts"]


def test_games_imported_after_the_roster_that_holds_them(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    run("roster", "--db", db, trf_file(
        tmp_path, player(1, "A", "1.0", "   2 w 1"), player(2, "B", "0.0", "   1 b 0")))
    before = table(db)
    imported(tmp_path, "1|A|B|1-0")  # the same result: the game stands in for it
    assert table(db) == before
    imported(tmp_path, "1|A|B|0-1")  # also in round 1, another result: refused, explained
    result = invoke("standings", "--db", db, "T")
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "zrec: 'T', round 1: A has two results (game #1 and game #2)"), result.stderr


def test_a_bye_does_not_replace_a_roster_game(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    run("roster", "--db", db, trf_file(
        tmp_path, player(1, "A", "1.0", "   2 w 1"), player(2, "B", "0.0", "   1 b 0")))
    result = invoke("bye", "--db", db, "t", "1", "A", "--kind", "half")  # any case
    assert result.exit_code == 2
    assert result.stderr.startswith("zrec: 'T', round 1: the roster gives A a win;")


def test_one_player_in_two_seats_does_not_count(tmp_path: Path) -> None:
    db = imported(tmp_path, "1|A|A|1-0", "1|B|C|1-0")
    result = invoke("standings", "--db", db, "T")
    assert "game #1 does not count: one player holds two seats" in result.stderr
    assert [r["player"] for r in table(db)] == ["B", "C"]


def test_players_without_a_counted_game_are_not_entrants(tmp_path: Path) -> None:
    db = imported(tmp_path, "?|X|Y|1-0", "1|A|B|1-0")
    assert [r["player"] for r in table(db)] == ["A", "B"]


def test_uneven_results_and_long_names_read_back(tmp_path: Path) -> None:
    long = "Bartholomew-Featherstonehaugh, Marianne"
    db = imported(tmp_path, f"1|{long}|B|1/2-0|adjudication", "1|C|D|1-1|adjudication",
                  "2|B|C|0-0|adjudication", f"2|D|{long}|1-0")
    before = table(db, "T", "--tiebreaks", "BH,SB,WIN,PS")
    assert [(r["player"], r["points"]) for r in before] == [
        ("D", 2), ("C", 1), ("Bartholomew-Featherstonehaugh, Marianne", 0.5), ("B", 0)]
    trf = tmp_path / "e.trf"
    run("standings", "--db", db, "T", "--format", "trf", "-o", str(trf))
    run("roster", "--db", db, str(trf))  # the same archive: the cut name is the player
    assert table(db, "T", "--tiebreaks", "BH,SB,WIN,PS") == before
    fresh = str(tmp_path / "fresh.sqlite")
    run("roster", "--db", fresh, str(trf))
    again = table(fresh, "T", "--tiebreaks", "BH,SB,WIN,PS")
    for one, other in zip(again, before, strict=True):
        assert one["player"] == other["player"][:33]
        assert {k: v for k, v in one.items() if k != "player"} == {
            k: v for k, v in other.items() if k != "player"}


def test_an_early_round_of_a_round_robin_is_scored_as_one(tmp_path: Path) -> None:
    db = imported(tmp_path, "1|A|B|1-0", "1|C|D|1/2-1/2|agreement", "2|A|C|1-0",
                  "2|B|D|0-1", "3|A|D|1/2-1/2|agreement", "3|B|C|1-0")
    after1 = table(db, "T", "--round", "1")
    assert list(after1[0])[5:] == ["DE", "SB", "WIN"]  # the round-robin defaults
    text = run("crosstable", "--db", db, "T", "--round", "1")
    assert "(round robin crosstable)" in text
