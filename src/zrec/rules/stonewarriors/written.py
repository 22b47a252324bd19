"""Stone Warriors moves as written: reading a written move and writing one.

:class:`WrittenMoves` is the part of the engine (:class:`.rules.StoneWarriors`) that
reads a written move (``resolve``: a fast path for a well-formed legal step, its
captures written in full and in order, then a checked path that says what is wrong)
and writes one (``spell``).  Captures are written by file, then rank
(``f5-f6xf7xg6``); written in any order they are accepted, and left out they are
accepted with a warning.  The priest's entry is written as a drop, ``P@g14``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from zrec.moves import PASS, Action, Turn
from zrec.rules.base import Finding, IllegalMoveError, Resolved
from zrec.rules.stonewarriors.board import (
    ARMS,
    BIT,
    DIRECTION,
    HOME,
    HOME_MASK,
    INDEX,
    NAME,
    OFF_TARGET,
    OWN,
    SIDES,
    arm_text,
    listing,
)
from zrec.rules.stonewarriors.end import outcome
from zrec.rules.stonewarriors.position import PASS_MOVE, StoneMove, StonePosition
from zrec.rules.stonewarriors.tables import BACKWARD, Tables

#: The separators and the vias of a step written with ``n - 2`` captures, by ``n``:
#: ``f5-f6xf7xg6``.  A step captures at most 3 pieces (not where it comes from).
_SEPS = tuple(("-",) + ("x",) * (n - 2) if n > 1 else None for n in range(6))
_VIAS = tuple((None,) * (n - 1) if n > 1 else None for n in range(6))
_OFF_TARGET_WHITE, _OFF_TARGET_BLACK = OFF_TARGET


def _captured(squares: Sequence[str], other: Sequence[str]) -> str:
    """Captured squares in words, "alone" marking one square the other list also has."""
    text = listing(squares)
    return text + " alone" if len(squares) == 1 and squares[0] in other else text


class WrittenMoves:
    """The reading and writing of moves, mixed into the Stone Warriors engine."""

    # Set by the engine:
    ruleset: str
    _tables: Tables
    #: piece letter -> the directions it may step in
    _dirs: Mapping[str, tuple[int, ...]]

    def legal_moves(
        self, pos: StonePosition, roll: Sequence[int] | None = None
    ) -> Sequence[StoneMove]:
        raise NotImplementedError  # the engine's move generator

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
        end = outcome(pos)
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
