"""What ``zrec serve`` keeps in the archive for logging in: the key that signs its
session cookies, what a session is tied to, and the recent failed logins.

Every worker process of the server reads these from the database, so they hold
across workers (and restarts):

- :func:`session_key`: the key that signs session cookies, 32 random bytes of
  :mod:`secrets`, made on first need and kept in the table ``meta`` (``session_key``);
  two workers that make one at once keep the first stored.  (``ZREC_SECRET``, read by
  the server, replaces it.)  It is never printed.
- :func:`stamp_of`: a user and its *stamp*, a short digest of its password hash, kept
  in the session and compared on each request: a new password (``users password``)
  gives another stamp, and a removed user none, so their sessions end.
- :func:`retry_after`, :func:`failed`, :func:`succeeded`: the limit on failed logins
  (table ``login_failures``): after :data:`LIMIT` failures in :data:`WINDOW` seconds
  for one name, or :data:`ADDRESS_LIMIT` from one client address, further attempts
  wait (even with the right password); a success clears the name's failures.
"""

from __future__ import annotations

import hashlib
import secrets
import time

from zrec.archive.accounts import User, _norm, _row
from zrec.archive.store import Archive

__all__ = [
    "ADDRESS_LIMIT", "LIMIT", "WINDOW", "failed", "retry_after", "session_key", "stamp_of",
    "succeeded",
]

#: failed logins of one name that are allowed in :data:`WINDOW`
LIMIT = 5
#: failed logins from one client address (any names) allowed in :data:`WINDOW`
ADDRESS_LIMIT = 20
#: the window of the limit, in seconds (15 minutes)
WINDOW = 15 * 60
_KEY_NAME = "session_key"


def session_key(archive: Archive) -> bytes:
    """The archive's key for signing session cookies (made and stored on first need)."""
    found = archive.db.value("SELECT value FROM meta WHERE name = ?", (_KEY_NAME,))
    if found is None:
        with archive.db.transaction():
            archive.db.execute(
                "INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                (_KEY_NAME, secrets.token_urlsafe(32)),
            )
        found = archive.db.value("SELECT value FROM meta WHERE name = ?", (_KEY_NAME,))
    return str(found).encode("ascii")


def stamp_of(archive: Archive, name: str) -> tuple[User, str] | None:
    """The user ``name`` and the stamp of its present password; ``None`` for no such
    user."""
    row = _row(archive, name)
    if row is None:
        return None
    stamp = hashlib.sha256(row[3].encode("utf-8")).hexdigest()[:16]
    return User(row[1], row[2], row[4]), stamp


def retry_after(archive: Archive, name: str, address: str, now: float | None = None) -> int:
    """Seconds until a login of ``name`` from ``address`` may be tried (0: now)."""
    now = time.time() if now is None else now
    since = now - WINDOW
    waits = [0]
    for column, key, limit in (("name", _norm(name), LIMIT),
                               ("address", address, ADDRESS_LIMIT)):
        times = [float(r[0]) for r in archive.db.rows(
            f"SELECT at FROM login_failures WHERE {column} = ? AND at > ? ORDER BY at DESC",
            (key, since),
        )]
        if len(times) >= limit:  # free again when the limit-th newest leaves the window
            waits.append(int(times[limit - 1] + WINDOW - now) + 1)
    return max(waits)


def failed(archive: Archive, name: str, address: str, now: float | None = None) -> None:
    """Note a failed login (and forget those older than the window)."""
    now = time.time() if now is None else now
    with archive.db.transaction():
        archive.db.execute("DELETE FROM login_failures WHERE at <= ?", (now - WINDOW,))
        archive.db.execute(
            "INSERT INTO login_failures (name, address, at) VALUES (?, ?, ?)",
            (_norm(name)[:256], address[:100], now),
        )


def succeeded(archive: Archive, name: str) -> None:
    """A login of ``name`` succeeded: its failures are forgotten."""
    with archive.db.transaction():
        archive.db.execute("DELETE FROM login_failures WHERE name = ?", (_norm(name),))
