"""The ``zrec`` command line: a thin layer over the library (the only typer importer).

Each module registers its commands on the one application in :mod:`zrec.cli._app`.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType

import typer

from zrec.cli import (
    archive,
    archive_event,
    archive_find,
    archive_players,
    archive_publish,
    check,
    records,
    render,
)
from zrec.cli._app import app

__all__ = [
    "app",
    "archive",
    "archive_event",
    "archive_find",
    "archive_players",
    "archive_publish",
    "check",
    "main",
    "records",
    "render",
]


class Terminated(SystemExit):
    """SIGTERM arrived: leave as an interrupt does, so every ``finally`` runs (no
    temporary file is left behind).  A :class:`SystemExit`, so typer lets it through."""


def _terminate(signum: int, frame: FrameType | None) -> None:
    # a second SIGTERM must not cut the cleanup short
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Terminated(128 + signum)


def main() -> None:
    """Entry point of the ``zrec`` console script.

    SIGTERM ends zrec as cleanly as Ctrl-C: outputs being written are removed, and the
    exit code is 143.
    """
    signal.signal(signal.SIGTERM, _terminate)
    try:
        app()
    except Terminated as exc:
        typer.echo("zrec: terminated", err=True)
        sys.exit(exc.code)
    except KeyboardInterrupt:
        typer.echo("zrec: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
