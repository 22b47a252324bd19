"""One connection to an archive's database, SQLite or PostgreSQL, and the few places
where the two differ.

SQLite comes with Python (:mod:`sqlite3`); PostgreSQL is reached with psycopg 3, loaded
only for a ``postgresql://`` URL.  SQL is written once, with ``?`` placeholders (this
module rewrites them as ``%s`` for psycopg) and with the column types both accept.  A
SQLite archive is opened in WAL mode with foreign keys on and ``synchronous=NORMAL``: a
killed process loses no committed transaction, and readers never wait for a writer.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal

from zrec.errors import ZrecError

__all__ = ["ArchiveError", "Database", "connect", "is_url"]

Dialect = Literal["sqlite", "postgresql"]
Row = tuple[Any, ...]


class ArchiveError(ZrecError):
    """An archive that cannot be opened or used: the message says which and why."""


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
        return [tuple(r) for r in self.execute(sql, params).fetchall()]

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row = self.execute(sql, params).fetchone()
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
        what = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return ArchiveError(f"{self.target}: database error: {what}")


def connect(target: str, create: bool) -> Database:
    """Open the database ``target`` names (a SQLite path or a PostgreSQL URL).  A SQLite
    file that does not exist is made only when ``create`` is true."""
    if is_url(target):
        return _postgresql(target)
    return _sqlite(target, create)


def _sqlite(path: str, create: bool) -> Database:
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
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA cache_size=-524288")  # up to 512 MB: the position index
        conn.execute("PRAGMA temp_store=MEMORY")
        conn.execute("PRAGMA busy_timeout=600000")  # a writer waits out a batch of others
    except sqlite3.OperationalError as exc:
        folder = os.path.dirname(os.path.abspath(path))
        why = "" if os.access(folder, os.W_OK) else f" (the folder {folder} cannot be written)"
        raise ArchiveError(f"cannot open the archive {path}: {exc}{why}") from None
    except sqlite3.DatabaseError as exc:
        raise ArchiveError(f"{path} is not a zrec archive: {exc}") from None
    except sqlite3.Error as exc:
        raise ArchiveError(f"cannot open the archive {path}: {exc}") from None
    return Database(conn, "sqlite", path)


def _postgresql(url: str) -> Database:
    try:
        import psycopg
    except ImportError:
        raise ArchiveError(
            "a PostgreSQL archive needs psycopg 3: pip install 'zrec[postgresql]'"
        ) from None
    shown = _hide_password(url)
    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=10)
    except (psycopg.Error, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        first = first.replace(url, shown)  # psycopg may quote the URL, password and all
        raise ArchiveError(f"cannot connect to {shown}: {first}") from None
    conn.execute("SET client_min_messages TO warning")
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
