"""The Awéthi wolf turn (docs/rules.md, Awéthi: the wolf turn): reading, listing, sampling
and applying it.

A wolf walks exactly its distance in orthogonal steps, coming back over squares as it
likes, never on water, a shelter or a shepherd; it ends further in the rolled direction,
on a free square, the Lair or an animal that is not caught (eating it), and, unless it
eats, not on one of the 8 squares around a shepherd; outside the Lair never on another
wolf.  The squares a wolf can stand on after ``k`` steps form layer ``k``
(:func:`layers`); the ends are read off the last layer, and a path to an end is found
by walking the layers back.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import pairwise

from zrec.moves import PASS, Action, Dice, Turn
from zrec.rules.awethi.board import (
    AROUND,
    INDEX,
    LAIR,
    NAME,
    ORTH_NEIGHBOURS,
    SIZE,
    distance,
)
from zrec.rules.awethi.position import (
    NOT_CAUGHT,
    Animal,
    AwethiPosition,
    Table,
    WolfMove,
    add_count,
)
from zrec.rules.base import REMOVED, Event, IllegalMoveError, choose

__all__ = [
    "apply_wolf",
    "read_wolf",
    "sample_wolf",
    "spell_wolf",
    "wolf_moves",
]

DIRECTION_WORDS = ("north", "east", "south", "west")
_MOST = 12


def further(start: int, end: int, direction: int) -> bool:
    """Whether ``end`` lies at least one square further than ``start`` in the rolled
    direction (1 north, 2 east, 3 south, 4 west)."""
    if direction == 1:
        return end // SIZE > start // SIZE
    if direction == 2:
        return end % SIZE > start % SIZE
    if direction == 3:
        return end // SIZE < start // SIZE
    return end % SIZE < start % SIZE


class WolfBoard:
    """What the wolves see in one position."""

    def __init__(self, t: Table, pos: AwethiPosition) -> None:
        self.t = t
        self.pos = pos
        self.shepherds = t.shepherd_squares(pos.shepherds)
        self.animals: dict[int, Animal] = {a[0]: a for a in pos.animals}
        self.wolves = set(pos.wolves)
        self._passable: list[bool] | None = None  # made when a search needs it

    @property
    def passable(self) -> list[bool]:
        """For each square, whether a wolf may step on it (no water, shelter or shepherd)."""
        if self._passable is None:
            self._passable = list(self.t.wolf_passable)
            for s in self.shepherds:
                self._passable[s] = False
        return self._passable

    def layers(self, start: int, n: int) -> list[set[int]]:
        """The squares a wolf on ``start`` can stand on after 0, 1, ... ``n`` steps."""
        passable = self.passable
        layer = {start}
        out = [layer]
        for _ in range(n):
            layer = {b for a in layer for b in ORTH_NEIGHBOURS[a] if passable[b]}
            out.append(layer)
        return out

    def end_problem(self, start: int, end: int, direction: int) -> str:
        """Why a wolf from ``start`` may not end on ``end`` (``""`` when it may)."""
        if not further(start, end, direction):
            return (
                f"the wolf must end at least one square further {DIRECTION_WORDS[direction - 1]} "
                f"than {NAME[start]}"
            )
        animal = self.animals.get(end)
        if animal is not None:
            if animal[3] != NOT_CAUGHT:
                return f"{self.t.animal_words(animal)} is caught: it cannot be eaten"
            return ""
        if end != LAIR and end in self.wolves:
            return f"{NAME[end]} holds another wolf: outside the Lair a wolf never ends on one"
        near = next((s for s in AROUND[end] if s in self.shepherds), -1)
        if near >= 0:
            return (
                f"{NAME[end]} is next to the shepherd on {NAME[near]}: a wolf that does not "
                "eat may not end there"
            )
        return ""

    def ends(self, start: int, dice: tuple[int, int]) -> tuple[list[set[int]], list[int]]:
        """The layers of a wolf on ``start`` and the squares it may end on."""
        found = self.layers(start, dice[1])
        ends = sorted(e for e in found[-1] if not self.end_problem(start, e, dice[0]))
        return found, ends

    def path_to(
        self, found: list[set[int]], end: int, rng: random.Random | None = None
    ) -> tuple[int, ...]:
        """A path through the layers to ``end``: the first in search order, or a random
        one."""
        path = [end]
        here = end
        for k in range(len(found) - 2, -1, -1):
            before = [s for s in ORTH_NEIGHBOURS[here] if s in found[k]]
            here = before[0] if rng is None else rng.choice(before)
            path.append(here)
        return tuple(reversed(path))

    def moves(self, dice: tuple[int, int]) -> list[WolfMove]:
        """One move to each end of each wolf, its path the first in search order."""
        out = []
        for start in sorted(self.wolves):
            found, ends = self.ends(start, dice)
            for end in ends:
                out.append(WolfMove(dice, self.path_to(found, end), end in self.animals))
        return out


# -- reading -----------------------------------------------------------------------------


def _examples(board: WolfBoard, dice: tuple[int, int]) -> tuple[str, ...]:
    return tuple(spell_wolf(m).actions[0].text() for m in board.moves(dice)[:_MOST])


def read_wolf(t: Table, pos: AwethiPosition, turn: Turn) -> WolfMove:
    """The wolf move a written turn means (its dice already checked)."""
    assert turn.dice is not None
    dice = (turn.dice.values[0], turn.dice.values[1])
    board = WolfBoard(t, pos)
    if len(turn.actions) != 1:
        raise IllegalMoveError(
            "a wolf turn moves one wolf: write one path, or -- when no wolf can move",
            _examples(board, dice),
            "form",
        )
    action = turn.actions[0]
    if action.kind == "pass":
        example = next(iter(board.moves(dice)), None)
        if example is not None:
            raise IllegalMoveError(
                f"a wolf can move (e.g. {spell_wolf(example).actions[0].text()}): -- is "
                "written only when no wolf has a legal move",
                _examples(board, dice),
                "wolf-pass",
            )
        return WolfMove(dice)
    if action.kind != "path":
        raise IllegalMoveError(
            "a wolf turn moves one wolf: write its path, or -- when no wolf can move",
            _examples(board, dice),
            "form",
        )

    def refuse(reason: str) -> IllegalMoveError:
        return IllegalMoveError(reason, _examples(board, dice), "wolf-move")

    if any(v is not None for v in action.vias):
        raise IllegalMoveError("nothing is jumped in Awéthi: write no (square)", (), "form")
    for square in action.squares:
        if square not in INDEX:
            raise refuse(f"{square} is not a square of the board (a1-y25)")
    path = tuple(INDEX[s] for s in action.squares)
    start, end = path[0], path[-1]
    if start not in board.wolves:
        raise refuse(f"no wolf stands on {NAME[start]}")
    for a, b in pairwise(path):
        if b not in ORTH_NEIGHBOURS[a]:
            raise refuse(
                f"{NAME[a]}-{NAME[b]} is not a step along a rank or a file: a wolf moves "
                "orthogonally"
            )
    steps = len(path) - 1
    if steps != dice[1]:
        raise refuse(
            f"the wolf must move exactly {dice[1]} squares (its distance die), not {steps}"
        )
    for b in path[1:]:
        if t.water[b]:
            raise refuse(f"{NAME[b]} is water: a wolf never steps on water")
        if t.wolf_barrier[b]:
            raise refuse(f"{NAME[b]} is a shelter: a wolf never enters one")
        if b in board.shepherds:
            raise refuse(f"{NAME[b]} holds a shepherd: a wolf never passes a shepherd")
    problem = board.end_problem(start, end, dice[0])
    if problem:
        raise refuse(problem)
    if any(sep != "-" for sep in action.seps[:-1]) or action.seps[-1] not in ("-", "x"):
        raise refuse(
            "join a wolf's squares with -; only an eating move writes x, before its last square"
        )
    eats = end in board.animals
    if eats and action.seps[-1] != "x":
        what = t.animal_words(board.animals[end], where=False)
        written = "-".join(action.squares[:-1]) + "x" + NAME[end]
        raise refuse(
            f"the wolf eats {what} on {NAME[end]}: write x before the last square ({written})"
        )
    if not eats and action.seps[-1] == "x":
        raise refuse(f"there is no animal to eat on {NAME[end]}: join the squares with -")
    return WolfMove(dice, path, eats)


# -- applying, spelling, listing, sampling ---------------------------------------------


def apply_wolf(
    t: Table, pos: AwethiPosition, move: WolfMove
) -> tuple[AwethiPosition, tuple[Event, ...]]:
    seat, stage, group = t.next_group(pos)
    if not move.path:
        after = AwethiPosition(
            seat,
            stage,
            group,
            pos.awake,
            pos.revealed,
            pos.shepherds,
            pos.animals,
            pos.wolves,
            pos.sheltered,
            pos.eaten,
        )
        return after, ()
    start, end = move.path[0], move.path[-1]
    wolves = list(pos.wolves)
    wolves.remove(start)
    wolves.append(end)
    animals = pos.animals
    eaten = pos.eaten
    events: tuple[Event, ...] = ()
    if move.eats:
        victim = next(a for a in animals if a[0] == end)
        animals = tuple(a for a in animals if a[0] != end)
        eaten = add_count(eaten, victim[1], victim[2])
        events = (Event(REMOVED, f"the wolves eat {t.animal_words(victim)}", (NAME[end],)),)
    after = AwethiPosition(
        seat,
        stage,
        group,
        pos.awake,
        pos.revealed,
        pos.shepherds,
        animals,
        tuple(sorted(wolves)),
        pos.sheltered,
        eaten,
    )
    return after, events


def spell_wolf(move: WolfMove) -> Turn:
    dice = Dice(move.dice)
    if not move.path:
        return Turn((PASS,), dice)
    n = len(move.path) - 1
    seps = ("-",) * (n - 1) + ("x" if move.eats else "-",)
    return Turn((Action("path", tuple(NAME[s] for s in move.path), seps, (None,) * n),), dice)


def wolf_moves(t: Table, pos: AwethiPosition, dice: tuple[int, int]) -> Iterator[WolfMove]:
    """Every legal wolf move of the roll, each path of each wolf (or the pass)."""
    board = WolfBoard(t, pos)
    n = dice[1]
    some = False
    for start in sorted(board.wolves):
        found, ends = board.ends(start, dice)
        if not ends:
            continue
        some = True
        # keep only squares from which an end can still be reached in the steps left
        alive: list[set[int]] = [set() for _ in found]
        alive[n] = set(ends)
        for k in range(n - 1, -1, -1):
            alive[k] = {s for s in found[k] if any(b in alive[k + 1] for b in ORTH_NEIGHBOURS[s])}
        paths: list[tuple[int, ...]] = []
        _paths(alive, n, [start], paths)
        eats = board.animals
        for p in paths:
            yield WolfMove(dice, p, p[-1] in eats)
    if not some:
        yield WolfMove(dice)


def _paths(alive: list[set[int]], n: int, path: list[int], out: list[tuple[int, ...]]) -> None:
    """Append to ``out`` every path on from ``path`` through the layers ``alive`` to
    step ``n``, neighbours in their fixed order (a plain recursion: the wolves' turns
    list thousands of paths, and nested generators cost twice as much)."""
    k = len(path) - 1
    if k == n:
        out.append(tuple(path))
        return
    layer = alive[k + 1]
    for b in ORTH_NEIGHBOURS[path[-1]]:
        if b in layer:
            path.append(b)
            _paths(alive, n, path, out)
            path.pop()


def sample_wolf(
    t: Table, pos: AwethiPosition, dice: tuple[int, int], rng: random.Random
) -> WolfMove:
    """A legal wolf move leaning towards eating, else towards the nearest animal that is
    not caught; its path drawn at random through the layers."""
    board = WolfBoard(t, pos)
    herd = [a[0] for a in pos.animals if a[3] == NOT_CAUGHT]

    def near(square: int) -> int:
        return min((distance(square, a) for a in herd), default=0)

    options: list[tuple[int, int]] = []
    progress: list[int] = []
    layers: dict[int, list[set[int]]] = {}
    for start in sorted(board.wolves):
        found, ends = board.ends(start, dice)
        layers[start] = found
        here = near(start)
        for end in ends:
            options.append((start, end))
            progress.append(100 if end in board.animals else here - near(end))
    chosen = choose(options, rng, progress)
    if chosen is None:
        return WolfMove(dice)
    start, end = chosen
    return WolfMove(dice, board.path_to(layers[start], end, rng), end in board.animals)
