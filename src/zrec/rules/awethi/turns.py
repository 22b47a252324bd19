"""Reading the kind and dice of a written Awéthi turn, and the herd's turn as a move.

Every turn rolls dice (docs/rules.md, Awéthi: order of play, waking and dice): the herd
its direction (d4), the shepherds four d4 and an option letter, the wolves a direction
(d4) and a distance (d6).  The engine first decides which kind of turn was written
(:func:`written_kind`) and refuses it when another is due (``turn-order``,
:func:`order_reason`), then checks its roll (:func:`check_dice`, code ``dice``).  The
herd's turn is decided by its die alone (:func:`read_herd`, :func:`apply_herd`; the
walks are :meth:`~zrec.rules.awethi.position.Table.herd_walks`).
"""

from __future__ import annotations

from zrec.moves import HERD, Dice, Turn
from zrec.rules.awethi.board import KIND_WORDS, NAME, reading_key
from zrec.rules.awethi.position import (
    HERD_TURN,
    SHEPHERDS_TURN,
    TURN_WORDS,
    WOLF_TURN,
    AwethiPosition,
    HerdMove,
    Table,
)
from zrec.rules.base import Event, IllegalMoveError

__all__ = [
    "HERD_MOVES",
    "apply_herd",
    "check_dice",
    "herd_routes",
    "order_reason",
    "read_herd",
    "spell_herd",
    "written_kind",
]

_NOTHING: tuple[Event, ...] = ()
#: the herd moves of dice 1-4 (index 0 unused), made once
HERD_MOVES = tuple(HerdMove(die) for die in range(5))


def written_kind(turn: Turn, due: int) -> int:
    """Which kind of turn the written one is (see "Which turn was written")."""
    actions, dice = turn.actions, turn.dice
    for a in actions:
        if a.kind == "herd":
            return HERD_TURN
    if len(actions) > 1 or (dice is not None and len(dice.values) == 4):
        return SHEPHERDS_TURN
    if (dice is not None and len(dice.values) == 2) or (actions and actions[0].kind == "pass"):
        return WOLF_TURN
    if dice is not None and dice.option is not None:
        return SHEPHERDS_TURN
    return due


def order_reason(t: Table, pos: AwethiPosition, written: int) -> str:
    """Why the kind of turn written is not the one due, in words."""
    name = t.names[pos.seat]
    if pos.stage == HERD_TURN:
        if written == WOLF_TURN:
            why = "the wolves are still asleep" if not pos.awake else "the wolves have moved"
            return f"no wolf turn is due here: {why}, and {name}'s herd turn comes next"
        return f"{name}'s herd turn is due (its die and H, e.g. 3: H), not a shepherds' turn"
    if pos.stage == SHEPHERDS_TURN:
        return (
            f"{name}'s shepherds' turn is due (four dice, e or s, and a path for each "
            f"shepherd), not a {TURN_WORDS[written]}"
        )
    return (
        f"the wolves are awake: the wolf turn of move {pos.group} is due after {name}'s "
        f"shepherds' turn (its two dice and a wolf's path, or --), not a "
        f"{TURN_WORDS[written]}"
    )


