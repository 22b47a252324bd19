"""The Awéthi shepherds' turn (docs/rules.md, Awéthi: the shepherds' turn, catching): the
board it sees, applying it and spelling it (building one, the engine's or self-play's,
is in :mod:`zrec.rules.awethi.building`).

A turn first completes (or lapses) the catches the seat made at its previous
shepherds' turn, then applies one path per shepherd in the order written, each seeing
the shepherds moved before it, then catches every animal with three shepherds next to
it.  :class:`ShepherdsBoard` is that board path after path, with the search for the
legal paths of a shepherd's amount; reading a written turn is in
:mod:`zrec.rules.awethi.paths`, and the position after a turn read is made from the
board it was read on (:func:`board_after`), the same as :func:`apply_shepherds` makes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from zrec.moves import Action, Dice, Turn
from zrec.rules.awethi.board import (
    NAME,
    ORTH_NEIGHBOURS,
    ORTHOGONAL,
    STEP,
)
from zrec.rules.awethi.position import (
    NOT_CAUGHT,
    WOLF_TURN,
    Animal,
    AwethiPosition,
    ShepherdsMove,
    Table,
    add_count,
)
from zrec.rules.base import Event

__all__ = [
    "ShepherdsBoard",
    "apply_shepherds",
    "path_text",
    "spell_shepherds",
]

#: Step directions in search order, with their cost: orthogonal 1, diagonal 2.
_DIRS = tuple((STEP[d], 1 if d in ORTHOGONAL else 2) for d in (0, 2, 4, 6, 1, 3, 5, 7))


def path_text(path: tuple[int, ...], back: bool = False) -> str:
    if back:
        return f"{NAME[path[0]]}>{NAME[path[1]]}"
    return "-".join(NAME[s] for s in path)


def begin_turn(
    t: Table, pos: AwethiPosition
) -> tuple[list[Animal], list[Animal], Sequence[Animal]]:
    """The catches of the seat to move that complete and those that lapse as its
    shepherds' turn begins, and the animals on the board after them."""
    done, lapsed = t.completion(pos)
    if not done and not lapsed:
        return done, lapsed, pos.animals
    gone = {a[0] for a in done}
    freed = {a[0] for a in lapsed}
    animals = [
        (a[0], a[1], a[2], NOT_CAUGHT) if a[0] in freed else a
        for a in pos.animals
        if a[0] not in gone
    ]
    return done, lapsed, animals


class ShepherdsBoard:
    """The board as one shepherds' turn sees it, path after path."""

    def __init__(self, t: Table, pos: AwethiPosition) -> None:
        self.t = t
        self.pos = pos
        seat = pos.seat
        self.done, self.lapsed, self.animals = begin_turn(t, pos)
        self.occupied = t.occupied(pos)
        if self.done:
            self.occupied -= {a[0] for a in self.done}
        self.own = list(pos.shepherds[seat])
        #: how many unmoved shepherds of the seat stand on each square
        self.unmoved: dict[int, int] = {}
        for square in self.own:
            self.unmoved[square] = self.unmoved.get(square, 0) + 1
        self.shelter = t.shelters[seat]
        self.forbidden = t.forbidden[seat]
        self.woke = -1

    def holder(self, square: int) -> str:
        """What stands on an occupied square now, in words."""
        seat = self.pos.seat
        shepherds = (*self.pos.shepherds[:seat], self.own, *self.pos.shepherds[seat + 1 :])
        return self.t.piece_words(self.animals, shepherds, square)

    def enterable(self, square: int) -> bool:
        return square not in self.forbidden and square not in self.occupied

    def move(self, start: int, entered: tuple[int, ...], end: int) -> None:
        """A shepherd of the seat leaves ``start``, enters ``entered`` squares (none for a
        stay or a jump back) and stands on ``end``."""
        self.unmoved[start] -= 1
        self.occupied.discard(start)
        if end != self.shelter:
            self.occupied.add(end)
        self.own.remove(start)
        self.own.append(end)
        if self.woke < 0 and not self.pos.awake:
            forest = self.t.forest
            for square in entered:
                if forest[square]:
                    self.woke = square
                    break

    def walks(self, start: int, amount: int, leave_water: bool) -> Iterator[tuple[int, ...]]:
        """Every legal path of exactly ``amount`` from ``start`` (ending outside water
        when ``leave_water``), in a fixed search order."""
        water = self.t.water
        path = [start]
        seen = {start}

        def extend(here: int, left: int) -> Iterator[tuple[int, ...]]:
            for step, cost in _DIRS:
                if cost > left:
                    continue
                nxt = step[here]
                if nxt < 0 or nxt in seen or not self.enterable(nxt):
                    continue
                path.append(nxt)
                if cost == left:
                    if not (leave_water and water[nxt]):
                        yield tuple(path)
                else:
                    seen.add(nxt)
                    yield from extend(nxt, left - cost)
                    seen.discard(nxt)
                path.pop()

        yield from extend(start, amount)

    def all_walks(self, start: int, amount: int, leave_water: bool) -> list[tuple[int, ...]]:
        """:meth:`walks` as a list, in the same order (self-play lists every path of
        every shepherd; one plain recursion is about twice as fast as the generators)."""
        water, forbidden, occupied = self.t.water, self.forbidden, self.occupied
        path = [start]
        seen = {start}
        found: list[tuple[int, ...]] = []

        def extend(here: int, left: int) -> None:
            for step, cost in _DIRS:
                if cost > left:
                    continue
                nxt = step[here]
                if nxt < 0 or nxt in seen or nxt in forbidden or nxt in occupied:
                    continue
                if cost == left:
                    if not (leave_water and water[nxt]):
                        found.append((*path, nxt))
                else:
                    path.append(nxt)
                    seen.add(nxt)
                    extend(nxt, left - cost)
                    seen.discard(nxt)
                    path.pop()

        extend(start, amount)
        return found

    def fallback(self, start: int) -> tuple[tuple[int, ...], bool]:
        """What a shepherd with no legal path does by default: stays, or (in water) goes
        back to its shelter."""
        if self.t.water[start]:
            return (start, self.shelter), True
        return (start,), False

    def catches(self) -> list[Animal]:
        """The animals caught at the end of the turn (not caught yet, three shepherds
        next to them)."""
        squares = self.t.shepherd_squares(
            s for k, s in enumerate(self.pos.shepherds) if k != self.pos.seat
        )
        squares.update(self.own)
        surrounded = self.t.surrounded
        return [a for a in self.animals if a[3] == NOT_CAUGHT and surrounded(a[0], squares)]


