"""Cutting a text file into pieces of whole games, for reading in several processes.

The text is cut only where a game surely begins: at a line that opens with ``[`` after
a blank line, when the text before ends with a result token outside any comment (a
brace anywhere on a tag line, or a ``;``, counts as a comment that may still be open:
no cut there).  The reader would start a new game there too, so each piece read on its
own (:func:`zrec.notation.reader.read_records` with ``first_line``) gives the same
records as the whole file read at once, numbered from 1 in the piece; where the cutter
is unsure it does not cut, and the piece only grows.  Memory holds a piece or two.

The file is read a block of lines at a time.  A block with no ``{`` and no ``;``
(outside a comment left open before it) has no comment at all, and its places to cut
are found by one regular expression; any other block is read line by line.  Both ways
find the same places (the tests compare them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO

from zrec.notation.fastpath import RESULT

__all__ = ["GAMES_PER_PIECE", "cut"]

#: games in one piece, by default
GAMES_PER_PIECE = 250
#: the most games in one piece when pieces follow a size
MOST = 5_000
#: bytes read at a time (then on to the end of the line)
BLOCK = 1 << 20
#: a line that ends with a result token (the fast path's pattern of the grammar's RESULT)
_RESULT = re.compile(rb"(?:^|\s)(?:" + RESULT.encode("ascii") + rb")\s*$")
#: the end of a line, one or more blank lines, and a line that opens with ``[``
_GAP = re.compile(rb"\n(?:[^\S\n]*\n)+(?=\[)")


class _Cutter:
    """The cutter's state, a line at a time or a block at a time."""

    def __init__(self, games: int, size: int | None = None) -> None:
        self.games = max(1, games)  # 0 games a piece cuts as 1 does: at every game
        self.size = size  # bytes a piece should hold, if given: ``games`` follows it
        self.parts: list[bytes] = []  # the piece so far
        self.first = 1  # the line the piece starts on
        self.number = 0  # lines read
        self.in_comment = False
        self.blank_before = False
        self.ended = False  # the last text line ended with a result token, outside a comment
        self.begun = 1  # games begun in this piece (the first begins it)
        self.at = 0  # where :meth:`lines` stopped in its block

    def begins(self) -> bool:
        """A game begins here: whether the piece ends before it."""
        self.begun += 1
        if self.begun > self.games:
            self.begun = 1
            return True
        return False

    def piece(self, number: int) -> tuple[int, bytes]:
        """The piece so far, ending before line ``number``, which starts the next."""
        done = (self.first, b"".join(self.parts))
        self.parts, self.first = [], number
        if self.size:  # the next piece: as many games as fill ``size`` at this rate
            rate = len(done[1]) / self.games
            self.games = max(1, min(MOST, round(self.size / max(rate, 1.0))))
        return done

    def line(self, raw: bytes) -> tuple[int, bytes] | None:
        """Read one line; the piece it ends, if it begins the next."""
        self.number += 1
        text = raw.strip()
        if not text:
            self.blank_before = True
            self.parts.append(raw)
            return None
        done = None
        opens_tag = not self.in_comment and raw[:1] == b"["
        if opens_tag and self.blank_before and self.ended and self.begins():
            done = self.piece(self.number)
        if opens_tag:
            self.ended = False
            if b"{" in text:  # maybe a comment opened after the tag (or a brace in its
                self.in_comment = _comment_after(text, False)  # value): unsure, no cut
        else:
            line_comment = not self.in_comment and b";" in text
            if line_comment:  # the rest of the line is a comment (or unsure: no cut)
                text = text[: text.index(b";")]
            self.in_comment = _comment_after(text, self.in_comment)
            self.ended = (
                not line_comment and not self.in_comment and _RESULT.search(text) is not None
            )
        self.blank_before = False
        self.parts.append(raw)
        return done

    def lines(self, block: bytes, at: int, stop_at_text: bool) -> Iterator[tuple[int, bytes]]:
        """Read the block's lines from ``at``, one by one (``stop_at_text``: up to and
        with the first line that is not blank); ``self.at`` is where it stopped."""
        size = len(block)
        while at < size:
            end = block.find(b"\n", at)
            end = size if end < 0 else end + 1
            raw = block[at:end]
            done = self.line(raw)
            at = end
            if done is not None:
                yield done
            if stop_at_text and raw.strip():
                break
        self.at = at

    def fast(self, block: bytes, start: int) -> Iterator[tuple[int, bytes]]:
        """Read the rest of a block that holds no comment: ``start`` is the start of
        its first line that is not blank, read already (up to ``self.at``)."""
        kept = counted = self.at  # the text before ``kept`` is in the piece; the lines
        number = self.number  # before ``counted`` are counted: ``number``
        for found in _GAP.finditer(block, start):
            # the line before the blank lines is not blank (or the gap would start
            # earlier): a game begins if it is not a tag line and ends with a result
            line = block[block.rfind(b"\n", start, found.start()) + 1 : found.start()]
            if line[:1] == b"[" or _RESULT.search(line.strip()) is None:
                continue
            at = found.end()  # the ``[`` that opens a game, on line ``number + 1``
            number += block.count(b"\n", counted, at)
            counted = at
            if self.begins():
                self.parts.append(block[kept:at])
                kept = at
                yield self.piece(number + 1)
        self.parts.append(block[kept:])
        partial = len(block) > counted and not block.endswith(b"\n")  # the file's last line
        self.number = number + block.count(b"\n", counted) + partial
        # the state after the block comes from its last line that is not blank
        body = block[start:].rstrip()
        last = body[body.rfind(b"\n") + 1 :]
        after = block[start + len(body) :]  # the end of that line, and blank lines
        self.blank_before = b"\n" in after and bool(after[after.index(b"\n") + 1 :])
        self.ended = last[:1] != b"[" and _RESULT.search(last.strip()) is not None


def cut(
    stream: BinaryIO, games: int = GAMES_PER_PIECE, size: int | None = None
) -> Iterator[tuple[int, bytes]]:
    """Pieces of a text file, each ``(its first line number, its bytes)``: ``games``
    games each or, with ``size``, the first of ``games`` games and each next one of as
    many games as the last piece held in ``size`` bytes (so that pieces of long games
    and of short ones cost about the same to check)."""
    cutter = _Cutter(games, size)
    while block := stream.read(BLOCK):
        if not block.endswith(b"\n"):
            block += stream.readline()  # blocks of whole lines
        if cutter.in_comment or b"{" in block or b";" in block:
            yield from cutter.lines(block, 0, False)
            continue
        yield from cutter.lines(block, 0, True)  # up to the first line with text
        if cutter.at < len(block):
            start = block.rfind(b"\n", 0, cutter.at - 1) + 1  # that line
            yield from cutter.fast(block, start)
    if cutter.parts:
        yield cutter.first, b"".join(cutter.parts)


def _comment_after(text: bytes, in_comment: bool) -> bool:
    """Whether a comment is open after this line (comments do not nest)."""
    at = 0
    while True:
        if in_comment:
            at = text.find(b"}", at)
            if at < 0:
                return True
            in_comment = False
        else:
            at = text.find(b"{", at)
            if at < 0:
                return False
            in_comment = True
        at += 1
