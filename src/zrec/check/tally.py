"""Counts that add up: the totals a command keeps over many games.

A :class:`Tally` is a dataclass of whole numbers; :meth:`Tally.merge` adds another of
the same kind field by field (the counts of a piece of a file, of a committed batch)
and :meth:`Tally.to_json` gives them by name, in their order.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TypeVar

T = TypeVar("T", bound="Tally")


@dataclass(slots=True)
class Tally:
    """A dataclass of counts (every field an ``int``)."""

    def merge(self: T, other: T) -> None:
        """Add the counts of ``other`` to these (a command merges one a game)."""
        for field in fields(self):
            name = field.name
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def to_json(self) -> dict[str, int]:
        """The counts by name, in their order."""
        return {field.name: getattr(self, field.name) for field in fields(self)}
