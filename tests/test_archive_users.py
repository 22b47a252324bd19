"""Accounts: ``zrec archive users`` (add, list, remove, password, token and --revoke),
the library the server calls (:mod:`zrec.serve.accounts`: authenticate,
user_for_token), the password hashes, and the migration that adds the tables.

Every test that uses an archive runs on a real SQLite file and on PostgreSQL
(``db_url``); the terminal's hidden input is driven through a real pseudo-terminal."""

from __future__ import annotations

import base64
import datetime
import hashlib
import json
import os
import pty
import re
import select
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from old_rows import rows_back_to_v3
from zrec.archive import Archive
from zrec.archive.store.schema import MIGRATIONS, VERSION
from zrec.cli import app
from zrec.serve import accounts
from zrec.serve.accounts import (
    User,
    authenticate,
    expired_token,
    hash_password,
    list_users,
    new_token,
    user_for_token,
    verify_password,
)

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
PASSWORD = "correct horse battery"
OTHER = "staple 2nd password"
#: the schema version whose migration makes the accounts' tables
ACCOUNTS = next(v for v, script in MIGRATIONS.items() if "EXISTS users (" in script)
HASH = re.compile(r"scrypt\$16384\$8\$5\$([A-Za-z0-9_-]{22})\$([A-Za-z0-9_-]{43})")
CREATED = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00")

runner = CliRunner()


def users(*args: str, stdin: str | None = None) -> Result:
    return runner.invoke(app, ["archive", "users", *args], input=stdin)


def ok(*args: str, stdin: str | None = None) -> str:
    result = users(*args, stdin=stdin)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    assert result.stderr == ""
    return str(result.stdout)


#: what ``users token`` says on standard error of the token it made
EXPIRES = re.compile(r'zrec: the token of "[^"]+" expires on (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d'
                     r'\+00:00) \(in (\d+) days?\)\n')


