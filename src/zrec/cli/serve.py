"""``zrec serve``: the archive in the browser, and its JSON API (:mod:`zrec.serve`).

The web libraries (FastAPI, uvicorn, Jinja2) are imported when the command runs,
never by another command.  One process serves a SQLite archive; ``--workers N`` runs
N processes over one PostgreSQL database, each opening it as requests come (the
archive reaches them through an environment variable; a password in it is never
printed).
"""

from __future__ import annotations

import contextlib
import os
from typing import Annotated, Any

import typer

from zrec.cli._app import EXIT_USAGE, app, fail
from zrec.cli._archive_open import DbOpt


@app.command()
def serve(
    db: DbOpt = "zrec.sqlite",
    host: Annotated[
        str,
        typer.Option(
            "--host",
            metavar="HOST",
            help="The address to listen on (0.0.0.0: every network of the machine).",
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, metavar="PORT", help="The port.")
    ] = 8000,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            metavar="N",
            help="Worker processes (more than 1: a PostgreSQL archive only)."
        ),
    ] = 1,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            "--forwarded-allow-ips",
            metavar="IPS",
            help="Proxies to trust, by address or network, comma-separated (* any): their "
            "X-Forwarded-For and X-Forwarded-Proto give the client's address and scheme. "
            "By default no proxy is trusted.",
        ),
    ] = "",
) -> None:
    """Serve an archive: its pages at http://HOST:PORT/ and its JSON API under /api.

    Anybody who can reach the address reads the archive; by default only this machine
    can (127.0.0.1).  Stop it with Ctrl-C.
    """
    from zrec.archive.store.db import is_url
    from zrec.cli._archive_open import opened

    if workers > 1 and not is_url(db):
        fail(
            "--workers above 1 needs a PostgreSQL archive (--db postgresql://...): "
            "a SQLite archive is served by one process"
        )
    with opened(db, write=False) as archive:  # none there, or not an archive: exit 2
        shown = archive.db.target  # (a URL's password left out)
        count = archive.count()
    _can_listen(host, port)
    import uvicorn

    from zrec.serve.app import DB_VARIABLE

    where = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    typer.echo(f"zrec: serving {shown} ({count} games) at {where} (Ctrl-C stops)", err=True)
    from zrec.serve.connections import served_from_environment, server_options, stopping

    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": "info",
        # the client's address, for the limits per client: a proxy's headers only from
        # the proxies the operator names (uvicorn trusts 127.0.0.1 unless told)
        "proxy_headers": bool(forwarded_allow_ips.strip()),
        "forwarded_allow_ips": forwarded_allow_ips.strip() or [],
        **server_options(),  # deadlines of connections and requests: zrec.serve.connections
    }
    _more_files()
    if workers > 1:
        os.environ[DB_VARIABLE] = db
        uvicorn.run(f"{served_from_environment.__module__}:{served_from_environment.__name__}",
                    factory=True, workers=workers, **options)
    else:
        from zrec.serve import create_app

        uvicorn.run(stopping(create_app(db)), **options)


def _more_files() -> None:
    """Let the process open as many files as the system allows it (each connection is
    one: the default of 1024 is soon reached by many idle or slow clients)."""
    try:
        import resource
    except ImportError:  # (not on Windows)
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        with contextlib.suppress(ValueError, OSError):  # (some systems cap it lower)
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _can_listen(host: str, port: int) -> None:
    """Exit 2 with a message when the address cannot be listened on (the port is taken,
    or the address is not this machine's)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}", EXIT_USAGE)
