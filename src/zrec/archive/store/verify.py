"""Replaying a stored game to confirm what the indexes say of it.

The position index and the opening paths hold hashes; before a search shows a
game as holding a position, the game's stored text is replayed and the engine's own
key at that ply compared with the one asked for.  Import uses the same replay to
confirm a truncated copy found through its first 20 plies.  :class:`After` finds the
position after a ply of a record, as the index holds it (``--position-after``).
"""

from __future__ import annotations

from typing import Any

from zrec.archive.store.facts import Indexer
from zrec.notation.reader import read_string
from zrec.play import GameSetupError, Replay, Step, Visitor, prepare, walk
from zrec.play.replay import ReplayError

__all__ = ["After", "confirmed", "index_text", "keys_of_text"]


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
        indexer = Indexer(replay, setup, raw, keyed=True)
        walk(replay, game.line, indexer, variations=False, upto=upto)
        return indexer
    return None


def keys_of_text(text: str, upto: int | None = None) -> list[int] | None:
    """The position keys (hashed) of a stored game, ply 0 to ``upto``."""
    indexer = index_text(text, upto)
    return None if indexer is None else indexer.keys


def confirmed(text: str, raw_keys: list[set[bytes]], prefix: list[tuple[int, list[int]]]) -> bool:
    """Whether a stored game holds, for each position asked for, one of its raw keys
    at some ply, and starts with one of the move prefixes ``prefix`` (each a length and
    its keys)."""
    if not prefix:
        return _reaches(text, raw_keys)
    # one ply past the longest prefix: the index holds a ply's position after the moves
    # that follow it and are not turns (a priest's entry), which a walk up to that ply
    # leaves out
    upto = None if raw_keys else max(n for n, _ in prefix) + 1
    indexer = index_text(text, upto, raw=True)
    if indexer is None or indexer.raw is None:
        return False
    held = set(indexer.raw)
    if not all(held & raw for raw in raw_keys):
        return False
    return any(indexer.keys[: n + 1] == keys[: n + 1] for n, keys in prefix)


class _Found(Exception):
    """Every position asked for is reached: the walk stops."""


class _Reaches(Visitor):
    """Looks for positions along a main line, as the index holds them: each ply's
    position after the moves that follow it and are not turns.  Stops the walk
    (:class:`_Found`) once every one is met, so that a position of the opening costs
    a few plies of replay, not the game's (no key is hashed, no material counted)."""

    def __init__(self, replay: Replay, wanted: list[set[bytes]]) -> None:
        self.engine = replay.engine
        self.wanted = list(wanted)
        self.ply = 0
        self.key = self.engine.key(replay.start)

    def settle(self) -> None:
        """The position of the ply before is final: is it one asked for?"""
        self.wanted = [raw for raw in self.wanted if self.key not in raw]
        if not self.wanted:
            raise _Found

    def step(self, step: Step) -> None:
        if step.depth or step.error is not None:
            return
        if step.ply != self.ply:
            self.settle()
            self.ply = step.ply
        self.key = self.engine.key(step.after)


def _reaches(text: str, raw_keys: list[set[bytes]]) -> bool:
    for record in read_string(text, "<archive>"):
        game = record.game
        if game is None:
            return False
        try:
            replay = prepare(game, game.tag_map())
        except GameSetupError:
            return False
        reaches = _Reaches(replay, raw_keys)
        try:
            walk(replay, game.line, reaches, variations=False)
            reaches.settle()
        except _Found:
            return True
        return False
    return False


class After(Visitor):
    """Finds the position after ply ``ply`` of a main line: after the moves that are
    not turns and follow it (a priest's entry), as the index holds it."""

    def __init__(self, replay: Replay, ply: int) -> None:
        self.replay = replay
        self.ply = ply
        self.position: Any = replay.start
        self.reached = 0
        self.error: ReplayError | None = None

    def step(self, step: Step) -> None:
        if step.depth or self.error is not None:
            return
        if step.error is not None:
            if step.ply <= self.ply:
                label = self.replay.label(step.before)
                self.error = ReplayError(step.ply, label, step.node.turn.text(), step.error)
            return
        if step.ply <= self.ply:
            self.position, self.reached = step.after, step.ply
