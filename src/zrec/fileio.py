"""Writing output safely: a file is either written whole or not touched at all.

:func:`atomic_output` hands out a temporary file beside the target and renames it
over the target only when the block ends without an error; ``-`` means standard
output, which gets the text only once it is complete (a long text waits in a temporary
file, not in memory: writers may write as they go, a game at a time).

The target keeps what it is:

* a symbolic link stays a link: the path is resolved and the file it points to is
  written (the temporary file goes beside that file);
* a file with more than one hard link (``st_nlink > 1``) keeps its links: the new text
  is first written whole to the temporary file, then copied into the file itself
  (the same inode), and the temporary file removed.  That copy is not atomic: should
  it fail half way, the temporary file, which holds the whole new text, is kept and
  the error names it;
* the file's mode is kept (a new file gets the mode the umask gives).

The temporary file is named ``.NAME.zrec-PID-XXXXXXXX.tmp`` (``NAME`` the target's,
``PID`` the writer's process id).  A writer killed outright (SIGKILL, a power cut)
cannot remove its own, so each write of a target first removes the temporary files
of the same target that are stale: their writer no longer runs, or runs but started
after the file was last written (its id was given again).

A full disk (or a used-up quota) is :class:`NoSpaceError`, ``no space left on device:
PATH``; the target is untouched and the temporary file removed, as for any error.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from zrec.errors import ZrecError

#: how much of a text for standard output is held in memory; the rest waits on disk
SPOOL = 1 << 20


class OutputError(ZrecError, OSError):
    """The output file cannot be written (no such folder, a folder, no permission)."""


class NoSpaceError(OutputError):
    """The disk is full, or the user's quota used up."""


#: the errors of a full disk, and what they are called
_FULL = {errno.ENOSPC: "no space left on device", errno.EDQUOT: "disk quota exceeded"}


def no_space(path: object, exc: OSError) -> NoSpaceError | None:
    """:class:`NoSpaceError` for ``path`` when ``exc`` is a full disk, else ``None``."""
    what = _FULL.get(exc.errno or 0)
    return None if what is None else NoSpaceError(f"{what}: {path}")


def _cannot(path: Path, exc: OSError) -> OutputError:
    return no_space(path, exc) or OutputError(f"cannot write {path}: {exc.strerror or exc}")


def _prefix(path: Path) -> str:
    """The start of the names of ``path``'s temporary files (the pid follows)."""
    return f".{path.name}.zrec-"


_TEMPORARY = re.compile(r"(\d+)-[a-z0-9_]+\.tmp")


def _temporaries_in(folder: Path) -> list[str]:
    """The names in ``folder`` that may be zrec's temporary files."""
    try:
        return [n for n in os.listdir(folder) if ".zrec-" in n and n.endswith(".tmp")]
    except OSError:
        return []


def stale_temporaries(path: Path, names: list[str] | None = None) -> list[Path]:
    """The temporary files of the target ``path`` whose writer no longer runs (see the
    module's docs), in no particular order; ``names``: the folder's names that
    :func:`_temporaries_in` gives, when they are known."""
    prefix = _prefix(path)
    folder = path.parent
    if names is None:
        names = _temporaries_in(folder)
    stale = []
    for name in (n for n in names if n.startswith(prefix)):
        found = _TEMPORARY.fullmatch(name, len(prefix))
        if found is None:
            continue
        try:
            made = os.stat(folder / name).st_mtime
        except OSError:
            continue
        started = _started(int(found.group(1)))
        if started is None or started > made:
            stale.append(folder / name)
    return stale


def _started(pid: int) -> float | None:
    """When the process ``pid`` started (seconds since the epoch), ``None`` when it does
    not run; where the system does not say when, a time long past."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except (PermissionError, OverflowError, ValueError):
        pass  # it runs as another user (or cannot be a pid): keep its files
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stream:
            ticks = int(stream.read().rsplit(")", 1)[1].split()[19])  # field 22
        with open("/proc/stat", encoding="ascii") as stream:
            boot = next(int(line.split()[1]) for line in stream if line.startswith("btime "))
        return boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return float("-inf")


def remove_stale(path: Path, names: list[str] | None = None) -> None:
    """Remove the stale temporary files of the target ``path`` (``names``: as for
    :func:`stale_temporaries`)."""
    for stale in stale_temporaries(path, names):
        with contextlib.suppress(OSError):
            os.unlink(stale)


def mode_for(path: Path, new: int = 0o666) -> int:
    """The mode of the file or folder at ``path``, or where there is none the mode a new
    one gets (``new`` less the umask): mkstemp and mkdtemp make theirs private, and
    what replaces a file or folder takes this mode."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return new & ~umask


