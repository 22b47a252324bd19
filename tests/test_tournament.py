"""Tournaments: standings with FIDE tie-breaks, crosstables and TRF files.

Three fixtures (tests/data/events/README.md says where each comes from): a real Swiss
event with byes and an absence (Hamilton 2018), a real round robin (Wellington 2011),
and a small event with a forfeit and every kind of bye whose every number was worked
out by hand.  Every event is scored, written as TRF, read back into an empty archive
and scored again: the standings must not change.  The event tests run on SQLite and
PostgreSQL (``db_url``).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from zrec.cli import app

EVENTS = Path(__file__).resolve().parent / "data" / "events"
HAMILTON = "Hamilton Chess Club Championship 2018"
WELLINGTON = "Wellington Chess Club Championship 2011, A Grade"
FIXTURE = "zrec forfeit fixture"
ALL = "DE,PS,BH,SB,BH-C1,BH-M1,WIN"

runner = CliRunner()


def run(*args: str) -> str:
    result = runner.invoke(app, ["archive", *args])
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return str(result.stdout)


def refused(result: Result, message: str) -> None:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr.startswith(f"zrec: {message}"), result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def standings(db: str, event: str, *options: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(
        run("standings", "--db", db, event, "--format", "json", *options)
    )
    return rows


def forfeit_event(db: str) -> None:
    run("import", "--db", db, "-q", str(EVENTS / "forfeit-swiss.zrec"))
    run("bye", "--db", db, FIXTURE, "1", "Evans, Eli", "--kind", "pab")
    run("bye", "--db", db, FIXTURE, "2", "Dunn, Dov", "--kind", "half")


def trf_again(db: str, event: str, tmp_path: Path) -> str:
    """The event written as TRF and read into a new archive; that archive's path."""
    trf = tmp_path / "event.trf"
    run("standings", "--db", db, event, "--format", "trf", "-o", str(trf))
    again = str(tmp_path / "again.sqlite")
    run("roster", "--db", again, str(trf))
    return again


# -- the hand-checked event: a forfeit, a pairing-allocated bye, a half-point bye, an
# -- absence (tests/data/events/README.md works the numbers out)

#: (name, points, games, BH, BH-C1, BH-M1, SB, WIN, PS, DE) under 2026 rules
HAND_2026 = [
    ("Evans, Eli", 2.5, 2, 4, 3.5, 1.5, 3, 2, 5.5, 0),  # BH 1.5 (capped bye) + .5 + 2
    ("Clark, Cal", 2, 2, 5.5, 4.5, 2, 3.75, 1, 4, 0),  # 1 + 2 (forfeit win) + 2.5
    ("Adams, Ada", 2, 2, 3.5, 1.5, 0.5, 1.5, 2, 4, 0),  # .5 + 2 (forfeit loss) + 1
    ("Dunn, Dov", 1, 2, 5, 4, 2, 1.5, 0, 2.5, 0),  # 2 + 1 (bye) + 2
    ("Brown, Bea", 0, 2, 4.5, 4.5, 2, 0, 0, 0, 0),  # 2 + 2.5 + 0 (absence)
]
#: what differs under 2024 rules: Evans's bye counts his own 2.5
HAND_2024 = {"Evans, Eli": (5, 4.5, 2, 4)}
CODES = ("BH", "BH-C1", "BH-M1", "SB", "WIN", "PS", "DE")


