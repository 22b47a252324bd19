"""The reader's one fast path: the common lines of a file, and the common game.

Most lines of every file are tag pairs written one a line (``[White "Culin"]``) or
lines of plain moves and move numbers, the last one ending with the result
(``17. c7-c8 c3-c4 18. c5xc3 1-0``); most games hold nothing else.  For these the
reader (:mod:`zrec.notation.reader`) neither lexes a token at a time nor parses with
Lark: :func:`plain_tag` matches a line that is one tag pair,
:meth:`CommonPath.plain_line` splits a line of moves at its spaces and looks each word
up, and :meth:`CommonPath.direct_game` builds the game straight from its tokens.
A turn with dice (``2413e: a1-b2, c3``) is common too: its dice roll is one word
and each of its actions but the last ends with its comma; a line with dice is held
as its words (:class:`~zrec.moves.WrittenTurns`, each turn made by
:meth:`CommonPath.written` only when asked for: making them was most of the time of
checking such a line with a rules kernel, which reads the words itself).  Anything else (a comment,
a variation, a suffix, a jump over a point, odd spacing, a character outside ASCII)
is left to the grammar: these functions then answer ``None``.

The patterns below are a subset of the grammar's terminals, written out by hand so
that a file of common games is read without building Lark's parser at all.  They may
refuse what the grammar accepts (the grammar then reads it) but must never accept
what it refuses, nor read anything otherwise: tests/test_fastpath.py checks, on every
sample, every invalid sample and generated lines, that they give exactly the tokens
and games that Lark gives.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from functools import lru_cache
from itertools import islice

from zrec.moves import Action, Dice, Turn, WrittenTurns
from zrec.notation.grammar import TokenT, possessive
from zrec.notation.model import Game, Line, Span
from zrec.notation.plainmoves import PlainMoves

_SQUARE = r"[a-z][1-9][0-9]?"
#: a move along squares joined by ``-``, ``x`` or ``>``, a piece dropped on a square, a
#: pass or the herd (the grammar's ACTION, less jumps over a named point)
_PLAIN_ACTION = re.compile(possessive(rf"{_SQUARE}(?:[-x>]{_SQUARE})*|[A-Z]@{_SQUARE}|H|--"))
#: the grammar's DICE: one digit a die, an optional option letter, then ``:``
_DICE = re.compile(r"[1-6]+[a-z]?:")
#: the grammar's MOVE_NUMBER: ``12.`` or ``12...``
_MOVE_NUMBER = re.compile(r"[1-9][0-9]{0,5}(?:\.\.\.|\.)")
#: the grammar's RESULT: one score a side, or ``*``
RESULT = r"(?:1/2|1|0)(?:-(?:1/2|1|0))+|\*"
_RESULT = re.compile(possessive(RESULT))
#: a line that is one tag pair, ``[Name "value"]`` with one space, and nothing after it
#: (the value as runs of plain characters between escapes, as the grammar has it: a
#: long value is matched without the regular expression engine keeping a state for
#: each of its characters)
_TAG_LINE = re.compile(
    possessive(r'(\[([A-Za-z][A-Za-z0-9_]*) "([^"\\\r\n]*(?:\\["\\][^"\\\r\n]*)*)"\])[ \t\r\n]*')
)
_UNESCAPE = re.compile(r"\\(.)")
#: the squares of a plain move, in order (``x`` is a file letter as well as a capture)
_SQUARES = re.compile(_SQUARE)
#: the separators of a plain move: a separator follows a square's digit, a file letter
#: ``x`` never does
_SEPARATORS = re.compile(r"(?<=[0-9])[-x>]")
#: the kind of a word that is a plain move followed by its comma (two tokens)
ACTION_COMMA = "ACTION,"
_PASS_TURN = Turn((Action("pass"),))
_HERD_TURN = Turn((Action("herd"),))


def word_kind(word: str) -> str:
    """The kind of token the grammar makes of ``word`` standing alone between spaces,
    when it is a plain move, a move number, a result, dice or a comma;
    :data:`ACTION_COMMA` for a plain move followed by its comma; ``""`` for anything
    else."""
    if _PLAIN_ACTION.fullmatch(word):
        return "ACTION"
    if _MOVE_NUMBER.fullmatch(word):
        return "MOVE_NUMBER"
    if _RESULT.fullmatch(word):
        return "RESULT"
    if _DICE.fullmatch(word):
        return "DICE"
    if word == ",":
        return "COMMA"
    if word[-1:] == "," and _PLAIN_ACTION.fullmatch(word, 0, len(word) - 1):
        return ACTION_COMMA
    return ""


def plain_turn(text: str) -> Turn | None:
    """The turn of a plain move, drop, pass or herd move, ``None`` for any other move."""
    if not _PLAIN_ACTION.fullmatch(text):
        return None
    if text == "--":
        return _PASS_TURN
    if text == "H":
        return _HERD_TURN
    if "@" in text:
        piece, square = text.split("@")
        return Turn((Action("drop", (square,), piece=piece),))
    # the word matched square (separator square)*; the squares are interned, so that
    # a move of a million squares holds a pointer for each, not a string
    if "x" in text or ">" in text:
        squares = tuple(sys.intern(m.group()) for m in _SQUARES.finditer(text))
        seps = tuple(_SEPARATORS.findall(text))
    else:  # steps only
        squares = tuple(map(sys.intern, text.split("-")))
        seps = ("-",) * (len(squares) - 1)
    return Turn((Action("path", squares, seps, (None,) * len(seps)),))


def plain_tag(text: str) -> str | None:
    """The tag pair's token when ``text`` is a line that is one tag pair written plainly
    (then white space only), else ``None``."""
    found = _TAG_LINE.fullmatch(text)
    return None if found is None else found.group(1)


@lru_cache(maxsize=4096)
def _tag(text: str) -> tuple[str, str] | None:
    found = _TAG_LINE.fullmatch(text)
    if found is None:
        return None
    return found.group(2), _UNESCAPE.sub(r"\1", found.group(3))


@lru_cache(maxsize=4096)
def _dice(text: str) -> Dice:
    """A DICE token's dice (``2413e:`` is ``Dice((2, 4, 1, 3), "e")``)."""
    option = text[-2] if text[-2].isalpha() else None
    return Dice(tuple(int(d) for d in text[: -2 if option else -1]), option)


