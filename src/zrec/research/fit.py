"""How well each reading of the rules explains the games actually recorded
(``zrec readings --fit``).

A reading that makes a recorded game illegal cannot be the rules its players kept,
so the first measure is the **share of the records legal** under each reading
(:func:`zrec.check.readings.game_readings` replays each record under every
combination of its game's options).  Among readings that leave the records legal, the
second is how likely the recorded moves are under a stated **player model**: a
softmax over a value of each legal move,

    P(move) = exp(β · value(move)) / Σ over the legal moves m' of exp(β · value(m')),

the value being, for the ``greedy`` model, the pieces the move takes (a large β is the
``greedy`` player of ``zrec study``, who always takes the most), and for
``alphabeta:D`` the value that :mod:`zrec.research.alphabeta`'s search gives the
position after the move, searched ``D - 1`` moves further, for the seat that moves
(two-seat games without dice only: another game, like a turn with dice below, is
counted for legality alone).  β = 0 is a player
choosing uniformly.  A record's log-likelihood is the sum of
log P over the moves of its main line; a reading's is the sum over its legal records,
given **per move** (the total over the moves counted) so that readings compare on the
same footing.  A turn with dice has no likelihood here (the model would need the
dice's chances): its game is counted for legality alone.

Each share and each per-move log-likelihood has a 95% interval, from 200 resamples of
the records (percentiles 2.5 and 97.5; seeded, so the same for every run).  Readings
are ranked by share, then by log-likelihood per move; readings with the same two
share a rank (standard competition ranking: 1, 2, 2, 4).

The records are fitted in pieces of :data:`RECORDS_PER_PIECE`, here, in worker
processes or on a Dask cluster (:mod:`zrec.research.pieces`); each record is fitted on
its own and the pieces come back in order, so the numbers are the same, byte for byte,
however they are run.  The records are read :data:`PIECES_AT_ONCE` pieces at a time,
so that an archive of a million games is never held in memory: what is kept of a
record is one flag and one number for each reading.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from zrec.check.readings import game_readings
from zrec.errors import ZrecError
from zrec.notation.model import Game
from zrec.play.overrides import with_tags
from zrec.play.replay import GameSetupError, prepare
from zrec.play.walk import positions
from zrec.research.alphabeta import DEFAULT_DEPTH, position_value, refusal
from zrec.research.pieces import run_pieces
from zrec.research.study import removed
from zrec.rules.loops import takings

__all__ = [
    "PIECES_AT_ONCE",
    "RECORDS_PER_PIECE",
    "RESAMPLES",
    "FitError",
    "ReadingFit",
    "fit_records",
    "model_spec",
    "move_loglik",
]

#: resamples of the records for each interval
RESAMPLES = 200
#: records in one piece of work
RECORDS_PER_PIECE = 10
#: pieces read and run together (the records in memory at once: their product)
PIECES_AT_ONCE = 100

#: what a piece of work fits: the number of its first record, the records, beta and
#: the model (as :func:`model_spec` spells it)
Task = tuple[int, tuple[Game, ...], float, str]
#: one record fitted: why it is left out, or its game's name and each reading's
#: options, legality and log-likelihood with its moves
Fitted = str | tuple[str, list[tuple[dict[str, str], bool, tuple[float, int] | None]]]


class FitError(ZrecError, ValueError):
    """A model that cannot be read, or cannot judge the moves of a record's game."""


def model_spec(text: str) -> str:
    """``greedy``, or ``alphabeta:D`` (``alphabeta`` alone: the search player's default
    depth).  Raises :class:`FitError`."""
    name, sep, depth = text.strip().lower().partition(":")
    if name == "greedy" and not sep:
        return name
    if name == "alphabeta":
        if not sep:
            return f"alphabeta:{DEFAULT_DEPTH}"
        depth = depth.strip()
        if depth.isascii() and depth.isdigit() and int(depth) >= 1:
            return f"alphabeta:{int(depth)}"
        raise FitError(f"--model {text}: the depth of alphabeta is a whole number at "
                       f"least 1, not {depth!r}")
    raise FitError(f"--model is greedy or alphabeta[:D], not {text!r}")


