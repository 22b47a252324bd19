"""What the reader says about bytes that are not UTF-8: the encoding the file looks
like (the usual single-byte ones of old records), and the ``iconv`` command that
converts it."""

from __future__ import annotations

import shlex
from pathlib import PurePath

#: (name shown, name iconv knows, Python's codec), tried in order: Windows-1252 gives
#: characters to most bytes 0x80-0x9f (curly quotes, dashes), which Latin-1 leaves
#: as control characters, so it is tried first, and only when such a byte is there
_GUESSES = (
    ("Windows-1252 (CP1252)", "WINDOWS-1252", "cp1252"),
    ("Latin-1 (ISO-8859-1)", "ISO-8859-1", "latin-1"),
)


def looks_like(raw: bytes) -> tuple[str, str] | None:
    """The encoding a line that is not UTF-8 looks like, as (name, iconv's name)."""
    controls = any(0x80 <= b <= 0x9F for b in raw)
    for shown, iconv, codec in _GUESSES:
        if codec == "cp1252" and not controls:
            continue
        try:
            text = raw.decode(codec)
        except UnicodeDecodeError:
            continue
        if all(c.isprintable() or c in "\t\r\n" for c in text):
            return shown, iconv
    return None


def not_utf8(raw: bytes, start: int, name: str) -> str:
    """The message for the line ``raw`` of the file ``name``, whose byte at ``start`` is
    the first that is not UTF-8."""
    head = f"the file is not UTF-8 (byte 0x{raw[start]:02x} here)"
    guess = looks_like(raw)
    if guess is None:
        return f"{head}, nor in an encoding zrec recognises: convert it to UTF-8"
    shown, iconv = guess
    if name.startswith("<"):  # standard input
        source, target = "FILE", "FILE.utf8.zrec"
    else:
        path = PurePath(name)
        source, target = name, str(path.with_name(f"{path.stem}.utf8{path.suffix}"))
    command = f"iconv -f {iconv} -t UTF-8 {shlex.quote(source)} > {shlex.quote(target)}"
    return f"{head}; it looks like {shown}: convert it with: {command}"


__all__ = ["looks_like", "not_utf8"]
