"""Rules of Awithlaknakwe (Stone Warriors), as RULINGS.md section 2 reads seed 003.

White (south) owns the home arm ``e1``-``j1`` and moves towards rank 14; Black (north)
owns ``e14``-``j14``.  Each side has 6 warriors, on its home arm at the start, and a
priest that starts off the board.  A turn moves one piece one square to an empty
square: a warrior forward or sideways, a priest to any neighbour.  Custodian capture is
active only: after a move, every enemy piece next to the moved piece with a friendly
piece just beyond it on the same line is removed.  ``[Ruleset "culin"]`` makes warriors
step diagonally forward only, the priest sideways, forward or diagonally forward, and
captures run along diagonals only.  This module holds the game, how pieces move and how
written moves are read; the board, positions, Setup string, key, events, score, end and
view are in :mod:`zrec.rules.stonewarriors.board`.

Readings fixed here where the rulings leave a detail open:

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
from typing import NamedTuple

from zrec.moves import PASS, Action, Turn
from zrec.rules.base import (
    Chance,
    Event,
    Finding,
    IllegalMoveError,
    InputError,
    InputSpec,
    MoveNumber,
    OptionSpec,
    Outcome,
    Resolved,
    Setting,
    SetupError,
    View,
    choose,
)
from zrec.rules.stonewarriors import board
from zrec.rules.stonewarriors.board import (
    ARMS,
    BIT,
    EMPTY_CELLS,
    HOME,
    HOME_MASK,
    INDEX,
    NAME,
    OWN,
    PASS_MOVE,
    SIDES,
    STEP,
    StoneMove,
    StonePosition,
    listing,
    squares_of,
)

__all__ = ["STONE_WARRIORS", "StoneMove", "StonePosition", "StoneWarriors", "StoneWarriorsGame"]

TITLE = "Awithlaknakwe (Stone Warriors)"
_NO_EVENTS: tuple[Event, ...] = ()
_new_number = tuple.__new__  # MoveNumber without its Python-level __new__ (hot path)
#: The separators and the vias of a step written with ``n - 2`` captures, by ``n``:
#: ``f5-f6xf7xg6``.  A step captures at most 3 pieces (not where it comes from).
_SEPS = tuple(("-",) + ("x",) * (n - 2) if n > 1 else None for n in range(6))
_VIAS = tuple((None,) * (n - 1) if n > 1 else None for n in range(6))
_OFF_TARGET_WHITE, _OFF_TARGET_BLACK = board.OFF_TARGET
# A position made without its __init__ (see apply: this runs once per ply).
_new_position = object.__new__
_set_white, _set_black, _set_priests, _set_to_move, _set_priests_off, _set_ply, _set_passes = (
    board.SET_SLOTS
)
#: A step as the engine looks it up (see :class:`_Tables`).
_Path = tuple[bool, bool, int, int, Resolved[StoneMove], int, int]

_BACKWARD = (frozenset((board.S, board.SE, board.SW)), frozenset((board.N, board.NE, board.NW)))


def _move_dirs(culin: bool, side: int, priest: bool) -> tuple[int, ...]:
    """The directions a piece may step in."""
    forward, diagonals = (
        (board.N, (board.NW, board.NE)) if side == 0 else (board.S, (board.SW, board.SE))
    )
    if culin:
        return (forward, board.E, board.W, *diagonals) if priest else diagonals
    return tuple(range(8)) if priest else (forward, board.E, board.W)


def _captured(squares: Sequence[str], other: Sequence[str]) -> str:
    """Captured squares in words, "alone" marking one square the other list also has."""
    text = listing(squares)
    return text + " alone" if len(squares) == 1 and squares[0] in other else text


class _Tables(NamedTuple):
    """What the engine looks up for a rule set (made once per rule set)."""

    #: ``targets[side][priest][i]``: the squares a piece on ``i`` may step to, in the
    #: order of its directions (the order of the legal moves).
    targets: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]
    #: ``lines[t]``: (victim, its bit, the bit beyond it) for every line along which a
    #: piece arriving on ``t`` may capture, victims by file then rank (the written
    #: order).
    lines: tuple[tuple[tuple[int, int, int], ...], ...]
    #: ``victims[t]``: the bits of those victims, for a quick test.
    victims: tuple[int, ...]
    #: ``paths[side][(from, to)]``: for each step by square names, whether a warrior
    #: and whether the priest of the side may make it, the bits of its squares, the
    #: step as resolved when it captures nothing, and its squares.
    paths: tuple[dict[tuple[str, ...], _Path], ...]


@cache
def _tables(culin: bool) -> _Tables:
    """The tables of the default rule set or, ``culin``, of the Culin one."""
    points = range(board.WIDTH * board.WIDTH)
    targets = tuple(
        tuple(
            tuple(
                tuple(STEP[d][i] for d in _move_dirs(culin, side, priest) if STEP[d][i] >= 0)
                for i in points
            )
            for priest in (False, True)
        )
        for side in (0, 1)
    )
    lines = []
    for t in points:
        found = []
        for d in board.DIAGONAL if culin else board.ORTHOGONAL:
            victim = STEP[d][t]
            beyond = STEP[d][victim] if victim >= 0 else -1
            if beyond >= 0:
                found.append((victim, BIT[victim], BIT[beyond]))
        lines.append(tuple(sorted(found, key=lambda line: board.sort_key(line[0]))))
    victims = tuple(sum(line[1] for line in found) for found in lines)
    steps = {
        (origin, target): Resolved(StoneMove("step", origin, target))
        for origin, target in board.DIRECTION
    }
    dirs = [[_move_dirs(culin, side, priest) for priest in (False, True)] for side in (0, 1)]
    paths: tuple[dict[tuple[str, ...], _Path], ...] = tuple(
        {
            (NAME[origin], NAME[target]): (
                d in dirs[side][0],
                d in dirs[side][1],
                BIT[origin],
                BIT[target],
                steps[origin, target],
                origin,
                target,
            )
            for (origin, target), d in board.DIRECTION.items()
        }
        for side in (0, 1)
    )
    return _Tables(targets, tuple(lines), victims, paths)


class StoneWarriors:
    """Stone Warriors with its rule options fixed: the rules engine."""

    title: str = TITLE
    seats: tuple[str, ...] = SIDES
    squares: tuple[str, ...] = board.SQUARES

    def __init__(self, ruleset: str = "default", first: str = "White") -> None:
        if ruleset not in OPTIONS["Ruleset"].values or first not in SIDES:
            raise ValueError(f"unknown options: Ruleset {ruleset!r}, First {first!r}")
        self.ruleset = ruleset
        self.first = SIDES.index(first)
        culin = ruleset == "culin"
        self._dirs = {
            letter: _move_dirs(culin, side, letter in "Pp")
            for side in (0, 1)
            for letter in OWN[side]
        }
        self._targets, self._lines, self._victims, self._paths = _tables(culin)
        self.options: Mapping[str, str] = MappingProxyType({"Ruleset": ruleset, "First": first})

    def square_kind(self, square: str) -> str:
        """``"main"`` or the arm of a square (``"south"``, ``"north"``, ``"west"``,
        ``"east"``); raises ``KeyError`` for a name that is not a square."""
        return board.SQUARE_KINDS[square]

    # -- positions ---------------------------------------------------------------------

    def start(self) -> StonePosition:
        return board.start_position(self.first)

    def setup(self, text: str) -> StonePosition:
        return board.parse_setup(text, self.first)

    def setup_text(self, pos: StonePosition) -> str:
        return board.setup_text(pos)

    def key(self, pos: StonePosition) -> bytes:
        return board.key(pos)

    def view(self, pos: StonePosition) -> View:
        return View(board.BOARD, self.seats, board.view_pieces(pos))

    def place(
        self, pieces: Mapping[str, str], *, to_move: str = "White", priests_off: str = ""
    ) -> StonePosition:
        """A position from piece codes, as :meth:`pieces` gives them.  A priest not on the
        board is off it, unless ``priests_off`` (as in a Setup string: ``-`` for none)
        says otherwise.  Raises :class:`SetupError`."""
        if to_move not in SIDES:
            raise SetupError(f"the side to move is {to_move!r}: White or Black")
        cells = list(EMPTY_CELLS)
        letters = {code: letter for letter, code in board.CODES.items()}
        for square, code in pieces.items():
            if square not in INDEX or code not in letters:
                raise SetupError(f"cannot place {code!r} on {square!r}: codes W, B, WP, BP")
            cells[INDEX[square]] = letters[code]
        text = "".join(cells)
        off = priests_off or "".join(p for p in "Pp" if p not in text) or "-"
        return self.setup(f"{board.board_text(text)} {'wb'[SIDES.index(to_move)]} {off}")

    def pieces(self, pos: StonePosition) -> dict[str, str]:
        """Occupied squares: name -> ``W``, ``B`` (warriors), ``WP``, ``BP`` (priests)."""
        return {p.square: p.code for p in board.view_pieces(pos)}

    def material(self, pos: StonePosition) -> tuple[int, ...]:
        return pos.on_board(0), pos.on_board(1)

    def standing(self, pos: StonePosition) -> str:
        white, black = board.score(pos)
        return (
            f"White {pos.on_board(0)} pieces on the board, Black {pos.on_board(1)}; "
            f"score {white}-{black}"
        )

    def render(self, pos: StonePosition) -> str:
        return board.render(pos)

    # -- turns ---------------------------------------------------------------------------

    def to_move(self, pos: StonePosition) -> int | None:
        return None if pos.over() else pos.to_move

    def move_number(self, pos: StonePosition) -> MoveNumber:
        # An entry is not a turn: it carries no number.
        dots = 1 if pos.to_move == self.first else 3
        turn = not pos.must_enter()
        return _new_number(MoveNumber, (pos.ply // 2 + 1, dots, turn, pos.to_move))

    def chance(self, pos: StonePosition) -> Chance | None:
        return None

    def _captures(self, own: int, enemy: int, target: int) -> tuple[int, ...]:
        """What a piece arriving on ``target`` captures, ``own`` and ``enemy`` the
        pieces of its side and of the other (by file, then rank)."""
        if not enemy & self._victims[target]:
            return ()
        return tuple(
            victim
            for victim, victim_bit, beyond_bit in self._lines[target]
            if enemy & victim_bit and own & beyond_bit
        )

    def _steps(self, pos: StonePosition) -> Iterator[StoneMove]:
        side, priests = pos.to_move, pos.priests
        own, enemy = (pos.black, pos.white) if side else (pos.white, pos.black)
        occupied = own | enemy
        targets = self._targets[side]
        for bits, priest in ((own & ~priests, 0), (own & priests, 1)):
            table = targets[priest]
            for i in squares_of(bits):
                for t in table[i]:
                    if not occupied & BIT[t]:
                        yield StoneMove("step", i, t, self._captures(own, enemy, t))

    def legal_moves(
        self, pos: StonePosition, roll: Sequence[int] | None = None
    ) -> Sequence[StoneMove]:
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
                events = board.capture_events(pos, captures)
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
        after = _new_position(StonePosition)
        _set_white(after, white)
        _set_black(after, black)
        _set_priests(after, priests)
        _set_to_move(after, to_move)
        _set_priests_off(after, off)
        _set_ply(after, ply)
        _set_passes(after, passes)
        return after, events

    def sample_move(
        self, pos: StonePosition, roll: Sequence[int] | None, rng: random.Random
    ) -> StoneMove | None:
        # leaning forward, most random games end by rule within 300 plies
        moves = list(self.legal_moves(pos))
        return choose(moves, rng, [self.progress(pos, m) for m in moves])

    def progress(self, pos: StonePosition, move: StoneMove) -> int:
        """Ranks gained towards the enemy home arm, and 2 for each capture."""
        if move.kind != "step":
            return 0
        gained = move.target // board.WIDTH - move.origin // board.WIDTH
        return (gained if pos.to_move == 0 else -gained) + 2 * len(move.captures)

    def routes(self, pos: StonePosition, move: StoneMove) -> tuple[tuple[str, ...], ...]:
        if move.kind == "pass":
            return ()
        if move.kind == "enter":
            return ((NAME[move.target],),)
        return ((NAME[move.origin], NAME[move.target]),)

    # -- the end -------------------------------------------------------------------------

    def score(self, pos: StonePosition) -> tuple[int, int]:
        """Points of White and Black: own pieces on the enemy home arm + pieces taken."""
        return board.score(pos)

    def outcome(self, pos: StonePosition) -> Outcome | None:
        return board.outcome(pos)

    def judge_end(self, pos: StonePosition, result: str, tags: Mapping[str, str]) -> list[Finding]:
        return board.judge_end(pos, result, tags)

    # -- written moves -------------------------------------------------------------------

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
            found = self._paths[side].get(squares if n == 2 else squares[:2])
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
                    if not enemy & self._victims[target]:
                        if n == 2:
                            return plain
                    else:
                        captures = self._captures(own, enemy, target)
                        if not captures:
                            if n == 2:
                                return plain
                        elif squares[2:] == tuple(NAME[c] for c in captures):
                            return Resolved(StoneMove("step", origin, target, captures))
        return self._resolve_checked(pos, turn)

    def _resolve_checked(self, pos: StonePosition, turn: Turn) -> Resolved[StoneMove]:
        end = board.outcome(pos)
        if end is not None:
            raise IllegalMoveError(f"the game is over: {end.reason}", (), "game-over")
        if turn.dice is not None:
            raise self._illegal(pos, "Stone Warriors is played without dice: write no roll")
        if len(turn.actions) != 1:
            raise self._illegal(pos, "write one move at a time (an entry is a move of its own)")
        action, side = turn.actions[0], SIDES[pos.to_move]
        for square in action.squares:
            if square not in INDEX:
                raise self._illegal(pos, f"{square} is not a square of the board")
        home = board.arm_text(HOME[pos.to_move])
        if action.kind != "drop" and pos.entries():
            reason = (
                f"the priest must enter now: place it on an empty square of your home arm ({home})"
            )
            raise self._illegal(pos, reason)
        if action.kind == "pass":
            if next(self._steps(pos), None) is not None:
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
        d = board.DIRECTION.get((origin, target))
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
        move = StoneMove("step", origin, target, self._captures(own, enemy, target))
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
        if d in _BACKWARD[0 if letter in OWN[0] else 1]:
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
            ("default", "culin"),
            "default: seed 003 (warriors step forward or sideways, the priest to any "
            "neighbour, custodian capture along ranks and files); culin: Culin 1907 as "
            "Wikipedia summarises it (warriors step diagonally forward, the priest sideways, "
            "forward or diagonally forward, custodian capture along diagonals)",
        ),
        "First": OptionSpec("White", ("White", "Black"), "the side that makes the first move"),
    }
)


class StoneWarriorsGame:
    """Awithlaknakwe (Stone Warriors): its names, seats, rule options and engine."""

    name: str = "stone-warriors"
    aliases: tuple[str, ...] = ("awithlaknakwe", "stonewarriors", "game-of-the-stone-warriors")
    title: str = TITLE
    seats: tuple[str, ...] = SIDES
    options: Mapping[str, OptionSpec] = OPTIONS
    #: No setup tags beyond ``Setup`` and the options.
    inputs: Mapping[str, InputSpec] = MappingProxyType({})

    def random_tags(self, seats: int | None, rng: random.Random) -> dict[str, str]:
        if seats not in (None, 2):
            raise InputError(f"{self.title} is played by 2 sides, not {seats}", code="bad-seats")
        return {}

    def engine_for(self, setting: Setting) -> StoneWarriors:
        options = setting.options
        return _engine(options.get("Ruleset", "default"), options.get("First", "White"))


@cache
def _engine(ruleset: str, first: str) -> StoneWarriors:
    """One engine per choice of options, made once."""
    return StoneWarriors(ruleset, first)


STONE_WARRIORS = StoneWarriorsGame()
