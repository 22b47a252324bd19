"""A position of a record shown as text: ``zrec show``.

The record is replayed by the walker of :mod:`zrec.play` to the ply asked for; a record
that cannot be replayed (an unknown game, a bad option, an illegal move before that
ply) raises :class:`PositionError` with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zrec.errors import ZrecError
from zrec.notation.model import Game
from zrec.play import GameSetupError, Replay, ReplayError, Step, positions, prepare


class PositionError(ZrecError, ValueError):
    """A record whose positions cannot be computed, and why."""


@dataclass(frozen=True)
class Shown:
    """A position to show a person: board, whose turn, what it rolls, legal moves."""

    replay: Replay
    position: Any
    ply: int
    last: Step | None

    def text(self) -> str:
        engine = self.replay.engine
        lines = [f"{self.replay.title}, after ply {self.ply}"]
        if self.last is not None:
            lines[0] += f" ({self.last.node.turn.text()})"
        lines.append("")
        lines.append(engine.render(self.position))
        lines.append("")
        outcome = engine.outcome(self.position)
        if outcome is not None:
            lines.append(f"The game is over: {outcome.reason} ({outcome.result}).")
            return "\n".join(lines)
        number = engine.move_number(self.position)
        lines.append(f"Move {number.number}, {engine.seats[number.seat]} to move.")
        chance = engine.chance(self.position)
        if chance is not None:
            lines.append(f"The turn rolls {chance.text()}.")
            return "\n".join(lines)
        legal = sorted(
            engine.spell(self.position, m).text() for m in engine.legal_moves(self.position)
        )
        lines.append(f"Legal moves ({len(legal)}): {', '.join(legal)}")
        return "\n".join(lines)


def position_at(game: Game, ply: int | None = None) -> Shown:
    """The position after ``ply`` moves of the main line (default: all of them)."""
    try:
        replay = prepare(game)
    except GameSetupError as exc:
        raise PositionError(str(exc)) from None
    total = len(game.line.moves)
    if ply is not None and ply > total:
        raise PositionError(f"the main line has only {total} moves; --ply must be 0 to {total}")
    target = total if ply is None else ply
    try:
        steps = positions(replay, game.line, target)
    except ReplayError as exc:
        raise PositionError(str(exc)) from None
    last = steps[-1] if steps else None
    return Shown(replay, last.after if last else replay.start, target, last)