def test_hand_checked_event(db_url: str, tmp_path: Path) -> None:
    forfeit_event(db_url)
    for rules in ("2026", "2024"):
        rows = standings(db_url, FIXTURE, "--tiebreaks", "BH-C1,BH,BH-M1,SB,WIN,PS,DE",
                         "--regulations", rules)
        want = []
        for name, points, games, *values in HAND_2026:
            if rules == "2024" and name in HAND_2024:
                values[:4] = HAND_2024[name]
            want.append({"player": name, "points": points, "games": games,
                         **dict(zip(CODES, values, strict=True))})
        got = [{k: row[k] for k in ("player", "points", "games", *CODES)} for row in rows]
        assert got == want, rules
        assert [row["rank"] for row in rows] == [1, 2, 3, 4, 5]
        assert all(isinstance(row[c], int | float) for row in rows for c in CODES)
    again = trf_again(db_url, FIXTURE, tmp_path)
    for rules in ("2026", "2024"):
        assert standings(again, FIXTURE, "--tiebreaks", ALL, "--regulations", rules) == (
            standings(db_url, FIXTURE, "--tiebreaks", ALL, "--regulations", rules)
        )


def test_hand_checked_event_tables(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    forfeit_event(db)
    assert run("crosstable", "--db", db, FIXTURE) == (
        "zrec forfeit fixture, after round 3 (swiss crosstable)\n"
        "\n"
        "Rank  No  Player         R1     R2   R3  Pts\n"
        "   1   5  Evans, Eli  PAB 1    2b1  3w½  2.5\n"
        "   2   3  Clark, Cal    4w½    1b+  5b½    2\n"
        "   3   1  Adams, Ada    2w1    3w-  4b1    2\n"
        "   4   4  Dunn, Dov     3b½  bye ½  1w0    1\n"
        "   5   2  Brown, Bea    1b0    5w0  – 0    0\n"
        "\n"
        "A round: the opponent's pairing number, w or b (the seat), the result (+ and - "
        "forfeits); PAB a pairing-allocated bye, – an absence.\n"
    )
    trf = run("standings", "--db", db, FIXTURE, "--format", "trf").splitlines()
    assert trf[:7] == [
        "012 zrec forfeit fixture",
        "022 Zuni Pueblo",
        "042 2026/09/01",
        "052 2026/09/15",
        "062 5",
        "092 Individual: Swiss-System",
        "XXR 3",
    ]
    # TRF-16 columns: number 5-8, name 15-47, points 81-84, rank 86-89, rounds from 92
    adams = trf[7]
    assert adams[:8] == "001    1" and adams[14:24] == "Adams, Ada"
    assert adams[80:84] == " 2.0" and adams[85:89] == "   3"
    assert adams[91:] == "   2 w 1     3 w -     4 b 1"
    assert trf[11][91:] == "0000 - U     2 b 1     3 w ="
    assert trf[9][91:] == "   4 w =     1 b +     5 b ="
    assert trf[8][91:] == "   1 b 0     5 w 0  0000 - Z"
    table = run("standings", "--db", db, FIXTURE, "--format", "csv")
    parsed = list(csv.reader(io.StringIO(table)))
    assert parsed[0] == ["Rank", "No", "Player", "Pts", "Games", "BH-C1", "BH", "DE", "WIN"]
    assert parsed[1] == ["1", "5", "Evans, Eli", "2.5", "2", "3.5", "4", "0", "2"]
    page = run("standings", "--db", db, FIXTURE, "--format", "html")
    assert "<td class=\"name\">Clark, Cal</td>" in page and "http" not in page
    after2 = standings(db, FIXTURE, "--round", "2", "--tiebreaks", "WIN,PS")
    assert [(r["player"], r["points"], r["WIN"], r["PS"]) for r in after2] == [
        ("Evans, Eli", 2, 2, 3),
        ("Clark, Cal", 1.5, 1, 2),
        ("Adams, Ada", 1, 1, 2),
        ("Dunn, Dov", 1, 0, 1.5),
        ("Brown, Bea", 0, 0, 0),
    ]


def test_roster_checks_the_games(tmp_path: Path) -> None:
    """A TRF file read into the archive that holds the games: the games agree, only
    the byes become roster rounds; a file that disagrees is refused, nothing written."""
    db = str(tmp_path / "a.sqlite")
    forfeit_event(db)
    trf = tmp_path / "event.trf"
    run("standings", "--db", db, FIXTURE, "--format", "trf", "-o", str(trf))
    before = standings(db, FIXTURE, "--tiebreaks", ALL)
    assert run("roster", "--db", db, str(trf)).strip() == (
        "zrec forfeit fixture: 5 players (0 new), 3 rounds from the roster, 12 rounds held "
        "by stored games (checked)"
    )
    assert standings(db, FIXTURE, "--tiebreaks", ALL) == before
    text = trf.read_text().replace("   2 w 1     3 w -", "   2 w 0     3 w -")
    text = text.replace("   1 b 0     5 w 0", "   1 b 1     5 w 0")
    text = text.replace("   2.0    3", "   1.0    3").replace("   0.0    5", "   1.0    5")
    trf.write_text(text)
    refused(
        runner.invoke(app, ["archive", "roster", "--db", db, str(trf)]),
        "'zrec forfeit fixture', round 1: the TRF file gives Adams, Ada a loss against "
        "another player, but the stored game gives a win",
    )
    assert standings(db, FIXTURE, "--tiebreaks", ALL) == before


# -- the real Swiss event ------------------------------------------------------------


def expected_hamilton(rules: str) -> list[dict[str, Any]]:
    lines = [
        line for line in (EVENTS / "hamilton-2018.expected.tsv").read_text().splitlines()
        if not line.startswith("#")
    ]
    rows = list(csv.DictReader(lines, delimiter="\t"))
    out = []
    for row in rows:
        if row.pop("regulations") != rules:
            continue
        item: dict[str, Any] = {}
        for key, value in row.items():
            item[key] = value if key == "player" else json.loads(value)
        out.append(item)
    return out


@pytest.mark.parametrize("rules", ["2026", "2024"])
def test_real_swiss_event(db_url: str, tmp_path: Path, rules: str) -> None:
    run("roster", "--db", db_url, str(EVENTS / "hamilton-2018.trf"))
    rows = standings(db_url, HAMILTON, "--tiebreaks", ALL, "--regulations", rules)
    assert rows == expected_hamilton(rules)
    dare, nolan = rows[0], rows[1]
    # the club's published values, where today's rules and the club's agree
    assert (dare["DE"], dare["PS"], dare["BH"], dare["SB"], dare["BH-C1"]) == (
        0.5, 19.5, 22.5, 19.75, 20)
    assert (nolan["DE"], nolan["PS"], nolan["BH-C1"]) == (0.5, 19.5, 19.5)
    # and where they differ: an opponent's bye before his last game no longer counts
    # as a draw (published 20.0 and 17.25)
    assert (nolan["BH"], nolan["SB"]) == (20.5, 17.75)
    again = trf_again(db_url, HAMILTON, tmp_path)
    assert standings(again, HAMILTON, "--tiebreaks", ALL, "--regulations", rules) == rows


def test_real_swiss_crosstable(tmp_path: Path) -> None:
    db = str(tmp_path / "h.sqlite")
    run("roster", "--db", db, str(EVENTS / "hamilton-2018.trf"))
    lines = run("crosstable", "--db", db, HAMILTON).splitlines()
    assert lines[0] == f"{HAMILTON}, after round 6 (swiss crosstable)"
    assert lines[3].split() == ["1", "1", "Richard", "Dare", "10w1", "17b1", "12w1", "2w½",
                                "4b1", "3b1", "5.5"]
    severinsen = next(line for line in lines if "Severinsen" in line)
    assert severinsen.split()[4:7] == ["bye", "½", "11w1"]
    kennedy = next(line for line in lines if "Kennedy" in line)
    assert kennedy.split()[-3:] == ["–", "0", "2.5"]
    murphy = next(line for line in lines if "Murphy" in line)
    assert "PAB 1" in murphy


# -- the real round robin ------------------------------------------------------------

#: the published crosstable, in the published order (row against column: W D L)
WELLINGTON_TABLE = """\
. W W W W W W W W W
L . W W W W W W W W
L L . W L W W W W W
L L L . W W W W W D
L L W L . L L W D W
L L L L W . W D D D
L L L L W L . D W W
L L L L L D D . W D
L L L L D D L L . W
L L L D L D L D L ."""
#: hand-checked Sonneborn-Berger (wins: the opponent's score; draws: half of it)
WELLINGTON_SB = [36, 28, 18.5, 15.75, 11, 10, 8.25, 6.25, 5, 5.75]


def test_real_round_robin(db_url: str, tmp_path: Path) -> None:
    run("roster", "--db", db_url, str(EVENTS / "wellington-2011-a.trf"))
    rows = standings(db_url, WELLINGTON, "--tiebreaks", "SB,DE,WIN,BH")
    assert [r["number"] for r in rows] == list(range(1, 11))  # the published order
    assert [r["points"] for r in rows] == [9, 8, 6, 5.5, 3.5, 3.5, 3.5, 2.5, 2, 1.5]
    assert [r["SB"] for r in rows] == WELLINGTON_SB
    assert [r["WIN"] for r in rows] == [9, 8, 6, 5, 3, 2, 3, 1, 1, 0]
    assert [r["BH"] for r in rows] == [45 - r["points"] for r in rows]
    default = standings(db_url, WELLINGTON)  # a round robin: DE first
    assert [(r["player"], r["DE"]) for r in default[4:7]] == [
        ("Sellen, Ian", 2), ("Nyberg, Michael", 1), ("Aldridge, Alan", 0)]
    again = trf_again(db_url, WELLINGTON, tmp_path)
    assert standings(again, WELLINGTON, "--tiebreaks", "SB,DE,WIN,BH") == rows


def test_round_robin_crosstable(tmp_path: Path) -> None:
    db = str(tmp_path / "w.sqlite")
    run("roster", "--db", db, str(EVENTS / "wellington-2011-a.trf"))
    text = run("crosstable", "--db", db, WELLINGTON, "--tiebreaks", "SB")
    lines = text.splitlines()
    assert lines[0].endswith("(round robin crosstable)")
    marks = {"1": "W", "½": "D", "0": "L", "×": "."}
    cells = [" ".join(marks[c] for c in line.split()[-11:-1]) for line in lines[3:13]]
    assert "\n".join(cells) == WELLINGTON_TABLE
    page = run("crosstable", "--db", db, WELLINGTON, "--format", "html")
    assert page.count("<tr>") == 11 and "round-robin" in page


# -- refusals ------------------------------------------------------------------------


def test_refusals(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    forfeit_event(db)

    def invoke(*args: str) -> Result:
        return runner.invoke(app, ["archive", *args])

    refused(invoke("standings", "--db", db, FIXTURE, "--tiebreaks", "BH,XY"),
            "unknown tie-break 'XY': the codes are DE, BH, BH-C1, BH-M1, SB, WIN, PS")
    refused(invoke("standings", "--db", db, FIXTURE, "--tiebreaks", "BH,bh"),
            "tie-break BH is asked for twice")
    refused(invoke("standings", "--db", db, "No such event"),
            "there is no event 'No such event'")
    refused(invoke("standings", "--db", db, FIXTURE, "--round", "4"),
            "'zrec forfeit fixture' has results for rounds 1 to 3: there is no round 4 to "
            "stand after")
    refused(invoke("standings", "--db", db, FIXTURE, "--regulations", "2019"),
            "the regulations are those of 2026 or 2024")
    refused(invoke("standings", "--db", db, FIXTURE, "--format", "pdf"),
            "--format is one of text, csv, json, html, trf, not 'pdf'")
    refused(invoke("bye", "--db", db, FIXTURE, "3", "Nobody", "--kind", "half"),
            "there is no player 'Nobody'")
    refused(invoke("bye", "--db", db, FIXTURE, "3", "Brown, Bea", "--kind", "double"),
            "--kind is one of pab, full, half, zero, not 'double'")
    # a bye for a player who has a game in that round
    refused(invoke("bye", "--db", db, FIXTURE, "3", "Adams, Ada", "--kind", "half"),
            "'zrec forfeit fixture', round 3: Adams, Ada has a stored game in that round, "
            "game #5 (a win against Dunn, Dov); zrec archive remove 5 takes it out")
    # nothing was written: Adams still won in round 3
    adams = standings(db, FIXTURE, "--tiebreaks", "WIN")[1]
    assert (adams["player"], adams["points"], adams["WIN"]) == ("Adams, Ada", 2, 2)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("001    1      A                                                                  "
         "1.0    1     2 w 1\n001    2      B                                             "
         "                     1.0    2     1 b +\n",
         "round 1: player 1 has '1' against 2, who does not have the opposite result"),
        ("001    1      A                                                                  "
         "1.0    1     2 w X\n",
         "line 2: round 1 has result code 'X'"),
        ("001    1      A                                                                  "
         "2.0    1  0000 - U\n",
         "player 1 (A) has 2.0 points, but the rounds give 1.0"),
        ("001    1      A                                                                  "
         "1.0    1     9 w 1\n",
         "player 1, round 1: there is no player 9"),
        ("012 nothing\n", "has no player line (001)"),
    ],
)
def test_bad_trf(tmp_path: Path, line: str, message: str) -> None:
    trf = tmp_path / "bad.trf"
    trf.write_text("012 Bad\n" + line)
    result = runner.invoke(app, ["archive", "roster", "--db", str(tmp_path / "a.sqlite"),
                                 str(trf)])
    assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


