"""The text of answers: the pages' templates, and JSON already written.

The templates are Jinja2, every value escaped (autoescape), loaded from the package
(``templates/``), so an installed wheel serves them.

:func:`render` gives a template as an answer; every page extends ``base.html``, which
holds the bar of links (with a place, ``account``, for logging in) and links the
stylesheet ``/static/site.css``.  No page has inline script or style.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any
from urllib.parse import quote

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from zrec import __version__

__all__ = ["JsonText", "file_name", "render", "render_text", "url_part"]


class JsonText(Response):
    """JSON already written (byte for byte what the command prints)."""

    media_type = "application/json"


def url_part(text: object) -> str:
    """A path segment or query value, quoted (``/`` too)."""
    return quote(str(text), safe="")


def file_name(path: object) -> str:
    """The last part of a file's path as it was given at import: a page shows where a
    game was found without telling visitors the server's folders."""
    return re.split(r"[\\/]", str(path))[-1]


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("zrec.serve", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["q"] = url_part
    env.filters["file_name"] = file_name
    env.globals["version"] = __version__
    return env


def render_text(request: Request, template: str, **context: Any) -> str:
    """The text of ``template`` made with ``context`` (and the request, and who asks)."""
    from zrec.archive.store.db import ArchiveError
    from zrec.serve.access import Caller, caller
    from zrec.serve.problems import ApiError

    try:
        who = caller(request)
    except (ApiError, ArchiveError):  # (an error page for a bad token, or no archive)
        who = Caller()
    return environment().get_template(template).render(
        request=request, caller=who, **context
    )


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """The page ``template`` made with ``context``, as an answer."""
    return HTMLResponse(render_text(request, template, **context), status_code=status)
