"""Ranking readings of the rules by their self-play metrics (``zrec study --rank``).

Researchers who reconstruct a game from partial rules first set aside the readings
that do not make a playable game, then order the rest by how good a game they make
(Browne's evolutionary game design; the Digital Ludeme Project's reconstructions with
Ludii).  The same two steps here, each reading with the players it was studied with:

1. **Playable.**  A reading fails when more than ``max_timeouts`` of its games are
   cut off unfinished (Timeouts), when more than ``max_draws`` of its games end drawn
   (Drawishness), or when the first move is forced in every game (one legal move in
   the first position of every game played): a game whose first choice is no choice.
2. **Score.**  The mean of five numbers, each in [0, 1] and higher for a better
   game: Balance (the seats win alike; with more than two seats the mean of the
   seats' balances), Completion (games that end with a winner), DecisionMoves (moves
   with a real choice), LeadChange (the lead in material changes hands), and one
   minus Timeouts.  A number a reading leaves undefined is left out of its mean.

docs/study.md states the thresholds' defaults and the score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from zrec.research.metrics_ci import Reading
from zrec.research.study import Summary

__all__ = ["NEEDED", "Playability", "Ranked", "rank_readings"]

#: the metrics the ranking reads (``zrec study --rank`` adds them to those asked for)
NEEDED = ("Balance", "Completion", "DecisionMoves", "LeadChange", "Timeouts", "Drawishness")


@dataclass(frozen=True, slots=True)
class Playability:
    """The thresholds of the playability test (shares of a reading's games)."""

    max_timeouts: float = 0.2
    max_draws: float = 0.8


@dataclass(frozen=True, slots=True)
class Ranked:
    """A reading's place: ``rank`` from 1 (``None`` when it failed), its ``score``
    (``None`` when it failed) and why it failed."""

    rank: int | None
    score: float | None
    rejected: str | None

    def to_json(self) -> dict[str, object]:
        score = None if self.score is None else round(self.score, 4)
        return {"rank": self.rank, "score": score, "rejected": self.rejected}


def _value(metrics: Mapping[str, Reading], name: str) -> float | None:
    found = metrics.get(name)
    return None if found is None else found.value


def _balance(metrics: Mapping[str, Reading]) -> float | None:
    """Balance; with more than two seats, the mean of the seats' balances."""
    seats = [m.value for n, m in metrics.items()
             if n.startswith("Balance:") and m.value is not None]
    return sum(seats) / len(seats) if seats else _value(metrics, "Balance")


def forced_first(summary: Summary) -> bool:
    """Every game's first position had one legal move (games with a trace).  A game
    whose first turn throws dice is not judged: its first move follows the throw, not
    a choice (the herd's opening move of a game with dice, say)."""
    from zrec.research.study import game_rng, prepare_reading
    from zrec.rules import find_game

    replay = prepare_reading(find_game(summary.game), summary.reading,
                             game_rng(summary.seed, 0), len(summary.seats))
    if replay.engine.chance(replay.start) is not None:
        return False
    firsts = [r.trace.legal[0] for r in summary.results if r.trace is not None and r.trace.legal]
    return bool(firsts) and all(n == 1 for n in firsts)


def why_unplayable(
    summary: Summary, metrics: Mapping[str, Reading], test: Playability
) -> str | None:
    """Why the reading fails the playability test (``None``: it passes)."""
    timeouts = _value(metrics, "Timeouts") or 0.0
    if timeouts > test.max_timeouts:
        return f"{timeouts:.0%} of the games cut off (more than {test.max_timeouts:.0%})"
    draws = _value(metrics, "Drawishness") or 0.0
    if draws > test.max_draws:
        return f"{draws:.0%} of the games drawn (more than {test.max_draws:.0%})"
    if forced_first(summary):
        return "the first move is forced (one legal move) in every game"
    return None


def score(metrics: Mapping[str, Reading]) -> float | None:
    """The mean of Balance, Completion, DecisionMoves, LeadChange and 1 − Timeouts."""
    timeouts = _value(metrics, "Timeouts")
    values = [
        _balance(metrics),
        _value(metrics, "Completion"),
        _value(metrics, "DecisionMoves"),
        _value(metrics, "LeadChange"),
        None if timeouts is None else 1.0 - timeouts,
    ]
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


def rank_readings(
    summaries: Sequence[Summary], measured: Sequence[Mapping[str, Reading]],
    test: Playability,
) -> list[Ranked]:
    """Each reading's place, in the readings' order: the playable ones ranked by
    score (best first; a tie keeps the readings' order)."""
    reasons = [why_unplayable(s, m, test) for s, m in zip(summaries, measured, strict=True)]
    scores = [None if why else score(m) for why, m in zip(reasons, measured, strict=True)]
    order = sorted((i for i, s in enumerate(scores) if s is not None),
                   key=lambda i: -(scores[i] or 0.0))
    places = {i: n for n, i in enumerate(order, 1)}
    return [Ranked(places.get(i), scores[i], reasons[i]) for i in range(len(summaries))]
