"""What the reader gives for each game of a file (:class:`Record`), and what it holds
of the game it is reading (:class:`Pending`)."""

from __future__ import annotations

from collections import deque
from collections.abc import MutableSequence
from dataclasses import dataclass

from zrec.notation.encoding import not_utf8
from zrec.notation.errors import SyntaxProblem
from zrec.notation.grammar import TokenT
from zrec.notation.model import Game


@dataclass(frozen=True, slots=True)
class Record:
    """One game as read from a file: the game, or the problem that broke it.

    ``notes`` are warnings about how the game was read, whether or not it could be
    read (a ``typography`` note: typographic characters read as ASCII).
    """

    number: int  # 1-based position of the game in its file
    line: int  # the line the game starts on
    game: Game | None
    problem: SyntaxProblem | None = None
    notes: tuple[SyntaxProblem, ...] = ()

    @property
    def ok(self) -> bool:
        return self.game is not None


class Pending:
    """The tokens and source lines of the game being read.

    Once the game has a problem it will not be parsed: it then keeps only its last
    token (for the place of a later message), however much more of it there is."""

    def __init__(self) -> None:
        self.tokens: MutableSequence[TokenT] = []
        self.lines: dict[int, str] = {}
        self.problem: SyntaxProblem | None = None
        self.moves_started = False
        self.start_line = 0
        self.depth = 0  # variations open
        #: the lines of a long game kept as text, not tokens (zrec.notation.longtext),
        #: where among the tokens theirs stand, and how far the game is the common game
        #: (where its moves stand in it, and how many moves it has so far)
        self.deferred: list[tuple[int, str]] = []
        self.deferred_at = 0
        self.deferred_state: int | None = None  # not looked at yet
        self.deferred_moves = 0

    def add_problem(self, problem: SyntaxProblem) -> None:
        if self.problem is None:
            self.problem = problem
            self.tokens = deque(self.tokens, maxlen=1)

    def not_utf8(self, number: int, raw: bytes, start: int, file: str) -> str:
        """Line ``number``'s bytes, not UTF-8 from ``start`` on, as text with
        replacement characters; the game is broken there."""
        column = len(raw[:start].decode("utf-8", "replace")) + 1
        text = raw.decode("utf-8", "replace")
        if not self.tokens and self.problem is None:
            self.start_line = number
        source = self.lines.setdefault(number, text)
        message = not_utf8(raw, start, file)
        self.add_problem(SyntaxProblem("encoding", message, number, column, source, file))
        return text


__all__ = ["Pending", "Record"]
