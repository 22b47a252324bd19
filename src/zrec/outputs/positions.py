"""Positions of a record: replaying its main line to any ply.

Used by ``zrec show`` and by the diagrams.  A record that cannot be replayed (an
unknown game, a bad option, an illegal move before the ply asked for) raises
:class:`PositionError` with the reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from zrec.notation.model import Game, MoveNode
from zrec.rules import UnknownGame, find_game
from zrec.rules.base import GameRules, IllegalMove, RulesError, Variant, check_options


class PositionError(ValueError):
    """A record whose positions cannot be computed, and why."""


@dataclass(frozen=True)
class Step:
    """One move of the main line: the positions around it and the move itself."""

    ply: int
    node: MoveNode
    before: Any
    move: Any
    after: Any


@dataclass(frozen=True)
class Replay:
    """A record's engine and start position."""

    rules: GameRules
    variant: Variant[Any, Any]
    start: Any


def prepare(game: Game) -> Replay:
    """The engine and start position of a record; raises :class:`PositionError`."""
    tags = game.tag_map()
    try:
        rules = find_game(game.game_type)
        variant = rules.variant(check_options(rules.options, tags))
        if variant is None:
            raise PositionError(f"zrec has no rules engine for {rules.title} yet")
        start = variant.setup(tags["Setup"]) if "Setup" in tags else variant.start()
    except (UnknownGame, RulesError) as exc:
        raise PositionError(str(exc)) from None
    return Replay(rules, variant, start)


def steps(game: Game, replay: Replay | None = None, upto: int | None = None) -> Iterator[Step]:
    """Every move of the main line (or of its first ``upto`` moves) with its positions;
    stops with :class:`PositionError` at an illegal move."""
    replay = replay or prepare(game)
    variant = replay.variant
    pos = replay.start
    for ply, node in enumerate(game.line.moves[:upto], 1):
        try:
            move = variant.resolve(pos, node.turn).move
        except IllegalMove as exc:
            number, side = variant.turn_label(pos)
            raise PositionError(
                f"ply {ply}, move {number} ({side}): {node.turn.text()} is illegal: {exc.reason}"
            ) from None
        after = variant.apply(pos, move)
        yield Step(ply, node, pos, move, after)
        pos = after


@dataclass(frozen=True)
class Shown:
    """A position to show a person: board, whose turn, legal moves."""

    replay: Replay
    position: Any
    ply: int
    last: Step | None

    def text(self) -> str:
        variant = self.replay.variant
        lines = [f"{self.replay.rules.title}, after ply {self.ply}"]
        if self.last is not None:
            lines[0] += f" ({self.last.node.turn.text()})"
        lines.append("")
        lines.append(variant.render(self.position))
        lines.append("")
        outcome = variant.outcome(self.position)
        if outcome is not None:
            lines.append(f"The game is over: {outcome.reason} ({outcome.result}).")
            return "\n".join(lines)
        number, side = variant.turn_label(self.position)
        legal = sorted(
            variant.spell(self.position, m).text() for m in variant.legal_moves(self.position)
        )
        lines.append(f"Move {number}, {side} to move.")
        lines.append(f"Legal moves ({len(legal)}): {', '.join(legal)}")
        return "\n".join(lines)


def position_at(game: Game, ply: int | None = None) -> Shown:
    """The position after ``ply`` moves of the main line (default: all of them)."""
    replay = prepare(game)
    total = len(game.line.moves)
    if ply is not None and ply > total:
        raise PositionError(f"the main line has only {total} moves; --ply must be 0 to {total}")
    target = total if ply is None else ply
    pos = replay.start
    last: Step | None = None
    for step in steps(game, replay, target):
        pos, last = step.after, step
    return Shown(replay, pos, target, last)
