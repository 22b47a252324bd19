"""``zrec archive tree`` and :func:`zrec.archive.store.tree.tree` against a brute-force
count: every stored game replayed, its next move after the moves asked for (or at the
position asked for) counted with its result.  At the start, after 1, 2, 3, 19 and 20
moves (the last the opening lines hold, and the first they do not), at a --position,
beyond ply 20, under -O options and for another game; a migration from schema 4,
removal, archive check, and the command's errors.

Every test runs on SQLite and on PostgreSQL (``db_url``)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from zrec.archive import Archive
from zrec.archive.store import split_options
from zrec.archive.store.facts import facts_of, hash64
from zrec.archive.store.ingest import Importer
from zrec.archive.store.lines import LINE_MOVES, WIDTH, entry_of
from zrec.archive.store.query import SearchError
from zrec.archive.store.schema import VERSION
from zrec.archive.store.tree import tree
from zrec.archive.store.upkeep import check, remove
from zrec.cli import app
from zrec.notation.model import Game
from zrec.notation.reader import read_string
from zrec.notation.writer import write_game
from zrec.play import prepare, walk
from zrec.play.selfplay import random_games
from zrec.play.walk import Visitor
from zrec.rules import find_game
from zrec.rules.values import parse_result

Counts = dict[str, tuple[int, dict[str, Fraction]]]


class _Moves(Visitor):
    every_step = False
    batches = True

    def __init__(self) -> None:
        self.played: list[Any] = []

    def main_moves(self, moves: list[Any]) -> None:
        self.played += moves


def _replayed(game: Game) -> tuple[Any, list[Any]]:
    replay = prepare(game, game.tag_map())
    moves = _Moves()
    walk(replay, game.line, moves, variations=False)
    return replay.engine, moves.played


def _spelled(game: Game) -> list[str]:
    engine, played = _replayed(game)
    return [engine.spell(before, move).text() for _, before, move, _, _ in played]


def _games(archive: Archive) -> list[tuple[Any, Game]]:
    out = []
    for stored in archive.games(list(archive.all_ids())):
        if stored.valid:
            game = next(iter(read_string(stored.text, "x"))).game
            assert game is not None
            out.append((stored, game))
    return out


def brute(
    archive: Archive,
    game: str | None = None,
    options: dict[str, str] | None = None,
    moves: list[str] | None = None,
    position: str | None = None,
) -> Counts:
    """Every stored valid game replayed: the moves played next, games and points."""
    found: dict[str, list[Any]] = {}
    for stored, record in _games(archive):
        if game is not None and stored.game != game:
            continue
        held = {k.lower(): v.lower() for k, v in split_options(stored.options).items()}
        if any(held.get(k.lower()) != v.lower() for k, v in (options or {}).items()):
            continue
        engine, played = _replayed(record)
        spelled = [engine.spell(b, m).text() for _, b, m, _, _ in played]
        if position is not None:
            nexts = {
                spelled[i] for i, (_, b, _, _, _) in enumerate(played)
                if engine.setup_text(b) == position
            }
        else:
            asked = moves or []
            if spelled[: len(asked)] != asked or len(spelled) <= len(asked):
                continue
            nexts = {spelled[len(asked)]}
        scores = parse_result(stored.result, len(engine.seats))
        for move in nexts:
            entry = found.setdefault(move, [0, {}])
            entry[0] += 1
            for i, seat in enumerate(engine.seats):
                gained = scores[i] if scores is not None else Fraction(0)
                entry[1][seat] = entry[1].get(seat, Fraction(0)) + gained
    return {m: (n, p) for m, (n, p) in found.items()}


def as_counts(branches: list[Any]) -> Counts:
    return {b.move: (b.games, {s: Fraction(v) for s, v in b.score.items()}) for b in branches}


def _text(name: str, tags: dict[str, str], count: int, seed: int) -> str:
    games = random_games(find_game(name), {"Event": "Open", **tags}, count, seed)
    return "\n".join(write_game(g) for g in games)


def _copies(text: str, cuts: list[int]) -> str:
    """The first game of ``text`` cut after these plies, with other players and
    results (stored beside it: not the same players)."""
    game = next(iter(read_string(text, "x"))).game
    assert game is not None
    out = []
    for i, cut in enumerate(cuts):
        tags = [(k, f"Copy {i}" if k in ("White", "Black") else v) for k, v in game.tags]
        result = ("1-0", "1/2-1/2", "*", "0-1")[i % 4]
        tags = [(k, result if k == "Result" else v) for k, v in tags]
        if result != "*":  # (a result the position does not give: an adjudication)
            tags.append(("Termination", "adjudication"))
        line = type(game.line)(tuple(game.line.moves[:cut]))
        out.append(write_game(Game(tuple(tags), line, result)))
    return "\n".join(out)


@pytest.fixture
def archive_url(db_url: str) -> str:
    plain = _text("mosona", {}, 120, 1)
    texts = {
        "plain.zrec": plain,
        "copies.zrec": _copies(plain, [21, 22, 22, 25, 30]),
        "bent.zrec": _text("mosona", {"Jumps": "bent"}, 40, 2),
        "kolowis.zrec": _text("kolowis", {}, 40, 3),
        "warriors.zrec": _text("stone-warriors", {}, 15, 4),
    }
    with Archive.open(db_url, create=True) as archive:
        importer = Importer(archive)
        for name, text in texts.items():
            importer.import_records(read_string(text, name), name)
    return db_url


def _first(archive: Archive, name: str, plies: int) -> list[str]:
    """The first moves of the first stored game of ``name`` (spelled)."""
    for stored, record in _games(archive):
        if stored.game == name and stored.plies > plies + 1:
            return _spelled(record)[:plies]
    raise AssertionError(name)


def _stored(archive: Archive, option: str) -> int:
    """The valid Mosona games with moves stored under this option."""
    return int(
        archive.db.value(
            "SELECT count(*) FROM games g JOIN rule_options o ON o.id = g.options_id "
            "WHERE g.game = 'mosona' AND g.valid = 1 AND g.plies > 0 AND o.options LIKE ?",
            (f"%{option}%",),
        )
    )


def _numbered(moves: list[str]) -> str:
    return " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))


def test_the_tree_agrees_with_every_game_replayed(archive_url: str) -> None:
    with Archive.open(archive_url) as archive:
        start = tree(archive, "mosona", {"Jumps": "line"})
        assert as_counts(start) == brute(archive, "mosona", {"Jumps": "line"})
        assert sum(b.games for b in start) == _stored(archive, "Jumps=line")
        assert [b.games for b in start] == sorted((b.games for b in start), reverse=True)
        for plies in (1, 2, 3, 19, 20, 21, 22, 24):
            moves = _first(archive, "mosona", plies)
            found = tree(archive, "mosona", {}, _numbered(moves))
            assert as_counts(found) == brute(archive, "mosona", {}, moves), plies
            assert found, plies
        # the first game and its copies cut after 21, 22, 22, 25 and 30 plies: five
        # games play on after 21 plies, three after 22
        for plies, games in ((21, [5]), (22, [3])):
            deep = tree(archive, "mosona", {}, _numbered(_first(archive, "mosona", plies)))
            assert [b.games for b in deep] == games
        # every game and option at once: the moves of the same text join
        assert as_counts(tree(archive)) == brute(archive)
        bent = tree(archive, None, {"Jumps": "bent"})
        assert as_counts(bent) == brute(archive, None, {"jumps": "BENT"})
        assert sum(b.games for b in bent) == _stored(archive, "Jumps=bent") > 30
        for name in ("kolowis", "stone-warriors"):
            assert as_counts(tree(archive, name)) == brute(archive, name)
            moves = _first(archive, name, 3)
            assert as_counts(tree(archive, name, {}, _numbered(moves))) == brute(
                archive, name, {}, moves
            )


def test_the_tree_at_a_position(archive_url: str) -> None:
    with Archive.open(archive_url) as archive:
        _, record = next((s, g) for s, g in _games(archive) if s.game == "mosona")
        engine, played = _replayed(record)
        for ply in (4, 9):
            setup = engine.setup_text(played[ply][3])
            found = tree(archive, "mosona", {}, None, setup)
            assert found and as_counts(found) == brute(archive, "mosona", {}, None, setup)
        start = engine.setup_text(played[0][1])
        everything = tree(archive, "mosona", {"Jumps": "line"}, None, start)
        assert sum(b.games for b in everything) == _stored(archive, "Jumps=line")


def test_the_command_prints_the_tree_as_json_and_as_a_table(archive_url: str) -> None:
    runner = CliRunner()
    result = runner.invoke(
        app, ["archive", "tree", "--db", archive_url, "--game", "mosona", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    with Archive.open(archive_url) as archive:
        expected = [b.to_json() for b in tree(archive, "mosona")]
    assert json.loads(result.stdout) == expected
    assert list(expected[0]) == ["move", "games", "score"]
    assert list(expected[0]["score"]) == ["White", "Black"]
    table = runner.invoke(app, ["archive", "tree", "--db", archive_url, "--game", "mosona"])
    lines = table.stdout.splitlines()
    assert lines[0].split() == ["move", "games", "share", "White", "Black"]
    assert lines[1].split()[:2] == [expected[0]["move"], str(expected[0]["games"])]
    total = sum(b["games"] for b in expected)
    assert lines[-1] == f"{len(expected)} moves, {total} games"


def test_errors_name_the_move_and_the_reason(archive_url: str) -> None:
    runner = CliRunner()

    def run(*args: str) -> tuple[int, str]:
        result = runner.invoke(app, ["archive", "tree", "--db", archive_url, *args])
        return result.exit_code, result.stderr

    code, err = run("--game", "mosona", "--moves", "1. b6-b5 b5-b4")
    assert code == 2
    assert err.startswith("zrec: --moves '1. b6-b5 b5-b4' is not an opening of any game ")
    assert "ply 2, move 1 (Black): b5-b4 is illegal" in err
    assert run("--game", "chess")[1].startswith('zrec: [Game "chess"] names no game')
    assert run("-O", "Jumps=zigzag")[0] == 2
    assert "'zigzag' is not a value of Jumps" in run("-O", "Jumps=zigzag")[1]
    assert run("--position", "x", "--game", "mosona")[1].startswith(
        "zrec: --position 'x' is not a position: "
    )
    assert run("--moves", "1. b6-b5", "--position", "x") == (
        2, "zrec: give --moves or --position, not both\n"
    )
    assert run("--format", "xml")[1] == "zrec: --format is text or json, not 'xml'\n"
    with Archive.open(archive_url) as archive, pytest.raises(SearchError):
        tree(archive, "mosona", {}, "1. b6-b5 b5-b4")


def test_removal_and_check_keep_the_lines(archive_url: str) -> None:
    with Archive.open(archive_url) as archive:
        before = as_counts(tree(archive, "mosona"))
        stored, record = next((s, g) for s, g in _games(archive) if s.game == "mosona")
        first = _spelled(record)[0]
        assert remove(archive, [stored.id]) == [stored.id]
        after = as_counts(tree(archive, "mosona"))
        assert after == brute(archive, "mosona")
        assert after[first][0] == before[first][0] - 1
        assert check(archive).ok
        # an entry lost is found by the check
        archive.db.execute("DELETE FROM tree_lines WHERE part = 0 AND start IN "
                           "(SELECT start FROM tree_lines LIMIT 1)")
        problems = check(archive).problems
        assert any("of its 1 opening line index rows are stored" in p for p in problems)


def test_moves_that_share_a_code_are_told_apart_by_replay(
    archive_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where legal moves of a position share their code (the last byte of a hash), the
    games are replayed: here every code is made to look shared."""
    from zrec.archive.store import tree as tree_module

    shared = tree_module._by_code

    def every_code_shared(engine: Any, pos: Any) -> dict[int, list[Any]]:
        found = shared(engine, pos)
        every = [move for moves in found.values() for move in moves]
        return {code: every for code in found}

    with Archive.open(archive_url) as archive:
        cases = [[], _first(archive, "mosona", 2)]
        monkeypatch.setattr(tree_module, "_by_code", every_code_shared)
        for moves in cases:
            found = tree(archive, "mosona", {"Jumps": "line"}, _numbered(moves) or None)
            assert found
            assert as_counts(found) == brute(archive, "mosona", {"Jumps": "line"}, moves)


