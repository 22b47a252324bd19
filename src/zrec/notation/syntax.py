"""Tokens and the LALR parser of the notation, both made from ``grammar/zrec.lark``.

The terminals' patterns and the parse table are Lark's work, computed once and cached
(:mod:`zrec.notation.tables`).  The lexer is one compiled regular expression whose
alternatives are the grammar's own terminal patterns, tried in a fixed order; it makes
one token of each move, tag pair, comment or dice roll.  The parser runs the LALR(1)
table that Lark computes from the grammar for the ``game`` rule, with a small loop
that calls the record builder at each reduction: no parse tree is made, and rules
whose names start with ``_`` are spliced into their parent exactly as Lark's own tree
builder does.  Tokens are plain tuples ``(type, text, line, column)``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from itertools import chain
from typing import TYPE_CHECKING, Any

from zrec.moves import Action, Dice, Turn
from zrec.notation.model import Comment, Game, Line, MoveNode, Span, plain_move
from zrec.notation.tables import tables

if TYPE_CHECKING:
    from lark import Lark

# Terminals in the order the lexer tries them.  Order matters only where one
# terminal's text can begin another's: a result ``1-0`` before a move number ``1.``
# (they differ at once, but ``*`` and digits start several terminals).
TOKEN_ORDER = (
    "WHITESPACE",
    "TAG_PAIR",
    "BRACE_COMMENT",
    "LINE_COMMENT",
    "RESULT",
    "MOVE_NUMBER",
    "DICE",
    "ACTION",
    "SUFFIX",
    "NAG",
    "LPAR",
    "RPAR",
    "COMMA",
)

# Friendly names of terminals, for "expected ..." in error messages.
DESCRIPTIONS = {
    "TAG_PAIR": 'a tag pair [Name "value"]',
    "MOVE_NUMBER": "a move number",
    "ACTION": "a move",
    "DICE": "a dice roll",
    "SUFFIX": "an annotation (! ? !! ?? !? ?!)",
    "NAG": "a NAG ($n)",
    "BRACE_COMMENT": "a comment",
    "LINE_COMMENT": "a comment",
    "LPAR": "a variation '('",
    "RPAR": "')' closing the variation",
    "COMMA": "',' and another action of the turn",
    "RESULT": "the result (1-0, 0-1, 1/2-1/2 or *)",
    "$END": "the end of the game",
}


TokenT = tuple[str, str, int, int]  # type, text, line, column (1-based)
END: TokenT = ("$END", "", 0, 0)


class ParseError(ValueError):
    """A token the grammar does not allow where it stands."""

    def __init__(self, token: TokenT, expected: frozenset[str]):
        super().__init__(f"unexpected {token[0]} {token[1]!r}")
        self.token = token
        self.expected = expected


_SQUARE = r"[a-z][1-9][0-9]?"
_PART = re.compile(rf"([-x>])(?:\(({_SQUARE})\))?({_SQUARE})")
_FIRST = re.compile(_SQUARE)
_TAG = re.compile(r'\[[ \t]?([A-Za-z][A-Za-z0-9_]*)[ \t]+"((?:[^"\\]|\\.)*)"[ \t]?\]')
_UNESCAPE = re.compile(r"\\(.)")
_SPACES = re.compile(r"\s+")


def parse_action(text: str) -> Action:
    """Take apart one ACTION token (its text matched the grammar's ACTION)."""
    if text == "--":
        return Action("pass")
    if text == "H":
        return Action("herd")
    if "@" in text:
        piece, square = text.split("@")
        return Action("drop", (square,), piece=piece)
    first = _FIRST.match(text)
    assert first is not None
    squares = [first.group()]
    seps: list[str] = []
    vias: list[str | None] = []
    for sep, via, square in _PART.findall(text, first.end()):
        seps.append(sep)
        vias.append(via or None)
        squares.append(square)
    return Action("path", tuple(squares), tuple(seps), tuple(vias))


def parse_dice(text: str) -> Dice:
    """Take apart one DICE token (``2413e:``)."""
    body = text[:-1]
    option = body[-1] if body[-1].isalpha() else None
    digits = body[:-1] if option else body
    return Dice(tuple(int(d) for d in digits), option)


#: tag pairs taken apart so far: most tag pairs of a file are repeated word for word
_TAGS: dict[str, tuple[str, str]] = {}


def parse_tag(text: str) -> tuple[str, str]:
    """Take apart one TAG_PAIR token into name and unescaped value."""
    pair = _TAGS.get(text)
    if pair is None:
        match = _TAG.fullmatch(text)
        assert match is not None
        pair = match.group(1), _UNESCAPE.sub(r"\1", match.group(2))
        if len(_TAGS) > 2_000:
            _TAGS.clear()
        _TAGS[text] = pair
    return pair


def comment_from(token: str) -> Comment:
    """A comment from its token, white space folded."""
    if token[0] == "{":
        return Comment(_SPACES.sub(" ", token[1:-1]).strip(), "brace")
    return Comment(_SPACES.sub(" ", token[1:]).strip(), "line")


class _Builder:
    """Callbacks Lark calls as it reduces each rule: they only build, never judge."""

    def __init__(self) -> None:
        self._turns: dict[str, Turn] = {}

    def _turn(self, text: str) -> Turn:
        turn = self._turns.get(text)
        if turn is None:
            if len(self._turns) > 50_000:
                self._turns.clear()
            turn = Turn((parse_action(text),))
            self._turns[text] = turn
        return turn

    def turn(self, children: list[TokenT]) -> tuple[Turn, TokenT]:
        first = children[0]
        if len(children) == 1:
            return self._turn(first[1]), first
        actions = tuple(parse_action(t[1]) for t in children[1::2])
        return Turn(actions, parse_dice(first[1])), first

    def move(self, children: list[Any]) -> tuple[Turn, TokenT, str | None, tuple[int, ...]]:
        turn, token = children[0]
        suffix = None
        nags: list[int] = []
        for child in children[1:]:
            if child[0] == "SUFFIX":
                suffix = child[1]
            else:
                nags.append(int(child[1][1:]))
        return turn, token, suffix, tuple(nags)

    def comment(self, children: list[TokenT]) -> Comment:
        return comment_from(children[0][1])

    def ply(self, children: list[Any]) -> _Ply:
        if len(children) == 1:
            return _Ply((None, (), children[0]))
        return _Ply((children[0], tuple(children[1:-1]), children[-1]))

    def variation(self, children: list[Any]) -> Line:
        line: Line = children[1]
        return line

    def line(self, children: list[Any]) -> Line:
        nodes: list[MoveNode] = []
        lead: list[Comment] = []
        after: list[Comment] = []
        variations: list[Line] = []
        pending: _Ply | None = None

        def flush() -> None:
            if pending is not None:
                nodes.append(_node(pending, lead, after, variations))
                lead.clear()
                after.clear()
                variations.clear()

        for child in children:
            if type(child) is _Ply:
                flush()
                pending = child
            elif isinstance(child, Comment):
                (lead if pending is None else after).append(child)
            else:
                variations.append(child)
        if pending is None:
            return Line((), tuple(lead))
        flush()
        return Line(tuple(nodes))

    def game(self, children: list[Any]) -> Game:
        tags = children[:-2]  # the tag pairs' tokens, each with its line and column
        spans = tuple(Span(t[2], t[3]) for t in tags)
        return Game(tuple(parse_tag(t[1]) for t in tags), children[-2], children[-1][1], spans)


class _Ply(tuple):  # type: ignore[type-arg]
    """What the ``ply`` rule builds: (number token, comments, move parts)."""

    __slots__ = ()


class _Flat(list):  # type: ignore[type-arg]
    """Children of a rule whose name starts with ``_``: spliced into the parent."""

    __slots__ = ()


def _node(
    ply: _Ply, lead: list[Comment], after: list[Comment], variations: list[Line]
) -> MoveNode:
    number_token, between, (turn, token, suffix, nags) = ply
    number = dots = None
    if number_token is not None:
        text = number_token[1]
        dots = 3 if text.endswith("...") else 1
        number = int(text.rstrip("."))
    return MoveNode(
        turn,
        number,
        dots or 1,
        suffix,
        nags,
        (*lead, *between),
        tuple(after),
        tuple(variations),
        Span(token[2], token[3]),
    )


# The parse table as the loop uses it.  A row maps a token type to an action:
# (SHIFT, next state); (UNIT, rule, callback) for a rule of one child built by a
# callback; (ACCUMULATE, rule) for a "_" list rule that adds one more child to the
# list it already holds; (REDUCE, size, rule, callback or None, splice) otherwise.
# A goto table maps a state and a rule name to the state after it.
SHIFT, UNIT, ACCUMULATE, REDUCE = 0, 1, 2, 3
_Row = dict[str, tuple[Any, ...]]


@cache
def reference_parser() -> Lark:
    """Lark's own LALR parser and lexer for the grammar, building a parse tree.

    zrec reads with :func:`parse_tokens`; this one is for tests that check the two
    agree, and for anyone who wants the tree.
    """
    from lark import Lark

    from zrec.resources import grammar_text

    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="basic",
        start=["file", "game"],
        maybe_placeholders=False,
    )


