"""The reader's one fast path (:mod:`zrec.notation.fastpath`) agrees with the grammar:
its lines give exactly the tokens Lark's lexer gives, its games exactly the games Lark's
parser builds (places included), or it leaves the line or game to the grammar; and the
reader reads every file the same with it and without it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput

from lark_reference import reference_parser
from strategies import games
from zrec.notation import _fast, fastpath, reader
from zrec.notation.grammar import ParseError, TokenT, parse_tokens, parse_turn_text
from zrec.notation.model import Game, Line, MoveNode
from zrec.notation.reader import Record, read_string
from zrec.notation.writer import write_game
from zrec.play.selfplay import random_games
from zrec.rules import all_games, find_game

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
FILES = sorted(SAMPLES.glob("*.zrec")) + sorted((SAMPLES / "invalid").glob("*.zrec"))


def _lark_tokens(text: str, number: int) -> list[TokenT] | None:
    """Lark's own lexer's tokens of one line, or ``None`` where it finds no token."""
    try:
        return [(t.type, str(t), number, t.column or 0) for t in reference_parser().lex(text)]
    except UnexpectedInput:
        return None


def _random_text(per_game: int = 3) -> str:
    return "".join(
        write_game(game)
        for spec in all_games()
        for game in random_games(spec, {}, per_game, 5, max_plies=80)
    )


def _agrees(text: str) -> bool:
    """The fast path agrees with Lark's lexer on ``text``; returns whether it took it."""
    plain = fastpath.CommonPath().plain_line(text, 7)
    if plain is None:
        return False
    moves, result = plain
    assert moves + ([] if result is None else [result]) == _lark_tokens(text, 7), text
    return True


def test_every_line_of_the_samples_and_of_random_games() -> None:
    taken = total = 0
    for path in FILES:
        for text in path.read_text(encoding="utf-8", errors="replace").splitlines(True):
            taken += _agrees(text)
            total += 1
    for text in _random_text().splitlines(True):
        taken += _agrees(text)
        total += 1
    assert 100 < taken < total


def test_lines_of_moves_take_the_fast_path() -> None:
    assert fastpath.CommonPath().plain_line("12. b4-b5 c3xb5 13. a1-a2\n", 3) == (
        [
            ("MOVE_NUMBER", "12.", 3, 1),
            ("ACTION", "b4-b5", 3, 5),
            ("ACTION", "c3xb5", 3, 11),
            ("MOVE_NUMBER", "13.", 3, 17),
            ("ACTION", "a1-a2", 3, 21),
        ],
        None,
    )
    assert fastpath.CommonPath().plain_line("  4...  b2-b3 1/2-1/2\r\n", 1) == (
        [("MOVE_NUMBER", "4...", 1, 3), ("ACTION", "b2-b3", 1, 9)],
        ("RESULT", "1/2-1/2", 1, 15),
    )
    assert fastpath.CommonPath().plain_line("\n", 1) == ([], None)
    # words after the result, a comment, a suffix, a tab, a glued number, a jump over a
    # point, glued dice, a comma starting a word or doubled, a bad word: the grammar
    # reads these
    for text in (
        "b4-b5 1-0 [Game\n",
        "b4-b5 {ok}\n",
        "b4-b5!\n",
        "b4-b5\tc1-c2\n",
        "12.b4-b5\n",
        "b4x(c3)d2\n",
        "12:a1-a2\n",
        "12: a1-a2 ,b2\n",
        "12: a1-a2,, b2\n",
        "b444\n",
    ):
        assert fastpath.CommonPath().plain_line(text, 1) is None, text


def test_dice_turns_take_the_fast_path() -> None:
    """Dice are one word; an action before a comma is two tokens, as the grammar has it."""
    assert fastpath.CommonPath().plain_line("3. 2: H 2114s: y25-y24, t20>y25 ,\n", 4) == (
        [
            ("MOVE_NUMBER", "3.", 4, 1),
            ("DICE", "2:", 4, 4),
            ("ACTION", "H", 4, 7),
            ("DICE", "2114s:", 4, 9),
            ("ACTION", "y25-y24", 4, 16),
            ("COMMA", ",", 4, 23),
            ("ACTION", "t20>y25", 4, 25),
            ("COMMA", ",", 4, 33),
        ],
        None,
    )
    assert fastpath.CommonPath().plain_line("35: --, H, m13-m12 0-0-1\n", 2) == (
        [
            ("DICE", "35:", 2, 1),
            ("ACTION", "--", 2, 5),
            ("COMMA", ",", 2, 7),
            ("ACTION", "H", 2, 9),
            ("COMMA", ",", 2, 10),
            ("ACTION", "m13-m12", 2, 12),
        ],
        ("RESULT", "0-0-1", 2, 20),
    )