# -- games of more than two seats ------------------------------------------------------

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def seats_event(tmp_path: Path) -> str:
    """Two rounds of the three-seat sample game (wolves win) and one of the two-seat
    one (wolves win), with their seats played by other people each round."""
    three = (SAMPLES / "awethi.zrec").read_text()
    two = (SAMPLES / "awethi-solo.zrec").read_text()
    texts = []
    for number, (text, names) in enumerate(
        [(three, ("Ana", "Cho", "Ben")), (three, ("Ben", "Ana", "Cho")), (two, ("Cho", "Ana"))],
        1,
    ):
        text = text.replace('[Round "-"]', f'[Round "{number}"]')
        text = text.replace("[Event \"zrec sample: two shepherd players, advanced points\"]",
                            '[Event "Seats"]')
        text = text.replace("[Event \"zrec sample: one shepherd player against the wolves\"]",
                            '[Event "Seats"]')
        for seat, name in zip(("Naglani, A.", "Naglani, C.", "Naglani, B.")
                              if len(names) == 3 else ("Naglani, A.", "Naglani, B."),
                              names, strict=True):
            text = text.replace(f'"{seat}"', f'"{name}"')
        texts.append(text)
    file = tmp_path / "seats.zrec"
    file.write_text("\n".join(texts))
    db = str(tmp_path / "seats.sqlite")
    run("import", "--db", db, "-q", str(file))
    return db


