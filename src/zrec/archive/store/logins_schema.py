"""The statements of the archive's version of login failures (:mod:`zrec.archive.logins`).

``login_failures`` keeps each failed login of ``zrec serve`` for a while: the name
tried (its key, as ``users.norm``), the client's address, and when (seconds since
1970, UTC).  Every worker reads and writes the same rows, so the limit on failed
logins holds across workers.  The statements make the table only where it is
missing, so an archive turned back to an older version by hand keeps it.
"""

from __future__ import annotations

__all__ = ["V7_LOGINS"]

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
