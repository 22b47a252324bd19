"""The reader's direct path for the common game (tag pairs, numbered moves, the result)
builds exactly the games the LALR loop builds, spans included, and leaves every other
game, and every broken one, to the loop and its errors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import games
from zrec.notation import reader, syntax
from zrec.notation.model import Game, Line
from zrec.notation.syntax import ParseError, TokenT, _direct, _machine, parse_tokens
from zrec.notation.writer import write_game
from zrec.play.selfplay import random_games
from zrec.rules import find_game

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


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
    real = syntax.parse_tokens

    def keep(tokens: list[TokenT], direct: bool = True) -> Game:
        found.append(list(tokens))
        return real(tokens, direct)

    monkeypatch.setattr(reader, "parse_tokens", keep)
    list(reader.read_text(text))
    monkeypatch.setattr(reader, "parse_tokens", real)
    return found


def _check(tokens: list[TokenT]) -> bool:
    """Both paths agree on these tokens; returns whether the direct path took them."""
    turn_of = _machine()[4]._turn
    direct = _direct(tokens, turn_of)
    try:
        loop = parse_tokens(tokens, direct=False)
    except ParseError:
        assert direct is None
        return False
    if direct is None:
        return False
    assert _same(direct, loop)
    return True


def test_samples_and_random_games_take_the_direct_path_and_agree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = [p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.zrec"))]
    for name in ("mosona", "kolowis", "stone-warriors"):
        texts.extend(write_game(g) for g in random_games(find_game(name), {}, 20, 4))
    taken = sum(_check(t) for text in texts for t in _token_lists(text, monkeypatch))
    # every random game is plain; the samples with comments take the loop
    assert taken >= 60


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