def test_games_of_more_seats(tmp_path: Path) -> None:
    db = seats_event(tmp_path)
    rows = standings(db, "Seats")  # the default for more seats: WIN, PS
    # the wolves win every game: Ben (round 1), Cho (round 2), Ana (round 3)
    assert [(r["player"], r["points"], r["WIN"], r["PS"]) for r in rows] == [
        ("Ben", 1, 1, 3), ("Cho", 1, 1, 2), ("Ana", 1, 1, 1)]
    result = runner.invoke(app, ["archive", "standings", "--db", db, "Seats",
                                 "--tiebreaks", "WIN,SB,DE"])
    refused(result, "SB, DE need one opponent a game, and 'Seats' has games of 3 seats: "
            "use WIN and PS")
    refused(runner.invoke(app, ["archive", "standings", "--db", db, "Seats", "--format",
                                "trf"]),
            "a TRF file holds two-player games, and 'Seats' has games of 3 seats")
    refused(runner.invoke(app, ["archive", "crosstable", "--db", db, "Seats", "--form", "rr"]),
            "a round-robin table needs two-player games; 'Seats' has more seats")
    lines = run("crosstable", "--db", db, "Seats").splitlines()
    ben = next(line for line in lines if " Ben " in line)
    assert ben.split()[3:] == ["1,3", "Wolves", "1", "1,3", "Shepherd1", "0", "–", "0", "1"]


