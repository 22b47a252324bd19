"""A game too long to hold as tokens: its plain lines kept as text, its moves made as
they are walked.

The reader (:mod:`zrec.notation.reader`) holds a game as tokens until its result,
then builds every move: for a game of a million plies that is a token and then a
:class:`~zrec.notation.model.MoveNode` for each, hundreds of megabytes.  Once a game
is long (a line of :data:`LINE` characters, or :data:`TOKENS` tokens already held),
each further line of plain moves (what :meth:`CommonPath.plain_line
<zrec.notation.fastpath.CommonPath.plain_line>` accepts) is kept as its text alone
(:func:`defer`), and followed, word by word, through the grammar of the common game
that :meth:`CommonPath.direct_game <zrec.notation.fastpath.CommonPath.direct_game>`
builds (a small table of where the game stands, :data:`_STEPS`).  At the result,
:func:`finish` gives the game with its main line as :class:`LongMoves`: a sequence
that makes the same moves again, one at a time, each time it is walked.

Anything else, at any point (a line that is not plain, a broken byte, a game the
direct path would refuse), first turns the kept lines back into the very tokens the
reader would have held (:func:`whole`), so that the game is then read, and reported,
exactly as if it had been held whole from the start.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, islice
from typing import overload

from zrec.moves import Action, Turn
from zrec.notation import _fast
from zrec.notation.fastpath import ACTION_COMMA, CommonPath, _dice, _number, _tag
from zrec.notation.grammar import TokenT
from zrec.notation.model import Game, Line, MoveNode, Span
from zrec.notation.records import Pending

#: a line this long (in characters) makes its game long
LINE = 65_536
#: a game holding this many tokens is long
TOKENS = 16_384

#: how much of a long line is cut into words at a time
_PIECE = 16_384


class _NotCommon(Exception):
    """The tokens are not the common game's: the grammar reads them."""


# Where the common game's tokens stand (what CommonPath.direct_game accepts, tag pairs
# and result aside): between turns, after a move number, after dice or a comma (an
# action due), after a dice turn's action (a comma may follow); and what a token's
# kind leads to from each, with the turns it ends.  Anything missing is not common.
_TURN, _NUMBER, _DICE_DUE, _DICE_DONE, _NOT = 0, 1, 2, 3, -1
_STEPS: dict[int, dict[str, tuple[int, int]]] = {
    _TURN: {"ACTION": (_TURN, 1), "MOVE_NUMBER": (_NUMBER, 0), "DICE": (_DICE_DUE, 0)},
    _NUMBER: {"ACTION": (_TURN, 1), "DICE": (_DICE_DUE, 0)},
    _DICE_DUE: {"ACTION": (_DICE_DONE, 0), ACTION_COMMA: (_DICE_DUE, 0)},
    _DICE_DONE: {
        "COMMA": (_DICE_DUE, 0),
        "ACTION": (_TURN, 2),
        "MOVE_NUMBER": (_NUMBER, 1),
        "DICE": (_DICE_DUE, 1),
    },
    _NOT: {},
}
_NO_STEP = (_NOT, 0)


def _head(common: CommonPath, tokens: Sequence[TokenT]) -> tuple[int, int]:
    """Where the common game stands after ``tokens`` (tag pairs first), and its moves."""
    state, moves = _TURN, 0
    first = 0
    while first < len(tokens) and tokens[first][0] == "TAG_PAIR":
        first += 1
    for kind, text, _, _ in tokens[first:]:
        if kind == "ACTION" and common.turn(text) is None:
            return _NOT, 0  # a move only the grammar reads
        state, ended = _STEPS[state].get(kind, _NO_STEP)
        moves += ended
    return state, moves


def _pieces(text: str) -> Iterator[tuple[int, list[str]]]:
    """The words of a line as ``str.split(" ")`` cuts them, a piece of about
    :data:`_PIECE` characters at a time, with the column of each piece's first word."""
    text = text.rstrip("\r\n")
    start, length = 0, len(text)
    while start <= length:
        end = text.find(" ", start + _PIECE)
        if end < 0:
            end = length
        yield start + 1, text[start:end].split(" ")
        start = end + 1


