"""Reading a written Awéthi shepherds' turn (docs/rules.md, Awéthi: the shepherds' turn),
path by path.

Each written path is checked directly against the board as the earlier paths left it
(:class:`~zrec.rules.awethi.shepherds.ShepherdsBoard`): its shape, its first square
(an unmoved shepherd of the seat), its steps, its cost, the squares it enters, and, for
a stay or a jump back, whether the shepherd had a legal path after all (the only search
made).  A refusal names the path and the place, with a code per kind of mistake
(``path-count``, ``form``, ``path-blocked``, ``path-cost``, ``forced-move``) and up to
12 legal ways for that shepherd.

What a written walk is, apart from any board (its squares, the squares it enters, its
cost; or that it is no plain walk), is worked out once an action and remembered
(:func:`_walk`, the last 16,384 actions: the reader hands over the same action for the
same word); a walk of the right cost that starts on an unmoved shepherd and meets
nothing is then taken at once, anything else checked one step at a time as above.  The
board its paths leave is handed on, so that the position after the turn is made from
it without walking the paths again (:func:`play_shepherds`; with the named-tuple
positions and the herd's order as numbers: 11% fewer instructions for ``zrec validate``
of Awéthi, callgrind, 20 games, start-up left out).
"""

from __future__ import annotations

from itertools import pairwise

from zrec.moves import Action, Turn
from zrec.rules.awethi.board import CELLS, INDEX, NAME, STEP
from zrec.rules.awethi.position import AwethiPosition, ShepherdsMove, Table, amounts
from zrec.rules.awethi.shepherds import ShepherdsBoard, path_text
from zrec.rules.base import IllegalMoveError

__all__ = ["read_shepherds"]

_MOST = 12  # alternatives listed with a refusal
_INDEX = dict(INDEX)
#: the cost of each step between two squares next to each other, by ``a * CELLS + b``:
#: 1 orthogonal, 2 diagonal
_STEP_COST = {
    a * CELLS + STEP[d][a]: 1 if d % 2 == 0 else 2
    for d in range(8)
    for a in range(CELLS)
    if STEP[d][a] >= 0
}


class _Label:
    """``path 2, a1-b2``: what a refusal begins with, written only when it is needed."""

    __slots__ = ("action", "i")

    def __init__(self, i: int, action: Action) -> None:
        self.i = i
        self.action = action

    def __str__(self) -> str:
        return f"path {self.i + 1}, {self.action.text()}"


def read_shepherds(t: Table, pos: AwethiPosition, turn: Turn) -> ShepherdsMove:
    """The shepherds' move a written turn means (its dice already checked)."""
    return play_shepherds(t, pos, turn)[0]


def play_shepherds(
    t: Table, pos: AwethiPosition, turn: Turn
) -> tuple[ShepherdsMove, ShepherdsBoard]:
    """The shepherds' move a written turn means (its dice already checked), and the
    board as its paths leave it (:func:`~zrec.rules.awethi.shepherds.board_after` makes
    the position after it from that board)."""
    assert turn.dice is not None and turn.dice.option is not None
    dice, option = turn.dice.values, turn.dice.option
    amts = amounts(dice, option)
    if len(turn.actions) != 4:
        raise IllegalMoveError(
            f"{t.names[pos.seat]} has 4 shepherds: write 4 paths, one for each, not "
            f"{len(turn.actions)}",
            (),
            "path-count",
        )
    board = ShepherdsBoard(t, pos)
    unmoved, occupied, forbidden = board.unmoved, board.occupied, board.forbidden
    water = t.water
    paths: list[tuple[int, ...]] = []
    back = 0
    for i, action in enumerate(turn.actions):
        walk = _WALKS.get(id(action))
        if walk is None or walk[0] is not action:
            walk = _walk(action)
        path = walk[1]
        if (  # the common path: a walk of the right cost, nothing in its way
            path
            and walk[3] == amts[i]
            and unmoved.get(path[0], 0) > 0
            and forbidden.isdisjoint(path)
            and occupied.isdisjoint(walk[2])
            and not (water[path[0]] and water[path[-1]])
        ):
            board.move(path[0], walk[2], path[-1])
        else:  # the same checks one by one, with the reason of a refusal
            path, is_back = _read_path(t, board, i, action, amts[i], dice, option)
            if is_back:
                back |= 1 << i
                board.move(path[0], (), path[1])
            else:
                board.move(path[0], path[1:], path[-1])
        paths.append(path)
    return ShepherdsMove(tuple(dice), option, tuple(paths), back), board


