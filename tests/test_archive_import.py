"""Importing into an archive: exact counts against a model of the rules written here,
files imported again (by SHA-256, or re-read), and each kind of report (duplicate,
truncated copy, continuation, conflict, invalid) with its ids and words.

Every test runs on SQLite and on PostgreSQL (the ``db_url`` fixture)."""

from __future__ import annotations

import dataclasses
import random
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from zrec.archive import Archive
from zrec.archive.store.ingest import Importer
from zrec.archive.store.outcome import FileResult, ImportCounts, Notice, sha256_of
from zrec.archive.store.upkeep import check, remove
from zrec.check.validate import validate_record
from zrec.notation.model import Comment, Game, Line
from zrec.notation.reader import Record, read_records, read_string
from zrec.notation.writer import write_game
from zrec.play import positions, prepare
from zrec.play.selfplay import play_random, random_games
from zrec.rules import find_game

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
SAMPLE_FILES = sorted(SAMPLES.glob("*.zrec"))
RANDOM_GAMES = 300


# -- helpers ---------------------------------------------------------------------------


def import_file(
    archive: Archive,
    path: Path,
    *,
    by_sha: bool = True,
    keep_invalid: bool = False,
    batch: int = 1000,
    notices: list[Notice] | None = None,
) -> FileResult:
    """Import one file as ``zrec archive import`` does (``by_sha=False``: as
    ``--reread`` does)."""
    sha, size = sha256_of(str(path)) if by_sha else (None, None)
    importer = Importer(
        archive,
        keep_invalid=keep_invalid,
        notify=notices.append if notices is not None else None,
        batch=batch,
    )
    return importer.import_records(read_records(path), str(path), sha, size)


def with_tags(game: Game, **changes: str | None) -> Game:
    """``game`` with some tags replaced (in place), added (at the end) or, for ``None``,
    left out."""
    tags = [(k, changes[k]) if k in changes else (k, v) for k, v in game.tags]
    tags += [(k, v) for k, v in changes.items() if k not in dict(game.tags)]
    kept = tuple((k, v) for k, v in tags if v is not None)
    result = changes.get("Result") or game.result
    return Game(kept, game.line, result)


def first_plies(game: Game, count: int) -> Game:
    """The record cut after ``count`` moves, unfinished."""
    cut = Game(game.tags, Line(game.line.moves[:count]), "*")
    return with_tags(cut, Result="*", Termination=None)


def extended(game: Game, moves: int, seed: int) -> Game:
    """The record with ``moves`` more random legal moves played after its last."""
    replay = prepare(game)
    steps = positions(replay, game.line)
    end = dataclasses.replace(replay, start=steps[-1].after if steps else replay.start)
    played = play_random(end, random.Random(seed), moves)
    assert len(played.nodes) == moves
    longer = Game(game.tags, Line((*game.line.moves, *played.nodes)), played.result)
    return with_tags(longer, Result=played.result, Termination=None)


def write_file(path: Path, games: Iterable[Game]) -> Path:
    path.write_text("\n".join(write_game(g) for g in games), encoding="utf-8")
    return path


def stored_texts(archive: Archive) -> list[str]:
    return sorted(archive.texts.unpack(r[0]) for r in archive.db.rows("SELECT text FROM games"))


# -- a model of the import's judgement, written from the documented rules ----------------

UNKNOWN = {"", "?", "-"}


def person(name: str) -> str:
    """Two spellings of one name agree here (case, accents, spaces, "Last, First")."""
    text = "".join(
        c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)
    ).lower()
    if text.count(",") == 1:
        last, first = text.split(",")
        text = f"{first} {last}"
    return " ".join(re.split(r"[\s.]+", text)).strip()


@dataclass(frozen=True)
class Played:
    """A record as the model sees it: where it starts, its moves (spelled canonically
    by the engine), and what the conflict rule compares."""

    start: tuple[object, ...]
    moves: tuple[str, ...]
    tags: tuple[tuple[str, str], ...]
    round_key: tuple[str, ...] | None
    text: str


def played(game: Game) -> Played:
    replay = prepare(game)
    steps = positions(replay, game.line)
    engine = replay.engine
    start = (replay.rules.name, tuple(replay.setting.options.items()), engine.key(replay.start))
    moves = tuple(engine.spell(s.before, s.move).text() for s in steps)
    tags = game.tag_map()
    event, round_ = tags.get("Event", "?"), tags.get("Round", "?")
    round_key = None
    if event.strip() not in UNKNOWN and round_.strip() not in UNKNOWN:
        seats = tuple(person(tags.get(seat, "?")) for seat in engine.seats)
        round_key = (event, round_, *seats)
    return Played(start, moves, game.tags, round_key, write_game(game))


