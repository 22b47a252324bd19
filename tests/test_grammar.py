"""The reader's lexer (:func:`zrec.notation.grammar.token_regex`, one expression of the
grammar's terminals as Lark compiles them) makes exactly the tokens Lark's own lexer
makes, and stops where Lark's lexer stops; a game the grammar refuses is refused where
Lark's own parser refuses it."""

from __future__ import annotations

from pathlib import Path

import pytest
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from lark_reference import reference_parser
from zrec.notation.grammar import PARTS, TOKEN_ORDER, ParseError, parse_tokens, patterns
from zrec.notation.grammar import token_regex as grammar_regex

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
FILES = sorted(SAMPLES.glob("*.zrec")) + sorted((SAMPLES / "invalid").glob("*.zrec"))


def _ours(text: str) -> tuple[list[tuple[str, str, int]], int | None]:
    """Our lexer's tokens (kind, text, offset) and where it stops (``None``: the end)."""
    regex = grammar_regex()
    tokens: list[tuple[str, str, int]] = []
    pos = 0
    while pos < len(text):
        found = regex.match(text, pos)
        if found is None:
            return tokens, pos
        if found.lastgroup != "WHITESPACE":
            tokens.append((found.lastgroup or "", found.group(), pos))
        pos = found.end()
    return tokens, None


def _theirs(text: str) -> tuple[list[tuple[str, str, int]], int | None]:
    tokens: list[tuple[str, str, int]] = []
    try:
        for token in reference_parser().lex(text):
            tokens.append((token.type, str(token), token.start_pos or 0))
    except UnexpectedCharacters as exc:
        return tokens, exc.pos_in_stream
    return tokens, None


def test_the_lexer_uses_the_grammar_s_terminals() -> None:
    assert set(TOKEN_ORDER) | set(PARTS) <= set(patterns())
    assert {t.name for t in reference_parser().terminals} == set(TOKEN_ORDER)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_lexer_agrees_with_lark_s_on_every_sample(path: Path) -> None:
    text = path.read_bytes().decode("utf-8", "replace")
    assert _ours(text) == _theirs(text)


@pytest.mark.parametrize(
    "text",
    [
        '[Game "mosona"]\n1. b6-b5 b4xb6 (1... c4xa6) 2. a1-a2 *',
        '[Game "x"] 1. 2413e: a1-a3, b2-b4 H -- P@g14 b4x(b5)b6 b1>a1 $12 !? ; note\n1-0-0',
        "1. b6-b5x c4",
        "12.b6 b444 {open",
        '[Event "x',
    ],
)
def test_the_lexer_agrees_with_lark_s_on_odd_text(text: str) -> None:
    assert _ours(text) == _theirs(text)


@pytest.mark.parametrize(
    "text",
    [
        '[Game "mosona"]\n1. b6-b5 2. *',
        '[Game "mosona"]\n1. b6-b5 (b4xb6 *',
        '[Game "mosona"]\n1. b6-b5 b4xb6 ) *',
        '[Game "mosona"]\n1. b6-b5, b4xb6 *',
        '[Game "mosona"]\n1. b6-b5',
    ],
)
def test_a_game_is_refused_where_lark_s_own_parser_refuses_it(text: str) -> None:
    tokens = [(kind, value, 1, offset + 1) for kind, value, offset in _ours(text)[0]]
    with pytest.raises(UnexpectedInput) as theirs:
        reference_parser().parse(text, start="game")
    with pytest.raises(ParseError) as ours:
        parse_tokens(tokens)
    if isinstance(theirs.value, UnexpectedToken):
        assert ours.value.expected == frozenset(theirs.value.expected)
        assert ours.value.token[1] == str(theirs.value.token)
    else:  # Lark's parser stops at the end of the text
        assert ours.value.token[0] == "$END"