_Walk = tuple[Action, tuple[int, ...], tuple[int, ...], int]
#: what :func:`_walk` found of each action it was shown, by the action's identity: the
#: action itself (held, so that its identity is not reused), its squares, the squares
#: it enters and its cost.  The reader hands over the same action for the same word.
_WALKS: dict[int, _Walk] = {}
_MOST_WALKS = 16_384


def _walk(action: Action) -> _Walk:
    """An action's squares as a walk (``()`` when it is anything else: a stay, a jump
    back, a step that is not one, a square twice or off the board...), kept for the
    next time the reader hands over the same action."""
    squares = action.squares
    path: tuple[int, ...] = ()
    cost = 0
    if (
        action.kind == "path"
        and len(squares) > 1
        and action.seps.count("-") == len(action.seps)
        and action.vias.count(None) == len(action.vias)
        and all(s in _INDEX for s in squares)
    ):
        path = tuple([_INDEX[s] for s in squares])
        for a, b in pairwise(path):
            one = _STEP_COST.get(a * CELLS + b, 0)
            if not one:
                path = ()
                break
            cost += one
        if len(set(path)) != len(path):
            path = ()
    if len(_WALKS) >= _MOST_WALKS:
        _WALKS.clear()
    found = (action, path, path[1:], cost)
    _WALKS[id(action)] = found
    return found


def _read_path(
    t: Table,
    board: ShepherdsBoard,
    i: int,
    action: Action,
    amount: int,
    dice: tuple[int, ...],
    option: str,
) -> tuple[tuple[int, ...], bool]:
    label = _Label(i, action)
    if action.kind != "path":
        raise IllegalMoveError(
            f"{label}: a shepherd's turn writes a path for each shepherd (its square alone "
            "to stay, e.g. c3; c3>a1 to go back to the shelter)",
            (),
            "form",
        )
    if action.vias.count(None) != len(action.vias):
        raise IllegalMoveError(
            f"{label}: nothing is jumped in Awéthi: write no (square)", (), "form"
        )
    start = _INDEX.get(action.squares[0], -1)
    if start < 0:
        raise IllegalMoveError(
            f"{label}: {action.squares[0]} is not a square of the board (a1-y25)",
            (),
            "path-blocked",
        )
    if board.unmoved.get(start, 0) <= 0:
        here = [s for s, n in sorted(board.unmoved.items()) if n > 0]
        ways = tuple(_first_way(board, s, amount) for s in here)
        if start in board.own or start in board.pos.shepherds[board.pos.seat]:
            reason = f"{label}: the shepherd on {NAME[start]} has already moved this turn"
        else:
            reason = f"{label}: no shepherd of {t.names[board.pos.seat]} stands on {NAME[start]}"
        raise IllegalMoveError(reason, ways, "path-blocked")
    squares = tuple([_INDEX.get(s, -1) for s in action.squares])
    if -1 in squares:
        square = action.squares[squares.index(-1)]
        raise IllegalMoveError(
            f"{label}: {square} is not a square of the board (a1-y25)",
            _alternatives(board, start, amount),
            "path-blocked",
        )
    water = t.water[start]
    shelter = board.shelter
    if len(squares) == 1:
        example = next(board.walks(start, amount, water), None)
        if water:
            if example is not None:
                reason = (
                    f"{label}: the shepherd on {NAME[start]} stands in water and must leave "
                    f"it: it has a path of {amount} out of the water (e.g. {path_text(example)})"
                )
            else:
                reason = (
                    f"{label}: the shepherd on {NAME[start]} stands in water and must leave "
                    f"it: with no path of {amount} out of the water it goes back, "
                    f"{NAME[start]}>{NAME[shelter]}"
                )
            raise IllegalMoveError(reason, _alternatives(board, start, amount), "forced-move")
        if example is not None:
            raise _can_move(board, label, start, amount, example, "so it must")
        return squares, False
    if ">" in action.seps:
        if len(squares) != 2:
            raise IllegalMoveError(
                f"{label}: going back is written alone, the shepherd's square, > and its "
                f"shelter ({NAME[start]}>{NAME[shelter]})",
                (),
                "form",
            )
        if squares[1] != shelter:
            raise IllegalMoveError(
                f"{label}: a shepherd goes back only to its own shelter, {NAME[shelter]}",
                (),
                "form",
            )
        if start == shelter:
            raise IllegalMoveError(
                f"{label}: the shepherd is in its shelter already: write the stay, {NAME[start]}",
                _alternatives(board, start, amount),
                "forced-move",
            )
        example = next(board.walks(start, amount, water), None)
        if example is not None:
            raise _can_move(board, label, start, amount, example, "so it may not go back")
        return squares, True
    if action.seps.count("-") != len(action.seps):
        raise IllegalMoveError(
            f"{label}: a shepherd's path joins its squares with - (shepherds never capture)",
            (),
            "form",
        )
    _check_walk(t, board, label, squares, amount, dice, option)
    return squares, False