# words made of what moves, numbers, results and their neighbours are made of
_WORD = st.text(alphabet='abcx19-.(H@Z:,*/$!?;{}[]"\t\r', min_size=1, max_size=8)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.one_of(_WORD, st.sampled_from(["b4-b5", "12.", "3...", "c1xb3", "--", "1-0", "*"])),
        max_size=8,
    ),
    st.lists(st.sampled_from([" ", "  ", " \t"]), min_size=8, max_size=8),
)
def test_odd_lines_agree_with_lark(words: list[str], spaces: list[str]) -> None:
    _agrees("".join(w + s for w, s in zip(words, spaces, strict=False)) + "\n")


_TAG_LINES = [
    '[Event "x"]\n',
    '[ Event  "a \\"b\\" c" ]\r\n',
    '[Event "a \\"b\\" \\\\ c"]\r\n',
    '[Event "x"] 1. b4-b5\n',
    '[Event "x"] {a comment}\n',
    '[Event "x"][Site "y"]\n',
    '[Event "x"]  \t \n',
    '[Event "x\n',
    "[Event x]\n",
    '[Event "x"] ]\n',
]


def _tag_agrees(text: str) -> bool:
    """A line the fast path takes as one tag pair is one tag pair to Lark."""
    pair = fastpath.plain_tag(text)
    if pair is None:
        return False
    assert _lark_tokens(text, 7) == [("TAG_PAIR", pair, 7, 1)]
    return True


def test_tag_lines_agree_with_lark() -> None:
    taken = [_tag_agrees(t) for t in _TAG_LINES]
    assert taken == [True, False, True, False, False, False, True, False, False, False]
    every = [t for p in FILES for t in p.read_text(errors="replace").splitlines(True)]
    assert sum(_tag_agrees(t) for t in every + _random_text().splitlines(True)) > 100


def _records(text: str) -> list[tuple[object, ...]]:
    def spans(record: Record) -> object:
        if record.game is None:
            return None
        return [n.span for n in record.game.line.moves], record.game.tag_spans

    return [(r, spans(r)) for r in read_string(text)]


def test_the_reader_reads_the_same_without_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in FILES]
    texts.append(_random_text())
    texts.append("".join(_TAG_LINES) + "1. b4-b5 *\n" + "".join(_TAG_LINES))
    fast = [_records(t) for t in texts]
    monkeypatch.setattr(fastpath.CommonPath, "plain_line", lambda self, text, number: None)
    monkeypatch.setattr(fastpath, "plain_tag", lambda text: None)
    monkeypatch.setattr(fastpath.CommonPath, "direct_game", lambda self, tokens: None)
    slow = [_records(t) for t in texts]
    assert fast == slow
    assert sum(len(f) for f in fast) > 30


# ------------------------------------------------------------ the common game


def _spans(line: Line) -> Iterator[object]:
    for node in line.moves:
        yield node.span
        for variation in node.variations:
            yield from _spans(variation)


def _same(one: Game, two: Game) -> bool:
    """Equal, places included (the model's equality leaves them out)."""
    return (
        one == two
        and one.tag_spans == two.tag_spans
        and list(_spans(one.line)) == list(_spans(two.line))
    )


def _token_lists(text: str, monkeypatch: pytest.MonkeyPatch) -> list[list[TokenT]]:
    """The tokens of every game the reader hands to the parser."""
    found: list[list[TokenT]] = []
    real = fastpath.CommonPath.direct_game

    def keep(self: fastpath.CommonPath, tokens: list[TokenT]) -> Game | None:
        found.append(list(tokens))
        return real(self, tokens)

    monkeypatch.setattr(fastpath.CommonPath, "direct_game", keep)
    list(reader.read_string(text))
    monkeypatch.setattr(fastpath.CommonPath, "direct_game", real)
    return found


def _check(tokens: list[TokenT]) -> bool:
    """The fast path and Lark agree on these tokens; returns whether the fast path
    took them."""
    direct = fastpath.CommonPath().direct_game(tokens)
    try:
        parsed = parse_tokens(tokens)
    except ParseError:
        assert direct is None
        return False
    if direct is None:
        return False
    assert _same(direct, parsed)
    # the writer writes the words the fast path kept as it writes the grammar's moves
    assert write_game(direct) == write_game(parsed)
    return True


def test_samples_and_random_games_take_the_fast_path_and_agree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.zrec"))]
    for name in ("mosona", "kolowis", "stone-warriors"):
        texts.extend(write_game(g) for g in random_games(find_game(name), {}, 20, 4))
    taken = sum(_check(t) for text in texts for t in _token_lists(text, monkeypatch))
    # every random game of a board game is plain; the samples with comments take Lark
    assert taken >= 60
    # a game of dice turns (paths, the herd, passes, jumps back to a shelter) too
    for seats in (1, 2, 4):
        for game in random_games(find_game("awethi"), {}, 3, seats, seats=seats):
            assert all(_check(t) for t in _token_lists(write_game(game), monkeypatch))


def test_every_invalid_sample_reads_the_same_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    for path in sorted((SAMPLES / "invalid").glob("*.zrec")):
        text = path.read_bytes().decode("utf-8", "replace")
        for tokens in _token_lists(text, monkeypatch):
            _check(tokens)


