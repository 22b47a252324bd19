"""The ``zrec`` command line: a thin layer over the library (the only typer importer).

Each module registers its commands on the one application in :mod:`zrec.cli._app`.
Importing this package imports neither typer nor the commands: :func:`application`
(or asking for ``zrec.cli.app``) does, so that ``zrec --version`` answers at once.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from types import FrameType
from typing import TYPE_CHECKING

from zrec import __version__

if TYPE_CHECKING:
    import typer
    import typer.models

    from zrec.cli._app import app

__all__ = [
    "analyse",
    "app",
    "application",
    "archive",
    "archive_event",
    "archive_find",
    "archive_pairing",
    "archive_players",
    "archive_publish",
    "archive_ratings",
    "archive_tree",
    "archive_users",
    "board",
    "check",
    "main",
    "pair",
    "play",
    "records",
    "render",
    "research",
    "serve",
    "study",
]


def application() -> typer.Typer:
    """The ``zrec`` application with every command on it: importing a command module
    registers its commands (a new one is added here)."""
    from zrec.cli import (  # noqa: F401
        analyse,
        archive,
        archive_analyse,
        archive_event,
        archive_find,
        archive_pairing,
        archive_players,
        archive_publish,
        archive_ratings,
        archive_tree,
        archive_users,
        board,
        check,
        pair,
        play,
        puzzles,
        records,
        render,
        research,
        serve,
        study,
    )
    from zrec.cli._app import app
    from zrec.cli._help import reflow_commands

    reflow_commands(app)
    _in_order(app)
    return app


def _in_order(application: typer.Typer) -> None:
    """List the commands of ``application`` in :data:`COMMANDS`' order (typer lists
    them as they were registered, which is the order the modules are imported in)."""
    place = {name: i for i, name in enumerate(COMMANDS)}
    application.registered_commands.sort(key=lambda info: place.get(_name_of(info), 99))


#: the module that registers each command (``zrec validate …`` loads only ``check``);
#: tests/test_startup.py checks it against :func:`application`.  ``zrec --help`` lists
#: the commands in this order, as a newcomer needs them: check a record and look at
#: it, draw and publish it, record and play games, study the rules, then run events
#: and keep an archive
COMMANDS: dict[str, tuple[str, ...]] = {
    "validate": ("check",),
    "show": ("check",),
    "fmt": ("records",),
    "convert": ("records",),
    "diagram": ("render",),
    "html": ("render",),
    "board": ("board",),
    "play": ("play",),
    "readings": ("research",),
    "study": ("study",),
    "analyse": ("analyse",),
    "puzzles": ("puzzles",),
    "perft": ("research",),
    "random": ("check",),
    "pair": ("pair",),
    "serve": ("serve",),
    "schema": ("records",),
    "archive": (
        "archive", "archive_analyse", "archive_event", "archive_find", "archive_pairing",
        "archive_players", "archive_publish", "archive_ratings", "archive_tree", "archive_users",
    ),
}


#: the module that registers each ``zrec archive`` command or group of commands
#: (``users``): ``zrec archive search …`` loads and builds that command alone (typer
#: reads the signature of every command it is given, about a third of a search's
#: start-up); tests/test_startup.py checks it
ARCHIVE_COMMANDS: dict[str, str] = {
    "import": "archive", "show": "archive", "stats": "archive", "check": "archive",
    "remove": "archive", "standings": "archive_event", "crosstable": "archive_event",
    "roster": "archive_event", "bye": "archive_event", "search": "archive_find",
    "export": "archive_find", "players": "archive_players", "alias": "archive_players",
    "publish": "archive_publish", "tree": "archive_tree", "users": "archive_users",
    "pair": "archive_pairing", "schedule": "archive_pairing", "seat": "archive_pairing",
    "ratings": "archive_ratings", "analyse": "archive_analyse",
}


def _command_app(name: str, sub: str = "") -> typer.Typer:
    """The application with the modules of one command only (``main`` uses it when the
    command line names one; anything else gets :func:`application`); with ``sub``, an
    ``archive`` command or group (``users``), the archive group holds that alone."""
    import importlib

    modules = COMMANDS[name]
    if name == "archive" and sub in ARCHIVE_COMMANDS:
        modules = (ARCHIVE_COMMANDS[sub],)
    for module in modules:
        importlib.import_module(f"zrec.cli.{module}")
    from zrec.cli._app import app
    from zrec.cli._help import reflow_commands

    if name == "archive" and sub in ARCHIVE_COMMANDS:
        from zrec.cli.archive import archive_app

        archive_app.registered_commands = [
            info for info in archive_app.registered_commands if _name_of(info) == sub
        ]
        archive_app.registered_groups = [
            group for group in archive_app.registered_groups if _group_name(group) == sub
        ]
    reflow_commands(app)
    _in_order(app)
    return app


def _name_of(info: typer.models.CommandInfo) -> str:
    """The name a registered command is called by (typer's rule: its own, or its
    function's with ``_`` as ``-``)."""
    if info.name:
        return info.name
    assert info.callback is not None
    return info.callback.__name__.lower().replace("_", "-")


def _group_name(info: typer.models.TyperInfo) -> str:
    """The name a group of commands is called by: given to ``add_typer``, else its
    application's own."""
    if isinstance(info.name, str):
        return info.name
    inner = info.typer_instance.info.name if info.typer_instance is not None else None
    return inner if isinstance(inner, str) else ""


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
    exit code is 143.  Once the command is over, either signal ends the process at once
    (see :func:`_over`).
    """
    signal.signal(signal.SIGTERM, _terminate)
    try:
        if sys.argv[1:] == ["--version"]:
            # what the application's --version prints, without loading typer and
            # every command first
            from zrec.rules.kernel import describe

            print(f"zrec {__version__} ({describe()})", flush=True)
            return
        command = sys.argv[1] if len(sys.argv) > 1 else ""
        sub = sys.argv[2] if len(sys.argv) > 2 else ""
        (_command_app(command, sub) if command in COMMANDS else application())(
            prog_name="zrec"
        )
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
    finally:
        _over()


def _over() -> None:
    """The command is over, its output written: a Ctrl-C or SIGTERM from now on ends
    the process by that signal (a shell says 130 or 143), at once and quietly.  Left to
    Python, one that came while the interpreter shuts down (its threads joined, the
    workers of ``--jobs`` reaped) printed a KeyboardInterrupt traceback and exit 0."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        if callable(signal.getsignal(sig)):  # one ignored from the start stays ignored
            signal.signal(sig, signal.SIG_DFL)
    for stream in (sys.stdout, sys.stderr):
        # a closed pipe or stream: nothing more can be written
        with contextlib.suppress(OSError, ValueError):
            stream.flush()


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
