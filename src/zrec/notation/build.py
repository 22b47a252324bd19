"""Building the record model from the grammar's tokens and rules.

:class:`Builder` is the transformer Lark calls at each reduction of the ``game`` rule
(:func:`zrec.notation.grammar.parser`): it only builds, never judges.  :class:`Parts`
takes apart the tokens that the grammar builds from smaller terminals (``ACTION`` from
``SQUARE`` and ``VIA``, ``TAG_PAIR`` from ``TAG_NAME`` and ``TAG_STRING``, ``DICE`` from
``DIE`` and ``DICE_OPTION``) with those terminals' own patterns, as Lark compiles them
(the grammar module hands them over once Lark has built the parser).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from lark import Token, Transformer

from zrec.moves import Action, Dice, Turn
from zrec.notation.model import Comment, Game, Line, MoveNode, Span

_SPACES = re.compile(r"\s+")
_UNESCAPE = re.compile(r"\\(.)")


class Parts:
    """The grammar's smaller terminals, compiled, and the tokens taken apart with them
    (each distinct token once: a file repeats its moves and tag pairs)."""

    def __init__(self, patterns: Mapping[str, str]) -> None:
        self._square = re.compile(patterns["SQUARE"]).match
        self._via = re.compile(patterns["VIA"]).match
        self._tag_name = re.compile(patterns["TAG_NAME"]).search
        self._tag_string = re.compile(patterns["TAG_STRING"]).search
        self._die = re.compile(patterns["DIE"]).findall
        self._option = re.compile(patterns["DICE_OPTION"]).search
        self._actions: dict[str, Action] = {}
        self._tags: dict[str, tuple[str, str]] = {}

    def action(self, text: str) -> Action:
        """Take apart one ACTION token (its text matched the grammar's ACTION)."""
        found = self._actions.get(text)
        if found is None:
            if len(self._actions) > 65_536:
                self._actions.clear()
            found = self._actions[text] = self._action(text)
        return found

    def _action(self, text: str) -> Action:
        if text == "--":
            return Action("pass")
        if text == "H":
            return Action("herd")
        if "@" in text:
            piece, square = text.split("@")
            return Action("drop", (square,), piece=piece)
        squares: list[str] = []
        seps: list[str] = []
        vias: list[str | None] = []
        pos = 0
        while pos < len(text):
            if squares:  # a part: its separator, the point jumped over, the landing
                seps.append(text[pos])
                pos += 1
                jumped = self._via(text, pos)
                vias.append(None if jumped is None else jumped.group()[1:-1])
                pos = pos if jumped is None else jumped.end()
            found = self._square(text, pos)
            assert found is not None, text
            squares.append(found.group())
            pos = found.end()
        return Action("path", tuple(squares), tuple(seps), tuple(vias))

    def dice(self, text: str) -> Dice:
        """Take apart one DICE token (``2413e:``)."""
        digits = self._die(text)
        option = self._option(text, len(digits))
        return Dice(tuple(int(d) for d in digits), None if option is None else option.group())

    def tag(self, text: str) -> tuple[str, str]:
        """Take apart one TAG_PAIR token into name and unescaped value."""
        found = self._tags.get(text)
        if found is None:
            name = self._tag_name(text)
            assert name is not None, text
            value = self._tag_string(text, name.end())
            assert value is not None, text
            if len(self._tags) > 4096:
                self._tags.clear()
            found = self._tags[text] = name.group(), _UNESCAPE.sub(r"\1", value.group()[1:-1])
        return found

    def turn(self, kinds: Sequence[str], values: Sequence[str]) -> Turn:
        """The turn of a move's tokens (kinds and texts, white space left out); raises
        ``ValueError`` unless they are one move: optional dice, then actions joined by
        commas (several only after dice)."""
        dice = None
        if kinds and kinds[0] == "DICE":
            dice = self.dice(values[0])
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
            raise ValueError("not one move")
        return Turn(tuple(self.action(a) for a in actions), dice)


def comment_from(token: str) -> Comment:
    """A comment from its token, white space folded."""
    if token[0] == "{":
        return Comment(_SPACES.sub(" ", token[1:-1]).strip(), "brace")
    return Comment(_SPACES.sub(" ", token[1:]).strip(), "line")


class _Ply(tuple):  # type: ignore[type-arg]
    """What the ``ply`` rule builds: (number token, comments, move parts)."""

    __slots__ = ()


class Builder(Transformer[Token, Game]):
    """The callbacks Lark calls as it reduces each rule of the grammar: each builds the
    value of its rule from its children (tokens, or what the callbacks below built).
    ``parts`` is set once Lark has compiled the terminals (before any parse)."""

    parts: Parts

    def turn(self, children: list[Token]) -> tuple[Turn, Token]:
        first = children[0]
        if len(children) == 1:
            return Turn((self.parts.action(str(first)),)), first
        actions = tuple(self.parts.action(str(t)) for t in children[1::2])
        return Turn(actions, self.parts.dice(str(first))), first

    def move(self, children: list[Any]) -> tuple[Turn, Token, str | None, tuple[int, ...]]:
        turn, token = children[0]
        suffix = None
        nags: list[int] = []
        for child in children[1:]:
            if child.type == "SUFFIX":
                suffix = str(child)
            else:
                nags.append(int(child[1:]))
        return turn, token, suffix, tuple(nags)

    def comment(self, children: list[Token]) -> Comment:
        return comment_from(str(children[0]))

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
        for child in children:
            if type(child) is _Ply:
                if pending is not None:
                    nodes.append(_node(pending, lead, after, variations))
                    lead, after, variations = [], [], []
                pending = child
            elif isinstance(child, Comment):
                (lead if pending is None else after).append(child)
            else:
                variations.append(child)
        if pending is None:
            return Line((), tuple(lead))
        nodes.append(_node(pending, lead, after, variations))
        return Line(tuple(nodes))

    def game(self, children: list[Any]) -> Game:
        tags = children[:-2]  # the tag pairs' tokens, each with its line and column
        spans = tuple(Span(t.line, t.column) for t in tags)
        result = str(children[-1])
        return Game(tuple(self.parts.tag(str(t)) for t in tags), children[-2], result, spans)


def _node(
    ply: _Ply, lead: list[Comment], after: list[Comment], variations: list[Line]
) -> MoveNode:
    number_token, between, (turn, token, suffix, nags) = ply
    number = None
    dots = 1
    if number_token is not None:
        text = str(number_token)
        dots = 3 if text.endswith("...") else 1
        number = int(text.rstrip("."))
    return MoveNode(
        turn,
        number,
        dots,
        suffix,
        nags,
        (*lead, *between),
        tuple(after),
        tuple(variations),
        Span(token.line, token.column),
    )


__all__ = ["Builder", "Parts", "comment_from"]
