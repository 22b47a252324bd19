"""Drawing an event's rounds into the archive: ``zrec archive pair`` (the FIDE Dutch
system, on a real archive: SQLite, and PostgreSQL when ``ZREC_TEST_PG`` names a server),
``schedule --round-robin`` (the Berger tables of FIDE C.05 Annex 1, written out here
from the published tables), the refusals, and the warnings for a stored game that its
round's pairings do not have.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from zrec.archive.store.schema import VERSION
from zrec.cli import app
from zrec.tournament.berger import berger_rounds

runner = CliRunner()
EVENT = "Spring Swiss"
NAMES = ["Adams, Ada", "Brown, Bea", "Clark, Cal", "Dunn, Dov", "Evans, Eli", "Fox, Fay",
         "Gray, Gus", "Hill, Hal"]

# FIDE Handbook C.05, Annex 1: the Berger tables, (white, black) board by board
BERGER_4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
BERGER_8 = [
    [(1, 8), (2, 7), (3, 6), (4, 5)],
    [(8, 5), (6, 4), (7, 3), (1, 2)],
    [(2, 8), (3, 1), (4, 7), (5, 6)],
    [(8, 6), (7, 5), (1, 4), (2, 3)],
    [(3, 8), (4, 2), (5, 1), (6, 7)],
    [(8, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 8), (5, 3), (6, 2), (7, 1)],
]


def invoke(*args: str) -> Result:
    return runner.invoke(app, ["archive", *args])


def run(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return str(result.stdout)


def refused(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == 2, (args, result.stdout)
    return str(result.stderr)


def roster(tmp_path: Path, db: str, names: list[str], rounds: int, event: str = EVENT) -> None:
    """The event's players from a TRF file: pairing numbers in the order given."""
    lines = [f"012 {event}", f"XXR {rounds}"]
    for i, name in enumerate(names, 1):
        lines.append(f"001 {i:4d}      {name:<33}{2000 - 10 * i:4d}{'':29}{'0.0':>4} {i:4d}")
    path = tmp_path / "roster.trf"
    path.write_text("\n".join(lines) + "\n")
    run("roster", "--db", db, str(path))


def results(tmp_path: Path, db: str, number: int, games: list[tuple[str, str, str]],
            event: str = EVENT, code: int = 0) -> Result:
    """Import result-only records of round ``number``: (white, black, result); the
    import's exit code must be ``code``."""
    text = "\n".join(
        f'[Game "mosona"]\n[Event "{event}"]\n[Round "{number}"]\n[White "{w}"]\n'
        f'[Black "{b}"]\n[Result "{r}"]\n[Termination "resignation"]\n\n{r}\n'
        for w, b, r in games
    )
    path = tmp_path / f"round{number}-{len(list(tmp_path.iterdir()))}.zrec"
    path.write_text(text)
    result = invoke("import", "--db", db, "-q", str(path))
    assert result.exit_code == code, result.stderr
    return result


def pairs(rows: list[dict[str, Any]]) -> list[tuple[int, ...]]:
    """The boards as (white, black) numbers, a bye as (number,)."""
    return [(r["bye"]["number"],) if "bye" in r else (r["white"]["number"], r["black"]["number"])
            for r in rows]


def paired(db: str, *options: str, event: str = EVENT) -> list[tuple[int, ...]]:
    return pairs(json.loads(run("pair", "--db", db, event, "--format", "json", *options)))


def name(number: int) -> str:
    return NAMES[number - 1]


def play(tmp_path: Path, db: str, number: int, boards: list[tuple[int, ...]], result: str,
         event: str = EVENT) -> None:
    """Every board of the round ends ``result``."""
    results(tmp_path, db, number,
            [(name(b[0]), name(b[1]), result) for b in boards if len(b) == 2], event)


# -- the Berger tables -----------------------------------------------------------------


