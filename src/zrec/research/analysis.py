"""Computer analysis of a record: every move of its main line judged by a search player.

For each move of the main line a search player of :mod:`zrec.research.players` looks at
the position before it (with the dice the move was made with, where the turn rolls any)
and says:

- the position's **value** for each seat with the best move found (``before``) and
  after the move played (``after``): a win probability, the seat's expected score;
- the **best move** found, and a best line from it (added as a variation);
- the move's **loss**: the mover's value before less its value after (never below 0;
  0 when the move played is the best found); a loss of :data:`MARKS` or more marks the
  move ``?!``, ``?`` or ``??``.

How the two players value a position (``docs/analysis.md``):

- ``alphabeta:D`` (two seats, no dice) searches every move ``D`` moves deep for the
  material, as it plays; a material lead ``d`` (the mover's pieces less the other
  seat's) is worth ``1 / (1 + exp(-STEEPNESS * d / n))``, ``n`` a seat's pieces at
  the start (:func:`win_probability`); a game won or lost within the depth is 1 or 0.
  The values are exact for the depth, and the same whatever the seed.
- ``mcts:N`` (any game) grows its tree of ``N`` playouts from the position
  (:func:`zrec.research.mcts.grow`): the best move is the one tried most, the value
  before is that move's mean score per seat; the value after is the played move's mean
  in the same tree where it was tried at least :data:`TRIED` of the playouts, else the
  root of a tree of its own grown from the position after it.

Each seat's summary (:class:`SeatSummary`) gives its moves, average loss, accuracy
(lichess's formula of the loss, :func:`accuracy`) and marks; in a game with dice, also
the luck of its rolls (:mod:`zrec.research.luck`).  Every move draws on a generator of
its own, made from the seed, the game's number and the move's (:func:`move_rng`), so
the analysis of a game is the same in any process and for any ``--jobs``.  The engine
protocol alone is used (legal moves, apply, outcome, chance); where the engine has a
compiled kernel, ``alphabeta``'s search and ``mcts``'s random playouts run in it, while
``mcts``'s tree is grown in Python.

Past 500 lines, and one piece on purpose: the judges of the two players, the values,
losses, marks and summaries they give are one reading of a move, and each depends on
the others' definitions (the luck, which is another question, is in its own module).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from zrec.errors import ZrecError
from zrec.moves import Turn
from zrec.notation.model import Game
from zrec.play.replay import GameSetupError, ReplayError, prepare
from zrec.play.walk import positions
from zrec.research import alphabeta, mcts
from zrec.research.luck import roll_luck
from zrec.research.players import SEARCHERS, player_spec
from zrec.rules.base import Chance, MoveNumber
from zrec.rules.loops import WIN

__all__ = [
    "ANALYSIS_TAG",
    "DEFAULT_DEPTH",
    "DEFAULT_PLAYOUTS",
    "LUCK_SHARE",
    "MARKS",
    "STEEPNESS",
    "TRIED",
    "Analysis",
    "AnalysisError",
    "Judged",
    "SeatSummary",
    "accuracy",
    "analyse_game",
    "analysis_player",
    "check_game",
    "default_player",
    "mark_of",
    "move_rng",
    "win_probability",
]

Values = tuple[float, ...]

#: a move losing at least this much of the mover's win probability gets the mark
#: (the worst first): lichess's thresholds of a blunder, a mistake, an inaccuracy
MARKS: tuple[tuple[str, float], ...] = (("??", 0.30), ("?", 0.20), ("?!", 0.10))
#: how steeply a material lead turns into a win probability (``alphabeta``): a lead of
#: a sixth of a seat's start material is worth 1 / (1 + e^-1.5), 0.82, so that giving
#: it away from an even position loses 0.32, a blunder
STEEPNESS = 9.0
#: the default budgets of the analysis: ``alphabeta:4`` where it plays, else ``mcts:200``
DEFAULT_DEPTH, DEFAULT_PLAYOUTS = 4, 200
#: the share of the playouts a played move must have had in the tree of the position
#: before it for its mean there to be its value (else it gets a tree of its own)
TRIED = 0.05
#: the luck of a roll is searched with the budget divided by this (``mcts:200``: 25
#: playouts a roll), as gnubg measures luck with a shallower search than its analysis
LUCK_SHARE = 8
#: the moves of a best line of ``mcts`` at most (``alphabeta``: its depth)
LINE_MOVES = 6
#: the visits a move of ``mcts``'s best line needs to be in it (after the first)
LINE_VISITS = 4


class AnalysisError(ZrecError, ValueError):
    """A game that cannot be analysed (its tags, an illegal move), or a player that
    cannot analyse it."""


@dataclass(frozen=True)
class Judged:
    """One move of the main line as the analysis judged it.

    ``ply`` counts the moves of the main line from 1 (a move that is not a turn
    counts); ``number`` is the move's number, ``seat`` the mover's index; ``before``
    and ``after`` a value per seat; ``best`` the best move found where it is not the
    move played, ``line`` a best line from the position before the move (numbers and
    turns, the best move first; kept for marked moves only); ``roll`` the dice the move
    was made with and ``luck`` their luck for the mover (``None`` without dice)."""

    ply: int
    number: MoveNumber
    seat: int
    move: str
    before: Values
    after: Values
    loss: float
    mark: str | None
    best: str | None
    line: tuple[tuple[MoveNumber, Turn], ...] = ()
    roll: tuple[int, ...] | None = None
    luck: float | None = None


@dataclass(frozen=True)
class SeatSummary:
    """One seat's play over a game: its moves judged, their average loss and accuracy
    (a percentage), the count of each mark, and its total luck (``None`` without
    dice)."""

    seat: str
    moves: int
    average_loss: float
    accuracy: float
    marks: dict[str, int] = field(default_factory=dict)
    luck: float | None = None


@dataclass(frozen=True)
class Analysis:
    """A game's analysis: the player (as :func:`analysis_player` spells it), the seed,
    the seats, every move judged and each seat's summary."""

    player: str
    seed: int
    seats: tuple[str, ...]
    moves: tuple[Judged, ...]
    summary: tuple[SeatSummary, ...]
    dice: bool

    def to_json(self) -> dict[str, Any]:
        """The analysis with stable key names (values rounded to 4 places)."""
        return {
            "player": self.player,
            "seed": self.seed,
            "seats": list(self.seats),
            "moves": [
                {
                    "ply": j.ply,
                    "number": j.number.text() if j.number.turn else None,
                    "seat": self.seats[j.seat],
                    "move": j.move,
                    "before": [_round(v) for v in j.before],
                    "after": [_round(v) for v in j.after],
                    "loss": _round(j.loss),
                    "mark": j.mark,
                    "best": j.best,
                    "line": [turn.text() for _, turn in j.line],
                    **(
                        {"roll": list(j.roll), "luck": _round(j.luck or 0.0)}
                        if j.roll is not None
                        else {}
                    ),
                }
                for j in self.moves
            ],
            "summary": [
                {
                    "seat": s.seat,
                    "moves": s.moves,
                    "average_loss": _round(s.average_loss),
                    "accuracy": round(s.accuracy, 1),
                    "marks": dict(s.marks),
                    **({"luck": _round(s.luck)} if s.luck is not None else {}),
                }
                for s in self.summary
            ],
        }


