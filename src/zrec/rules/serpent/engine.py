"""The serpent games' rules engine: one lattice and one choice of rule options fixed.

:class:`SerpentEngine` generates moves (steps, and capture chains, as the rules of
:mod:`.rules` read them under the options ``Captures`` and ``Chains``: by default whole
chains only when a capture is open), applies them with their events (under
``Captures "huff"`` a move that did not jump when it could leaves a huff due, which
the other side plays first, as a move that is not a turn),
judges the end and gives keys, views and the text drawing.  The board itself (points,
lines, jumps and the bitmask tests) lives in :mod:`.lattice`; the position and move
values and the reading and writing of moves live in :mod:`.written`.

Past 500 lines, and one piece on purpose: generating, applying and ending are one
statement of the rules under one choice of options (a huff due changes what is legal
and what ends the game; the end test reuses the move tests), and splitting them would
spread each option's meaning over several modules.  The draw rules, which only add a
history to the position, stand apart in :mod:`.draws`.  Where the compiled kernel
(``_kernel.c``, :mod:`zrec.rules.kernel`) is loaded, each method that makes many moves
hands them to it at its top (``legal_moves``, the loops of :mod:`zrec.rules.loops`,
``play_line``); the Python below stays the reference the differential tests hold it to.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache, lru_cache
from types import MappingProxyType
from typing import NamedTuple

from zrec.moves import Turn
from zrec.rules import kernel
from zrec.rules.base import (
    REMOVED,
    BoardSpec,
    Chance,
    Event,
    Finding,
    MoveNumber,
    OptionConflict,
    Outcome,
    Piece,
    Resolved,
    View,
    choose,
)
from zrec.rules.clicking import ClickTable, Entry, Listed
from zrec.rules.lines import Run, reference_line
from zrec.rules.loops import Played, reference_counts, reference_play, reference_search
from zrec.rules.serpent.lattice import (
    Lattice,
    coordinates,
    drawing,
    lattice,
    point_name,
    read_setup,
    setup_string,
)
from zrec.rules.serpent.written import SIDES, SerpentMove, SerpentPosition, WrittenMoves
from zrec.rules.values import numbered

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_BIT = tuple(1 << i for i in range(64))
_ONE, _NIL, _HALF = Fraction(1), Fraction(0), Fraction(1, 2)
_SCORES = {"1-0": (_ONE, _NIL), "0-1": (_NIL, _ONE), "1/2-1/2": (_HALF, _HALF)}  # per seat
_NO_EVENTS: tuple[Event, ...] = ()
_TURN = (b"w", b"b")  # the side to move in a key
#: the end when a side has no pieces left, by (White has pieces, Black has pieces)
_NO_PIECES = {
    (False, False): Outcome(
        "no-pieces", _SCORES["1/2-1/2"], "neither side has a piece left"
    ),
    (False, True): Outcome(
        "no-pieces", _SCORES["0-1"], "White has no pieces left, so Black wins"
    ),
    (True, False): Outcome(
        "no-pieces", _SCORES["1-0"], "Black has no pieces left, so White wins"
    ),
}


def _plural(k: int) -> str:
    return f"{k} piece" if k == 1 else f"{k} pieces"


def _listing(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


@lru_cache(maxsize=4096)
def _removed(turn: int, caps: tuple[int, ...]) -> tuple[Event]:
    """The events of a chain by ``turn``'s side that takes ``caps`` (made once: replaying
    an archive applies the same captures again and again)."""
    names = (point_name(c) for c in caps)
    squares = tuple(sorted(names, key=lambda p: (p[0], int(p[1:]))))  # row, then number
    return (Event(REMOVED, f"{SIDES[1 - turn]} loses {_listing(squares)}", squares),)


class _BoardParts(NamedTuple):
    """What an engine needs of its board that no rule option changes (the names,
    lines and jumps, the drawing, the pieces drawn, the resolved steps)."""

    points: tuple[str, ...]
    lines: tuple[tuple[str, str], ...]
    jumps: tuple[tuple[str, str, str], ...]
    coordinates: Mapping[str, tuple[int, int]]
    board: BoardSpec
    men: tuple[tuple[int, Piece, Piece], ...]
    steps: tuple[dict[str, Resolved[SerpentMove]], ...]


@cache
def _board_parts(lat: Lattice) -> _BoardParts:
    """The parts of an engine that depend on its board only, made once per board: the
    readings of a record build an engine for every combination of options, most of
    them on the same few boards."""
    points = tuple(point_name(i) for i in lat.points)
    order = {p: k for k, p in enumerate(lat.points)}
    pairs = [(x, y) if order[x] < order[y] else (y, x) for x, y in lat.lines]
    pairs.sort(key=lambda line: (order[line[0]], order[line[1]]))
    lines = tuple((point_name(x), point_name(y)) for x, y in pairs)
    ordered = sorted(lat.jumps, key=lambda j: (order[j[0]], order[j[1]], order[j[2]]))
    jumps = tuple((point_name(p), point_name(q), point_name(r)) for p, q, r in ordered)
    return _BoardParts(
        points,
        lines,
        jumps,
        MappingProxyType({point_name(i): coordinates(i) for i in lat.points}),
        BoardSpec("lattice", cells=points, lines=lines, jumps=jumps),
        tuple(
            (i, Piece(point_name(i), 0, "", "W"), Piece(point_name(i), 1, "", "B"))
            for i in lat.points
        ),
        tuple(
            {point_name(r): Resolved(SerpentMove((p, r))) for r in lat.neighbours[p]}
            for p in range(lat.size)
        ),
    )


@lru_cache(maxsize=1024)
def _huffed(turn: int, p: int) -> tuple[Event]:
    """The event of ``turn``'s side huffing the other side's piece on ``p``."""
    name = point_name(p)
    return (Event(REMOVED, f"{SIDES[1 - turn]} loses {name} (huffed)", (name,)),)


def _bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(low.bit_length() - 1)
    return out


class SerpentEngine(WrittenMoves, Listed[SerpentPosition, SerpentMove]):
    """One serpent game with its rule options fixed: the rules engine."""

    seats: tuple[str, ...] = SIDES

    def __init__(self, title: str, n: int, options: Mapping[str, str]):
        self.title = title
        self.options: Mapping[str, str] = MappingProxyType(dict(options))
        captures = options.get("Captures", "compulsory")
        chains = options.get("Chains", "whole")
        if captures == "huff" and chains == "one":
            raise OptionConflict(
                "Captures", "huff", "Chains", "one",
                "a huff also punishes a chain stopped while it could jump on, and under "
                'Chains "one" a capture is a single jump, so no chain goes on; '
                'take Captures "optional" or "compulsory" with Chains "one"',
            )
        self._compulsory = captures == "compulsory"
        self._huffing = captures == "huff"
        self._one_hop = chains == "one"
        self._whole_chains = chains == "whole"
        # a chain must go on while it can: under huffing it may stop, and is huffed
        self._must_end = chains == "whole" and not self._huffing
        #: today's reading: compulsory captures, whole chains (the fast paths)
        self._plain = self._compulsory and chains == "whole"
        ludii = options.get("Lattice") == "48"  # Ludii's 48-point Kolowis board
        lat = lattice(n, options["Board"] == "lined", options["Jumps"] == "bent", ludii)
        self.lattice: Lattice = lat
        self.max_pieces = 3 * n // 2 - ludii
        self.end_rule = options["EndRule"]
        self._blocked_loses = options.get("Blocked") == "loses"
        self.centre = point_name(lat.centre)
        # the names, lines, jumps, drawing and steps of the board: made once per board
        parts = _board_parts(lat)
        #: Every point name, rows a, b, c, west to east.
        self.points: tuple[str, ...] = parts.points
        #: Every line as a pair of point names, in the order of ``points``.
        self.lines: tuple[tuple[str, str], ...] = parts.lines
        #: Every jump as (from, over, to) point names, both directions.
        self.jumps: tuple[tuple[str, str, str], ...] = parts.jumps
        #: Drawing coordinates (x east, y north): b_k (2k-2, 0), a_k (2k-1, -1), c_k (2k-1, 1).
        self.coordinates: Mapping[str, tuple[int, int]] = parts.coordinates
        #: The board for drawing (one object for every view).
        self.board = parts.board
        # (bit, White's man there, Black's man there) for every point, in board order
        self._men = parts.men
        self._key_bytes = (lat.size + 7) // 8
        half = range(0, 3 * (n // 2), 3)  # b1 .. b(n/2), west of the centre
        west = sum(_BIT[i] for i in half)
        east = sum(_BIT[lat.size - 1 - i] for i in half)
        if ludii:  # b1 and the centre empty: b2 .. b8 and b10 .. b16
            west &= ~_BIT[0]
            east = sum(_BIT[lat.centre + i] for i in half[1:])
        a_row = sum(_BIT[i] for i in range(1, lat.size, 3))
        c_row = sum(_BIT[i] for i in range(2, lat.size, 3))
        if options["Middle"] == "left":
            west, east = east, west
        white, black = a_row | east, c_row | west
        self._first_to_centre = options.get("Pieces") == "23" and not ludii
        if self._first_to_centre:
            ends = _BIT[0] | _BIT[lat.size - 1]
            white, black = white & ~ends, black & ~ends
        turn = 1 if options["First"] == "Black" else 0
        self._start = SerpentPosition(white, black, turn, 0)
        # Under free captures the start can come back with the Pieces-23 rule spent,
        # and a huff may be due: then a key needs more than the pieces and the side.
        self._marked_keys = self._huffing or (self._first_to_centre and not self._compulsory)
        self._index = lat.index
        self._capture_test = lat.can_capture
        self._over = dict(lat.over)
        self._jumps_from = lat.jumps_from
        self._steps = parts.steps
        #: the compiled kernel's board for these options (``None``: the Python engine)
        self._board = self._compiled()

    def _compiled(self) -> object | None:
        """The kernel's board (:mod:`zrec.rules.kernel`) for this lattice and these
        options, or ``None``."""
        compiled = kernel.load(__package__ or "")
        if compiled is None:
            return None
        k = compiled
        flags = (
            k.COMPULSORY * self._compulsory
            | k.HUFFING * self._huffing
            | k.ONE_HOP * self._one_hop
            | k.MUST_END * self._must_end
            | k.WHOLE * self._whole_chains
            | k.FIRST_TO_CENTRE * self._first_to_centre
            | k.BLOCKED_LOSES * self._blocked_loses
            | k.END_DRAW * (self.end_rule == "draw")
        )
        lat, s = self.lattice, self._start
        start = (s.white, s.black, s.turn)
        board: object = k.Board(
            lat.size, lat.centre, lat.neighbours, lat.jumps_from, flags, start, SerpentMove
        )
        return board

    # -- positions -------------------------------------------------------------

    def start(self) -> SerpentPosition:
        return self._start

    def setup(self, text: str) -> SerpentPosition:
        white, black, turn = read_setup(self.lattice, text, self.title, self.max_pieces)
        # Numbering as in PGN: when the side that moves second is to move, the
        # record starts with "1..." and the next move is number 2.
        return SerpentPosition(white, black, turn, 0 if turn == self._start.turn else 1)

    def setup_text(self, pos: SerpentPosition) -> str:
        return setup_string(self.lattice, pos.white, pos.black, pos.turn)

    def key(self, pos: SerpentPosition) -> bytes:
        # The pieces and the side to move; not the ply.  (The ply matters to play only
        # for the Pieces-23 first move, from the start, which no game comes back to
        # under compulsory captures: the step into the centre opens a capture.  Under
        # free captures a game can come back, and its key is then marked; so is a key
        # with a huff due.)
        n = self._key_bytes
        key = pos.white.to_bytes(n, "little") + pos.black.to_bytes(n, "little") + _TURN[pos.turn]
        if self._marked_keys:
            if pos.huff:
                key += b"h" + pos.huff.to_bytes(n, "little")
            s = self._start
            if (
                self._first_to_centre
                and pos.ply
                and (pos.white, pos.black, pos.turn) == (s.white, s.black, s.turn)
            ):
                key += b"+"  # the start again, the first-move rule spent
        return key

    def view(self, pos: SerpentPosition) -> View:
        white, black = pos.white, pos.black
        men = [w if white >> i & 1 else b for i, w, b in self._men if (white | black) >> i & 1]
        return View(self.board, self.seats, tuple(men))

    def pieces(self, pos: SerpentPosition) -> dict[str, str]:
        """Occupied points: point name -> ``W`` or ``B``, in board order."""
        return self.view(pos).codes()

    def sample_move(
        self, pos: SerpentPosition, roll: Sequence[int] | None, rng: random.Random
    ) -> SerpentMove | None:
        # uniform (a huff too, among the pieces that may be huffed); under compulsory
        # captures random games end by themselves, under free captures the random
        # player's limit on moves may end them
        return choose(self.legal_moves(pos), rng)

    def material(self, pos: SerpentPosition) -> tuple[int, ...]:
        return pos.white.bit_count(), pos.black.bit_count()

    def standing(self, pos: SerpentPosition) -> str:
        w, b = pos.white.bit_count(), pos.black.bit_count()
        return f"White {_plural(w)}, Black {b}"

    def render(self, pos: SerpentPosition) -> str:
        w, b = pos.white.bit_count(), pos.black.bit_count()
        status = f"{SIDES[pos.turn]} to move (White {w}, Black {b})"
        if pos.huff:
            due = " or ".join(self._huff_names(pos.huff))
            status = f"{SIDES[pos.turn]} to huff {due} (White {w}, Black {b})"
        return drawing(self.lattice, pos.white, pos.black) + "\n" + status

    # -- turns -----------------------------------------------------------------

    def to_move(self, pos: SerpentPosition) -> int | None:
        return None if self.outcome(pos) is not None else pos.turn

    def move_number(self, pos: SerpentPosition) -> MoveNumber:
        turn = pos.turn
        dots = 1 if turn == self._start.turn else 3
        # a huff is not a turn: no number, and the ply does not count it
        return numbered(pos.ply // 2 + 1, dots, not pos.huff, turn)

    def chance(self, pos: SerpentPosition) -> Chance | None:
        return None

    def legal_moves(
        self, pos: SerpentPosition, roll: Sequence[int] | None = None
    ) -> list[SerpentMove]:
        if self._board is not None:
            moves: list[SerpentMove] = self._board.moves(*pos)  # type: ignore[attr-defined]
            return moves
        lat = self.lattice
        own, enemy = self._sides(pos)
        if self._first_rule(pos):
            c = lat.centre
            return [SerpentMove((p, c)) for p in lat.neighbours[c] if own >> p & 1]
        if not self._plain:
            return self._option_moves(pos, own, enemy)
        seen: dict[tuple[tuple[int, ...], tuple[int, ...]], None] = {}
        for path, caps in lat.chains(own, enemy):
            seen.setdefault((path, tuple(sorted(caps))), None)
        if seen:
            return [SerpentMove(path, caps) for path, caps in seen]
        return self._step_moves(own, enemy)

    def takings(self, pos: SerpentPosition, roll: Sequence[int] | None = None) -> list[int]:
        """The pieces each legal move takes (:func:`zrec.rules.loops.takings`): its
        jumped points (a huff: the one huffed piece), without applying it."""
        return [len(move.captured) for move in self.legal_moves(pos)]

    def count_sequences(self, pos: SerpentPosition, depth: int) -> list[int]:
        """Perft from ``pos`` (:func:`zrec.rules.loops.count_sequences`), native with
        the kernel."""
        if self._board is None:
            return reference_counts(self, pos, depth)
        counts: list[int] = self._board.perft(*pos, depth)  # type: ignore[attr-defined]
        return counts

    def play_randomly(
        self, pos: SerpentPosition, rng: random.Random, max_moves: int, max_turns: int
    ) -> Played[SerpentPosition]:
        """A random game from ``pos`` (:func:`zrec.rules.loops.play_randomly`), native
        with the kernel."""
        if self._board is None:
            return reference_play(self, pos, rng, max_moves, max_turns)
        w, b, turn, ply, huff, moves, turns, by_white, by_black, stalled = (
            self._board.play(*pos, rng, max_moves, max_turns)  # type: ignore[attr-defined]
        )
        end = SerpentPosition(w, b, turn, ply, huff)
        return Played(end, moves, turns, (by_white, by_black), stalled)

    def search_value(
        self, pos: SerpentPosition, me: int, depth: int, ahead: int, alpha: int, beta: int
    ) -> int:
        """The material search from ``pos`` (:func:`zrec.rules.loops.search_value`),
        native with the kernel."""
        if self._board is None:
            return reference_search(self, pos, me, depth, ahead, alpha, beta)
        found: int = self._board.search(  # type: ignore[attr-defined]
            *pos, me, depth, ahead, alpha, beta
        )
        return found

    def play_line(
        self,
        pos: SerpentPosition,
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
        played, w, b, turn, ply, huff, moves, found, removals = self._board.line(  # type: ignore[attr-defined]
            *pos, turns, numbers, dots, keys, 0
        )
        return Run(played, SerpentPosition(w, b, turn, ply, huff), moves, found, removals)

    def _step_moves(self, own: int, enemy: int) -> list[SerpentMove]:
        lat = self.lattice
        empty = lat.full & ~(own | enemy)
        moves = []
        rest = own
        while rest:
            low = rest & -rest
            rest ^= low
            p = low.bit_length() - 1
            moves += [SerpentMove((p, r)) for r in lat.neighbours[p] if empty >> r & 1]
        return moves

    def _option_moves(self, pos: SerpentPosition, own: int, enemy: int) -> list[SerpentMove]:
        """The moves under options other than compulsory captures and whole chains: a
        huff when one is due (each piece that may be huffed, in bit order), else the
        captures (single jumps under Chains "one", every chain that may stop where
        chains may stop, else whole chains), then, unless captures are compulsory and
        there is one, the steps."""
        if pos.huff:
            return [SerpentMove((p,), (p,)) for p in _bits(pos.huff)]
        lat = self.lattice
        if self._one_hop:
            found = lat.hops(own, enemy)
        elif self._must_end:
            found = lat.chains(own, enemy)
        else:
            found = lat.chain_prefixes(own, enemy)
        seen: dict[tuple[tuple[int, ...], tuple[int, ...]], None] = {}
        for path, caps in found:
            seen.setdefault((path, tuple(sorted(caps))), None)
        moves = [SerpentMove(path, caps) for path, caps in seen]
        if moves and self._compulsory:
            return moves
        return moves + self._step_moves(own, enemy)

    def apply(
        self, pos: SerpentPosition, move: SerpentMove
    ) -> tuple[SerpentPosition, tuple[Event, ...]]:
        if self._huffing:
            return self._apply_huffing(pos, move)
        white, black, turn, ply, _ = pos
        path, caps = move
        moved = _BIT[path[0]]
        landed = _BIT[path[-1]]
        if not caps:
            if turn:
                black = (black & ~moved) | landed
            else:
                white = (white & ~moved) | landed
            return SerpentPosition._make((white, black, 1 - turn, ply + 1, 0)), _NO_EVENTS
        gone = 0
        for c in caps:
            gone |= _BIT[c]
        if turn:
            white &= ~gone
            black = (black & ~moved) | landed
        else:
            white = (white & ~moved) | landed
            black &= ~gone
        after = SerpentPosition._make((white, black, 1 - turn, ply + 1, 0))
        return after, _removed(turn, caps)

    def _apply_huffing(
        self, pos: SerpentPosition, move: SerpentMove
    ) -> tuple[SerpentPosition, tuple[Event, ...]]:
        """``apply`` under Captures "huff": a huff removes the piece and the same side
        moves next; any other move may leave a huff due."""
        white, black, turn, ply, huff = pos
        path, caps = move
        if huff:
            gone = ~_BIT[path[0]]
            white, black = (white & gone, black) if turn else (white, black & gone)
            return SerpentPosition(white, black, turn, ply), _huffed(turn, path[0])
        due = 0 if self._first_rule(pos) else self._huff_due(pos, move)
        moved, landed = _BIT[path[0]], _BIT[path[-1]]
        gone = 0
        for c in caps:
            gone |= _BIT[c]
        if turn:
            white, black = white & ~gone, (black & ~moved) | landed
        else:
            white, black = (white & ~moved) | landed, black & ~gone
        after = SerpentPosition(white, black, 1 - turn, ply + 1, due)
        return after, (_removed(turn, caps) if caps else _NO_EVENTS)

    def _huff_due(self, pos: SerpentPosition, move: SerpentMove) -> int:
        """The pieces (after ``move``) that the other side may huff: after a step, every
        piece that could have jumped (the stepping one on its new point); after a chain
        that stopped while it could jump on, where chains must go on, its piece."""
        lat = self.lattice
        own, enemy = self._sides(pos)
        path, caps = move
        if not caps:
            occupied = own | enemy
            jumpers = 0
            for p in _bits(own):
                if lat.can_jump_from(p, occupied & ~_BIT[p], enemy):
                    jumpers |= _BIT[p]
            if jumpers >> path[0] & 1:
                jumpers = (jumpers & ~_BIT[path[0]]) | _BIT[path[-1]]
            return jumpers
        if not self._whole_chains:
            return 0
        for c in caps:
            enemy &= ~_BIT[c]
        last = path[-1]
        friends = own & ~_BIT[path[0]]
        return _BIT[last] if lat.can_jump_from(last, friends | enemy, enemy) else 0

    def routes(self, pos: SerpentPosition, move: SerpentMove) -> tuple[tuple[str, ...], ...]:
        return (tuple(point_name(p) for p in move.path),)

    # -- the board -------------------------------------------------------------

    def click_table(
        self, pos: SerpentPosition, roll: Sequence[int] | None = None
    ) -> ClickTable[SerpentMove]:
        """A piece, then each landing; the jumped piece first where it chooses."""
        return ClickTable([
            Entry(
                m,
                self.spell(pos, m).text(),
                tuple(point_name(p) for p in m.path),
                tuple(point_name(c) for c in self._jump_order(m)),
            )
            for m in self.legal_moves(pos)
        ])

    def _jump_order(self, move: SerpentMove) -> tuple[int, ...]:
        """The jumped points of a chain in the order it jumps them (a move keeps them
        sorted): for each landing, the one jumped point that leads there, such that
        every jumped point is used once."""
        jumps = self.lattice.jumps_from
        path, left = move.path, set(move.captured)

        def order(i: int) -> tuple[int, ...] | None:
            if i == len(path):
                return ()
            for q, r in jumps[path[i - 1]]:
                if r == path[i] and q in left:
                    left.discard(q)
                    rest = order(i + 1)
                    left.add(q)
                    if rest is not None:
                        return (q, *rest)
            return None

        return (order(1) or ()) if move.captured else ()

    # -- the end ---------------------------------------------------------------

    def outcome(self, pos: SerpentPosition) -> Outcome | None:
        if pos.huff:  # a huff is due: the game goes on (both sides have pieces)
            return None
        w, b = pos.white.bit_count(), pos.black.bit_count()
        if not w or not b:
            return _NO_PIECES[bool(w), bool(b)]
        own, enemy = self._sides(pos)
        lat = self.lattice
        if self._board is not None:
            if not self._board.stuck(own, enemy):  # type: ignore[attr-defined]
                return None
        elif lat.can_step(own, enemy) or lat.can_capture(own, enemy):
            return None
        if self._blocked_loses:
            side, other = SIDES[pos.turn], SIDES[1 - pos.turn]
            result = "0-1" if pos.turn == 0 else "1-0"
            reason = f'{side} has no legal move, so {other} wins (Blocked "loses")'
            return Outcome("no-move", _SCORES[result], reason)
        result = self._rule_result(w, b)
        verdict = {"1-0": "gives the game to White", "0-1": "gives the game to Black"}
        return Outcome(
            "no-move",
            _SCORES[result],
            f"{SIDES[pos.turn]} has no legal move, and with White {_plural(w)} and Black {b}"
            f' the end rule "{self.end_rule}" {verdict.get(result, "makes it a draw")}',
        )

    def _rule_result(self, w: int, b: int) -> str:
        if self.end_rule == "draw" or w == b:
            return "1/2-1/2"
        return "1-0" if w > b else "0-1"

    def judge_end(
        self, pos: SerpentPosition, result: str, tags: Mapping[str, str]
    ) -> list[Finding]:
        if result not in RESULTS:
            return [Finding("wrong-result", "error", f'"{result}" is not a result')]
        end = self.outcome(pos)
        if end is not None:
            if result == end.result:
                return []
            message = f"the result is {result} but {end.reason} ({end.result})"
            return [Finding("wrong-result", "error", message)]
        if result == "*":
            return []
        findings = []
        w, b = pos.white.bit_count(), pos.black.bit_count()
        expected = self._rule_result(w, b)
        if result != expected:
            if self.end_rule == "draw":
                why = 'the end rule "draw" makes it 1/2-1/2'
            else:
                why = f'the end rule "majority" gives {expected} (White {_plural(w)}, Black {b})'
            message = f"the result is {result} but the game ends by agreement and {why}"
            findings.append(Finding("wrong-result", "error", message))
        if pos.huff:
            due = " or ".join(self._huff_names(pos.huff))
            findings.append(
                Finding(
                    "huff-open",
                    "warning",
                    f"the game ends by agreement while {SIDES[pos.turn]} still has a huff "
                    f"due ({due}), which the end rule does not count",
                )
            )
            return findings
        own, enemy = self._sides(pos)
        if (
            self._compulsory
            and self.lattice.can_capture(own, enemy)
            and not self._first_rule(pos)
        ):
            caps = self._legal_texts(pos)
            noun = "a capture" if len(caps) == 1 else "captures"
            findings.append(
                Finding(
                    "capture-open",
                    "warning",
                    f"the game ends by agreement while {SIDES[pos.turn]} still has "
                    f"{noun}: {', '.join(caps)}",
                )
            )
        return findings
