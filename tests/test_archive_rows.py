"""The games' rows (archive schema 4): texts packed with a dictionary the archive keeps,
tags read back from the text, material one row a game, and the migration from schema 3
that converts an older archive's rows."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from old_rows import rows_back_to_v3
from zrec.archive import Archive
from zrec.archive.store import DamagedArchiveError, packing
from zrec.archive.store.ingest import Importer
from zrec.archive.store.search import Query, search
from zrec.archive.store.upkeep import check
from zrec.cli import app
from zrec.notation.model import Game
from zrec.notation.reader import read_game, read_string
from zrec.notation.writer import write_game
from zrec.play.selfplay import random_games
from zrec.rules import find_game

runner = CliRunner()


def _games(count: int, seed: int) -> list[Game]:
    rules = find_game("mosona")
    out = []
    for i, game in enumerate(random_games(rules, {}, count, seed)):
        tags = dict(game.tags)
        tags.update({"Event": f"Open {i % 3}", "Round": str(i % 5 + 1)})
        tags.update({"White": f"P{i % 7}", "Black": f"Q{i % 11}"})
        if i == 3:
            tags["Annotator"] = 'A "quoted" \\ name'
        out.append(read_game(write_game(Game(tuple(tags.items()), game.line, game.result))))
    return out


def _import(archive: Archive, games: list[Game]) -> None:
    text = "\n".join(write_game(g) for g in games)
    Importer(archive).import_records(read_string(text, "g.zrec"), "g.zrec")


def test_tags_of_text_gives_back_the_tags_written() -> None:
    for game in _games(8, 4):
        assert packing.tags_of_text(write_game(game)) == game.tags
    assert packing.tags_of_text('[A "x\\"]"]\n[B "\\\\"]\n\n1. a1-a2 *\n') == (
        ("A", 'x"]'),
        ("B", "\\"),
    )
    assert packing.tags_of_text("1. a1-a2 *\n") == ()


def test_a_small_import_stores_texts_as_they_are(tmp_path: Path) -> None:
    games = _games(5, 1)
    with Archive.open(str(tmp_path / "a.sqlite"), create=True) as archive:
        _import(archive, games)
        assert archive.db.value("SELECT count(*) FROM dictionaries") == 0
        stored = [bytes(t) for (t,) in archive.db.rows("SELECT text FROM games ORDER BY id")]
        assert stored == [b"\x00" + write_game(g).encode() for g in games]
        assert archive.db.value("SELECT count(*) FROM game_tags") == 0
        assert [g.tags for g in archive.games([1, 2, 3, 4, 5])] == [g.tags for g in games]
        # a text changed by hand with SQL's text functions is read as changed
        with archive.db.transaction():
            archive.db.execute("UPDATE games SET text = replace(text, 'Open 0', 'Open X')")
        assert archive.game(1).tag("Event") == "Open X"
        assert archive.game(1).text == write_game(games[0]).replace("Open 0", "Open X")


def test_a_large_import_packs_texts_with_a_dictionary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(packing, "TRAIN", 20)
    games = _games(40, 2)
    db = str(tmp_path / "a.sqlite")
    with Archive.open(db, create=True) as archive:
        _import(archive, games)
        ((did, name, data),) = archive.db.rows("SELECT id, game, data FROM dictionaries")
        assert (did, name) == (1, "mosona") and 0 < len(data) <= packing.SIZE
        stored = [bytes(t) for (t,) in archive.db.rows("SELECT text FROM games ORDER BY id")]
        texts = [write_game(g) for g in games]
        assert all(s[0] == 1 for s in stored)
        assert sum(map(len, stored)) < sum(len(t) for t in texts) / 2
        unpacker = zlib.decompressobj(-15, zdict=bytes(data))
        assert unpacker.decompress(stored[0][1:]).decode() == texts[0]
        assert [g.text for g in archive.games(range(1, 41))] == texts
        assert [g.tags for g in archive.games(range(1, 41))] == [g.tags for g in games]
        assert archive.db.value("SELECT count(*) FROM game_tags") == 0
        assert check(archive).ok
    # the commands read the texts back byte for byte
    exported = runner.invoke(app, ["archive", "export", "--db", db])
    assert exported.exit_code == 0 and exported.stdout == "\n".join(texts)
    shown = runner.invoke(app, ["archive", "show", "--db", db, "4"])
    assert shown.exit_code == 0 and shown.stdout == texts[3] + "\n"


def test_a_text_that_cannot_be_unpacked_is_damage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(packing, "TRAIN", 20)
    with Archive.open(str(tmp_path / "a.sqlite"), create=True) as archive:
        _import(archive, _games(30, 3))
        stored = bytes(archive.db.value("SELECT text FROM games WHERE id = 2"))
        with archive.db.transaction():
            archive.db.execute("UPDATE games SET text = ? WHERE id = 2", (stored[:-5],))
            archive.db.execute("UPDATE games SET text = ? WHERE id = 3", (b"\x09" + stored[1:],))
        for gid, reason in ((2, "cannot be unpacked"), (3, "names dictionary 9")):
            with pytest.raises(DamagedArchiveError, match=reason):
                archive.game(gid)
        result = check(archive)
        assert not result.ok and result.unreadable == [2, 3]


def test_material_is_one_row_a_game_and_found_by_each_count(tmp_path: Path) -> None:
    with Archive.open(str(tmp_path / "a.sqlite"), create=True) as archive:
        _import(archive, _games(12, 5))
        rows = {int(g): str(c) for g, c in archive.db.rows("SELECT game, counts FROM material")}
        assert sorted(rows) == list(range(1, 13))
        assert all(c.startswith(" 12:12 ") and c.endswith(" ") for c in rows.values())
        for counts in sorted({c for held in rows.values() for c in held.split()}):
            found = list(search(archive, Query(material=counts)))
            assert found == sorted(g for g, held in rows.items() if f" {counts} " in held)
        # a count is matched whole: 2:1 is not found inside 12:1
        assert list(search(archive, Query(material="2:12"))) == sorted(
            g for g, held in rows.items() if " 2:12 " in held
        )


@pytest.mark.parametrize("train", [20, 1000])
def test_an_archive_of_schema_3_has_its_rows_converted_when_opened(
    db_url: str, train: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(packing, "TRAIN", train)
    games = _games(30, 6)
    queries = [Query(material="10:10"), Query(players=["P3"]), Query(moves="1. b6-b5")]
    with Archive.open(db_url, create=True) as archive:
        _import(archive, games)
        before = [list(search(archive, q)) for q in queries]
        shown = [(g.text, g.tags, g.players) for g in archive.games(range(1, 31))]
        material = sorted(archive.db.rows("SELECT game, counts FROM material"))
        rows_back_to_v3(archive)
        assert archive.db.value("SELECT count(*) FROM game_tags") == sum(
            len(g.tags) for g in games
        )
        with archive.db.transaction():
            archive.db.execute("UPDATE game_tags SET value = 'Other' WHERE game = 5 AND idx = 1")
    with Archive.open(db_url, read_only=True) as archive:  # migrated, then read
        assert archive.db.value("SELECT value FROM meta WHERE name = 'schema'") == "5"
        assert archive.db.value("SELECT count(*) FROM dictionaries") == (train == 20)
        assert sorted(archive.db.rows("SELECT game, counts FROM material")) == material
        assert [list(search(archive, q)) for q in queries] == before
        after = [(g.text, g.tags, g.players) for g in archive.games(range(1, 31))]
        assert after[:4] + after[5:] == shown[:4] + shown[5:]
        # the tags that differ from the text's are kept, and only those
        assert after[4][1][1] == (shown[4][1][1][0], "Other")
        assert archive.db.value("SELECT count(DISTINCT game) FROM game_tags") == 1
        assert check(archive).ok
