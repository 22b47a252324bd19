"""Files shipped inside the package: the grammar, the JSON Schema and the replay page's
stylesheet and script.

The grammar and the schema live at the top of the source tree (``grammar/``,
``schemas/``) and are linked into ``zrec/_data``; the page's ``replay.css`` and
``replay.js`` live in ``zrec/_data`` itself.  An installed wheel carries them all; they
are always read through :mod:`importlib.resources`, never from a path relative to the
checkout.
"""

from __future__ import annotations

import json
import os
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

GRAMMAR = "zrec.lark"
SCHEMA = "zrec-game.schema.json"
PAGE_CSS = "replay.css"
PAGE_SCRIPT = "replay.js"


@cache
def data_text(name: str) -> str:
    """The text of a shipped data file."""
    return resources.files("zrec").joinpath("_data").joinpath(name).read_text(encoding="utf-8")


@cache
def grammar_text() -> str:
    """The Lark grammar of the notation."""
    return data_text(GRAMMAR)


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of one game in JSON form."""
    loaded: dict[str, Any] = json.loads(data_text(SCHEMA))
    return loaded


def cache_dir() -> Path | None:
    """zrec's per-user cache directory (it may not exist); ``None`` without a home.

    ``$XDG_CACHE_HOME/zrec``, else ``~/.cache/zrec``.  It holds Lark's cache of the
    grammar's analysis and the mark that zrec has said once that it runs without its
    compiled rules kernel (:mod:`zrec.rules.kernel`); it may be deleted at any time."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG rule: a relative path is ignored
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return Path(base) / "zrec"
