"""The notation's grammar as Lark builds it: the parser, the terminals and the lexer.

``grammar/zrec.lark`` (shipped as ``zrec/_data/zrec.lark``) is the single source of
truth.  :func:`parser` is Lark's LALR(1) parser of the ``game`` rule, built through
Lark's public API with Lark's own cache (:func:`cache_path`); the record builder
(:mod:`zrec.notation.build`) is its transformer, so that no parse tree is made.  The
reader feeds it one game's tokens at a time (:func:`parse_tokens`).

The reader's lexer (:func:`token_regex`) is one regular expression whose alternatives
are Lark's patterns of the grammar's terminals, tried in :data:`TOKEN_ORDER`; it makes
one token of each move, tag pair, comment or dice roll.  Tokens are plain tuples
``(type, text, line, column)``.  Tests check that it makes the tokens Lark's own lexer
makes (tests/test_grammar.py).

Lark is imported only when a game needs it: the common lines of a file take the fast
path of :mod:`zrec.notation.fastpath`, which needs no parser.
"""

from __future__ import annotations

import os
import re
import sys
import zlib
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext, suppress
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zrec.resources import cache_dir, grammar_text

if TYPE_CHECKING:
    from lark import Lark

    from zrec.moves import Turn
    from zrec.notation.build import Builder, Parts
    from zrec.notation.model import Game

#: Terminals in the order the lexer tries them.  Order matters only where one
#: terminal's text can begin another's: a result ``1-0`` before a move number ``1.``
#: (they differ at once, but ``*`` and digits start several terminals).
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

#: The grammar's terminals that only build other terminals (``TAG_PAIR``, ``ACTION``,
#: ``DICE``); Lark keeps them so that tokens are taken apart with the grammar's own
#: patterns (:mod:`zrec.notation.build`).
PARTS = ("SQUARE", "VIA", "TAG_NAME", "TAG_STRING", "DIE", "DICE_OPTION")

TokenT = tuple[str, str, int, int]  # type, text, line, column (1-based)
END: TokenT = ("$END", "", 0, 0)


class ParseError(ValueError):
    """A token the grammar does not allow where it stands."""

    def __init__(self, token: TokenT, expected: frozenset[str]):
        super().__init__(f"unexpected {token[0]} {token[1]!r}")
        self.token = token
        self.expected = expected


def cache_path(grammar: str) -> Path | None:
    """The file in which Lark keeps its analysis of this grammar: named by a checksum of
    the grammar's text, Lark's version and Python's, so that two installations sharing a
    home keep a file each.  (Lark itself checks, on loading it, that the grammar, its
    options and its own version are those it was made from, else makes it anew.)"""
    import lark

    directory = cache_dir()
    if directory is None:
        return None
    crc = zlib.crc32(grammar.encode("utf-8"))
    python = "".join(str(n) for n in sys.version_info[:2])
    return directory / f"grammar-{crc:08x}-lark{lark.__version__}-py{python}.lark-cache"