@cache
def _machine() -> tuple[dict[int, _Row], dict[int, dict[str, int]], int, int, _Builder]:
    table = tables()
    builder = _Builder()
    rows: dict[int, _Row] = {}
    gotos: dict[int, dict[str, int]] = {}
    for state, actions in table.states.items():
        row: _Row = {}
        goto: dict[str, int] = {}
        for name, action in actions.items():
            if isinstance(action, int):  # a shift, or a goto on a rule's name
                if name.isupper() or name == "$END":
                    row[name] = (SHIFT, action)
                else:
                    goto[name] = action
                continue
            origin, symbols = action
            callback = None if origin.startswith("_") else getattr(builder, origin)
            splice = any(sym.startswith("_") for sym in symbols)
            if len(symbols) == 1 and not splice and callback is not None:
                row[name] = (UNIT, origin, callback)
            elif len(symbols) == 2 and symbols[0] == origin and not symbols[1].startswith("_"):
                row[name] = (ACCUMULATE, origin)
            else:
                row[name] = (REDUCE, len(symbols), origin, callback, splice)
        rows[state] = row
        gotos[state] = goto
    return rows, gotos, table.start, table.end, builder


#: move numbers read so far: their text -> (number, dots)
_NUMBERS: dict[str, tuple[int, int]] = {}


