"""Lark's own parser of the whole grammar, with Lark's own lexer, building zrec's record
model: what the tests compare the reader with."""

from __future__ import annotations

from functools import cache

from lark import Lark, Tree

from zrec.notation.build import Builder
from zrec.notation.grammar import parts
from zrec.notation.model import Game
from zrec.resources import grammar_text


@cache
def reference_parser() -> Lark:
    """Lark's LALR parser of a whole file (``file``) or one game (``game``)."""
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="basic",
        start=["file", "game"],
        maybe_placeholders=False,
    )


def reference_games(text: str) -> list[Game]:
    """Every game of ``text`` as Lark reads it, built by zrec's builder from the tree;
    raises Lark's ``UnexpectedInput`` where Lark refuses the text."""
    tree = reference_parser().parse(text, start="file")
    builder = Builder()
    builder.parts = parts()
    return [builder.transform(g) for g in tree.children if isinstance(g, Tree)]
