"""One connection to an archive's database, SQLite or PostgreSQL, and the few places
where the two differ.

SQLite comes with Python (:mod:`sqlite3`); PostgreSQL is reached with psycopg 3, loaded
only for a ``postgresql://`` URL.  SQL is written once, with ``?`` placeholders (this
module rewrites them as ``%s`` for psycopg) and with the column types both accept.  A
SQLite archive is opened in WAL mode with foreign keys on and ``synchronous=NORMAL``: a
killed process loses no committed transaction, and readers never wait for a writer.

A command that only reads opens the archive read-only (``read_only``): a SQLite file
that could be written with ``query_only`` (it refuses every change), one that cannot
with ``mode=ro``, and where even that cannot be done because its folder cannot be
written (read-only media), as ``immutable``; a PostgreSQL session whose transactions
are read-only.  What SQLite says of a damaged file (a malformed page, a text that is
not UTF-8) becomes :class:`DamagedArchiveError`, and a full disk
:class:`ArchiveFullError`: one sentence each, never a traceback.

A writer waits for another's transaction (SQLite's write lock, the advisory lock of
PostgreSQL) ``wait`` seconds (:func:`connect`): a command :data:`WAIT`, 10 minutes,
the web server a few seconds (:data:`zrec.serve.access.WEB_WAIT`).  Past it the write is
refused with :class:`ArchiveBusyError`; nothing of it is kept.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import sys
import urllib.parse
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal

from zrec.errors import ZrecError

__all__ = [
    "WAIT",
    "ArchiveBusyError",
    "ArchiveError",
    "ArchiveFullError",
    "DamagedArchiveError",
    "Database",
    "connect",
    "is_url",
]

Dialect = Literal["sqlite", "postgresql"]
Row = tuple[Any, ...]


class ArchiveError(ZrecError):
    """An archive that cannot be opened or used: the message says which and why."""


class DamagedArchiveError(ArchiveError):
    """The archive's file is damaged: ``reason`` says what SQLite found; ``salvage``:
    whether ``zrec archive check`` can tell what is still readable."""

    def __init__(self, target: str, reason: str, salvage: bool = True) -> None:
        super().__init__(f"{target} is damaged: {reason}")
        self.reason = reason
        self.salvage = salvage


class ArchiveBusyError(ArchiveError):
    """Another writer held the archive for longer than this one may wait (nothing of
    this one's change is kept): trying again later may succeed."""


#: seconds a writer waits for another's transaction, by default
WAIT = 600.0


class ArchiveFullError(ArchiveError):
    """The disk that holds the archive is full (nothing of the failed change is kept)."""


#: the first 16 bytes of every SQLite database file
SQLITE_HEADER = b"SQLite format 3\x00"
#: what SQLite says of a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB), and of tables
#: that are not the ones zrec made (a damaged schema that still parses)
_DAMAGE = (
    "database disk image is malformed",
    "file is not a database",
    "malformed database schema",
    "no such table",
    "no such column",
)
_UNDECODED = re.compile(r"Could not decode to UTF-8 column '(.*?)' with text", re.DOTALL)


#: less free space than this, and SQLite's "disk I/O error" means a full disk (SQLite
#: reports a failure to grow its ``-shm`` file so)
_NEARLY_FULL = 1 << 20


def _full(path: str, exc: BaseException) -> bool:
    """Whether an error of SQLite on the file ``path`` means its disk is full."""
    text = str(exc)
    if "database or disk is full" in text:  # SQLITE_FULL
        return True
    if "disk I/O error" not in text:
        return False
    try:
        disk = os.statvfs(os.path.dirname(os.path.abspath(path)))
    except OSError:
        return False
    return disk.f_bavail * disk.f_frsize < _NEARLY_FULL


def damage_of(exc: BaseException) -> str | None:
    """What an error of SQLite (or of decoding what it read) says of a damaged file,
    in one line; ``None`` for any other error."""
    if isinstance(exc, UnicodeDecodeError):  # SQLite's own message about the damage
        return "a text stored in it is not UTF-8"
    if not isinstance(exc, sqlite3.Error):
        return None
    text = str(exc)
    if type(exc) is sqlite3.DatabaseError and not text.strip():
        # before Python 3.11, a message of SQLite's that is not UTF-8 (a damaged schema
        # quoted in it) is dropped, and the error comes with no words at all
        return "SQLite's own message about it is not UTF-8"
    undecoded = _UNDECODED.match(text)
    if undecoded:
        return f"a text stored in it is not UTF-8 (column {undecoded.group(1)!r})"
    first = text.strip().splitlines()[0] if text.strip() else ""
    if not first.startswith(_DAMAGE):
        return None
    return "".join(c if c.isprintable() else "?" for c in first)


def is_url(target: str) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than a SQLite file."""
    return target.startswith(("postgresql://", "postgres://"))


class Database:
    """A connection; ``sql`` everywhere uses ``?`` placeholders."""

    def __init__(self, conn: Any, dialect: Dialect, target: str) -> None:
        self.conn = conn
        self.dialect: Dialect = dialect
        self.target = target
        self._texts: dict[str, str] = {}
        self._depth = 0
        self.wait = WAIT

    def _sql(self, sql: str) -> str:
        if self.dialect == "sqlite":
            return sql
        text = self._texts.get(sql)
        if text is None:
            text = self._texts[sql] = sql.replace("%", "%%").replace("?", "%s")
        return text

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement; returns the cursor."""
        try:
            return self.conn.execute(self._sql(sql), params)
        except Exception as exc:
            raise self._error(exc) from exc

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if not rows:
            return
        try:
            if self.dialect == "sqlite":
                self.conn.executemany(sql, rows)
            else:
                with self.conn.cursor() as cursor:
                    cursor.executemany(self._sql(sql), rows)
        except Exception as exc:
            raise self._error(exc) from exc

    def copy_rows(self, table: str, columns: str, rows: Sequence[Sequence[Any]]) -> None:
        """Append many rows to ``table`` (no conflicts expected): ``COPY`` on PostgreSQL,
        one prepared insert on SQLite."""
        if not rows:
            return
        if self.dialect == "sqlite":
            marks = ", ".join("?" * (columns.count(",") + 1))
            self.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)
            return
        try:
            with (
                self.conn.cursor() as cursor,
                cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy,
            ):
                for row in rows:
                    copy.write_row(row)
        except Exception as exc:
            raise self._error(exc) from exc

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        cursor = self.execute(sql, params)
        try:  # SQLite reads (and decodes) rows as they are fetched
            return [tuple(r) for r in cursor.fetchall()]
        except Exception as exc:
            raise self._error(exc) from exc

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        cursor = self.execute(sql, params)
        try:
            row = cursor.fetchone()
        except Exception as exc:
            raise self._error(exc) from exc
        return tuple(row) if row is not None else None

    def value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = self.one(sql, params)
        return None if row is None else row[0]

    def insert(self, sql: str, params: Sequence[Any]) -> int:
        """Run an ``INSERT ... RETURNING id`` and give the id."""
        row = self.one(sql, params)
        assert row is not None
        return int(row[0])

    @contextlib.contextmanager
    def transaction(self, lock: bool = False) -> Iterator[None]:
        """One transaction (nested calls join the outer one).  ``lock``: writers take
        turns (SQLite's write lock at once; a PostgreSQL advisory lock), so two imports
        into one archive never judge duplicates against each other's unfinished work."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._depth = 1
        try:
            if self.dialect == "sqlite":
                self.execute("BEGIN IMMEDIATE" if lock else "BEGIN")
                try:
                    yield
                except BaseException:
                    # SQLite may have rolled back already (a full disk, a damaged page)
                    with contextlib.suppress(sqlite3.Error):
                        self.conn.execute("ROLLBACK")
                    raise
                self.execute("COMMIT")
            else:
                with self.conn.transaction():
                    if lock:
                        self.execute("SELECT pg_advisory_xact_lock(7317)")
                    yield
        finally:
            self._depth = 0

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()

    def _error(self, exc: Exception) -> Exception:
        if isinstance(exc, ArchiveError):
            return exc
        if self.dialect == "sqlite":
            damage = damage_of(exc)
            if damage is not None:
                return DamagedArchiveError(self.target, damage)
            if _full(self.target, exc):
                return ArchiveFullError(f"no space left on device: {self.target}")
        if _busy(exc):
            return ArchiveBusyError(
                f"{self.target} is busy: another writer (an import?) held it for more than "
                f"{self.wait:g} s; try again in a few seconds"
            )
        what = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return ArchiveError(f"{self.target}: database error: {what}")


def _busy(exc: Exception) -> bool:
    """Whether an error says that another writer held the lock past the wait."""
    if isinstance(exc, sqlite3.OperationalError):
        return str(exc).startswith(("database is locked", "database table is locked"))
    errors = sys.modules.get("psycopg.errors")  # (loaded with psycopg, for PostgreSQL)
    return errors is not None and isinstance(exc, errors.LockNotAvailable)  # 55P03


def connect(target: str, create: bool, read_only: bool = False,
            wait: float = WAIT) -> Database:
    """Open the database ``target`` names (a SQLite path or a PostgreSQL URL).  A SQLite
    file that does not exist is made only when ``create`` is true; ``read_only``: the
    connection cannot change anything (see the module's docs); ``wait``: the seconds a
    write waits for another writer's transaction before :class:`ArchiveBusyError`."""
    if is_url(target):
        db = _postgresql(target, read_only)
        if wait != WAIT:  # (a command waits as long as it must)
            db.execute(f"SET lock_timeout = {int(wait * 1000)}")
    else:
        db = _sqlite(target, create and not read_only, read_only)
        db.execute(f"PRAGMA busy_timeout={int(wait * 1000)}")
    db.wait = wait
    return db


def _sqlite(path: str, create: bool, read_only: bool) -> Database:
    if not os.path.exists(path):
        if not create:
            raise ArchiveError(
                f"there is no archive at {path} (zrec archive import makes one; "
                "--db or ZREC_DB names another)"
            )
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise ArchiveError(f"cannot make the archive {path}: there is no folder {folder}")
    elif os.path.isdir(path):
        raise ArchiveError(f"{path} is a folder, not an archive file")
    folder = os.path.dirname(os.path.abspath(path))
    conn: sqlite3.Connection | None = None
    try:
        if read_only and not (os.access(path, os.W_OK) and os.access(folder, os.W_OK)):
            conn = _read_only(path, folder)
        elif read_only:
            # the file could be written: opened as usual (so that, as every connection
            # does, the last to close removes the write-ahead log), but it refuses to
            # change anything
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA query_only=ON")
        else:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA cache_size=-49152")  # up to 48 MB: memory stays flat
        conn.execute("PRAGMA temp_store=MEMORY")
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        if conn is not None:
            conn.close()
        raise _open_error(path, folder, exc) from None
    return Database(conn, "sqlite", path)


def _read_only(path: str, folder: str) -> sqlite3.Connection:
    """A read-only connection to the SQLite file ``path``: ``mode=ro``, or, when that
    cannot open it because ``folder`` cannot be written (SQLite needs to make the
    ``-shm`` file of a WAL database there), ``immutable``.  An immutable connection
    would not see commits still in the write-ahead log, so a ``-wal`` file that holds
    any is an error instead."""
    uri = "file:" + urllib.parse.quote(os.path.abspath(path))
    conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None,
                           check_same_thread=False)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError:
        conn.close()
        if os.access(folder, os.W_OK):
            raise
    wal = f"{path}-wal"
    if os.path.exists(wal) and os.path.getsize(wal) > 0:
        raise ArchiveError(
            f"cannot open the archive {path}: the folder {folder} cannot be written, and "
            f"{wal} holds commits that only a connection that can write there reads "
            "(copy the archive with its -wal file to a folder that can be written)"
        )
    conn = sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None,
                           check_same_thread=False)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except BaseException:
        conn.close()
        raise
    return conn