def _round(value: float) -> float:
    return round(value, 4) + 0.0  # (+ 0.0: no -0.0)


def win_probability(lead: int, pieces: float) -> float:
    """The win probability of a material ``lead`` (an ``alphabeta`` value) where a seat
    starts with ``pieces``: 1 or 0 for a game won or lost within the search, else
    ``1 / (1 + exp(-STEEPNESS * lead / pieces))``."""
    if lead > WIN // 2:
        return 1.0
    if lead < -(WIN // 2):
        return 0.0
    if lead == 0:
        return 0.5
    return 1.0 / (1.0 + math.exp(-STEEPNESS * lead / max(pieces, 1.0)))


def accuracy(loss: float) -> float:
    """A move's accuracy in percent from its loss of win probability, as lichess
    reckons it: ``103.1668 * exp(-4.354 * loss) - 3.1669``, between 0 and 100 (100
    for no loss: the formula's 99.9999 rounded up)."""
    if loss <= 0.0:
        return 100.0
    return min(100.0, max(0.0, 103.1668 * math.exp(-4.354 * loss) - 3.1669))


def mark_of(loss: float) -> str | None:
    """The mark of a move that loses ``loss`` (:data:`MARKS`), else ``None``."""
    for mark, threshold in MARKS:
        if loss >= threshold - 1e-12:
            return mark
    return None


def move_rng(seed: int, game: int, ply: int, what: str = "") -> random.Random:
    """The generator of one move's analysis (``what``: a part of it, such as one roll's
    luck): the same for the same seed, game number and ply in any process."""
    return random.Random(f"zrec-analyse/{seed}/{game}/{ply}{what}")


def default_player(engine: Any, start: Any) -> str:
    """``alphabeta:4`` where the ``alphabeta`` player plays the game (two seats, no
    dice), else ``mcts:200``."""
    if alphabeta.refusal(engine, start) is None:
        return f"alphabeta:{DEFAULT_DEPTH}"
    return f"mcts:{DEFAULT_PLAYOUTS}"


def analysis_player(text: str | None) -> str | None:
    """The player ``--player`` names, spelt with its budget (``None``: each game's
    :func:`default_player`); raises :class:`AnalysisError` for a name that is not a
    search player (or a bad budget)."""
    if text is None:
        return None
    try:
        spec = player_spec(text)
    except ZrecError as exc:
        raise AnalysisError(str(exc)) from None
    if spec is None:
        names = " or ".join(s.spelt(name) for name, s in SEARCHERS.items())
        raise AnalysisError(f"--player takes a search player, {names}; not {text.strip()!r}")
    return spec


# -- the two judges ----------------------------------------------------------------------


class _Decision:
    """What a judge says of one move: values before and after, the best move found and
    a best line (moves from the position before), only asked for when ``line`` is."""

    __slots__ = ("after", "before", "best", "line")

    def __init__(
        self, before: Values, after: Values, best: Any, line: Callable[[], list[Any]]
    ) -> None:
        self.before = before
        self.after = after
        self.best = best
        self.line = line


class _AlphaBeta:
    """The ``alphabeta`` player's judgement: exact material values at its depth."""

    def __init__(self, engine: Any, start: Any, depth: int) -> None:
        why = alphabeta.refusal(engine, start)
        if why is not None:
            raise AnalysisError(why)
        self.depth = depth
        material = engine.material(start)
        self.pieces = sum(material) / len(material)

    def values(self, lead: int, me: int) -> Values:
        p = win_probability(lead, self.pieces)
        return (p, 1.0 - p) if me == 0 else (1.0 - p, p)

    def decide(
        self, engine: Any, pos: Any, roll: Sequence[int] | None, played: Any, after: Any,
        rng: random.Random,
    ) -> _Decision:
        me = engine.move_number(pos).seat
        scored = alphabeta.scored(engine, pos, self.depth)
        top = max(v for v, _ in scored)
        mine = alphabeta.position_value(engine, after, me, self.depth - 1)
        if mine >= top:
            return _Decision(self.values(mine, me), self.values(mine, me), played, list)
        best = next(m for v, m in scored if v == top)
        return _Decision(
            self.values(top, me), self.values(mine, me), best,
            lambda: self._line(engine, pos, best),
        )

    def _line(self, engine: Any, pos: Any, best: Any) -> list[Any]:
        line = [best]
        pos = engine.apply(pos, best)[0]
        for depth in range(self.depth - 1, 0, -1):
            if engine.outcome(pos) is not None:
                break
            scored = alphabeta.scored(engine, pos, depth)
            if not scored:
                break
            top = max(v for v, _ in scored)
            move = next(m for v, m in scored if v == top)
            line.append(move)
            pos = engine.apply(pos, move)[0]
        return line

    def roll_value(self, engine: Any, pos: Any, roll: Sequence[int], rng: random.Random) -> float:
        raise AnalysisError("alphabeta plays games without dice only")  # never asked


def _mean(node: Any) -> Values:
    """A tree node's mean score per seat (its game's scores where it is over)."""
    if node.over is not None:
        return tuple(node.over)
    if not node.visits:
        n = len(node.totals)
        return (1.0 / n,) * n
    return tuple(t / node.visits for t in node.totals)


def _most_tried(children: Sequence[Any], seat: int) -> int | None:
    """The child tried most (ties: the better mean for ``seat``, then the first)."""
    best, rank = None, (-1, -math.inf)
    for i, child in enumerate(children):
        if child is None:
            continue
        r = (child.visits, child.totals[seat] / child.visits if child.visits else 0.0)
        if r > rank:
            best, rank = i, r
    return best


class _Mcts:
    """The ``mcts`` player's judgement: the means of its search tree."""

    def __init__(self, engine: Any, start: Any, playouts: int, moves: int) -> None:
        self.playouts = playouts
        self.moves = moves

    def decide(
        self, engine: Any, pos: Any, roll: Sequence[int] | None, played: Any, after: Any,
        rng: random.Random,
    ) -> _Decision:
        me = engine.move_number(pos).seat
        root = mcts.grow(engine, pos, roll, rng, self.playouts, self.moves)
        branch = root.branches.get(None if roll is None else tuple(roll))
        found = None if branch is None else _most_tried(branch.children, me)
        if branch is None or found is None:  # (no candidate: cannot be, a move was played)
            value = self.value(engine, after, rng)
            return _Decision(value, value, played, list)
        best_child: Any = branch.children[found]
        before = _mean(best_child)
        key = engine.key(after)
        if engine.key(best_child.pos) == key:
            return _Decision(before, before, played, list)
        mine = None
        for child in branch.children:
            if child is not None and engine.key(child.pos) == key:
                mine = child
                break
        if mine is not None and mine.visits >= max(1, TRIED * self.playouts):
            after_values = _mean(mine)
        else:
            after_values = self.value(engine, after, rng)
        best = branch.moves[found]
        return _Decision(
            before, after_values, best, lambda: self._line(engine, pos, best, best_child)
        )

    def value(self, engine: Any, pos: Any, rng: random.Random) -> Values:
        """A position's value per seat: the root of a tree grown from it."""
        return _mean(mcts.grow(engine, pos, None, rng, self.playouts, self.moves))

    def _line(self, engine: Any, pos: Any, best: Any, node: Any) -> list[Any]:
        line = [best]
        while len(line) < LINE_MOVES and node.over is None and node.branches:
            branch = max(node.branches.values(), key=lambda b: b.visits)
            seat = engine.move_number(node.pos).seat
            i = _most_tried(branch.children, seat)
            if i is None or branch.children[i].visits < LINE_VISITS:
                break
            line.append(branch.moves[i])
            node = branch.children[i]
        return line

    def roll_value(self, engine: Any, pos: Any, roll: Sequence[int], rng: random.Random) -> float:
        """The mover's value of the position once ``roll`` is rolled: its best move's
        mean in a tree of the luck's budget (:data:`LUCK_SHARE`)."""
        me = engine.move_number(pos).seat
        budget = max(1, self.playouts // LUCK_SHARE)
        root = mcts.grow(engine, pos, roll, rng, budget, self.moves)
        branch = root.branches.get(tuple(roll))
        found = None if branch is None else _most_tried(branch.children, me)
        node: Any = root if branch is None or found is None else branch.children[found]
        value: float = _mean(node)[me]
        return value


def _judge(engine: Any, start: Any, spec: str) -> _AlphaBeta | _Mcts:
    name, *numbers = spec.split(":")
    searcher = SEARCHERS[name]
    budget = [int(n) for n in numbers] or [searcher.default]
    if name == "alphabeta":
        return _AlphaBeta(engine, start, budget[0])
    second = budget[1] if len(budget) > 1 else mcts.PLAYOUT_MOVES
    return _Mcts(engine, start, budget[0], second)


# -- a game ------------------------------------------------------------------------------


#: the tag an analysed record names its analysis in (:mod:`zrec.research.annotate`)
ANALYSIS_TAG = "Analysis"


def _prepared(game: Game, player: str | None) -> tuple[Any, Any, list[Any], str, Any]:
    """The engine, start, steps of the main line, player and judge of a game; a record
    analysed already is refused (its marks, comments and lines would be written in a
    second time beside the new ones)."""
    done = game.tag(ANALYSIS_TAG)
    if done is not None:
        raise AnalysisError(
            f"the record is analysed already ({ANALYSIS_TAG} {done}): analyse it as it was "
            "written, without that analysis's marks, comments and lines"
        )
    try:
        replay = prepare(game)
        steps = positions(replay, game.line)
    except (GameSetupError, ReplayError) as exc:
        raise AnalysisError(str(exc)) from None
    engine, start = replay.engine, replay.start
    spec = player or default_player(engine, start)
    return engine, start, steps, spec, _judge(engine, start, spec)


def check_game(game: Game, player: str | None) -> str:
    """Raise :class:`AnalysisError` where :func:`analyse_game` would, before any search:
    a game that cannot be replayed, or a player that cannot play it; else give the
    player that will analyse it (``player``, or the game's :func:`default_player`)."""
    return _prepared(game, player)[3]


def analyse_game(
    game: Game,
    player: str | None,
    seed: int,
    number: int,
    tick: Callable[[], None] | None = None,
) -> Analysis:
    """Every move of ``game``'s main line judged by ``player`` (as
    :func:`analysis_player` spells it; ``None``: :func:`default_player`), with the
    generators of game ``number`` (:func:`move_rng`); ``tick`` is told of each move
    judged.  Raises :class:`AnalysisError`."""
    engine, _, steps, spec, judge = _prepared(game, player)
    seats = tuple(engine.seats)
    judged: list[Judged] = []
    dice = False
    for ply, step in enumerate(steps, 1):
        pos, move, after = step.before, step.move, step.after
        number_here = engine.move_number(pos)
        chance = engine.chance(pos)
        written = step.node.turn.dice
        roll = tuple(written.values) if chance is not None and written is not None else None
        rng = move_rng(seed, number, ply)
        decision = judge.decide(engine, pos, roll, move, after, rng)
        me = number_here.seat
        loss = max(0.0, decision.before[me] - decision.after[me])
        if decision.best is move or loss <= 0.0:
            loss, best_text = 0.0, None
        else:
            best_text = engine.spell(pos, decision.best).text()
        mark = mark_of(loss)
        line: tuple[tuple[MoveNumber, Turn], ...] = ()
        if mark is not None and best_text is not None:
            line = _spelt(engine, pos, decision.line())
        luck = None
        if roll is not None and chance is not None:
            dice = True
            luck = _luck(judge, engine, pos, chance, roll, seed, number, ply)
        judged.append(
            Judged(ply, number_here, me, step.node.turn.text(), decision.before,
                   decision.after, loss, mark, best_text, line, roll, luck)
        )
        if tick is not None:
            tick()
    return Analysis(spec, seed, seats, tuple(judged), _summaries(seats, judged, dice), dice)


def _luck(
    judge: Any, engine: Any, pos: Any, chance: Chance, roll: tuple[int, ...], seed: int,
    number: int, ply: int,
) -> float:
    """The luck of the roll of one move, each roll valued with a generator of its own."""

    def value(r: tuple[int, ...]) -> float:
        found: float = judge.roll_value(engine, pos, r, move_rng(seed, number, ply, f"/roll/{r}"))
        return found

    return roll_luck(value, chance, roll, move_rng(seed, number, ply, "/rolls"))


def _spelt(engine: Any, pos: Any, moves: Sequence[Any]) -> tuple[tuple[MoveNumber, Turn], ...]:
    out = []
    for move in moves:
        out.append((engine.move_number(pos), engine.spell(pos, move)))
        pos = engine.apply(pos, move)[0]
    return tuple(out)


def _summaries(
    seats: tuple[str, ...], judged: Sequence[Judged], dice: bool
) -> tuple[SeatSummary, ...]:
    out = []
    for i, seat in enumerate(seats):
        mine = [j for j in judged if j.seat == i]
        losses = [j.loss for j in mine]
        marks = {mark: sum(j.mark == mark for j in mine) for mark, _ in reversed(MARKS)}
        luck = sum(j.luck or 0.0 for j in mine) if dice else None
        out.append(
            SeatSummary(
                seat,
                len(mine),
                sum(losses) / len(losses) if losses else 0.0,
                sum(accuracy(x) for x in losses) / len(losses) if losses else 100.0,
                marks,
                luck,
            )
        )
    return tuple(out)
