"""The Awéthi rules engine: one map, seats, herds and rule options fixed.

:class:`AwethiEngine` answers the engine protocol of :mod:`zrec.rules.base` by handing
each kind of turn to its module: the herd turn to :mod:`.turns`, the shepherds' turn to
:mod:`.paths` and :mod:`.shepherds` (on the recording board, click by click, to
:mod:`.clicks`), the wolves' turn to :mod:`.wolves`; the end to :mod:`.end`, the
pictures and the key to :mod:`.view`.  The readings the rules fix
are in the docstring of :mod:`.rules`, with the game object.

Where Awéthi's compiled kernel is in use (``_kernel.c`` beside this file, see
:mod:`zrec.rules.kernel`), the engine hands it the legal moves and the self-play move
of a roll, whole random games (:meth:`AwethiEngine.play_randomly`) and the written
turns of a line (:meth:`AwethiEngine.play_line`), at the top of those methods; the code
here stays the reference the kernel is tested against (``tests/rules/test_kernel_awethi.py``,
``test_kernel_awethi_lines.py``) and runs whatever the kernel does not hold.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from zrec.moves import Turn, WrittenTurns
from zrec.rules import kernel
from zrec.rules.awethi import end
from zrec.rules.awethi import view as show
from zrec.rules.awethi.board import INDEX, KIND_LETTERS, LAIR, NAME, AwethiMap, parse_herd
from zrec.rules.awethi.building import build_shepherds, sample_shepherds
from zrec.rules.awethi.clicks import shepherds_choices, shepherds_clicks
from zrec.rules.awethi.paths import play_shepherds
from zrec.rules.awethi.position import (
    HERD_TURN,
    NOT_CAUGHT,
    SHEPHERDS_TURN,
    WOLF_TURN,
    AwethiMove,
    AwethiPosition,
    Counts,
    HerdMove,
    ShepherdsMove,
    Table,
    WolfMove,
)
from zrec.rules.awethi.shepherds import (
    apply_shepherds,
    board_after,
    spell_shepherds,
)
from zrec.rules.awethi.turns import (
    HERD_MOVES,
    apply_herd,
    check_dice,
    herd_routes,
    order_reason,
    read_herd,
    spell_herd,
    written_kind,
)
from zrec.rules.awethi.wolves import apply_wolf, read_wolf, sample_wolf, spell_wolf, wolf_moves
from zrec.rules.base import (
    Chance,
    Event,
    Finding,
    IllegalMoveError,
    MoveNumber,
    Outcome,
    Resolved,
    SetupError,
    View,
)
from zrec.rules.clicking import Choices, ClickTable, Entry
from zrec.rules.defaults import BaseEngine
from zrec.rules.lines import Run, reference_line
from zrec.rules.loops import Played, reference_play

TITLE = "Awéthi"
_CHANCES = (Chance((4,)), Chance((4, 4, 4, 4)), Chance((4, 6)))
#: the four herd turns as read, made once (the die decides everything)
_HERD_READ: tuple[Resolved[AwethiMove], ...] = tuple(Resolved(HERD_MOVES[d]) for d in range(5))


class AwethiEngine(BaseEngine[AwethiPosition, AwethiMove]):
    """Awéthi with its map, seats, herds and options fixed: the rules engine."""

    title: str = TITLE

    def __init__(
        self,
        amap: AwethiMap,
        seats: int,
        herds: tuple[str, ...],
        points: str = "basic",
        catch: str = "owner",
    ) -> None:
        if not 1 <= seats <= 4 or len(herds) != seats:
            raise ValueError(f"{seats} seats need {seats} herds, not {len(herds)}")
        self.table = Table(amap, seats, tuple(parse_herd(h) for h in herds), points, catch)
        self.map = amap
        self.seats: tuple[str, ...] = self.table.names
        self.options: Mapping[str, str] = MappingProxyType({"Points": points, "Catch": catch})
        #: the last shepherds' turn read (position, move, what it leads to): reading a
        #: turn walks its paths on a board, so the position after it is made then, and
        #: applying that same move to that same position hands it over
        self._read: tuple[AwethiPosition, AwethiMove, tuple[AwethiPosition, tuple[Event, ...]]]
        start = self.table.start()
        self._read = (start, HerdMove(1), (start, ()))
        #: the compiled kernel's board for this map, these seats and options (``None``:
        #: the Python engine); see :mod:`zrec.rules.kernel`
        self._board = self._compiled()

    def _compiled(self) -> Any:
        """The kernel's board (:mod:`zrec.rules.kernel`) for this engine, or ``None``."""
        compiled = kernel.load(__package__ or "")
        if compiled is None:
            return None
        t = self.table
        return compiled.Board(
            t.map.terrain,
            t.n,
            t.catch == "catcher",
            AwethiPosition,
            ShepherdsMove,
            WolfMove,
            HERD_MOVES,
        )

    # -- positions ---------------------------------------------------------------------

    def start(self) -> AwethiPosition:
        return self.table.start()

    def setup(self, text: str) -> AwethiPosition:
        raise SetupError("Awéthi has no Setup tag: the Map and Herd tags are its setup")

    def setup_text(self, pos: AwethiPosition) -> str:
        return show.setup_text(self.table, pos)

    def key(self, pos: AwethiPosition) -> bytes:
        return show.key(pos)

    def view(self, pos: AwethiPosition) -> View:
        return show.view(self.table, pos)

    def render(self, pos: AwethiPosition) -> str:
        return show.render(self.table, pos)

    def standing(self, pos: AwethiPosition) -> str:
        return end.standing(self.table, pos)

    def place(
        self,
        pieces: Mapping[str, str],
        *,
        seat: int = 1,
        turn: str = "herd",
        group: int = 1,
        awake: bool = False,
        revealed: str = "all",
        sheltered: Mapping[int, str] | None = None,
        eaten: Mapping[int, str] | None = None,
    ) -> AwethiPosition:
        """A position for tests and examples.  ``pieces`` maps a square to codes joined by
        spaces: ``S1`` a shepherd of Shepherd1, ``c1`` ``w1`` ``b1`` an animal of
        Shepherd1's herd (``w1/2``: caught by Shepherd2), ``X`` a wolf.  Shepherds and wolves
        not placed stay in their shelter and the Lair.  ``seat`` (1-N) and ``turn`` (``herd``,
        ``shepherds``, ``wolf``) say what is due; ``revealed`` is ``all`` or the seat numbers
        whose herds are face up (``"12"``); ``sheltered`` and ``eaten`` map a seat number to
        animal letters (``{1: "cw"}``).  Raises :class:`SetupError`."""
        t = self.table
        shepherds: list[list[int]] = [[] for _ in range(t.n)]
        animals = []
        wolves: list[int] = []
        for name, codes in pieces.items():
            if name not in INDEX:
                raise SetupError(f"{name} is not a square of the board")
            square = INDEX[name]
            for code in codes.split():
                head, digits = code[0], code[1:]
                if code == "X":
                    wolves.append(square)
                    continue
                owner_text, _, catcher_text = digits.partition("/")
                if not owner_text.isdigit() or not 1 <= int(owner_text) <= t.n:
                    raise SetupError(f"{code!r} on {name}: no such piece in a game of {t.n} seats")
                owner = int(owner_text) - 1
                if head == "S":
                    shepherds[owner].append(square)
                elif head in KIND_LETTERS:
                    catcher = int(catcher_text) - 1 if catcher_text else NOT_CAUGHT
                    animals.append((square, owner, KIND_LETTERS.index(head), catcher))
                else:
                    raise SetupError(f"{code!r} on {name}: codes are S1, c1, w1, b1, w1/2 and X")
        for k, squares in enumerate(shepherds):
            if len(squares) > 4:
                raise SetupError(f"Shepherd{k + 1} has 4 shepherds, not {len(squares)}")
            squares += [t.shelters[k]] * (4 - len(squares))
        if len(wolves) > t.n:
            raise SetupError(f"there are {t.n} wolves, not {len(wolves)}")
        wolves += [LAIR] * (t.n - len(wolves))
        if len({a[0] for a in animals}) != len(animals):
            raise SetupError("two animals on one square")
        stage = ("herd", "shepherds", "wolf").index(turn)
        bits = (1 << t.n) - 1 if revealed == "all" else sum(1 << (int(c) - 1) for c in revealed)
        shelters = sheltered or {}
        eats = eaten or {}
        return AwethiPosition(
            seat=seat - 1,
            stage=stage,
            group=group,
            awake=awake or stage == WOLF_TURN,
            revealed=bits,
            shepherds=tuple(tuple(sorted(s)) for s in shepherds),
            animals=tuple(sorted(animals)),
            wolves=tuple(sorted(wolves)),
            sheltered=tuple(_counts(shelters.get(k + 1, "")) for k in range(t.n)),
            eaten=tuple(_counts(eats.get(k + 1, "")) for k in range(t.n)),
        )

    # -- turns -------------------------------------------------------------------------

    def _mover(self, pos: AwethiPosition) -> int:
        return self.table.wolves_seat if pos.stage == WOLF_TURN else pos.seat

    def to_move(self, pos: AwethiPosition) -> int | None:
        return None if end.gone_seats(self.table, pos) else self._mover(pos)

    def move_number(self, pos: AwethiPosition) -> MoveNumber:
        dots = 1 if pos.stage == HERD_TURN else 3
        return MoveNumber(pos.group, dots, True, self._mover(pos))

    def chance(self, pos: AwethiPosition) -> Chance | None:
        return None if end.gone_seats(self.table, pos) else _CHANCES[pos.stage]

    def _roll(self, pos: AwethiPosition, roll: Sequence[int]) -> tuple[int, ...]:
        faces = _CHANCES[pos.stage].faces
        dice = tuple(roll)
        if len(dice) != len(faces) or not all(
            1 <= d <= f for d, f in zip(dice, faces, strict=True)
        ):
            raise ValueError(f"{dice} is not a roll of {_CHANCES[pos.stage].text()}")
        return dice

    def legal_moves(
        self, pos: AwethiPosition, roll: Sequence[int] | None = None
    ) -> Sequence[AwethiMove]:
        if roll is None or end.gone_seats(self.table, pos):
            return ()
        dice = self._roll(pos, roll)
        if self._board is not None:
            moves: Sequence[AwethiMove] | None = self._board.moves(pos, dice)
            if moves is not None:
                return moves
        if pos.stage == HERD_TURN:
            return (HerdMove(dice[0]),)
        if pos.stage == SHEPHERDS_TURN:
            return tuple(build_shepherds(self.table, pos, dice, o, None)[0] for o in "es")
        return tuple(wolf_moves(self.table, pos, (dice[0], dice[1])))

    def sample_move(
        self, pos: AwethiPosition, roll: Sequence[int] | None, rng: random.Random
    ) -> AwethiMove | None:
        if roll is None or end.gone_seats(self.table, pos):
            return None
        dice = self._roll(pos, roll)
        if self._board is not None:
            move: AwethiMove | None = self._board.sample(pos, dice, rng)
            if move is not None:
                return move
        if pos.stage == HERD_TURN:
            return HerdMove(dice[0])
        if pos.stage == SHEPHERDS_TURN:
            return sample_shepherds(self.table, pos, dice, rng)
        return sample_wolf(self.table, pos, (dice[0], dice[1]), rng)

    def play_randomly(
        self, pos: AwethiPosition, rng: random.Random, max_moves: int, max_turns: int
    ) -> Played[AwethiPosition]:
        """A random game from ``pos`` (:func:`zrec.rules.loops.play_randomly`), native
        with the kernel: the same game, draw for draw, as the loop over
        :meth:`sample_move` and :meth:`apply`."""
        if self._board is not None:
            played = self._board.play(pos, rng, max_moves, max_turns)
            if played is not None:
                end_pos, moves, turns, removed, stalled = played
                return Played(end_pos, moves, turns, removed, stalled)
        return reference_play(self, pos, rng, max_moves, max_turns)

    def play_line(
        self,
        pos: AwethiPosition,
        turns: Sequence[Turn],
        numbers: Sequence[int | None],
        dots: Sequence[int],
        keys: bool = False,
    ) -> Run:
        """A written line played while nothing in it needs a word
        (:func:`zrec.rules.lines.play_line`), native with the kernel: the kernel plays
        the turns written as they commonly are and hands each other turn back, which is
        played here as :func:`~zrec.rules.lines.reference_line` plays it (every turn is
        a ply).  A line held as its words (:class:`~zrec.moves.WrittenTurns`, a line
        with dice as the reader holds it) is read by the kernel from the words, and a
        turn is made only where the kernel hands one back.  The keys an import asks for
        are the reference's."""
        board = self._board
        if board is None or keys or not (type(numbers) is list and type(dots) is list):
            return reference_line(self, pos, turns, numbers, dots, keys)
        if type(turns) is WrittenTurns:  # the kernel reads the words, no Turn is made
            words, bounds = turns.words, turns.bounds

            def line(pos: AwethiPosition, i: int) -> Any:
                return board.words(pos, words, bounds, numbers, dots, i)

        elif type(turns) is list:

            def line(pos: AwethiPosition, i: int) -> Any:
                return board.line(pos, turns, numbers, dots, i)

        else:
            return reference_line(self, pos, turns, numbers, dots, keys)
        total = len(turns)
        i = 0
        while True:
            got = line(pos, i)
            if got is None:  # a position the kernel does not hold
                rest = reference_line(self, pos, turns[i:], numbers[i:], dots[i:])
                return Run(i + rest.played, rest.position, i + rest.turns)
            i, pos = got
            if i >= total:
                return Run(total, pos, total)
            one = reference_line(self, pos, turns[i : i + 1], numbers[i : i + 1], dots[i : i + 1])
            if not one.played:
                return Run(i, pos, i)
            i += 1
            pos = one.position

    def resolve(self, pos: AwethiPosition, turn: Turn) -> Resolved[AwethiMove]:
        t = self.table
        if len({a[1] for a in pos.animals}) != t.n:  # a herd is gone: maybe the end
            over = end.outcome(t, pos)
            if over is not None:
                raise IllegalMoveError(f"the game is over: {over.reason}", (), "game-over")
        stage = pos.stage
        written = written_kind(turn, stage)
        if written != stage:
            raise IllegalMoveError(order_reason(t, pos, written), (), "turn-order")
        check_dice(stage, turn.dice)
        if stage == HERD_TURN:
            return _HERD_READ[read_herd(turn).die]
        if stage == SHEPHERDS_TURN:
            move, board = play_shepherds(t, pos, turn)
            self._read = (pos, move, board_after(board))
            return Resolved(move)
        return Resolved(read_wolf(t, pos, turn))

    def apply(
        self, pos: AwethiPosition, move: AwethiMove
    ) -> tuple[AwethiPosition, tuple[Event, ...]]:
        if isinstance(move, HerdMove):
            return apply_herd(self.table, pos, move)
        if isinstance(move, ShepherdsMove):
            read = self._read
            if read[1] is move and read[0] is pos:
                return read[2]
            return apply_shepherds(self.table, pos, move)
        return apply_wolf(self.table, pos, move)

    def spell(self, pos: AwethiPosition, move: AwethiMove) -> Turn:
        if isinstance(move, HerdMove):
            return spell_herd(move)
        if isinstance(move, ShepherdsMove):
            return spell_shepherds(move)
        return spell_wolf(move)

    def routes(self, pos: AwethiPosition, move: AwethiMove) -> tuple[tuple[str, ...], ...]:
        if isinstance(move, HerdMove):
            return herd_routes(self.table, pos, move)
        if isinstance(move, ShepherdsMove):
            return tuple(tuple(NAME[s] for s in path) for path in move.paths)
        return (tuple(NAME[s] for s in move.path),) if move.path else ()

    # -- the board -----------------------------------------------------------------------

    def click_table(
        self, pos: AwethiPosition, roll: Sequence[int] | None = None
    ) -> ClickTable[AwethiMove] | None:
        """The herd's turn: no click (a button); a wolf turn: the wolf's square, then
        each square of its path; the shepherds' turn: too many forms to list
        (:mod:`.clicks` builds it step by step)."""
        shepherds = pos.stage == SHEPHERDS_TURN and roll is not None
        if shepherds and not end.gone_seats(self.table, pos):
            return None
        return ClickTable([
            Entry(m, self.spell(pos, m).text(), () if isinstance(m, HerdMove) else
                  sum(self.routes(pos, m), ()))
            for m in self.legal_moves(pos, roll)
        ])

    def clicks(
        self, pos: AwethiPosition, roll: Sequence[int] | None, move: AwethiMove
    ) -> tuple[str, ...]:
        table = self.click_table(pos, roll)
        if table is not None:
            return table.clicks_of(move)
        if not isinstance(move, ShepherdsMove):
            raise KeyError(move)
        return shepherds_clicks(move)

    def choices(
        self, pos: AwethiPosition, roll: Sequence[int] | None, clicks: Sequence[str]
    ) -> Choices[AwethiMove]:
        table = self.click_table(pos, roll)
        if table is not None:
            return table.choices(clicks)
        assert roll is not None
        return shepherds_choices(self.table, pos, self._roll(pos, roll), clicks)

    # -- the end -----------------------------------------------------------------------

    def outcome(self, pos: AwethiPosition) -> Outcome | None:
        return end.outcome(self.table, pos)

    def judge_end(
        self, pos: AwethiPosition, result: str, tags: Mapping[str, str]
    ) -> list[Finding]:
        return end.judge_end(self.table, pos, result, tags)


def _counts(text: str) -> Counts:
    for ch in text:
        if ch not in KIND_LETTERS:
            raise SetupError(f"{ch!r} is not an animal letter (c, w, b)")
    return (text.count("c"), text.count("w"), text.count("b"))