@dataclass
class Model:
    """The games an archive holds after importing, judged as the import documents:
    a duplicate has the start and moves of a stored game (a game without moves: and its
    tags); a truncated copy's moves are the start of a longer stored game's; a stored
    game is a continuation of, or a conflict with, each stored game of its event,
    round and players with other moves."""

    stored: list[Played] = field(default_factory=list)

    def judge(self, games: Iterable[Game]) -> ImportCounts:
        counts = ImportCounts()
        for game in games:
            mine = played(game)
            counts.read += 1
            if any(self._same(mine, other) for other in self.stored):
                counts.duplicates += 1
                continue
            if mine.moves and any(
                other.start == mine.start
                and len(other.moves) > len(mine.moves)
                and other.moves[: len(mine.moves)] == mine.moves
                for other in self.stored
            ):
                counts.truncated += 1
                continue
            counts.added += 1
            if mine.round_key is not None:
                for other in self.stored:
                    if other.round_key != mine.round_key:
                        continue
                    n = len(other.moves)
                    if other.start == mine.start and mine.moves[:n] == other.moves:
                        counts.continued += 1
                    else:
                        counts.conflicts += 1
            self.stored.append(mine)
        return counts

    @staticmethod
    def _same(mine: Played, other: Played) -> bool:
        if mine.start != other.start or mine.moves != other.moves:
            return False
        return bool(mine.moves) or mine.tags == other.tags


def games_of(path: Path) -> list[Game]:
    games = []
    for record in read_records(path):
        assert record.game is not None
        games.append(record.game)
    return games


