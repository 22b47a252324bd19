"""The ``zrec`` command line: a thin layer over the library (the only typer importer).

Each module registers its commands on the one application in :mod:`zrec.cli._app`.
Importing this package imports neither typer nor the commands: :func:`application`
(or asking for ``zrec.cli.app``) does, so that ``zrec --version`` answers at once.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType
from typing import TYPE_CHECKING

from zrec import __version__

if TYPE_CHECKING:
    import typer

    from zrec.cli._app import app

__all__ = [
    "app",
    "application",
    "archive",
    "archive_event",
    "archive_find",
    "archive_players",
    "archive_publish",
    "check",
    "main",
    "records",
    "render",
    "research",
    "study",
]


def application() -> typer.Typer:
    """The ``zrec`` application with every command on it: importing a command module
    registers its commands (a new one is added here)."""
    from zrec.cli import (  # noqa: F401
        archive,
        archive_event,
        archive_find,
        archive_players,
        archive_publish,
        check,
        records,
        render,
        research,
        study,
    )
    from zrec.cli._app import app
    from zrec.cli._help import reflow_commands

    reflow_commands(app)
    return app


#: the module that registers each command (``zrec validate …`` loads only ``check``);
#: tests/test_startup.py checks it against :func:`application`
COMMANDS: dict[str, tuple[str, ...]] = {
    "validate": ("check",),
    "show": ("check",),
    "random": ("check",),
    "fmt": ("records",),
    "convert": ("records",),
    "schema": ("records",),
    "diagram": ("render",),
    "html": ("render",),
    "perft": ("research",),
    "readings": ("research",),
    "study": ("study",),
    "archive": (
        "archive", "archive_event", "archive_find", "archive_players", "archive_publish",
    ),
}


def _command_app(name: str) -> typer.Typer:
    """The application with the modules of one command only (``main`` uses it when the
    command line names one; anything else gets :func:`application`)."""
    import importlib

    for module in COMMANDS[name]:
        importlib.import_module(f"zrec.cli.{module}")
    from zrec.cli._app import app
    from zrec.cli._help import reflow_commands

    reflow_commands(app)
    return app


def __getattr__(name: str) -> typer.Typer:
    """``zrec.cli.app``, made when first asked for (PEP 562); the command modules are
    submodules, imported as usual."""
    if name == "app":
        return application()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
        if sys.argv[1:] == ["--version"]:
            # what the application's --version prints, without loading typer and
            # every command first
            print(f"zrec {__version__}", flush=True)
            return
        command = sys.argv[1] if len(sys.argv) > 1 else ""
        (_command_app(command) if command in COMMANDS else application())(prog_name="zrec")
    except Terminated as exc:
        _say("zrec: terminated")
        sys.exit(exc.code)
    except KeyboardInterrupt:
        _say("zrec: interrupted")
        sys.exit(130)
    except BrokenPipeError as exc:
        # a reader that stopped reading is no failure; but a pipe to a worker that broke
        # while an interrupt was being handled is still that interrupt
        cause = _interrupt_behind(exc)
        if isinstance(cause, Terminated):
            _say("zrec: terminated")
            sys.exit(cause.code)
        if cause is not None:
            _say("zrec: interrupted")
            sys.exit(130)
        sys.exit(0)


def _interrupt_behind(exc: BaseException) -> BaseException | None:
    """The interrupt (Ctrl-C or SIGTERM) during whose handling ``exc`` was raised."""
    seen: BaseException | None = exc.__context__
    while seen is not None:
        if isinstance(seen, (KeyboardInterrupt, Terminated)):
            return seen
        seen = seen.__context__
    return None


def _say(message: str) -> None:
    import typer

    typer.echo(message, err=True)
