"""The luck of a roll of the dice: what it gave the seat that rolled, against the average
roll (gnubg's split of a game into skill and luck).

A turn's dice are the engine's chance model (:meth:`~zrec.rules.base.Engine.chance`):
each die rolls every face with the same probability, so every roll (the faces in the
order written) is as likely as any other.  The **luck** of the roll made is the mover's
value of the position once it is rolled (the value of its best move, as the analysis
finds it: :mod:`zrec.research.analysis`) less the average of that value over every
roll.  Its expectation is 0 whatever the values are, so a seat's luck summed over a
game is how much the dice gave it, and over many games of equal players it sums to
about 0.  A turn of at most :data:`ENUMERATED` rolls has each of them valued; one of
more (four dice of four faces: 256 rolls) is averaged over :data:`ENUMERATED` rolls
drawn from the chance model, which keeps the expectation 0 (an unbiased average) at
the cost of some noise.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

from zrec.rules.base import Chance

__all__ = ["ENUMERATED", "every_roll", "roll_luck"]

#: a turn with at most this many rolls has each of them valued; beyond, a sample of it
ENUMERATED = 24

Roll = tuple[int, ...]


def every_roll(chance: Chance) -> list[Roll]:
    """Every roll of the dice, the faces in the order written, each as likely as any
    other (``d4+d6``: 24 rolls)."""
    return list(itertools.product(*(range(1, faces + 1) for faces in chance.faces)))


def roll_luck(
    value: Callable[[Roll], float], chance: Chance, rolled: Sequence[int], rng: random.Random
) -> float:
    """The luck of ``rolled``: ``value`` (the mover's value once a roll is made; asked
    once a roll) of it less its average over every roll of ``chance`` (or over
    :data:`ENUMERATED` rolls drawn with ``rng`` where there are more)."""
    every = every_roll(chance)
    rolls = every if len(every) <= ENUMERATED else [chance.roll(rng) for _ in range(ENUMERATED)]
    known: dict[Roll, float] = {}

    def of(roll: Roll) -> float:
        if roll not in known:
            known[roll] = value(roll)
        return known[roll]

    average = sum(of(roll) for roll in rolls) / len(rolls)
    return of(tuple(rolled)) - average