def _move_number(text: str) -> tuple[int, int]:
    """A MOVE_NUMBER token's number and dots (``12...`` is ``(12, 3)``)."""
    found = _NUMBERS.get(text)
    if found is None:
        found = int(text.rstrip(".")), 3 if text.endswith("...") else 1
        if len(_NUMBERS) > 2_000:
            _NUMBERS.clear()
        _NUMBERS[text] = found
    return found


def _direct(
    tokens: Sequence[TokenT], turn_of: Any, turns: dict[str, Turn] | None = None
) -> Game | None:
    """The common game (tag pairs, then moves each with or without its number, then
    the result) built straight from its tokens, as the LALR loop would build it; ``None``
    for anything else (a comment, a variation, dice, a suffix, a NAG, a token out of
    place), which the loop then reads, with its errors.  ``turn_of`` makes a move's
    turn from its text (the builder's, with its cache ``turns``, looked in first)."""
    count = len(tokens)
    first = 0
    while first < count and tokens[first][0] == "TAG_PAIR":
        first += 1
    if first == count or tokens[-1][0] != "RESULT":
        return None
    known = {} if turns is None else turns
    nodes: list[MoveNode] = []
    number: int | None = None
    dots = 1
    for index in range(first, count - 1):
        kind, text, line, column = tokens[index]
        if kind == "ACTION":
            turn = known.get(text) or turn_of(text)
            nodes.append(plain_move(turn, number, dots, line, column))
            number, dots = None, 1
        elif kind == "MOVE_NUMBER" and number is None:
            number, dots = _move_number(text)
        else:
            return None
    if number is not None:  # a number with no move after it
        return None
    tags = tokens[:first]
    return Game(
        tuple(parse_tag(t[1]) for t in tags),
        Line(tuple(nodes)),
        tokens[-1][1],
        tuple(Span(t[2], t[3]) for t in tags),
    )


