"""Edge cases of the archive found in review: a truncated copy under other rules, a game
whose stored text no longer replays, passwords in messages, an empty move prefix."""

from __future__ import annotations

from pathlib import Path

import pytest

from zrec.archive import Archive
from zrec.archive.store.db import _hide_password
from zrec.archive.store.ingest import Importer
from zrec.archive.store.outcome import sha256_of
from zrec.archive.store.search import Query, SearchError, search
from zrec.archive.store.upkeep import check, remove
from zrec.notation.model import Game, Line
from zrec.notation.reader import read_records
from zrec.notation.writer import write_game
from zrec.play.selfplay import random_games
from zrec.rules import find_game


def _import(archive: Archive, path: Path) -> dict[str, int]:
    result = Importer(archive).import_records(read_records(path), str(path), *sha256_of(str(path)))
    return result.counts.to_json()


def _cut(game: Game, plies: int, extra: dict[str, str]) -> Game:
    tags = [(k, v) for k, v in game.tags if k not in ("Result", "EndRule")]
    tags += [*extra.items(), ("Result", "*")]
    return Game(tuple(tags), Line(game.line.moves[:plies]), "*")


def _long_game() -> Game:
    for game in random_games(find_game("mosona"), {"White": "P1", "Black": "P2"}, 50, 8):
        if len(game.line.moves) >= 30:
            return game
    raise AssertionError("no long game")


def test_a_copy_under_other_rules_is_not_a_truncated_copy(db_url: str, tmp_path: Path) -> None:
    game = _long_game()
    long = tmp_path / "long.zrec"
    long.write_text(write_game(_cut(game, 25, {"EndRule": "draw"})))
    short = tmp_path / "short.zrec"
    short.write_text(write_game(_cut(game, 21, {})))
    same_rules = tmp_path / "same.zrec"
    same_rules.write_text(write_game(_cut(game, 21, {"EndRule": "draw"})))
    with Archive.open(db_url, create=True) as archive:
        assert _import(archive, long)["added"] == 1
        # other rules (EndRule majority, the default): another game, stored
        assert _import(archive, short)["added"] == 1
        # the same rules: a truncated copy
        counts = _import(archive, same_rules)
        assert (counts["added"], counts["truncated"]) == (0, 1)


def test_remove_finds_every_row_of_a_game_whose_text_changed(db_url: str, tmp_path: Path) -> None:
    path = tmp_path / "games.zrec"
    path.write_text("\n".join(write_game(g) for g in random_games(find_game("mosona"), {}, 5, 2)))
    with Archive.open(db_url, create=True) as archive:
        _import(archive, path)
        gid = archive.db.value("SELECT min(id) FROM games")
        text = archive.text_of(gid) or ""
        moves = str(text).split("\n\n", 1)[1].split()
        shorter = str(text).replace(" ".join(moves[-3:]), " ".join(moves[-3:-2] + moves[-1:]))
        assert shorter != text
        with archive.db.transaction():
            packed = archive.texts.pack("mosona", shorter)
            archive.db.execute("UPDATE games SET text = ? WHERE id = ?", (packed, gid))
        assert remove(archive, [int(gid)]) == [int(gid)]
        assert check(archive).ok


def test_messages_never_show_a_password() -> None:
    assert _hide_password("postgresql://ada:s3cret@host/db") == "postgresql://ada@host/db"
    shown = _hide_password("postgresql://ada@host/db?sslmode=off&password=s3cret")
    assert "s3cret" not in shown and shown.startswith("postgresql://ada@host/db?")


def test_a_move_prefix_without_moves_is_refused(db_url: str, tmp_path: Path) -> None:
    path = tmp_path / "one.zrec"
    path.write_text(write_game(next(iter(random_games(find_game("mosona"), {}, 1, 1)))))
    with Archive.open(db_url, create=True) as archive:
        _import(archive, path)
        with pytest.raises(SearchError, match="holds no move"):
            list(search(archive, Query(moves="")))
