"""The stored games' texts, packed: compressed with a dictionary the archive keeps.

A game's canonical text (tags and moves) is most of an archive's row for it.  Stored,
it is ``games.text``, bytes: a first byte, then

- byte 0: the text itself, UTF-8 (what an archive stores before it has a dictionary
  for the game);
- byte *n* (1-255): the text compressed (raw deflate, level 3) with dictionary *n* of
  the table ``dictionaries``.

A dictionary is made from the texts of one chunk of an import (the last 32 KB of them,
joined), once :data:`TRAIN` games of a game are in the chunk and the archive has no
dictionary for that game; it is stored in the archive, in the same transaction as the
games packed with it, and never changed.  The random games of benchmarks/archive_bench.py
(547 bytes of text a game): 312 bytes compressed alone, 160 with a dictionary of 32 KB
of their fellows' texts (level 3, memory level 8: 24 us a text; level 6 packs them to
143 bytes in 53 us, level 1 to 190 in 18 us).  Any level reads back the same way: the
level is the import's choice alone.

The tags of a stored game are read back from its text's tag lines
(:func:`tags_of_text`); a game whose tags its text does not give back the same keeps
them in ``game_tags`` as well (the writer makes that never happen).  A text changed by
hand with SQL's text functions (``replace(text, ...)``) is text, not bytes: it is read
as it is, its first byte (0) left out.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable

from zrec.archive.store.db import DamagedArchiveError, Database

__all__ = ["TRAIN", "Texts", "tags_of_text"]

#: games of one game in a chunk before a dictionary is made from them
TRAIN = 200
#: the size of a dictionary (zlib uses at most 32 KB of one)
SIZE = 32 * 1024
#: zlib's level and memory level (see above): level 3 is deflate's fastest with a real
#: search for matches; memory level 8 (zlib's default) copies a primed compressor in
#: less time than 9
LEVEL, MEMORY = 3, 8
_RAW = 0
_TAG = re.compile(r'\[([^\s"\[\]]+) "((?:[^"\\\n]|\\.)*)"\]\n')
_UNESCAPE = re.compile(r"\\(.)")


def _escaped(match: re.Match[str]) -> str:
    return match.group(1)


def tags_of_text(text: str) -> tuple[tuple[str, str], ...]:
    """The tags a canonical text starts with, in order (as the writer writes them:
    ``[Name "value"]`` lines, ``\\`` and ``"`` escaped)."""
    out: list[tuple[str, str]] = []
    at = 0
    while True:
        match = _TAG.match(text, at)
        if match is None:
            return tuple(out)
        value = match.group(2)
        out.append((match.group(1), _UNESCAPE.sub(_escaped, value) if "\\" in value else value))
        at = match.end()


class Texts:
    """Packs and unpacks the texts of one archive (its dictionaries read as needed)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._data: dict[int, bytes] = {}
        self._by_game: dict[str, int] | None = None
        self._packers: dict[int, zlib._Compress] = {}

    def _load(self) -> dict[str, int]:
        if self._by_game is None:
            self._by_game = {}
            for did, game, data in self.db.rows(
                "SELECT id, game, data FROM dictionaries ORDER BY id"
            ):
                self._data[int(did)] = bytes(data)
                self._by_game.setdefault(str(game), int(did))
        return self._by_game

    def forget(self) -> None:
        """Read the dictionaries again when next needed (after a rolled-back batch)."""
        self._data.clear()
        self._packers.clear()
        self._by_game = None

    def train(self, games: Iterable[tuple[str, str]]) -> None:
        """Make a dictionary for each game that has none and has :data:`TRAIN` texts
        among these (game, text) pairs; call it inside the transaction that stores
        them."""
        known = self._load()
        samples: dict[str, list[str]] = {}
        for name, text in games:
            if name and name not in known:
                samples.setdefault(name, []).append(text)
        for name, texts in sorted(samples.items()):
            if len(texts) < TRAIN or len(self._data) >= 255:
                continue
            data = "".join(texts).encode()[-SIZE:]
            did = self.db.insert(
                "INSERT INTO dictionaries (id, game, data) VALUES ((SELECT coalesce(max(id), "
                "0) + 1 FROM dictionaries), ?, ?) RETURNING id",
                (name, data),
            )
            self._data[did] = data
            known[name] = did

    def pack(self, game: str, text: str) -> bytes:
        """A text as stored for a game of this name."""
        did = self._load().get(game)
        if did is None:
            return bytes([_RAW]) + text.encode()
        # a copy of a compressor that has read the dictionary already: a new one reads
        # it again for every text (2,000 texts of the archive benchmark: 114 us a
        # text, 69 us with the copy, at level 6)
        primed = self._packers.get(did)
        if primed is None:
            primed = self._packers[did] = zlib.compressobj(
                LEVEL, zlib.DEFLATED, -15, MEMORY, zdict=self._data[did]
            )
        packer = primed.copy()
        return bytes([did]) + packer.compress(text.encode()) + packer.flush()

    def unpack(self, stored: bytes | memoryview | str) -> str:
        """A stored text, as it was given to :meth:`pack`; raises
        :class:`DamagedArchiveError` for one that cannot be read back."""
        if isinstance(stored, str):  # changed by hand with SQL's text functions
            return stored[1:] if stored.startswith("\x00") else stored
        blob = bytes(stored)
        try:
            if not blob:
                raise ValueError("empty")
            if blob[0] == _RAW:
                return blob[1:].decode()
            data = self._data.get(blob[0])
            if data is None:
                self.forget()
                self._load()
                data = self._data.get(blob[0])
            if data is None:
                raise DamagedArchiveError(
                    self.db.target, f"a text stored in it names dictionary {blob[0]}, not there"
                )
            unpacker = zlib.decompressobj(-15, zdict=data)
            text = unpacker.decompress(blob[1:]) + unpacker.flush()
            if not unpacker.eof:
                raise ValueError("cut short")
            return text.decode()
        except UnicodeDecodeError:
            raise DamagedArchiveError(
                self.db.target, "a text stored in it is not UTF-8 (column 'text')"
            ) from None
        except (zlib.error, ValueError):
            raise DamagedArchiveError(
                self.db.target, "a text stored in it cannot be unpacked (column 'text')"
            ) from None
