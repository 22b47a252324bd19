"""What a written move says, as plain data shared by the notation and the rules.

The grammar turns move text into these values; a rules module turns them into moves
of its game.  Neither side needs to know the other: the notation never asks what a
move means, and a rules module never sees text it has to tokenize.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ActionKind = Literal["path", "drop", "pass", "herd"]


@dataclass(frozen=True, slots=True)
class Action:
    """One written action: a path of squares, a drop, a pass or a herd move.

    ``path``: ``squares[0]`` is where the piece starts; ``seps[i]`` (``"-"``, ``"x"``
    or ``">"``) joins ``squares[i]`` to ``squares[i + 1]``; ``vias[i]`` is the point
    written in parentheses before ``squares[i + 1]`` (a jumped point), else ``None``.
    ``drop``: ``piece`` (a letter) is placed on ``squares[0]``.  ``pass`` (``--``) and
    ``herd`` (``H``) carry no squares.
    """

    kind: ActionKind
    squares: tuple[str, ...] = ()
    seps: tuple[str, ...] = ()
    vias: tuple[str | None, ...] = ()
    piece: str | None = None

    def text(self) -> str:
        """The action written in the notation (the exact inverse of parsing it)."""
        if self.kind == "pass":
            return "--"
        if self.kind == "herd":
            return "H"
        if self.kind == "drop":
            return f"{self.piece}@{self.squares[0]}"
        out = [self.squares[0]]
        for sep, via, square in zip(self.seps, self.vias, self.squares[1:], strict=True):
            out.append(sep)
            if via is not None:
                out.append(f"({via})")
            out.append(square)
        return "".join(out)

    def __str__(self) -> str:
        return self.text()


def step(*squares: str, sep: str = "-") -> Action:
    """A path joined by one separator throughout, e.g. ``step("b6", "b5")``."""
    n = len(squares) - 1
    return Action("path", tuple(squares), (sep,) * n, (None,) * n)


def chain(*squares: str) -> Action:
    """A capture chain listing each landing point, e.g. ``chain("b4", "b6", "a5")``."""
    return step(*squares, sep="x")


PASS = Action("pass")
HERD = Action("herd")


@dataclass(frozen=True, slots=True)
class Dice:
    """Dice rolled for one turn, as written before its actions (``3:``, ``2413e:``).

    ``values`` are the dice in the order written (one digit each); ``option`` is a
    letter naming a choice the roll leaves to the player (for example ``e`` one die a
    piece, ``s`` the sum shared out), else ``None``.
    """

    values: tuple[int, ...]
    option: str | None = None

    def text(self) -> str:
        return "".join(str(v) for v in self.values) + (self.option or "") + ":"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class Turn:
    """Everything one move node of a record says: optional dice and its actions."""

    actions: tuple[Action, ...]
    dice: Dice | None = None

    def text(self) -> str:
        body = ", ".join(a.text() for a in self.actions)
        return f"{self.dice.text()} {body}" if self.dice is not None else body

    def __str__(self) -> str:
        return self.text()
