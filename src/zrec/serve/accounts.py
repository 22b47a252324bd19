"""The accounts of a shared archive: users with a role, their passwords and API tokens.

The users are ``zrec serve``'s, stored in the archive's tables (their statements are
the archive's: :mod:`zrec.archive.store.schema`); ``zrec archive users`` manages them
through this module, which imports nothing of the web (no FastAPI: the command starts
fast).

Anonymous visitors of ``zrec serve`` read; a user logs in to write.  An *editor*
imports games and records results and byes; an *admin* may also manage users and remove
games (:meth:`User.may`).  The tables are ``users`` and ``user_tokens`` (archive schema
5, :mod:`zrec.archive.store.schema`).

Passwords are hashed with scrypt (:func:`hashlib.scrypt`, RFC 7914) with a random salt
of 16 bytes, kept as one self-describing string ``scrypt$N$r$p$SALT$HASH`` (salt and
hash in unpadded URL-safe base64), so that the cost can be raised later and the hashes
of before still check.  The cost is N=2^14, r=8, p=5: one of the settings the OWASP
Password Storage Cheat Sheet gives as its minimum, with 16 MiB of memory a hash (so
that logins at once do not exhaust a small server's memory); about 0.3 s of CPU here.
Before hashing, a password is normalised to Unicode NFKC (as NIST SP 800-63B
advises), so the same password typed on two keyboards is the same.  An unknown name
costs the same hash as a known one (:func:`authenticate`).

An API token is ``zrec_`` and 43 characters of :func:`secrets.token_urlsafe` (32
random bytes); only its SHA-256 is stored, so the token is shown once, when made.
A token expires (:data:`TOKEN_DAYS` days after it was made unless told otherwise, at
most :data:`MAX_TOKEN_DAYS`; archive schema 10, whose migration gives the tokens of
before 90 days), so that one forgotten in an old script or a leaked log does not
write for ever; an expired token is refused in words (:func:`expired_token`), and its
row deleted when its user is given a new one.  A user's tokens are revoked all
together (their rows deleted), and go with the user.
A new password or a removed user also ends the user's sessions on ``zrec serve``
(table ``sessions``, :mod:`zrec.serve.sessions`).  The last admin cannot be removed:
someone must be left to manage the users.

Names are compared without case (``Ada`` and ``ada`` are one user): 1 to 64 printable
characters, without spaces at either end.  Errors are :class:`AccountError`, an
:class:`ArchiveError`, each one sentence naming the user and the reason.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import hmac
import secrets
import time
import unicodedata
from dataclasses import dataclass

from zrec.archive.store import Archive
from zrec.archive.store.db import ArchiveError

__all__ = [
    "MAX_TOKEN_DAYS",
    "MIN_PASSWORD",
    "ROLES",
    "TOKEN_DAYS",
    "AccountError",
    "User",
    "add_user",
    "authenticate",
    "check_name",
    "check_password",
    "expired_token",
    "find_user",
    "hash_password",
    "list_users",
    "name_key",
    "new_token",
    "remove_user",
    "revoke_tokens",
    "set_password",
    "token_expiry",
    "user_for_token",
    "verify_password",
    "when",
]

#: the roles, least first
ROLES = ("editor", "admin")
#: what each role may do beyond reading (the server asks :meth:`User.may`)
_ACTIONS = {
    "editor": frozenset({"import", "record", "play"}),
    "admin": frozenset({"import", "record", "play", "remove", "users"}),
}
MIN_PASSWORD, MAX_PASSWORD = 8, 1024
MAX_NAME = 64
#: scrypt's cost: N (CPU and memory), r (block size), p (parallel passes)
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 5
_SALT, _KEY = 16, 32
#: the days an API token lasts unless told otherwise, and the most it may be given
TOKEN_DAYS, MAX_TOKEN_DAYS = 90, 3660
#: what a token starts with (so that a secret scanner, or a reader, knows one)
TOKEN_PREFIX = "zrec_"
_TOKEN_LENGTH = len(TOKEN_PREFIX) + 43
#: checked for a name that is no user, so that it takes as long as one that is (the
#: costs of a new hash; no password gives this key)
_DUMMY = "scrypt${}${}${}$AAAAAAAAAAAAAAAAAAAAAA$" + "A" * 43


class AccountError(ArchiveError):
    """A user that cannot be added, found or changed: the message says which and why."""


@dataclass(frozen=True, slots=True)
class User:
    """A user as the archive keeps it (never its password): ``created`` in UTC
    (ISO 8601, seconds), ``tokens`` the API tokens it has (that have not expired), and
    when they expire (UTC, ISO 8601, soonest first)."""

    name: str
    role: str
    created: str
    tokens: int = 0
    expires: tuple[str, ...] = ()

    def may(self, action: str) -> bool:
        """Whether the user may ``import`` games, ``record`` results and byes,
        ``play`` live games, ``remove`` games or manage ``users`` (an admin)."""
        return action in _ACTIONS.get(self.role, frozenset())

    def to_json(self) -> dict[str, str | int | list[str]]:
        return {"name": self.name, "role": self.role, "created": self.created,
                "tokens": self.tokens, "tokens_expire": list(self.expires)}


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def when(seconds: float) -> str:
    """Seconds since 1970 as the accounts show times: UTC, ISO 8601, to the second."""
    moment = datetime.datetime.fromtimestamp(int(seconds), datetime.timezone.utc)
    return moment.isoformat(timespec="seconds")


def name_key(name: str) -> str:
    """What names are compared by (``users.norm``): the name in Unicode NFC, without
    case, so that ``Ada`` and ``ada`` are one user."""
    return unicodedata.normalize("NFC", name).casefold()


def check_name(name: str) -> str:
    """The name as stored (Unicode NFC); :class:`AccountError` unless it is 1 to 64
    printable characters without spaces at either end."""
    name = unicodedata.normalize("NFC", name)
    if not 1 <= len(name) <= MAX_NAME or not name.isprintable() or name != name.strip():
        raise AccountError(
            f"a user name is 1 to {MAX_NAME} printable characters without spaces at either "
            f"end, not {name!r}"
        )
    return name


def check_password(password: str) -> str:
    """The password as hashed (Unicode NFKC); :class:`AccountError` unless it has 8 to
    1,024 characters."""
    password = unicodedata.normalize("NFKC", password)
    if any("\ud800" <= c <= "\udfff" for c in password):  # bytes that were not UTF-8
        raise AccountError("the password is not UTF-8 text")
    if len(password) < MIN_PASSWORD:
        raise AccountError(f"the password is too short: it needs at least {MIN_PASSWORD} "
                           "characters")
    if len(password) > MAX_PASSWORD:
        raise AccountError(f"the password is too long: at most {MAX_PASSWORD} characters")
    return password


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        password.encode("utf-8", "surrogatepass"),
        salt=salt, n=n, r=r, p=p, maxmem=256 * n * r, dklen=_KEY,
    )


def hash_password(password: str) -> str:
    """``scrypt$N$r$p$SALT$HASH`` for a password (checked by :func:`check_password`)."""
    password = check_password(password)
    salt = secrets.token_bytes(_SALT)
    key = _scrypt(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(key)}"


def verify_password(password: str, stored: str) -> bool:
    """Whether ``password`` is the one ``stored`` (a :func:`hash_password` string) was
    made from; a stored string of another form is never matched."""
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != "scrypt":
        return False
    try:
        n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
        salt, key = _unb64(parts[4]), _unb64(parts[5])
    except ValueError:
        return False
    if not (1 < n <= 2**20 and 0 < r <= 32 and 0 < p <= 16) or len(key) != _KEY:
        return False  # a damaged row is not a reason to spend a minute
    given = unicodedata.normalize("NFKC", password)
    return hmac.compare_digest(_scrypt(given, salt, n, r, p), key)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _row(archive: Archive, name: str) -> tuple[int, str, str, str, str] | None:
    """(id, name, role, password, created) of a user, ``None`` for no such user."""
    row = archive.db.one(
        "SELECT id, name, role, password, created FROM users WHERE norm = ?", (name_key(name),)
    )
    if row is None:
        return None
    return int(row[0]), str(row[1]), str(row[2]), str(row[3]), str(row[4])


def _known(archive: Archive, name: str) -> tuple[int, str, str, str, str]:
    row = _row(archive, name)
    if row is None:
        raise AccountError(
            f'there is no user "{name}" in {archive.db.target} (zrec archive users list '
            "lists them)"
        )
    return row


def _role(role: str) -> str:
    if role not in ROLES:
        raise AccountError(f"a user's role is editor or admin, not {role!r}")
    return role


def find_user(archive: Archive, name: str) -> User | None:
    """The user ``name`` (in any case), ``None`` for no such user."""
    row = _row(archive, name)
    return None if row is None else User(row[1], row[2], row[4])


def add_user(archive: Archive, name: str, role: str, password: str) -> User:
    """Store a new user; :class:`AccountError` for a name taken (in any case), a bad
    name, role or password."""
    name, role = check_name(name), _role(role)
    hashed = hash_password(password)
    created = _now()
    with archive.db.transaction(lock=True):
        found = _row(archive, name)
        if found is not None:
            raise AccountError(f'there is already a user "{found[1]}" in {archive.db.target}')
        archive.db.execute(
            "INSERT INTO users (name, norm, role, password, created) VALUES (?, ?, ?, ?, ?)",
            (name, name_key(name), role, hashed, created),
        )
    return User(name, role, created)


def remove_user(archive: Archive, name: str) -> User:
    """Delete a user, its tokens and its sessions; the user as it was.
    :class:`AccountError` for the only admin."""
    with archive.db.transaction(lock=True):
        uid, kept, role, _, created = _known(archive, name)
        if role == "admin" and int(archive.db.value(
            "SELECT count(*) FROM users WHERE role = 'admin'"
        )) == 1:
            raise AccountError(
                f'"{kept}" is the only admin of {archive.db.target} and cannot be removed: '
                "add another admin first (zrec archive users add NAME --role admin)"
            )
        tokens = int(archive.db.value(
            "SELECT count(*) FROM user_tokens WHERE user_id = ?", (uid,)
        ))
        archive.db.execute("DELETE FROM user_tokens WHERE user_id = ?", (uid,))
        archive.db.execute("DELETE FROM sessions WHERE user_id = ?", (uid,))
        archive.db.execute("DELETE FROM users WHERE id = ?", (uid,))
    return User(kept, role, created, tokens)


def set_password(archive: Archive, name: str, password: str) -> User:
    """Give a user a new password, which ends its sessions (its tokens stay:
    :func:`revoke_tokens` ends them)."""
    hashed = hash_password(password)
    with archive.db.transaction(lock=True):
        uid, kept, role, _, created = _known(archive, name)
        archive.db.execute("UPDATE users SET password = ? WHERE id = ?", (hashed, uid))
        archive.db.execute("DELETE FROM sessions WHERE user_id = ?", (uid,))
    return User(kept, role, created)


def list_users(archive: Archive, now: float | None = None) -> list[User]:
    """Every user, sorted by name without case, with its tokens that have not expired
    and when they expire."""
    now = time.time() if now is None else now
    rows = archive.db.rows("SELECT u.name, u.role, u.created, u.id FROM users u ORDER BY u.norm")
    expiries: dict[int, list[str]] = {}
    for uid, expires in archive.db.rows(
        "SELECT user_id, expires FROM user_tokens WHERE expires > ? ORDER BY expires", (now,)
    ):
        expiries.setdefault(int(uid), []).append(when(float(expires)))
    return [User(str(n), str(r), str(c), len(expiries.get(int(i), [])),
                 tuple(expiries.get(int(i), []))) for n, r, c, i in rows]


def token_expiry(days: int, now: float) -> int:
    """When a token made at ``now`` for ``days`` days expires (seconds since 1970)."""
    return int(now) + days * 86400


def new_token(archive: Archive, name: str, days: int = TOKEN_DAYS,
              now: float | None = None) -> str:
    """A new API token for a user, valid ``days`` days (1 to :data:`MAX_TOKEN_DAYS`,
    until :func:`token_expiry`): the token itself, which is not stored (its hash is)
    and cannot be shown again.  The user's expired tokens are deleted."""
    if not 1 <= days <= MAX_TOKEN_DAYS:
        raise AccountError(f"a token lasts 1 to {MAX_TOKEN_DAYS} days, not {days}")
    now = time.time() if now is None else now
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    expires = token_expiry(days, now)
    with archive.db.transaction(lock=True):
        uid = _known(archive, name)[0]
        archive.db.execute("DELETE FROM user_tokens WHERE user_id = ? AND expires <= ?",
                           (uid, now))
        archive.db.execute(
            "INSERT INTO user_tokens (hash, user_id, created, expires) VALUES (?, ?, ?, ?)",
            (_token_hash(token), uid, _now(), expires),
        )
    return token