def check_dice(stage: int, dice: Dice | None) -> None:
    """Refuse a roll that is not the one this kind of turn rolls (code ``dice``)."""

    def refuse(reason: str) -> IllegalMoveError:
        return IllegalMoveError(reason, (), "dice")

    if stage == HERD_TURN:
        if dice is None:
            raise refuse("a herd turn is written with its direction die: e.g. 3: H")
        if dice.option is not None:
            raise refuse("a herd turn has no option letter: write its die alone, e.g. 3: H")
        if len(dice.values) != 1:
            raise refuse(
                f"a herd turn rolls one die, its direction (e.g. 3: H), not {len(dice.values)}"
            )
    elif stage == SHEPHERDS_TURN:
        if dice is None:
            raise refuse("a shepherds' turn is written with its four dice and e or s: e.g. 2413e:")
        if len(dice.values) != 4:
            raise refuse(f"a shepherds' turn rolls four dice, not {len(dice.values)} (e.g. 2413e)")
        if dice.option is None:
            raise refuse(
                "write e (each path its own die) or s (every path the sum divided by "
                "four) after the four dice"
            )
        if dice.option not in ("e", "s"):
            raise refuse(
                f"{dice.option} is not an option: write e (each path its own die) or s "
                "(the sum divided by four)"
            )
    else:
        if dice is None:
            raise refuse(
                "a wolf turn is written with its direction and distance dice: e.g. 35: "
                "m13-m12-m11-m10-m9-m8"
            )
        if dice.option is not None:
            raise refuse("a wolf turn has no option letter: write its two dice, e.g. 35:")
        if len(dice.values) != 2:
            raise refuse(
                f"a wolf turn rolls two dice, its direction (d4) and its distance (d6), "
                f"not {len(dice.values)}"
            )
        if not 1 <= dice.values[1] <= 6:
            raise refuse(f"{dice.values[1]} is not a roll of the distance die (a d6: 1-6)")
    what = "the direction die" if stage != SHEPHERDS_TURN else "a shepherd's die"
    assert dice is not None
    if not 1 <= dice.values[0] <= 4 or (
        stage == SHEPHERDS_TURN and not all(1 <= v <= 4 for v in dice.values)
    ):
        bad = next(v for v in dice.values if not 1 <= v <= 4)
        raise refuse(f"{bad} is not a roll of {what} (a d4: 1-4)")


def read_herd(turn: Turn) -> HerdMove:
    """The herd move of a written herd turn (its die already checked)."""
    if turn.actions != (HERD,):
        raise IllegalMoveError(
            "a herd turn is written as its die and H alone (e.g. 3: H): the die decides "
            "every animal's move",
            (),
            "form",
        )
    assert turn.dice is not None
    return HERD_MOVES[turn.dice.values[0]]


def spell_herd(move: HerdMove) -> Turn:
    return Turn((HERD,), Dice((move.die,)))


def herd_routes(t: Table, pos: AwethiPosition, move: HerdMove) -> tuple[tuple[str, ...], ...]:
    """The route of every animal that moves, in the order they move."""
    walks, _ = t.herd_walks(pos, move.die)
    return tuple(tuple(NAME[s] for s in route) for _, route in walks if len(route) > 1)


def apply_herd(
    t: Table, pos: AwethiPosition, move: HerdMove
) -> tuple[AwethiPosition, tuple[Event, ...]]:
    """The herd turn applied: every animal walked, the herd face up, the wolves woken."""
    walks, woke = t.herd_walks(pos, move.die)
    ends = {animal[0]: route[-1] for animal, route in walks if len(route) > 1}
    animals = tuple(
        sorted([(ends[a[0]], a[1], a[2], a[3]) if a[0] in ends else a for a in pos.animals])
    )
    events: list[Event] = []
    name = t.names[pos.seat]
    bit = 1 << pos.seat
    if not pos.revealed & bit:
        own = sorted((a for a in pos.animals if a[1] == pos.seat), key=lambda a: reading_key(a[0]))
        listing = ", ".join(f"{NAME[a[0]]} {KIND_WORDS[a[2]]}" for a in own)
        events.append(
            Event(
                "herd-revealed",
                f"{name}'s herd is turned face up: {listing}",
                tuple(NAME[a[0]] for a in own),
            )
        )
    if woke >= 0:
        mover = next(a for a, route in walks if woke in route[1:])
        events.append(
            Event(
                "wolves-woken",
                f"the wolves wake: {t.animal_words(mover, where=False)} enters the forest "
                f"at {NAME[woke]}",
                (NAME[woke],),
            )
        )
    after = AwethiPosition(
        pos.seat,
        SHEPHERDS_TURN,
        pos.group,
        pos.awake or woke >= 0,
        pos.revealed | bit,
        pos.shepherds,
        animals,
        pos.wolves,
        pos.sheltered,
        pos.eaten,
    )
    return after, tuple(events) if events else _NOTHING
