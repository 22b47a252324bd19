"""The archive's tables, its schema version and the migrations between versions.

The tables (docs/archive.md describes each column):

- ``games``: one row per stored game: the game and its rule options (an id into
  ``rule_options``: every option, defaults filled in), its start (``setup``: the
  ``Setup`` tag, empty for the usual start), the common tags as columns (event, site,
  round, date with its earliest and latest possible day, result, termination), plies,
  whether it is valid and checked, its identity hash (``ident``) and its canonical
  text, packed (:mod:`zrec.archive.store.packing`, with ``dictionaries``);
- ``game_tags``: the tags of a game, in order, when its text does not give them back
  (version 4; every game's tags before);
- ``players``, ``aliases``, ``game_players``: who sat in each seat;
- ``events``; ``sources`` (file, sha256, how many of its games are done) and
  ``game_sources`` (where each game was found: file, game number, line);
- ``positions``: the position index: for every ply of every valid game (the position
  after that ply, ply 0 being the start), an entry made from a 64-bit hash of the
  engine's position key, packed by part of the games and bucket of the keys
  (:mod:`zrec.archive.store.posindex`; version 3; one row per ply before);
- ``openings``: the first plies of each game as a chained hash of its positions, for
  move-prefix search (packed as the positions are, version 4);
- ``material``: one row a valid game: each distinct count of pieces per seat it passes
  through, in game order (version 4; a row per count before).

Version 2 adds what a tournament needs beyond its games (docs/tournaments.md):

- ``event_players``: an event's entrants with their pairing numbers (and what a TRF
  file says of them: rating, federation, FIDE id, title, sex, birth date);
- ``event_rounds``: the rounds a player has no stored game for: byes, absences, and
  results known without a record (a TRF file's pairings), as TRF result codes.

Version 3 packs the position index (``positions``) and keeps ``starts``, each game,
options and setup that a valid game has (what a search by moves or position plays
from, without reading every game).

Version 4 packs the opening index as the position index is packed, and both in rows
keyed by one integer, 6 bytes an entry, a game's hash entered once
(:mod:`zrec.archive.store.posindex`); ``openings_long`` holds the path at ply 20 of the
games longer than that.  The indexes are built again by replaying the stored games
from their text (an older version's hashes are not kept), the rows of version 2 are
no longer converted on the way through version 3.

Version 4 packs the games' rows: texts compressed, tags read from the text, material
one row a game, rule options an id (:mod:`zrec.archive.store.rows_v4` converts an older
archive's).

Version 5 adds the accounts of a shared archive (:mod:`zrec.serve.accounts`):
``users`` (name, its key ``norm``, role, password hash, created) and ``user_tokens``
(a user's API tokens, as SHA-256 hashes).  Its statements make the tables only where
they are missing, so an archive turned back to an older version by hand keeps them.

Version 6 adds ``tree_lines``: the first moves of each valid game as one byte a move,
packed by start and part of the games (:mod:`zrec.archive.store.lines`), for the
opening tree; the migration fills it by replaying the stored games.

Version 7 adds ``login_failures``, and version 8 ``sessions``, the sessions of
``zrec serve``'s logged-in users (:mod:`zrec.archive.store.logins_schema`).

Version 9 adds ``event_pairings``: the boards of an event's rounds as ``zrec archive
pair``, ``schedule`` and ``seat`` made them, one row a seat (seat 0 is White, 1 Black in
a two-player game); a board of one player is a round without an opponent, its
``code`` ``U`` (the pairing-allocated bye) or ``Z`` (a round-robin player's round off)
(:mod:`zrec.archive.events.pairstore`).

Version 10 gives each API token an expiry: ``user_tokens.expires`` (seconds since 1970,
UTC).  The tokens of an older archive are given 90 days from the migration
(:data:`zrec.serve.accounts.TOKEN_DAYS`), so that no script stops at once.

Version 11 keys the index of an event's games by the players too: ``games_event``
(event, round) becomes ``games_round_seats`` (event, round, seats), which answers what
the old one did and the import's question about each game it stores (the stored games
of its event and round with the same players: ``Importer._same_round`` of
:mod:`zrec.archive.store.ingest`) without reading every game of the round: in the
games of archive_bench.py (200 events, 9 rounds) a round holds 555 games at a million
games.

Version 12 adds the computer analysis of stored games (:mod:`zrec.archive.analyses`):
``analyses``, one row a game, analysing player and budget (its seed, the plies it
judged, the analysis as JSON); ``analysis_seats``, each seat's moves, accuracy and
average loss in it; ``analysis_marks``, each marked move (ply, seat, ``?!``, ``?`` or
``??``), for a search by mark.  Its statements only make tables.

Version 13 adds live play (:mod:`zrec.archive.live`): ``live_games`` (a game played
on ``zrec serve``, or broadcast from the recording board: its record's tags, clock,
status and result, a draw offered, whether it is a broadcast, the game stored once it
is over),
``live_seats`` (who plays each seat: a user, a study player, or nobody yet) and
``live_moves`` (its moves in order, each as the engine spells it, with when it was
made).  Its statements make the tables only where they are missing.  Version 14
adds to ``live_games`` who agreed to the draw offered (``draw_agreed``), why a game
that ended is not stored as a game of its own (``not_stored``) and whether it is a
board of a paired round (``paired``).

``meta`` holds ``schema``, the version.  :data:`MIGRATIONS` lists, for each version,
the statements that bring an archive of the version before up to it; an archive made
by a newer zrec is refused rather than damaged.

Just past 500 lines, and one piece on purpose: it is the archive's one list of tables
and of the steps between versions, read in order; each version's statements stand
beside the ones before them.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from zrec.archive.store.db import ArchiveError, DamagedArchiveError, Database
from zrec.archive.store.logins_schema import V7_LOGINS, V8_SESSIONS
from zrec.archive.store.rows_v4 import V4_ROWS, rows_to_v4

__all__ = ["MIGRATIONS", "VERSION", "migrate", "refuse_newer", "schema_version"]

#: The plies of a game's opening kept in ``openings`` (longer prefixes are searched
#: through the position index and checked by replay).
OPENING_PLIES = 20

_V1 = """
CREATE TABLE sources (
    id {id},
    path TEXT NOT NULL,
    sha256 TEXT,
    size BIGINT,
    games_done INTEGER NOT NULL DEFAULT 0,
    complete INTEGER NOT NULL DEFAULT 0,
    imported_at TEXT NOT NULL
);
CREATE INDEX sources_sha256 ON sources (sha256);
CREATE TABLE events (id {id}, name TEXT NOT NULL UNIQUE);
CREATE TABLE players (id {id}, name TEXT NOT NULL UNIQUE, norm TEXT NOT NULL);
CREATE INDEX players_norm ON players (norm);
CREATE TABLE aliases (
    norm TEXT PRIMARY KEY,
    player BIGINT NOT NULL REFERENCES players (id)
);
CREATE TABLE games (
    id {id},
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    setup TEXT NOT NULL,
    event BIGINT REFERENCES events (id),
    site TEXT,
    round TEXT,
    date TEXT,
    date_lo TEXT,
    date_hi TEXT,
    result TEXT NOT NULL,
    termination TEXT,
    plies INTEGER NOT NULL,
    valid INTEGER NOT NULL,
    checked INTEGER NOT NULL,
    problem TEXT,
    ident BIGINT NOT NULL,
    seats TEXT NOT NULL,
    text TEXT NOT NULL,
    added TEXT NOT NULL
);
CREATE INDEX games_ident ON games (ident);
CREATE INDEX games_event ON games (event, round);
CREATE INDEX games_date ON games (date_lo);
CREATE TABLE game_tags (
    game BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (game, idx)
){without_rowid};
CREATE TABLE game_players (
    game BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    role TEXT NOT NULL,
    player BIGINT NOT NULL REFERENCES players (id),
    PRIMARY KEY (game, seat)
){without_rowid};
CREATE INDEX game_players_player ON game_players (player, game);
CREATE TABLE game_sources (
    game BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    source BIGINT NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    line INTEGER NOT NULL,
    PRIMARY KEY (game, source, number)
){without_rowid};
CREATE TABLE positions (
    key BIGINT NOT NULL,
    game BIGINT NOT NULL,
    ply INTEGER NOT NULL,
    PRIMARY KEY (key, game, ply)
){without_rowid};
CREATE TABLE openings (
    path BIGINT NOT NULL,
    game BIGINT NOT NULL,
    PRIMARY KEY (path, game)
){without_rowid};
CREATE TABLE material (
    game BIGINT NOT NULL,
    counts TEXT NOT NULL,
    ply INTEGER NOT NULL,
    PRIMARY KEY (game, counts)
){without_rowid};
"""

_V2 = """
ALTER TABLE events ADD COLUMN rounds INTEGER;
CREATE TABLE event_players (
    event BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    player BIGINT NOT NULL REFERENCES players (id),
    number INTEGER NOT NULL,
    rating INTEGER,
    federation TEXT,
    fide_id TEXT,
    title TEXT,
    sex TEXT,
    birth TEXT,
    PRIMARY KEY (event, player)
){without_rowid};
CREATE TABLE event_rounds (
    event BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    player BIGINT NOT NULL REFERENCES players (id),
    code TEXT NOT NULL,
    opponent BIGINT REFERENCES players (id),
    colour TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (event, round, player)
){without_rowid};
"""

_V3 = """
ALTER TABLE positions RENAME TO positions_v2;
CREATE TABLE positions (
    part INTEGER NOT NULL,
    bucket INTEGER NOT NULL,
    entries {blob} NOT NULL,
    PRIMARY KEY (part, bucket)
){without_rowid};
CREATE TABLE starts (
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    setup TEXT NOT NULL,
    PRIMARY KEY (game, options, setup)
){without_rowid};
INSERT INTO starts (game, options, setup)
    SELECT DISTINCT game, options, setup FROM games WHERE valid = 1 AND checked = 1
