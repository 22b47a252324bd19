"""The game archive: games kept in SQLite (or PostgreSQL), searched, exported, published.

- :mod:`zrec.archive.store`: an open archive (:class:`Archive`), its database and
  tables, importing, searching and looking after it;
- :mod:`zrec.archive.people`: the players' names, likely duplicates and merges;
- :mod:`zrec.archive.tournament`: events as tournaments: standings, tie-breaks,
  crosstables, TRF files;
- :mod:`zrec.archive.site`: the published website of events.

Everything here works through the play layer; nothing names a game.
"""

from __future__ import annotations

from zrec.archive.store import Archive, StoredGame
from zrec.archive.store.db import ArchiveError

__all__ = ["Archive", "ArchiveError", "StoredGame"]