# -- 1. a large import ------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The samples, 300 random Mosona games, and a file of copies of those: the same
    games written differently, truncated copies, and other games of the same rounds."""
    folder = tmp_path_factory.mktemp("corpus")
    mosona = find_game("mosona")
    games = list(random_games(mosona, {}, RANDOM_GAMES, 2024))
    randoms = write_file(folder / "random.zrec", games)
    copies: list[Game] = []
    for i, game in enumerate(games[:15]):
        # the same moves, other tags, and a comment: the same game
        first = dataclasses.replace(game.line.moves[0], comments_after=(Comment(f"copy {i}"),))
        moved = Game(game.tags, Line((first, *game.line.moves[1:])), game.result)
        copies.append(with_tags(moved, Event="Copies", Round=str(i), Annotator="someone"))
    for i, game in enumerate(games[20:30]):
        plies = min(1 + 4 * i, len(game.line.moves) - 1)
        copies.append(with_tags(first_plies(game, plies), Event="Cut"))
    # other moves in rounds 1 to 12 of the same event, with the same players: conflicts
    copies.extend(random_games(mosona, {}, 12, 77))
    copies.append(games[40])  # the same game again, the same tags
    return [*SAMPLE_FILES, randoms, write_file(folder / "copies.zrec", copies)]


def test_import_counts_match_the_model(db_url: str, corpus: list[Path]) -> None:
    model = Model()
    expected = [model.judge(games_of(path)) for path in corpus]
    # the model sees what the corpus was made to hold
    total = ImportCounts()
    for counts in expected:
        total.merge(counts)
    assert total.read == 15 + RANDOM_GAMES + 15 + 10 + 12 + 1
    # random games that happen to repeat one before them (their moves, spelled as the
    # generator wrote them)
    randoms = [tuple(n.turn.text() for n in g.line.moves) for g in games_of(corpus[-2])]
    repeats = len(randoms) - len(set(randoms))
    assert repeats == 1  # (this seed makes one)
    assert total.duplicates == 15 + 1 + repeats
    assert total.truncated == 10
    assert total.conflicts == 12
    with Archive.open(db_url, create=True) as archive:
        results = [import_file(archive, path) for path in corpus]
        assert [r.status for r in results] == ["imported"] * len(corpus)
        assert [r.counts for r in results] == expected
        assert archive.count() == total.added == len(model.stored)
        assert stored_texts(archive) == sorted(p.text for p in model.stored)
        # each game is kept once: the identities are distinct
        assert archive.db.value("SELECT count(DISTINCT ident) FROM games") == total.added
        assert check(archive).ok


def test_a_second_import_reads_nothing_again(db_url: str, corpus: list[Path]) -> None:
    with Archive.open(db_url, create=True) as archive:
        for path in corpus:
            import_file(archive, path)
        before = stored_texts(archive)
        sources = archive.db.value("SELECT count(*) FROM game_sources")
        for path in corpus:
            games = len(games_of(path))
            result = import_file(archive, path)
            assert result.status == "already imported"
            assert result.counts == ImportCounts(read=games, already=games)
        assert stored_texts(archive) == before
        assert archive.db.value("SELECT count(*) FROM game_sources") == sources


def test_reread_adds_nothing_and_reports_duplicates(db_url: str, corpus: list[Path]) -> None:
    model = Model()
    for path in corpus:
        model.judge(games_of(path))
    stored = len(model.stored)
    # the model, shown every file again: every game is a duplicate but the truncated
    # copies, which are truncated copies again
    again = [model.judge(games_of(path)) for path in corpus]
    assert len(model.stored) == stored
    assert sum(c.truncated for c in again) == 10
    with Archive.open(db_url, create=True) as archive:
        for path in corpus:
            import_file(archive, path)
        before = stored_texts(archive)
        results = [import_file(archive, path, by_sha=False) for path in corpus]
        assert [r.status for r in results] == ["imported"] * len(corpus)
        assert [r.counts for r in results] == again
        for result, path in zip(results, corpus, strict=True):
            games = len(games_of(path))
            assert result.counts.added == 0
            assert result.counts.duplicates + result.counts.truncated == games
        assert stored_texts(archive) == before
        # the game is found in both reads of its file
        first = archive.db.value("SELECT min(id) FROM games")
        name = str(corpus[0])
        assert archive.sources_of(int(first)) == [(name, 1, 1), (name, 1, 1)]
        assert check(archive).ok


# -- 2. each kind of report --------------------------------------------------------------


def tournament() -> list[Game]:
    return games_of(SAMPLES / "tournament.zrec")


ILLEGAL = '[Game "mosona"]\n[Event "Broken"]\n\n1. b6-b5 c5-b6 *\n'


def crafted(folder: Path) -> tuple[Path, list[Game]]:
    """A file that holds one game of each kind, against samples/tournament.zrec (games
    1 to 5) imported first."""
    ada_tom, grace_alan = tournament()[0], tournament()[1]
    forfeit = tournament()[4]
    long_game = next(
        g for g in random_games(find_game("mosona"), {}, 20, 3) if len(g.line.moves) > 40
    )
    # 1: game 1 written otherwise: other tags, a comment, odd spacing -> duplicate of #1
    copy = write_game(with_tags(ada_tom, Annotator="copied", Comment=None))
    copy = copy.replace(" c6xa5 ", "   c6xa5 {a comment}\n ").replace("[Site", "[Site ")
    # 2: the first 7 plies of game 1 -> truncated copy of #1
    cut = write_game(with_tags(first_plies(ada_tom, 7), Event="Elsewhere"))
    # 3: game 2 played on: its event, round and players -> continues #2, stored as #6
    on = write_game(extended(grace_alan, 6, seed=1))
    # 4: the event, round and players of game 1, written otherwise, other moves -> a
    # conflict with #1, stored as #7
    other = next(iter(random_games(find_game("mosona"), {}, 1, 5)))
    clash = with_tags(
        other,
        Event=ada_tom.tag("Event"),
        Round="1",
        White="ada  LOVELACE",
        Black="Tom Kilburn",
        Site=None,
    )
    # 5: an illegal move -> invalid, not stored
    # 6: the forfeit (no moves) with the same tags -> duplicate of #5
    # 7: a long game (stored as #8), then its first 30 and first 10 plies, in the same
    # batch: truncated copies of #8
    texts = [
        copy,
        cut,
        on,
        write_game(clash),
        ILLEGAL,
        write_game(forfeit),
        write_game(long_game),
        write_game(first_plies(long_game, 30)),
        write_game(first_plies(long_game, 10)),
    ]
    path = folder / "crafted.zrec"
    path.write_text("\n".join(texts), encoding="utf-8")
    return path, [extended(grace_alan, 6, seed=1), clash, long_game]


def notice_facts(notices: list[Notice]) -> list[tuple[str, int, int | None, int | None]]:
    return [(n.kind, n.number, n.stored, n.other) for n in notices]


@pytest.mark.parametrize("batch", [1000, 1], ids=["one-batch", "batch-of-1"])
def test_each_kind_of_report(db_url: str, tmp_path: Path, batch: int) -> None:
    path, (on, clash, long_game) = crafted(tmp_path)
    notices: list[Notice] = []
    with Archive.open(db_url, create=True) as archive:
        import_file(archive, SAMPLES / "tournament.zrec")
        result = import_file(archive, path, notices=notices, batch=batch)
        assert result.counts == ImportCounts(
            read=9, added=3, duplicates=2, truncated=3, conflicts=1, continued=1, invalid=1
        )
        assert notice_facts(notices) == [
            ("duplicate", 1, None, 1),
            ("truncated", 2, None, 1),
            ("continues", 3, 6, 2),
            ("conflict", 4, 7, 1),
            ("invalid", 5, None, None),
            ("duplicate", 6, None, 5),
            ("truncated", 8, None, 8),
            ("truncated", 9, None, 8),
        ]
        lines = [n.line for n in notices]
        records = list(read_records(path))
        assert lines == [records[n.number - 1].line for n in notices]
        messages = [n.message for n in notices]
        assert messages[0] == "the same game as #1: not stored again"
        assert messages[1] == (
            "a truncated copy of #1: its 7 plies are the start of that game's 18; not stored"
        )
        assert messages[2] == (
            "continues #2 (same event, round and players): that game's 25 plies are the "
            "start of this one's 31; stored as #6"
        )
        assert messages[3] == (
            "the event, round and players of #1 with other moves: stored as #7; both kept"
        )
        assert messages[6] == (
            f"a truncated copy of #8: its 30 plies are the start of that game's "
            f"{len(long_game.line.moves)}; not stored"
        )
        # the validator's own words, place included
        report = validate_record(records[4], str(path))
        error = next(d for d in report.diagnostics if d.severity == "error")
        assert error.code == "illegal-move"
        assert messages[4] == f"not stored: {error.format()}"
        assert notices[4].format() == (
            f"{path}:{records[4].line}: invalid: game 5: not stored: {error.format()}"
        )
        # what was stored, and where each game was found
        assert archive.count() == 8
        assert archive.game(6).text == write_game(on)
        assert archive.game(7).text == write_game(clash)
        assert archive.game(8).text == write_game(long_game)
        assert archive.sources_of(1) == [
            (str(SAMPLES / "tournament.zrec"), 1, 1),
            (str(path), 1, records[0].line),
            (str(path), 2, records[1].line),
        ]
        assert archive.sources_of(8) == [(str(path), n, records[n - 1].line) for n in (7, 8, 9)]
        # the conflict's players are the archive's players of game 1, however written
        assert [name for _, name in archive.game(7).players] == ["Lovelace, Ada", "Kilburn, Tom"]
        assert check(archive).ok


def test_keep_invalid_stores_the_game_flagged(db_url: str, tmp_path: Path) -> None:
    path = tmp_path / "broken.zrec"
    unreadable = '[Game "mosona"]\n1. b6-b5 zz9 *\n'
    path.write_text(ILLEGAL + "\n" + unreadable + "\n" + ILLEGAL, encoding="utf-8")
    records = list(read_records(path))
    errors = [
        next(d for d in validate_record(r, str(path)).diagnostics if d.severity == "error")
        for r in records
    ]
    notices: list[Notice] = []
    with Archive.open(db_url, create=True) as archive:
        result = import_file(archive, path, keep_invalid=True, notices=notices)
        assert result.counts == ImportCounts(read=3, invalid=3)
        assert [n.message for n in notices] == [
            f"kept, flagged invalid, as #1: {errors[0].format()}",
            f"not stored: {errors[1].format()}",
            f"not stored: a copy of #1: {errors[2].format()}",
        ]
        assert notice_facts(notices) == [
            ("invalid", 1, 1, None),
            ("invalid", 2, None, None),
            ("invalid", 3, None, 1),
        ]
        assert archive.count() == 1
        stored = archive.game(1)
        assert not stored.valid
        assert stored.problem == errors[0].format()
        assert archive.db.value("SELECT valid FROM games WHERE id = 1") == 0
        # an invalid game is kept out of the position index
        assert archive.db.value("SELECT count(*) FROM positions") == 0
        assert check(archive).ok
        assert remove(archive, [1]) == [1]
        assert archive.count() == 0
        assert archive.db.value("SELECT count(*) FROM game_tags") == 0
        assert check(archive).ok
    # without --keep-invalid nothing is stored
    with Archive.open(str(tmp_path / "plain.sqlite"), create=True) as archive:
        result = import_file(archive, path)
        assert result.counts == ImportCounts(read=3, invalid=3)
        assert archive.count() == 0


def test_interrupted_import_goes_on_after_the_last_committed_game(
    db_url: str, tmp_path: Path
) -> None:
    """An import stopped by an error after two batches keeps them; the next import of
    the file goes on from there ("resumed") and ends with every game once."""
    games = list(random_games(find_game("mosona"), {}, 25, 8))
    path = write_file(tmp_path / "g.zrec", games)
    sha, size = sha256_of(str(path))

    def stopping() -> Iterator[Record]:
        for i, record in enumerate(read_records(path)):
            if i == 23:
                raise KeyboardInterrupt
            yield record

    with Archive.open(db_url, create=True) as archive:
        importer = Importer(archive, batch=10)
        with pytest.raises(KeyboardInterrupt):
            importer.import_records(stopping(), str(path), sha, size)
        assert archive.count() == 20
        row = archive.db.one("SELECT games_done, complete FROM sources")
        assert row == (20, 0)
        result = Importer(archive, batch=10).import_records(
            read_records(path), str(path), sha, size
        )
        assert result.status == "resumed"
        assert result.counts == ImportCounts(read=25, added=5, already=20)
        assert archive.db.one("SELECT games_done, complete FROM sources") == (25, 1)
        assert stored_texts(archive) == sorted(write_game(g) for g in games)
        assert import_file(archive, path).status == "already imported"


def test_games_read_from_text_need_no_file(db_url: str) -> None:
    text = (SAMPLES / "tournament.zrec").read_text(encoding="utf-8")
    with Archive.open(db_url, create=True) as archive:
        first = Importer(archive).import_records(read_string(text, "<stdin>"), "<stdin>")
        second = Importer(archive).import_records(read_string(text, "<stdin>"), "<stdin>")
        assert first.counts == ImportCounts(read=5, added=5)
        assert second.counts == ImportCounts(read=5, duplicates=5)
        assert archive.db.rows("SELECT path, sha256, games_done, complete FROM sources") == [
            ("<stdin>", None, 5, 1),
            ("<stdin>", None, 5, 1),
        ]


def test_a_truncated_copy_that_ends_with_a_priests_entry(db_url: str, tmp_path: Path) -> None:
    sample = games_of(SAMPLES / "stone-warriors.zrec")[0]
    entry = next(i for i, n in enumerate(sample.line.moves) if n.turn.text() == "P@e1")
    assert entry > 40  # past the plies kept as opening paths
    cut = with_tags(first_plies(sample, entry + 1), Score=None)
    assert played(cut).moves == played(sample).moves[: entry + 1]
    path = write_file(tmp_path / "cut.zrec", [cut])
    with Archive.open(db_url, create=True) as archive:
        import_file(archive, SAMPLES / "stone-warriors.zrec")
        result = import_file(archive, path)
        assert result.counts == ImportCounts(read=1, truncated=1)


def test_records_that_differ_in_a_roll_are_two_games(db_url: str, tmp_path: Path) -> None:
    game = next(iter(random_games(find_game("awethi"), {}, 1, 107)))
    text = write_game(game)
    rolled = "3322s: a1-a2-a3, a1-b1-b2, a1-b1-c1, a1"
    assert rolled in text
    other = text.replace(rolled, "4121s: a1-a2-a3, a1-b1-b2, a1-b1-c1, a1", 1)
    # both records are valid, and they differ in the roll of the second turn
    records = list(read_string(text + "\n" + other))
    assert all(validate_record(record, "x").valid for record in records)
    first, second = (record.game for record in records)
    assert first is not None and second is not None
    assert played(first).moves[1] != played(second).moves[1]
    assert played(first).moves[2:] == played(second).moves[2:]
    path = tmp_path / "rolls.zrec"
    path.write_text(text + "\n" + other, encoding="utf-8")
    with Archive.open(db_url, create=True) as archive:
        result = import_file(archive, path)
        # two games, and a conflict: the same event, round and players, other moves
        assert result.counts == ImportCounts(read=2, added=2, conflicts=1)


def test_a_game_the_rules_ended_is_known_over(corpus: list[Path]) -> None:
    # the import looks for no longer game that a game the rules have ended could be
    # the start of: the validator says which games they are
    games = games_of(corpus[-2])[:40]
    ended = [validate_record(Record(1, 1, game), "r").over for game in games]
    cut = [
        validate_record(Record(1, 1, first_plies(game, len(game.line.moves) // 2)), "r").over
        for game in games
    ]
    assert ended == [True] * 40  # a random game is played until the rules end it
    assert cut == [False] * 40