def _depth(model: str) -> int | None:
    name, _, depth = model.partition(":")
    return int(depth) if name == "alphabeta" else None


def move_loglik(
    game: Game, options: dict[str, str], beta: float, model: str = "greedy"
) -> tuple[float, int] | None:
    """The log-likelihood of the record's main-line moves under ``options`` and the
    model (``greedy`` or ``alphabeta[:D]``, as :func:`model_spec` reads it), and the
    moves counted; ``None`` for a game with dice, one the model's search cannot play
    (``alphabeta`` plays two-seat games without dice) or one that cannot be replayed.
    Raises :class:`FitError` for a model it cannot read."""
    model = model_spec(model)
    try:
        replay = prepare(with_tags(game, options))
    except GameSetupError:
        return None
    engine = replay.engine
    depth = _depth(model)
    if depth is not None and refusal(engine, replay.start) is not None:
        return None
    total, moves = 0.0, 0
    for step in positions(replay, game.line):
        if step.error is not None or engine.chance(step.before) is not None:
            return None
        if depth is None:
            weights = [beta * taken for taken in takings(engine, step.before)]
            mine = beta * removed(step.events)
        else:
            me = engine.move_number(step.before).seat
            weights = [beta * position_value(engine, engine.apply(step.before, m)[0], me,
                                             depth - 1)
                       for m in engine.legal_moves(step.before)]
            mine = beta * position_value(engine, step.after, me, depth - 1)
        top = max(weights, default=0.0)
        norm = top + math.log(sum(math.exp(w - top) for w in weights)) if weights else 0.0
        total += mine - norm
        moves += 1
    return total, moves


@dataclass(slots=True)
class ReadingFit:
    """One reading of one game over the records: how many are legal, and the
    log-likelihood of the legal ones (``loglik[i]``, ``moves[i]``: record by record,
    ``None`` where the model does not apply)."""

    game: str
    options: dict[str, str]
    legal: list[bool] = field(default_factory=list)
    loglik: list[tuple[float, int] | None] = field(default_factory=list)
    share: tuple[float, float, float] = (0.0, 0.0, 0.0)
    per_move: tuple[float, float, float] | None = None
    rank: int = 0

    def to_json(self) -> dict[str, Any]:
        def rounded(v: tuple[float, float, float] | None) -> dict[str, float] | None:
            return None if v is None else dict(zip(("value", "low", "high"),
                                                   (round(x, 4) for x in v), strict=True))
        counted = [x for x in self.loglik if x is not None]
        return {
            "game": self.game, "options": dict(self.options), "rank": self.rank,
            "records": len(self.legal), "legal": sum(self.legal),
            "share_legal": rounded(self.share),
            "moves": sum(n for _, n in counted),
            "loglik": round(float(sum(v for v, _ in counted)), 4),
            "loglik_per_move": rounded(self.per_move),
        }


def _share(picks: Sequence[int], legal: Sequence[bool]) -> float:
    return sum(legal[i] for i in picks) / len(picks)


def _per_move(picks: Sequence[int], ll: Sequence[tuple[float, int] | None]) -> float | None:
    total, moves = 0.0, 0
    for i in picks:
        found = ll[i]
        if found is not None:
            total, moves = total + found[0], moves + found[1]
    return total / moves if moves else None


def _interval(value: float, samples: list[float]) -> tuple[float, float, float]:
    samples.sort()
    low = samples[int(0.025 * (len(samples) - 1))]
    high = samples[math.ceil(0.975 * (len(samples) - 1))]
    return value, min(low, value), max(high, value)


@functools.lru_cache(maxsize=8)
def _draws(seed: int, game: str, n: int) -> tuple[tuple[int, ...], ...]:
    """The resamples of a game's ``n`` records (the same for each of its readings)."""
    rng = random.Random(f"zrec-fit/{seed}/{game}")
    return tuple(tuple(rng.randrange(n) for _ in range(n)) for _ in range(RESAMPLES))


Measured = tuple[tuple[float, float, float], tuple[float, float, float] | None]


