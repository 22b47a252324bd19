"""The files every page links: ``/static/NAME`` (the stylesheets, the replay page's
script and stylesheet as the published site serves them, the board's scripts, and
``diagram.css``: the boards' look for a page that draws boards by script), and no
``/favicon.ico``.
"""

from __future__ import annotations

from functools import cache

from fastapi import APIRouter
from fastapi.responses import Response

from zrec.serve.errors import not_found

__all__ = ["router"]


router = APIRouter(include_in_schema=False)


@cache
def _static() -> dict[str, tuple[str, str]]:
    from importlib import resources

    from zrec.render.replay_page import assets
    from zrec.render.svg import DEFAULT_CSS, MAP_CSS, POINTS_CSS

    files = {
        name: (text, "text/css" if name.endswith(".css") else "text/javascript")
        for name, text in assets().items()
    }
    for item in resources.files("zrec.serve").joinpath("static").iterdir():
        if item.name.endswith((".css", ".js")):
            kind = "text/css" if item.name.endswith(".css") else "text/javascript"
            files[item.name] = (item.read_text(encoding="utf-8"), kind)
    # the boards' look, for a page that draws boards by script (their own <style> is
    # taken out: the CSP would refuse it)
    files["diagram.css"] = (DEFAULT_CSS + MAP_CSS + POINTS_CSS, "text/css")
    return files


@router.get("/static/{name}")
def static(name: str) -> Response:
    found = _static().get(name)
    if found is None:
        raise not_found(f"there is no file {name!r}")
    text, kind = found
    return Response(text, media_type=kind, headers={"Cache-Control": "public, max-age=3600"})


@router.get("/favicon.ico")
def favicon() -> Response:
    """No icon (a browser asks for one on every site)."""
    return Response(status_code=204)
