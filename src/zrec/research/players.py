"""The search players of a study, by name with a budget: ``mcts:200``, ``alphabeta:3``.

:data:`SEARCHERS` lists them: each takes a budget (a whole number at least 1; its
default when only the name is given), ``mcts`` a second number after another colon
(``mcts:16:4``: 16 playouts of at most 4 moves; 0 moves scores the new position at
once), and is made for one engine by :func:`make_player`, which refuses a game the
player cannot play.  :func:`player_spec` reads a name as ``--player`` gives it and
spells it with its budget (the second number only where it is not its default), so
that ``mcts``, ``mcts:200`` and ``mcts:200:20`` are one player.  ``random`` and
``greedy`` (no budget) stay in :mod:`zrec.research.study`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from zrec.errors import ZrecError
from zrec.research.alphabeta import DEFAULT_DEPTH, alphabeta_move, refusal
from zrec.research.mcts import DEFAULT_PLAYOUTS, PLAYOUT_MOVES, mcts_move

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
    #: the default and unit of a second number (``None``: the player takes one)
    second: tuple[int, str] | None = None

    def spelt(self, name: str) -> str:
        """How ``--player`` takes the player: ``mcts[:playouts[:moves]]``."""
        return f"{name}[:{self.unit}]" if self.second is None else f"{name}[:{self.unit}[:moves]]"


#: The search players by name, in the order ``--help`` lists them.
SEARCHERS: dict[str, Searcher] = {
    "mcts": Searcher(
        mcts_move, DEFAULT_PLAYOUTS, "playouts", second=(PLAYOUT_MOVES, "moves a playout")
    ),
    "alphabeta": Searcher(alphabeta_move, DEFAULT_DEPTH, "depth", refusal),
}


def player_spec(text: str, said: str = "--player") -> str | None:
    """``mcts:50`` for ``mcts:50`` or ``MCTS:50``, ``mcts:200`` for ``mcts`` (its
    default), ``mcts:16:4`` for ``mcts:16:4``, ``mcts:16`` for ``mcts:16:20`` (the
    default second number), ``None`` for a name that is no search player.  Raises
    :class:`PlayerError` for a budget that is not a whole number at least 1 (the
    second, at least 0; the message names the player as given after ``said``, the
    option or field)."""
    name, sep, rest = text.strip().lower().partition(":")
    name = name.strip()
    searcher = SEARCHERS.get(name)
    if searcher is None:
        return None
    if not sep:
        return f"{name}:{searcher.default}"
    budget, sep2, extra = rest.partition(":")
    first = _number(said, text, budget, searcher.unit, name, 1)
    if not sep2:
        return f"{name}:{first}"
    if searcher.second is None:
        raise PlayerError(
            f"{said} {text.strip()}: {name} takes one number, its {searcher.unit}"
        )
    default, unit = searcher.second
    second = _number(said, text, extra, unit, name, 0)
    return f"{name}:{first}" if second == default else f"{name}:{first}:{second}"


def _number(said: str, text: str, digits: str, unit: str, name: str, least: int) -> int:
    digits = digits.strip()
    if not (digits.isascii() and digits.isdigit()) or int(digits) < least:
        which = "budget" if least else "second number"
        raise PlayerError(
            f"{said} {text.strip()}: the {which} of {name} ({unit}) is a "
            f"whole number at least {least}, not {digits!r}"
        )
    return int(digits)


def make_player(engine: Any, start: Any, spec: str) -> MoveChooser:
    """The move function of a search player spelt as :func:`player_spec` spells it,
    for ``engine`` (whose games start from ``start``).  Raises :class:`PlayerError`."""
    name, *numbers = spec.split(":")
    searcher = SEARCHERS[name]
    if searcher.refuse is not None:
        why = searcher.refuse(engine, start)
        if why is not None:
            raise PlayerError(why)
    return functools.partial(_play, searcher.move, tuple(int(n) for n in numbers))


def _play(
    move: Callable[..., Any],
    budget: tuple[int, ...],
    engine: Any,
    pos: Any,
    roll: Sequence[int] | None,
    rng: random.Random,
) -> Any:
    return move(engine, pos, roll, rng, *budget)
