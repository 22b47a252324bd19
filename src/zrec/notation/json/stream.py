"""Reading a JSON document of any size a value at a time, the way :func:`json.loads`
would read it whole.

A document that is an array is read element by element; one that is several objects
one after another (JSON Lines, or objects spread over several lines each) value by
value.  The input is read twice: a first reading checks that the whole document is
well-formed (every value decodes, nothing is left over); only then does the second
reading hand out the values, so a caller never acts on the first values of a document
that turns out to be malformed.  Any other document (malformed, not UTF-8, one value
that is not an object or an array, ...) is given back whole, as bytes, for the caller
to read at once and report as :func:`json.loads` does.

An object longer than the reading buffer (a game of a million moves) is never whole
in memory: the first reading walks it member by member, and an array member element
by element; the second hands it out as a :class:`LongObject`, whose members come one
at a time, an array that does not fit in the buffer as a :class:`LongArray` of its
elements.  Memory holds a buffer and a value or two (an element of such an array), not
the document.
"""

from __future__ import annotations

import codecs
import json
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, Literal

__all__ = ["LongArray", "LongObject", "Values", "read_document"]

#: bytes read at a time
CHUNK = 1 << 20
_JSON_SPACE = " \t\n\r"
#: what separates values one after another (a byte order mark too, as before)
_SEQUENCE_SPACE = "\ufeff \t\n\r"
_DECODER = json.JSONDecoder()
#: how deep the first reading walks a value that does not fit in the buffer: an array
#: of games, a game, its list of moves; deeper values are decoded whole
_WALK_DEPTH = 3


class _Unusual(Exception):
    """The document is not one that is read a value at a time."""


@dataclass
class Values:
    """A well-formed document, to be read a value at a time.

    ``kind``: ``array`` (its elements), ``one`` (a single object) or ``sequence``
    (objects one after another).  ``items`` gives ``(line, value)``, the line where the
    value starts (counted for a sequence; 1 otherwise); an object too long for the
    buffer is a :class:`LongObject`.
    """

    kind: Literal["array", "one", "sequence"]
    items: Iterator[tuple[int, Any]]


class _Text:
    """The decoded text of a stream, read a chunk at a time; positions count the
    characters from the start of the document."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.start = stream.tell()  # the document's first byte
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
            text, at = self.text, pos - self.base
            while at < len(text) and text[at] in space:
                at += 1
            pos = at + self.base
            if at < len(text) or not self.more(pos):
                return pos

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

    def fitting(self, pos: int) -> tuple[Any, int] | None:
        """The value at ``pos`` and the position after it when it is whole within the
        next :data:`CHUNK` characters or so; ``None`` when it is not (or is malformed)."""
        if not self.char(pos):
            return None
        while True:
            try:
                value, end = _DECODER.raw_decode(self.text, pos - self.base)
            except json.JSONDecodeError:
                end = -1
            if 0 <= end < len(self.text) or (end >= 0 and self.done):
                return value, end + self.base
            if len(self.text) - (pos - self.base) >= CHUNK or not self.more(pos):
                return None  # too long for the buffer (or cut short: malformed)

    def walk(self, pos: int, depth: int) -> int:
        """Check that a well-formed value starts at ``pos``; the position after it.  An
        object or array that does not fit in the buffer is walked a member at a time,
        ``depth`` levels down, rather than decoded whole."""
        if depth and self.char(pos) in ("{", "["):
            found = self.fitting(pos)
            return found[1] if found is not None else self.walk_members(pos, depth - 1)
        return self.value(pos)[1]

    def walk_members(self, pos: int, depth: int) -> int:
        is_object = self.char(pos) == "{"
        close = "}" if is_object else "]"
        pos = self.skip(pos + 1)
        if self.char(pos) == close:
            return pos + 1
        while True:
            if is_object:
                pos = self.key(pos)[1]
            pos = self.skip(self.walk(pos, depth))
            char = self.char(pos)
            if char == close:
                return pos + 1
            if char != ",":
                raise _Unusual()
            pos = self.skip(pos + 1)

    def key(self, pos: int) -> tuple[str, int]:
        """A member's name, and the position of its value (past the colon)."""
        if self.char(pos) != '"':
            raise _Unusual()
        name, pos = self.value(pos)
        pos = self.skip(pos)
        if self.char(pos) != ":":
            raise _Unusual()
        return name, self.skip(pos + 1)

    def line_at(self, pos: int) -> int:
        self.count_lines(pos)
        return self.line

    def reread(self, pos: int) -> Any:
        """The value at ``pos``, read whole from the stream once more."""
        saved = self.stream.tell()
        try:
            self.stream.seek(self.start)
            text = _Text(self.stream)
            while pos - text.base > len(text.text) and text.more(text.base + len(text.text)):
                pass
            return text.value(pos)[0]
        finally:
            self.stream.seek(saved)


