"""The draw rules of the serpent games, ``NoCapture`` and ``Repetition``: the engine
that keeps the history they need.

Only a reading with a draw rule on gets a :class:`DrawRulesEngine` (see
:func:`zrec.rules.serpent.rules`); its positions are :class:`CountedPosition` values:
a :class:`~zrec.rules.serpent.engine.SerpentPosition` (the same fields, so that
everything that reads a position reads this one) that also carries the plies played
since the last capture and the keys of the positions since then.  A position cannot
come back across a capture (a captured piece never returns), so the history starts
again at each capture.  Every other reading plays plain positions with the plain
engine: the default reading's speed and memory are those it had before the draw rules.

A game drawn by one of these rules is over (:meth:`DrawRulesEngine.outcome`): a record
must end there with 1/2-1/2, and a move after it is a move after the end.  The start and
a ``Setup`` position start the history: no plies without a capture, and the position
itself seen once.  A side with no pieces or no legal move ends the game as it always
does, before the draw rules are asked.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction

from zrec.moves import Turn
from zrec.rules.base import Event, IllegalMoveError, Outcome, Resolved
from zrec.rules.lines import Run, reference_line
from zrec.rules.loops import Played, reference_counts, reference_play, reference_search
from zrec.rules.serpent.engine import SIDES, SerpentEngine, SerpentMove, SerpentPosition

#: The plies in a row without a capture that draw the game under ``NoCapture "50"``.
QUIET_PLIES = 50
#: The occurrences of one position that draw the game under ``Repetition "3"``.
REPEATS = 3
_DRAWN = (Fraction(1, 2), Fraction(1, 2))
_ORDINAL = {2: "second", 3: "third"}


class CountedPosition(SerpentPosition):
    """A position with the history the draw rules need: ``quiet``, the plies since the
    last capture (or the start, or the Setup); ``seen``, the key and ply of each
    position since then, this one last (empty when ``Repetition`` is off)."""

    quiet: int
    seen: tuple[tuple[bytes, int], ...]

    @classmethod
    def counted(
        cls, pos: SerpentPosition, quiet: int, seen: tuple[tuple[bytes, int], ...]
    ) -> CountedPosition:
        """``pos`` with this history (a tuple of the same fields, whatever they are)."""
        out = tuple.__new__(cls, pos)
        out.quiet = quiet
        out.seen = seen
        return out


class DrawRulesEngine(SerpentEngine):
    """The serpent engine of a reading with ``NoCapture`` or ``Repetition`` on: the
    plain engine's moves, with positions that count towards the draw rules."""

    def __init__(self, title: str, n: int, options: Mapping[str, str]):
        super().__init__(title, n, options)
        self._quiet_limit = QUIET_PLIES if options["NoCapture"] != "off" else 0
        self._repeats = REPEATS if options["Repetition"] != "off" else 0
        self._start = self._fresh(self._start)

    def _fresh(self, pos: SerpentPosition) -> CountedPosition:
        """``pos`` as the first position of a history."""
        seen = ((self.key(pos), pos.ply),) if self._repeats else ()
        return CountedPosition.counted(pos, 0, seen)

    def setup(self, text: str) -> SerpentPosition:
        return self._fresh(super().setup(text))

    def apply(
        self, pos: SerpentPosition, move: SerpentMove
    ) -> tuple[SerpentPosition, tuple[Event, ...]]:
        if not isinstance(pos, CountedPosition):
            pos = self._fresh(pos)
        after, events = super().apply(pos, move)
        if move.captured:
            return self._fresh(after), events
        seen = pos.seen
        if self._repeats:
            seen = (*seen, (self.key(after), after.ply))
        return CountedPosition.counted(after, pos.quiet + 1, seen), events

    def count_sequences(self, pos: SerpentPosition, depth: int) -> list[int]:
        # the kernel lists the moves; the history of the draw rules is kept here
        return reference_counts(self, pos, depth)

    def play_randomly(
        self, pos: SerpentPosition, rng: random.Random, max_moves: int, max_turns: int
    ) -> Played[SerpentPosition]:
        return reference_play(self, pos, rng, max_moves, max_turns)

    def search_value(
        self, pos: SerpentPosition, me: int, depth: int, ahead: int, alpha: int, beta: int
    ) -> int:
        # native with the kernel, given the history: the keys seen since the last capture
        if self._board is None:
            return reference_search(self, pos, me, depth, ahead, alpha, beta)
        if not isinstance(pos, CountedPosition):
            pos = self._fresh(pos)
        keys = [self._key_fields(key) for key, _ in pos.seen]
        found: int = self._board.search(  # type: ignore[attr-defined]
            *pos, me, depth, ahead, alpha, beta, self._quiet_limit, self._repeats, pos.quiet, keys
        )
        return found

    def _key_fields(self, key: bytes) -> tuple[int, int, int, int, int]:
        """What a key (:meth:`SerpentEngine.key`) holds: White's and Black's pieces, the
        huff due, the side to move, and the mark of the start come back."""
        n = self._key_bytes
        white = int.from_bytes(key[:n], "little")
        black = int.from_bytes(key[n : 2 * n], "little")
        rest = key[2 * n + 1 :]
        huff = 0
        if rest[:1] == b"h":
            huff = int.from_bytes(rest[1 : 1 + n], "little")
            rest = rest[1 + n :]
        return white, black, huff, 1 if key[2 * n : 2 * n + 1] == b"b" else 0, int(rest == b"+")

    def play_line(
        self,
        pos: SerpentPosition,
        turns: Sequence[Turn],
        numbers: Sequence[int | None],
        dots: Sequence[int],
        keys: bool = False,
    ) -> Run:
        # the kernel plays no history: a line under the draw rules is played here
        return reference_line(self, pos, turns, numbers, dots, keys)

    def legal_moves(
        self, pos: SerpentPosition, roll: Sequence[int] | None = None
    ) -> list[SerpentMove]:
        if self._drawn(pos) is not None:
            return []
        return super().legal_moves(pos, roll)

    def resolve(self, pos: SerpentPosition, turn: Turn) -> Resolved[SerpentMove]:
        drawn = self._drawn(pos)
        if drawn is not None:
            raise IllegalMoveError(f"the game is over: {drawn.reason}")
        return super().resolve(pos, turn)

    def outcome(self, pos: SerpentPosition) -> Outcome | None:
        end = super().outcome(pos)
        return self._drawn(pos) if end is None else end

    def _drawn(self, pos: SerpentPosition) -> Outcome | None:
        """The draw by rule in ``pos``, if any (whether or not a side can move)."""
        if not isinstance(pos, CountedPosition):
            return None
        if self._quiet_limit and pos.quiet >= self._quiet_limit:
            reason = (
                f"the game is drawn after {self._quiet_limit} plies without a capture "
                f'(NoCapture "{self._quiet_limit}")'
            )
            return Outcome("no-capture", _DRAWN, reason)
        if self._repeats and pos.seen:
            key = pos.seen[-1][0]
            plies = [ply for k, ply in pos.seen if k == key]
            if len(plies) >= self._repeats:
                return Outcome("repetition", _DRAWN, self._repetition(pos, plies))
        return None

    def _repetition(self, pos: SerpentPosition, plies: list[int]) -> str:
        """Why a repeated position draws: where it stood before."""
        dots = "." if pos.turn == self._start.turn else "..."
        before = [f"{ply // 2 + 1}{dots}" for ply in plies]
        earlier = before[:-1]
        listed = earlier[-1] if len(earlier) == 1 else ", ".join(earlier[:-1])
        if len(earlier) > 1:
            listed += f" and {earlier[-1]}"
        return (
            f"the position before {before[-1]} ({SIDES[pos.turn]} to move) occurs for the "
            f"{_ORDINAL.get(len(plies), f'{len(plies)}th')} time (it stood before {listed} "
            f'too), so the game is drawn (Repetition "{self._repeats}")'
        )
