"""The engine protocol's defaults: a base class a game's engine inherits.

:class:`zrec.rules.base.Engine` is everything the outputs ask of a game.  Most of it
follows from a few things only the game can say: the start, the moves and what they do,
how they are written, the view, whose turn it is and how the game ends.
:class:`BaseEngine` declares those few as abstract methods (a class that leaves one out
cannot be made, and the error names it) and gives the rest from them:

- ``chance``: no dice; ``setup``: no ``Setup`` tag (a :class:`SetupError`);
- ``resolve``: the legal move whose spelling (:meth:`spell`) is the written turn, else
  an :class:`IllegalMoveError` listing the legal moves;
- ``sample_move``: a legal move drawn uniformly (:func:`zrec.rules.values.choose`);
- ``material``: the pieces the view draws for each seat; ``standing``: those counts in
  words ("White 9 pieces, Black 11"); ``render``: the view's pieces, seat by seat;
- the recording board's methods: ``click_table`` (each legal move with the squares of
  its routes as its clicks, :mod:`zrec.rules.clicking`), and ``clicks`` and
  ``choices`` from the table;
- ``judge_end``: the result must be the outcome's where the position has one.

A real game overrides whatever it can say better or faster (a reason for each illegal
move, a key or a count that does not go through the view, a turn with too many forms to
list); what it does not override behaves as stated here.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Generic, TypeVar

from zrec.moves import Turn
from zrec.rules.clicking import Choices, ClickTable, Entry
from zrec.rules.values import (
    Chance,
    Event,
    Finding,
    IllegalMoveError,
    MoveNumber,
    Outcome,
    Resolved,
    SetupError,
    View,
    choose,
)

__all__ = ["BaseEngine"]

P = TypeVar("P")  # a position of one game
M = TypeVar("M")  # a move of one game


class BaseEngine(ABC, Generic[P, M]):
    """An engine of the protocol :class:`zrec.rules.base.Engine` with every member a
    game need not state itself given (see the module's docstring)."""

    #: The game's name for people, as its sources spell it.
    title: str
    #: The seats of this record, in order.
    seats: tuple[str, ...]
    #: Every rule option with the value this engine plays (none by default).
    options: Mapping[str, str] = MappingProxyType({})
    #: Each seat's team, where the seats play in teams (none by default: each seat alone).
    teams: tuple[int, ...] = ()

    # -- what every game states ------------------------------------------------------

    @abstractmethod
    def start(self) -> P:
        """The standard start position."""

    @abstractmethod
    def setup_text(self, pos: P) -> str:
        """The ``Setup`` string of a position."""

    @abstractmethod
    def key(self, pos: P) -> bytes:
        """A canonical, compact key of the position, whatever the move number."""

    @abstractmethod
    def view(self, pos: P) -> View:
        """The board and the pieces, for drawing."""

    @abstractmethod
    def to_move(self, pos: P) -> int | None:
        """The seat to move, or ``None`` when the game is over."""

    @abstractmethod
    def move_number(self, pos: P) -> MoveNumber:
        """The number of the move about to be played."""

    @abstractmethod
    def legal_moves(self, pos: P, roll: Sequence[int] | None = None) -> Sequence[M]:
        """Every legal move (for a turn with dice: given the ``roll``)."""

    @abstractmethod
    def apply(self, pos: P, move: M) -> tuple[P, tuple[Event, ...]]:
        """The position after a legal move, and the events it caused."""

    @abstractmethod
    def spell(self, pos: P, move: M) -> Turn:
        """The shortest unambiguous full written form of a legal move."""

    @abstractmethod
    def routes(self, pos: P, move: M) -> tuple[tuple[str, ...], ...]:
        """The squares each moving piece visits, start first."""

    @abstractmethod
    def outcome(self, pos: P) -> Outcome | None:
        """How the game ended by rule in this position, else ``None``."""

    # -- positions -------------------------------------------------------------------

    def setup(self, text: str) -> P:
        """No ``Setup`` tag: every game starts from the start."""
        raise SetupError(f"{self.title} has no Setup tag: a game starts from the start")

    def material(self, pos: P) -> tuple[int, ...]:
        """The pieces the view draws for each seat (a stack counts its pieces)."""
        counts = [0] * len(self.seats)
        for piece in self.view(pos).pieces:
            if piece.owner is not None:
                counts[piece.owner] += piece.count
        return tuple(counts)

    def standing(self, pos: P) -> str:
        """The material in words: ``White 9 pieces, Black 11`` (``1 piece``)."""
        counts = self.material(pos)
        first = f"{counts[0]} piece" + ("s" if counts[0] != 1 else "")
        rest = [f"{seat} {n}" for seat, n in zip(self.seats[1:], counts[1:], strict=True)]
        return ", ".join([f"{self.seats[0]} {first}", *rest])

    def render(self, pos: P) -> str:
        """The view's squares, seat by seat (``White: a3``), then the seat to move."""
        pieces = self.view(pos).pieces
        lines = []
        for seat, name in enumerate(self.seats):
            mine = [p.square + (f"×{p.count}" if p.count > 1 else "")
                    for p in pieces if p.owner == seat]
            lines.append(f"{name}: {' '.join(mine) or '-'}")
        mover = self.to_move(pos)
        if mover is not None:
            lines.append(f"{self.seats[mover]} to move")
        return "\n".join(lines)

    # -- turns -----------------------------------------------------------------------

    def chance(self, pos: P) -> Chance | None:
        """No dice."""
        return None

    def sample_move(self, pos: P, roll: Sequence[int] | None, rng: random.Random) -> M | None:
        """A legal move drawn uniformly, or ``None`` when there is none."""
        return choose(self.legal_moves(pos, roll), rng)

    def resolve(self, pos: P, turn: Turn) -> Resolved[M]:
        """The legal move written as ``turn`` is (its spelling, dice included); else an
        :class:`IllegalMoveError` that lists the legal moves."""
        roll = None if turn.dice is None else turn.dice.values
        moves = self.legal_moves(pos, roll)
        for move in moves:
            if self.spell(pos, move) == turn:
                return Resolved(move)
        legal = sorted(self.spell(pos, m).text() for m in moves)
        raise IllegalMoveError(f"{turn.text()} is not a legal move here", legal)

    # -- the board -------------------------------------------------------------------

    def click_table(self, pos: P, roll: Sequence[int] | None = None) -> ClickTable[M] | None:
        """Each legal move with the squares of its routes as its clicks (a move with
        no route is a button)."""
        return ClickTable([
            Entry(m, self.spell(pos, m).text(), sum(self.routes(pos, m), ()))
            for m in self.legal_moves(pos, roll)
        ])

    def clicks(self, pos: P, roll: Sequence[int] | None, move: M) -> tuple[str, ...]:
        """The clicks of a legal move, from :meth:`click_table`."""
        return self._table(pos, roll).clicks_of(move)

    def choices(self, pos: P, roll: Sequence[int] | None, clicks: Sequence[str]) -> Choices[M]:
        """What may follow ``clicks``, from :meth:`click_table`."""
        return self._table(pos, roll).choices(clicks)

    def _table(self, pos: P, roll: Sequence[int] | None) -> ClickTable[M]:
        table = self.click_table(pos, roll)
        if table is None:  # the game's click_table says a turn cannot be listed
            raise NotImplementedError(
                f"{type(self).__name__} lists no table for this turn: it must give "
                "clicks() and choices() itself"
            )
        return table

    # -- the end ---------------------------------------------------------------------

    def judge_end(self, pos: P, result: str, tags: Mapping[str, str]) -> list[Finding]:
        """A result other than the outcome's, where the game ended by rule, is wrong."""
        end = self.outcome(pos)
        if end is None or result == end.result:
            return []
        message = f"the result is {result} but {end.reason} ({end.result})"
        return [Finding("wrong-result", "error", message)]
