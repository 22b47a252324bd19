"""What an import reports: its counts, its notices about single games, each file's
part, and the fingerprint that tells a file imported before.

:class:`~zrec.archive.store.ingest.Importer` fills these in; ``zrec archive import``
prints them (one line a notice, then the counts; or JSON).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from zrec.check.tally import Tally

__all__ = ["FileResult", "ImportCounts", "Notice", "sha256_of"]


@dataclass(slots=True)
class ImportCounts(Tally):
    """What an import did.  Every game read is one of added, duplicates, truncated,
    invalid (refused or, with ``keep_invalid``, added) or already (imported before);
    conflicts and continuations are among the added."""

    read: int = 0
    added: int = 0
    duplicates: int = 0
    truncated: int = 0
    conflicts: int = 0
    continued: int = 0
    invalid: int = 0
    already: int = 0


@dataclass(frozen=True, slots=True)
class Notice:
    """One thing an import reports about a game: ``kind`` is ``invalid``,
    ``duplicate``, ``truncated``, ``continues`` or ``conflict``."""

    kind: str
    file: str
    number: int
    line: int
    message: str
    stored: int | None = None  # the id given to this game, when it was stored
    other: int | None = None  # the stored game it concerns

    def format(self) -> str:
        return f"{self.file}:{self.line}: {self.kind}: game {self.number}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "file": self.file,
            "game": self.number,
            "line": self.line,
            "message": self.message,
            "id": self.stored,
            "other": self.other,
        }


@dataclass(slots=True)
class FileResult:
    """One input's part of an import."""

    file: str
    sha256: str | None
    status: str  # imported, resumed, already imported
    counts: ImportCounts = field(default_factory=ImportCounts)
    #: the ids of the games this import stored (added, or kept flagged invalid)
    ids: list[int] = field(default_factory=list)


def sha256_of(path: str) -> tuple[str, int]:
    """A file's SHA-256 (hex) and size."""
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return digest.hexdigest(), size
