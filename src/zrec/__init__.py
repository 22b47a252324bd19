"""zrec: record, check and publish game records (the Zuni board games and a dice game).

The public API: read games (:func:`read_game`, :func:`read_games`,
:func:`read_records`), write them (:func:`write_game`), and the record model
(:class:`Game`).  Errors in notation raise :class:`ZrecSyntaxError`.
"""

from zrec.notation.errors import SyntaxProblem, ZrecSyntaxError
from zrec.notation.model import Comment, Game, Line, MoveNode, Span
from zrec.notation.reader import Record, read_game, read_games, read_records, read_string
from zrec.notation.writer import write_game, write_games

__version__ = "0.1.0"

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