def revoke_tokens(archive: Archive, name: str) -> int:
    """End every API token of a user; how many there were."""
    with archive.db.transaction(lock=True):
        uid = _known(archive, name)[0]
        count = int(archive.db.value(
            "SELECT count(*) FROM user_tokens WHERE user_id = ?", (uid,)
        ))
        archive.db.execute("DELETE FROM user_tokens WHERE user_id = ?", (uid,))
    return count


def authenticate(archive: Archive, name: str, password: str) -> User | None:
    """The user ``name`` if ``password`` is its password, else ``None``.  An unknown
    name is checked against a made-up hash, so that it costs as long."""
    row = _row(archive, name) if len(name) <= 4 * MAX_NAME else None
    stored = _DUMMY.format(SCRYPT_N, SCRYPT_R, SCRYPT_P) if row is None else row[3]
    # a password far longer than any stored one is refused, after the same cost
    given = password if len(password) <= 4 * MAX_PASSWORD else ""
    matched = verify_password(given, stored)
    if row is None or not matched:
        return None
    return User(row[1], row[2], row[4])


def _token_row(archive: Archive, token: str) -> tuple[User, float | None] | None:
    if len(token) != _TOKEN_LENGTH or not token.startswith(TOKEN_PREFIX):
        return None
    row = archive.db.one(
        "SELECT u.name, u.role, u.created, t.expires FROM user_tokens t JOIN users u "
        "ON u.id = t.user_id WHERE t.hash = ?",
        (_token_hash(token),),
    )
    if row is None:
        return None
    return User(str(row[0]), str(row[1]), str(row[2])), (
        None if row[3] is None else float(row[3]))


def user_for_token(archive: Archive, token: str, now: float | None = None) -> User | None:
    """The user an API token belongs to; ``None`` for a token that is not one (made
    up, mistyped, revoked, expired, or its user removed)."""
    found = _token_row(archive, token)
    now = time.time() if now is None else now
    if found is None or found[1] is None or found[1] <= now:
        return None
    return found[0]


def expired_token(archive: Archive, token: str, now: float | None = None) -> str | None:
    """When an API token expired (UTC, ISO 8601), if it is a user's token that has
    expired; ``None`` otherwise (valid, or no token at all)."""
    found = _token_row(archive, token)
    now = time.time() if now is None else now
    if found is None or (found[1] is not None and found[1] > now):
        return None
    return "an unknown time" if found[1] is None else when(found[1])
