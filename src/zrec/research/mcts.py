"""The ``mcts`` player: Monte Carlo tree search (UCT) with random playouts.

Each move the player grows a search tree from the position by ``playouts`` playouts
(its budget, :data:`DEFAULT_PLAYOUTS` unless given).  One playout walks down the tree,
at each decision choosing the move with the best UCT value for the seat to move (its
mean score plus ``C·sqrt(ln n / n_i)``, ``C`` = :data:`EXPLORATION`; a move never tried
first, in an order drawn from the generator), adds one new position, plays on from there
with the engine's random move (:meth:`~zrec.rules.base.Engine.sample_move`) (below)
and credits every seat with its score in every position on the way down.  Each seat
maximises its own score, so any number of seats is played.

Dice are chance nodes: below a move, the roll of the next turn is drawn from the
generator on every visit, and each roll drawn has its own subtree (sampled, not
enumerated).  Where a turn rolls dice and the engine's list of legal moves is not every
form of the turn (a shepherds' turn is built step by step), the candidates are the
listed moves and up to :data:`WIDEN` random moves more (distinct positions only).

A playout is a random game of at most ``moves`` moves (the budget's second number,
:data:`PLAYOUT_MOVES` unless given); one still going then scores each seat by the
material evaluation (:func:`evaluation`: its share of the pieces on the board), the
evaluation the evaluation-based metrics use.  Cutting playouts short
is what makes the player affordable: a whole random game from a locked position can
run to hundreds of moves.  The move played is the one tried most often (ties: the
better mean score for the mover, then the first in the tree's order).  Everything
draws only on the generator given, the study's generator of the game, so the same
seed gives the same moves; no clock is read.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from zrec.rules.loops import play_randomly

__all__ = [
    "DEFAULT_PLAYOUTS",
    "EXPLORATION",
    "PLAYOUT_MOVES",
    "WIDEN",
    "evaluation",
    "grow",
    "mcts_move",
    "playout",
]

#: playouts per move when the budget is not given (``--player mcts``)
DEFAULT_PLAYOUTS = 200
#: the UCT exploration constant (scores are shares in [0, 1])
EXPLORATION = math.sqrt(2)
#: a playout is cut off (and scored by material) after this many moves, unless given
PLAYOUT_MOVES = 20
#: random moves added to the listed ones where a turn rolls dice
WIDEN = 4


class _Node:
    """A position in the tree: the seat to move, visits, the total score per seat, and
    one :class:`_Branch` per roll met (``None``: a turn without dice)."""

    __slots__ = ("branches", "over", "pos", "seat", "totals", "visits")

    def __init__(self, engine: Any, pos: Any, seats: int) -> None:
        self.pos = pos
        outcome = engine.outcome(pos)
        self.over: tuple[float, ...] | None = (
            tuple(float(s) for s in outcome.scores) if outcome is not None else None
        )
        self.seat: int = engine.move_number(pos).seat
        self.visits = 0
        self.totals = [0.0] * seats
        self.branches: dict[tuple[int, ...] | None, _Branch] = {}


class _Branch:
    """The moves of one position under one roll: the candidates, their children (made
    when first tried), the untried ones in the order they will be tried."""

    __slots__ = ("children", "moves", "untried", "visits")

    def __init__(self, moves: list[Any], rng: random.Random) -> None:
        self.moves = moves
        self.children: list[_Node | None] = [None] * len(moves)
        self.untried = list(range(len(moves)))
        rng.shuffle(self.untried)
        self.untried.reverse()  # popped from the end: the shuffled order
        self.visits = 0


def _candidates(
    engine: Any, pos: Any, roll: Sequence[int] | None, rng: random.Random
) -> list[Any]:
    moves = list(engine.legal_moves(pos, roll))
    if roll is None:
        return moves
    # The positions of the listed moves are only made once a drawn move is not one of
    # them: a turn listed in full (of hundreds of paths, say) then makes none.
    seen: set[bytes] | None = None
    for _ in range(WIDEN):
        move = engine.sample_move(pos, roll, rng)
        if move is None:
            break
        if move in moves:
            continue
        if seen is None:
            seen = {engine.key(engine.apply(pos, m)[0]) for m in moves}
        key = engine.key(engine.apply(pos, move)[0])
        if key not in seen:
            seen.add(key)
            moves.append(move)
    return moves


def _roll(engine: Any, pos: Any, rng: random.Random) -> tuple[int, ...] | None:
    chance = engine.chance(pos)
    return chance.roll(rng) if chance is not None else None


def evaluation(material: Sequence[int]) -> tuple[float, ...]:
    """Each seat's share of the pieces on the board (an equal share each when the board
    is empty): the score of a playout cut off before the game ended."""
    total = sum(material)
    if not total:
        return (1.0 / len(material),) * len(material)
    return tuple(m / total for m in material)


def playout(
    engine: Any, pos: Any, seats: int, rng: random.Random, moves: int = PLAYOUT_MOVES
) -> tuple[float, ...]:
    """The score per seat of one random game of at most ``moves`` moves from ``pos``:
    the game's own scores when it ends, else the material :func:`evaluation` (an equal
    share where a seat has no move).  The game is played in one call
    (:func:`zrec.rules.loops.play_randomly`), native where the engine has a kernel."""
    played = play_randomly(engine, pos, rng, max_moves=moves)
    if played.stalled:
        return (1.0 / seats,) * seats
    outcome = engine.outcome(played.pos)
    if outcome is not None:
        return tuple(float(s) for s in outcome.scores)
    return evaluation(engine.material(played.pos))


def _select(node: _Node, branch: _Branch) -> int:
    """The child of the branch with the best UCT value for the seat to move."""
    log_n = math.log(branch.visits)
    best, best_value = 0, -math.inf
    for i, child in enumerate(branch.children):
        assert child is not None
        value = child.totals[node.seat] / child.visits + EXPLORATION * math.sqrt(
            log_n / child.visits
        )
        if value > best_value:
            best, best_value = i, value
    return best


def _iterate(
    engine: Any, root: _Node, roll: Sequence[int] | None, rng: random.Random, moves: int
) -> None:
    """One playout: down the tree, one new position, a random game, the scores back."""
    seats = len(root.totals)
    path = [root]
    passed: list[_Branch] = []
    node, key = root, None if roll is None else tuple(roll)
    scores: tuple[float, ...] | None = None
    while node.over is None:
        branch = node.branches.get(key)
        if branch is None:
            branch = node.branches[key] = _Branch(_candidates(engine, node.pos, key, rng), rng)
        if not branch.moves:
            scores = (1.0 / seats,) * seats
            break
        passed.append(branch)
        if branch.untried:
            i = branch.untried.pop()
            child = _Node(engine, engine.apply(node.pos, branch.moves[i])[0], seats)
            branch.children[i] = child
            path.append(child)
            scores = (
                child.over
                if child.over is not None
                else playout(engine, child.pos, seats, rng, moves)
            )
            break
        picked = branch.children[_select(node, branch)]
        assert picked is not None
        node = picked
        path.append(node)
        key = _roll(engine, node.pos, rng)
    if scores is None:
        scores = node.over if node.over is not None else (1.0 / seats,) * seats
    for branch in passed:
        branch.visits += 1
    for visited in path:
        visited.visits += 1
        for s in range(seats):
            visited.totals[s] += scores[s]


def grow(
    engine: Any,
    pos: Any,
    roll: Sequence[int] | None,
    rng: random.Random,
    playouts: int = DEFAULT_PLAYOUTS,
    moves: int = PLAYOUT_MOVES,
) -> _Node:
    """The search tree :func:`mcts_move` grows, for a caller that reads the values in it
    (the analysis of a record, :mod:`zrec.research.analysis`): ``playouts`` playouts from
    ``pos`` under ``roll``, or, where the turn rolls dice and ``roll`` is ``None``, each
    playout under a roll of its own drawn from the generator (the position's value before
    its dice).  A node's ``totals[s] / visits`` is seat ``s``'s mean score below it; its
    ``branches`` hold, per roll met, the candidate ``moves`` and their ``children``
    (``None``: not tried)."""
    seats = len(engine.seats)
    root = _Node(engine, pos, seats)
    if root.over is not None:
        return root
    chance = roll is None and engine.chance(pos) is not None
    key = None if roll is None else tuple(roll)
    for _ in range(playouts):
        _iterate(engine, root, _roll(engine, pos, rng) if chance else key, rng, moves)
    return root


def mcts_move(
    engine: Any,
    pos: Any,
    roll: Sequence[int] | None,
    rng: random.Random,
    playouts: int = DEFAULT_PLAYOUTS,
    moves: int = PLAYOUT_MOVES,
) -> Any:
    """The move UCT chooses after ``playouts`` playouts of at most ``moves`` moves each
    (``None``: no legal move)."""
    seats = len(engine.seats)
    root = _Node(engine, pos, seats)
    key = None if roll is None else tuple(roll)
    branch = root.branches[key] = _Branch(_candidates(engine, pos, key, rng), rng)
    if len(branch.moves) <= 1:
        return branch.moves[0] if branch.moves else None
    for _ in range(playouts):
        _iterate(engine, root, roll, rng, moves)
    best, best_rank = 0, (-1, -math.inf)
    for i, child in enumerate(branch.children):
        if child is None:
            continue
        rank = (child.visits, child.totals[root.seat] / child.visits)
        if rank > best_rank:
            best, best_rank = i, rank
    return branch.moves[best]
