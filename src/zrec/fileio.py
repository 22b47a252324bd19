"""Writing output safely: a file is either written whole or not touched at all.

:func:`atomic_output` hands out a temporary file beside the target and renames it
over the target only when the block ends without an error; ``-`` means standard
output, which gets the text only once it is complete.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from zrec.errors import ZrecError


class OutputError(ZrecError, OSError):
    """The output file cannot be written (no such folder, a folder, no permission)."""


def _cannot(path: Path, exc: OSError) -> OutputError:
    return OutputError(f"cannot write {path}: {exc.strerror or exc}")


@contextlib.contextmanager
def atomic_output(target: str | os.PathLike[str] | None) -> Iterator[TextIO]:
    """A text stream whose content reaches ``target`` only if the block succeeds.

    ``None`` or ``-`` means standard output.  Otherwise the text goes to a temporary
    file in the target's directory, renamed over the target at the end.  Raises
    :class:`OutputError` when the target cannot be written.
    """
    if target is None or str(target) == "-":
        with tempfile.SpooledTemporaryFile(8 * 1024 * 1024, mode="w+", encoding="utf-8") as tmp:
            yield tmp  # type: ignore[misc]
            tmp.seek(0)
            while chunk := tmp.read(1 << 20):
                sys.stdout.write(chunk)
            sys.stdout.flush()
        return
    path = Path(target)
    if path.is_dir():
        raise OutputError(f"cannot write {path}: it is a folder")
    try:
        fd, tmp_name = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or "."
        )
    except OSError as exc:
        raise _cannot(path, exc) from None
    try:
        # mkstemp makes the file private (0600); give it the mode a new file would have,
        # or keep the mode of the file it replaces
        try:
            mode = path.stat().st_mode & 0o7777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp_name, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as stream:
            yield stream
        try:
            os.replace(tmp_name, path)
        except OSError as exc:
            raise _cannot(path, exc) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
