"""Rules of Awithlaknakwe (Stone Warriors), as docs/rules.md (Stone Warriors) reads them.

White (south) owns the home arm ``e1``-``j1`` and moves towards rank 14; Black (north)
owns ``e14``-``j14``.  Each side has 6 warriors, on its home arm at the start, and a
priest that starts off the board.  A turn moves one piece one square to an empty
square: a warrior forward or sideways, a priest to any neighbour.  Custodian capture is
active only: after a move, every enemy piece next to the moved piece with a friendly
piece just beyond it on the same line is removed.  ``[Ruleset "culin"]`` makes warriors
step diagonally forward only, the priest sideways, forward or diagonally forward, and
captures run along diagonals only.  This module holds the game and the engine: how
pieces move and what a move does.  The board is in :mod:`.board`, positions and moves
in :mod:`.position`, the Setup string in :mod:`.setup`, the move tables of a rule set
in :mod:`.tables`, the score and the end in :mod:`.end`, the pictures in :mod:`.view`.
The engine reads a written move (``resolve``: a fast path for a well-formed legal step,
its captures written in full and in order, then a checked path that says what is
wrong) and writes one (``spell``): captures by file, then rank (``f5-f6xf7xg6``);
written in any order they are accepted, and left out they are accepted with a
warning; the priest's entry is written as a drop, ``P@g14``.  This module is past 500
lines because the engine is one piece: its moves, made, read and written, over the
same tables and positions (the reading was a mixin of its own once, declaring the
engine's attributes).  Where the compiled kernel
(``_kernel.c``, :mod:`zrec.rules.kernel`) is loaded, the engine hands it the legal
moves, the self-play move, perft, random games, written lines (``play_line``) and
keys; this module stays the reference it is tested against
(tests/rules/test_kernel_stonewarriors.py, test_kernel_stonewarriors_lines.py).

Readings fixed here where docs/rules.md leaves a detail open:

- The priest's entry is a move of its own, ``P@g14`` (a drop), made by the side that
  lost its first piece; it is not a turn: the side to move, the move number and the
  run of passes stay as they were, and the same side then plays its normal turn.  While
  an entry is due and a square of the home arm is empty, the entry drops are the only
  legal moves; when the arm is full the side plays normally and the entry waits for the
  start of a later turn of its own.  An entry is a placement, not a move: it never
  captures.
- The end test runs on every position, for both sides: a capture can leave the *victim*
  with all its remaining pieces on the enemy arm, which ends the game before its priest
  enters.  A priest counts as a remaining piece only once it is on the board.  A side
  with no piece on the board meets the test vacuously: the game ends.
- A side passes (``--``) only when it has no legal move.  Two passes in a row end the
  game; an entry between them does not break the run (a placement cannot unblock
  anything).  Once the game is over there are no legal moves.
- Captures are counted, not stored: a side has lost ``7 - its pieces on the board - (1
  if its priest is still off the board)``.  So a Setup whose priest has entered while
  all 6 of its warriors stand is refused: the priest enters only after a first loss.
- Move numbers go by pairs of turns, as in chess, the ``First`` side opening each
  number; passes are turns, entries are not.  A Setup position is move 1 of the side to
  move.  Captures are written by file, then rank (``f5-f6xf7xg6``); written in any
  order they are accepted, and left out they are accepted with a warning.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from zrec.moves import PASS, Action, Turn
from zrec.rules import kernel
from zrec.rules.base import (
    Event,
    Finding,
    IllegalMoveError,
    InputError,
    InputSpec,
    MoveNumber,
    OptionConflict,
    OptionSpec,
    Outcome,
    Resolved,
    Setting,
    SetupError,
    View,
    choose,
    readings_table,
)
from zrec.rules.clicking import ClickTable, Entry
from zrec.rules.defaults import BaseEngine
from zrec.rules.lines import Run, reference_line
from zrec.rules.loops import Played, reference_counts, reference_play
from zrec.rules.ludii import LudiiBoard
from zrec.rules.stonewarriors import end, setup
from zrec.rules.stonewarriors import view as show
from zrec.rules.stonewarriors._fast import new_position
from zrec.rules.stonewarriors.board import (
    ARMS,
    BIT,
    BOARD,
    CODES,
    DIRECTION,
    EMPTY_CELLS,
    HOME,
    HOME_MASK,
    INDEX,
    NAME,
    OFF_TARGET,
    OWN,
    SIDES,
    SQUARE_KINDS,
    SQUARES,
    STEP,
    WIDTH,
    arm_text,
    board_text,
    listing,
    squares_of,
)
from zrec.rules.stonewarriors.ludii import LUDII_BOARD
from zrec.rules.stonewarriors.position import PASS_MOVE, StoneMove, StonePosition, key
from zrec.rules.stonewarriors.tables import BACKWARD, move_dirs, tables
from zrec.rules.values import DRIVE, numbered

if TYPE_CHECKING:
    from zrec.rules.stonewarriors.teams import TeamStoneWarriors

__all__ = ["STONE_WARRIORS", "StoneMove", "StonePosition", "StoneWarriors", "StoneWarriorsGame"]

TITLE = "Awithlaknakwe (Stone Warriors)"
#: The seats of ``[Ruleset "ludii"]`` (:mod:`.teams`, imported only for it, as it
#: makes its point board's tables when imported).
TEAM_SEATS = ("South", "West", "North", "East")
_NO_EVENTS: tuple[Event, ...] = ()


#: The separators and the vias of a step written with ``n - 2`` captures, by ``n``:
#: ``f5-f6xf7xg6``.  A step captures at most 3 pieces (not where it comes from).
_SEPS = tuple(("-",) + ("x",) * (n - 2) if n > 1 else None for n in range(6))
_VIAS = tuple((None,) * (n - 1) if n > 1 else None for n in range(6))
_OFF_TARGET_WHITE, _OFF_TARGET_BLACK = OFF_TARGET


def _captured(squares: Sequence[str], other: Sequence[str]) -> str:
    """Captured squares in words, "alone" marking one square the other list also has."""
    text = listing(squares)
    return text + " alone" if len(squares) == 1 and squares[0] in other else text


class StoneWarriors(BaseEngine[StonePosition, StoneMove]):
    """Stone Warriors with its rule options fixed: the rules engine."""

    title: str = TITLE
    seats: tuple[str, ...] = SIDES
    squares: tuple[str, ...] = SQUARES

    def __init__(self, ruleset: str = "default", first: str = "White") -> None:
        if ruleset not in ("default", "culin") or first not in SIDES:
            raise ValueError(f"unknown options: Ruleset {ruleset!r}, First {first!r}")
        self.ruleset = ruleset
        self.first = SIDES.index(first)
        culin = ruleset == "culin"
        self._dirs = {
            letter: move_dirs(culin, side, letter in "Pp")
            for side in (0, 1)
            for letter in OWN[side]
        }
        self._tables = tables(culin)
        self.options: Mapping[str, str] = MappingProxyType({"Ruleset": ruleset, "First": first})
        #: the compiled kernel's board for this rule set (``None``: the Python engine)
        self._board = self._compiled()

    def _compiled(self) -> object | None:
        """The kernel's board (:mod:`zrec.rules.kernel`) for this rule set, made from
        the engine's own tables, or ``None``."""
        compiled = kernel.load(__package__ or "")
        if compiled is None:
            return None
        lines = self._tables.lines
        board: object = compiled.Board(
            targets=self._tables.targets,
            # (victim, square beyond it) of each capture line, flattened
            lines=tuple(
                tuple(x for v, _, beyond in lines[t] for x in (v, beyond.bit_length() - 1))
                for t in range(WIDTH * WIDTH)
            ),
            homes=tuple(ARMS[HOME[side]] for side in (0, 1)),
            off_target=OFF_TARGET,
            step=STEP,
            drive=DRIVE,
            position=StonePosition,
            move=StoneMove,
            pass_move=PASS_MOVE,
            names=dict(INDEX),
        )
        return board

    def square_kind(self, square: str) -> str:
        """``"main"`` or the arm of a square (``"south"``, ``"north"``, ``"west"``,
        ``"east"``); raises ``KeyError`` for a name that is not a square."""
        return SQUARE_KINDS[square]

    # -- positions ---------------------------------------------------------------------

    def start(self) -> StonePosition:
        return setup.start_position(self.first)

    def setup(self, text: str) -> StonePosition:
        return setup.parse_setup(text, self.first)

    def setup_text(self, pos: StonePosition) -> str:
        return setup.setup_text(pos)

    def key(self, pos: StonePosition) -> bytes:
        if self._board is not None:
            native: bytes = self._board.key(pos)  # type: ignore[attr-defined]
            return native
        return key(pos)

    def view(self, pos: StonePosition) -> View:
        return View(BOARD, self.seats, show.view_pieces(pos))

    def place(
        self, pieces: Mapping[str, str], *, to_move: str = "White", priests_off: str = ""
    ) -> StonePosition:
        """A position from piece codes, as :meth:`pieces` gives them.  A priest not on the
        board is off it, unless ``priests_off`` (as in a Setup string: ``-`` for none)
        says otherwise.  Raises :class:`SetupError`."""
        if to_move not in SIDES:
            raise SetupError(f"the side to move is {to_move!r}: White or Black")
        cells = list(EMPTY_CELLS)
        letters = {code: letter for letter, code in CODES.items()}
        for square, code in pieces.items():
            if square not in INDEX or code not in letters:
                raise SetupError(f"cannot place {code!r} on {square!r}: codes W, B, WP, BP")
            cells[INDEX[square]] = letters[code]
        text = "".join(cells)
        off = priests_off or "".join(p for p in "Pp" if p not in text) or "-"
        return self.setup(f"{board_text(text)} {'wb'[SIDES.index(to_move)]} {off}")

    def pieces(self, pos: StonePosition) -> dict[str, str]:
        """Occupied squares: name -> ``W``, ``B`` (warriors), ``WP``, ``BP`` (priests)."""
        return {p.square: p.code for p in show.view_pieces(pos)}

    def material(self, pos: StonePosition) -> tuple[int, ...]:
        return pos.on_board(0), pos.on_board(1)

    def standing(self, pos: StonePosition) -> str:
        white, black = end.score(pos)
        return (
            f"White {pos.on_board(0)} pieces on the board, Black {pos.on_board(1)}; "
            f"score {white}-{black}"
        )

    def render(self, pos: StonePosition) -> str:
        return show.render(pos)

    # -- turns ---------------------------------------------------------------------------

    def to_move(self, pos: StonePosition) -> int | None:
        return None if pos.over() else pos.to_move

    def move_number(self, pos: StonePosition) -> MoveNumber:
        # An entry is not a turn: it carries no number.
        dots = 1 if pos.to_move == self.first else 3
        turn = not pos.must_enter()
        return numbered(pos.ply // 2 + 1, dots, turn, pos.to_move)

    def _steps(self, pos: StonePosition) -> Iterator[StoneMove]:
        side, priests = pos.to_move, pos.priests
        own, enemy = (pos.black, pos.white) if side else (pos.white, pos.black)
        occupied = own | enemy
        targets = self._tables.targets[side]
        captures = self._tables.captures
        for bits, priest in ((own & ~priests, 0), (own & priests, 1)):
            table = targets[priest]
            for i in squares_of(bits):
                for t in table[i]:
                    if not occupied & BIT[t]:
                        yield StoneMove("step", i, t, captures(own, enemy, t))

    def legal_moves(
        self, pos: StonePosition, roll: Sequence[int] | None = None
    ) -> Sequence[StoneMove]:
        if self._board is not None:
            moves: Sequence[StoneMove] = self._board.moves(pos)  # type: ignore[attr-defined]
            return moves
        if pos.over():
            return ()
        entries = pos.entries()
        if entries:
            return tuple(StoneMove("enter", target=i) for i in entries)
        return tuple(self._steps(pos)) or (PASS_MOVE,)

    def apply(
        self, pos: StonePosition, move: StoneMove
    ) -> tuple[StonePosition, tuple[Event, ...]]:
        # A move changes the bits of the squares it touches; the board is never copied.
        side = pos.to_move
        white, black, priests = pos.white, pos.black, pos.priests
        to_move, off, ply, passes = 1 - side, pos.priests_off, pos.ply + 1, 0
        events = _NO_EVENTS
        kind = move.kind
        if kind == "step":
            origin, target = BIT[move.origin], BIT[move.target]
            moved = origin | target
            if priests & origin:
                priests ^= moved
            if side:
                black ^= moved
            else:
                white ^= moved
            captures = move.captures
            if captures:
                gone = 0
                for c in captures:
                    gone |= BIT[c]
                if side:
                    white &= ~gone
                else:
                    black &= ~gone
                priests &= ~gone
                events = end.capture_events(pos, captures)
        elif kind == "pass":
            passes = pos.passes + 1
        else:  # the priest's entry: not a turn
            target = BIT[move.target]
            if side:
                black |= target
            else:
                white |= target
            priests |= target
            to_move, ply, passes = side, pos.ply, pos.passes
            off = (False, off[1]) if side == 0 else (off[0], False)
        after = new_position(white, black, priests, to_move, off, ply, passes)
        return after, events

    def sample_move(
        self, pos: StonePosition, roll: Sequence[int] | None, rng: random.Random
    ) -> StoneMove | None:
        if self._board is not None:
            move: StoneMove | None = self._board.sample(pos, rng)  # type: ignore[attr-defined]
            return move
        # leaning forward, most random games end by rule within 300 plies
        moves = list(self.legal_moves(pos))
        return choose(moves, rng, [self.progress(pos, m) for m in moves])

    def count_sequences(self, pos: StonePosition, depth: int) -> list[int]:
        """Perft from ``pos`` (:func:`zrec.rules.loops.count_sequences`), native with
        the kernel."""
        if self._board is None:
            return reference_counts(self, pos, depth)
        counts: list[int] = self._board.perft(pos, depth)  # type: ignore[attr-defined]
        return counts

    def play_randomly(
        self, pos: StonePosition, rng: random.Random, max_moves: int, max_turns: int
    ) -> Played[StonePosition]:
        """A random game from ``pos`` (:func:`zrec.rules.loops.play_randomly`), native
        with the kernel."""
        if self._board is None:
            return reference_play(self, pos, rng, max_moves, max_turns)
        end, moves, turns, removed, stalled = (
            self._board.play(pos, rng, max_moves, max_turns)  # type: ignore[attr-defined]
        )
        return Played(end, moves, turns, removed, stalled)

    def play_line(
        self,
        pos: StonePosition,
        turns: Sequence[Turn],
        numbers: Sequence[int | None],
        dots: Sequence[int],
        keys: bool = False,
    ) -> Run:
        """A written line played while nothing in it needs a word
        (:func:`zrec.rules.lines.play_line`), native with the kernel."""
        if self._board is None or not (
            type(turns) is list and type(numbers) is list and type(dots) is list
        ):
            return reference_line(self, pos, turns, numbers, dots, keys)
        played, after, plies, found, removals = self._board.line(  # type: ignore[attr-defined]
            pos, turns, numbers, dots, keys, self.first
        )
        return Run(played, after, plies, found, removals)

    def progress(self, pos: StonePosition, move: StoneMove) -> int:
        """Ranks gained towards the enemy home arm, and 2 for each capture."""
        if move.kind != "step":
            return 0
        gained = move.target // WIDTH - move.origin // WIDTH
        return (gained if pos.to_move == 0 else -gained) + 2 * len(move.captures)

    def routes(self, pos: StonePosition, move: StoneMove) -> tuple[tuple[str, ...], ...]:
        if move.kind == "pass":
            return ()
        if move.kind == "enter":
            return ((NAME[move.target],),)
        return ((NAME[move.origin], NAME[move.target]),)

    # -- the board -------------------------------------------------------------------------

    def click_table(
        self, pos: StonePosition, roll: Sequence[int] | None = None
    ) -> ClickTable[StoneMove]:
        """A warrior or priest, then its target; an entry its square on the home arm; a
        pass no click (a button)."""
        return ClickTable([
            Entry(m, m.text(), sum(self.routes(pos, m), ())) for m in self.legal_moves(pos)
        ])

    # -- the end -------------------------------------------------------------------------

    def score(self, pos: StonePosition) -> tuple[int, int]:
        """Points of White and Black: own pieces on the enemy home arm + pieces taken."""
        return end.score(pos)

    def outcome(self, pos: StonePosition) -> Outcome | None:
        return end.outcome(pos)

    def judge_end(self, pos: StonePosition, result: str, tags: Mapping[str, str]) -> list[Finding]:
        return end.judge_end(pos, result, tags)

    # -- moves as written: reading one (resolve) and writing one (spell) --

    def spell(self, pos: StonePosition, move: StoneMove) -> Turn:
        if move.kind == "pass":
            return Turn((PASS,))
        if move.kind == "enter":
            return Turn((Action("drop", (NAME[move.target],), piece="P"),))
        squares = (NAME[move.origin], NAME[move.target], *(NAME[c] for c in move.captures))
        n = len(squares) - 1
        return Turn((Action("path", squares, ("-",) + ("x",) * (n - 1), (None,) * n),))

    def _illegal(
        self, pos: StonePosition, reason: str, code: str = "illegal-move"
    ) -> IllegalMoveError:
        return IllegalMoveError(reason, sorted(m.text() for m in self.legal_moves(pos)), code)

    def resolve(self, pos: StonePosition, turn: Turn) -> Resolved[StoneMove]:
        # The fast path: a well-formed legal step, its captures written in full and in
        # order, is checked with the tables and the bitmasks alone.  Anything else goes
        # to _resolve_checked, which checks again in order and says what is wrong.
        actions = turn.actions
        if turn.dice is None and len(actions) == 1:
            action = actions[0]
            squares = action.squares
            n = len(squares)
            side = pos.to_move
            tables = self._tables
            found = tables.paths[side].get(squares if n == 2 else squares[:2])
            if found is not None and n < 6 and action.kind == "path":
                warrior_ok, priest_ok, origin_bit, target_bit, plain, origin, target = found
                white, black = pos.white, pos.black
                own, enemy = (black, white) if side else (white, black)
                if (
                    own & origin_bit
                    and not (white | black) & target_bit
                    and (priest_ok if pos.priests & origin_bit else warrior_ok)
                    and action.seps == _SEPS[n]
                    and action.vias == _VIAS[n]
                    # the game is not over, and no priest's entry is due now
                    and pos.passes < 2
                    and white & _OFF_TARGET_WHITE
                    and black & _OFF_TARGET_BLACK
                    and not (
                        pos.priests_off[side]
                        and own.bit_count() < 6
                        and HOME_MASK[side] & ~(white | black)
                    )
                ):
                    if not enemy & tables.victims[target]:
                        if n == 2:
                            return plain
                    else:
                        captures = tables.captures(own, enemy, target)
                        if not captures:
                            if n == 2:
                                return plain
                        elif squares[2:] == tuple(NAME[c] for c in captures):
                            return Resolved(StoneMove("step", origin, target, captures))
        return self._resolve_checked(pos, turn)

    def _resolve_checked(self, pos: StonePosition, turn: Turn) -> Resolved[StoneMove]:
        over = end.outcome(pos)
        if over is not None:
            raise IllegalMoveError(f"the game is over: {over.reason}", (), "game-over")
        if turn.dice is not None:
            raise self._illegal(pos, "Stone Warriors is played without dice: write no roll")
        if len(turn.actions) != 1:
            raise self._illegal(pos, "write one move at a time (an entry is a move of its own)")
        action, side = turn.actions[0], SIDES[pos.to_move]
        for square in action.squares:
            if square not in INDEX:
                raise self._illegal(pos, f"{square} is not a square of the board")
        home = arm_text(HOME[pos.to_move])
        if action.kind != "drop" and pos.entries():
            reason = (
                f"the priest must enter now: place it on an empty square of your home arm ({home})"
            )
            raise self._illegal(pos, reason)
        if action.kind == "pass":
            if self.legal_moves(pos) != (PASS_MOVE,):
                raise self._illegal(pos, f"{side} cannot pass: it has legal moves")
            return Resolved(PASS_MOVE)
        if action.kind == "drop":
            return Resolved(self._resolve_entry(pos, action, side, home), turn=False)
        if action.kind == "path":
            return self._resolve_step(pos, action, side)
        raise self._illegal(pos, f"{action.text()} is not a move of Stone Warriors")

    def _resolve_entry(
        self, pos: StonePosition, action: Action, side: str, home: str
    ) -> StoneMove:
        if len(action.squares) != 1:
            raise self._illegal(pos, "an entry names one square, e.g. P@g14")
        square = action.squares[0]
        if action.piece != "P":
            raise self._illegal(pos, f"only the priest is placed on the board: write P@{square}")
        if not pos.priests_off[pos.to_move]:
            raise self._illegal(pos, f"{side}'s priest has already entered: it enters only once")
        if not pos.entry_due(pos.to_move):
            reason = f"the priest is not in play yet: it enters when {side} loses a first piece"
            raise self._illegal(pos, reason)
        target = INDEX[square]
        if target not in ARMS[HOME[pos.to_move]]:
            reason = f"the priest enters on {side}'s home arm ({home}), not on {square}"
            raise self._illegal(pos, reason)
        if not pos.entries():
            reason = (
                f"every square of {side}'s home arm ({home}) is taken: the priest enters at "
                "the start of a later turn, once one is empty"
            )
            raise self._illegal(pos, reason)
        if (pos.white | pos.black) & BIT[target]:
            raise self._illegal(pos, f"{square} is not empty")
        return StoneMove("enter", target=target)

    def _resolve_step(self, pos: StonePosition, action: Action, side: str) -> Resolved[StoneMove]:
        squares, seps = action.squares, action.seps
        if len(squares) < 2 or len(seps) != len(squares) - 1:
            raise self._illegal(pos, "a move names the square it leaves and the one it reaches")
        if any(via is not None for via in action.vias):
            raise self._illegal(pos, "pieces never jump in Stone Warriors: write no (square)")
        step = f"{squares[0]}-{squares[1]}"
        if seps[0] != "-" or any(sep != "x" for sep in seps[1:]):
            reason = f"write the step with '-' ({step}), then each captured square after 'x'"
            raise self._illegal(pos, reason)
        origin, target = INDEX[squares[0]], INDEX[squares[1]]
        letter = pos.letter(origin)
        if letter not in OWN[pos.to_move]:
            raise self._illegal(pos, f"there is no {side} piece on {squares[0]}")
        d = DIRECTION.get((origin, target))
        if d is None:
            reason = (
                f"a piece moves one square at a time: {squares[1]} is not next to {squares[0]}"
            )
            raise self._illegal(pos, reason)
        if d not in self._dirs[letter]:
            raise self._illegal(pos, self._why_not(letter, d))
        if (pos.white | pos.black) & BIT[target]:
            raise self._illegal(pos, f"{squares[1]} is not empty")
        own, enemy = pos.pieces_of(pos.to_move), pos.pieces_of(1 - pos.to_move)
        move = StoneMove("step", origin, target, self._tables.captures(own, enemy, target))
        actual, written = [NAME[c] for c in move.captures], list(squares[2:])
        if actual and not written:
            message = f"{step} captures {listing(actual)}; write {move.text()}"
            return Resolved(move, (Finding("missing-captures", "warning", message),))
        if sorted(written) != sorted(actual):
            reason = (
                f"{step} captures {_captured(actual, written)}, not {_captured(written, actual)}"
            )
            raise self._illegal(pos, reason, "wrong-captures")
        return Resolved(move)

    def _why_not(self, letter: str, d: int) -> str:
        """Why a piece (by its letter) may not step in direction ``d``."""
        if d in BACKWARD[0 if letter in OWN[0] else 1]:
            if letter in "Pp":
                return "under the Culin rules the priest never moves backward"
            return "a warrior never moves backward"
        if self.ruleset == "culin":
            return "under the Culin rules a warrior moves only diagonally forward"
        return "a warrior moves only forward or sideways"


OPTIONS: Mapping[str, OptionSpec] = MappingProxyType(
    {
        "Ruleset": OptionSpec(
            "default",
            ("default", "culin", "ludii"),
            "default: the modern rules summary (warriors step forward or sideways, the "
            "priest to any neighbour, custodian capture along ranks and files); culin: "
            "Culin 1907 as Wikipedia summarises it (warriors step diagonally forward, the "
            "priest sideways, forward or diagonally forward, custodian capture along "
            "diagonals); ludii: Ludii's Awithlaknakwe (four seats South, West, North, East "
            "in two teams on the points of the board, warriors stepping diagonally "
            "forward, custodial capture along every line, the large piece placed on the "
            "first captured point, only captures score)",
        ),
        "First": OptionSpec("White", ("White", "Black"), "the side that makes the first move"),
    }
)


class StoneWarriorsGame:
    """Awithlaknakwe (Stone Warriors): its names, seats, rule options and engine.

    Its seats are White and Black (the default and Culin rule sets) and South, West,
    North and East (``[Ruleset "ludii"]``, :mod:`.teams`)."""

    name: str = "stone-warriors"
    aliases: tuple[str, ...] = ("awithlaknakwe", "stonewarriors", "game-of-the-stone-warriors")
    title: str = TITLE
    seats: tuple[str, ...] = SIDES + TEAM_SEATS
    options: Mapping[str, OptionSpec] = OPTIONS
    #: No setup tags beyond ``Setup`` and the options.
    inputs: Mapping[str, InputSpec] = MappingProxyType({})
    #: The named readings (``[Reading "ludii"]``), each option at its value: Ludii's
    #: Awithlaknakwe.lud is the rule set "ludii".
    readings: Mapping[str, Mapping[str, str]] = readings_table(
        OPTIONS, {"ludii": {"Ruleset": "ludii"}}
    )
    #: How Ludii's .lud of the game reads in zrec (zrec.rules.ludii).
    ludii: LudiiBoard = LUDII_BOARD

    def random_tags(self, seats: int | None, rng: random.Random) -> dict[str, str]:
        if seats == 4:
            return {"Ruleset": "ludii"}
        if seats not in (None, 2):
            raise InputError(
                f"{self.title} is played by 2 sides, or by 4 seats under Ludii's rules "
                f"(Ruleset ludii), not {seats}",
                code="bad-seats",
            )
        return {}

    def engine_for(self, setting: Setting) -> StoneWarriors | TeamStoneWarriors:
        options = setting.options
        return _engine(
            options.get("Ruleset", "default"), options.get("First", "White"),
            kernel.switched_on(),
        )


@cache
def _engine(ruleset: str, first: str, compiled: bool) -> StoneWarriors | TeamStoneWarriors:
    """One engine per choice of options, made once (and once more with the kernel
    switched off: ``compiled`` is :func:`zrec.rules.kernel.switched_on` when it is
    made)."""
    if ruleset == "ludii":
        if first != "White":
            raise OptionConflict(
                "First", first, "Ruleset", "ludii",
                "under Ludii's rules South always moves first (the First tag chooses "
                "between White and Black, which this rule set does not have)",
            )
        from zrec.rules.stonewarriors.teams import TeamStoneWarriors

        return TeamStoneWarriors(TITLE, {"Ruleset": ruleset, "First": first})
    return StoneWarriors(ruleset, first)


STONE_WARRIORS = StoneWarriorsGame()
