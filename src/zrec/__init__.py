"""zrec: record, check and publish game records (the Zuni board games and a dice game).

The public API: read games (:func:`read_game`, :func:`read_games`,
:func:`read_records`), write them (:func:`write_game`), and the record model
(:class:`Game`).  Errors in notation raise :class:`ZrecSyntaxError`.

The names are loaded when first asked for (PEP 562), so that a command that reads no
record (``zrec archive search --player X``) does not pay for the reader's import.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from zrec.notation.errors import SyntaxProblem, ZrecSyntaxError
    from zrec.notation.model import Comment, Game, Line, MoveNode, Span
    from zrec.notation.reader import Record, read_game, read_games, read_records, read_string
    from zrec.notation.writer import write_game, write_games

__version__ = "0.1.0"

#: the module of each public name
_PUBLIC = {
    "SyntaxProblem": "zrec.notation.errors",
    "ZrecSyntaxError": "zrec.notation.errors",
    "Comment": "zrec.notation.model",
    "Game": "zrec.notation.model",
    "Line": "zrec.notation.model",
    "MoveNode": "zrec.notation.model",
    "Span": "zrec.notation.model",
    "Record": "zrec.notation.reader",
    "read_game": "zrec.notation.reader",
    "read_games": "zrec.notation.reader",
    "read_records": "zrec.notation.reader",
    "read_string": "zrec.notation.reader",
    "write_game": "zrec.notation.writer",
    "write_games": "zrec.notation.writer",
}

__all__ = [
    "Comment",
    "Game",
    "Line",
    "MoveNode",
    "Record",
    "Span",
    "SyntaxProblem",
    "ZrecSyntaxError",
    "__version__",
    "read_game",
    "read_games",
    "read_records",
    "read_string",
    "write_game",
    "write_games",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module when first asked for."""
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = vars(importlib.import_module(module))[name]
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_PUBLIC])
