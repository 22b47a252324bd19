"""``zrec archive``: the commands as a user runs them (typer's runner), their output
formats, export and import round trips, the integrity check and removal, and the
archives they refuse, with a message and exit code 2 and never a traceback.

Every test that uses an archive runs on SQLite and on PostgreSQL (``db_url``)."""

from __future__ import annotations

import json
import sqlite3
from array import array
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from zrec.archive import Archive
from zrec.archive.store import posindex
from zrec.archive.store.upkeep import check, remove
from zrec.archive.store.verify import keys_of_text
from zrec.check.validate import validate_record
from zrec.cli import app
from zrec.notation.reader import read_records
from zrec.notation.writer import write_game
from zrec.play.selfplay import random_games
from zrec.rules import find_game

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
SAMPLE_FILES = [str(p) for p in sorted(SAMPLES.glob("*.zrec"))]
TOURNAMENT = str(SAMPLES / "tournament.zrec")
COUNTS = ("read", "added", "duplicates", "truncated", "conflicts", "continued", "invalid")
COMMANDS = ("import", "search", "export", "show", "stats", "check", "remove")

runner = CliRunner()


def invoke(*args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> Result:
    return runner.invoke(app, ["archive", *args], env=env, input=stdin)


def ok(*args: str, env: dict[str, str] | None = None) -> str:
    result = invoke(*args, env=env)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return str(result.stdout)


def refused(result: Result, message: str) -> None:
    """Exit code 2, ``zrec: message`` on standard error, no traceback."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr.startswith(f"zrec: {message}"), result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert isinstance(result.exception, SystemExit)


def imported(db: str, *files: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(ok("import", "--db", db, "--format", "json", *files))
    return document


def texts(db: str) -> list[tuple[str, int]]:
    with Archive.open(db) as archive:
        rows = archive.db.rows("SELECT text, ident FROM games")
        return sorted((archive.texts.unpack(t), int(i)) for t, i in rows)


# -- import -----------------------------------------------------------------------------


def test_import_reports_as_json(db_url: str) -> None:
    document = imported(db_url, *SAMPLE_FILES)
    assert {k: document[k] for k in COUNTS} == dict.fromkeys(COUNTS, 0) | {
        "read": 15,
        "added": 15,
    }
    assert document["reports"] == []
    assert [f["file"] for f in document["files"]] == SAMPLE_FILES
    assert {f["status"] for f in document["files"]} == {"imported"}
    assert document["files"][-1] | {"sha256": None} == {
        "file": TOURNAMENT,
        "sha256": None,
        "status": "imported",
        "read": 5,
        "added": 5,
        "duplicates": 0,
        "truncated": 0,
        "conflicts": 0,
        "continued": 0,
        "invalid": 0,
        "already": 0,
    }
    again = imported(db_url, *SAMPLE_FILES)
    assert {k: again[k] for k in (*COUNTS, "already")} == dict.fromkeys(COUNTS, 0) | {
        "read": 15,
        "already": 15,
    }
    assert {f["status"] for f in again["files"]} == {"already imported"}
    reread = json.loads(ok("import", "--db", db_url, "--format", "json", "--reread", TOURNAMENT))
    assert {k: reread[k] for k in COUNTS} == dict.fromkeys(COUNTS, 0) | {
        "read": 5,
        "duplicates": 5,
    }
    assert [(r["kind"], r["game"], r["other"]) for r in reread["reports"]] == [
        ("duplicate", n, 10 + n) for n in range(1, 6)
    ]


def test_import_of_an_invalid_game(db_url: str) -> None:
    path = str(SAMPLES / "invalid" / "illegal-move.zrec")
    result = invoke("import", "--db", db_url, "--format", "json", path)
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["invalid"] == 1 and document["added"] == 0
    record = next(read_records(path))
    error = validate_record(record, path).diagnostics[0]
    assert document["reports"] == [
        {
            "kind": "invalid",
            "file": path,
            "game": 1,
            "line": 1,
            "message": f"not stored: {error.format()}",
            "id": None,
            "other": None,
        }
    ]
    # the text report says the same, and --keep-invalid stores it flagged
    result = invoke("import", "--db", db_url, "--keep-invalid", "--reread", path)
    assert result.exit_code == 1
    assert result.stdout == (
        f"{path}:1: invalid: game 1: kept, flagged invalid, as #1: {error.format()}\n"
        "1 game read from 1 file: 0 added, 0 duplicates, 0 truncated copies, 0 conflicts, "
        "0 continuations, 1 invalid\n"
    )
    shown = json.loads(ok("show", "--db", db_url, "--format", "json", "1"))
    assert shown[0]["valid"] is False
    assert shown[0]["problem"] == error.format()


def test_import_text_summary_and_standard_input(db_url: str) -> None:
    assert ok("import", "--db", db_url, *SAMPLE_FILES).splitlines() == [
        "15 games read from 11 files: 15 added, 0 duplicates, 0 truncated copies, "
        "0 conflicts, 0 continuations, 0 invalid"
    ]
    again = ok("import", "--db", db_url, SAMPLE_FILES[0], TOURNAMENT).splitlines()
    assert again == [
        f"{SAMPLE_FILES[0]}: imported before (same SHA-256): not read again",
        f"{TOURNAMENT}: imported before (same SHA-256): not read again",
        "6 games read from 2 files: 0 added, 0 duplicates, 0 truncated copies, 0 conflicts, "
        "0 continuations, 0 invalid, 6 imported before",
    ]
    text = Path(TOURNAMENT).read_text(encoding="utf-8")
    result = invoke("import", "--db", db_url, "-q", "-", stdin=text)
    assert result.exit_code == 0
    assert result.stdout == (
        "5 games read from 1 file: 0 added, 5 duplicates, 0 truncated copies, 0 conflicts, "
        "0 continuations, 0 invalid\n"
    )
    with Archive.open(db_url) as archive:
        assert archive.sources_of(11) == [(TOURNAMENT, 1, 1), ("<stdin>", 1, 1)]


# -- search, show, stats -----------------------------------------------------------------


def test_search_formats(db_url: str, tmp_path: Path) -> None:
    imported(db_url, *SAMPLE_FILES)
    found = json.loads(
        ok("search", "--db", db_url, "--player", "ada lovelace", "--format", "json")
    )
    assert [g["id"] for g in found] == [11, 14, 15]
    assert all(isinstance(g["tags"], dict) for g in found)
    assert found[0]["tags"]["White"] == "Lovelace, Ada"
    assert found[0]["players"] == [
        {"seat": "White", "name": "Lovelace, Ada"},
        {"seat": "Black", "name": "Kilburn, Tom"},
    ]
    assert found[0]["options"]["Jumps"] == "line"
    assert (found[0]["game"], found[0]["result"], found[0]["plies"]) == ("mosona", "0-1", 18)
    assert ok("search", "--db", db_url, "--white", "Ada Lovelace", "--format", "ids") == "11\n15\n"
    assert ok("search", "--db", db_url, "--black", "LOVELACE, ADA", "--format", "ids") == "14\n"
    games = list(read_records(TOURNAMENT))
    assert games[0].game is not None and games[4].game is not None
    zrec = ok("search", "--db", db_url, "--termination", "forfeit", "--format", "zrec")
    assert zrec == write_game(games[4].game)
    both = ok("search", "--db", db_url, "--event", "Zuni Club Championship 2026", "--round", "1")
    lines = both.splitlines()
    assert lines[0].split() == [
        "id",
        "game",
        "date",
        "event",
        "round",
        "result",
        "plies",
        "players",
    ]
    assert [line.split()[0] for line in lines[1:]] == ["11", "12"]
    assert lines[1].endswith("18  Lovelace, Ada - Kilburn, Tom")
    assert ok("search", "--db", db_url, "--moves", "1. b6-b5", "--format", "ids") == "3\n7\n"
    after = ok(
        "search", "--db", db_url, "--position-after", f"{TOURNAMENT}:2:4", "--format", "ids"
    )
    assert after == "12\n"
    assert ok(
        "search", "--db", db_url, "--game", "kolowis", "--limit", "2", "--format", "ids"
    ) == ("4\n5\n")
    assert ok("search", "--db", db_url, "--player", "nobody", "--format", "json") == "[\n]\n"
    output = tmp_path / "found.txt"
    assert ok("search", "--db", db_url, "--id", "3", "--format", "ids", "-o", str(output)) == ""
    assert output.read_text() == "3\n"


def test_show_and_stats(db_url: str) -> None:
    imported(db_url, *SAMPLE_FILES)
    result = invoke("show", "--db", db_url, "11")
    games = list(read_records(TOURNAMENT))
    assert games[0].game is not None
    assert result.exit_code == 0
    assert result.stdout == write_game(games[0].game) + "\n"
    assert result.stderr == (
        "#11 mosona Board=lined;Jumps=line;Middle=right;EndRule=majority;First=White "
        f"from {TOURNAMENT} game 1 line 1\n"
    )
    shown = json.loads(ok("show", "--db", db_url, "--format", "json", "11", "3"))
    assert [g["id"] for g in shown] == [11, 3]
    assert shown[0]["sources"] == [{"file": TOURNAMENT, "game": 1, "line": 1}]
    refused(invoke("show", "--db", db_url, "99"), "there is no game #99 in ")
    stats = json.loads(ok("stats", "--db", db_url, "--format", "json"))
    assert (stats["games"], stats["valid"], stats["events"], stats["sources"]) == (15, 15, 6, 11)
    assert stats["players"] == 7
    assert stats["by_game"] == [
        {"value": "mosona", "games": 7},
        {"value": "kolowis", "games": 3},
        {"value": "stone-warriors", "games": 3},
        {"value": "awethi", "games": 2},
    ]
    with Archive.open(db_url) as archive:
        assert stats["positions"] == posindex.POSITIONS.entry_count(archive.db)
        stored = list(archive.games(list(archive.all_ids())))
        # each game's distinct positions
        assert stats["positions"] == sum(len(set(keys_of_text(g.text) or ())) for g in stored)
    table = ok("stats", "--db", db_url)
    assert table.startswith(
        f"15 games (15 valid), 7 players, 6 events, 11 files, {stats['positions']}"
    )


# -- export and import again --------------------------------------------------------------


@pytest.mark.parametrize("kind", ["zrec", "json", "jsonl"])
def test_export_and_import_again(db_url: str, tmp_path: Path, kind: str) -> None:
    games = [
        *random_games(find_game("mosona"), {}, 40, 6),
        *random_games(find_game("kolowis"), {"Pieces": "23"}, 5, 6),
        *random_games(find_game("stone-warriors"), {"Ruleset": "culin"}, 3, 6),
    ]
    randoms = tmp_path / "random.zrec"
    randoms.write_text("\n".join(write_game(g) for g in games), encoding="utf-8")
    imported(db_url, *SAMPLE_FILES, str(randoms))
    out = tmp_path / f"all.{kind}"
    assert ok("export", "--db", db_url, "--format", kind, "-o", str(out)) == ""
    copy = str(tmp_path / "copy.sqlite")
    document = imported(copy, str(out))
    assert (document["read"], document["added"]) == (15 + len(games), 15 + len(games))
    assert texts(copy) == texts(db_url)
    # an export with a filter holds only what it finds
    some = tmp_path / f"kolowis.{kind}"
    ok("export", "--db", db_url, "--game", "kolowis", "--format", kind, "-o", str(some))
    other = str(tmp_path / "kolowis.sqlite")
    assert imported(other, str(some))["added"] == 3 + 5
    assert {t for t, _ in texts(other)} == {t for t, _ in texts(db_url) if '"kolowis"' in t}


# -- check and remove ----------------------------------------------------------------------


def _entries_of(archive: Archive, gid: int) -> int:
    """How many entries of the position index are game ``gid``'s."""
    rows = posindex.POSITIONS.part_rows(archive.db, gid >> posindex.PART_BITS)
    place = gid & ((1 << posindex.PART_BITS) - 1)
    return sum(v & 0xFFF == place for _, low in rows.values() for v in low)


def test_check_finds_a_missing_index_row_and_remove_cleans_up(db_url: str) -> None:
    imported(db_url, *SAMPLE_FILES)
    assert ok("check", "--db", db_url) == "15 games checked: all agree with the indexes\n"
    layout = posindex.POSITIONS
    with Archive.open(db_url) as archive:
        total = layout.entry_count(archive.db)
        keys = keys_of_text(archive.game(7).text)
        assert keys is not None
        distinct = len(set(keys))
        assert _entries_of(archive, 7) == distinct
        # the entry of game 7's ply 3 lost: its row written again without it
        bucket, entry = layout.split(keys[3])
        high, low = layout.part_rows(archive.db, 0)[bucket]
        values = [h << 16 | lo for h, lo in zip(high, low, strict=True)]
        kept = [v for v in values if v != entry | 7]
        assert len(kept) == len(values) - 1
        blob = array("I", [v >> 16 for v in kept]).tobytes()
        blob += array("H", [v & 0xFFFF for v in kept]).tobytes()
        archive.db.execute("UPDATE positions SET entries = ? WHERE id = ?", (blob, bucket))
        assert _entries_of(archive, 7) == distinct - 1
        found = check(archive)
        assert found.problems == [
            f"#7: {distinct - 1} of its {distinct} position index rows are stored",
            f"the positions index holds {total - 1} entries; the stored games account for {total}",
        ]
        # replayed in two processes: the same problems, in the same order
        assert check(archive, jobs=2).problems == found.problems
    cli = invoke("check", "--db", db_url)
    assert cli.exit_code == 1
    assert cli.stdout.splitlines() == [*found.problems, "15 games checked: 2 problems"]
    assert invoke("check", "--db", db_url, "--jobs", "2").stdout == cli.stdout
    with Archive.open(db_url) as archive:
        openings = posindex.OPENINGS.entry_count(archive.db)
        paths = min(archive.game(7).plies, 20)
        other = keys_of_text(archive.game(14).text)
        assert other is not None
        assert remove(archive, [7, 99]) == [7]
        assert layout.entry_count(archive.db) == total - distinct
        assert posindex.OPENINGS.entry_count(archive.db) == openings - paths
        assert _entries_of(archive, 7) == 0
        for table in ("games", "game_tags", "game_players", "game_sources"):
            column = "id" if table == "games" else "game"
            assert archive.db.value(f"SELECT count(*) FROM {table} WHERE {column} = 7") == 0
        for table in ("openings_long", "material"):
            assert archive.db.value(f"SELECT count(*) FROM {table} WHERE game = 7") == 0
        assert check(archive).ok
    # the command: one game removed, an unknown one reported
    result = invoke("remove", "--db", db_url, "14", "99")
    assert result.exit_code == 1
    assert result.stdout == "removed #14\n"
    assert result.stderr == "zrec: there is no game #99\n"
    with Archive.open(db_url) as archive:
        assert archive.count() == 13
        assert layout.entry_count(archive.db) == total - distinct - len(set(other))
    assert ok("check", "--db", db_url) == "13 games checked: all agree with the indexes\n"
    # a game removed can be imported again
    document = imported(db_url, "--reread", TOURNAMENT)
    assert (document["added"], document["duplicates"]) == (1, 4)


# -- which archive, and the ones refused ---------------------------------------------------


def test_the_archive_named_by_zrec_db_or_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ZREC_DB", raising=False)
    named = tmp_path / "named.sqlite"
    ok("import", "-q", TOURNAMENT, env={"ZREC_DB": str(named)})
    assert named.exists() and not (tmp_path / "zrec.sqlite").exists()
    assert ok("search", "--format", "ids", env={"ZREC_DB": str(named)}) == "1\n2\n3\n4\n5\n"
    refused(invoke("search"), "there is no archive at zrec.sqlite")
    ok("import", "-q", SAMPLE_FILES[2])
    assert (tmp_path / "zrec.sqlite").exists()
    assert ok("search", "--format", "ids") == "1\n"
    # --db wins over ZREC_DB
    assert ok("search", "--db", "zrec.sqlite", "--format", "ids", env={"ZREC_DB": str(named)}) == (
        "1\n"
    )


def test_archives_that_are_refused(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.sqlite")
    for command in ("search", "export", "show", "stats", "check", "remove"):
        args = [command, "--db", missing, *(["1"] if command in ("show", "remove") else [])]
        refused(invoke(*args), f"there is no archive at {missing} (zrec archive import makes one")
    assert not Path(missing).exists()
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is not a database, only some bytes\x00\x01" * 100)
    refused(invoke("search", "--db", str(garbage)), f"{garbage} is not a zrec archive")
    refused(invoke("import", "--db", str(garbage), TOURNAMENT), f"{garbage} is not a zrec archive")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    message = f"{other} is not a zrec archive (it has other tables)"
    refused(invoke("search", "--db", str(other)), message)
    refused(invoke("import", "--db", str(other), TOURNAMENT), message)
    with sqlite3.connect(other) as conn:
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == [("notes",)]
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    refused(invoke("search", "--db", str(empty)), f"there is no archive at {empty}")
    refused(invoke("search", "--db", str(tmp_path)), f"{tmp_path} is a folder, not an archive")
    refused(
        invoke("import", "--db", str(tmp_path / "no" / "a.sqlite"), TOURNAMENT),
        f"cannot make the archive {tmp_path / 'no' / 'a.sqlite'}: there is no folder",
    )


def test_postgresql_databases_that_are_refused(pg_url: str) -> None:
    # an empty PostgreSQL database is not an archive either, until an import makes it one
    refused(invoke("search", "--db", pg_url), f"there is no archive at {pg_url}")
    refused(invoke("stats", "--db", pg_url), f"there is no archive at {pg_url}")
    ok("import", "--db", pg_url, "-q", TOURNAMENT)
    assert ok("search", "--db", pg_url, "--format", "ids") == "1\n2\n3\n4\n5\n"
    gone = pg_url.rsplit("/", 1)[0] + "/zrec_no_such_database"
    refused(invoke("search", "--db", gone), f"cannot connect to {gone}")
    # a password in the URL is not shown
    head, rest = gone.split("://", 1)
    user, host = rest.split("@", 1)
    secret = f"{head}://{user.split(':')[0]}:s3cret@{host}"
    result = invoke("search", "--db", secret)
    refused(result, f"cannot connect to {gone}")
    assert "s3cret" not in result.stderr


def test_searches_that_cannot_run(db_url: str, tmp_path: Path) -> None:
    imported(db_url, *SAMPLE_FILES)
    refused(
        invoke("search", "--db", db_url, "--moves", "1. zz"),
        "--moves '1. zz': --moves:1:4: found 'zz', which is not a move",
    )
    refused(
        invoke("search", "--db", db_url, "--moves", "1. a1-a2", "--game", "mosona"),
        "--moves '1. a1-a2' is not an opening of any game searched: mosona (Board=lined;",
    )
    refused(invoke("search", "--db", db_url, "--date-from", "2024.13"), "'2024.13' is not a date")
    refused(invoke("search", "--db", db_url, "--material", "a:b"), "--material 'a:b'")
    refused(
        invoke("search", "--db", db_url, "--game", "go"), '[Game "go"] names no game zrec knows'
    )
    refused(
        invoke("search", "--db", db_url, "-O", "Jumps"),
        "an override is written Tag=value (e.g. Jumps=bent), not 'Jumps'",
    )
    refused(invoke("search", "--db", db_url, "--format", "xml"), "--format is one of text, json")
    refused(invoke("export", "--db", db_url, "--format", "ids"), "--format is one of zrec, json")
    refused(
        invoke("search", "--db", db_url, "--position-after", f"{TOURNAMENT}:9:3"),
        f"{TOURNAMENT}: there is no game 9 in the file (it has 5)",
    )
    refused(
        invoke("search", "--db", db_url, "--position-after", f"{TOURNAMENT}:1:99"),
        "the record has 18 plies: there is no ply 99",
    )
    refused(
        invoke("search", "--db", db_url, "--position-after", str(tmp_path / "none.zrec:3")),
        f"cannot read {tmp_path / 'none.zrec'}",
    )
    refused(invoke("import", "--db", db_url, "--format", "yaml", TOURNAMENT), "--format is text")


def test_every_archive_command_has_help() -> None:
    for command in COMMANDS:
        result = invoke(command, "--help")
        assert result.exit_code == 0, command
        assert f"Usage: zrec archive {command}" in result.stdout
        assert "--db" in result.stdout
    result = invoke("--help")
    assert result.exit_code == 0
    assert all(command in result.stdout for command in COMMANDS)
