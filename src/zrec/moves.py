"""What a written move says, as plain data shared by the notation and the rules.

The grammar turns move text into these values; a rules module turns them into moves
of its game.  Neither side needs to know the other: the notation never asks what a
move means, and a rules module never sees text it has to tokenize.  (The one
exception is a speed matter: :class:`WrittenTurns` holds a line's turns as the words
they were written with, each word exactly one value's own ``text()``, and makes a
:class:`Turn` only when one is asked for; a compiled rules kernel may read the words.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, overload

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


class WrittenTurns(Sequence[Turn]):
    """Turns held as the words they were written with, each :class:`Turn` made only
    when asked for (then kept).

    ``words`` are the words of all the turns in order; turn ``i`` is
    ``words[bounds[i]:bounds[i + 1]]`` (``bounds`` holds one more item than there are
    turns, the last ``len(words)``): its dice's :meth:`Dice.text` first when it has
    dice, then each action's :meth:`Action.text` (actions with no point jumped over).
    ``make(words, bounds, start, stop)`` makes the turns ``start`` to ``stop - 1`` (the
    reader's).  Making a turn with dice costs more than keeping its words, and a
    compiled rules kernel may read the words directly (the one with dice does): the
    reader holds a line with dice like this (tests/test_fastpath.py: the turns equal
    those the grammar makes).  Equal to the list of its turns."""

    __slots__ = ("_made", "_whole", "bounds", "make", "words")

    def __init__(
        self,
        words: list[str],
        bounds: list[int],
        make: Callable[[list[str], list[int], int, int], list[Turn]],
    ) -> None:
        self.words = words
        self.bounds = bounds
        self.make = make
        self._made: list[Turn | None] | None = None  # the turns made so far
        self._whole = False  # all of them

    def _turn(self, i: int) -> Turn:
        made = self._made
        if made is None:
            made = self._made = [None] * (len(self.bounds) - 1)
        turn = made[i]
        if turn is None:
            turn = made[i] = self.make(self.words, self.bounds, i, i + 1)[0]
        return turn

    def _all(self) -> list[Turn]:
        if not self._whole:
            self._made = self.make(self.words, self.bounds, 0, len(self.bounds) - 1)  # type: ignore[assignment]
            self._whole = True
        return self._made  # type: ignore[return-value]

    def __len__(self) -> int:
        return len(self.bounds) - 1

    def __iter__(self) -> Iterator[Turn]:
        return iter(self._all())

    @overload
    def __getitem__(self, index: int) -> Turn: ...

    @overload
    def __getitem__(self, index: slice) -> list[Turn]: ...

    def __getitem__(self, index: int | slice) -> Turn | list[Turn]:
        places = range(len(self.bounds) - 1)[index]  # IndexError as a list raises it
        if isinstance(places, int):
            return self._turn(places)
        if self._whole:
            return self._all()[index]
        if places.step == 1:
            return self.make(self.words, self.bounds, places.start, places.stop)
        return [self._turn(i) for i in places]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # (as a list's)

    def __repr__(self) -> str:
        return repr(self._all())

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return list, (self._all(),)
