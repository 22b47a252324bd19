"""The recording board's view of a record: the state at one of its moves.

:func:`board_at` answers, for a record, a node (its moves numbered in file order,
variations included, as :mod:`zrec.play.places` says; 0 is the start), the roll of
dice typed or rolled for the next turn and the clicks of a half-made move: whose turn
it is, the dice the turn needs, every legal move with the clicks that enter it (each
written as ``zrec fmt`` writes it: the engine's spelling), what may be clicked next and
the move the clicks make, and how the game ended where it did.  Everything comes from
the engine protocol (:meth:`~zrec.rules.base.Engine.click_table`,
:meth:`~zrec.rules.base.Engine.choices`); nothing here names a game.  A node, roll or
clicks the record or the turn cannot take is a :class:`BoardError` with a stable code
(``bad-node``, ``bad-roll``, ``bad-clicks``; ``no-engine`` for a game zrec has no
rules for).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from zrec.errors import ZrecError
from zrec.notation.model import Game
from zrec.play.ending import judge_ending, termination_of
from zrec.play.places import check_node, main_end
from zrec.play.replay import GameSetupError, Replay, prepare
from zrec.play.walk import path_to

__all__ = [
    "Board",
    "BoardError",
    "BoardRecord",
    "Offer",
    "Roll",
    "bad_node",
    "board_at",
    "parse_roll",
    "position_at_node",
]


class BoardError(ZrecError, ValueError):
    """A node, roll or clicks a record or its turn cannot take: ``code`` says which."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Roll:
    """The dice a turn needs (``dice`` as ``"4×d4"``, the faces of each die) and the
    roll given for it, if any."""

    dice: str
    faces: tuple[int, ...]
    given: tuple[int, ...] | None


@dataclass(frozen=True)
class Offer:
    """What may be clicked after the clicks so far, the move they make (written), the
    board's question in words, and where the moving piece stands once it has landed."""

    clicks: tuple[str, ...]
    options: tuple[tuple[str, str], ...]
    move: str | None
    prompt: str
    stands: str | None = None


@dataclass(frozen=True)
class Board:
    """The state of a record at one node (see :func:`board_at`)."""

    game: str
    title: str
    seats: tuple[str, ...]
    at: int
    number: str | None
    to_move: str | None
    roll: Roll | None
    legal: tuple[tuple[str, tuple[str, ...]], ...]
    listed: bool
    choices: Offer
    outcome: tuple[str, str, str] | None

    def to_json(self) -> dict[str, Any]:
        """The state as ``POST /api/position`` answers it (without the drawing)."""
        roll = self.roll
        return {
            "game": self.game,
            "title": self.title,
            "seats": list(self.seats),
            "at": self.at,
            "number": self.number,
            "to_move": self.to_move,
            "roll": None if roll is None else {
                "dice": roll.dice,
                "faces": list(roll.faces),
                "given": None if roll.given is None else list(roll.given),
            },
            "legal": [{"move": m, "clicks": list(c)} for m, c in self.legal],
            "listed": self.listed,
            "choices": {
                "clicks": list(self.choices.clicks),
                "options": [{"click": c, "label": w} for c, w in self.choices.options],
                "move": self.choices.move,
                "prompt": self.choices.prompt,
                "stands": self.choices.stands,
            },
            "outcome": None if self.outcome is None else dict(
                zip(("result", "termination", "reason"), self.outcome, strict=True)
            ),
        }


def replay_of(game: Game) -> Replay:
    """The record's engine and start; a game zrec has no rules for is a
    :class:`BoardError` (``no-engine``)."""
    try:
        return prepare(game)
    except GameSetupError as exc:
        raise BoardError("no-engine", exc.message) from None


def bad_node(at: int) -> Callable[[int], BoardError]:
    """The error (``bad-node``) of a node ``at`` that a record of ``total`` moves does
    not have, for :func:`zrec.play.places.check_node`."""
    return lambda total: BoardError(
        "bad-node",
        f"the record has {total} {'move' if total == 1 else 'moves'}, variations included: "
        f"the node must be 0 to {total}, not {at}",
    )


def position_at_node(replay: Replay, game: Game, at: int) -> Any:
    """The position after node ``at`` (0: the start); raises :class:`BoardError`
    (``bad-node``) for a node the record does not have."""
    check_node(game.line, at, bad_node(at))
    if not at:
        return replay.start
    return path_to(replay, game.line, at)[-1].after


