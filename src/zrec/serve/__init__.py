"""``zrec serve``: the archive in the browser, and a JSON API over it.

A FastAPI application on uvicorn (:func:`create_app`), made for one archive (a SQLite
file or a PostgreSQL URL).  Each request opens the archive it reads or writes through
a dependency and closes it after (:mod:`zrec.serve.opening`, which says why), so
worker processes share nothing but the database.

The routes are grouped by resource, each module serving a resource's pages and their
JSON twins:

- :mod:`zrec.serve.games`: the home page, the search and ``/api/games``, a game's page
  and ``/api/games/{id}``, importing games (``/import``, ``POST /api/games``) and
  removing one;
- :mod:`zrec.serve.events`: an event's page, its standings and pairings as JSON,
  recording its results (the form: :mod:`zrec.serve.results`) and byes;
- :mod:`zrec.serve.players` and :mod:`zrec.serve.ratings`: a player's page, the
  ratings;
- :mod:`zrec.serve.explorer`: the opening explorer and ``/api/tree``;
- :mod:`zrec.serve.board` and :mod:`zrec.serve.board_player`: the recording board and
  its JSON API (the records it sends: :mod:`zrec.serve.board_records`; a new game's
  record: :mod:`zrec.serve.new_games`);
- :mod:`zrec.serve.live`: live games (``/live``, ``/api/live``): played move by move,
  followed by Server-Sent Events;
- :mod:`zrec.serve.login`: logging in and out;
- :mod:`zrec.serve.checks`: ``/api/validate`` and ``/api/health``;
- :mod:`zrec.serve.assets`: ``/static``.

The plumbing they share: :mod:`zrec.serve.app` (the application: its routers, error
handlers, headers and limits), :mod:`~zrec.serve.errors`, :mod:`~zrec.serve.headers`,
:mod:`~zrec.serve.templating` (pages from Jinja2 templates in ``templates/``, with
autoescape; JSON text), :mod:`~zrec.serve.opening`, :mod:`~zrec.serve.access` (who
asks, what they may do), :mod:`~zrec.serve.sessions`, :mod:`~zrec.serve.work` (the
pool of expensive work), :mod:`~zrec.serve.finding` (the search filters),
:mod:`~zrec.serve.replays`.  A body sent in is read and validated as the command line
reads a file (:mod:`zrec.notation.inputs`, :mod:`zrec.check.inputs`).

The accounts of the server's users (:mod:`zrec.serve.accounts`) are also managed by
``zrec archive users``, which loads that module alone: importing this package loads
no web library; :func:`create_app` loads them when it is first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from zrec.serve.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":  # (the application and its web libraries, when asked for)
        from zrec.serve.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
