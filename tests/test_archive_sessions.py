"""The last admin and the sessions of ``zrec serve`` in the archive: ``zrec archive
users remove`` keeps the only admin; a session (:mod:`zrec.serve.sessions`) ends when
logged out, expired, or its user given a new password or removed; an archive of
version 7 gains the table ``sessions``.  On a real SQLite file and on PostgreSQL
(``db_url``), through the commands as a user types them."""

from __future__ import annotations

import hashlib
import re
import time

import pytest

from test_archive_users import OTHER, PASSWORD, cheap, db, listed, ok, refused, users
from zrec.archive import Archive
from zrec.archive.store.schema import VERSION
from zrec.serve.accounts import authenticate
from zrec.serve.sessions import LIFETIME, end_session, session_user, start_session

__all__ = ["cheap", "db"]  # (the fixtures this module's tests use)


@pytest.mark.usefixtures("cheap")
def test_the_only_admin_is_not_removed(db: str) -> None:
    ok("add", "Ada", "--role", "admin", "--db", db, stdin=PASSWORD + "\n")
    ok("add", "bob", "--db", db, stdin=PASSWORD + "\n")
    target = db if "://" not in db else re.sub(r"//([^:@/]*)(:[^@]*)?@", r"//\1@", db)
    message = (f'"Ada" is the only admin of {target} and cannot be removed: add another '
               "admin first (zrec archive users add NAME --role admin)")
    refused(users("remove", "ADA", "--db", db), message)
    assert [u["name"] for u in listed(db)] == ["Ada", "bob"]
    ok("add", "Cy", "--role", "admin", "--db", db, stdin=PASSWORD + "\n")
    assert ok("remove", "ada", "--db", db) == 'removed the user "Ada" (admin, 0 tokens)\n'
    refused(users("remove", "cy", "--db", db), message.replace('"Ada"', '"Cy"'))
    assert ok("remove", "bob", "--db", db) == 'removed the user "bob" (editor, 0 tokens)\n'
    assert [u["name"] for u in listed(db)] == ["Cy"]


@pytest.mark.usefixtures("cheap")
def test_a_new_password_or_a_removal_ends_the_users_sessions(db: str) -> None:
    ok("add", "Ada", "--role", "admin", "--db", db, stdin=PASSWORD + "\n")
    ok("add", "bob", "--db", db, stdin=PASSWORD + "\n")
    now = time.time()
    with Archive.open(db) as archive:
        ids = [start_session(archive, name, now)[0] for name in ("bob", "BOB", "Ada")]
        old, ends = start_session(archive, "bob", now - LIFETIME - 1)
        assert ends == int(now) - 1
        found = [session_user(archive, i) for i in ids]
        assert [u.name if u is not None else None for u in found] == ["bob", "bob", "Ada"]
        assert session_user(archive, old) is None  # expired
        # the ids are not stored; starting a session deletes those that have expired
        for value, count in ((ids[0], 0), (hashlib.sha256(ids[0].encode()).hexdigest(), 1)):
            assert archive.db.value("SELECT count(*) FROM sessions WHERE hash = ?",
                                    (value,)) == count
        start_session(archive, "Ada", now)
        assert archive.db.value("SELECT count(*) FROM sessions") == 4
    ok("password", "bob", "--db", db, stdin=OTHER + "\n")
    with Archive.open(db) as archive:
        assert [session_user(archive, i) is None for i in ids] == [True, True, False]
        end_session(archive, ids[2])
        assert session_user(archive, ids[2]) is None
        kept = start_session(archive, "bob", now)[0]
    ok("remove", "bob", "--db", db)
    with Archive.open(db) as archive:
        assert session_user(archive, kept) is None
        assert archive.db.value("SELECT count(*) FROM sessions") == 1  # Ada's other one


@pytest.mark.usefixtures("cheap")
def test_an_archive_of_version_7_gains_the_sessions_and_keeps_its_users(db: str) -> None:
    ok("add", "Ada", "--role", "admin", "--db", db, stdin=PASSWORD + "\n")
    with Archive.open(db) as archive:
        archive.db.execute("DROP TABLE sessions")
        archive.db.execute("UPDATE meta SET value = '7' WHERE name = 'schema'")
    assert [u["name"] for u in listed(db)] == ["Ada"]  # (read-only: brought up to date)
    with Archive.open(db) as archive:
        assert archive.db.value("SELECT value FROM meta WHERE name = 'schema'") == str(VERSION)
        started, _ = start_session(archive, "ada")
        assert session_user(archive, started) == authenticate(archive, "Ada", PASSWORD)