def _plain(
    common: CommonPath, text: str, number: int, state: int
) -> tuple[int, int, bool, TokenT | None] | None:
    """Where the common game stands after a line of plain moves, the moves it ended,
    whether it has any token before its result, and its result token; ``None`` for a
    line that :meth:`CommonPath.plain_line` refuses.  No token is made."""
    result: TokenT | None = None
    moves = 0
    words = False
    steps = _STEPS
    kinds = common.kinds
    for column, piece in _pieces(text):
        for word in piece:
            if word:
                if result is not None:  # something after the result
                    return None
                kind = kinds.get(word) or common.kind(word)
                if not kind:
                    return None
                if kind == "RESULT":
                    result = (kind, word, number, column)
                else:
                    state, ended = steps[state].get(kind, _NO_STEP)
                    moves += ended
                    words = True
            column += len(word) + 1
    return state, moves, words, result


def _tokens(common: CommonPath, text: str, number: int) -> Iterator[TokenT]:
    """The tokens :meth:`CommonPath.plain_line` makes of a plain line, result left out,
    one at a time."""
    kinds = common.kinds
    for column, piece in _pieces(text):
        for word in piece:
            if word:
                kind = kinds.get(word) or common.kind(word)
                if kind == "RESULT":
                    return
                if kind == ACTION_COMMA:
                    end = len(word) - 1
                    yield "ACTION", word[:end], number, column
                    yield "COMMA", ",", number, column + end
                else:
                    yield kind, word, number, column
            column += len(word) + 1


def defer(game: Pending, common: CommonPath, number: int, text: str) -> list[TokenT] | None:
    """Keep a line of a long game as text; the tokens to feed after it (its result, if
    it ends with one).  ``None`` when the line is not kept: it is read as any other
    line, after the lines kept before it are tokens again."""
    plain = None
    state = game.deferred_state
    if game.problem is None and state != _NOT and text[:1] != "[" and text.isascii():
        if state is None:  # the game has just become long
            state, game.deferred_moves = _head(common, game.tokens)
        if state != _NOT:
            plain = _plain(common, text, number, state)
    if plain is None:
        whole(game, common)
        if state is not None:  # what was found of the game is out of date: held whole
            game.deferred_state = _NOT
        return None
    game.deferred_state, moves, words, result = plain
    if words:
        if not game.tokens and not game.deferred:
            game.start_line = number
            game.lines[number] = text
        elif number not in game.lines:
            game.lines[number] = text
        if not game.deferred:
            game.deferred_at = len(game.tokens)
        game.deferred.append((number, text))
        game.deferred_moves += moves
        game.moves_started = True
    if result is None:
        return []
    game.lines.setdefault(number, text)
    return [result]


def whole(game: Pending, common: CommonPath) -> None:
    """The kept lines of ``game`` back among its tokens, where the reader holds them."""
    if not game.deferred:
        return
    tokens: list[TokenT] = []
    for number, text in game.deferred:
        plain = common.plain_line(text, number)
        assert plain is not None  # it was kept because it is plain
        tokens.extend(plain[0])
    game.deferred = []
    held = game.tokens
    if game.deferred_at == len(held) or game.problem is not None:
        held.extend(tokens)  # a broken game keeps only its last token
    else:  # before the result
        held[game.deferred_at : game.deferred_at] = tokens


def finish(game: Pending, common: CommonPath) -> Game | None:
    """The long game that ends with its result token, its main line made as it is
    walked; ``None`` (its lines turned back into tokens) for any other game."""
    held = game.tokens
    built = None
    ends = game.deferred_state == _TURN or game.deferred_state == _DICE_DONE
    if ends and held and held[-1][0] == "RESULT" and game.problem is None:
        moves = game.deferred_moves + (game.deferred_state == _DICE_DONE)
        built = long_game(common, list(held), game.deferred, moves)
    if built is None:
        whole(game, common)
    return built


