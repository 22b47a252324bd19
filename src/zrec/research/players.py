"""The search players of a study, by name with a budget: ``mcts:200``, ``alphabeta:3``.

:data:`SEARCHERS` lists them: each takes a budget (a whole number at least 1; its
default when only the name is given) and is made for one engine by :func:`make_player`,
which refuses a game the player cannot play.  :func:`player_spec` reads a name as
``--player`` gives it and spells it with its budget, so that ``mcts`` and ``mcts:200``
are one player.  ``random`` and ``greedy`` (no budget) stay in
:mod:`zrec.research.study`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from zrec.errors import ZrecError
from zrec.research.alphabeta import DEFAULT_DEPTH, alphabeta_move, refusal
from zrec.research.mcts import DEFAULT_PLAYOUTS, mcts_move

__all__ = ["SEARCHERS", "PlayerError", "Searcher", "make_player", "player_spec"]

MoveChooser = Callable[[Any, Any, "Sequence[int] | None", random.Random], Any]


class PlayerError(ZrecError, ValueError):
    """A player that cannot be made: a bad budget, or a game the player cannot play."""


@dataclass(frozen=True)
class Searcher:
    """A search player: its move function (the budget its last argument), the
    budget's default and unit, and why it refuses a game (``None``: it plays any)."""

    move: Callable[..., Any]
    default: int
    unit: str
    refuse: Callable[[Any, Any], str | None] | None = None


#: The search players by name, in the order ``--help`` lists them.
SEARCHERS: dict[str, Searcher] = {
    "mcts": Searcher(mcts_move, DEFAULT_PLAYOUTS, "playouts"),
    "alphabeta": Searcher(alphabeta_move, DEFAULT_DEPTH, "depth", refusal),
}


def player_spec(text: str, said: str = "--player") -> str | None:
    """``mcts:50`` for ``mcts:50`` or ``MCTS:50``, ``mcts:200`` for ``mcts`` (its
    default), ``None`` for a name that is no search player.  Raises
    :class:`PlayerError` for a budget that is not a whole number at least 1 (the
    message names the player as given after ``said``, the option or field)."""
    name, sep, budget = text.strip().lower().partition(":")
    searcher = SEARCHERS.get(name.strip())
    if searcher is None:
        return None
    if not sep:
        return f"{name.strip()}:{searcher.default}"
    budget = budget.strip()
    if not (budget.isascii() and budget.isdigit()) or int(budget) < 1:
        raise PlayerError(
            f"{said} {text.strip()}: the budget of {name.strip()} ({searcher.unit}) is a "
            f"whole number at least 1, not {budget!r}"
        )
    return f"{name.strip()}:{int(budget)}"


def make_player(engine: Any, start: Any, spec: str) -> MoveChooser:
    """The move function of a search player spelt as :func:`player_spec` spells it,
    for ``engine`` (whose games start from ``start``).  Raises :class:`PlayerError`."""
    name, _, budget = spec.partition(":")
    searcher = SEARCHERS[name]
    if searcher.refuse is not None:
        why = searcher.refuse(engine, start)
        if why is not None:
            raise PlayerError(why)
    return functools.partial(_play, searcher.move, int(budget))


def _play(
    move: Callable[..., Any],
    budget: int,
    engine: Any,
    pos: Any,
    roll: Sequence[int] | None,
    rng: random.Random,
) -> Any:
    return move(engine, pos, roll, rng, budget)