"""

# version 4, the indexes: packed, built again from the games' text (posindex.rebuild)
_V4_INDEXES = """
DROP TABLE positions;
DROP TABLE openings;
CREATE TABLE positions (id {rowid}, entries {blob} NOT NULL);
CREATE TABLE openings (id {rowid}, entries {blob} NOT NULL);
CREATE TABLE openings_long (
    path BIGINT NOT NULL,
    game BIGINT NOT NULL,
    PRIMARY KEY (path, game)
){without_rowid}
"""

# version 5, accounts: users and their API tokens (zrec.serve.accounts)
_V5_ACCOUNTS = """
CREATE TABLE IF NOT EXISTS users (
    id {id},
    name TEXT NOT NULL,
    norm TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL CHECK (role IN ('editor', 'admin')),
    password TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS user_tokens (
    hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created TEXT NOT NULL
){without_rowid};
CREATE INDEX IF NOT EXISTS user_tokens_user ON user_tokens (user_id)
"""

# version 6, the opening tree: each game's first moves (lines.rebuild fills it)
_V6_LINES = """
CREATE TABLE tree_lines (
    start BIGINT NOT NULL,
    part INTEGER NOT NULL,
    entries {blob} NOT NULL,
    PRIMARY KEY (start, part)
){without_rowid}
"""

# version 9, pairings: the boards of an event's rounds (zrec.archive.events.pairstore)
_V9_PAIRINGS = """
CREATE TABLE IF NOT EXISTS event_pairings (
    event BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player BIGINT NOT NULL REFERENCES players (id),
    code TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (event, round, board, seat)
){without_rowid};
CREATE INDEX IF NOT EXISTS event_pairings_player ON event_pairings (player)
"""

# version 10, the API tokens' expiry (zrec.serve.accounts); the tokens of before are
# given one by _expire_old_tokens
_V10_TOKEN_EXPIRY = """
ALTER TABLE user_tokens ADD COLUMN expires DOUBLE PRECISION
"""
#: the days an API token of an archive before version 10 is given from its migration
OLD_TOKEN_DAYS = 90

# version 11, the games of an event's round by their players (the import's conflicts)
_V11_ROUND_SEATS = """
CREATE INDEX IF NOT EXISTS games_round_seats ON games (event, round, seats);
DROP INDEX IF EXISTS games_event
"""

# version 12, computer analysis (zrec.archive.analyses)
_V12_ANALYSES = """
CREATE TABLE IF NOT EXISTS analyses (
    game BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player TEXT NOT NULL,
    budget TEXT NOT NULL,
    seed BIGINT NOT NULL,
    plies INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game, player, budget)
){without_rowid};
CREATE TABLE IF NOT EXISTS analysis_seats (
    game BIGINT NOT NULL,
    player TEXT NOT NULL,
    budget TEXT NOT NULL,
    seat INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    accuracy DOUBLE PRECISION NOT NULL,
    average_loss DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game, player, budget, seat),
    FOREIGN KEY (game, player, budget) REFERENCES analyses (game, player, budget)
        ON DELETE CASCADE
){without_rowid};
CREATE TABLE IF NOT EXISTS analysis_marks (
    game BIGINT NOT NULL,
    player TEXT NOT NULL,
    budget TEXT NOT NULL,
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    mark TEXT NOT NULL,
    PRIMARY KEY (game, player, budget, ply),
    FOREIGN KEY (game, player, budget) REFERENCES analyses (game, player, budget)
        ON DELETE CASCADE
){without_rowid};
CREATE INDEX IF NOT EXISTS analysis_marks_mark ON analysis_marks (mark, ply, game)
"""

# version 13, live play: games played on zrec serve, their seats and moves
# (zrec.archive.live)
_V13_LIVE = """
CREATE TABLE IF NOT EXISTS live_games (
    id {id},
    game TEXT NOT NULL,
    tags TEXT NOT NULL,
    clock TEXT,
    clocks TEXT,
    turn_started DOUBLE PRECISION,
    roll TEXT,
    status TEXT NOT NULL CHECK (status IN ('playing', 'over')),
    result TEXT NOT NULL DEFAULT '*',
    termination TEXT,
    draw_offer TEXT,
    creator TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    stored BIGINT,
    event TEXT,
    round TEXT,
    broadcast INTEGER NOT NULL DEFAULT 0 CHECK (broadcast IN (0, 1))
);
CREATE INDEX IF NOT EXISTS live_games_status ON live_games (status, id);
CREATE INDEX IF NOT EXISTS live_games_event ON live_games (event, round);
CREATE TABLE IF NOT EXISTS live_seats (
    live BIGINT NOT NULL REFERENCES live_games (id) ON DELETE CASCADE,
    seat TEXT NOT NULL,
    idx INTEGER NOT NULL,
    player TEXT,
    norm TEXT,
    PRIMARY KEY (live, seat)
){without_rowid};
CREATE INDEX IF NOT EXISTS live_seats_norm ON live_seats (norm);
CREATE TABLE IF NOT EXISTS live_moves (
    live BIGINT NOT NULL REFERENCES live_games (id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    seat TEXT NOT NULL,
    move TEXT NOT NULL,
    made DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (live, ply)
){without_rowid}
"""

# version 14, live play: a draw's agreements, why a game is not stored, a round's boards
_V14_LIVE_MORE = """
ALTER TABLE live_games ADD COLUMN draw_agreed TEXT;
ALTER TABLE live_games ADD COLUMN not_stored TEXT;
ALTER TABLE live_games ADD COLUMN paired INTEGER NOT NULL DEFAULT 0 CHECK (paired IN (0, 1))
"""

#: version -> the statements that make it from the version before (1: from nothing)
MIGRATIONS: dict[int, str] = {
    1: _V1, 2: _V2, 3: _V3, 4: V4_ROWS + ";\n" + _V4_INDEXES, 5: _V5_ACCOUNTS,
    6: _V6_LINES, 7: V7_LOGINS, 8: V8_SESSIONS, 9: _V9_PAIRINGS, 10: _V10_TOKEN_EXPIRY,
    11: _V11_ROUND_SEATS, 12: _V12_ANALYSES, 13: _V13_LIVE, 14: _V14_LIVE_MORE,
}
VERSION = max(MIGRATIONS)

_TYPES = {
    # AUTOINCREMENT: the id of a removed game is never given to another
    "sqlite": {
        "id": "INTEGER PRIMARY KEY AUTOINCREMENT",
        "without_rowid": " WITHOUT ROWID",
        "blob": "BLOB",
        "rowid": "INTEGER PRIMARY KEY",
    },
    "postgresql": {
        "id": "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
        "without_rowid": "",
        "blob": "BYTEA",
        "rowid": "BIGINT PRIMARY KEY",
    },
}


def _statements(db: Database, script: str) -> list[str]:
    text = script.format(**_TYPES[db.dialect])
    return [s.strip() for s in text.split(";") if s.strip()]


def _tables(db: Database) -> set[str]:
    if db.dialect == "sqlite":
        rows = db.rows("SELECT name FROM sqlite_master WHERE type = 'table'")
    else:
        rows = db.rows(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = "
            "current_schema()"
        )
    return {str(r[0]) for r in rows}


def _has_column(db: Database, table: str, column: str) -> bool:
    if db.dialect == "sqlite":
        return any(r[1] == column for r in db.rows(f"PRAGMA table_info({table})"))
    found = db.value(
        "SELECT count(*) FROM information_schema.columns WHERE table_schema = "
        "current_schema() AND table_name = ? AND column_name = ?", (table, column)
    )
    return int(found) == 1


def schema_version(db: Database) -> int | None:
    """The archive's version, ``None`` for an empty database; raises
    :class:`ArchiveError` for a database that holds something else."""
    tables = _tables(db)
    if not tables:
        return None
    if "meta" not in tables:
        raise ArchiveError(f"{db.target} is not a zrec archive (it has other tables)")
    value = db.value("SELECT value FROM meta WHERE name = 'schema'")
    if value is None and "games" in tables:  # zrec's tables, and the version lost
        raise DamagedArchiveError(
            db.target,
            "its schema version (the value 'schema' in the table meta) is missing",
            salvage=False,
        )
    if value is None:
        raise ArchiveError(f"{db.target} is not a zrec archive (no schema version)")
    text = str(value)
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise DamagedArchiveError(
            db.target,
            f"its schema version (the value 'schema' in the table meta) is {text!r}, not "
            "a whole number from 1 up",
            salvage=False,
        )
    return int(text)


def refuse_newer(db: Database, version: int | None) -> None:
    """Raise :class:`ArchiveError` for an archive made by a newer zrec."""
    if version is not None and version > VERSION:
        raise ArchiveError(
            f"{db.target} was made by a newer zrec (archive schema {version}; this zrec "
            f"knows up to {VERSION}): upgrade zrec to use it"
        )



def migrate(
    db: Database,
    rebuild: Callable[[Database], None] | None = None,
    lines: Callable[[Database], None] | None = None,
) -> None:
    """Make an empty database an archive, or bring an older archive up to
    :data:`VERSION`, in one transaction; ``rebuild`` fills the indexes of version 4
    from the stored games (:func:`zrec.archive.store.posindex.rebuild`) and ``lines``
    the table of version 6 (:func:`zrec.archive.store.lines.rebuild`), both given by
    the caller: they replay games, which this module does not import."""
    if schema_version(db) == VERSION:  # the usual case: no lock, readers never wait
        return
    with db.transaction(lock=True):
        version = schema_version(db)
        refuse_newer(db, version)
        if version == VERSION:
            return
        if version is None:
            db.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
            db.execute("INSERT INTO meta (name, value) VALUES ('schema', '0')")
            version = 0
        for step in range(version + 1, VERSION + 1):
            if step == 10 and _has_column(db, "user_tokens", "expires"):
                pass  # (an archive turned back to version 9 by hand keeps the column)
            elif step == 14 and _has_column(db, "live_games", "draw_agreed"):
                pass  # (an archive turned back to an older version by hand keeps them)
            else:
                for statement in _statements(db, MIGRATIONS[step]):
                    db.execute(statement)
            if step == 10:
                db.execute("UPDATE user_tokens SET expires = ? WHERE expires IS NULL",
                           (time.time() + OLD_TOKEN_DAYS * 86400,))
            if step == 3:  # version 4 builds the index again: no rows to convert
                db.execute("DROP TABLE positions_v2")
            if step == 4:
                rows_to_v4(db)
                if rebuild is not None:
                    rebuild(db)
            if step == 6 and lines is not None and version > 0:  # (a new archive: empty)
                lines(db)
            db.execute("UPDATE meta SET value = ? WHERE name = 'schema'", (str(step),))
