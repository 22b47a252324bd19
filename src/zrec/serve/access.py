"""Who asks, and the archive each request reads.

:func:`reader` is the dependency of every route that reads: it opens the archive for
the request (read-only) and closes it after, so nothing of one request is kept for
another, and worker processes share only the database.  :func:`visitor` says who
asks: today everybody is an anonymous reader; accounts (a session cookie or an API
token) replace it, and routes that write depend on a stricter one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from zrec.archive import Archive

__all__ = ["Reader", "Settings", "Visitor", "reader", "visitor"]


@dataclass(frozen=True, slots=True)
class Settings:
    """What the application was made with."""

    db: str

    @property
    def dialect(self) -> str:
        from zrec.archive.store.db import is_url

        return "postgresql" if is_url(self.db) else "sqlite"


@dataclass(frozen=True, slots=True)
class Visitor:
    """Who sends a request: a name and a role (``None`` and ``"anonymous"``: nobody
    logged in, who may read)."""

    name: str | None = None
    role: str = "anonymous"


def settings_of(request: Request) -> Settings:
    found: Settings = request.app.state.settings
    return found


def visitor(request: Request) -> Visitor:
    """Who sends ``request`` (anonymous until accounts come)."""
    return Visitor()


def reader(request: Request) -> Iterator[Archive]:
    """The archive, opened read-only for one request and closed after it."""
    archive = Archive.open(settings_of(request).db, read_only=True)
    try:
        yield archive
    finally:
        archive.close()


Reader = Annotated[Archive, Depends(reader)]
Who = Annotated[Visitor, Depends(visitor)]
