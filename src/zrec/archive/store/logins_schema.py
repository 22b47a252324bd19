"""The statements of the archive's versions for logging in to ``zrec serve``
(:mod:`zrec.serve.sessions`, :mod:`zrec.serve.login`).

Version 7: ``login_failures`` keeps each failed login of ``zrec serve`` for a while:
the name tried (its key, as ``users.norm``), the client's address, and when (seconds
since 1970, UTC).  Every worker reads and writes the same rows, so the limit on failed
logins holds across workers.

Version 8: ``sessions`` has a row for each session of a logged-in user: the SHA-256
of its random id (the id itself is only in the user's cookie), the user, when it
started and when it ends (seconds since 1970, UTC).  Logging out deletes the row, a
new password or a removed user deletes all of the user's, so a copied cookie is no
longer a session on any worker.

The statements make the tables only where they are missing, so an archive turned back
to an older version by hand keeps them.
"""

from __future__ import annotations

__all__ = ["V7_LOGINS", "V8_SESSIONS"]

V7_LOGINS = """
CREATE TABLE IF NOT EXISTS login_failures (
    id {id},
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS login_failures_name ON login_failures (name, at);
CREATE INDEX IF NOT EXISTS login_failures_address ON login_failures (address, at)
"""

V8_SESSIONS = """
CREATE TABLE IF NOT EXISTS sessions (
    hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created DOUBLE PRECISION NOT NULL,
    expires DOUBLE PRECISION NOT NULL
){without_rowid};
CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id);
CREATE INDEX IF NOT EXISTS sessions_expires ON sessions (expires)
"""
