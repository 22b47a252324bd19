"""``zrec serve``: the archive in the browser, and a JSON API over it.

A FastAPI application on uvicorn (:func:`create_app`), made for one archive (a SQLite
file or a PostgreSQL URL).  Each request opens the archive it reads and closes it
after (:mod:`zrec.serve.access`), so worker processes share nothing but the database.

- :mod:`zrec.serve.app`: the application: its routers, error handlers, headers and
  limits;
- :mod:`zrec.serve.api`: the JSON API under ``/api``;
- :mod:`zrec.serve.pages`: the pages (Jinja2 templates in ``templates/``, with
  autoescape; the stylesheet in ``static/``, the replay page's script and stylesheet
  served as the published site serves them);
- :mod:`zrec.serve.finding`: the search filters, named as ``zrec archive search``'s
  options, and one page of games;
- :mod:`zrec.serve.events`: an event's standings and crosstable, as the commands give
  them.

Only ``zrec serve`` imports this package (the web libraries are heavy to start).
"""

from __future__ import annotations

from zrec.serve.app import create_app

__all__ = ["create_app"]
