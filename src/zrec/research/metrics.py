"""The plausibility metrics of a study, after Ludii's (docs/study.md, "Metrics").

The Digital Ludeme Project judges a reconstructed rule set by metrics of self-played
games (Stephenson, Piette, Soemers and Browne; Ludii's ``metrics`` package); this module
gives the same metrics, under the same names, defined in docs/study.md in zrec's
words.  Each metric is a function of the **means over games** of a few per-game
numbers (its columns), so that :mod:`zrec.research.metrics_ci` can resample games to
give an interval.  The evaluation-based metrics use a material evaluation: a seat's
pieces on the board (:meth:`~zrec.rules.base.Engine.material`) over all the pieces on
the board.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from zrec.research.mcts import evaluation as evaluations
from zrec.research.metrics_trace import Trace
from zrec.research.study import GameResult, StudyError

__all__ = [
    "DEFAULT",
    "NAMES",
    "Combine",
    "Metric",
    "evaluations",
    "metric_set",
    "parse_metrics",
]

Columns = Callable[[GameResult], tuple[float, ...]]
Combine = Callable[[Sequence[float]], "float | None"]


@dataclass(frozen=True)
class Metric:
    """One metric: its name, the records it needs, its per-game columns and how their
    means make its value (``None``: undefined, e.g. no game with a winner)."""

    name: str
    kinds: frozenset[str]
    columns: Columns
    combine: Combine


#: every metric, in the order tables list them (per-seat ones are added per game)
NAMES = (
    "DurationTurns",
    "DecisionMoves",
    "BoardCoverageDefault",
    "AdvantageP1",
    "Balance",
    "Completion",
    "Drawishness",
    "OutcomeUniformity",
    "PieceNumber",
    "BoardSitesOccupied",
    "BranchingFactor",
    "MoveDistance",
    "Timeouts",
    "SituationalRepetition",
    "Decisiveness",
    "LeadChange",
    "Stability",
    "Drama",
)
#: the metrics of a study without ``--metrics``: those read from results alone
DEFAULT = ("DurationTurns", "Completion", "Drawishness", "Timeouts", "AdvantageP1", "Balance")


def parse_metrics(spec: str) -> tuple[str, ...]:
    """``all``, ``none`` or names joined by commas (any case), in :data:`NAMES` order;
    raises :class:`~zrec.research.study.StudyError`."""
    if spec.strip().lower() == "all":
        return NAMES
    if spec.strip().lower() == "none":
        return ()
    known = {name.lower(): name for name in NAMES}
    asked = set()
    for item in spec.split(","):
        name = known.get(item.strip().lower())
        if name is None:
            raise StudyError(
                f"--metrics takes all, none or names joined by commas ({', '.join(NAMES)}), "
                f"not {item.strip()!r}"
            )
        asked.add(name)
    return tuple(n for n in NAMES if n in asked)


def winners(r: GameResult) -> tuple[int, ...]:
    """The seats with the highest score of a finished game whose scores are not all
    equal (several where they share it); none for a draw or an unfinished game."""
    if r.scores is None or len(set(r.scores)) == 1:
        return ()
    top = max(r.scores)
    return tuple(i for i, s in enumerate(r.scores) if s == top)


def _trace(r: GameResult) -> Trace:
    if r.trace is None:
        raise StudyError("this metric needs games played with a record of their moves")
    return r.trace


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _ratio(m: Sequence[float]) -> float | None:
    return m[0] / m[1] if m[1] else None


def _first(m: Sequence[float]) -> float:
    return m[0]


def _lead_change(r: GameResult) -> tuple[float, ...]:
    evals = [evaluations(m) for m in _trace(r).material]
    leaders = [frozenset(i for i, e in enumerate(es) if e == max(es)) for es in evals]
    changes = sum(a != b for a, b in itertools.pairwise(leaders))
    return (changes / (len(leaders) - 1) if len(leaders) > 1 else 0.0,)


def _stability(r: GameResult) -> tuple[float, ...]:
    evals = [evaluations(m) for m in _trace(r).material]
    total = 0.0
    for seat in range(len(evals[0]) if evals else 0):
        values = [e[seat] for e in evals]
        mean = _mean(values)
        total += _mean([(v - mean) ** 2 for v in values])
    return (total,)


def _decisiveness(r: GameResult) -> tuple[float, ...]:
    won = winners(r)
    evals = [evaluations(m) for m in _trace(r).material]
    if not won or len(evals) < 2:
        return (0.0, 0.0)
    others = [i for i in range(len(evals[0])) if i not in won]
    threshold = max(e[i] for e in evals for i in others)
    first = next(
        (k for k, e in enumerate(evals) if max(e[i] for i in won) > threshold), len(evals) - 1
    )
    return (first / (len(evals) - 1), 1.0)


def _drama(r: GameResult) -> tuple[float, ...]:
    won = winners(r)
    evals = [evaluations(m) for m in _trace(r).material]
    if not won:
        return (0.0, 0.0)
    gaps = []
    for e in evals:
        best_winner = max(e[i] for i in won)
        best_other = max((x for i, x in enumerate(e) if i not in won), default=0.0)
        if best_other > best_winner:
            gaps.append(best_other - best_winner)
    return (_mean(gaps), 1.0)


def _timeout(r: GameResult) -> tuple[float, ...]:
    return (float(r.scores is None),)


def _basic() -> list[Metric]:
    none: frozenset[str] = frozenset()
    return [
        Metric("DurationTurns", none, lambda r: (float(r.plies),), _first),
        Metric(
            "DecisionMoves",
            frozenset({"legal"}),
            lambda r: (sum(n > 1 for n in _trace(r).legal), len(_trace(r).legal)),
            _ratio,
        ),
        Metric(
            "BoardCoverageDefault",
            frozenset({"sites"}),
            lambda r: (_trace(r).covered / _trace(r).sites if _trace(r).sites else 0.0,),
            _first,
        ),
        Metric("Completion", none, lambda r: (float(bool(winners(r))),), _first),
        Metric(
            "Drawishness",
            none,
            lambda r: (float(r.scores is not None and len(set(r.scores)) == 1),),
            _first,
        ),
        Metric(
            "PieceNumber",
            frozenset({"material"}),
            lambda r: (_mean([sum(m) for m in _trace(r).material]),),
            _first,
        ),
        Metric(
            "BoardSitesOccupied",
            frozenset({"sites"}),
            lambda r: (_mean([n / max(_trace(r).sites, 1) for n in _trace(r).occupied]),),
            _first,
        ),
        Metric(
            "BranchingFactor",
            frozenset({"legal"}),
            lambda r: (sum(_trace(r).legal), len(_trace(r).legal)),
            _ratio,
        ),
        Metric(
            "MoveDistance",
            frozenset({"routes"}),
            lambda r: (sum(_trace(r).steps), len(_trace(r).steps)),
            _ratio,
        ),
        Metric("Timeouts", none, _timeout, _first),
        Metric(
            "SituationalRepetition",
            frozenset({"keys"}),
            lambda r: (_trace(r).repeats / max(_trace(r).positions, 1),),
            _first,
        ),
        Metric("Decisiveness", frozenset({"material"}), _decisiveness, _ratio),
        Metric("LeadChange", frozenset({"material"}), _lead_change, _first),
        Metric("Stability", frozenset({"material"}), _stability, _first),
        Metric("Drama", frozenset({"material"}), _drama, _ratio),
    ]


def _seat_metrics(name: str, seats: Sequence[str], first: int) -> list[Metric]:
    """AdvantageP1, Balance or OutcomeUniformity for a game of ``seats``; with more
    than two seats, AdvantageP1 and Balance also seat by seat (``Advantage:Shepherd1``,
    ``Balance:Wolves``)."""
    k = len(seats)
    none: frozenset[str] = frozenset()

    def wins(r: GameResult) -> tuple[float, ...]:
        won = winners(r)
        return tuple(float(i in won) for i in range(k))

    if name == "AdvantageP1":
        out = [Metric(name, none, lambda r: (wins(r)[first],), _first)]
        if k > 2:
            for i, seat in enumerate(seats):

                def seat_wins(r: GameResult, i: int = i) -> tuple[float, ...]:
                    return (wins(r)[i],)

                out.append(Metric(f"Advantage:{seat}", none, seat_wins, _first))
        return out
    if name == "Balance":

        def balance(m: Sequence[float]) -> float:
            return 1 - (max(m) - min(m))

        out = [Metric(name, none, wins, balance)]
        if k > 2:
            for i, seat in enumerate(seats):

                def one(m: Sequence[float], i: int = i) -> float:
                    return 1 - max(abs(m[i] - x) for x in m)

                out.append(Metric(f"Balance:{seat}", none, wins, one))
        return out

    def utilities(r: GameResult) -> tuple[float, ...]:
        scores = [float(s) for s in r.scores] if r.scores is not None else [1 / k] * k
        us = [2 * s - 1 for s in scores]
        return (*us, *(u * u for u in us))

    def uniformity(m: Sequence[float]) -> float:
        return 1 - _mean([m[k + i] - m[i] ** 2 for i in range(k)])

    return [Metric(name, none, utilities, uniformity)]


def metric_set(names: Sequence[str], seats: Sequence[str], first: int) -> list[Metric]:
    """The metrics named, in :data:`NAMES` order, for a game of ``seats`` whose first
    mover is seat ``first`` (per-seat metrics follow their whole-game one)."""
    basic = {m.name: m for m in _basic()}
    out: list[Metric] = []
    for name in NAMES:
        if name not in names:
            continue
        if name in basic:
            out.append(basic[name])
        else:
            out.extend(_seat_metrics(name, seats, first))
    return out