# -- the tables' version ---------------------------------------------------------------


def test_an_archive_of_schema_1_gains_the_tournament_tables(db_url: str) -> None:
    from zrec.archive.store.db import connect
    from zrec.archive.store.schema import MIGRATIONS, VERSION, _statements

    db = connect(db_url, True)
    with db.transaction():
        db.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta (name, value) VALUES ('schema', '1')")
        for statement in _statements(db, MIGRATIONS[1]):
            db.execute(statement)
    db.close()
    run("import", "--db", db_url, "-q", str(EVENTS / "forfeit-swiss.zrec"))
    run("bye", "--db", db_url, FIXTURE, "1", "Evans, Eli", "--kind", "pab")
    assert standings(db_url, FIXTURE, "--tiebreaks", "WIN")[0]["player"] == "Evans, Eli"
    db = connect(db_url, False)
    assert db.value("SELECT value FROM meta WHERE name = 'schema'") == str(VERSION)
    db.execute("UPDATE meta SET value = ? WHERE name = 'schema'", (str(VERSION + 1),))
    db.close()
    refused(runner.invoke(app, ["archive", "stats", "--db", db_url]),
            "")
    result = runner.invoke(app, ["archive", "stats", "--db", db_url])
    assert f"(archive schema {VERSION + 1}; this zrec knows up to {VERSION})" in result.stderr


