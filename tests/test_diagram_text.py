"""Captions and titles that do not fit the picture wrap onto several lines.

A caption that fits stays one plain ``<text>`` (the golden pictures in tests/golden
check that byte for byte); a long one becomes a ``<text>`` of ``<tspan>`` lines, broken
at spaces, and the picture grows to hold them.
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

from zrec import read_game
from zrec.render.diagram import Frame, diagram, diagram_for_record
from zrec.render.strip import strip, strip_for_record
from zrec.render.text import EM_PER_CHAR, EM_PER_CHAR_BOLD, text_width, wrap
from zrec.rules.serpent.rules import KOLOWIS, MOSONA
from zrec.rules.stonewarriors.rules import StoneWarriors

SVG = "{http://www.w3.org/2000/svg}"
LONG = (
    "The first recorded game of the serpent board, played at the pueblo in the summer "
    "of 1903 as noted down by Stevenson"
)  # 119 characters: wider than any board at 15 px


def captions(svg: str, cls: str = "caption") -> list[list[str]]:
    """The lines of every ``<text>`` of class ``cls`` (exactly), in document order."""
    out = []
    for text in ET.fromstring(svg).iter(f"{SVG}text"):
        if text.attrib.get("class") == cls:
            spans = text.findall(f"{SVG}tspan")
            out.append([s.text or "" for s in spans] if spans else [text.text or ""])
    return out


def size_of(svg: str) -> tuple[float, float]:
    _, _, width, height = ET.fromstring(svg).attrib["viewBox"].split()
    return float(width), float(height)


def test_wrap_breaks_at_spaces_and_keeps_text_that_fits() -> None:
    assert wrap("1. b6-b5", 300, 15) == ["1. b6-b5"]
    assert wrap("two  spaces kept", 300, 15) == ["two  spaces kept"]  # fits: unchanged
    lines = wrap(LONG, 300, 15)
    assert len(lines) > 2 and " ".join(lines) == LONG
    assert all(text_width(line, 15) <= 300 - 12 for line in lines)
    # a line takes as many words as fit: the next word would not have fitted
    for line, after in itertools.pairwise(lines):
        assert text_width(f"{line} {after.split()[0]}", 15) > 300 - 12


def test_a_word_longer_than_a_line_is_broken() -> None:
    word = "Supercalifragilisticexpialidocious" * 3
    lines = wrap(f"a {word} b", 200, 15)
    assert "".join(lines).replace(" ", "") == f"a{word}b"
    assert all(text_width(line, 15) <= 200 - 12 for line in lines)
    assert len(lines) >= 3


def test_wide_characters_count_as_a_full_em() -> None:
    assert text_width("漢字", 10) == 20
    assert text_width("ab", 10) == 2 * 10 * EM_PER_CHAR


def test_a_long_caption_wraps_under_the_board_and_the_picture_grows() -> None:
    engine = MOSONA.engine()
    short = diagram(engine, engine.start(), caption="Figure 1")
    assert captions(short) == [["Figure 1"]]
    assert "<tspan" not in short
    svg = diagram(engine, engine.start(), caption=LONG)
    (lines,) = captions(svg)
    assert len(lines) >= 2 and " ".join(lines) == LONG
    width, height = size_of(svg)
    assert all(text_width(line, 15) <= width for line in lines)
    assert height == size_of(short)[1] + (len(lines) - 1) * 19
    # every line is centred, each a line lower than the one before, inside the picture
    spans = ET.fromstring(svg).findall(f".//{SVG}tspan")
    assert {s.attrib["x"] for s in spans} == {re.sub(r"\.0$", "", str(width / 2))}
    ys = [float(s.attrib["y"]) for s in spans]
    assert ys == sorted(ys) and ys[-1] < height
    assert ET.fromstring(svg).find(f"{SVG}title").text == LONG  # type: ignore[union-attr]


def test_a_long_event_wraps_the_title_of_a_strip_and_pushes_the_boards_down() -> None:
    text = '[Game "kolowis"]\n[Event "{}"]\n\n1. b10-b9 b8xb10 *\n'
    short = strip_for_record(read_game(text.format("Short")), columns=3)
    svg = strip_for_record(read_game(text.format(LONG)), columns=1)
    (title,) = captions(svg, "caption title")
    assert len(title) >= 2 and " ".join(title) == f"Kolowis Awithlaknannai — {LONG}"
    width, _ = size_of(svg)
    assert all(text_width(line, 17, EM_PER_CHAR_BOLD) <= width for line in title)
    assert captions(short, "caption title") == [["Kolowis Awithlaknannai — Short"]]
    boards = [g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.attrib.get("class") == "board"]
    top = float(boards[0].attrib["transform"].split()[1].rstrip(")"))
    spans = ET.fromstring(svg).findall(f".//{SVG}text[@class='caption title']/{SVG}tspan")
    assert top > float(spans[-1].attrib["y"])  # the first board starts under the title
    assert top == 26 + 10 + (len(title) - 1) * 21


def test_a_long_caption_of_one_board_of_a_strip_wraps_and_every_row_makes_room() -> None:
    engine = StoneWarriors()
    start = engine.start()
    words = "a caption for one board of the strip that is far too long for a single line"
    frames = [Frame(start, None, "start"), Frame(start, None, words), Frame(start, None, "end")]
    svg = strip(engine, frames, columns=2)
    lines = captions(svg)
    assert lines[0] == ["start"] and lines[2] == ["end"] and " ".join(lines[1]) == words
    assert len(lines[1]) >= 2
    plain = strip(engine, [Frame(start, None, "start")] * 3, columns=2)
    (_, height), (_, before) = size_of(svg), size_of(plain)
    assert height == before + 2 * (len(lines[1]) - 1) * 19  # both rows grow alike


def test_short_captions_are_byte_for_byte_as_before() -> None:
    game = read_game('[Game "mosona"]\n[Event "Culin"]\n\n1. b6-b5 b4xb6 *\n')
    assert "<tspan" not in strip_for_record(game)
    assert "<tspan" not in diagram_for_record(game, 1)
    engine = KOLOWIS.engine()
    assert '<text class="caption" x="668" y="165">Figure</text>' in diagram(
        engine, engine.start(), caption="Figure"
    )
