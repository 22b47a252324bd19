"""Awéthi positions and moves, one engine's fixed data, the start and the herd's turn.

A position is small immutable data: whose group it is and which of its turns is due
(the herd's, the shepherds', the wolf's), the group number, whether the wolves are
awake, which herds are face up, each seat's four shepherds (sorted squares), the
animals on the board (sorted by square, each ``(square, owner, kind, catcher)`` with
``catcher`` ``-1`` when it is not caught), the wolves (sorted squares) and what each
shelter holds and what the wolves have eaten (counts of calves, cows and bulls).

:class:`Table` holds what one engine fixes: the map's terrain as flat tuples, the
seats in play, the herds' orders and the rule options.  The herd's turn and the catch
rules shared by the shepherds' turn (docs/rules.md, Awéthi) live here too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

from zrec.rules.awethi.board import (
    BULL,
    CALF,
    CORNERS,
    COW,
    DELTAS,
    DIAGONAL,
    FOREST,
    KIND_LETTERS,
    KIND_WORDS,
    LAIR,
    LAIR_LETTER,
    NAME,
    ORTH_NEIGHBOURS,
    ORTHOGONAL,
    SHELTER,
    SIZE,
    STEP,
    WATER,
    AwethiMap,
)

HERD_TURN, SHEPHERDS_TURN, WOLF_TURN = 0, 1, 2
TURN_WORDS = ("herd turn", "shepherds' turn", "wolf turn")
NOT_CAUGHT = -1
#: An animal on the board: (square, owner seat, kind, catcher seat or -1).
Animal = tuple[int, int, int, int]
Counts = tuple[int, int, int]  # calves, cows, bulls
NONE: Counts = (0, 0, 0)


class AwethiPosition(NamedTuple):
    """A position (see the module docstring); ``group`` is the move number.

    Positions and the moves of the shepherds and the wolves are named tuples, not frozen
    dataclasses: one of each is made a turn, and a frozen dataclass's ``__init__``
    writes each field through ``object.__setattr__`` (a position: 3.9 us against 1.0 us
    for the named tuple, measured side by side on this machine)."""

    seat: int
    stage: int
    group: int
    awake: bool
    revealed: int  # bit k: seat k's herd has had its first turn (face up)
    shepherds: tuple[tuple[int, ...], ...]
    animals: tuple[Animal, ...]
    wolves: tuple[int, ...]
    sheltered: tuple[Counts, ...]  # per seat: what its shelter holds
    eaten: tuple[Counts, ...]  # per seat: its animals the wolves ate


@dataclass(frozen=True, slots=True)
class HerdMove:
    """A herd's turn: the direction die decides everything."""

    die: int


class ShepherdsMove(NamedTuple):
    """A shepherds' turn: the dice, the option (``e`` or ``s``) and one path per
    shepherd in the order written; bit ``i`` of ``back`` marks path ``i`` as a jump
    straight back to the shelter (its squares: the start and the shelter)."""

    dice: tuple[int, ...]
    option: str
    paths: tuple[tuple[int, ...], ...]
    back: int = 0

    def amounts(self) -> tuple[int, ...]:
        return amounts(self.dice, self.option)


class WolfMove(NamedTuple):
    """A wolf turn: the direction and distance dice and the wolf's path (``()`` for
    the pass); ``eats`` when it ends on an animal."""

    dice: tuple[int, int]
    path: tuple[int, ...] = ()
    eats: bool = False


AwethiMove = HerdMove | ShepherdsMove | WolfMove


