"""The metrics of a reading with 95% confidence intervals, by bootstrap over games.

Every metric (:mod:`zrec.research.metrics`) is a function of the means over games of a
few per-game numbers.  Its value is that function of the study's games; its interval
is the 2.5th and 97.5th percentile of the function over :data:`RESAMPLES` resamples
of the games drawn with replacement (Efron's percentile bootstrap).  The resamples are
drawn from a generator seeded with the study's seed alone, so the intervals are the
same for every ``--jobs`` and every run, and the readings of a study are resampled
alike.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from operator import mul

from zrec.research.metrics import Combine, metric_set
from zrec.research.study import Summary

__all__ = ["RESAMPLES", "Reading", "bootstrap", "kinds_for", "reading_metrics"]

#: resamples of the games per interval
RESAMPLES = 200


@dataclass(frozen=True, slots=True)
class Reading:
    """One metric's value and 95% interval (``None`` where undefined)."""

    value: float | None
    low: float | None
    high: float | None

    def to_json(self) -> dict[str, float | None]:
        """``{"value": v, "low": l, "high": h}``, rounded to 4 decimals."""
        return {"value": _round(self.value), "low": _round(self.low), "high": _round(self.high)}


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def kinds_for(names: Sequence[str]) -> frozenset[str]:
    """What the games must record for the metrics named."""
    out: set[str] = set()
    for metric in metric_set(names, ("a", "b", "c"), 0):
        out |= metric.kinds
    return frozenset(out)


@functools.lru_cache(maxsize=2)
def resamples(n: int, seed: int, count: int = RESAMPLES) -> tuple[tuple[int, ...], ...]:
    """How often each of ``n`` games is drawn in each of ``count`` resamples."""
    rng = random.Random(f"zrec-metrics/{seed}")
    games = range(n)
    out = []
    for _ in range(count):
        weights = [0] * n
        for i in rng.choices(games, k=n):
            weights[i] += 1
        out.append(tuple(weights))
    return tuple(out)


def bootstrap(
    columns: Sequence[Sequence[float]],
    combine: Combine,
    draws: Sequence[Sequence[int]],
) -> Reading:
    """The value of ``combine`` (a function of the columns' means) and its percentile
    interval over ``draws`` (weights per game, :func:`resamples`)."""
    n = len(columns[0]) if columns else 0
    value = combine([sum(c) / n for c in columns])
    found = []
    for weights in draws:
        got = combine([sum(map(mul, c, weights)) / n for c in columns])
        if got is not None:
            found.append(got)
    if value is None or not found:
        return Reading(value, None, None)
    found.sort()
    low = found[int(0.025 * len(found))]
    high = found[max(math.ceil(0.975 * len(found)) - 1, 0)]
    return Reading(value, min(low, value), max(high, value))


def reading_metrics(summary: Summary, names: Sequence[str]) -> dict[str, Reading]:
    """Each metric named (with its per-seat ones) of one reading, by name."""
    results = summary.results
    draws = resamples(len(results), summary.seed)
    out = {}
    for metric in metric_set(names, summary.seats, summary.first_seat):
        rows = [metric.columns(r) for r in results]
        columns = [list(c) for c in zip(*rows, strict=True)]
        out[metric.name] = bootstrap(columns, metric.combine, draws)
    return out
