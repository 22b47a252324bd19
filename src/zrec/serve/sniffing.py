"""Whether a record sent to the server is JSON or zrec text, by the rule ``zrec
validate`` follows for an input whose name does not say (docs/validate.md): JSON when
it starts, after space and a byte order mark, with ``{`` opening an object (a key and
a colon follow, or ``}``), or with ``[`` not followed by a tag name.
"""

from __future__ import annotations

import re

__all__ = ["looks_like_json"]

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
