"""The ``zrec`` command line: a thin layer over the library (the only typer importer).

Each module registers its commands on the one application in :mod:`zrec.cli._app`.
"""

from __future__ import annotations

import sys

import typer

from zrec.cli import check, records, render
from zrec.cli._app import app

__all__ = ["app", "check", "main", "records", "render"]


def main() -> None:
    """Entry point of the ``zrec`` console script."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("zrec: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
