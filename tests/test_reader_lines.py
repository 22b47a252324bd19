"""The reader's short ways (:mod:`zrec.notation.lines`: a line of moves split and each
word looked up, a line that is one tag pair matched at once) make exactly the tokens the
lexer makes, or leave the line to the lexer; and the reader reads every file the same
with them and without them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zrec.notation import lines
from zrec.notation.lines import plain_line
from zrec.notation.reader import Record, read_text
from zrec.notation.syntax import TokenT, token_regex
from zrec.notation.writer import write_game
from zrec.play.selfplay import random_games
from zrec.rules import all_games

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
FILES = sorted(SAMPLES.glob("*.zrec")) + sorted((SAMPLES / "invalid").glob("*.zrec"))


def _lexed(text: str, number: int) -> list[TokenT] | None:
    """The lexer's tokens of one line, or ``None`` where it finds no token."""
    regex = token_regex()
    tokens: list[TokenT] = []
    pos = 0
    while pos < len(text):
        found = regex.match(text, pos)
        if found is None:
            return None
        if found.lastgroup != "WHITESPACE":
            tokens.append((found.lastgroup or "", found.group(), number, pos + 1))
        pos = found.end()
    return tokens


def _agrees(text: str) -> bool:
    """The short way agrees with the lexer on ``text``, and takes every ASCII line of
    moves and move numbers between spaces; returns whether it took it."""
    plain = plain_line(text, 7)
    if plain is None:
        lexed = _lexed(text, 7)
        body = text.rstrip("\r\n")
        spaced = body.isascii() and not any(c in body for c in "\t\r\n")
        assert not (
            spaced and lexed is not None and all(t[0] in ("ACTION", "MOVE_NUMBER") for t in lexed)
        ), text
        return False
    assert plain == _lexed(text, 7)
    assert all(kind in ("ACTION", "MOVE_NUMBER") for kind, *_ in plain)
    return True


def _random_text(per_game: int = 3) -> str:
    return "".join(
        write_game(game)
        for spec in all_games()
        for game in random_games(spec, {}, per_game, 5, max_plies=80)
    )


def test_every_line_of_the_samples_and_of_random_games() -> None:
    taken = total = 0
    for path in FILES:
        for text in path.read_text(encoding="utf-8", errors="replace").splitlines(True):
            if text.isascii():
                taken += _agrees(text)
                total += 1
    for text in _random_text().splitlines(True):
        taken += _agrees(text)
        total += 1
    assert 100 < taken < total


def test_lines_of_moves_take_the_short_way() -> None:
    assert plain_line("12. b4-b5 c3xb5 13. a1-a2\n", 3) == [
        ("MOVE_NUMBER", "12.", 3, 1),
        ("ACTION", "b4-b5", 3, 5),
        ("ACTION", "c3xb5", 3, 11),
        ("MOVE_NUMBER", "13.", 3, 17),
        ("ACTION", "a1-a2", 3, 21),
    ]
    assert plain_line("  4...  b2-b3\r\n", 1) == [
        ("MOVE_NUMBER", "4...", 1, 3),
        ("ACTION", "b2-b3", 1, 9),
    ]
    assert plain_line("\n", 1) == []
    # a result, a comment, a suffix, a tab, a glued number: the lexer reads these
    for text in ("b4-b5 1-0\n", "b4-b5 {ok}\n", "b4-b5!\n", "b4-b5\tc1-c2\n", "12.b4-b5\n"):
        assert plain_line(text, 1) is None, text


# words made of what moves, numbers and their neighbours are made of
_WORD = st.text(alphabet='abcx19-.(H@Z:,*/$!?;{}[]"\t\r', min_size=1, max_size=8)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.one_of(_WORD, st.sampled_from(["b4-b5", "12.", "3...", "c1xb3", "--"])), max_size=8
    ),
    st.lists(st.sampled_from([" ", "  ", " \t"]), min_size=8, max_size=8),
)
def test_odd_lines_agree_with_the_lexer(words: list[str], spaces: list[str]) -> None:
    text = "".join(w + s for w, s in zip(words, spaces, strict=False)) + "\n"
    _agrees(text)


def _records(text: str) -> list[tuple[object, ...]]:
    def spans(record: Record) -> object:
        if record.game is None:
            return None
        return [n.span for n in record.game.line.moves], record.game.tag_spans

    return [(r, spans(r)) for r in read_text(text)]


_TAG_LINES = [
    '[Event "x"]\n',
    '[ Event  "a \\"b\\" c" ]\r\n',
    '[Event "x"] 1. b4-b5\n',
    '[Event "x"] {a comment}\n',
    '[Event "x"][Site "y"]\n',
    '[Event "x"]  \t \n',
    '[Event "x\n',
    "[Event x]\n",
    '[Event "x"] ]\n',
]


def _tag_agrees(text: str) -> bool:
    """A line the reader takes as one tag pair is one tag pair to the lexer."""
    whole = lines.tag_line().fullmatch(text)
    if whole is None:
        return False
    assert _lexed(text, 7) == [("TAG_PAIR", whole.group(1), 7, 1)]
    return True


def test_tag_lines_agree_with_the_lexer() -> None:
    taken = [_tag_agrees(t) for t in _TAG_LINES]
    assert taken == [True, True, False, False, False, True, False, False, False]
    every = [t for p in FILES for t in p.read_text(errors="replace").splitlines(True)]
    assert sum(_tag_agrees(t) for t in every + _random_text().splitlines(True)) > 100


def test_the_reader_reads_the_same_without_the_short_way(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in FILES]
    texts.append(_random_text())
    texts.append("".join(_TAG_LINES) + "1. b4-b5 *\n" + "".join(_TAG_LINES))
    fast = [_records(t) for t in texts]
    monkeypatch.setattr(lines, "plain_line", lambda text, number: None)
    monkeypatch.setattr(lines, "tag_line", lambda: re.compile("(?!)"))
    slow = [_records(t) for t in texts]
    assert fast == slow
    assert sum(len(f) for f in fast) > 30
