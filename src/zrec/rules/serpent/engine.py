"""The serpent games' rules engine: one lattice and one choice of rule options fixed.

:class:`SerpentEngine` generates moves (steps, and capture chains, as the rules of
:mod:`.rules` read them under the options ``Captures`` and ``Chains``: by default whole
chains only when a capture is open), applies them with their events (under
``Captures "huff"`` a move that did not jump when it could leaves a huff due, which
the other side plays first, as a move that is not a turn), reads a written move
(``resolve``: a fast path for a well-formed legal step or chain, then a checked path
that says what is wrong, reads short chains and asks for a jumped point where one is
needed) and writes one (``spell``: the shortest unambiguous full form), judges the end
and gives keys, views and the text drawing.  :class:`SerpentPosition` and
:class:`SerpentMove` are a position and a move as the engine keeps them (lattice
bits).  The board itself (points, lines, jumps and the bitmask tests) lives in
:mod:`.lattice`.

Past 500 lines, and one piece on purpose: generating, applying, reading and ending are
one statement of the rules under one choice of options (a huff due changes what is
legal, what a written move may be and what ends the game; reading a move is the move
tests again, each failing with its reason; the end test reuses the move tests), and
splitting them would spread each option's meaning over several modules (reading once
stood apart, as a mixin that had to declare a dozen of the engine's attributes).  The
draw rules, which only add a history to the position, stand apart in :mod:`.draws`.
Where the compiled kernel (``_kernel.c``, :mod:`zrec.rules.kernel`) is loaded, each
method that makes many moves hands them to it at its top (``legal_moves``, the loops of
:mod:`zrec.rules.loops`, ``play_line``); the Python below stays the reference the
differential tests hold it to.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache, lru_cache
from types import MappingProxyType
from typing import NamedTuple

from zrec.moves import Action, Turn
from zrec.rules import kernel
from zrec.rules.base import (
    REMOVED,
    AmbiguousMoveError,
    BoardSpec,
    Event,
    Finding,
    IllegalMoveError,
    MoveNumber,
    OptionConflict,
    Outcome,
    Piece,
    Resolved,
    View,
)
from zrec.rules.clicking import ClickTable, Entry
from zrec.rules.defaults import BaseEngine
from zrec.rules.lines import Run, reference_line
from zrec.rules.loops import Played, reference_counts, reference_play, reference_search
from zrec.rules.serpent.lattice import (
    Lattice,
    coordinates,
    drawing,
    lattice,
    point_index,
    point_name,
    read_setup,
    setup_string,
)
from zrec.rules.values import numbered

SIDES = ("White", "Black")
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


class SerpentPosition(NamedTuple):
    """A position: bitmasks of the White and Black pieces, side to move (0 White,
    1 Black), the number of moves played since the start or the Setup (a huff is not
    a move: it does not count), and under ``Captures "huff"`` the pieces of the side
    that has just moved that the side to move may huff (0: no huff is due)."""

    white: int
    black: int
    turn: int
    ply: int
    huff: int = 0


class SerpentMove(NamedTuple):
    """A move: the landing path (a step has two points) and the jumped points, sorted.
    A huff (``Captures "huff"``) is the one point of the huffed piece, as path and as
    captured point.

    Points are lattice bits (``b_i`` = 3(i-1), ``a_i`` = 3(i-1)+1, ``c_i`` = 3(i-1)+2).
    """

    path: tuple[int, ...]
    captured: tuple[int, ...] = ()

    @classmethod
    def named(cls, path: str, captured: str = "") -> SerpentMove:
        """A move from point names: ``named("b6-b5")``, ``named("b4xb6", "b5")``."""
        points = tuple(point_index(p) for p in re.split(r"[-x]", path))
        return cls(points, tuple(sorted(point_index(c) for c in captured.split())))

    def text(self) -> str:
        """The landing path written out, e.g. ``b6-b5`` or ``b4xb6xa5``."""
        return ("x" if self.captured else "-").join(point_name(p) for p in self.path)

    def __repr__(self) -> str:
        if not self.captured:
            return f"SerpentMove.named({self.text()!r})"
        caps = " ".join(point_name(c) for c in self.captured)
        return f"SerpentMove.named({self.text()!r}, {caps!r})"

    def __str__(self) -> str:
        return self.text()


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


class SerpentEngine(BaseEngine[SerpentPosition, SerpentMove]):
    """One serpent game with its rule options fixed: the rules engine.

    From :class:`~zrec.rules.defaults.BaseEngine` it takes no dice, the board's clicks
    and choices from :meth:`click_table`, the standing in words from :meth:`material`,
    and self-play's move: drawn uniformly among the legal moves (a huff too, among the
    pieces that may be huffed; under compulsory captures random games end by
    themselves, under free captures the random player's limit on moves may end them).
    """

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

    def material(self, pos: SerpentPosition) -> tuple[int, ...]:
        return pos.white.bit_count(), pos.black.bit_count()

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

    # -- reading and writing moves ----------------------------------------------

    def _sides(self, pos: SerpentPosition) -> tuple[int, int]:
        """The pieces of the side to move and of the other side."""
        return (pos.white, pos.black) if pos.turn == 0 else (pos.black, pos.white)

    def _first_rule(self, pos: SerpentPosition) -> bool:
        """Whether the Pieces-23 rule (first move into the centre) governs this move."""
        s = self._start
        return (
            self._first_to_centre
            and pos.ply == 0
            and (pos.white, pos.black, pos.turn) == (s.white, s.black, s.turn)
        )

    def _illegal(self, pos: SerpentPosition, reason: str) -> IllegalMoveError:
        return IllegalMoveError(reason, self._legal_texts(pos))

    def _legal_texts(self, pos: SerpentPosition) -> list[str]:
        return sorted(self.spell(pos, m).actions[0].text() for m in self.legal_moves(pos))

    def resolve(self, pos: SerpentPosition, turn: Turn) -> Resolved[SerpentMove]:
        # The fast path: a well-formed legal step or a chain of unambiguous jumps is
        # checked with the tables and bitmasks alone.  Anything else goes to
        # _resolve_checked, which checks again in order and says what is wrong.
        actions = turn.actions
        if turn.dice is None and len(actions) == 1 and actions[0].kind == "path":
            action = actions[0]
            squares = action.squares
            index = self._index
            white, black, side, ply, huff = pos
            own, enemy = (black, white) if side else (white, black)
            # not the Pieces-23 first move, and no huff due
            usual = (ply or not self._first_to_centre) and not huff
            if action.seps == ("-",):
                frm = index.get(squares[0], -1)
                if frm >= 0 and own >> frm & 1 and action.vias[0] is None:
                    done = self._steps[frm].get(squares[1])
                    if (
                        done is not None
                        and not (own | enemy) >> done.move.path[1] & 1
                        and usual
                        and not (self._compulsory and self._capture_test(own, enemy))
                    ):
                        return done
            elif usual and 1 < len(squares) == action.seps.count("x") + 1 == len(action.vias) + 1:
                move = self._fast_chain(own, enemy, squares, action.vias)
                if move is not None:
                    return Resolved(move)
        return self._resolve_checked(pos, turn)

    def _fast_chain(
        self, own: int, enemy: int, squares: Sequence[str], vias: Sequence[str | None]
    ) -> SerpentMove | None:
        """The chain when each hop jumps exactly one enemy piece (or the one its via
        names) and the chain is whole (where it must be), and one hop under Chains
        "one"; else None."""
        if self._one_hop and len(vias) > 1:
            return None
        index, over = self._index, self._over
        p = index.get(squares[0], -1)
        if p < 0 or not own >> p & 1:
            return None
        path = [p]
        friends = own & ~_BIT[p]
        caps = []
        for i in range(len(vias)):
            r = index.get(squares[i + 1], -1)
            qs = over.get((p, r))
            if qs is None or (friends | enemy) >> r & 1:
                return None
            via = vias[i]
            if via is not None:
                q = index.get(via, -1)
                if q not in qs or not enemy >> q & 1:
                    return None
            elif len(qs) == 1:
                q = qs[0]
                if not enemy >> q & 1:
                    return None
            else:
                jumped = [q for q in qs if enemy >> q & 1]
                if len(jumped) != 1:
                    return None
                q = jumped[0]
            enemy &= ~_BIT[q]
            caps.append(q)
            path.append(r)
            p = r
        if self._must_end:
            occupied = friends | enemy
            for q, r in self._jumps_from[p]:
                if enemy >> q & 1 and not occupied >> r & 1:
                    return None
        caps.sort()
        return SerpentMove(tuple(path), tuple(caps))

    def _resolve_checked(self, pos: SerpentPosition, turn: Turn) -> Resolved[SerpentMove]:
        if turn.dice is not None:
            raise self._illegal(pos, f"{self.title} uses no dice")
        if len(turn.actions) != 1:
            raise self._illegal(pos, f"a turn is one move, not {len(turn.actions)}")
        action = turn.actions[0]
        if action.kind != "path":
            raise self._illegal(pos, f"{action.text()} is not a move of {self.title}")
        index = self._index
        try:
            path = [index[s] for s in action.squares]
            vias = [None if v is None else index[v] for v in action.vias]
        except KeyError:
            bad = [s for s in (*action.squares, *action.vias) if s is not None and s not in index]
            raise self._illegal(pos, f"{bad[0]} is not a point of this board") from None
        if pos.huff or (self._huffing and len(path) == 1):
            return Resolved(self._resolve_huff(pos, path))
        own, enemy = self._sides(pos)
        frm = path[0]
        if not own >> frm & 1:
            side = SIDES[pos.turn]
            raise self._illegal(pos, f"there is no {side} piece on {action.squares[0]}")
        if len(path) < 2:
            raise self._illegal(pos, "a move names at least two points")
        seps = action.seps
        if seps == ("-",):
            return Resolved(self._resolve_step(pos, own, enemy, frm, path[1], vias[0]))
        if any(s != "x" for s in seps):
            if all(s == "-" for s in seps):
                raise self._illegal(pos, "a step goes from one point to the next only")
            raise self._illegal(pos, "a move is either a step (with -) or a chain (with x)")
        if self._first_rule(pos):
            reason = f"the first move must be a step to the centre ({self.centre})"
            raise self._illegal(pos, reason)
        text = action.text()
        if self._one_hop and len(path) > 2:
            reason = f'a capture is a single jump under Chains "one"; {text} makes {len(path) - 1}'
            raise self._illegal(pos, reason)
        fits, reason = self._hops(pos, path, vias)
        if not fits:
            if len(path) == 2 and vias[0] is None:
                return self._resolve_short(pos, text, frm, path[1], reason)
            raise self._illegal(pos, reason)
        moves = sorted({SerpentMove(tuple(path), tuple(sorted(c))) for c in fits})
        if len(moves) > 1:
            options = ", ".join(self.spell(pos, m).actions[0].text() for m in moves)
            raise AmbiguousMoveError(
                f"{text} fits several chains: {options}; write the jumped point in parentheses",
                self._legal_texts(pos),
            )
        return Resolved(moves[0])

    def _resolve_step(
        self, pos: SerpentPosition, own: int, enemy: int, frm: int, to: int, via: int | None
    ) -> SerpentMove:
        lat = self.lattice
        if not lat.adjacent[frm] >> to & 1:
            reason = f"{point_name(frm)} and {point_name(to)} are not joined by a line"
            raise self._illegal(pos, reason)
        if (own | enemy) >> to & 1:
            raise self._illegal(pos, f"{point_name(to)} is not empty")
        if via is not None:
            raise self._illegal(pos, "a step jumps over no point")
        if self._first_rule(pos):
            if to != lat.centre:
                raise self._illegal(pos, f"the first move must go to the centre ({self.centre})")
        elif self._compulsory and self._capture_test(own, enemy):
            raise self._illegal(pos, "a capture is compulsory here")
        return SerpentMove((frm, to))

    def _resolve_huff(self, pos: SerpentPosition, path: Sequence[int]) -> SerpentMove:
        """A huff written as the point of the huffed piece alone, when one is due."""
        side, other = SIDES[pos.turn], SIDES[1 - pos.turn]
        if not pos.huff:
            reason = "no huff is due here (a huff follows a move that did not jump when it could)"
            raise self._illegal(pos, reason)
        names = self._huff_names(pos.huff)
        if len(path) != 1:
            which = (
                f"the {other} piece that could have jumped and did not ({names[0]})"
                if len(names) == 1
                else f"one of the {other} pieces that could have jumped and did not "
                f"({' or '.join(names)})"
            )
            reason = f"{side} must first huff {which}, written as its point alone"
            raise self._illegal(pos, reason)
        p = path[0]
        if not pos.huff >> p & 1:
            reason = (
                f"the {other} piece on {point_name(p)} cannot be huffed"
                if self._sides(pos)[1] >> p & 1
                else f"there is no {other} piece on {point_name(p)}"
            )
            due = (
                f"the piece that may be huffed is {names[0]}"
                if len(names) == 1
                else f"the pieces that may be huffed are {' and '.join(names)}"
            )
            raise self._illegal(pos, f"{reason}: {due}")
        return SerpentMove((p,), (p,))

    def _huff_names(self, mask: int) -> list[str]:
        """The names of the points of ``mask``, in board order (rows a, b, c)."""
        names = [point_name(i) for i in range(mask.bit_length()) if mask >> i & 1]
        return sorted(names, key=lambda p: (p[0], int(p[1:])))

    def _resolve_short(
        self, pos: SerpentPosition, text: str, frm: int, to: int, reason: str
    ) -> Resolved[SerpentMove]:
        fits = [m for m in self.legal_moves(pos) if m.path[0] == frm and m.path[-1] == to]
        if fits and not fits[0].captured:
            # "x" claims a capture: a step written with it is wrong, not a short chain
            step = self.spell(pos, fits[0]).actions[0].text()
            why = f"its x claims a capture, but it captures nothing (write {step})"
            raise self._illegal(pos, why)
        if not fits:
            raise self._illegal(pos, reason)
        spelled = sorted(self.spell(pos, m).actions[0].text() for m in fits)
        if len(fits) > 1:
            raise AmbiguousMoveError(
                f"{text} gives only the start and the last landing point, and several "
                f"chains fit it: {', '.join(spelled)}",
                self._legal_texts(pos),
            )
        note = Finding(
            "short-chain",
            "warning",
            f"{text} gives only the start and the last landing point; "
            f"the full chain is {spelled[0]}",
        )
        return Resolved(fits[0], (note,))

    def _hops(
        self, pos: SerpentPosition, path: Sequence[int], vias: Sequence[int | None]
    ) -> tuple[list[tuple[int, ...]], str]:
        """Every way to jump along ``path`` (``vias`` fixes some jumped points) that ends
        the chain (where a chain must go on while it can), as the jumped points in order;
        else the first reason it fails."""
        lat = self.lattice
        own, enemy = self._sides(pos)
        friends = own & ~_BIT[path[0]]
        states: list[tuple[int, tuple[int, ...]]] = [(enemy, ())]
        for i in range(1, len(path)):
            p, r, via = path[i - 1], path[i], vias[i - 1]
            p_name, r_name = point_name(p), point_name(r)
            qs = lat.over.get((p, r), ())
            if not qs:
                return [], f"there is no jump from {p_name} to {r_name}"
            if via is not None:
                if via not in qs:
                    over = " or ".join(point_name(q) for q in qs)
                    return [], (
                        f"a jump from {p_name} to {r_name} passes over {over}, "
                        f"not {point_name(via)}"
                    )
                qs = (via,)
            following: list[tuple[int, tuple[int, ...]]] = []
            reason = f"there is no enemy piece to jump between {p_name} and {r_name}"
            for en, caps in states:
                if (friends | en) >> r & 1:
                    reason = f"{r_name} is not empty"
                    continue
                following += [(en & ~_BIT[q], (*caps, q)) for q in qs if en >> q & 1]
            if not following:
                return [], reason
            states = following
        if not self._must_end:
            return [caps for en, caps in states], ""
        last = path[-1]
        done = [caps for en, caps in states if not lat.can_jump_from(last, friends | en, en)]
        if not done:
            return [], f"the chain must go on: the piece on {point_name(last)} can still jump"
        return done, ""

    def spell(self, pos: SerpentPosition, move: SerpentMove) -> Turn:
        names = tuple(point_name(p) for p in move.path)
        k = len(names) - 1
        if not move.captured:
            return Turn((Action("path", names, ("-",), (None,)),))
        if not k:  # a huff: the point alone
            return Turn((Action("path", names),))
        own, enemy = self._sides(pos)
        if self._must_end:
            found = _chains_from(self.lattice, move.path[0], own, enemy)
        else:  # the chains that may stop, or single hops: as the moves list them
            found = tuple((m.path, m.captured) for m in self.legal_moves(pos) if m.captured)
        rivals = {tuple(sorted(caps)) for path, caps in found if path == move.path}
        rivals.discard(move.captured)
        vias: list[int | None] = [None] * k
        if rivals:
            # Name the jumped point at the first hop that tells a rival apart, until
            # no rival fits the written vias.
            ways = self._hops(pos, move.path, vias)[0]
            mine = next(c for c in ways if tuple(sorted(c)) == move.captured)
            others = [c for c in ways if tuple(sorted(c)) in rivals]
            while others:
                hop = next(i for i in range(k) if others[0][i] != mine[i])
                vias[hop] = mine[hop]
                others = [c for c in others if c[hop] == mine[hop]]
        via_names = tuple(None if v is None else point_name(v) for v in vias)
        return Turn((Action("path", names, ("x",) * k, via_names),))

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


@lru_cache(maxsize=1024)
def _chains_from(
    lat: Lattice, p: int, own: int, enemy: int
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every whole capture chain of the piece on ``p``, found once for a board and its
    pieces: the legal moves of a position are spelled one by one (for the list of legal
    moves an error gives), each capture asking for the chains of its piece, and the
    readings of a record ask again under every combination of options on that board."""
    return tuple(lat.chains_from(p, own, enemy))
