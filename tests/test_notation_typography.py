"""Typographic characters pasted from a paper are read as ASCII, with one warning a game."""

from __future__ import annotations

import pytest

from zrec import Comment, read_game, read_string, write_game
from zrec.check.validate import validate_records
from zrec.notation.reader import Record
from zrec.notation.typography import ASCII_FOR, to_ascii

PASTED = (
    "[Game \u201cmosona\u201d]\n"  # “mosona”
    "[Event \u201eCulin\u2019s \u2013 opening\u201c]\n"  # „Culin’s – opening“: content kept
    '[Site "a \u2013 b \u201cc\u201d"]\n'  # straight quotes: all content
    "\n"
    "1. b6\u2013b5 {a \u2014 b \u00d7} (1. a4\u2212b5 c5\u00d7a4) b4\u00d7b6\u00a0; x \u2013 y\n"
    "*\n"
)


def one(text: str) -> Record:
    (record,) = read_string(text, "t.zrec")
    return record


def test_pasted_characters_are_read_as_ascii_outside_comments_and_values() -> None:
    record = one(PASTED)
    assert record.game is not None, record.problem
    game = record.game
    assert game.tags == (
        ("Game", "mosona"),
        ("Event", "Culin\u2019s \u2013 opening"),
        ("Site", "a \u2013 b \u201cc\u201d"),
    )
    first, second = game.line.moves
    assert first.turn.text() == "b6-b5"
    assert first.comments_after == (Comment("a \u2014 b \u00d7"),)
    assert second.turn.text() == "b4xb6"
    assert [n.turn.text() for n in first.variations[0].moves] == ["a4-b5", "c5xa4"]
    assert second.comments_after == (Comment("x \u2013 y", "line"),)
    typed = (
        '[Game "mosona"]\n[Event "Culin\u2019s \u2013 opening"]\n'
        '[Site "a \u2013 b \u201cc\u201d"]\n'
        "1. b6-b5 {a \u2014 b \u00d7} (1. a4-b5 c5xa4) b4xb6 ; x \u2013 y\n*"
    )
    assert game == read_game(typed)


def test_one_warning_a_game_at_the_first_character() -> None:
    (note,) = one(PASTED).notes
    assert (note.code, note.line, note.column) == ("typography", 1, 7)
    assert note.message == (
        'typographic characters read as ASCII: \u201c as ", \u201d as ", \u201e as ", '
        "\u2013 as -, \u2212 as -, \u00d7 as x, U+00A0 no-break space as space (9 places)"
    )
    assert note.format().splitlines()[1:] == [
        "    1 | [Game \u201cmosona\u201d]",
        "      |       ^",
    ]


def test_each_game_gets_its_own_places_even_on_one_line() -> None:
    text = '[Game "m"] 1. a1\u2013a2 * [Game "m"] 1. a1\u00d7a3 a3\u2014a4 *\n[Game "m"] *'
    first, second, third = read_string(text, "t.zrec")
    assert len(first.notes) == len(second.notes) == 1
    assert first.notes[0].message.endswith("\u2013 as - (1 place)")
    assert second.notes[0].message.endswith("\u00d7 as x, \u2014 as - (2 places)")
    assert (second.notes[0].line, second.notes[0].column) == (1, 39)
    assert third.notes == ()


def test_a_game_that_cannot_be_read_keeps_its_note() -> None:
    record = one('[Game "m"]\n1. b6\u2013b5 zz9 *')
    assert record.problem is not None and record.problem.code == "syntax"
    assert [n.code for n in record.notes] == ["typography"]


def test_ascii_text_and_other_unicode_give_no_note() -> None:
    assert one('[Game "m"]\n1. b6-b5 {Zu\u00f1i \u2019} *').notes == ()
    # characters only inside comments and values: content, nothing read as ASCII
    assert one('[Game "m"] [E "\u2013\u00d7"] {\u2013} ; \u00d7\n*').notes == ()


def test_a_comment_begun_on_an_earlier_line_stays_content() -> None:
    record = one('[Game "m"]\n1. b6-b5 {one \u2013\ntwo \u2013} b4\u00d7b6 *')
    assert record.game is not None
    assert record.game.line.moves[0].comments_after == (Comment("one \u2013 two \u2013"),)
    assert record.notes[0].message.endswith("\u00d7 as x (1 place)")
    assert (record.notes[0].line, record.notes[0].column) == (3, 10)


def test_a_curly_quote_inside_a_straight_value_is_content() -> None:
    record = one('[Game "m"]\n[Event "he said \u201cgo\u201d"] *')
    assert record.game is not None and record.notes == ()
    assert record.game.tag("Event") == "he said \u201cgo\u201d"
    # opened straight, closed curly: the string is not closed
    record = one('[Game "m"]\n[Event "x\u201d]\n*')
    assert record.problem is not None and record.problem.code == "unclosed-string"


def test_an_unclosed_curly_string() -> None:
    record = one('[Game "m"]\n[Event \u201cx]\n*')
    assert record.problem is not None and record.problem.code == "unclosed-string"
    assert "opened at line 2, column 8" in record.problem.message


def test_fmt_writes_ascii() -> None:
    record = one(PASTED)
    assert record.game is not None
    text = write_game(record.game)
    assert "\u2013b" not in text and "\u00d7" not in text.split("{")[0].split("]")[-1]
    assert one(text).notes == ()
    assert "1. b6-b5 {a \u2014 b \u00d7} (1. a4-b5 c5xa4) b4xb6 ; x \u2013 y\n*" in text


def test_validate_reports_the_note_as_a_warning() -> None:
    (report,) = validate_records(read_string(PASTED, "t.zrec"), "t.zrec")
    assert report.valid
    assert [(d.code, d.severity, d.line, d.column) for d in report.diagnostics] == [
        ("typography", "warning", 1, 7)
    ]
    head = report.diagnostics[0].format().splitlines()[0]
    assert head.startswith("t.zrec:1:7: warning[typography] game 1: typographic characters ")
    text = '[Game "m"]\n1. b6\u2013b5 zz9 *'
    (report,) = validate_records(read_string(text, "t.zrec"), "t.zrec")
    assert [(d.code, d.severity) for d in report.diagnostics] == [
        ("typography", "warning"),
        ("syntax", "error"),
    ]


@pytest.mark.parametrize("char", sorted(ASCII_FOR))
def test_every_character_keeps_the_length_of_the_line(char: str) -> None:
    text, found = to_ascii(f"a{char}b {{{char}}} ; {char}")
    assert text == f"a{ASCII_FOR[char]}b {{{char}}} ; {char}"
    assert found == [1]