def _can_move(
    board: ShepherdsBoard,
    label: _Label,
    start: int,
    amount: int,
    example: tuple[int, ...],
    consequence: str,
) -> IllegalMoveError:
    """The error for a stay or a jump back written while the shepherd on ``start`` has
    a path of ``amount`` (``example``): ``consequence`` says what that obliges."""
    return IllegalMoveError(
        f"{label}: the shepherd on {NAME[start]} can move {amount} (e.g. "
        f"{path_text(example)}), {consequence}",
        _alternatives(board, start, amount),
        "forced-move",
    )


def _check_walk(
    t: Table,
    board: ShepherdsBoard,
    label: _Label,
    squares: tuple[int, ...],
    amount: int,
    dice: tuple[int, ...],
    option: str,
) -> None:
    start = squares[0]
    cost = 0
    diagonal = False
    step_cost = _STEP_COST.get
    for a, b in pairwise(squares):
        one = step_cost(a * CELLS + b, 0)
        if not one:
            raise IllegalMoveError(
                f"{label}: {NAME[b]} is not next to {NAME[a]} (a step goes to one of the 8 "
                "squares around)",
                _alternatives(board, start, amount),
                "path-blocked",
            )
        cost += one
        if one == 2:
            diagonal = True
    if cost != amount:
        why = " (a diagonal step costs 2)" if diagonal else ""
        if option == "e":
            due = f"its die is {amount}"
        else:
            due = f"every path costs {amount} under option s (the sum {sum(dice)} divided by four)"
        raise IllegalMoveError(
            f"{label}, costs {cost}{why} but {due}",
            _alternatives(board, start, amount),
            "path-cost",
        )
    if (  # the common case: nothing in the way
        len(set(squares)) == len(squares)
        and board.forbidden.isdisjoint(squares)
        and board.occupied.isdisjoint(squares[1:])
    ):
        _check_water(t, board, label, squares, amount)
        return
    seen = {start}
    for b in squares[1:]:
        problem = ""
        if b in seen:
            problem = f"it visits {NAME[b]} twice"
        elif b in board.forbidden:
            owner = t.shelter_owner.get(b)
            if owner is None:
                problem = f"{NAME[b]} is the Lair: shepherds never enter it"
            elif owner < t.n:
                problem = (
                    f"{NAME[b]} is {t.names[owner]}'s shelter: only its own shepherds enter it"
                )
            else:
                problem = f"{NAME[b]} is the shelter of Shepherd{owner + 1}, who is not in play"
        elif b in board.occupied:
            problem = f"{NAME[b]} holds {board.holder(b)}"
        if problem:
            raise IllegalMoveError(
                f"{label}: {problem}", _alternatives(board, start, amount), "path-blocked"
            )
        seen.add(b)
    _check_water(t, board, label, squares, amount)


def _check_water(
    t: Table, board: ShepherdsBoard, label: _Label, squares: tuple[int, ...], amount: int
) -> None:
    start = squares[0]
    if t.water[start] and t.water[squares[-1]]:
        raise IllegalMoveError(
            f"{label}: the shepherd started in water and must leave it, but "
            f"{NAME[squares[-1]]} is water",
            _alternatives(board, start, amount),
            "forced-move",
        )


def _alternatives(board: ShepherdsBoard, start: int, amount: int) -> tuple[str, ...]:
    """A few legal ways for the shepherd on ``start`` (its paths, else stay or back)."""
    water = board.t.water[start]
    found = []
    for path in board.walks(start, amount, water):
        found.append(path_text(path))
        if len(found) == _MOST:
            return tuple(found)
    if found:
        return tuple(found)
    out = [] if water else [NAME[start]]
    if start != board.shelter:
        out.append(f"{NAME[start]}>{NAME[board.shelter]}")
    return tuple(out)


def _first_way(board: ShepherdsBoard, start: int, amount: int) -> str:
    return _alternatives(board, start, amount)[0]
