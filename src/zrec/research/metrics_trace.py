"""What a study records of each game beyond its result, for the plausibility metrics.

A :class:`Recorder` is handed to :func:`zrec.research.study.play_game` when a metric
asks for more than the result; it is told of every position a move is chosen in
(:meth:`Recorder.seen`), of every move (:meth:`Recorder.moved`) and of the last
position (:meth:`Recorder.done`), and keeps only what the asked **kinds** need:

- ``legal``: the number of legal moves of each position a move was chosen in (as
  :meth:`~zrec.rules.base.Engine.legal_moves` lists them for the roll thrown);
- ``material``: the pieces of each seat (:meth:`~zrec.rules.base.Engine.material`)
  in every position, the last one included;
- ``sites``: how many board sites hold a piece in every position, and how many
  distinct sites ever held one;
- ``routes``: the steps each move's pieces walk (a route of k squares is k - 1 steps);
- ``keys``: how many positions repeat an earlier position of the same game.

Nothing is recorded (and nothing costs) when no metric needs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["KINDS", "Recorder", "Trace"]

#: every kind of record a metric may ask for
KINDS = frozenset({"legal", "material", "sites", "routes", "keys"})


@dataclass(frozen=True, slots=True)
class Trace:
    """What was recorded of one game (empty where its kind was not asked for)."""

    legal: tuple[int, ...] = ()
    material: tuple[tuple[int, ...], ...] = ()
    occupied: tuple[int, ...] = ()
    covered: int = 0
    sites: int = 0
    steps: tuple[int, ...] = ()
    repeats: int = 0
    positions: int = 0


class Recorder:
    """Records one game, as its kinds ask."""

    def __init__(self, kinds: frozenset[str]) -> None:
        self.kinds = kinds
        self.legal: list[int] = []
        self.material: list[tuple[int, ...]] = []
        self.occupied: list[int] = []
        self.covered: set[str] = set()
        self.sites = 0
        self.steps: list[int] = []
        self.keys: set[bytes] = set()
        self.repeats = 0
        self.positions = 0

    def _position(self, engine: Any, pos: Any) -> None:
        self.positions += 1
        kinds = self.kinds
        if "material" in kinds:
            self.material.append(tuple(engine.material(pos)))
        if "sites" in kinds:
            view = engine.view(pos)
            cells = set(view.board.cells)
            here = {p.square for p in view.pieces if p.square in cells}
            self.sites = len(cells)
            self.occupied.append(len(here))
            self.covered |= here
        if "keys" in kinds:
            key = engine.key(pos)
            if key in self.keys:
                self.repeats += 1
            else:
                self.keys.add(key)

    def seen(self, engine: Any, pos: Any, roll: Sequence[int] | None) -> None:
        """A position a player is about to choose a move in (``roll``: the dice)."""
        if "legal" in self.kinds:
            self.legal.append(len(engine.legal_moves(pos, roll)))
        self._position(engine, pos)

    def moved(self, engine: Any, pos: Any, move: Any) -> None:
        """The move chosen in ``pos``."""
        if "routes" in self.kinds:
            self.steps.append(sum(max(len(r) - 1, 0) for r in engine.routes(pos, move)))

    def done(self, engine: Any, pos: Any) -> Trace:
        """The game's record, ``pos`` its last position."""
        self._position(engine, pos)
        return Trace(
            tuple(self.legal),
            tuple(self.material),
            tuple(self.occupied),
            len(self.covered),
            self.sites,
            tuple(self.steps),
            self.repeats,
            self.positions,
        )
