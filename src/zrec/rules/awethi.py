"""Awéthi (seed 004): a game zrec can record but cannot yet check.

zrec reads, writes and converts Awéthi records (dice turns, herd moves, shepherd
and wolf paths; see docs/notation.md section 5.4), and knows its name, seats and
option tags.  It has no rules engine for it yet: :meth:`Awethi.engine_for` returns
``None``, and the validator reports such records as not checked rather than valid.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from zrec.rules.base import Engine, InputError, InputSpec, OptionSpec, Setting

__all__ = ["AWETHI", "Awethi"]

_OPTIONS = {
    "Points": OptionSpec(
        "basic",
        ("basic", "advanced"),
        "basic: the shepherd player with most animals in the shelter wins; advanced: "
        "animals score points (calf 1, cow 3, bull 5).",
    ),
}


class Awethi:
    """Names, seats and options of Awéthi; no engine yet."""

    name: str = "awethi"
    aliases: tuple[str, ...] = ("awéthi", "awethi!")
    title: str = "Awéthi"
    seats: tuple[str, ...] = ("Shepherd1", "Shepherd2", "Shepherd3", "Shepherd4", "Wolves")
    options: Mapping[str, OptionSpec] = MappingProxyType(_OPTIONS)
    #: No setup tags beyond ``Setup`` and the options, until there is an engine.
    inputs: Mapping[str, InputSpec] = MappingProxyType({})

    def random_tags(self, seats: int | None, rng: random.Random) -> dict[str, str]:
        if seats not in (None, 2):
            raise InputError(f"{self.title} is played by 2 sides, not {seats}", "seats")
        return {}

    def engine_for(self, setting: Setting) -> Engine[Any, Any] | None:
        return None


AWETHI = Awethi()
