"""Reading a JSON document of any size a value at a time, the way :func:`json.loads`
would read it whole.

A document that is an array is read element by element; one that is several objects
one after another (JSON Lines, or objects spread over several lines each) value by
value.  The input is read twice: a first reading checks that the whole document is
well-formed (every value decodes, nothing is left over); only then does the second
reading hand out the values, so a caller never acts on the first values of a document
that turns out to be malformed.  Any other document (malformed, not UTF-8, one value
that is not an object or an array, ...) is given back whole, as bytes, for the caller
to read at once and report as :func:`json.loads` does.  Memory holds a value or two and
a buffer, not the document.
"""

from __future__ import annotations

import codecs
import json
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, Literal, cast

__all__ = ["Values", "read_document"]

#: bytes read at a time
CHUNK = 1 << 20
_JSON_SPACE = " \t\n\r"
#: what separates values one after another (a byte order mark too, as before)
_SEQUENCE_SPACE = "\ufeff \t\n\r"
_DECODER = json.JSONDecoder()


class _Unusual(Exception):
    """The document is not one that is read a value at a time."""


@dataclass
class Values:
    """A well-formed document, to be read a value at a time.

    ``kind``: ``array`` (its elements), ``one`` (a single object) or ``sequence``
    (objects one after another).  ``items`` gives ``(line, value)``, the line where the
    value starts (counted for a sequence; 1 otherwise).
    """

    kind: Literal["array", "one", "sequence"]
    items: Iterator[tuple[int, Any]]


class _Text:
    """The decoded text of a stream, read a chunk at a time; positions count the
    characters from the start of the document."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        head = stream.read(4)
        self.decoder = codecs.getincrementaldecoder(json.detect_encoding(head))("surrogatepass")
        self.text = self.decoder.decode(head, final=not head)
        self.base = 0  # the position of text[0]
        self.done = not head
        self.line = 1  # the line of ``mark``
        self.mark = 0  # where lines have been counted up to

    def more(self, keep: int) -> bool:
        """Read on, keeping the text from position ``keep``; False at the end."""
        if self.done:
            return False
        size = max(CHUNK, len(self.text))  # doubles while one value outgrows the buffer
        data = self.stream.read(size)
        self.count_lines(keep)
        drop = keep - self.base
        self.text = self.text[drop:] + self.decoder.decode(data, final=not data)
        self.base = keep
        self.done = not data
        return True

    def count_lines(self, upto: int) -> None:
        if upto > self.mark:
            self.line += self.text.count("\n", self.mark - self.base, upto - self.base)
            self.mark = upto

    def char(self, pos: int) -> str:
        """The character at ``pos``, ``""`` at the end of the document."""
        while pos - self.base >= len(self.text):
            if not self.more(pos):
                return ""
        return self.text[pos - self.base]

    def skip(self, pos: int, space: str = _JSON_SPACE) -> int:
        """The first position from ``pos`` that is not space."""
        while True:
            char = self.char(pos)
            if not char or char not in space:
                return pos
            pos += 1

    def value(self, pos: int) -> tuple[Any, int]:
        """The JSON value starting at ``pos`` and the position after it."""
        while True:
            try:
                value, end = _DECODER.raw_decode(self.text, pos - self.base)
            except json.JSONDecodeError:
                if self.more(pos):
                    continue
                raise _Unusual() from None
            if end == len(self.text) and self.more(pos):
                continue  # a number may go on in the next chunk
            return value, end + self.base

    def line_at(self, pos: int) -> int:
        self.count_lines(pos)
        return self.line


def _values(stream: BinaryIO) -> Iterator[tuple[str, int, Any]]:
    """``(kind, line, value)`` for each value; the kind comes first, alone, as
    ``(kind, 0, None)``.  Raises :class:`_Unusual` (or a decoding error)."""
    text = _Text(stream)
    pos = text.skip(0)
    first = text.char(pos)
    if first == "[":
        yield "array", 0, None
        pos = text.skip(pos + 1)
        if text.char(pos) == "]":
            pos += 1
        else:
            while True:
                value, pos = text.value(pos)
                yield "", 1, value
                pos = text.skip(pos)
                char = text.char(pos)
                pos = text.skip(pos + 1)
                if char == "]":
                    break
                if char != ",":
                    raise _Unusual()
        if text.char(text.skip(pos)):
            raise _Unusual()  # more after the array
        return
    if first != "{":
        raise _Unusual()
    value, end = text.value(pos)
    if not text.char(text.skip(end)):
        yield "one", 0, None
        yield "", 1, value
        return
    yield "sequence", 0, None
    yield "", text.line_at(pos), value
    pos = end
    while True:
        pos = text.skip(pos, _SEQUENCE_SPACE)
        if not text.char(pos):
            return
        line = text.line_at(pos)
        value, pos = text.value(pos)
        yield "", line, value


def read_document(stream: BinaryIO) -> Values | bytes:
    """The values of a well-formed JSON document (see the module's description), or
    the whole of any other document as bytes."""
    if not stream.seekable():
        spool = tempfile.TemporaryFile()  # noqa: SIM115 - handed on, closed with the values
        shutil.copyfileobj(stream, spool, CHUNK)
        spool.seek(0)
        stream = spool
    start = stream.tell()
    try:
        kind = ""
        for found, _, _ in _values(stream):
            kind = kind or found
    except (_Unusual, ValueError, RecursionError):
        stream.seek(start)
        return stream.read()
    stream.seek(start)
    return Values(cast(Literal["array", "one", "sequence"], kind), _items(stream))


def _items(stream: BinaryIO) -> Iterator[tuple[int, Any]]:
    values = _values(stream)
    next(values)  # the kind, known already
    for _, line, value in values:
        yield line, value
