"""The position index and the opening index: which games hold a position, or begin
with an opening.

Both are packed (:mod:`zrec.archive.store.packed`): a row per part of 4096 games and
bucket of hashes, each entry 6 bytes, a game's hash entered once.

- ``positions`` (:data:`POSITIONS`): the 64-bit key (:func:`zrec.archive.store.facts.hash64`)
  of every position of a valid game's main line, ply 0 (the start) on, in 4096
  buckets: 48 bits of the key are kept.
- ``openings`` (:data:`OPENINGS`): the path (a chained hash of the positions so far) at
  plies 1 to 20 of each valid game, in 1024 buckets: 46 bits kept.  Beside it,
  ``openings_long`` holds the path at ply 20 of each game longer than that, by path,
  for the import to find the stored games a longer game may be a truncated copy of
  without reading the packed index through.

The odds of a false hit: a lookup matches another position (or opening) only if the
other's hash shares the bits kept, a chance of one in 2**48 (2**46) for each distinct
position (opening) held.  A million games of 50 plies hold at most 51 million
positions and 20 million openings, so a lookup is wrong with a chance of about 1 in
5.5 million (positions) and 1 in 3.5 million (openings).  That is why a search counts
the games from the index alone and calls the count exact, while the games it shows
are still confirmed by replaying them (:mod:`zrec.archive.store.search`): a false hit
is never shown, and would make the count one too high.
"""

from __future__ import annotations

from typing import Any

from zrec.archive.store.packed import PART_BITS, Entries, Layout

__all__ = ["OPENINGS", "PART_BITS", "POSITIONS", "Entries", "Layout", "rebuild"]

#: the position index: 4096 buckets a part
POSITIONS = Layout("positions", 12)
#: the opening index: 1024 buckets a part (20 entries a game where positions have 51)
OPENINGS = Layout("openings", 10)


def rebuild(db: Any, batch: int = 20_000) -> None:
    """Fill the empty indexes from the stored games, replayed from their text (what
    a migration does: the hashes of an older version are not kept)."""
    from zrec.archive.store.replaying import stored_facts
    from zrec.archive.store.schema import OPENING_PLIES

    positions, openings = Entries(POSITIONS), Entries(OPENINGS)
    long: list[tuple[int, int]] = []
    held = 0
    for gid, fact in stored_facts(db):
        if fact.indexed:
            positions.add(gid, fact.keys)
            openings.add(gid, fact.paths[1 : OPENING_PLIES + 1])
            if fact.plies > OPENING_PLIES:
                long.append((fact.paths[OPENING_PLIES], gid))
            held += 1
            if held >= batch:
                _write(db, positions, openings, long)
                held = 0  # (_write empties long)
    _write(db, positions, openings, long)


def _write(db: Any, positions: Entries, openings: Entries, long: list[tuple[int, int]]) -> None:
    positions.write(db)
    openings.write(db)
    db.copy_rows("openings_long", "path, game", sorted(long))
    long.clear()