@contextmanager
def _locked(path: Path) -> Iterator[bool]:
    """Hold an exclusive lock (``path`` with ``.lock``) while Lark reads or writes the
    cache: Lark writes it in place, so two processes starting at once must not see
    half of it.  Yields whether the cache can be used at all (its folder can be made)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield path.exists()  # read it if it is there; Lark cannot write here either
        return
    try:
        try:
            import fcntl
        except ImportError:  # no POSIX locks on this system: go on without
            pass
        else:
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield True
    finally:
        os.close(handle)  # which releases the lock


def _forget_old_caches(directory: Path) -> None:
    """Remove the cache files of zrec's readers before this one (``grammar-tables-*.json``,
    which nothing reads any more)."""
    for old in directory.glob("grammar-tables-*.json"):
        with suppress(OSError):
            old.unlink()


class _KeepParts:
    """A post-lexer that changes nothing: Lark's way to keep terminals that no rule
    uses (:data:`PARTS`), so that their patterns can be asked for."""

    always_accept = PARTS

    def process(self, stream: Iterable[Any]) -> Iterable[Any]:
        return stream


def parser() -> Lark:
    """Lark's LALR(1) parser of one game, building the record model as it reduces.

    Lark's analysis of the grammar is cached in :func:`cache_path` when that folder can
    be written; a cache that cannot be read or written is no error (Lark then analyses
    the grammar again, about 60 ms).
    """
    return _built()[0]


@cache
def _built() -> tuple[Lark, Builder]:
    """The parser and its builder, made once."""
    from lark import Lark

    from zrec.notation.build import Builder, Parts

    text = grammar_text()
    path = cache_path(text)
    builder = Builder()
    with nullcontext(False) if path is None else _locked(path) as usable:
        new = usable and path is not None and not path.exists()
        lark = Lark(
            text,
            parser="lalr",
            lexer="basic",
            start="game",
            maybe_placeholders=False,
            transformer=builder,
            postlex=_KeepParts(),
            cache=str(path) if usable and path is not None else False,
        )
    if new and path is not None:
        _forget_old_caches(path.parent)
    builder.parts = Parts({t.name: t.pattern.to_regexp() for t in lark.terminals})
    return lark, builder


def parts() -> Parts:
    """The grammar's smaller terminals, to take tokens apart with."""
    return _built()[1].parts


@cache
def patterns() -> dict[str, str]:
    """Each terminal's regular expression, as Lark compiles it from the grammar."""
    return {t.name: t.pattern.to_regexp() for t in parser().terminals}


#: A group repeated by ``*`` or ``+`` in a pattern as Lark writes it.
_REPEATED_GROUP = re.compile(r"(?<!\\)\)([*+])(?![*+?])")


def possessive(pattern: str) -> str:
    """``pattern`` with each repeated group made possessive (``(...)*+``), on Python 3.11
    and later: the regular expression engine then keeps no state for each repetition,
    so that a move or a tag value of 10 MB costs no more memory than its text (and not
    some 100 bytes a character).  For the grammar's terminals this matches the same
    text: what may follow a repeated group never begins as the group does, so giving
    back a repetition never helps a match (tests/test_grammar.py checks the tokens
    against Lark's own lexer)."""
    if sys.version_info < (3, 11):
        return pattern
    return _REPEATED_GROUP.sub(r")\1+", pattern)


@cache
def token_regex() -> re.Pattern[str]:
    """One regular expression with a named group for each terminal, in TOKEN_ORDER
    (repeated groups possessive: :func:`possessive`)."""
    found = patterns()
    return re.compile("|".join(f"(?P<{name}>{possessive(found[name])})" for name in TOKEN_ORDER))


def parse_tokens(tokens: Sequence[TokenT]) -> Game:
    """Parse one game's tokens with Lark into a :class:`Game`; raises :class:`ParseError`
    at the first token the grammar does not allow (``END`` for the end of the game)."""
    from lark import Token
    from lark.exceptions import UnexpectedToken

    session = parser().parse_interactive(start="game")
    index = 0
    try:
        for index, (kind, text, line, column) in enumerate(tokens):  # noqa: B007
            session.feed_token(Token(kind, text, line=line, column=column))
        index = len(tokens)
        game: Game = session.feed_eof()  # type: ignore[no-untyped-call]
    except UnexpectedToken as exc:
        token = tokens[index] if index < len(tokens) else END
        raise ParseError(token, frozenset(exc.expected)) from None
    return game


@lru_cache(maxsize=4096)
def parse_turn_text(text: str) -> Turn:
    """The turn a move's text spells (``b4xb6``, ``2413e: a1-a3, b2-b4``), read with the
    reader's tokens; raises ``ValueError`` naming the problem."""
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
    try:
        return parts().turn(kinds, values)
    except ValueError:
        raise ValueError(f"{text!r} is not a move in the notation") from None


__all__ = [
    "END",
    "PARTS",
    "TOKEN_ORDER",
    "ParseError",
    "TokenT",
    "cache_dir",
    "cache_path",
    "parse_tokens",
    "parse_turn_text",
    "parser",
    "parts",
    "patterns",
    "possessive",
    "token_regex",
]
