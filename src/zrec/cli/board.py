"""``zrec board [FILE]``: the recording board (``/board`` of ``zrec serve``) on this
machine, in the browser.

It serves on a free port of 127.0.0.1, opens the page in the browser
(:mod:`webbrowser`; ``--no-open`` only prints the address) and, given FILE, the board
opens with its record: the record is read once at start and kept in memory
(``/board?start=1``), so no address can make the server read a file.

It writes nothing unasked: games are saved to the archive ``--db`` (or ``$ZREC_DB``)
when one is named (created when there is none), else to a temporary archive deleted
when the board stops.  The person who started it saves without an account: the
address printed and opened holds a secret token (:mod:`zrec.serve.local`), exchanged
for a session cookie; the server answers only requests to a loopback ``Host``.
"""

from __future__ import annotations

import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from zrec.cli._app import EXIT_USAGE, app, fail, file_text


def _record_of(file: Path) -> str:
    """The one record of ``file``, as text; exits with a message for a file that
    cannot be read or does not hold one record."""
    from zrec.notation.inputs import read_input

    body, text = file_text(file, "the board opens a .zrec record")
    found = len(list(read_input(body, str(file), str(file))))
    if found != 1:
        said = "no record" if not found else f"{found} records"
        fail(f"{file}: holds {said}: the board opens a file of one record", EXIT_USAGE)
    return text


def _open_when_up(server: Any, url: str, browse: bool) -> None:
    """Say where the board is once the server listens, and open it in the browser."""
    while not server.started and not server.should_exit:
        time.sleep(0.05)
    if server.started:
        typer.echo(url)
        if browse:
            import webbrowser

            webbrowser.open(url)


@app.command()
def board(
    file: Annotated[
        Path | None,
        typer.Argument(metavar="FILE", help="A record (.zrec) to open on the board.",
                       dir_okay=False),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option("--db", envvar="ZREC_DB", metavar="PATH|URL", show_default=False,
                     help="The archive games are saved to: a SQLite file (created when "
                     "there is none) or a postgresql:// URL (default: $ZREC_DB, else a "
                     "temporary archive, deleted when the board stops)."),
    ] = None,
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, metavar="PORT",
                          help="The port (0, the default: a free one).")
    ] = 0,
    no_open: Annotated[
        bool, typer.Option("--no-open", help="Print the address; do not open the browser.")
    ] = False,
) -> None:
    """Record a game by clicking: the recording board in the browser.

    Starts zrec serve on this machine only (127.0.0.1, a free port), prints the
    board's address (with a secret token: whoever opens it may save) and opens it in
    the browser. "Save to the archive" saves to --db when it is given, else to a
    temporary archive deleted when the board stops: nothing is written unasked. With
    FILE, the board opens with that record, to go on from any of its moves. Stop it
    with Ctrl-C.
    """
    start = _record_of(file) if file is not None else None
    with tempfile.TemporaryDirectory(prefix="zrec-board-") as scratch:
        _serve(db, start, port, no_open, scratch)


def _serve(db: str | None, start: str | None, port: int, no_open: bool,
           scratch: str) -> None:
    """Serve the board over ``db`` (``None``: a new archive in the folder ``scratch``)."""
    from zrec.cli._archive_open import opened
    from zrec.serve.local import new_token

    target = db if db is not None else str(Path(scratch) / "board.sqlite")
    with opened(target, create=True) as archive:
        shown = (f"the archive {archive.db.target}" if db is not None else
                 "a temporary archive (deleted when the board stops: --db keeps games)")
    import uvicorn

    from zrec.serve import create_app

    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listening.bind(("127.0.0.1", port))
    except OSError as exc:
        fail(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}", EXIT_USAGE)
    chosen = listening.getsockname()[1]
    token = new_token()
    url = f"http://127.0.0.1:{chosen}/board?token={token}" + (
        "&start=1" if start is not None else "")
    typer.echo(f"zrec: the recording board at http://127.0.0.1:{chosen}/board, saving to "
               f"{shown}; the address below lets whoever opens it save (Ctrl-C stops)",
               err=True)
    from zrec.serve.connections import server_options, stopping

    config = uvicorn.Config(
        stopping(create_app(target, board_start=start, owner_token=token)),
        log_level="warning", **server_options())
    server = uvicorn.Server(config)
    threading.Thread(target=_open_when_up, args=(server, url, not no_open), daemon=True).start()
    server.run(sockets=[listening])
