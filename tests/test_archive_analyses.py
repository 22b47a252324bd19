"""``zrec archive analyse``: stored games judged as ``zrec analyse`` judges their records
and kept by game, player and budget (schema 12); ``archive search --mark``; a player's
accuracy on ``zrec serve``; the chart of a stored analysis on the game page.  On SQLite
and on PostgreSQL (``db_url``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from test_analysis import planted
from zrec.archive import Archive
from zrec.archive.analyses import accuracy_of, analyses_of
from zrec.archive.store.schema import VERSION
from zrec.cli import app
from zrec.notation.writer import write_game
from zrec.serve import create_app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
CLUB = ROOT / "samples" / "club" / "round1.zrec"  # two games of Mosona (ids 1, 2)
SOLO = ROOT / "samples" / "awethi-solo.zrec"  # the dice game (id 3)


def ok(*args: str) -> str:
    result = runner.invoke(app, ["archive", *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def archive_db(db_url: str, tmp_path: Path) -> tuple[str, int]:
    """An archive of the club's first round, the solo dice game and the planted Mosona
    blunder (id 4, White's ply 9; White and Black named); the blunder's ply."""
    game, blunder = planted("mosona", {}, 1)
    text = write_game(game).replace('[White "?"]', '[White "Planter, Pat"]').replace(
        '[Black "?"]', '[Black "Keeper, Kim"]')
    (tmp_path / "planted.zrec").write_text(text, encoding="utf-8")
    ok("import", "--db", db_url, "-q", str(CLUB), str(SOLO), str(tmp_path / "planted.zrec"))
    return db_url, blunder


def test_games_are_analysed_once_kept_by_player_and_budget_and_found_by_mark(
    archive_db: tuple[str, int], tmp_path: Path
) -> None:
    db, blunder = archive_db
    assert ok("analyse", "--db", db, "-q", "--player", "mcts:8", "--id", "3"
              ) == "analysed 1 game (mcts:8 1)\n"
    assert ok("analyse", "--db", db, "-q", "--event", "planted blunder") == (
        "analysed 1 game (alphabeta:4 1)\n")
    result = runner.invoke(app, ["archive", "analyse", "--db", db, "-q", "--player",
                                 "alphabeta:4"])
    assert result.exit_code == 0
    assert result.output == (
        "zrec: left out #3: alphabeta plays games without dice only; Awéthi rolls dice\n"
        "analysed 2 games (alphabeta:4 2); 1 analysed before (--again analyses them "
        "again); 1 left out\n")
    assert ok("analyse", "--db", db, "-q", "--id", "4", "--again") == (
        "analysed 1 game (alphabeta:4 1)\n")
    with Archive.open(db) as archive:
        stored = analyses_of(archive, 4)
        assert [(a.player, a.budget, a.seed, a.plies) for a in stored] == [
            ("alphabeta", "4", 0, 15)]
        [dice] = analyses_of(archive, 3)
        assert (dice.player, dice.budget, dice.plies) == ("mcts", "8", 93)
        dice_blunders = sum(m == "??" for m in dice.marks())  # (mcts:8: noisy, not none)
        assert dice_blunders > 0
        marks = {(m["ply"], m["mark"]) for m in stored[0].body["moves"] if m["mark"]}
        assert marks == {(blunder, "??")}
        # the stored analysis is zrec analyse's of the record alone
        alone = runner.invoke(app, ["analyse", str(tmp_path / "planted.zrec"), "--format",
                                    "json"])
        [body] = json.loads(alone.output)
        assert {k: body[k] for k in ("player", "seed", "seats", "moves", "summary")} == \
            stored[0].body
        rows = archive.db.rows("SELECT count(*) FROM analyses")
        assert int(rows[0][0]) == 4
    # the club's games open with a move that gives a piece away (1. a5-b5 c6xa5): ??
    assert blunder == 9
    for more, found in (("--max-ply", "20"), ("--max-ply", "9"), ("--max-ply", "8"),
                        ("--game", "awethi")):
        ids = ok("search", "--db", db, "--mark", "??", more, found, "--format", "ids")
        assert ids.split() == {"20": ["1", "2", "4"], "9": ["1", "2", "4"], "8": ["1", "2"],
                                  "awethi": ["3"]}[found]
    # a game removed takes its analyses with it
    ok("remove", "--db", db, "4")
    with Archive.open(db) as archive:
        assert analyses_of(archive, 4) == []
        for table in ("analyses", "analysis_seats", "analysis_marks"):
            left = archive.db.value(f"SELECT count(*) FROM {table} WHERE game = 4")
            assert int(left) == 0, table


@pytest.mark.parametrize(("args", "message"), [
    (["--mark", "!!"], "zrec: --mark takes ?!, ? or ??, not '!!'\n"),
    (["--max-ply", "20"], "zrec: --max-ply goes with --mark: the ply of a marked move\n"),
])
def test_a_bad_mark_search_is_refused(
    archive_db: tuple[str, int], args: list[str], message: str
) -> None:
    result = runner.invoke(app, ["archive", "search", "--db", archive_db[0], *args])
    assert result.exit_code == 2
    assert result.output == message


def test_a_player_page_shows_the_accuracy_and_the_game_page_the_chart(
    archive_db: tuple[str, int],
) -> None:
    db, _ = archive_db
    ok("analyse", "--db", db, "-q", "--event", "planted blunder")
    with Archive.open(db) as archive:
        [white] = accuracy_of(archive, archive.player_ids("Planter, Pat"))
        [black] = accuracy_of(archive, archive.player_ids("Keeper, Kim"))
        seats = analyses_of(archive, 4)[0].body["summary"]
    assert (white.player, white.budget, white.games, white.moves) == ("alphabeta", "4", 1, 8)
    assert white.accuracy == pytest.approx(seats[0]["accuracy"], abs=0.05)
    assert white.marks == {"?!": 0, "?": 0, "??": 1}
    assert (black.moves, black.accuracy, black.marks["??"]) == (7, 100.0, 0)
    with TestClient(create_app(db)) as client:
        page = client.get("/players/Planter, Pat")
        assert page.status_code == 200
        assert ("<tr><td>alphabeta:4</td><td>1</td><td>8</td>"
                f"<td>{white.accuracy:.1f}%</td>") in page.text
        # no analysis: no table
        assert "Accuracy (computer analysis)" not in client.get("/players/Lovelace, Ada").text
        game = client.get("/games/4")
        assert game.status_code == 200
        assert '"chart":"\\u003csvg class=\\"zrec-eval-chart\\"' in game.text
        assert game.text.count('"m":"??"') == 1 and '"m":"?"' not in game.text
        assert '"chart"' not in client.get("/games/1").text  # (not analysed)


def test_an_archive_of_version_11_gets_the_tables_of_analysis(db_url: str) -> None:
    ok("import", "--db", db_url, "-q", str(CLUB))
    with Archive.open(db_url) as archive:  # back to version 11, by hand
        for table in ("analysis_marks", "analysis_seats", "analyses"):
            archive.db.execute(f"DROP TABLE {table}")
        archive.db.execute("UPDATE meta SET value = '11' WHERE name = 'schema'")
    assert VERSION == 14  # (13 and 14: live play, docs/live.md)
    assert ok("analyse", "--db", db_url, "-q") == "analysed 2 games (alphabeta:4 2)\n"
    with Archive.open(db_url) as archive:
        assert archive.db.value("SELECT value FROM meta WHERE name = 'schema'") == "14"
        assert int(archive.db.value("SELECT count(*) FROM analysis_seats")) == 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["analyse", "--seed", str(2**63), "samples/culin-opening.zrec"],
         "Invalid value for '--seed': Input should be less than or equal to"),
        (["analyse", "--seed", "-1", "samples/culin-opening.zrec"],
         "Invalid value for '--seed': Input should be greater than or equal to 0"),
        (["archive", "analyse", "--seed", str(2**63)],
         "Invalid value for '--seed': Input should be less than or equal to"),
        (["archive", "search", "--mark", "??", "--max-ply", str(10**20)],
         "Invalid value for '--max-ply': Input should be less than or equal to"),
    ],
)  # fmt: skip
def test_a_seed_or_ply_past_what_the_archive_stores_is_refused_in_words(
    args: list[str], message: str, tmp_path: Path
) -> None:
    """A seed past a BIGINT, or a ply past any game's, is a usage error (exit 2), not a
    traceback from the database after the work is done."""
    db = str(tmp_path / "a.sqlite")
    Archive.open(db, create=True).close()
    extra = ["--db", db] if args[0] == "archive" else []
    done = runner.invoke(app, [*args, *extra], env={"COLUMNS": "200"})
    assert done.exit_code == 2, done.output
    assert message in done.stderr, done.stderr