@lru_cache(maxsize=4096)
def _number(text: str) -> tuple[int, int]:
    """A MOVE_NUMBER token's number and dots (``12...`` is ``(12, 3)``)."""
    return int(text.rstrip(".")), 3 if text.endswith("...") else 1


#: what a token of :meth:`CommonPath.direct_game`'s moves allows next: a move (or its
#: number), an action (after dice or a comma), a comma or a move (after an action of a
#: move with dice)
_NEXT, _ACTION, _COMMA = 0, 1, 2
#: the most words a reader's fast path keeps before it forgets them
WORDS = 65_536


class CommonPath:
    """The fast path of one reader, with what it has learnt of the file's words: each
    word's kind and each move's turn, looked up, not matched again (a file repeats the
    same moves in every game)."""

    def __init__(self) -> None:
        self.kinds: dict[str, str] = {}
        self.turns: dict[str, Turn | None] = {}

    def plain_line(self, text: str, number: int) -> tuple[list[TokenT], TokenT | None] | None:
        """The tokens of an ASCII line of plain moves and move numbers between spaces,
        and its result token if the line ends with one; ``None`` for any other line."""
        tokens: list[TokenT] = []
        column = 1
        result: TokenT | None = None
        kinds = self.kinds
        for word in text.rstrip("\r\n").split(" "):
            if word:
                if result is not None:  # something after the result
                    return None
                kind = kinds.get(word)
                if kind is None:
                    if len(kinds) >= WORDS:
                        kinds.clear()
                    kind = kinds[word] = word_kind(word)
                    if kind == ACTION_COMMA:  # its action, as direct_game looks it up
                        kinds[word[:-1]] = "ACTION"
                if not kind:
                    return None
                if kind == "RESULT":
                    result = (kind, word, number, column)
                elif kind == ACTION_COMMA:
                    end = len(word) - 1
                    tokens.append(("ACTION", word[:end], number, column))
                    tokens.append(("COMMA", ",", number, column + end))
                else:
                    tokens.append((kind, word, number, column))
            column += len(word) + 1
        return tokens, result

    def direct_game(self, tokens: Sequence[TokenT]) -> Game | None:
        """The common game (tag pairs, then plain moves each with or without its number,
        each move one action or dice and actions joined by commas, then the result) built
        straight from its tokens, exactly as the grammar would build it; ``None`` for any
        other game, which the grammar then reads."""
        count = len(tokens)
        first = 0
        while first < count and tokens[first][0] == "TAG_PAIR":
            first += 1
        if first == count or tokens[-1][0] != "RESULT":
            return None
        tags: list[tuple[str, str]] = []
        for token in tokens[:first]:
            pair = _tag(token[1])
            if pair is None:
                return None
            tags.append(pair)
        kinds = self.kinds
        words: list[str] = []  # each move's words: a plain action, or dice and actions
        bounds: list[int] = []  # where each move's words begin
        numbers: list[int | None] = []
        all_dots: list[int] = []
        lines: list[int] = []
        columns: list[int] = []
        number: int | None = None
        dots = 1
        dice = False  # a move with dice read
        after = _NEXT  # what the last token allows next
        for kind, text, line, column in islice(tokens, first, count - 1):
            if kind == "ACTION":
                if kinds.get(text) != "ACTION" and self.kind(text) != "ACTION":
                    return None  # (a jump over a named point: the grammar reads it)
                if after != _NEXT:  # an action of the move's dice
                    if after == _ACTION:
                        words.append(text)
                        after = _COMMA
                        continue
                    after = _NEXT  # a move of one action after a move with dice
            elif kind == "COMMA":
                if after != _COMMA:
                    return None
                after = _ACTION
                continue
            elif kind == "DICE":
                if after == _ACTION:  # no action after the dice or after a comma
                    return None
                after = _ACTION
                dice = True
            elif kind == "MOVE_NUMBER" and number is None and after != _ACTION:
                number, dots = _number(text)
                after = _NEXT
                continue
            else:
                return None
            # a move begins: a plain action alone, or dice and actions joined by commas
            bounds.append(len(words))
            words.append(text)
            numbers.append(number)
            all_dots.append(dots)
            lines.append(line)
            columns.append(column)
            number, dots = None, 1
        if after == _ACTION:  # no action after the dice or after a comma
            return None
        if number is not None:  # a number with no move after it
            return None
        spans = tuple(Span(t[2], t[3]) for t in tokens[:first])
        written: Sequence[Turn]
        if dice:  # the turns made only if asked for: a rules kernel reads the words
            bounds.append(len(words))
            written = WrittenTurns(words, bounds, self.written)
            moves = PlainMoves(written, numbers, all_dots, lines, columns)
        else:  # a word a move, each turn learnt; each word is what the writer writes
            get, learn = self.turns.get, self._turn
            written = [get(word) or learn(word) for word in words]  # type: ignore[misc]
            moves = PlainMoves(written, numbers, all_dots, lines, columns, words)
        return Game(tuple(tags), Line(moves), tokens[-1][1], spans)

    def written(self, words: list[str], bounds: list[int], start: int, stop: int) -> list[Turn]:
        """The turns ``start`` to ``stop - 1`` of a line held as its words
        (:class:`~zrec.moves.WrittenTurns`): each a plain action, or dice then plain
        actions."""
        get, plain = self.turns.get, self._plain
        out: list[Turn] = []
        for i in range(start, stop):
            begin = bounds[i]
            first = words[begin]
            if first[-1] != ":":
                out.append(get(first) or plain(first))
                continue
            actions = [
                (get(word) or plain(word)).actions[0] for word in words[begin + 1 : bounds[i + 1]]
            ]
            out.append(Turn(tuple(actions), _dice(first)))
        return out

    def _plain(self, word: str) -> Turn:
        turn = self._turn(word)
        if turn is None:
            raise ValueError(f"not a plain move: {word!r}")
        return turn

    def kind(self, word: str) -> str:
        """The kind :func:`word_kind` gives ``word``, learnt for the next time."""
        kinds = self.kinds
        kind = kinds.get(word)
        if kind is None:
            if len(kinds) >= WORDS:
                kinds.clear()
            kind = kinds[word] = word_kind(word)
        return kind

    def turn(self, text: str) -> Turn | None:
        """The turn of a plain move's word (``None`` for any other word), learnt."""
        turn = self.turns.get(text)
        return turn if turn is not None else self._turn(text)

    def _turn(self, text: str) -> Turn | None:
        """The turn of a plain move's word, learnt for the next time."""
        turns = self.turns
        if len(turns) >= WORDS:
            turns.clear()
        turn = turns[text] = plain_turn(text)
        return turn


__all__ = [
    "ACTION_COMMA",
    "RESULT",
    "WORDS",
    "CommonPath",
    "plain_tag",
    "plain_turn",
    "word_kind",
]