@settings(max_examples=300, deadline=None)
@given(games)
def test_written_games_read_the_same_both_ways(game: Game) -> None:
    with pytest.MonkeyPatch.context() as patch:
        for tokens in _token_lists(write_game(game), patch):
            _check(tokens)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["1.", "2...", "b6-b5", "c4xa6", "*", "1-0", "{x}", "(", ")", "$1"]),
        max_size=8,
    )
)
def test_odd_token_orders_read_the_same_both_ways(words: list[str]) -> None:
    text = '[Game "mosona"]\n\n' + " ".join(words) + "\n"
    with pytest.MonkeyPatch.context() as patch:
        for tokens in _token_lists(text, patch):
            _check(tokens)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["b4-b5", "c1xa3xc5", "P@g14"]),
    st.one_of(st.none(), st.integers(1, 999_999)),
    st.sampled_from([1, 3]),
    st.integers(1, 10**6),
    st.integers(1, 500),
)
def test_the_one_trick_builds_what_the_constructor_builds(
    text: str, number: int | None, dots: int, line: int, column: int
) -> None:
    turn = fastpath.plain_turn(text)
    assert turn is not None
    fast = _fast.plain_move(turn, number, dots, line, column)
    plain = _fast.plain_move_slowly(turn, number, dots, line, column)
    assert fast == plain and fast.span == plain.span and repr(fast) == repr(plain)
    assert hash(fast.span) == hash(plain.span)
    for name in MoveNode.__dataclass_fields__:
        assert getattr(fast, name) == getattr(plain, name)


_DICE_WORD = st.builds(
    lambda digits, option: digits + option + ":",
    st.text(alphabet="0123467", min_size=1, max_size=5),
    st.sampled_from(["", "", "e", "s", "z", "E", "ee"]),
)
_TURN_ACTION = st.one_of(
    st.sampled_from(["H", "--", "P@g14", "c3>a1", "b4x(c3)d2", "a1-", "H2"]),
    st.builds(
        lambda squares, seps: (
            squares[0] + "".join(s + q for s, q in zip(seps, squares[1:], strict=False))
        ),
        st.lists(st.sampled_from(["a1", "b2", "x3", "y25", "m13", "x10", "z9"]), min_size=1),
        st.lists(st.sampled_from("-x>"), min_size=6, max_size=6),
    ),
)
_JOIN = st.sampled_from([", ", ", ", " , ", ",", " ,", " ", ",, "])


@st.composite
def _dice_turn(draw: st.DrawFn) -> str:
    """A dice turn as a player might write it, now and then broken."""
    actions: list[str] = draw(st.lists(_TURN_ACTION, min_size=0, max_size=5))
    text: str = draw(_DICE_WORD)
    if actions:
        text += " " + actions[0]
        for action in actions[1:]:
            text += draw(_JOIN) + action
    number: str = draw(st.sampled_from(["", "", "7. ", "7... "]))
    return number + text


@settings(max_examples=500, deadline=None)
@given(
    st.lists(_dice_turn(), min_size=1, max_size=4),
    st.sampled_from(["", " *", " 1-0-0", " 0-0-1-0"]),
    st.sampled_from([" ", "\n"]),
)
def test_dice_turns_read_the_same_both_ways(turns: list[str], result: str, gap: str) -> None:
    """The fast path's tokens of a line of dice turns are Lark's lexer's, and the game it
    builds from them is the game Lark's parser builds (or both refuse it)."""
    movetext = gap.join(turns) + result
    for line in movetext.split("\n"):
        _agrees(line + "\n")
    text = '[Game "g"]\n\n' + movetext + "\n"
    with pytest.MonkeyPatch.context() as patch:
        for tokens in _token_lists(text, patch):
            _check(tokens)


_SQUARE_WORD = st.builds(
    lambda f, r: f + str(r), st.sampled_from("abcwxy"), st.integers(1, 25)
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_SQUARE_WORD, min_size=1, max_size=4), st.lists(st.sampled_from("-x"), min_size=3))
def test_a_plain_move_is_taken_apart_as_the_grammar_takes_it(
    squares: list[str], seps: list[str]
) -> None:
    """``x`` is a file letter as well as a capture: ``x1-x2``, ``a1xx2``."""
    text = squares[0] + "".join(s + q for s, q in zip(seps, squares[1:], strict=False))
    turn = fastpath.plain_turn(text)
    assert turn is not None and turn == parse_turn_text(text)
    game = '[Game "awethi"]\n1. ' + text + " *\n"
    with pytest.MonkeyPatch.context() as patch:
        (tokens,) = _token_lists(game, patch)
    assert _check(tokens)


def test_moves_on_the_x_file_read_as_written() -> None:
    for text, squares, seps in (
        ("x1-x2", ("x1", "x2"), ("-",)),
        ("a1xx2", ("a1", "x2"), ("x",)),
        ("x10xa3-y25", ("x10", "a3", "y25"), ("x", "-")),
    ):
        turn = fastpath.plain_turn(text)
        assert turn is not None
        (action,) = turn.actions
        assert (action.squares, action.seps) == (squares, seps), text