def _open_error(path: str, folder: str, exc: BaseException) -> ArchiveError:
    """What a failure to open the SQLite file ``path`` means."""
    if isinstance(exc, ArchiveError):
        return exc
    damage = damage_of(exc)
    if damage is not None:
        # a file that is no SQLite database at all was named by mistake
        with open(path, "rb") as stream:
            if stream.read(len(SQLITE_HEADER)) == SQLITE_HEADER:
                return DamagedArchiveError(path, damage)
        return ArchiveError(f"{path} is not a zrec archive: {exc}")
    if _full(path, exc):
        return ArchiveFullError(f"no space left on device: {path}")
    if isinstance(exc, sqlite3.OperationalError):
        why = "" if os.access(folder, os.W_OK) else f" (the folder {folder} cannot be written)"
        return ArchiveError(f"cannot open the archive {path}: {exc}{why}")
    return ArchiveError(f"cannot open the archive {path}: {exc}")


def _postgresql(url: str, read_only: bool) -> Database:
    try:
        import psycopg
    except ImportError:
        from zrec.archive.store.driver import driver_hint

        raise ArchiveError(
            "a PostgreSQL archive needs psycopg 3, which is not installed; install it "
            f"with: {driver_hint()}"
        ) from None
    shown = _hide_password(url)
    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=10)
    except (psycopg.Error, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        first = first.replace(url, shown)  # psycopg may quote the URL, password and all
        raise ArchiveError(f"cannot connect to {shown}: {first}") from None
    conn.execute("SET client_min_messages TO warning")
    if read_only:
        conn.execute("SET default_transaction_read_only = on")
    return Database(conn, "postgresql", shown)


def _hide_password(url: str) -> str:
    """The URL as messages show it: without its password (``user:password@`` or a
    ``password=`` parameter)."""
    url = re.sub(r"([?&]password=)[^&]*", r"\1***", url)
    head, sep, rest = url.partition("://")
    if "@" not in rest:
        return url
    user, _, host = rest.rpartition("@")
    return f"{head}{sep}{user.split(':', 1)[0]}@{host}"
