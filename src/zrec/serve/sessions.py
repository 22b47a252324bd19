"""Session cookies: who is logged in, signed so that a client cannot change it.

A session is a small JSON object, ``{"i": session id or null, "c": CSRF token, "e":
expiry}``, sent as the cookie :data:`COOKIE`: the object in URL-safe base64, a
dot, and its HMAC-SHA256 under the archive's key.  The standard library's :mod:`hmac`
does this in a few lines, so no dependency is added: Starlette's ``SessionMiddleware``
(with itsdangerous) would need the key when the application is made and sets
``Secure`` once for all requests, where here the key is read from the archive on first
need (or from ``ZREC_SECRET``) and ``Secure`` follows each request's scheme.

The cookie is ``HttpOnly`` (no script reads it), ``SameSite=Lax`` (not sent with
another site's form posts), ``Secure`` when the request came over HTTPS, and expires
after :data:`LIFETIME` seconds (its expiry is signed too).  A visitor who is not
logged in gets a session too (``i`` null) when a page holds a form, so that the login
form has its CSRF token; it has no row in the archive.  The id of a logged-in user's
session names a row of the archive's table ``sessions``
(:func:`session_user`), which logging out deletes (:func:`end_session`): a signed
cookie whose row is gone is no session, on every worker.  A session's id is 32 random
bytes of :mod:`secrets`, carried by the user's signed cookie; the table keeps only its
SHA-256 (as it does of API tokens), the user and when the session ends.  Looking a
session up by that hash compares no secret byte by byte, so its time tells an attacker
nothing about an id.  A new password and a removed user delete all of the user's
(:mod:`zrec.serve.accounts`); starting a session deletes the rows that have expired
(through an index on ``expires``).

The key that signs the cookies (:func:`session_key`) is 32 random bytes of
:mod:`secrets`, made on first need and kept in the archive's table ``meta``
(``session_key``), so that every worker process (and a restart) signs alike; two
workers that make one at once keep the first stored.  ``ZREC_SECRET`` replaces it.  It
is never printed.

A login that succeeds also sets the cookie :data:`DEVICE_COOKIE`: signed in the same
way, it says that this browser logged in as that name (the name's key, a random id and
an expiry, :data:`DEVICE_LIFETIME`), and is kept after logging out.  It is the "device
cookie" of the OWASP Authentication Cheat Sheet: the limits on failed logins hold a
browser that has logged in as a name only by its own failures, so that strangers
failing with that name do not lock it out (:mod:`zrec.serve.login`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import secrets
import time
from dataclasses import dataclass

from fastapi import Request
from fastapi.responses import Response

from zrec.archive.store import Archive
from zrec.serve.accounts import AccountError, User, name_key

__all__ = ["COOKIE", "DEVICE_COOKIE", "DEVICE_LIFETIME", "LIFETIME", "SECRET_VARIABLE",
           "Session", "device_of", "end_session", "read", "same_secret", "session_key",
           "session_user", "start_session", "write", "write_device"]

COOKIE = "zrec_session"
#: the cookie of a browser that has logged in (which name, its id, until when)
DEVICE_COOKIE = "zrec_device"
#: how long a browser stays known after a login, in seconds (180 days)
DEVICE_LIFETIME = 180 * 24 * 3600
#: the variable that gives the signing key instead of the archive's
SECRET_VARIABLE = "ZREC_SECRET"
#: how long a session lasts, in seconds (14 days)
LIFETIME = 14 * 24 * 3600


@dataclass(frozen=True, slots=True)
class Session:
    """What a session cookie says: the id of a logged-in user's session (``None``:
    nobody logged in), the CSRF token of its forms, and when it ends."""

    id: str | None
    csrf: str
    expires: int

    @staticmethod
    def new(session_id: str | None = None, expires: int | None = None) -> Session:
        """A new session (with a new CSRF token): a logged-in user's (``session_id``,
        from :func:`start_session`) or an anonymous one."""
        ends = int(time.time()) + LIFETIME if expires is None else expires
        return Session(session_id, secrets.token_urlsafe(24), ends)


def same_secret(given: str, expected: str) -> bool:
    """Whether ``given`` (from the client: any characters) is ``expected``, compared in
    constant time.  :func:`hmac.compare_digest` refuses text that is not ASCII (a
    header's bytes 0x80-0xFF reach the application as such characters), so both are
    compared as their UTF-8 bytes."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"),
                               expected.encode("utf-8", "surrogatepass"))


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def key(request: Request) -> bytes:
    """The signing key: ``ZREC_SECRET``, else the archive's (read once a process)."""
    state = request.app.state
    found: bytes | None = state.session_key  # (None until read: create_app sets it)
    if found is None:
        given = os.environ.get(SECRET_VARIABLE)
        if given:
            found = given.encode("utf-8")
        else:
            from zrec.serve.opening import writing

            with writing(state.settings) as archive:  # (once a process, made if none)
                found = session_key(archive)
        state.session_key = found
    return found


