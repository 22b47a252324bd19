"""The source line under a syntax error: control characters escaped, caret in place."""

from __future__ import annotations

import pytest

from zrec import SyntaxProblem, read_string
from zrec.check.validate import validate_records


def shown(text: str) -> list[str]:
    """The source line and the caret line of the only record of ``text``."""
    (record,) = read_string(text, "t.zrec")
    assert record.problem is not None
    head, line, caret = record.problem.format().split("\n")
    assert head.startswith("t.zrec:")
    return [line, caret]


def test_nul_lone_cr_and_escape_sequences_before_the_error() -> None:
    line, caret = shown('[Game "m"]\n1. b6-b5 {a\x00b} {\x1b[31mred\x1b[0m}\r b4xb6 zz9 *\n')
    assert line == "    2 | 1. b6-b5 {a\\x00b} {\\x1b[31mred\\x1b[0m}\\r b4xb6 zz9 *"
    assert caret.index("^") == line.index("zz9")
    assert caret.rstrip() == caret and caret.count("^") == 1


def test_the_bad_character_itself_is_escaped_and_marked() -> None:
    line, caret = shown('[Game "m"]\n1. b6-b5 {\x07} \x7f\x85 *\n')
    assert line == "    2 | 1. b6-b5 {\\x07} \\x7f\\x85 *"
    assert caret.index("^") == line.index("\\x7f")


def test_tabs_are_still_one_space() -> None:
    line, caret = shown('[Game "m"]\n1.\tb6-b5\t{\x1b}\tzz9 *\n')
    assert line == "    2 | 1. b6-b5 {\\x1b} zz9 *"
    assert caret.index("^") == line.index("zz9")


@pytest.mark.parametrize("char", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028"])
def test_characters_that_break_lines_do_not_break_the_excerpt(char: str) -> None:
    problem = SyntaxProblem("syntax", "bad", 1, 3, f"a{char}b zz9", "t.zrec")
    lines = problem.format().splitlines()
    assert len(lines) == 3
    assert lines[2].index("^") == lines[1].index("b zz9")
    (report,) = validate_records(read_string(f'[Game "m"]\n{{{char}}} zz9 *', "t.zrec"), "t.zrec")
    (diagnostic,) = report.diagnostics
    assert len(diagnostic.format().splitlines()) == 3


def test_a_long_line_with_control_characters_keeps_its_window_and_caret() -> None:
    text = "1. b6-b5 {" + "\x1b[1m " * 40 + "} zz9 " + "{" + "\x00" * 100 + "} *"
    line, caret = shown('[Game "m"]\n' + text)
    body = line[len("    2 | ") :]
    assert len(body) == 72
    assert body.startswith("...") and body.endswith("...")
    assert caret.index("^") == line.index("zz9")


def test_a_caret_after_the_end_of_the_line() -> None:
    problem = SyntaxProblem("truncated", "ends", 1, 9, "ab\x00cd", "t.zrec")
    assert problem.excerpt() == ("ab\\x00cd", 8)