def test_a_round_in_progress(tmp_path: Path) -> None:
    """An unfinished game leaves its players' round open (not an absence), and the
    commands say it does not count yet; a game without a round is named too."""
    db = str(tmp_path / "a.sqlite")
    forfeit_event(db)
    record = (EVENTS / "forfeit-swiss.zrec").read_text().split("\n\n[")[0]
    extra = tmp_path / "round4.zrec"
    unfinished = (record.replace('[Round "1"]', '[Round "4"]').replace("1-0", "*")
                  .replace('"Brown, Bea"', '"Clark, Cal"')
                  .replace('[Termination "resignation"]\n', ""))
    finished = (record.replace('[Round "1"]', '[Round "4"]')
                .replace('"Adams, Ada"', '"Evans, Eli"').replace('"Brown, Bea"', '"Dunn, Dov"'))
    unrounded = record.replace('[Round "1"]', '[Round "?"]').replace('"Brown, Bea"', '"Dunn, Dov"')
    extra.write_text("\n".join([unfinished, finished, unrounded]) + "\n")
    run("import", "--db", db, "-q", str(extra))
    result = runner.invoke(app, ["archive", "crosstable", "--db", db, FIXTURE])
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == [
        "zrec: game #7 does not count: not finished (result *)",
        "zrec: game #9 does not count: no round (Round '?')",
    ]
    rows = {line.split()[2].rstrip(","): line.split() for line in result.stdout.splitlines()[3:8]}
    assert rows["Adams"][-2] == "*" and rows["Clark"][-2] == "*"
    assert rows["Evans"][-2] == "4w1" and rows["Brown"][-3:-1] == ["–", "0"]
    trf = run("standings", "--db", db, FIXTURE, "--format", "trf").splitlines()
    # Adams: paired with Clark in round 4, no result yet
    assert trf[6] == "XXR 4" and trf[7].endswith("   4 b 1     3 w")
    again = str(tmp_path / "again.sqlite")
    (tmp_path / "e.trf").write_text("\n".join(trf) + "\n")
    run("roster", "--db", again, str(tmp_path / "e.trf"))
    assert standings(again, FIXTURE, "--tiebreaks", ALL) == standings(db, FIXTURE,
                                                                       "--tiebreaks", ALL)
