"""Reading an input of records: JSON told from zrec text in one place, then its games.

An input is a file's bytes or a binary stream, with the name it was given (``-`` for
standard input, shown as ``<stdin>``).  It is JSON when its name ends in ``.json`` or
``.jsonl``, or else when its content starts like JSON (:func:`looks_like_json`);
otherwise it is zrec text (:func:`tell`).  :func:`read_input` gives its games, each a
:class:`~zrec.notation.records.Record` (text) or a
:class:`~zrec.notation.json.convert.JsonRecord` (JSON), holding the game or the
problem that stops it being read.  The command line and the server read every input
this way (checking it is :func:`zrec.check.validate.validate_input`).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:  # each reader is imported for its own inputs only (start-up)
    from zrec.notation.json.convert import JsonRecord
    from zrec.notation.records import Record

__all__ = [
    "display_name",
    "is_json_name",
    "looks_like_json",
    "read_input",
    "sniff",
    "tell",
]

_SPACE = b" \t\r\n"
_BOM = b"\xef\xbb\xbf"
#: ``[`` that opens a tag pair: a letter after optional horizontal space
_TAG_OPEN = re.compile(rb"\[[ \t]*[A-Za-z]")
#: a JSON string and the space after it (a key, when a colon follows)
_KEY = re.compile(rb'"(?:[^"\\\r\n]|\\.)*"\s*')
#: how much of an input is looked at to tell JSON from text
_HEAD = 64 * 1024


def display_name(file: str) -> str:
    """How messages name an input: ``<stdin>`` for ``-``."""
    return "<stdin>" if file == "-" else file


def is_json_name(file: str) -> bool:
    """Whether a file's name says it holds JSON (``.json``, ``.jsonl``)."""
    return file.endswith((".json", ".jsonl"))


def _verdict(head: bytes, complete: bool) -> bool | None:
    """Whether ``head`` starts like JSON; ``None`` when more bytes are needed."""
    text = head[len(_BOM) :] if head.startswith(_BOM) else head
    text = text.lstrip(_SPACE)
    if not text:
        return False if complete else None
    if text[:1] == b"[":
        if _TAG_OPEN.match(text):
            return False
        rest = text[1:].lstrip(b" \t")
        return True if rest or complete else None
    if text[:1] == b"{":
        rest = text[1:].lstrip(_SPACE)
        if rest[:1] == b"}":
            return True
        if rest[:1] != b'"':
            return False if rest or complete else None
        key = _KEY.match(rest)
        if key is None or key.end() == len(rest):
            return False if complete else None  # a key still being read
        return rest[key.end() : key.end() + 1] == b":"
    return False


def looks_like_json(head: bytes) -> bool:
    """Whether an input starting with ``head`` (the whole input, or its first 64 KiB)
    is JSON, not zrec text.

    It is when its first character (after space and a byte order mark) is ``{`` that
    opens an object (a key and a colon follow, or ``}``), or ``[`` not followed by a
    tag name (``[Game "..."]`` is a tag pair; ``[{``, ``[]`` and ``[`` at the end of a
    line are JSON).
    """
    return bool(_verdict(head, True))


def _read_some(stream: BinaryIO, size: int) -> bytes:
    """Up to ``size`` bytes, without waiting for more than one read where the stream
    allows it (a pipe gives what it has); ``b""`` at the end."""
    if isinstance(stream, io.BufferedIOBase):
        return stream.read1(size)
    return stream.read(size)


class _Replayed(io.RawIOBase):
    """The bytes already read from a stream that cannot seek, then the rest of it."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        super().__init__()
        self.head = head
        self.rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self.head:
            size = min(len(buffer), len(self.head))
            buffer[:size] = self.head[:size]
            self.head = self.head[size:]
            return size
        data = _read_some(self.rest, len(buffer))
        buffer[: len(data)] = data
        return len(data)


def sniff(stream: BinaryIO) -> tuple[bool, BinaryIO]:
    """Whether ``stream`` starts like JSON (:func:`looks_like_json`), and a stream that
    reads it from where it was: the bytes looked at are read again."""
    seekable = stream.seekable()
    start = stream.tell() if seekable else 0
    head = b""
    verdict: bool | None = None
    while verdict is None:
        chunk = _read_some(stream, _HEAD - len(head))
        head += chunk
        verdict = _verdict(head, not chunk or len(head) >= _HEAD)
    if seekable:
        stream.seek(start)
        return verdict, stream
    return verdict, io.BufferedReader(_Replayed(head, stream))


def tell(source: bytes | BinaryIO, file: str) -> tuple[bool, BinaryIO]:
    """Whether an input is JSON (its name says so, or else its start), and a stream
    that reads it from its start."""
    stream = io.BytesIO(source) if isinstance(source, bytes) else source
    if is_json_name(file):
        return True, stream
    return sniff(stream)


def read_input(
    source: bytes | BinaryIO, file: str, name: str | None = None, is_json: bool | None = None
) -> Iterator[Record | JsonRecord]:
    """Every game of one input (``file``: its name, ``-`` for standard input; ``name``:
    how messages name it, :func:`display_name` unless given), read as JSON or as zrec
    text as :func:`tell` says (``is_json``: as a caller that told already says)."""
    name = display_name(file) if name is None else name
    if is_json is None:
        is_json, stream = tell(source, file)
    else:
        stream = io.BytesIO(source) if isinstance(source, bytes) else source
    if not is_json:
        from zrec.notation.reader import read_records

        return read_records(stream, name)
    from zrec.notation.json.convert import read_json_records

    return read_json_records(stream, name)
