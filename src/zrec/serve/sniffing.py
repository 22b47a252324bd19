"""The records of a body sent to the server (:func:`records_in`: the one place the
server reads records sent to it), JSON or zrec text, told apart by the rule ``zrec
validate`` follows for an input whose name does not say (docs/validate.md): JSON when
it starts, after space and a byte order mark, with ``{`` opening an object (a key and
a colon follow, or ``}``), or with ``[`` not followed by a tag name.
"""

from __future__ import annotations

import io
import re
from typing import Any

__all__ = ["looks_like_json", "records_in"]

_SPACE = b" \t\r\n"
_BOM = b"\xef\xbb\xbf"
_TAG_OPEN = re.compile(rb"\[[ \t]*[A-Za-z]")
_KEY = re.compile(rb'"(?:[^"\\\r\n]|\\.)*"\s*')


def looks_like_json(head: bytes) -> bool:
    """Whether a whole body (or its first 64 KiB) starting with ``head`` is JSON."""
    text = head[len(_BOM) :] if head.startswith(_BOM) else head
    text = text.lstrip(_SPACE)
    if text[:1] == b"[":
        return not _TAG_OPEN.match(text)
    if text[:1] != b"{":
        return False
    rest = text[1:].lstrip(_SPACE)
    if rest[:1] == b"}":
        return True
    key = _KEY.match(rest) if rest[:1] == b'"' else None
    return key is not None and rest[key.end() : key.end() + 1] == b":"


def records_in(body: bytes, name: str, shown: str) -> Any:
    """The records of a body: JSON when the name or the start says so (as
    ``zrec validate`` tells them apart), else zrec text."""
    if name.endswith((".json", ".jsonl")) or looks_like_json(body[: 64 * 1024]):
        from zrec.notation.json.convert import read_json_records

        return read_json_records(io.BytesIO(body), shown)
    from zrec.notation.reader import read_records

    return read_records(io.BytesIO(body), shown)
