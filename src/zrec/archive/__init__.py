"""The game archive: games kept in SQLite (or PostgreSQL), searched, exported.

- :mod:`zrec.archive.store`: an open archive (:class:`Archive`), its database and
  tables, importing, searching and looking after it;
- :mod:`zrec.archive.people`: the players' names, likely duplicates and merges;
- :mod:`zrec.archive.events`: events as tournaments (:mod:`zrec.tournament`) read
  and stored: loaded, their pairings, rosters and byes;
- :mod:`zrec.archive.rated`: the players rated from the archive's games.

Everything here works through the play layer; nothing names a game.
"""

from __future__ import annotations

from zrec.archive.store import Archive, StoredGame
from zrec.archive.store.db import ArchiveError

__all__ = ["Archive", "ArchiveError", "StoredGame"]
