"""Entering an Awéthi shepherds' turn on the recording board, click by click.

A shepherds' turn has too many legal forms to list (four shepherds, each a path of its
own amount, in any order), so :class:`~zrec.rules.clicking.ClickTable` cannot hold it;
:func:`shepherds_choices` works out what may follow the clicks made so far instead,
walking them on a :class:`~zrec.rules.awethi.shepherds.ShepherdsBoard` as the reader
(:func:`~zrec.rules.awethi.paths.play_shepherds`) walks a written turn:

1. **The split**, a named choice: ``=e`` (one die each: the *i*-th path costs the
   *i*-th die, so the order of the paths is the order of the dice) or ``=s`` (the sum
   divided: every path costs the sum of the dice divided by four, rounded down).  Both
   are always offered: every shepherd always has something legal to do (a path, else
   a stay or the jump back), so each split has a legal turn.
2. **One path per shepherd**, in the order the player chooses.  The first click of a
   path is the square of a shepherd not yet moved (on a shelter holding several, each
   click of the shelter starts the next of them); then each square of its path, one
   step at a time.  Only squares from which the path can still be finished are
   offered: the step is one of the 8 around (straight costs 1, diagonal 2), the square
   is on the board, not yet on this path, not the Lair, another seat's shelter or a
   square holding a piece (its own shelter excepted), and from it some path costs
   exactly what is left, ending out of water when the shepherd started in water.  The
   path ends by itself when its cost reaches its amount.  A shepherd with no legal
   path (judged when it starts, on the board the earlier paths left) is offered
   ``=stay`` (written ``d1``; not in water) and ``=back`` (written ``c3>a1``; not in
   its own shelter), as the rules allow.  Whatever the earlier paths were, the
   shepherds left can always finish the turn, so no step needs looking further ahead
   than its own path.

The prompt says, in words, which path and die come next and the path's cost so far
against its amount (``path 2 of 4 (die 3): 1 of 3``).  After the fourth path the
clicks make the move (:class:`~zrec.rules.awethi.position.ShepherdsMove`), equal to
what the engine reads from its written form.  :func:`shepherds_clicks` gives the
clicks of a move (the inverse).  Each answer walks all the clicks again from the
position: nothing is kept between calls.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from zrec.rules.awethi.board import INDEX, NAME, ORTHOGONAL, STEP
from zrec.rules.awethi.position import (
    AwethiMove,
    AwethiPosition,
    ShepherdsMove,
    Table,
    amounts,
)
from zrec.rules.awethi.shepherds import ShepherdsBoard, spell_shepherds
from zrec.rules.clicking import Choice, Choices

__all__ = ["BACK", "SPLITS", "STAY", "shepherds_choices", "shepherds_clicks"]

#: the named choices of the split, with their option letters
SPLITS = {"=e": "e", "=s": "s"}
#: the named choices of a shepherd with no legal path
STAY, BACK = "=stay", "=back"
#: each step (the square next in a direction) with its cost
_STEPS = tuple((STEP[d], 1 if d in ORTHOGONAL else 2) for d in range(8))
_SHEPHERDS = 4


def shepherds_clicks(move: ShepherdsMove) -> tuple[str, ...]:
    """The clicks that enter a shepherds' turn: its split, then each path's squares (a
    stay or a jump back: the shepherd's square and ``=stay`` or ``=back``)."""
    clicks = [f"={move.option}"]
    for i, path in enumerate(move.paths):
        if move.back >> i & 1:
            clicks += [NAME[path[0]], BACK]
        elif len(path) == 1:
            clicks += [NAME[path[0]], STAY]
        else:
            clicks += [NAME[s] for s in path]
    return tuple(clicks)


def split_label(dice: tuple[int, ...], option: str) -> str:
    """``one die each: 1, 2, 3, 4`` or ``the sum divided: 2 each``."""
    if option == "e":
        return "one die each: " + ", ".join(str(d) for d in dice)
    return f"the sum divided: {amounts(dice, option)[0]} each"


class _Entry:
    """The clicks of a shepherds' turn walked on its board, up to where they stop."""

    def __init__(self, t: Table, pos: AwethiPosition, dice: tuple[int, ...], option: str):
        self.t = t
        self.dice = dice
        self.option = option
        self.amounts = amounts(dice, option)
        self.board = ShepherdsBoard(t, pos)
        self.paths: list[tuple[int, ...]] = []
        self.back = 0
        self.path: list[int] = []  # the path being entered (empty between paths)
        self.cost = 0
        self.stuck = False  # the shepherd starting the path has no legal path

    # -- what may come next --------------------------------------------------------

    def amount(self) -> int:
        return self.amounts[len(self.paths)]

    def starts(self) -> list[int]:
        """The squares of the shepherds not yet moved, in board order."""
        return sorted(s for s, n in self.board.unmoved.items() if n > 0)

    def steps(self) -> list[tuple[int, int]]:
        """Each square the path may step to next (in board order), with its cost."""
        path = self.path
        leave_water = self.t.water[path[0]]
        left = self.amount() - self.cost
        seen = set(path)
        found = []
        for nxt, cost in self._next(path[-1], left, seen):
            seen.add(nxt)
            if self._ends(nxt, left - cost, seen, leave_water):
                found.append((nxt, cost))
            seen.discard(nxt)
        return sorted(found)

    def _next(self, here: int, left: int, seen: set[int]) -> Iterator[tuple[int, int]]:
        """The squares one step from ``here`` a path may enter, costing at most ``left``."""
        enterable = self.board.enterable
        for step, cost in _STEPS:
            nxt = step[here]
            if cost <= left and nxt >= 0 and nxt not in seen and enterable(nxt):
                yield nxt, cost

    def _ends(self, here: int, left: int, seen: set[int], leave_water: bool) -> bool:
        """Whether a path standing on ``here`` can cost exactly ``left`` more on squares
        not ``seen`` (and end out of water when ``leave_water``)."""
        if left == 0:
            return not (leave_water and self.t.water[here])
        for nxt, cost in self._next(here, left, seen):
            seen.add(nxt)
            ok = self._ends(nxt, left - cost, seen, leave_water)
            seen.discard(nxt)
            if ok:
                return True
        return False

    def fallbacks(self) -> list[Choice]:
        """What a shepherd with no legal path may do: stay (not in water) or go back
        (not from its own shelter)."""
        start = self.path[0]
        shelter = self.board.shelter
        found = []
        if not self.t.water[start]:
            found.append(Choice(STAY, f"{NAME[start]}: stays"))
        if start != shelter:
            found.append(Choice(BACK, f"{NAME[start]}>{NAME[shelter]}: back to the shelter"))
        return found

    def options(self) -> tuple[Choice, ...]:
        if len(self.paths) == _SHEPHERDS:
            return ()
        if not self.path:
            return tuple(Choice(NAME[s], NAME[s]) for s in self.starts())
        if self.stuck:
            return tuple(self.fallbacks())
        return tuple(Choice(NAME[s], NAME[s]) for s, _ in self.steps())

    # -- taking a click ------------------------------------------------------------

    def take(self, click: str) -> str:
        """Take one click; answer why it cannot follow ("" when it can)."""
        if len(self.paths) == _SHEPHERDS:
            return "the turn is complete"
        square = INDEX.get(click, -1)
        if not self.path:
            if square < 0 or self.board.unmoved.get(square, 0) <= 0:
                if square in self.board.own:
                    return f"the shepherd on {click} has already moved this turn"
                return "a path starts on the square of a shepherd not yet moved"
            self.path = [square]
            self.cost = 0
            water = self.t.water[square]
            self.stuck = next(self.board.walks(square, self.amount(), water), None) is None
            return ""
        start = self.path[0]
        if self.stuck:
            if click not in [c.click for c in self.fallbacks()]:
                return f"the shepherd on {NAME[start]} has no path of {self.amount()}"
            if click == BACK:
                self.board.move(start, (), self.board.shelter)
                self.back |= 1 << len(self.paths)
                self._finish((start, self.board.shelter))
            else:
                self.board.move(start, (), start)
                self._finish((start,))
            return ""
        for nxt, cost in self.steps():
            if nxt == square:
                self.path.append(nxt)
                self.cost += cost
                if self.cost == self.amount():
                    path = tuple(self.path)
                    self.board.move(start, path[1:], path[-1])
                    self._finish(path)
                return ""
        if click in (STAY, BACK) and len(self.path) == 1:
            return f"the shepherd on {NAME[start]} has a path of {self.amount()}: it must take one"
        return f"no path of {self.amount()} goes on from {NAME[self.path[-1]]} to {click}"

    def _finish(self, path: tuple[int, ...]) -> None:
        self.paths.append(path)
        self.path = []
        self.cost = 0
        self.stuck = False

    # -- words -------------------------------------------------------------------------

    def move(self) -> ShepherdsMove | None:
        if len(self.paths) < _SHEPHERDS:
            return None
        return ShepherdsMove(self.dice, self.option, tuple(self.paths), self.back)

    def prompt(self) -> str:
        done = self.move()
        if done is not None:
            return f"the turn is complete: {spell_shepherds(done).text()}"
        amount = self.amount()
        which = f"die {amount}" if self.option == "e" else f"{amount} each"
        head = f"path {len(self.paths) + 1} of {_SHEPHERDS} ({which})"
        if not self.path:
            return f"{head}: click a shepherd to move"
        start = NAME[self.path[0]]
        if not self.stuck:
            return f"{head}: {self.cost} of {amount}"
        if self.t.water[self.path[0]]:
            return (
                f"{head}: the shepherd on {start} stands in water with no path of {amount} "
                f"out of it: it goes back to its shelter"
            )
        if self.path[0] == self.board.shelter:
            return f"{head}: the shepherd on {start} has no path of {amount}: it stays"
        return f"{head}: the shepherd on {start} has no path of {amount}: it stays or goes back"


def shepherds_choices(
    t: Table, pos: AwethiPosition, dice: tuple[int, ...], clicks: Sequence[str]
) -> Choices[AwethiMove]:
    """What may follow ``clicks`` in the shepherds' turn of ``pos`` with ``dice``, and the
    move they make once the fourth path is entered (see the module docstring)."""
    seat = t.names[pos.seat]
    roll = "".join(str(d) for d in dice)
    if not clicks:
        return Choices(
            tuple(Choice(c, split_label(dice, o)) for c, o in SPLITS.items()),
            None,
            f"{seat}'s shepherds' turn, {roll}: one die each (e) or the sum divided (s)?",
        )
    option = SPLITS.get(clicks[0])
    if option is None:
        return _refused(1, clicks[0], "the turn starts with the split, =e or =s")
    entry = _Entry(t, pos, dice, option)
    for k, click in enumerate(clicks[1:], start=2):
        why = entry.take(click)
        if why:
            return _refused(k, click, why)
    return Choices(entry.options(), entry.move(), entry.prompt())


def _refused(k: int, click: str, why: str) -> Choices[AwethiMove]:
    return Choices((), None, f"click {k}, {click}: {why}")