def _measure(fit: ReadingFit, seed: int, done: dict[object, Measured] | None = None) -> None:
    """The share legal and the log-likelihood per move of a reading, with their
    intervals; ``done`` keeps them by the records' verdicts, for readings that judge
    every record alike (their numbers are the same, measured once)."""
    key = (fit.game, tuple(fit.legal), tuple(fit.loglik))
    if done is not None and key in done:
        fit.share, fit.per_move = done[key]
        return
    n = len(fit.legal)
    draws = _draws(seed, fit.game, n)
    whole = list(range(n))
    fit.share = _interval(_share(whole, fit.legal), [_share(d, fit.legal) for d in draws])
    value = _per_move(whole, fit.loglik)
    if value is not None:
        found = [v for d in draws if (v := _per_move(d, fit.loglik)) is not None]
        fit.per_move = _interval(value, found)
    if done is not None:
        done[key] = (fit.share, fit.per_move)


def _fit_piece(task: Task) -> list[Fitted]:
    first, games, beta, model = task
    done: list[Fitted] = []
    for number, game in enumerate(games, first):
        found = game_readings(game, number)
        if found.problem is not None or not found.name:
            done.append(f"record {number}: {found.problem or 'not replayed'}")
            continue
        done.append((found.name, [
            (dict(r.options), r.legal,
             move_loglik(game, r.options, beta, model) if r.legal else None)
            for r in found.readings
        ]))
    return done


def _pieces_fitted(
    games: Iterator[Game], beta: float, model: str, jobs: int, cluster: str | None,
    told: Callable[[Task], None],
) -> Iterator[list[Fitted]]:
    """The pieces fitted in order, :data:`PIECES_AT_ONCE` pieces of records read at a
    time."""
    first = 1
    while batch := list(itertools.islice(games, RECORDS_PER_PIECE * PIECES_AT_ONCE)):
        tasks: list[Task] = [
            (first + start, tuple(batch[start : start + RECORDS_PER_PIECE]), beta, model)
            for start in range(0, len(batch), RECORDS_PER_PIECE)
        ]
        first += len(batch)
        del batch
        yield from run_pieces(_fit_piece, tasks, jobs, cluster, told)


def _score(fit: ReadingFit) -> tuple[float, float]:
    """What a reading is ranked by, best first: its share of legal records, then its
    log-likelihood per move (none: last)."""
    return (-fit.share[0], -(fit.per_move or (-math.inf,))[0])


def fit_records(
    games: Iterable[Game], beta: float = 1.0, seed: int = 0,
    left_out: list[str] | None = None, model: str = "greedy", jobs: int = 1,
    cluster: str | None = None, tick: Callable[[int], None] | None = None,
) -> list[ReadingFit]:
    """Every reading of every game the records play, over those records, ranked
    within each game; a record that cannot be replayed at all (a game zrec does not
    know, a bad option) is left out, its reason added to ``left_out``.  The records
    are fitted in ``jobs`` processes, or by the workers of the Dask scheduler at
    ``cluster`` (``tcp://HOST:PORT``), with the same numbers; ``tick`` is told of the
    records of each piece fitted.  Raises :class:`~zrec.errors.ZrecError`."""
    model = model_spec(model)

    def told(task: Task) -> None:
        if tick is not None:
            tick(len(task[1]))

    fits: dict[tuple[str, tuple[tuple[str, str], ...]], ReadingFit] = {}
    for piece in _pieces_fitted(iter(games), beta, model, jobs, cluster, told):
        for fitted in piece:
            if isinstance(fitted, str):
                if left_out is not None:
                    left_out.append(fitted)
                continue
            name, readings = fitted
            for options, legal, loglik in readings:
                key = (name, tuple(options.items()))
                fit = fits.setdefault(key, ReadingFit(name, options))
                fit.legal.append(legal)
                fit.loglik.append(loglik)
    out = list(fits.values())
    measured: dict[object, Measured] = {}
    for fit in out:
        _measure(fit, seed, measured)
    for name in dict.fromkeys(f.game for f in out):
        mine = [f for f in out if f.game == name]
        ordered = sorted(mine, key=_score)
        # standard competition ranking (1, 2, 2, 4): equal scores share a rank
        for place, fit in enumerate(ordered, 1):
            before = ordered[place - 2] if place > 1 else None
            tied = before is not None and _score(before) == _score(fit)
            fit.rank = before.rank if tied and before is not None else place
    return out