def long_game(
    common: CommonPath, tokens: Sequence[TokenT], lines: Sequence[tuple[int, str]], moves: int
) -> Game | None:
    """The game of ``tokens`` (tag pairs, the first moves, then the result) with the
    ``moves`` moves of its tokens and of the plain ``lines`` before its result, already
    found to be the common game; ``None`` when a tag pair is not its plain form."""
    first = 0
    while first < len(tokens) and tokens[first][0] == "TAG_PAIR":
        first += 1
    tags = []
    for token in tokens[:first]:
        pair = _tag(token[1])
        if pair is None:
            return None
        tags.append(pair)
    line = Line(LongMoves(common, tuple(tokens[first:-1]), tuple(lines), moves))
    spans = tuple(Span(t[2], t[3]) for t in tokens[:first])
    return Game(tuple(tags), line, tokens[-1][1], spans)


def _moves(common: CommonPath, tokens: Iterator[TokenT]) -> Iterator[MoveNode]:
    """The moves :meth:`CommonPath.direct_game` builds from the tokens between the tag
    pairs and the result, one at a time; raises :class:`_NotCommon` where it refuses
    them (which reading has ruled out before a game's moves are made this way)."""
    make = _fast.plain_move
    turns, turn_of = common.turns, common.turn
    number: int | None = None
    dots = 1
    token = next(tokens, None)
    while token is not None:
        kind, text, line, column = token
        token = next(tokens, None)
        if kind == "ACTION":
            turn = turns.get(text) or turn_of(text)
            if turn is None:
                raise _NotCommon
            yield make(turn, number, dots, line, column)
            number, dots = None, 1
        elif kind == "MOVE_NUMBER" and number is None:
            number, dots = _number(text)
        elif kind == "DICE":  # then actions joined by commas
            actions: list[Action] = []
            while token is not None and token[0] == "ACTION":
                turn = turn_of(token[1])
                if turn is None:
                    raise _NotCommon
                actions.append(turn.actions[0])
                token = next(tokens, None)
                if token is None or token[0] != "COMMA":
                    break
                token = next(tokens, None)
            else:  # no action after the dice or after a comma
                raise _NotCommon
            yield make(Turn(tuple(actions), _dice(text)), number, dots, line, column)
            number, dots = None, 1
        else:
            raise _NotCommon
    if number is not None:  # a number with no move after it
        raise _NotCommon


class LongMoves(Sequence[MoveNode]):
    """The main line of a long game, held as the text of its lines (and the tokens
    read before them): each walk makes its moves again, one at a time, equal to the
    moves the direct path builds, places included.  Its length is known from reading;
    its last move once it has been walked to the end; any other index walks to it."""

    __slots__ = ("_common", "_count", "_head", "_last", "_lines")

    def __init__(
        self,
        common: CommonPath,
        head: tuple[TokenT, ...],
        lines: tuple[tuple[int, str], ...],
        count: int,
    ) -> None:
        self._common = common
        self._head = head
        self._lines = lines
        self._count = count
        self._last: MoveNode | None = None  # known once walked to the end

    def __iter__(self) -> Iterator[MoveNode]:
        common = self._common
        lines: Iterable[TokenT] = chain.from_iterable(
            _tokens(common, text, number) for number, text in self._lines
        )
        node = None
        for node in _moves(common, chain(self._head, lines)):
            yield node
        self._last = node

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> MoveNode: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[MoveNode, ...]: ...

    def __getitem__(self, index: int | slice) -> MoveNode | tuple[MoveNode, ...]:
        places = range(self._count)[index]
        if isinstance(places, int):
            if places == self._count - 1:
                return self._last or deque(self, maxlen=1)[0]
            return next(islice(self, places, None))
        if places.step > 0:
            return tuple(islice(self, places.start, places.stop, places.step))
        every = tuple(self)
        return tuple(every[i] for i in places)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"LongMoves(<{self._count} moves>)"


__all__ = ["LINE", "TOKENS", "LongMoves", "defer", "finish", "long_game", "whole"]