def test_an_archive_of_schema_4_gets_its_lines_when_opened(archive_url: str) -> None:
    with Archive.open(archive_url) as archive:
        before = [tree(archive, "mosona"), tree(archive, "kolowis")]
        rows = sorted(
            (int(s), int(p), bytes(e))
            for s, p, e in archive.db.rows("SELECT start, part, entries FROM tree_lines")
        )
        with archive.db.transaction():
            archive.db.execute("DROP TABLE tree_lines")
            archive.db.execute("UPDATE meta SET value = '4' WHERE name = 'schema'")
    with Archive.open(archive_url, read_only=True) as archive:  # migrated, then read
        assert archive.db.value("SELECT value FROM meta WHERE name = 'schema'") == str(VERSION)
        again = sorted(
            (int(s), int(p), bytes(e))
            for s, p, e in archive.db.rows("SELECT start, part, entries FROM tree_lines")
        )
        assert again == rows
        assert [tree(archive, "mosona"), tree(archive, "kolowis")] == before
        assert check(archive).ok


@settings(max_examples=25, deadline=None)
@given(
    name=st.sampled_from(["mosona", "kolowis", "stone-warriors"]),
    seed=st.integers(0, 10_000),
)
def test_the_codes_of_a_game_are_its_moves(name: str, seed: int) -> None:
    """A game's codes are the last bytes of the hashes of the positions its first moves
    make, and each move is among its position's legal moves with its code (the
    property the tree counts by); its entry holds them, their number and the result."""
    game = next(random_games(find_game(name), {}, 1, seed))
    record = next(iter(read_string(write_game(game), "x")))
    fact = facts_of(record, "x")
    assert fact.codes is not None and fact.lined == (fact.plies > 0)
    engine, played = _replayed(game)
    assert len(fact.codes) == min(len(played), LINE_MOVES)
    for code, (_, before, move, after, _) in zip(fact.codes, played, strict=False):
        assert code == hash64(engine.key(after)) & 0xFF
        same = [
            m for m in engine.legal_moves(before)
            if hash64(engine.key(engine.apply(before, m)[0])) & 0xFF == code
        ]
        assert move in same
    entry = entry_of(5000, fact.codes, game.result)
    assert len(entry) == WIDTH and entry[:2] == (5000 % 4096).to_bytes(2, "little")
    assert entry[2 : 2 + LINE_MOVES] == fact.codes.ljust(LINE_MOVES, b"\0")
    assert entry[-1] >> 3 == len(fact.codes)