def test_berger_tables_are_the_published_ones() -> None:
    assert berger_rounds(4) == BERGER_4
    assert berger_rounds(6) == BERGER_6
    assert berger_rounds(8) == BERGER_8
    assert berger_rounds(5) == BERGER_6  # 6 stands for the round off
    assert berger_rounds(7) == BERGER_8
    double = berger_rounds(4, double=True)
    assert double[:3] == BERGER_4
    assert double[3:] == [[(4, 1), (3, 2)], [(3, 4), (2, 1)], [(4, 2), (1, 3)]]
    with pytest.raises(ValueError, match="2 players or more, not 1"):
        berger_rounds(1)


def test_schedule_writes_the_round_robin(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    names = NAMES[:5]
    roster(tmp_path, db, names, 5, "Club RR")
    shown = json.loads(run("schedule", "--db", db, "Club RR", "--round-robin", "--format",
                           "json"))
    assert list(shown) == ["1", "2", "3", "4", "5"]
    for n, table in enumerate(BERGER_6, 1):
        boards = [b for b in table if 6 not in b]
        off = next(min(b) for b in table if 6 in b)
        assert [(r["white"]["number"], r["black"]["number"]) for r in shown[str(n)][:-1]] \
            == boards
        assert shown[str(n)][-1] == {"off": {"number": off, "name": names[off - 1],
                                             "points": 0}}
    text = run("schedule", "--db", db, "Club RR", "--round-robin", "--replace")
    assert text.split("\n\n")[:3] == [
        "Club RR, round 1",
        "Board  White           Pts  Black           Pts\n"
        "    1  Brown, Bea (2)    0  Evans, Eli (5)    0\n"
        "    2  Clark, Cal (3)    0  Dunn, Dov (4)     0\n"
        "A round off: Adams, Ada (1), 0",
        "Club RR, round 2",
    ]
    assert refused("schedule", "--db", db, "Club RR", "--round-robin") == (
        "zrec: 'Club RR' has stored pairings: zrec archive schedule --replace writes the "
        "table in place of every stored pairing\n")
    assert refused("schedule", "--db", db, "Club RR") == (
        "zrec: schedule writes a round robin: give --round-robin\n")
    doubled = json.loads(run("schedule", "--db", db, "Club RR", "--round-robin", "--double",
                             "--replace", "--format", "json"))
    assert len(doubled) == 10
    assert doubled["6"][0]["white"]["number"] == 5 and doubled["6"][0]["black"]["number"] == 2
    with sqlite3.connect(db) as conn:
        count = conn.execute("SELECT count(*) FROM event_pairings").fetchone()[0]
    assert count == 10 * 5  # each round: two boards of two, one round off
    # a round-robin round off is not counted ahead: no standings yet, rounds open
    assert refused("standings", "--db", db, "Club RR") == (
        "zrec: 'Club RR' has no game with a round and a result yet\n")


# -- the Dutch system ------------------------------------------------------------------


def test_pair_round_one_and_two_of_eight(tmp_path: Path, db_url: str) -> None:
    db = db_url
    roster(tmp_path, db, NAMES, 5)
    text = run("pair", "--db", db, EVENT)
    assert text == (
        "Spring Swiss, round 1\n\n"
        "Board  White           Pts  Black           Pts\n"
        "    1  Adams, Ada (1)    0  Evans, Eli (5)    0\n"
        "    2  Fox, Fay (6)      0  Brown, Bea (2)    0\n"
        "    3  Clark, Cal (3)    0  Gray, Gus (7)     0\n"
        "    4  Hill, Hal (8)     0  Dunn, Dov (4)     0\n"
    )
    assert refused("pair", "--db", db, EVENT, "--round", "1") == (
        "zrec: 'Spring Swiss', round 1 already has stored pairings: zrec archive pair "
        "--replace draws it again\n")
    assert refused("pair", "--db", db, EVENT) == (
        "zrec: 'Spring Swiss', round 1 is not finished: Adams, Ada has no result yet; "
        "round 2 is drawn once the rounds before it have their results\n")
    assert paired(db, "--replace", "--first-colour", "black") == [
        (5, 1), (2, 6), (7, 3), (4, 8)]
    assert refused("pair", "--db", db, EVENT, "--replace", "--first-colour", "red") == (
        "zrec: --first-colour is white or black, not 'red'\n")
    first = paired(db, "--round", "1", "--replace")
    assert first == [(1, 5), (6, 2), (3, 7), (8, 4)]
    play(tmp_path, db, 1, first, "1-0")  # White wins every board: 1, 6, 3, 8 lead
    # 1 3 6 8 (all had White): 1–6 and 3–8, the higher ranked of each with Black;
    # 2 4 5 7 (all had Black): 2–5 and 4–7, the higher ranked with White
    assert paired(db) == [(6, 1), (8, 3), (2, 5), (4, 7)]
    assert refused("pair", "--db", db, EVENT, "--round", "1", "--replace") == (
        "zrec: 'Spring Swiss', round 1 has stored games (#1, #2, #3, #4): its pairings "
        "stand; zrec archive remove ID takes a game out\n")
    assert refused("pair", "--db", db, EVENT, "--round", "6") == (
        "zrec: 'Spring Swiss', round 2 is not finished: Adams, Ada has no result yet; "
        "round 6 is drawn once the rounds before it have their results\n")


def test_the_pairing_allocated_bye_scores_and_a_past_round_is_refused(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    roster(tmp_path, db, NAMES[:7], 1, "Seven")
    rows = json.loads(run("pair", "--db", db, "Seven", "--format", "json"))
    assert pairs(rows) == [(1, 4), (5, 2), (3, 6), (7,)]
    assert rows[-1] == {"bye": {"number": 7, "name": "Gray, Gus", "points": 0}}
    assert run("pair", "--db", db, "Seven", "--round", "1", "--replace").endswith(
        "The pairing-allocated bye: Gray, Gus (7), 0\n")
    play(tmp_path, db, 1, [(1, 4), (5, 2), (3, 6)], "0-1", "Seven")
    table = json.loads(run("standings", "--db", db, "Seven", "--format", "json"))
    assert sorted((r["number"], r["points"]) for r in table if r["points"]) == [
        (2, 1), (4, 1), (6, 1), (7, 1)]
    assert refused("pair", "--db", db, "Seven") == (
        "zrec: 'Seven' has 1 rounds (as its roster declares): drawing round 2 would add a "
        "round; --extend-rounds adds it\n")
    # 2 4 6 7 have 1 point: 2–6 (both had Black: the higher ranked has White), 4–7 (7
    # has no colour yet); 1 3 5 have none: the bye goes to the lowest, 5, and 1 and 3
    # both had White: the higher ranked, 1, has Black
    assert paired(db, "--extend-rounds", event="Seven") == [(2, 6), (4, 7), (3, 1), (5,)]


def test_games_that_the_pairings_do_not_have_are_reported(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    roster(tmp_path, db, NAMES, 5)
    assert paired(db) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    done = results(tmp_path, db, 1, [("Adams, Ada", "Evans, Eli", "1-0"),
                                      ("Brown, Bea", "Fox, Fay", "1-0"),
                                      ("Clark, Cal", "Dunn, Dov", "1-0")], code=1)
    said = [
        "'Spring Swiss', round 1: game #2 has Brown, Bea (2) with White, but "
        "the pairings give White to Fox, Fay (6)",
        "'Spring Swiss', round 1: game #3 (Clark, Cal (3) – Dunn, Dov (4)) "
        "is not in the round's pairings (Clark, Cal (3) – Gray, Gus (7); Hill, Hal (8) – "
        "Dunn, Dov (4))",
    ]
    warnings = [f"zrec: warning: {s}" for s in said]
    # the import says so even with -q, naming the file and the game, and exits with 1
    file = str(next(tmp_path.glob("round1-*.zrec")))
    assert done.stderr.splitlines() == [
        f"{file}:11: warning: game 2: {said[0]}",
        f"{file}:21: warning: game 3: {said[1]}",
    ]
    assert done.stdout.endswith("3 added, 0 duplicates, 0 truncated copies, 0 conflicts, "
                                "0 continuations, 0 invalid\n")
    for command in ("standings", "crosstable"):
        result = invoke(command, "--db", db, EVENT)
        assert result.exit_code == 0
        assert result.stderr.splitlines() == warnings
    out = invoke("import", "--db", db, "-q", str(tmp_path / "roster.trf"))  # no game: quiet
    assert "warning" not in out.stderr
    # a later import that adds a game does not say the games before it again
    later = results(tmp_path, db, 2, [("Gray, Gus", "Hill, Hal", "1-0")])
    assert later.stderr == ""


def test_pair_refuses_what_it_cannot_pair(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    assert refused("pair", "--db", db, EVENT).startswith("zrec: there is no archive at ")
    roster(tmp_path, db, NAMES[:4], 3)
    assert refused("pair", "--db", db, "Autumn") .startswith(
        "zrec: there is no event 'Autumn' in ")
    assert refused("pair", "--db", db, EVENT, "--format", "csv") == (
        "zrec: --format is text or json, not 'csv'\n")


def test_merging_players_moves_their_pairings(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    roster(tmp_path, db, NAMES[:4], 3)
    assert paired(db) == [(1, 3), (4, 2)]
    assert refused("alias", "--db", db, "Adams, Ada", "Clark, Cal") == (
        'zrec: "Adams, Ada" and "Clark, Cal" were both paired in round 1 of "Spring Swiss": '
        "they are two players\n")
    # on two boards of one round too: a merge would put one person on both
    assert refused("alias", "--db", db, "Adams, Ada", "Brown, Bea") == (
        'zrec: "Adams, Ada" and "Brown, Bea" were both paired in round 1 of "Spring Swiss": '
        "they are two players\n")
    run("import", "--db", db, "-q", str(write_one(tmp_path, "Adams, Ada J.", "Zed, Zoe")))
    run("alias", "--db", db, "Adams, Ada", "Adams, Ada J.")
    with sqlite3.connect(db) as conn:
        players = [str(r[0]) for r in conn.execute(
            "SELECT p.name FROM event_pairings e JOIN players p ON p.id = e.player "
            "ORDER BY e.board, e.seat")]
    assert players == ["Adams, Ada J.", "Clark, Cal", "Dunn, Dov", "Brown, Bea"]
    rows = json.loads(run("pair", "--db", db, EVENT, "--round", "1", "--replace",
                          "--format", "json"))
    assert rows[0]["white"] == {"number": 1, "name": "Adams, Ada J.", "points": 0}


def write_one(tmp_path: Path, white: str, black: str) -> Path:
    path = tmp_path / "other.zrec"
    path.write_text(f'[Game "mosona"]\n[Event "Other"]\n[Round "1"]\n[White "{white}"]\n'
                    f'[Black "{black}"]\n[Result "1-0"]\n[Termination "resignation"]\n\n1-0\n')
    return path


def test_an_archive_of_schema_8_gains_the_pairings_table(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    roster(tmp_path, db, NAMES[:4], 3)
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE event_pairings")
        conn.execute("UPDATE meta SET value = '8' WHERE name = 'schema'")
    assert paired(db) == [(1, 3), (4, 2)]  # brought up to date on opening
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone() == (
            str(VERSION),)


def test_a_round_after_one_not_drawn_is_refused(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    roster(tmp_path, db, NAMES, 5)
    assert refused("pair", "--db", db, EVENT, "--round", "3") == (
        f"zrec: '{EVENT}', round 3: round 1 is not drawn yet; rounds are drawn in order "
        "(zrec archive pair --round 1), or every player would be absent in the rounds "
        "between\n"
    )


def test_the_standings_say_which_round_they_count_is_not_complete(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    roster(tmp_path, db, NAMES, 5)
    assert paired(db) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    results(tmp_path, db, 1, [("Adams, Ada", "Evans, Eli", "1-0")])
    table = run("standings", "--db", db, EVENT)
    assert table.splitlines()[0] == "Spring Swiss, after round 1 (1 of 4 games in; 3 pending)"
    page = run("standings", "--db", db, EVENT, "--format", "html")
    assert "<title>Spring Swiss: standings after round 1 (1 of 4 games in; 3 pending)" in page
    results(tmp_path, db, 1, [("Fox, Fay", "Brown, Bea", "0-1"), ("Clark, Cal", "Gray, Gus",
                              "1-0"), ("Hill, Hal", "Dunn, Dov", "1/2-1/2")])
    assert run("standings", "--db", db, EVENT).splitlines()[0] == "Spring Swiss, after round 1"
