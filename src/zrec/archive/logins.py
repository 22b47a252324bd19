"""What ``zrec serve`` keeps in the archive for logging in: the key that signs its
session cookies, the sessions of logged-in users, and the recent failed logins.

Every worker process of the server reads these from the database, so they hold
across workers (and restarts):

- :func:`session_key`: the key that signs session cookies, 32 random bytes of
  :mod:`secrets`, made on first need and kept in the table ``meta`` (``session_key``);
  two workers that make one at once keep the first stored.  (``ZREC_SECRET``, read by
  the server, replaces it.)  It is never printed.
- :func:`start_session`, :func:`session_user`, :func:`end_session`: the sessions of
  logged-in users (table ``sessions``).  A session's id is 32 random bytes of
  :mod:`secrets`, carried by the user's signed cookie; the table keeps only its
  SHA-256 (as it does of API tokens), the user and when the session ends.  Looking a
  session up by that hash compares no secret byte by byte, so its time tells an
  attacker nothing about an id.  Logging out deletes the row; a new password and a
  removed user delete all of the user's (:mod:`zrec.archive.accounts`); starting a
  session deletes the rows that have expired (through an index on ``expires``).
- :func:`retry_after`, :func:`failed`, :func:`succeeded`: the limit on failed logins
  (table ``login_failures``): after :data:`LIMIT` failures in :data:`WINDOW` seconds
  for one name, or :data:`ADDRESS_LIMIT` from one client address, further attempts
  wait (even with the right password); a success clears the name's failures.
"""

from __future__ import annotations

import hashlib
import secrets
import time

from zrec.archive.accounts import AccountError, User, name_key
from zrec.archive.store import Archive

__all__ = [
    "ADDRESS_LIMIT", "LIFETIME", "LIMIT", "WINDOW", "end_session", "failed", "retry_after",
    "session_key", "session_user", "start_session", "succeeded",
]

#: how long a session lasts, in seconds (14 days)
LIFETIME = 14 * 24 * 3600

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


def _hash(session_id: str) -> str:
    return hashlib.sha256(session_id.encode("utf-8")).hexdigest()


def start_session(archive: Archive, name: str, now: float | None = None) -> tuple[str, int]:
    """A new session of the user ``name``: its id (for the cookie, not stored) and when
    it ends (seconds since 1970); the sessions that have ended are deleted."""
    now = time.time() if now is None else now
    session_id, expires = secrets.token_urlsafe(32), int(now) + LIFETIME
    with archive.db.transaction():
        archive.db.execute("DELETE FROM sessions WHERE expires <= ?", (now,))
        uid = archive.db.value("SELECT id FROM users WHERE norm = ?", (name_key(name),))
        if uid is None:
            raise AccountError(f'there is no user "{name}" in {archive.db.target}')
        archive.db.execute(
            "INSERT INTO sessions (hash, user_id, created, expires) VALUES (?, ?, ?, ?)",
            (_hash(session_id), int(uid), now, expires),
        )
    return session_id, expires


def session_user(archive: Archive, session_id: str, now: float | None = None) -> User | None:
    """The user of a session; ``None`` when there is no such session (ended, expired,
    or its user removed or given a new password)."""
    now = time.time() if now is None else now
    row = archive.db.one(
        "SELECT u.name, u.role, u.created FROM sessions s JOIN users u ON u.id = s.user_id "
        "WHERE s.hash = ? AND s.expires > ?",
        (_hash(session_id), now),
    )
    return None if row is None else User(str(row[0]), str(row[1]), str(row[2]))


def end_session(archive: Archive, session_id: str) -> None:
    """End a session (logging out); nothing for one that has ended already."""
    with archive.db.transaction():
        archive.db.execute("DELETE FROM sessions WHERE hash = ?", (_hash(session_id),))


def retry_after(archive: Archive, name: str, address: str, now: float | None = None) -> int:
    """Seconds until a login of ``name`` from ``address`` may be tried (0: now)."""
    now = time.time() if now is None else now
    since = now - WINDOW
    waits = [0]
    for column, key, limit in (("name", name_key(name), LIMIT),
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
            (name_key(name)[:256], address[:100], now),
        )


def succeeded(archive: Archive, name: str) -> None:
    """A login of ``name`` succeeded: its failures are forgotten."""
    with archive.db.transaction():
        archive.db.execute("DELETE FROM login_failures WHERE name = ?", (name_key(name),))