def made_token(*args: str) -> str:
    """A new token (``users token ARGS``): standard output, after checking that
    standard error says when it expires."""
    result = users("token", *args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    assert EXPIRES.fullmatch(result.stderr), result.stderr
    return str(result.stdout)


def refused(result: Result, message: str) -> None:
    """Exit code 2, exactly ``zrec: message`` on standard error, no traceback."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr == f"zrec: {message}\n"
    assert result.stdout == ""
    assert isinstance(result.exception, SystemExit)


def listed(db: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(ok("list", "--db", db, "--format", "json"))
    return found


@pytest.fixture
def db(db_url: str) -> str:
    """An archive of the samples (15 games), no users yet."""
    done = runner.invoke(app, ["archive", "import", "-q", "--db", db_url,
                               *map(str, sorted(SAMPLES.glob("*.zrec")))])
    assert done.exit_code == 0, done.stderr
    return db_url


@pytest.fixture
def cheap(monkeypatch: pytest.MonkeyPatch) -> None:
    """New hashes of a lower cost (N=2^10, p=1), for the tests of the commands' flow: a
    hash says its own parameters, so it checks the same (the tests of the cost itself,
    of the hash's form and of what is kept use the real one)."""
    monkeypatch.setattr(accounts, "SCRYPT_N", 2**10)
    monkeypatch.setattr(accounts, "SCRYPT_P", 1)


@pytest.mark.usefixtures("cheap")
def test_every_command_on_a_real_archive(db: str) -> None:
    assert ok("list", "--db", db) == "no users (zrec archive users add NAME adds one)\n"
    assert listed(db) == []
    assert ok("add", "Ada", "--role", "admin", "--db", db, stdin=PASSWORD + "\n") == (
        'added the user "Ada" (admin)\n'
    )
    # the role is editor unless told; a line ending of Windows is no part of the password
    assert ok("add", "bob", "--db", db, stdin=OTHER + "\r\n") == 'added the user "bob" (editor)\n'
    [ada, bob] = listed(db)
    assert CREATED.fullmatch(ada["created"]) and CREATED.fullmatch(bob["created"])
    assert (ada | {"created": ""}, bob | {"created": ""}) == (
        {"name": "Ada", "role": "admin", "created": "", "tokens": 0, "tokens_expire": []},
        {"name": "bob", "role": "editor", "created": "", "tokens": 0, "tokens_expire": []},
    )
    tokens = [made_token("ada", "--db", db) for _ in range(2)]
    assert all(re.fullmatch(r"zrec_[A-Za-z0-9_-]{43}\n", t) for t in tokens)
    assert tokens[0] != tokens[1]
    [ada] = [u for u in listed(db) if u["name"] == "Ada"]
    expires = ada["tokens_expire"]
    assert len(expires) == 2 and all(CREATED.fullmatch(e) for e in expires)
    assert ok("list", "--db", db).splitlines() == [
        "name  role    created                    tokens  next token expires",
        f"Ada   admin   {ada['created']}       2  {expires[0]}",
        f"bob   editor  {bob['created']}       0  -",
    ]
    with Archive.open(db) as archive:
        for token in tokens:
            assert user_for_token(archive, token.strip()) == User("Ada", "admin", ada["created"])
        assert authenticate(archive, "bob", OTHER) == User("bob", "editor", bob["created"])
    assert ok("token", "ADA", "--revoke", "--db", db) == 'revoked 2 tokens of "Ada"\n'
    assert ok("token", "bob", "--revoke", "--db", db) == 'revoked 0 tokens of "bob"\n'
    with Archive.open(db) as archive:
        assert [user_for_token(archive, t.strip()) for t in tokens] == [None, None]
    assert ok("password", "bob", "--db", db, stdin=PASSWORD + "\n") == (
        'changed the password of "bob"\n'
    )
    kept = made_token("bob", "--db", db).strip()
    with Archive.open(db) as archive:
        assert authenticate(archive, "bob", OTHER) is None
        assert authenticate(archive, "bob", PASSWORD) is not None
    assert ok("remove", "BOB", "--db", db) == 'removed the user "bob" (editor, 1 token)\n'
    assert [u["name"] for u in listed(db)] == ["Ada"]
    with Archive.open(db) as archive:
        assert authenticate(archive, "bob", PASSWORD) is None
        assert user_for_token(archive, kept) is None  # its tokens went with it
        assert archive.count() == 15  # the games stay
        assert archive.db.value("SELECT count(*) FROM user_tokens") == 0


@pytest.mark.usefixtures("cheap")
def test_authenticate_and_the_tokens_the_server_asks_about(db: str) -> None:
    ok("add", "Ada Lovelace", "--db", db, stdin=PASSWORD + "\n")
    with Archive.open(db) as archive:
        user = authenticate(archive, "ada lovelace", PASSWORD)  # names without case
        assert user is not None and (user.name, user.role) == ("Ada Lovelace", "editor")
        assert user.may("import") and user.may("record")
        assert not user.may("remove") and not user.may("users")
        assert authenticate(archive, "Ada Lovelace", PASSWORD.upper()) is None
        assert authenticate(archive, "Ada Lovelace", PASSWORD[:-1]) is None
        assert authenticate(archive, "Ada Lovelace", "") is None
        assert authenticate(archive, "Ada", PASSWORD) is None
        assert authenticate(archive, "x" * 10_000, PASSWORD) is None
        assert authenticate(archive, "Ada Lovelace", PASSWORD * 1000) is None
        token = new_token(archive, "Ada Lovelace")
        assert user_for_token(archive, token) == user
        for wrong in (token[:-1], token + "A", token[:-1] + ("A" if token[-1] != "A" else "B"),
                      token.removeprefix("zrec_"), "", "zrec_" + "A" * 43):
            assert user_for_token(archive, wrong) is None, wrong
        assert User("x", "admin", "").may("remove") and User("x", "admin", "").may("users")


def test_an_unknown_name_costs_a_whole_hash_too(tmp_path: Path) -> None:
    db = str(tmp_path / "club.sqlite")
    with Archive.open(db, create=True) as archive:
        accounts.add_user(archive, "ada", "editor", PASSWORD)
        spent = []  # CPU time, so that a busy machine is fair
        for name in ("ada", "nobody at all", "ada", "nobody at all"):
            start = time.process_time()
            assert authenticate(archive, name, OTHER) is None
            spent.append(time.process_time() - start)
    known, unknown = spent[0] + spent[2], spent[1] + spent[3]
    assert 0.5 < unknown / known < 2, spent


def test_the_hash_is_scrypt_described_in_the_string() -> None:
    stored = hash_password(PASSWORD)
    found = HASH.fullmatch(stored)
    assert found is not None, stored
    salt, key = (base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
                 for part in found.groups())
    assert len(salt) == 16
    assert key == hashlib.scrypt(PASSWORD.encode(), salt=salt, n=2**14, r=8, p=5,
                                 maxmem=2**26, dklen=32)
    assert hash_password(PASSWORD) != stored  # a new salt each time
    assert verify_password(PASSWORD, stored) and not verify_password(OTHER, stored)
    # the parameters are read from the string: a hash made with others still checks
    cheap = hashlib.scrypt(PASSWORD.encode(), salt=salt, n=2**10, r=4, p=1, dklen=32)
    older = f"scrypt$1024$4$1${found.group(1)}${base64.urlsafe_b64encode(cheap).decode()[:43]}"
    assert verify_password(PASSWORD, older) and not verify_password(OTHER, older)
    for damaged in ("", "bcrypt$x", stored[:-2], stored.replace("$16384$", "$abc$"),
                    stored.replace("$16384$", f"${2**30}$")):
        assert not verify_password(PASSWORD, damaged), damaged
    # a password is read as Unicode NFKC: full-width letters are the same password
    assert verify_password("ｃｏｒｒｅｃｔ ｈｏｒｓｅ ｂａｔｔｅｒｙ", stored)


def test_no_password_hash_or_token_is_kept_or_shown(tmp_path: Path) -> None:
    db = str(tmp_path / "club.sqlite")
    outputs = [runner.invoke(app, ["archive", "import", "-q", "--db", db,
                                   str(SAMPLES / "tournament.zrec")])]
    outputs.append(users("add", "ada", "--role", "admin", "--db", db, stdin=PASSWORD + "\n"))
    outputs.append(users("password", "ada", "--db", db, stdin=OTHER + "\n"))
    outputs.append(users("add", "bob", "--db", db, stdin=PASSWORD[:5] + "\n"))  # too short
    outputs.append(users("token", "ada", "--db", db))
    token = outputs[-1].stdout.strip()
    outputs += [users("list", "--db", db), users("list", "--format", "json", "--db", db)]
    with sqlite3.connect(db) as conn:
        [(stored,)] = conn.execute("SELECT password FROM users").fetchall()
        [(hashed,)] = conn.execute("SELECT hash FROM user_tokens").fetchall()
    assert HASH.fullmatch(stored) and hashed == hashlib.sha256(token.encode()).hexdigest()
    kept = b"".join(p.read_bytes() for p in tmp_path.glob("club.sqlite*"))
    for secret in (PASSWORD, OTHER, PASSWORD[:5] + "\n", token):
        assert secret.encode() not in kept, secret
    shown = "".join(r.stdout + r.stderr for r in outputs)
    for secret in (PASSWORD, OTHER, PASSWORD[:5], stored, stored.split("$")[-1], hashed):
        assert secret not in shown, secret


@pytest.mark.usefixtures("cheap")
def test_clear_errors_exit_2_and_change_nothing(db: str, tmp_path: Path) -> None:
    ok("add", "Ada", "--db", db, stdin=PASSWORD + "\n")
    target = db if "://" not in db else re.sub(r"//([^:@/]*)(:[^@]*)?@", r"//\1@", db)
    refused(users("add", "ADA", "--db", db, stdin=PASSWORD + "\n"),
            f'there is already a user "Ada" in {target}')
    for command in (("remove", "bob"), ("password", "bob"), ("token", "bob"),
                    ("token", "bob", "--revoke")):
        refused(users(*command, "--db", db, stdin=PASSWORD + "\n"),
                f'there is no user "bob" in {target} (zrec archive users list lists them)')
    refused(users("add", "bob", "--db", db, stdin="seven c\n"),
            "the password is too short: it needs at least 8 characters")
    refused(users("password", "Ada", "--db", db, stdin="\n"),
            "the password is too short: it needs at least 8 characters")
    refused(users("add", "bob", "--db", db, stdin=""),
            "no password on standard input (a line is read from it when it is not a terminal)")
    refused(users("add", "bob", "--role", "owner", "--db", db),
            "--role is editor or admin, not 'owner'")
    for name in ("", " bob", "bob ", "b\tob", "x" * 65):
        refused(users("add", name, "--db", db, stdin=PASSWORD + "\n"),
                "a user name is 1 to 64 printable characters without spaces at either end, "
                f"not {name!r}")
    refused(users("list", "--format", "csv", "--db", db), "--format is text or json, not 'csv'")
    missing = str(tmp_path / "none.sqlite")
    for nowhere in (("add", "bob"), ("list",), ("remove", "Ada"), ("password", "Ada"),
                    ("token", "Ada"), ("token", "Ada", "--revoke")):
        refused(users(*nowhere, "--db", missing, stdin=PASSWORD + "\n"),
                f"there is no archive at {missing} (zrec archive import makes one; --db or "
                "ZREC_DB names another)")
    assert not os.path.exists(missing)
    assert [u["name"] for u in listed(db)] == ["Ada"]
    with Archive.open(db) as archive:
        assert authenticate(archive, "Ada", PASSWORD) is not None  # unchanged


def _terminal(args: list[str], answers: list[str]) -> tuple[int, str]:
    """Run ``zrec ARGS`` on a pseudo-terminal, typing each answer after a prompt."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: zrec, with the terminal as its own
        os.execv(sys.executable, [sys.executable, "-m", "zrec", *args])
    out, typed, seen = b"", 0, 0
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    data = os.read(fd, 4096)
                except OSError:  # the child has gone
                    break
                if not data:
                    break
                out += data
            if typed < len(answers) and out[seen:].rstrip(b" ").endswith(b":"):
                # "\x04" alone is Ctrl-D, the end of input
                answer = answers[typed]
                os.write(fd, b"\x04" if answer == "\x04" else answer.encode() + b"\n")
                typed, seen = typed + 1, len(out)
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    return os.waitstatus_to_exitcode(status), out.decode().replace("\r\n", "\n")


def test_a_password_is_asked_twice_unseen_on_a_terminal(tmp_path: Path) -> None:
    db = str(tmp_path / "club.sqlite")
    subprocess.run([sys.executable, "-m", "zrec", "archive", "import", "-q", "--db", db,
                    str(SAMPLES / "tournament.zrec")], check=True)
    # what is typed is not shown (echo off): each prompt, then the line's end
    prompts = 'New password for "ada": \nThe same password again: \n'
    assert _terminal(["archive", "users", "add", "ada", "--db", db], [PASSWORD, PASSWORD]) == (
        0, f'{prompts}added the user "ada" (editor)\n'
    )
    assert _terminal(["archive", "users", "password", "ada", "--db", db], [OTHER, PASSWORD]) == (
        2, f"{prompts}zrec: the two passwords differ: nothing was changed\n"
    )
    assert _terminal(["archive", "users", "password", "ada", "--db", db], ["short"]) == (
        2, 'New password for "ada": \nzrec: the password is too short: it needs at least 8 '
        "characters\n"
    )
    assert _terminal(["archive", "users", "password", "ada", "--db", db], ["\x04"]) == (
        2, 'New password for "ada": \nzrec: no password given: nothing was changed\n'
    )
    # bytes that are not UTF-8, on standard input
    done = subprocess.run([sys.executable, "-m", "zrec", "archive", "users", "password", "ada",
                           "--db", db], input=b"\xff\xfe not text\n", capture_output=True)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, b"", b"zrec: the password is not UTF-8 text\n"
    )
    with Archive.open(db) as archive:
        assert authenticate(archive, "ada", PASSWORD) is not None
        assert authenticate(archive, "ada", "\udcff\udcfe not text") is None


@pytest.mark.usefixtures("cheap")
@pytest.mark.parametrize("version", [ACCOUNTS - 1, 3])
def test_an_archive_from_before_accounts_gains_them_and_keeps_its_games(
    db: str, version: int
) -> None:
    search = ["archive", "search", "--db", db, "--format", "json"]
    before = runner.invoke(app, search).stdout
    with Archive.open(db) as archive:
        # back to the version before accounts: their tables and every later one go
        for table in ("sessions", "user_tokens", "users", "tree_lines"):
            archive.db.execute(f"DROP TABLE {table}")
        archive.db.execute(
            "UPDATE meta SET value = ? WHERE name = 'schema'", (str(ACCOUNTS - 1),)
        )
        if version == 3:
            rows_back_to_v3(archive)
    # a command that only reads brings it up to date first
    assert ok("list", "--db", db) == "no users (zrec archive users add NAME adds one)\n"
    with Archive.open(db) as archive:
        assert archive.db.value("SELECT value FROM meta WHERE name = 'schema'") == str(VERSION)
        assert archive.count() == 15
        assert list_users(archive) == []
    assert runner.invoke(app, search).stdout == before
    ok("add", "ada", "--db", db, stdin=PASSWORD + "\n")
    with Archive.open(db) as archive:
        assert authenticate(archive, "ada", PASSWORD) is not None


def test_users_list_loads_the_accounts_and_no_reader_or_rules(tmp_path: Path) -> None:
    from test_startup_imports import NEVER, imported, modules_of

    db = str(tmp_path / "club.sqlite")
    subprocess.run([sys.executable, "-m", "zrec", "archive", "import", "-q", "--db", db,
                    str(SAMPLES / "tournament.zrec")], check=True)
    modules = modules_of(tmp_path, "archive", "users", "list", "--db", db)
    assert imported(modules, "zrec.serve.accounts", "zrec.cli.archive_users") == [
        "zrec.serve.accounts", "zrec.cli.archive_users",
    ]
    # the accounts are the server's, and nothing else of it, nor the web, is loaded
    assert sorted(m for m in modules if m.startswith("zrec.serve")) == [
        "zrec.serve", "zrec.serve.accounts"]
    unused = ("lark", "rich", "zrec.notation", "zrec.rules", "zrec.play", "zrec.check",
              "zrec.cli.archive_find", "zrec.cli.archive_event")
    assert imported(modules, *(n for n in NEVER if n != "zrec.serve"), *unused) == []


@pytest.mark.usefixtures("cheap")
def test_a_token_expires_and_is_then_refused_in_words(db: str) -> None:
    """A token lasts 90 days unless ``--days`` says otherwise; past its expiry the
    server refuses it (401, saying when it expired); the list shows when the next one
    expires; a new token deletes the user's expired ones."""
    from fastapi.testclient import TestClient

    from zrec.serve import create_app

    ok("add", "Ada", "--role", "admin", "--db", db, stdin=PASSWORD + "\n")
    before = time.time()
    short = users("token", "ada", "--days", "1", "--db", db)
    day = EXPIRES.fullmatch(short.stderr)
    assert day is not None and day[2] == "1"
    assert short.stderr.endswith("(in 1 day)\n")
    usual = users("token", "ada", "--db", db)
    ends = EXPIRES.fullmatch(usual.stderr)
    assert ends is not None and ends[2] == "90"
    expected = datetime.datetime.fromtimestamp(int(before) + 90 * 86400, datetime.timezone.utc)
    assert abs(datetime.datetime.fromisoformat(ends[1]) - expected).total_seconds() <= 2
    for days in ("0", "3661"):
        wrong = users("token", "ada", "--days", days, "--db", db)
        assert wrong.exit_code == 2 and "Invalid value for '--days'" in wrong.stderr
    listed_ada = listed(db)[0]
    assert listed_ada["tokens"] == 2 and listed_ada["tokens_expire"][1] == ends[1]
    first = listed_ada["tokens_expire"][0]
    assert ok("list", "--db", db).splitlines()[1].endswith(f"       2  {first}")
    with Archive.open(db) as archive:
        assert user_for_token(archive, short.stdout.strip()) is not None
        later = time.time() + 86400 + 5
        assert user_for_token(archive, short.stdout.strip(), later) is None
        assert expired_token(archive, short.stdout.strip(), later) == first
        assert expired_token(archive, usual.stdout.strip(), later) is None
        assert list_users(archive, later)[0].tokens == 1
        # the short token's day is over
        archive.db.execute("UPDATE user_tokens SET expires = expires - 86400 - 5 "
                           "WHERE expires < ?", (before + 2 * 86400,))
    with TestClient(create_app(db)) as client:
        valid = client.post("/api/games", content=b"",
                            headers={"Authorization": f"Bearer {usual.stdout.strip()}"})
        assert valid.status_code == 200 and valid.json()["read"] == 0
        answer = client.post("/api/games", content=b"",
                             headers={"Authorization": f"Bearer {short.stdout.strip()}"})
        gone = datetime.datetime.fromisoformat(first) - datetime.timedelta(seconds=86405)
        assert answer.json() == {"error": {"code": "bad-token", "message": (
            f"the API token expired on {gone.isoformat(timespec='seconds')} (UTC): zrec "
            "archive users token NAME makes a new one")}}
    made_token("ada", "--db", db)  # a new token: the expired one's row goes
    with Archive.open(db) as archive:
        assert archive.db.value("SELECT count(*) FROM user_tokens") == 2
        assert expired_token(archive, short.stdout.strip()) is None


@pytest.mark.usefixtures("cheap")
def test_the_tokens_of_an_archive_of_version_9_are_given_90_days(db: str) -> None:
    ok("add", "Ada", "--role", "admin", "--db", db, stdin=PASSWORD + "\n")
    kept = made_token("ada", "--db", db).strip()
    with Archive.open(db) as archive:  # back to version 9: tokens without an expiry
        archive.db.execute("ALTER TABLE user_tokens DROP COLUMN expires")
        archive.db.execute("UPDATE meta SET value = '9' WHERE name = 'schema'")
    migrated = time.time()
    with Archive.open(db) as archive:
        assert archive.db.value("SELECT value FROM meta WHERE name = 'schema'") == str(VERSION)
        expires = float(archive.db.value("SELECT expires FROM user_tokens"))
        assert migrated + 90 * 86400 - 1 <= expires <= time.time() + 90 * 86400
        assert user_for_token(archive, kept) is not None
        assert user_for_token(archive, kept, expires + 1) is None
