"""``zrec board [FILE]``: the recording board (``/board`` of ``zrec serve``) on this
machine, in the browser.

It serves the archive (``--db``, as ``zrec serve``; created when there is none, since
saving a game needs one) on a free port of 127.0.0.1, opens the page in the browser
(:mod:`webbrowser`; ``--no-open`` only prints the address) and, given FILE, the board
opens with its record: the record is read once at start and kept in memory
(``/board?start=1``), so no address can make the server read a file.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from zrec.cli._app import EXIT_USAGE, app, fail, file_text
from zrec.cli._archive_open import DbOpt


def _record_of(file: Path) -> str:
    """The one record of ``file``, as text; exits with a message for a file that
    cannot be read or does not hold one record."""
    from zrec.serve.api import records_in

    body, text = file_text(file, "the board opens a .zrec record")
    found = len(list(records_in(body, str(file), str(file))))
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
    db: DbOpt = "zrec.sqlite",
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, metavar="PORT",
                          help="The port (0, the default: a free one).")
    ] = 0,
    no_open: Annotated[
        bool, typer.Option("--no-open", help="Print the address; do not open the browser.")
    ] = False,
) -> None:
    """Record a game by clicking: the recording board in the browser.

    Starts zrec serve on this machine only (127.0.0.1, a free port) over the archive
    --db (created when there is none: "Save to the archive" needs one), prints the
    board's address and opens it in the browser. With FILE, the board opens with that
    record, to go on from any of its moves. Stop it with Ctrl-C.
    """
    from zrec.cli._archive_open import opened

    start = _record_of(file) if file is not None else None
    with opened(db, create=True) as archive:
        shown = archive.db.target
    import uvicorn

    from zrec.serve import create_app

    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listening.bind(("127.0.0.1", port))
    except OSError as exc:
        fail(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}", EXIT_USAGE)
    chosen = listening.getsockname()[1]
    url = f"http://127.0.0.1:{chosen}/board" + ("?start=1" if start is not None else "")
    typer.echo(f"zrec: the recording board of {shown} at {url} (Ctrl-C stops)", err=True)
    from zrec.serve.connections import server_options, stopping

    config = uvicorn.Config(stopping(create_app(db, board_start=start)), log_level="warning",
                            **server_options())
    server = uvicorn.Server(config)
    threading.Thread(target=_open_when_up, args=(server, url, not no_open), daemon=True).start()
    server.run(sockets=[listening])
