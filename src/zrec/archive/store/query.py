"""What a search asks for (:class:`Query`) and how it is run (:class:`Plan`): shared by
:mod:`zrec.archive.store.search`, :mod:`zrec.archive.store.wanted` (which plays the
moves and positions asked for into a plan) and the opening tree.  A module of its own
so that the search, which imports ``wanted`` only when a search asks for moves or a
position, and ``wanted`` share them without an import cycle."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from zrec.archive.store.db import ArchiveError
from zrec.archive.store.posindex import Layout

if TYPE_CHECKING:
    from zrec.notation.model import Game

__all__ = ["Plan", "Query", "SearchError"]


class SearchError(ArchiveError):
    """A search that cannot be run as asked: the message says why."""


@dataclass
class Query:
    """What to look for (every field that is set must match)."""

    players: list[str] = field(default_factory=list)
    seats: list[tuple[str, str]] = field(default_factory=list)  # (seat tag, name)
    event: str | None = None
    site: str | None = None
    round: str | None = None
    date_from: str | None = None
    date_to: str | None = None
    result: str | None = None
    termination: str | None = None
    game: str | None = None
    options: list[tuple[str, str]] = field(default_factory=list)
    moves: str | None = None
    position: str | None = None
    position_of: tuple[Game, int] | None = None
    material: str | None = None
    #: a mark of a stored computer analysis (``?!``, ``?``, ``??``), made at a ply of at
    #: most ``max_ply`` (:mod:`zrec.archive.analyses`)
    mark: str | None = None
    max_ply: int | None = None
    ids: list[int] | None = None
    limit: int | None = None
    offset: int = 0


@dataclass
class Plan:
    """A query as SQL conditions, index conditions and what replay must confirm."""

    where: list[str] = field(default_factory=list)
    params: list[Any] = field(default_factory=list)
    #: positions a hit must pass through, each as the raw keys it may have (one of
    #: each set, confirmed by replay)
    raw_keys: list[set[bytes]] = field(default_factory=list)
    #: move-prefix keys to confirm by replay, for prefixes longer than the openings
    prefix: list[tuple[int, list[int]]] = field(default_factory=list)
    #: the packed index conditions: a hit holds one of the hashes of each
    index: list[tuple[Layout, list[int]]] = field(default_factory=list)
    #: the games the index conditions allow (None: not worked out, or none)
    candidates: set[int] | None = None
    empty: bool = False

    def add(self, clause: str, *params: Any) -> None:
        self.where.append(clause)
        self.params.extend(params)