# -- applying --------------------------------------------------------------------------


def apply_shepherds(
    t: Table, pos: AwethiPosition, move: ShepherdsMove
) -> tuple[AwethiPosition, tuple[Event, ...]]:
    done, lapsed, on_board = begin_turn(t, pos)
    # the paths in the order written: each shepherd leaves its start for its end
    own = list(pos.shepherds[pos.seat])
    forest = t.forest
    woke = -1 if not pos.awake else -2  # -2: awake already, no forest to look for
    for i, path in enumerate(move.paths):
        own.remove(path[0])
        if move.back >> i & 1:
            own.append(path[1])
            continue
        own.append(path[-1])
        if woke == -1:
            for square in path[1:]:
                if forest[square]:
                    woke = square
                    break
    return end_turn(t, pos, done, lapsed, on_board, own, woke)


def board_after(board: ShepherdsBoard) -> tuple[AwethiPosition, tuple[Event, ...]]:
    """The position and events after the turn a board has been moved through (what
    :func:`apply_shepherds` gives for the same paths, without walking them again)."""
    return end_turn(
        board.t, board.pos, board.done, board.lapsed, board.animals, board.own, board.woke
    )


def end_turn(
    t: Table,
    pos: AwethiPosition,
    done: list[Animal],
    lapsed: list[Animal],
    on_board: Sequence[Animal],
    own: list[int],
    woke: int,
) -> tuple[AwethiPosition, tuple[Event, ...]]:
    """The turn's end: ``done`` and ``lapsed`` catches settled, the seat's shepherds on
    ``own``, the wolves woken at ``woke`` (when it is a square), new catches made."""
    seat = pos.seat
    name = t.names[seat]
    events: list[Event] = []
    sheltered = pos.sheltered
    for a in done:
        home = t.shelter_of(a)
        sheltered = add_count(sheltered, home, a[2])
        events.append(
            Event(
                "catch-completed",
                f"{name}'s catch is complete: {t.animal_words(a)} goes to "
                f"{t.names[home]}'s shelter",
                (NAME[a[0]],),
            )
        )
    for a in lapsed:
        events.append(
            Event(
                "catch-lapsed",
                f"{name}'s catch lapses: {t.animal_words(a)} no longer has three shepherds "
                "next to it",
                (NAME[a[0]],),
            )
        )
    awake = pos.awake
    if woke >= 0:
        awake = True
        events.append(
            Event(
                "wolves-woken",
                f"the wolves wake: a shepherd of {name} enters the forest at {NAME[woke]}",
                (NAME[woke],),
            )
        )
    squares = t.shepherd_squares(s for k, s in enumerate(pos.shepherds) if k != seat)
    squares.update(own)
    flanking = squares.intersection  # three shepherds next to an animal catch it
    caught = {
        a[0] for a in on_board if a[3] == NOT_CAUGHT and len(flanking(ORTH_NEIGHBOURS[a[0]])) >= 3
    }
    animals = []
    for a in on_board:
        if a[0] in caught:
            a = (a[0], a[1], a[2], seat)
            events.append(Event("caught", f"{name} catches {t.animal_words(a)}", (NAME[a[0]],)))
        animals.append(a)
    shepherds = (*pos.shepherds[:seat], tuple(sorted(own)), *pos.shepherds[seat + 1 :])
    where = (seat, WOLF_TURN, pos.group) if awake else t.next_group(pos)
    after = AwethiPosition(
        where[0],
        where[1],
        where[2],
        awake,
        pos.revealed,
        shepherds,
        tuple(animals),
        pos.wolves,
        sheltered,
        pos.eaten,
    )
    return after, tuple(events)


# -- spelling ----------------------------------------------------------------------------


def spell_shepherds(move: ShepherdsMove) -> Turn:
    actions = []
    for i, path in enumerate(move.paths):
        names = tuple(NAME[s] for s in path)
        seps = (">",) if move.back >> i & 1 else ("-",) * (len(path) - 1)
        actions.append(Action("path", names, seps, (None,) * len(seps)))
    return Turn(tuple(actions), Dice(move.dice, move.option))