def _sign(secret: bytes, payload: bytes) -> str:
    return _b64(hmac.new(secret, payload, hashlib.sha256).digest())


def _pack(secret: bytes, fields: dict[str, object]) -> str:
    payload = json.dumps(fields, separators=(",", ":")).encode("utf-8")
    return f"{_b64(payload)}.{_sign(secret, payload)}"


def _unpack(secret: bytes, value: str) -> dict[str, object] | None:
    """The fields a signed cookie holds; ``None`` when it is not signed by ``secret``
    or is damaged."""
    data, _, signature = value.partition(".")
    if not data or len(value) > 4096:
        return None
    try:
        payload = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    except (binascii.Error, ValueError):
        return None
    if not same_secret(signature, _sign(secret, payload)):
        return None
    try:
        fields = json.loads(payload)
    except ValueError:
        return None
    return fields if isinstance(fields, dict) else None


def encode(secret: bytes, session: Session) -> str:
    return _pack(secret, {"i": session.id, "c": session.csrf, "e": session.expires})


def decode(secret: bytes, value: str, now: float | None = None) -> Session | None:
    """The session a cookie holds; ``None`` when it is not signed by ``secret``, is
    damaged or has expired."""
    fields = _unpack(secret, value)
    if fields is None:
        return None
    ident, csrf, expires = fields.get("i", 0), fields.get("c"), fields.get("e")
    if ident is not None and not isinstance(ident, str):  # (before version 8: no "i")
        return None
    if not isinstance(csrf, str) or not isinstance(expires, int):
        return None
    session = Session(ident, csrf, expires)
    if session.expires <= (time.time() if now is None else now):
        return None
    return session


def read(request: Request) -> Session | None:
    """The request's session (``None``: no cookie, or one that is not valid)."""
    value = request.cookies.get(COOKIE)
    if not value:
        return None
    return decode(key(request), value)


def secure(request: Request) -> bool:
    """Whether the request came over HTTPS (as uvicorn reads it, proxy headers
    included when it is told to trust them)."""
    return request.url.scheme == "https"


def write(request: Request, response: Response, session: Session | None) -> None:
    """Set the cookie of ``session`` on ``response`` (``None``: delete it)."""
    if session is None:
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                               secure=secure(request))
        return
    response.set_cookie(
        COOKIE, encode(key(request), session), max_age=LIFETIME, path="/",
        httponly=True, samesite="lax", secure=secure(request),
    )


def device_of(request: Request, name_key: str) -> str | None:
    """The id of this browser if it has logged in as the name whose key is
    ``name_key`` (:func:`zrec.serve.accounts.name_key`) and that is still known;
    ``None`` otherwise."""
    value = request.cookies.get(DEVICE_COOKIE)
    fields = _unpack(key(request), value) if value else None
    if fields is None:
        return None
    device, name, expires = fields.get("d"), fields.get("n"), fields.get("e")
    if (not isinstance(device, str) or name != name_key or not isinstance(expires, int)
            or expires <= time.time()):
        return None
    return device


def write_device(request: Request, response: Response, name_key: str) -> None:
    """Set the cookie saying this browser logged in as ``name_key`` (its id kept when it
    had one for that name)."""
    device = device_of(request, name_key) or secrets.token_urlsafe(24)
    fields = {"d": device, "n": name_key, "e": int(time.time()) + DEVICE_LIFETIME}
    response.set_cookie(
        DEVICE_COOKIE, _pack(key(request), fields), max_age=DEVICE_LIFETIME, path="/login",
        httponly=True, samesite="strict", secure=secure(request),
    )


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