def _temporary_beside(
    path: Path, shown: Path, names: list[str] | None = None
) -> tuple[int, str]:
    """A new temporary file beside the file ``path`` (``shown``: its name in errors),
    once the stale ones of ``path`` are removed (``names``: as for
    :func:`stale_temporaries`): its descriptor and name.  Raises :class:`OutputError`."""
    if path.is_dir():
        raise OutputError(f"cannot write {shown}: it is a folder")
    remove_stale(path, names)
    try:
        return tempfile.mkstemp(
            prefix=f"{_prefix(path)}{os.getpid()}-", suffix=".tmp", dir=path.parent or "."
        )
    except OSError as exc:
        raise _cannot(shown, exc) from None


@contextlib.contextmanager
def atomic_output(target: str | os.PathLike[str] | None) -> Iterator[TextIO]:
    """A text stream whose content reaches ``target`` only if the block succeeds.

    ``None`` or ``-`` means standard output.  Otherwise the text goes to a temporary
    file in the target's directory, renamed over the target at the end.  Raises
    :class:`OutputError` when the target cannot be written.
    """
    if target is None or str(target) == "-":
        with tempfile.SpooledTemporaryFile(SPOOL, mode="w+", encoding="utf-8") as tmp:
            with _full_disk(tempfile.gettempdir()):  # where a long text waits
                yield tmp  # type: ignore[misc]
            tmp.seek(0)
            with _full_disk("standard output"):
                while chunk := tmp.read(1 << 20):
                    sys.stdout.write(chunk)
                sys.stdout.flush()
        return
    shown = Path(target)
    path = Path(os.path.realpath(target))  # through symbolic links
    fd, tmp_name = _temporary_beside(path, shown)
    keep = False  # True while the target is overwritten in place: tmp is the whole text
    try:
        os.chmod(tmp_name, mode_for(path))
        with _full_disk(shown), os.fdopen(fd, "w", encoding="utf-8", newline="\n") as stream:
            yield stream
        try:
            if _links(path) > 1:
                with open(tmp_name, "rb") as source, open(path, "r+b") as into:
                    keep = True
                    shutil.copyfileobj(source, into, 1 << 20)
                    into.truncate()
                keep = False
                os.unlink(tmp_name)
            else:
                os.replace(tmp_name, path)
        except OSError as exc:
            error = _cannot(shown, exc)
            if keep:
                error = OutputError(f"{error}; the whole new text is in {tmp_name}")
            raise error from None
    except BaseException:
        if not keep:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)
        raise


@contextlib.contextmanager
def _full_disk(shown: object) -> Iterator[None]:
    """A full disk met in the block (writing, or closing the file) as
    :class:`NoSpaceError` for ``shown``; other errors pass unchanged."""
    try:
        yield
    except OSError as exc:
        error = None if isinstance(exc, OutputError) else no_space(shown, exc)
        if error is None:
            raise
        raise error from None


def _links(path: Path) -> int:
    """How many hard links the file has (0 when there is no file yet)."""
    try:
        return os.stat(path).st_nlink
    except FileNotFoundError:
        return 0


class FileGroup:
    """Several output files that are written all or none (see :func:`atomic_files`)."""

    def __init__(self) -> None:
        self.staged: list[tuple[str, Path]] = []  # (temporary file, target)
        #: each folder's names of possible temporary files, listed once
        self.listed: dict[Path, list[str]] = {}

    def write(self, target: str | os.PathLike[str], text: str) -> None:
        """Stage one more file of the group; raises :class:`OutputError`."""
        path = Path(target)
        if any(path == staged for _, staged in self.staged):
            raise OutputError(f"cannot write {path}: it is named twice")
        folder = path.parent
        if folder not in self.listed:
            self.listed[folder] = _temporaries_in(folder)
        fd, tmp_name = _temporary_beside(path, path, self.listed[folder])
        self.staged.append((tmp_name, path))
        try:
            os.chmod(tmp_name, mode_for(path))
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as stream:
                stream.write(text)
        except OSError as exc:
            raise _cannot(path, exc) from None


@contextlib.contextmanager
def atomic_files() -> Iterator[FileGroup]:
    """A group of output files that reach their targets only if the whole block succeeds.

    Each file is written whole to a temporary file beside its target as it comes; when
    the block ends without an error every one is renamed over its target, otherwise
    every temporary file is removed and no target is touched.
    """
    group = FileGroup()
    try:
        yield group
        for tmp_name, path in group.staged:
            try:
                os.replace(tmp_name, path)
            except OSError as exc:
                raise _cannot(path, exc) from None
    finally:
        for tmp_name, _ in group.staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)
