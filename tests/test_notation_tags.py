"""Tag pairs: where each stands in the text, and a tag string not closed on its line."""

from __future__ import annotations

import io

from lark_reference import reference_games
from zrec import Game, Span, read_game, read_records, read_string, write_game
from zrec.notation.json.values import game_from_json, game_to_json

TEXT = '[Game "mosona"]\n  [Event "E"] [Site "S"]\n[\tEvent "again"]\n\n1. b6-b5 *\n'


def test_every_tag_has_the_line_and_column_of_its_bracket() -> None:
    game = read_game(TEXT)
    assert game.tag_spans == (Span(1, 1), Span(2, 3), Span(2, 15), Span(3, 1))
    assert game.tag_span("Game") == Span(1, 1)
    assert game.tag_span("Event") == Span(2, 3)  # the first tag of that name
    assert game.tag_span("Site") == Span(2, 15)
    assert game.tag_span("Round") is None


def test_tag_spans_count_games_lines_bom_and_crlf() -> None:
    data = '\ufeff[Game "a"] *\r\n\r\n  [Game "b"]\r\n[Event "x"] *'.encode()
    first, second = (r.game for r in read_records(io.BytesIO(data)))
    assert first is not None and second is not None
    assert first.tag_spans == (Span(1, 1),)
    assert second.tag_spans == (Span(3, 3), Span(4, 1))


def test_tag_spans_take_no_part_in_equality_or_repr() -> None:
    game = read_game(TEXT)
    again = read_game(write_game(game))
    assert again == game and again.tag_spans != game.tag_spans
    assert Game(game.tags, game.line, game.result) == game
    assert "tag_spans" not in repr(game)


def test_a_game_from_json_has_no_tag_spans() -> None:
    game = game_from_json(game_to_json(read_game(TEXT)))
    assert game.tag_spans == ()
    assert game.tag_span("Game") is None


def test_lark_own_parser_gives_the_same_tag_spans() -> None:
    text = TEXT + '[Game "kolowis"]   [White "?"]\n*\n'
    theirs = reference_games(text)
    ours = [r.game for r in read_string(text)]
    assert [g.tag_spans for g in theirs] == [g.tag_spans for g in ours if g is not None]
    assert theirs[1].tag_spans == (Span(6, 1), Span(6, 20))


# ------------------------------------------------------------ an unclosed tag string


def test_an_unclosed_tag_string_is_named_and_the_next_games_are_read() -> None:
    text = (
        '[Game "mosona"]\n[Event "no closing quote\n[Site "x"]\n\n1. b6-b5 b4xb6 *\n\n'
        '[Game "kolowis"]\n*\n'
    )
    first, second = read_string(text, "t.zrec")
    assert first.problem is not None and first.game is None
    assert first.problem.code == "unclosed-string"
    assert first.problem.format() == (
        "t.zrec:2:25: the tag string opened at line 2, column 8 is not closed before the end "
        'of the line: a tag pair [Name "value"] is written on one line\n'
        '    2 | [Event "no closing quote\n'
        "      |                         ^"
    )
    assert second.game is not None and second.game.game_type == "kolowis"
    assert second.number == 2


def test_an_unclosed_tag_string_before_the_game_tag() -> None:
    text = '[Event "no closing quote\n[Game "mosona"]\n1. b6-b5 *\n[Game "mosona"] *\n'
    first, second = read_string(text, "t.zrec")
    assert first.problem is not None and first.problem.code == "unclosed-string"
    assert (first.problem.line, first.problem.column) == (1, 25)
    assert second.ok


def test_an_unclosed_tag_string_takes_the_rest_of_its_line() -> None:
    text = '[Game "mosona"] [Event "x] 1. b6-b5 *\r\n1. a4-b5 *\n[Game "mosona"] *'
    first, second = read_string(text, "t.zrec")
    assert first.problem is not None and first.problem.code == "unclosed-string"
    assert first.problem.message.startswith("the tag string opened at line 1, column 24 ")
    assert (first.problem.line, first.problem.column) == (1, 38)
    assert second.ok


def test_an_unclosed_tag_string_after_the_movetext_starts_a_game() -> None:
    text = '[Game "mosona"]\n1. b6-b5\n[Event "x\n[Game "kolowis"] *\n[Game "mosona"] *'
    first, second, third = read_string(text, "t.zrec")
    assert first.problem is not None and first.problem.code == "missing-result"
    assert second.problem is not None and second.problem.code == "unclosed-string"
    assert third.ok


def test_escapes_and_other_broken_tags() -> None:
    (record,) = read_string('[Game "m"]\n[Event "a \\"quoted\\" \\\\"]\n*', "t.zrec")
    assert record.game is not None and record.game.tag("Event") == 'a "quoted" \\'
    # an escaped quote does not close the string
    (record,) = read_string('[Game "m"]\n[Event "a \\"]\n*', "t.zrec")
    assert record.problem is not None and record.problem.code == "unclosed-string"
    # a string that is closed, in a tag pair that is not: the old message
    for bad in ('[Event "x" y]', "[Event x]", '[Event "a\\b"]'):
        (record,) = read_string(f'[Game "m"]\n{bad}\n*', "t.zrec")
        assert record.problem is not None and record.problem.code == "syntax", bad
        assert "not a well-formed tag pair" in record.problem.message
