"""Counts that add up: the totals a command keeps over many games.

A :class:`Tally` is a dataclass of whole numbers; :meth:`Tally.merge` adds another of
the same kind field by field (the counts of a piece of a file, of a committed batch)
and :meth:`Tally.to_json` gives them by name, in their order.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TypeVar

T = TypeVar("T", bound="Tally")


@dataclass(slots=True)
class Tally:
    """A dataclass of counts (every field an ``int``)."""

    def merge(self: T, other: T) -> None:
        """Add the counts of ``other`` to these (the counts of a piece of a file, of a
        batch: not of each game, which :meth:`add` of a subclass counts faster)."""
        mine = asdict(self)
        for name, value in asdict(other).items():
            setattr(self, name, mine[name] + value)

    def to_json(self) -> dict[str, int]:
        """The counts by name, in their order."""
        return asdict(self)
