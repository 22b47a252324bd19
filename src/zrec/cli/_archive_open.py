"""Opening the archive a ``zrec archive`` command names, and what its errors mean for
the exit code: an archive that cannot be used (none there, not an archive, made by a
newer zrec) is a usage error, 2; a damaged archive or a full disk, 1.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from zrec.cli._app import EXIT_INVALID, EXIT_USAGE, fail

if TYPE_CHECKING:
    from zrec.archive import Archive

__all__ = ["DAMAGE_HINT", "DbOpt", "opened", "refuse"]

#: ``--db``, as every command over an archive takes it (``zrec archive …``, ``zrec serve``)
DbOpt = Annotated[
    str,
    typer.Option(
        "--db",
        envvar="ZREC_DB",
        metavar="PATH|URL",
        help="The archive: a SQLite file, or a postgresql:// URL (default: $ZREC_DB, "
        "else zrec.sqlite here).",
        show_default=False,
    ),
]


@contextlib.contextmanager
def opened(
    db: str, create: bool = False, write: bool = True, hint: str | None = None
) -> Iterator[Archive]:
    """The archive at ``db`` (``write=False``: opened read-only, for a command that only
    reads).  An archive that cannot be used is a message and exit code 2; a damaged
    archive or a full disk, exit code 1 (``hint``: what the message of an archive too
    damaged to open adds)."""
    from zrec.archive import Archive, ArchiveError
    from zrec.fileio import NoSpaceError
    from zrec.tournament.event import EventError

    try:
        archive = Archive.open(db, create, read_only=not write)
    except ArchiveError as exc:
        refuse(exc, DAMAGE_HINT if hint is None else hint)
    try:
        yield archive
    except (ArchiveError, EventError, NoSpaceError) as exc:
        refuse(exc)
    finally:
        archive.close()


#: what a message about a damaged archive adds: where to see what is left
DAMAGE_HINT = "; zrec archive check says what can still be read"


def refuse(exc: Exception, hint: str = DAMAGE_HINT) -> NoReturn:
    """Exit with the message of an archive's error: code 1 for a damaged archive (with
    ``hint``) or a full disk, 2 for an archive that cannot be used."""
    from zrec.archive.store.db import ArchiveFullError, DamagedArchiveError
    from zrec.fileio import NoSpaceError

    if isinstance(exc, DamagedArchiveError):
        fail(f"{exc}{hint if exc.salvage else ''}", EXIT_INVALID)
    full = isinstance(exc, (ArchiveFullError, NoSpaceError))
    fail(str(exc), EXIT_INVALID if full else EXIT_USAGE)