class LongArray:
    """An array too long for the buffer, read an element at a time (iterate over it
    once, to the end, before asking its object for the next member)."""

    def __init__(self, text: _Text, pos: int) -> None:
        self._end = -1
        self._elements = self._read(text, pos)

    def __iter__(self) -> Iterator[Any]:
        return self._elements

    def _read(self, text: _Text, pos: int) -> Iterator[Any]:
        pos = text.skip(pos + 1)
        if text.char(pos) == "]":
            self._end = pos + 1
            return
        while True:
            value, pos = text.value(pos)
            yield value
            pos = text.skip(pos)
            if text.char(pos) == "]":
                self._end = pos + 1
                return
            pos = text.skip(pos + 1)

    def finish(self) -> int:
        """Read to the end (what was not asked for is passed over); the position after."""
        for _ in self._elements:
            pass
        return self._end


class LongObject:
    """An object too long for the buffer: its members, a ``(name, value)`` at a time,
    in the order of the document (iterate over it once); an array member that does not
    fit in the buffer is a :class:`LongArray`."""

    def __init__(self, text: _Text, pos: int) -> None:
        self._text = text
        self._start = pos
        self._end = -1
        self._members = self._read(pos)

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        return self._members

    def _read(self, pos: int) -> Iterator[tuple[str, Any]]:
        text = self._text
        pos = text.skip(pos + 1)
        if text.char(pos) == "}":
            self._end = pos + 1
            return
        while True:
            name, pos = text.key(pos)
            found = text.fitting(pos)
            if found is not None:
                value, pos = found
                yield name, value
            elif text.char(pos) == "[":
                array = LongArray(text, pos)
                yield name, array
                pos = array.finish()
            else:
                value, pos = text.value(pos)
                yield name, value
            pos = text.skip(pos)
            if text.char(pos) == "}":
                self._end = pos + 1
                return
            pos = text.skip(pos + 1)

    def finish(self) -> int:
        """Read to the end (what was not asked for is passed over); the position after."""
        for _, value in self._members:
            if isinstance(value, LongArray):
                value.finish()
        return self._end

    def whole(self) -> Any:
        """The object as :func:`json.loads` gives it, read once more from the document
        (for a caller that finds it needs the whole after all, e.g. to report on it)."""
        return self._text.reread(self._start)


def _kind(stream: BinaryIO) -> Literal["array", "one", "sequence"]:
    """The first reading: what the document is, once it is known to be well-formed.
    Raises :class:`_Unusual` (or a decoding error)."""
    text = _Text(stream)
    pos = text.skip(0)
    first = text.char(pos)
    if first == "[":
        if text.char(text.skip(text.walk(pos, _WALK_DEPTH))):
            raise _Unusual()  # more after the array
        return "array"
    if first != "{":
        raise _Unusual()
    pos = text.walk(pos, _WALK_DEPTH - 1)
    if not text.char(text.skip(pos)):
        return "one"
    while True:
        pos = text.skip(pos, _SEQUENCE_SPACE)
        if not text.char(pos):
            return "sequence"
        pos = text.walk(pos, _WALK_DEPTH - 1)


def _handed_out(text: _Text, pos: int) -> Iterator[Any]:
    """The value at ``pos`` (a :class:`LongObject` when it does not fit in the buffer),
    then, after the caller is done with it, the position after it."""
    found = text.fitting(pos)
    if found is not None:
        yield found[0]
        yield found[1]
    elif text.char(pos) == "{":
        long = LongObject(text, pos)
        yield long
        yield long.finish()
    else:
        value, end = text.value(pos)
        yield value
        yield end


def _items(stream: BinaryIO, kind: str) -> Iterator[tuple[int, Any]]:
    """The second reading: ``(line, value)`` for each value of a well-formed document."""
    text = _Text(stream)
    pos = text.skip(0)
    if kind == "array":
        pos = text.skip(pos + 1)
        if text.char(pos) == "]":
            return
        while True:
            value = _handed_out(text, pos)
            yield 1, next(value)
            pos = text.skip(next(value))
            char = text.char(pos)
            pos = text.skip(pos + 1)
            if char == "]":
                return
    while text.char(pos):
        line = 1 if kind == "one" else text.line_at(pos)
        value = _handed_out(text, pos)
        yield line, next(value)
        pos = text.skip(next(value), _SEQUENCE_SPACE)


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
        kind = _kind(stream)
    except (_Unusual, ValueError, RecursionError):
        stream.seek(start)
        return stream.read()
    stream.seek(start)
    return Values(kind, _items(stream, kind))