def amounts(dice: tuple[int, ...], option: str) -> tuple[int, ...]:
    """Each path's amount: its own die (``e``) or the sum divided by four (``s``)."""
    return dice if option == "e" else (sum(dice) // 4,) * len(dice)


# Herd directions by die: calves and the bull go orthogonally, cows diagonally.
_STRAIGHT = (ORTHOGONAL[0], ORTHOGONAL[1], ORTHOGONAL[2], ORTHOGONAL[3])  # N E S W
_SLANT = (DIAGONAL[3], DIAGONAL[0], DIAGONAL[1], DIAGONAL[2])  # NW NE SE SW
_KIND_ORDER = (BULL, COW, CALF)
_STEPS = {CALF: 1, COW: 2, BULL: 2}


def herd_direction(kind: int, die: int) -> int:
    return (_SLANT if kind == COW else _STRAIGHT)[die - 1]


#: for each die (1-4, index 0 unused) and kind: the step table of the kind's direction
#: and how many squares it walks
_HERD_STEPS = tuple(
    tuple((STEP[herd_direction(kind, die)], _STEPS[kind]) for kind in (CALF, COW, BULL))
    for die in range(5)
)


def ahead(square: int, direction: int) -> int:
    """How far ahead a square is along a direction (north: rank; north-west: rank
    minus file...)."""
    df, dr = DELTAS[direction]
    return df * (square % SIZE) + dr * (square // SIZE)


@cache
def _move_order(die: int) -> tuple[tuple[int, ...], ...]:
    """For each kind, each square's place in the order a herd's animals move for
    ``die``: bulls, then cows, then calves, each the furthest ahead first, then in map
    reading order (rank 25 first, west to east), as one number (sorting then compares
    numbers, not tuples): ``ahead`` lies within +-48 and a rank and a file within 0-24."""
    return tuple(
        tuple(
            ((_KIND_ORDER.index(kind) * 128 + 64 - ahead(square, herd_direction(kind, die))) * 32
             + SIZE - 1 - square // SIZE) * 32 + square % SIZE
            for square in range(SIZE * SIZE)
        )
        for kind in range(len(KIND_LETTERS))
    )  # fmt: skip


@lru_cache(maxsize=16)
def _terrain(terrain: str) -> tuple[tuple[bool, ...], ...]:
    """A map's water, forest, what stops a herd, what stops a wolf and where a wolf may
    go, square by square (worked out once a map: every game of a file has an engine of
    its own)."""
    wolf_barrier = tuple(t in (WATER, SHELTER) for t in terrain)
    return (
        tuple(t == WATER for t in terrain),
        tuple(t == FOREST for t in terrain),
        tuple(t in (WATER, LAIR_LETTER, SHELTER) for t in terrain),
        wolf_barrier,
        tuple(not b for b in wolf_barrier),
    )


class Table:
    """What one engine fixes: the map as flat tuples, seats, herds and options."""

    def __init__(
        self, amap: AwethiMap, seats: int, herds: tuple[str, ...], points: str, catch: str
    ) -> None:
        self.map = amap
        self.n = seats
        self.herds = herds
        self.points = points
        self.catch = catch
        self.names = (*(f"Shepherd{k + 1}" for k in range(seats)), "Wolves")
        self.wolves_seat = seats
        self.shelters = CORNERS[:seats]
        terrain = _terrain(amap.terrain)
        self.water, self.forest, self.herd_barrier, self.wolf_barrier = terrain[:4]
        self.wolf_passable = terrain[4]
        #: per seat in play: the squares its shepherds never enter (the Lair, the other
        #: shelters, in play or not)
        self.forbidden = tuple(frozenset({LAIR, *CORNERS}) - {own} for own in self.shelters)
        self.shelter_owner = {c: k for k, c in enumerate(CORNERS)}
        self._start: AwethiPosition | None = None

    def start(self) -> AwethiPosition:
        """The start position, made once (a position is immutable)."""
        if self._start is None:
            self._start = self._make_start()
        return self._start

    def _make_start(self) -> AwethiPosition:
        animals = sorted(
            (square, seat, KIND_LETTERS.index(letter), NOT_CAUGHT)
            for seat in range(self.n)
            for square, letter in zip(self.map.herding[seat], self.herds[seat], strict=True)
        )
        return AwethiPosition(
            seat=0,
            stage=HERD_TURN,
            group=1,
            awake=False,
            revealed=0,
            shepherds=tuple((c,) * 4 for c in self.shelters),
            animals=tuple(animals),
            wolves=(LAIR,) * self.n,
            sheltered=(NONE,) * self.n,
            eaten=(NONE,) * self.n,
        )

    # -- words -------------------------------------------------------------------------

    def animal_words(self, animal: Animal, *, where: bool = True) -> str:
        """``"Shepherd2's cow on f6"``."""
        text = f"{self.names[animal[1]]}'s {KIND_WORDS[animal[2]]}"
        return f"{text} on {NAME[animal[0]]}" if where else text

    def piece_words(
        self, animals: Iterable[Animal], shepherds: Iterable[Iterable[int]], square: int
    ) -> str:
        """What stands on a square, in words, for a refusal ("a wolf")."""
        for a in animals:
            if a[0] == square:
                return f"{self.names[a[1]]}'s {KIND_WORDS[a[2]]}"
        for seat, squares in enumerate(shepherds):
            if square in squares:
                return f"a shepherd of {self.names[seat]}"
        return "a wolf"

    def next_group(self, pos: AwethiPosition) -> tuple[int, int, int]:
        """(seat, stage, group) of the herd turn that opens the next group."""
        return (pos.seat + 1) % self.n, HERD_TURN, pos.group + 1

    # -- the herd's turn (docs/rules.md, Awéthi: the herd's turn) ------------------------

    def herd_walks(
        self, pos: AwethiPosition, die: int
    ) -> tuple[list[tuple[Animal, tuple[int, ...]]], int]:
        """Each animal of the seat's herd that is not caught, in the order they move,
        with its route (start first, end last; the start alone when it stays); and the
        first forest square an animal enters (-1 for none)."""
        seat = pos.seat
        order = _move_order(die)
        movers = [
            a
            for _, a in sorted(
                (order[a[2]][a[0]], a) for a in pos.animals if a[1] == seat and a[3] == NOT_CAUGHT
            )
        ]
        occupied = self.occupied(pos)
        barrier, forest = self.herd_barrier, self.forest
        steps = _HERD_STEPS[die]
        woke = -1 if not pos.awake else -2  # -2: awake already, no forest to look for
        out: list[tuple[Animal, tuple[int, ...]]] = []
        for animal in movers:
            start = animal[0]
            step, count = steps[animal[2]]
            occupied.discard(start)
            here = step[start]
            if here < 0 or barrier[here]:
                route: tuple[int, ...] = (start,)
            elif count == 1:
                route = (start,) if here in occupied else (start, here)
            else:
                there = step[here]
                if there >= 0 and not barrier[there] and there not in occupied:
                    route = (start, here, there)
                elif here in occupied:
                    route = (start,)
                else:
                    route = (start, here)
            occupied.add(route[-1])
            if woke == -1:
                for square in route[1:]:
                    if forest[square]:
                        woke = square
                        break
            out.append((animal, route))
        return out, max(woke, -1)

    def occupied(self, pos: AwethiPosition) -> set[int]:
        """Squares holding a piece, shelters and the Lair left out (their terrain
        decides who enters them)."""
        found = {a[0] for a in pos.animals}
        found.update(w for w in pos.wolves if w != LAIR)
        for squares in pos.shepherds:
            found.update(squares)
        found.difference_update(CORNERS)
        return found

    # -- catches (docs/rules.md, Awéthi: catching) ----------------------------------------

    @staticmethod
    def shepherd_squares(shepherds: Iterable[Iterable[int]]) -> set[int]:
        found: set[int] = set()
        for squares in shepherds:
            found.update(squares)
        return found

    @staticmethod
    def surrounded(square: int, shepherd_squares: set[int]) -> bool:
        """Whether three of the four squares orthogonally next to ``square`` hold a
        shepherd (squares count, not shepherds)."""
        return len(shepherd_squares.intersection(ORTH_NEIGHBOURS[square])) >= 3

    def completion(self, pos: AwethiPosition) -> tuple[list[Animal], list[Animal]]:
        """The catches of the seat to move that complete, and those that lapse."""
        done: list[Animal] = []
        lapsed: list[Animal] = []
        seat = pos.seat
        for a in pos.animals:
            if a[3] == seat:
                break
        else:  # no catch of the seat is pending
            return done, lapsed
        squares = self.shepherd_squares(pos.shepherds)
        for a in pos.animals:
            if a[3] == seat:
                (done if self.surrounded(a[0], squares) else lapsed).append(a)
        return done, lapsed

    def shelter_of(self, animal: Animal) -> int:
        """The seat whose shelter a completed catch goes to (owner, or the catcher under
        ``[Catch "catcher"]``)."""
        return animal[3] if self.catch == "catcher" else animal[1]


def add_count(counts: tuple[Counts, ...], seat: int, kind: int) -> tuple[Counts, ...]:
    """``counts`` with one more animal of ``kind`` for ``seat``."""
    row = list(counts[seat])
    row[kind] += 1
    return (*counts[:seat], (row[0], row[1], row[2]), *counts[seat + 1 :])
