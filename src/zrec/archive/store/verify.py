"""Replaying a stored game to confirm what the indexes say of it.

The position index and the opening paths hold 64-bit hashes; before a search shows a
game as holding a position, the game's stored text is replayed and the engine's own
key at that ply compared with the one asked for.  Import uses the same replay to
confirm a truncated copy found through the position index.
"""

from __future__ import annotations

from zrec.archive.store.facts import Indexer
from zrec.notation.reader import read_string
from zrec.play import GameSetupError, prepare, walk

__all__ = ["index_text", "keys_of_text"]


def index_text(text: str, upto: int | None = None, raw: bool = False) -> Indexer | None:
    """Replay a stored game's main line (up to ``upto`` plies) noting what the index
    holds; ``None`` when the text no longer reads or replays."""
    for record in read_string(text, "<archive>"):
        game = record.game
        if game is None:
            return None
        tags = game.tag_map()
        try:
            replay = prepare(game, tags)
        except GameSetupError:
            return None
        setup = replay.engine.setup_text(replay.start) if "Setup" in tags else ""
        indexer = Indexer(replay, setup, raw)
        walk(replay, game.line, indexer, variations=False, upto=upto)
        return indexer
    return None


def keys_of_text(text: str, upto: int | None = None) -> list[int] | None:
    """The position keys (hashed) of a stored game, ply 0 to ``upto``."""
    indexer = index_text(text, upto)
    return None if indexer is None else indexer.keys
