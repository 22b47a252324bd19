"""The game archive: games kept in SQLite (or PostgreSQL), searched and exported.

- :mod:`zrec.archive.store`: an open archive (:class:`Archive`) and its lookups;
- :mod:`zrec.archive.schema`: the tables and their migrations;
- :mod:`zrec.archive.facts`: what is stored of a record, found in the validator's walk;
- :mod:`zrec.archive.ingest`: importing, with duplicates, truncated copies and conflicts;
- :mod:`zrec.archive.search`: finding games by tags, players, moves, positions, material;
- :mod:`zrec.archive.upkeep`: statistics, the integrity check and removal.

Everything here works through the play layer; nothing names a game.
"""

from __future__ import annotations

from zrec.archive._db import ArchiveError
from zrec.archive.store import Archive, StoredGame

__all__ = ["Archive", "ArchiveError", "StoredGame"]
