"""The reader: what a record means, exact errors, and recovery after a broken game."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest

from zrec import Comment, ZrecSyntaxError, read_game, read_records, read_string
from zrec.moves import Action, Dice, Turn, chain, step


def one(text: str) -> str:
    """The formatted problem of the only record of ``text``."""
    records = list(read_string(text, "t.zrec"))
    assert len(records) == 1
    assert records[0].problem is not None
    return records[0].problem.format()


def test_tags_keep_order_escapes_and_unknown_names() -> None:
    game = read_game('[Game "mosona"]\n[Zzz "a \\"b\\" \\\\ c"]\n[Event "E"]\n*\n')
    assert game.tags == (("Game", "mosona"), ("Zzz", 'a "b" \\ c'), ("Event", "E"))
    assert game.tag("Event") == "E"
    assert game.tag("Nope") is None
    assert game.line.moves == ()
    assert game.result == "*"


def test_moves_numbers_suffix_nags_and_comments() -> None:
    game = read_game(
        '[Game "mosona"]\n{start} 1. b6-b5 {centre} b4xb6!? $1 $14 2. {why} a5-b5 ; done\n1-0'
    )
    first, second, third = game.line.moves
    assert first.turn == Turn((step("b6", "b5"),))
    assert (first.number, first.dots) == (1, 1)
    assert first.comments_before == (Comment("start"),)
    assert first.comments_after == (Comment("centre"),)
    assert second.turn == Turn((chain("b4", "b6"),))
    assert (second.number, second.suffix, second.nags) == (None, "!?", (1, 14))
    assert third.comments_before == (Comment("why"),)
    assert third.comments_after == (Comment("done", "line"),)
    assert game.result == "1-0"
    assert (first.span.line, first.span.column) == (2, 12)  # type: ignore[union-attr]


def test_chain_with_jumped_point_and_black_move_number() -> None:
    game = read_game('[Game "mosona"]\n1... a4x(a5)b6x(c4)b4 *')
    (node,) = game.line.moves
    assert (node.number, node.dots) == (1, 3)
    assert node.turn.actions == (Action("path", ("a4", "b6", "b4"), ("x", "x"), ("a5", "c4")),)


def test_stone_warriors_forms() -> None:
    game = read_game('[Game "stone-warriors"]\n1. f5-f6xf7xg6 P@g14 2. -- *')
    a, b, c = (n.turn.actions[0] for n in game.line.moves)
    assert a == Action("path", ("f5", "f6", "f7", "g6"), ("-", "x", "x"), (None, None, None))
    assert b == Action("drop", ("g14",), piece="P")
    assert c == Action("pass")


def test_dice_turns() -> None:
    game = read_game('[Game "awethi"]\n1. 3: H 2413e: a1-a3, b2-b4, c1, d4>a1 26: m13-m14xm15 0-1')
    herd, shepherds, wolf = (n.turn for n in game.line.moves)
    assert herd == Turn((Action("herd"),), Dice((3,)))
    assert shepherds.dice == Dice((2, 4, 1, 3), "e")
    assert [a.text() for a in shepherds.actions] == ["a1-a3", "b2-b4", "c1", "d4>a1"]
    assert shepherds.actions[3].seps == (">",)
    assert wolf.dice == Dice((2, 6))
    assert wolf.actions[0].seps == ("-", "x")


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2", "*", "0-1-0", "1/2-1/2-0-0"])
def test_results(result: str) -> None:
    assert read_game(f'[Game "awethi"]\n{result}').result == result


def test_variations_nest_and_attach_to_the_move_before() -> None:
    game = read_game('[Game "mosona"]\n1. a5-b5 (1. b6-b5 b4xb6 (1... b4x(c4)b6)) c4xa5 *')
    first = game.line.moves[0]
    (variation,) = first.variations
    assert [n.turn.text() for n in variation.moves] == ["b6-b5", "b4xb6"]
    assert variation.moves[1].variations[0].moves[0].turn.text() == "b4x(c4)b6"
    assert game.line.moves[1].turn.text() == "c4xa5"


def test_comment_white_space_is_folded() -> None:
    game = read_game('[Game "mosona"]\n{  two\n   lines\tand  tabs } *')
    assert game.line.comments == (Comment("two lines and tabs"),)


def test_bom_and_crlf() -> None:
    data = '\ufeff[Game "mosona"]\r\n1. b6-b5 b4xb6 *\r\n'.encode()
    (record,) = read_records(io.BytesIO(data))
    assert record.game is not None
    assert record.game.tags == (("Game", "mosona"),)
    assert len(record.game.line.moves) == 2


def test_games_end_with_their_result_not_a_blank_line() -> None:
    records = list(read_string('[Game "mosona"]\n\n1. b6-b5\n\nb4xb6 * [Game "kolowis"] *'))
    assert [r.ok for r in records] == [True, True]
    assert [r.number for r in records] == [1, 2]
    assert records[0].game.line.moves[1].turn.text() == "b4xb6"  # type: ignore[union-attr]


def test_garbage_move_token() -> None:
    assert one('[Game "mosona"]\n1. b6-b5 zz9 *\n') == (
        "t.zrec:2:10: found 'zz9', which is not a move, a move number, a comment, a NAG or "
        "a result; expected a move number, a move, a dice roll, an annotation "
        "(! ? !! ?? !? ?!), a NAG ($n), a comment, a variation '(' or the result "
        "(1-0, 0-1, 1/2-1/2 or *)\n"
        "    2 | 1. b6-b5 zz9 *\n"
        "      |          ^"
    )


def test_close_paren_is_expected_only_inside_a_variation() -> None:
    assert "')' closing the variation" in one('[Game "m"]\n1. b6-b5 (b4xb6 zz9) *')
    assert "')' closing the variation" not in one('[Game "m"]\n1. b6-b5 (b4xb6) zz9 *')


def test_invisible_characters_are_named() -> None:
    # (a no-break space is read as a space: see tests/test_notation_typography.py)
    assert "found '\\u2003b4xb6'" in one('[Game "m"]\n1. b6-b5 \u2003b4xb6 *')


def test_empty_game_tag() -> None:
    (record,) = read_string('[Game " "]\n*')
    assert record.problem is not None and record.problem.code == "missing-tag"


def test_bad_tag() -> None:
    # (a string not closed on its line has its own message: tests/test_notation_tags.py)
    problem = one('[Game "mosona"]\n[Event unquoted]\n*\n')
    assert problem.startswith(
        "t.zrec:2:1: found '[Event', which is not a well-formed tag pair [Name \"value\"]"
    )


def test_missing_result_then_next_game_is_read() -> None:
    records = list(read_string('[Game "mosona"]\n1. b6-b5\n[Game "kolowis"]\n*\n', "t.zrec"))
    assert records[0].problem is not None
    assert records[0].problem.code == "missing-result"
    assert records[0].problem.format().splitlines()[0] == (
        "t.zrec:2:9: the game has no result: a result (1-0, 0-1, 1/2-1/2 or *) must end it "
        "before the next game's tags"
    )
    assert records[1].game is not None and records[1].game.game_type == "kolowis"


def test_unclosed_comment_resumes_at_the_next_tag_line() -> None:
    text = '[Game "mosona"]\n1. b6-b5 { never closed\nmore\n[Game "kolowis"]\n*\n[Game "x"] *'
    records = list(read_string(text, "t.zrec"))
    assert records[0].problem is not None and records[0].problem.code == "unclosed-comment"
    assert (records[0].problem.line, records[0].problem.column) == (2, 10)
    assert [r.game.game_type for r in records[1:] if r.game] == ["kolowis", "x"]


def test_truncated_file() -> None:
    records = list(read_string('[Game "mosona"]\n*\n[Game "mosona"]\n1. b6-b5 (b4xb6', "t.zrec"))
    assert records[0].ok
    problem = records[1].problem
    assert problem is not None and problem.code == "truncated"
    assert (problem.line, problem.column) == (4, 16)
    assert "the file ends before this game's result" in problem.message


def test_invalid_utf8_breaks_only_its_game() -> None:
    data = b'[Game "mosona"]\n{caf\xe9} *\n[Game "mosona"]\n1. b6-b5 *\n'
    records = list(read_records(io.BytesIO(data), "t.zrec"))
    assert records[0].problem is not None
    assert records[0].problem.code == "encoding"
    assert records[0].problem.format().splitlines()[0] == (
        "t.zrec:2:5: the file is not UTF-8 (byte 0xe9 here); it looks like Latin-1 "
        "(ISO-8859-1): convert it with: iconv -f ISO-8859-1 -t UTF-8 t.zrec > t.utf8.zrec"
    )
    assert records[1].ok


@pytest.mark.parametrize(
    ("data", "looks"),
    [
        # Windows-1252: curly quotes (0x93, 0x94) are not Latin-1 characters
        (b"{\x93caf\xe9\x94}", "Windows-1252 (CP1252): convert it with: iconv -f WINDOWS-1252"),
        (b"{caf\xe9}", "Latin-1 (ISO-8859-1): convert it with: iconv -f ISO-8859-1"),
    ],
)
def test_a_file_not_in_utf8_gets_the_iconv_line_that_converts_it(data: bytes, looks: str) -> None:
    text = b'[Game "mosona"]\n' + data + b" *\n"
    [record] = read_records(io.BytesIO(text), "my games/old.zrec")
    assert record.problem is not None and record.problem.code == "encoding"
    message = record.problem.message
    assert message.split("; ", 1)[1] == (
        f"it looks like {looks} -t UTF-8 'my games/old.zrec' > 'my games/old.utf8.zrec'"
    )


def test_bytes_of_no_known_encoding_are_said_to_be_not_utf8() -> None:
    [record] = read_records(io.BytesIO(b'[Game "mosona"]\n{\x81\x8d} *\n'), "t.zrec")
    assert record.problem is not None
    assert record.problem.message == (
        "the file is not UTF-8 (byte 0x81 here), nor in an encoding zrec recognises: "
        "convert it to UTF-8"
    )


def test_missing_game_tag() -> None:
    records = list(read_string('[Event "x"]\n1. b6-b5 *\n', "t.zrec"))
    assert records[0].problem is not None
    assert records[0].problem.code == "missing-tag"


def test_a_ten_megabyte_line_gets_a_short_error() -> None:
    huge = "1. b6-b5 {" + "long " * 2_000_000 + "} zz9 *"
    (record,) = read_string('[Game "mosona"]\n' + huge, "t.zrec")
    assert record.problem is not None
    text = record.problem.format()
    lines = text.splitlines()
    assert lines[0].startswith("t.zrec:2:10000013: found 'zz9'")
    assert len(lines) == 3
    assert all(len(line) < 90 for line in lines[1:])
    assert lines[1].endswith("long } zz9 *")
    assert lines[2].index("^") == lines[1].index("zz9")


def test_read_game_raises_with_the_problem() -> None:
    with pytest.raises(ZrecSyntaxError) as info:
        read_game('[Game "mosona"]\n1. b6-b5 zz9 *')
    assert info.value.problem.code == "syntax"
    with pytest.raises(ZrecSyntaxError, match="more than one game"):
        read_game('[Game "a"] * [Game "b"] *')
    with pytest.raises(ZrecSyntaxError, match="no game found"):
        read_game("  \n")


def test_memory_does_not_grow_with_the_file() -> None:
    import tracemalloc

    game = (
        '[Game "mosona"]\n[Event "Memory"]\n\n1. b6-b5 {'
        + "a long comment " * 400
        + "} b4xb6 *\n\n"
    ).encode()

    class Stream(io.BytesIO):
        """Hands out the same game 300 times without holding the whole file."""

        def __iter__(self) -> Iterator[bytes]:
            for _ in range(300):
                yield from io.BytesIO(game)

    tracemalloc.start()
    count = sum(1 for r in read_records(Stream(), "big") if r.ok)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert count == 300
    assert len(game) * 300 > 1_800_000
    assert peak < 1_000_000
