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
- :func:`begin_login`, :func:`succeeded`: the limits on failed logins (table
  ``login_failures``), as the OWASP Authentication Cheat Sheet advises them, so that a
  stranger cannot lock the right user out.  Each failure is kept with the name tried
  and the *client*: the client's address, or, for a browser the name has logged in
  from before (its signed device cookie, ``zrec.serve.sessions``), that device.  In
  :data:`WINDOW` seconds a client may fail :data:`LIMIT` times for one name, an
  address :data:`ADDRESS_LIMIT` times for any names, and a name :data:`NAME_LIMIT`
  times from clients it never logged in from (many addresses guessing one password);
  past a limit those clients wait (even with the right password), and no other.  A
  known device is held only by its own failures, so the real user's browser logs in
  whatever others try.  An attempt is counted *before* its password is checked (a row
  noted under a lock, deleted when the password was right), so attempts made at once
  are counted as they come: 40 at once for one name check at most :data:`LIMIT`
  passwords.  A success forgets that client's failures for the name.
"""

from __future__ import annotations

import hashlib
import secrets
import time

from zrec.archive.accounts import AccountError, User, name_key
from zrec.archive.store import Archive

__all__ = [
    "ADDRESS_LIMIT", "DEVICE", "LIFETIME", "LIMIT", "NAME_LIMIT", "WINDOW", "begin_login",
    "end_session", "retry_after", "session_key", "session_user", "start_session",
    "succeeded",
]

#: how long a session lasts, in seconds (14 days)
LIFETIME = 14 * 24 * 3600

#: failed logins of one name from one client (an address, or a known device) that are
#: allowed in :data:`WINDOW`
LIMIT = 5
#: failed logins from one client address (any names) allowed in :data:`WINDOW`
ADDRESS_LIMIT = 20
#: failed logins of one name from all the clients it never logged in from (any
#: addresses) allowed in :data:`WINDOW`; a device it logged in from is not held by them
NAME_LIMIT = 20
#: what the client of a failure from a known device starts with (the rest: the SHA-256
#: of the device's id), in the column ``address``
DEVICE = "device:"
#: the PostgreSQL advisory lock under which attempts are counted (SQLite: its write lock)
_COUNTING_LOCK = 7318
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


def _client(address: str, device: str | None) -> str:
    """The client of a failure: the device (by its id's hash), else the address."""
    if device is not None:
        return DEVICE + hashlib.sha256(device.encode("utf-8", "surrogatepass")).hexdigest()
    return address[:100]


def _wait(archive: Archive, column: str, key: str, limit: int, since: float, now: float,
          more: str = "", params: tuple[str, ...] = ()) -> int:
    """Seconds until the failures of ``column = key`` (and ``more``) are fewer than
    ``limit`` in the window (0: they are)."""
    times = [float(r[0]) for r in archive.db.rows(
        f"SELECT at FROM login_failures WHERE {column} = ? AND at > ?{more} "
        "ORDER BY at DESC LIMIT ?",
        (key, since, *params, limit),
    )]
    if len(times) < limit:
        return 0
    return int(times[limit - 1] + WINDOW - now) + 1  # free when the limit-th newest leaves


def retry_after(archive: Archive, name: str, address: str, device: str | None = None,
                now: float | None = None) -> int:
    """Seconds until a login of ``name`` from ``address`` (``device``: the id of a
    device ``name`` has logged in from, else ``None``) may be tried (0: now)."""
    now = time.time() if now is None else now
    since, key, client = now - WINDOW, name_key(name)[:256], _client(address, device)
    waits = [_wait(archive, "name", key, LIMIT, since, now, " AND address = ?", (client,))]
    if device is None:
        waits.append(_wait(archive, "address", client, ADDRESS_LIMIT, since, now))
        waits.append(_wait(archive, "name", key, NAME_LIMIT, since, now,
                           " AND address NOT LIKE ?", (DEVICE + "%",)))
    return max(waits)


def begin_login(archive: Archive, name: str, address: str, device: str | None = None,
                now: float | None = None) -> tuple[int, int]:
    """Count a login before its password is checked: ``(0, attempt)`` when the password
    may be checked (the attempt, a row, counts as a failure until :func:`succeeded`
    deletes it), ``(seconds, 0)`` when the client must wait that long first.  The
    attempts are counted one at a time (a lock), so logins made at once cannot all
    pass the limits before any of them is noted."""
    now = time.time() if now is None else now
    db = archive.db
    with db.transaction(lock=db.dialect == "sqlite"):
        if db.dialect == "postgresql":
            db.execute("SELECT pg_advisory_xact_lock(?)", (_COUNTING_LOCK,))
        wait = retry_after(archive, name, address, device, now)
        if wait:
            return wait, 0
        db.execute("DELETE FROM login_failures WHERE at <= ?", (now - WINDOW,))
        attempt = db.insert(
            "INSERT INTO login_failures (name, address, at) VALUES (?, ?, ?) RETURNING id",
            (name_key(name)[:256], _client(address, device), now),
        )
    return 0, attempt


def succeeded(archive: Archive, name: str, address: str, device: str | None,
              attempt: int) -> None:
    """The login ``attempt`` of ``name`` succeeded: it is no failure, and that client's
    failures for the name are forgotten (not other clients')."""
    with archive.db.transaction():
        archive.db.execute("DELETE FROM login_failures WHERE id = ? OR (name = ? AND "
                           "address = ?)", (attempt, name_key(name)[:256],
                                            _client(address, device)))