def parse_tokens(tokens: Sequence[TokenT], direct: bool = True) -> Game:
    """Parse one game's tokens into a :class:`Game`; raises :class:`ParseError`.

    The common game takes a direct path (:func:`_direct`); ``direct=False`` sends every
    game through the LALR loop (the tests check that both build the same games).
    """
    rows, gotos, state, end, builder = _machine()
    if direct:
        found = _direct(tokens, builder._turn, builder._turns)
        if found is not None:
            return found
    stack: list[int] = []  # the states below the current one
    values: list[Any] = []
    for token in chain(tokens, (END,)):
        kind = token[0]
        while True:
            action = rows[state].get(kind)
            if action is None:
                expected = frozenset(k for k in rows[state] if k.isupper())
                raise ParseError(token, expected)
            op = action[0]
            if op == SHIFT:
                stack.append(state)
                values.append(token)
                state = action[1]
                break
            if op == UNIT:  # turn, move, ply, comment of one child: no slicing
                values[-1] = action[2]([values[-1]])
                state = gotos[stack[-1]][action[1]]
                continue
            if op == ACCUMULATE:  # a list rule takes one more child, in place
                last = values.pop()
                values[-1].append(last)
                del stack[-1]
                state = gotos[stack[-1]][action[1]]
                continue
            _, size, origin, callback, splice = action
            if size:
                children = values[-size:]
                del values[-size:]
                base = stack[-size]
                del stack[len(stack) - size + 1 :]
            else:
                children = []
                base = state
                stack.append(state)
            if splice:
                if callback is None and children and type(children[0]) is _Flat:
                    flat = children[0]
                    rest = children[1:]
                else:
                    flat = _Flat()
                    rest = children
                for child in rest:
                    if type(child) is _Flat:
                        flat.extend(child)
                    else:
                        flat.append(child)
                children = flat
            if callback is not None:
                value = callback(children)
            elif type(children) is _Flat:
                value = children  # the list built so far, extended in place
            else:
                value = _Flat(children)
            values.append(value)
            state = gotos[base][origin]
            if kind == "$END" and state == end:
                game: Game = values[-1]
                return game
    raise AssertionError("the parse table accepts only at $END")


@cache
def token_regex() -> re.Pattern[str]:
    """One regular expression with a named group for each terminal, in TOKEN_ORDER."""
    patterns = tables().terminals
    return re.compile("|".join(f"(?P<{name}>{patterns[name]})" for name in TOKEN_ORDER))


__all__ = [
    "DESCRIPTIONS",
    "END",
    "ParseError",
    "TokenT",
    "comment_from",
    "parse_action",
    "parse_dice",
    "parse_tag",
    "parse_tokens",
    "token_regex",
]


#: turns read by :func:`parse_turn_text` so far, by their text
_TURN_TEXTS: dict[str, Turn] = {}


def parse_turn_text(text: str) -> Turn:
    """The turn a move's text spells (``b4xb6``, ``2413e: a1-a3, b2-b4``).

    Uses the same terminals as the reader; raises ``ValueError`` naming the problem.
    """
    turn = _TURN_TEXTS.get(text)
    if turn is None:
        turn = _read_turn_text(text)
        if len(_TURN_TEXTS) > 10_000:
            _TURN_TEXTS.clear()
        _TURN_TEXTS[text] = turn
    return turn


def _read_turn_text(text: str) -> Turn:
    kinds: list[str] = []
    values: list[str] = []
    pos = 0
    regex = token_regex()
    while pos < len(text):
        found = regex.match(text, pos)
        if found is None:
            raise ValueError(f"{text!r} is not a move in the notation (at {text[pos:]!r})")
        if found.lastgroup != "WHITESPACE":
            kinds.append(found.lastgroup or "")
            values.append(found.group())
        pos = found.end()
    dice = None
    if kinds and kinds[0] == "DICE":
        dice = parse_dice(values[0])
        kinds, values = kinds[1:], values[1:]
    actions = values[0::2]
    ok = (
        bool(kinds)
        and all(k == "ACTION" for k in kinds[0::2])
        and all(k == "COMMA" for k in kinds[1::2])
        and len(kinds) % 2 == 1
        and (dice is not None or len(actions) == 1)
    )
    if not ok:
        raise ValueError(f"{text!r} is not a move in the notation")
    return Turn(tuple(parse_action(a) for a in actions), dice)