class BoardRecord:
    """A record open on the board: the game, its :class:`~zrec.play.replay.Replay`
    (engine and start, as :func:`~zrec.play.replay.prepare` makes it), and the
    positions found so far at its nodes (kept while the same record is asked about
    again, as the board does for every click of a move)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.replay = replay_of(game)
        self._positions: dict[int, Any] = {}

    def position(self, at: int) -> Any:
        """The position after node ``at`` (:func:`position_at_node`)."""
        found = self._positions.get(at)
        if found is None:
            found = self._positions[at] = position_at_node(self.replay, self.game, at)
        return found


def parse_roll(text: str, faces: Sequence[int] | None, at: int) -> tuple[int, ...]:
    """The dice of ``text`` (one digit a die) for a turn rolling dice of ``faces``."""
    if faces is None:
        raise BoardError("bad-roll", f"the turn after node {at} rolls no dice: give no roll")
    need = len(faces)
    dice = "a die" if need == 1 else f"{need} dice"
    if not text.isascii() or not text.isdigit() or len(text) != need:
        digits = f"{need} digit" + "s" * (need > 1)
        raise BoardError(
            "bad-roll", f"the roll {text!r} is not {dice} written as {digits} (as 1234)"
        )
    values = tuple(int(c) for c in text)
    for i, (value, face) in enumerate(zip(values, faces, strict=True)):
        if not 1 <= value <= face:
            raise BoardError(
                "bad-roll",
                f"die {i + 1} of the roll {text} shows {value}: a d{face} shows 1 to {face}",
            )
    return values


def _ending(replay: Replay, game: Game, pos: Any, at_end: bool) -> tuple[str, str, str] | None:
    """How the game ended at this node: by rule (the engine), or at the end of the main
    line by the record's result and ``Termination``."""
    engine = replay.engine
    end = engine.outcome(pos)
    if end is not None:
        return (end.result, "normal", end.reason)
    if not at_end or game.result == "*":
        return None
    tags = game.tag_map()
    said = [f.message for f in judge_ending(engine, pos, game.result, tags)
            if f.code == "termination"]
    termination = termination_of(tags) or tags.get("Termination", "normal")
    return (game.result, termination, said[0] if said else "")


def board_at(
    record: Game | BoardRecord,
    at: int | None = None,
    roll: str | None = None,
    clicks: Sequence[str] = (),
) -> Board:
    """The state of a record after node ``at`` (``None``: the end of the main line),
    given the ``roll`` typed for the next turn (digits) and the ``clicks`` made so far.
    Raises :class:`BoardError`."""
    prepared = record if isinstance(record, BoardRecord) else BoardRecord(record)
    game, replay = prepared.game, prepared.replay
    engine = replay.engine
    end = main_end(game.line)
    node = end if at is None else at
    pos = prepared.position(node)
    outcome = _ending(replay, game, pos, node == end)
    seat = engine.to_move(pos) if outcome is None else None
    chance = engine.chance(pos) if seat is not None else None
    dice = None
    if roll is not None:
        dice = parse_roll(roll, None if chance is None else chance.faces, node)
    number = engine.move_number(pos)
    board = Board(
        game=replay.rules.name,
        title=engine.title,
        seats=tuple(engine.seats),
        at=node,
        number=number.text() if number.turn and seat is not None else None,
        to_move=None if seat is None else engine.seats[seat],
        roll=None if chance is None else Roll(chance.text(), chance.faces, dice),
        legal=(),
        listed=True,
        choices=Offer(tuple(clicks), (), None, ""),
        outcome=outcome,
    )
    if seat is None or (chance is not None and dice is None):
        if clicks:
            why = "the game is over" if seat is None else "the turn needs its roll first"
            raise BoardError("bad-clicks", f"no click can be made after node {node}: {why}")
        prompt = "the game is over" if chance is None else f"the roll of {chance.text()}"
        return replace(board, choices=Offer((), (), None, prompt))
    return _with_moves(board, replay, pos, dice, tuple(clicks))


def _with_moves(
    board: Board, replay: Replay, pos: Any, dice: tuple[int, ...] | None, clicks: tuple[str, ...]
) -> Board:
    engine = replay.engine
    table = engine.click_table(pos, dice)
    legal = () if table is None else tuple(table.clicks())
    chosen = engine.choices(pos, dice, clicks)
    if clicks and not chosen.options and chosen.move is None:
        raise BoardError(
            "bad-clicks",
            f"the clicks {','.join(clicks)} begin no legal move after node {board.at}",
        )
    move = None if chosen.move is None else engine.spell(pos, chosen.move).text()
    offer = Offer(
        clicks, tuple((c.click, c.label or c.click) for c in chosen.options), move, chosen.prompt,
        chosen.stands,
    )
    return replace(board, legal=legal, listed=table is not None, choices=offer)
