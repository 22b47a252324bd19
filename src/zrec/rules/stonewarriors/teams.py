"""Ludii's Awithlaknakwe (``[Ruleset "ludii"]``): four seats in two teams, on points.

The reading of Ludii's ``Awithlaknakwe.lud`` (version 1.3.13), in zrec's words
(docs/rules.md, "Ludii's reading"):

- Four seats, in the order they move: South, West, North, East (Ludii's players 1 to
  4, facing north, east, south and west).  South and East are one team, West and
  North the other.  The board is the 365 points of :mod:`.points`.
- Each seat has 6 warriors, on the centres of the squares of its home arm at the
  start (South on the south arm, ``e2``-``j2``...), and a large piece in hand.
- A turn moves one piece of the seat to an empty neighbouring point: a warrior
  diagonally forward, to the right or to the left (South: north-east or north-west);
  the large piece to the right, to the left, forward or diagonally forward (South:
  east, west, north, north-east, north-west), wherever a line runs that way.
- After the step, along every line through the landing point (each of its
  neighbours): an enemy piece (of the other team) with a friendly piece (the mover's
  own or its partner's) just beyond it is captured.  Each capture scores 1 for the
  mover.  If the mover's large piece is still in hand, it is placed on the captured
  point (on the first one when a step captures several, the lines taken clockwise
  from north, as Ludii takes them); the placement is part of the capturing move and is
  not written.
- A seat with no legal move passes (``--``).  The game ends when every piece of each
  team on the board stands on the start points of the other team (a large piece still
  in hand does not count; a team with no piece on the board meets the test); the team
  with more captures wins, equal captures draw.  Four passes in a row (a whole round)
  end the game drawn, as Ludii ends any game where every player passed; so does
  Ludii's turn limit, 1,250 rounds (5,000 turns).

Results are written with one score per seat in the seat order: ``1-0-0-1`` (South
and East win), ``0-1-1-0``, ``1/2-1/2-1/2-1/2``.  A ``Score`` tag gives each seat's
captures in the same order (``[Score "2-1-0-1"]``).

Where the compiled kernel is loaded (its ``TeamBoard``, :mod:`zrec.rules.kernel`), the
engine hands it the legal moves, the self-play move, perft, random games, written
lines (``play_line``) and keys; this module stays the reference the kernel is tested
against.

Past 500 lines, and one piece on purpose: this module is the whole engine of one rule
set (moves, captures with the large piece's placement, passes, the end and the
result, and reading and writing its moves), as :mod:`.rules` is for the default and
culin rule sets; its board lives in :mod:`.points`.  Splitting it by size would part
rules that only make sense together.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Literal

from zrec.moves import PASS, Action, Turn
from zrec.rules import kernel
from zrec.rules.base import (
    REMOVED,
    Event,
    Finding,
    IllegalMoveError,
    MoveNumber,
    Outcome,
    Piece,
    Resolved,
    SetupError,
    View,
    choose,
)
from zrec.rules.clicking import ClickTable, Entry
from zrec.rules.defaults import BaseEngine
from zrec.rules.lines import Run, reference_line
from zrec.rules.loops import Played, reference_counts, reference_play
from zrec.rules.stonewarriors.board import listing
from zrec.rules.stonewarriors.points import (
    ARM_CENTRES,
    BOARD,
    COORDS,
    DIRECTION,
    DIRECTION_NAMES,
    INDEX,
    POINTS,
    STEP,
    E,
    N,
    S,
    W,
    sort_key,
)
from zrec.rules.values import numbered

SEATS = ("South", "West", "North", "East")
#: The direction each seat faces (its forward).
FACING = (N, E, S, W)
#: Each seat's home arm.
HOME = ("south", "west", "north", "east")
#: Each seat's team: 0 South and East, 1 West and North.
TEAM = (0, 1, 1, 0)
TEAM_NAMES = ("South and East", "West and North")
#: Ludii's turn limit: 1,250 rounds of four turns.
TURN_LIMIT = 5000
#: A warrior's and a large piece's letters in a Setup string, by seat.
WARRIOR = "swne"
LARGE = "SWNE"

_BIT = tuple(1 << i for i in range(len(POINTS)))
_HOME_MASK = tuple(sum(_BIT[i] for i in ARM_CENTRES[HOME[s]]) for s in range(4))
#: Each team's start points; the other team must stand on them to end the game.
_TEAM_HOME = (_HOME_MASK[0] | _HOME_MASK[3], _HOME_MASK[1] | _HOME_MASK[2])
#: The lines along which a piece captures, in Ludii's order (clockwise from north).
_LINES = tuple(
    tuple(
        (STEP[d][i], STEP[d][STEP[d][i]])
        for d in range(8)
        if STEP[d][i] >= 0 and STEP[d][STEP[d][i]] >= 0
    )
    for i in range(len(POINTS))
)


def _dirs(seat: int, large: bool) -> tuple[int, ...]:
    """The directions a piece of ``seat`` steps in: a warrior forward-right and
    forward-left; the large piece right, forward-left, forward, forward-right, left."""
    f = FACING[seat]
    if large:
        return tuple((f + k) % 8 for k in (2, -1, 0, 1, -2))
    return ((f + 1) % 8, (f - 1) % 8)


_TARGETS = tuple(
    tuple(
        tuple(tuple(STEP[d][i] for d in _dirs(seat, large) if STEP[d][i] >= 0)
              for i in range(len(POINTS)))
        for large in (False, True)
    )
    for seat in range(4)
)


def _squares(bits: int) -> Iterator[int]:
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


@dataclass(frozen=True, slots=True)
class TeamPosition:
    """A position: each seat's pieces (bitmasks over :data:`.points.POINTS`, its large
    piece included), the large pieces on the board, which large pieces are still in
    hand, each seat's captures, the seat to move (0-3), turns played and passes in a
    row."""

    pieces: tuple[int, int, int, int]
    large: int
    hands: tuple[bool, bool, bool, bool]
    scores: tuple[int, int, int, int]
    to_move: int = 0
    ply: int = 0
    passes: int = 0

    def owner(self, i: int) -> int:
        """The seat whose piece stands on point ``i``, or -1."""
        bit = _BIT[i]
        for seat in range(4):
            if self.pieces[seat] & bit:
                return seat
        return -1

    def team_pieces(self, team: int) -> int:
        a, b = (0, 3) if team == 0 else (1, 2)
        return self.pieces[a] | self.pieces[b]

    def crossed(self, team: int) -> bool:
        """Whether every piece of ``team`` on the board stands on the other team's
        start points (a large piece still in hand does not count)."""
        return not self.team_pieces(team) & ~_TEAM_HOME[1 - team]

    def team_score(self, team: int) -> int:
        a, b = (0, 3) if team == 0 else (1, 2)
        return self.scores[a] + self.scores[b]

    def over(self) -> bool:
        return (
            (self.crossed(0) and self.crossed(1))
            or self.passes >= 4
            or self.ply >= TURN_LIMIT
        )


@dataclass(frozen=True, slots=True)
class TeamMove:
    """A step from ``origin`` to ``target`` capturing ``captures`` (by letter, then
    row) and placing the mover's large piece on ``placed`` (-1: none), or a pass."""

    kind: Literal["step", "pass"]
    origin: int = -1
    target: int = -1
    captures: tuple[int, ...] = ()
    placed: int = -1

    def text(self) -> str:
        if self.kind == "pass":
            return "--"
        out = f"{POINTS[self.origin]}-{POINTS[self.target]}"
        return out + "".join(f"x{POINTS[c]}" for c in self.captures)

    def __str__(self) -> str:
        return self.text()


PASS_MOVE = TeamMove("pass")
#: The results a game can have: partners share their score.
RESULTS = ("1-0-0-1", "0-1-1-0", "1/2-1/2-1/2-1/2", "*")
_ONE, _NIL, _HALF = Fraction(1), Fraction(0), Fraction(1, 2)


def start_position() -> TeamPosition:
    pieces = tuple(_HOME_MASK[s] for s in range(4))
    return TeamPosition(pieces, 0, (True,) * 4, (0,) * 4)  # type: ignore[arg-type]


# -- Setup strings ------------------------------------------------------------------------

_ROWS = tuple(tuple(i for i, (_, y) in enumerate(COORDS) if y == r) for r in range(29))
_RUN = re.compile(r"[0-9]+|.")


def setup_text(pos: TeamPosition) -> str:
    """The Setup string: rows 29 to 1 joined by ``/`` (``s w n e`` warriors, ``S W N
    E`` large pieces, a number for a run of empty points), the seat to move, the large
    pieces in hand (``-`` for none) and the captures of each seat."""
    rows = []
    for row in reversed(_ROWS):
        text = "".join(_letter(pos, i) for i in row)
        rows.append(re.sub(r"\.+", lambda run: str(len(run[0])), text))
    hands = "".join(LARGE[s] for s in range(4) if pos.hands[s]) or "-"
    scores = "-".join(str(s) for s in pos.scores)
    return f"{'/'.join(rows)} {WARRIOR[pos.to_move]} {hands} {scores}"


def _letter(pos: TeamPosition, i: int) -> str:
    seat = pos.owner(i)
    if seat < 0:
        return "."
    return (LARGE if pos.large & _BIT[i] else WARRIOR)[seat]


def parse_setup(text: str) -> TeamPosition:
    """The position a Setup string describes; raises :class:`SetupError`."""
    fields = text.split()
    if len(fields) != 4:
        raise SetupError(
            "a Setup string under Ludii's rules has four fields: the points (rows 29 to "
            "1), the seat to move (s, w, n or e), the large pieces in hand (e.g. SWNE, "
            "or - for none) and the captures of each seat (e.g. 0-0-0-0)"
        )
    board, mover, hands_text, scores_text = fields
    rows = board.split("/")
    if len(rows) != 29:
        raise SetupError(f"the board has {len(rows)} rows; it needs 29, row 29 first")
    pieces, large = [0, 0, 0, 0], 0
    for text, number in zip(rows, range(29, 0, -1), strict=True):
        points, found = _ROWS[number - 1], list[str]()
        for token in _RUN.findall(text):
            if token[0] in "123456789":
                found.extend("." * min(int(token[:3]), len(points) + 1))
            elif token in WARRIOR + LARGE:
                found.append(token)
            else:
                raise SetupError(
                    f"row {number} has {token[:12]!r}: write s, w, n, e (warriors), S, W, "
                    "N, E (large pieces) and a number for each run of empty points"
                )
        if len(found) != len(points):
            raise SetupError(
                f"row {number} describes {len(found)} points; it has {len(points)} "
                f"({POINTS[points[0]]}-{POINTS[points[-1]]})"
            )
        for i, letter in zip(points, found, strict=True):
            if letter != ".":
                seat = (WARRIOR + LARGE).index(letter) % 4
                pieces[seat] |= _BIT[i]
                if letter in LARGE:
                    large |= _BIT[i]
    if mover not in WARRIOR or len(mover) != 1:
        raise SetupError(f"the seat to move is {mover!r}: write s, w, n or e")
    if hands_text != "-" and (
        not set(hands_text) <= set(LARGE) or len(set(hands_text)) != len(hands_text)
    ):
        raise SetupError(
            f"the large pieces in hand are {hands_text!r}: write the letters of their "
            "seats (S, W, N, E) or - for none"
        )
    hands = tuple(LARGE[s] in hands_text for s in range(4))
    parts = scores_text.split("-")
    if len(parts) != 4 or not all(p.isdigit() and len(p) <= 4 for p in parts):
        raise SetupError(
            f"the captures are {scores_text!r}: write four numbers, one per seat, e.g. 1-0-2-0"
        )
    for s, name in enumerate(SEATS):
        warriors = (pieces[s] & ~large).bit_count()
        bigs = (pieces[s] & large).bit_count()
        if warriors > 6:
            raise SetupError(f"{name} has {warriors} warriors on the board; a seat has 6")
        if bigs > 1 or (bigs and hands[s]):
            raise SetupError(f"{name} has one large piece: on the board or in hand")
    return TeamPosition(
        tuple(pieces), large, hands, tuple(int(p) for p in parts),  # type: ignore[arg-type]
        WARRIOR.index(mover),
    )


# -- the engine ---------------------------------------------------------------------------


class TeamStoneWarriors(BaseEngine[TeamPosition, TeamMove]):
    """Stone Warriors under Ludii's rules: the rules engine of ``[Ruleset "ludii"]``."""

    seats: tuple[str, ...] = SEATS
    squares: tuple[str, ...] = POINTS
    #: each seat's team (live play, zrec.play.live, takes a team as one party: it
    #: resigns, loses on time and agrees to a draw as one)
    teams: tuple[int, ...] = TEAM

    def __init__(self, title: str, options: Mapping[str, str]) -> None:
        self.title = title
        self.options: Mapping[str, str] = MappingProxyType(dict(options))
        self.ruleset = "ludii"
        #: the compiled kernel's board (``None``: the Python engine)
        self._board = self._compiled()

    def _compiled(self) -> object | None:
        """The kernel's board (:mod:`zrec.rules.kernel`), made from this module's
        tables, or ``None``."""
        compiled = kernel.load(__package__ or "")
        if compiled is None:
            return None
        board: object = compiled.TeamBoard(
            targets=_TARGETS,
            # (victim, point beyond it) of each capture line, flattened, in Ludii's order
            lines=tuple(tuple(x for line in lines for x in line) for lines in _LINES),
            order=sorted(range(len(POINTS)), key=sort_key),
            team_homes=_TEAM_HOME,
            step=STEP,
            turn_limit=TURN_LIMIT,
            position=TeamPosition,
            move=TeamMove,
            pass_move=PASS_MOVE,
            names=dict(INDEX),
        )
        return board

    # -- positions ---------------------------------------------------------------------

    def start(self) -> TeamPosition:
        return start_position()

    def setup(self, text: str) -> TeamPosition:
        return parse_setup(text)

    def setup_text(self, pos: TeamPosition) -> str:
        return setup_text(pos)

    def key(self, pos: TeamPosition) -> bytes:
        if self._board is not None:
            native: bytes = self._board.key(pos)  # type: ignore[attr-defined]
            return native
        out = bytearray((pos.to_move, *pos.hands, min(pos.passes, 4)))
        for seat in range(4):
            for bits in (pos.pieces[seat] & ~pos.large, pos.pieces[seat] & pos.large):
                for i in _squares(bits):
                    out += i.to_bytes(2, "big")
                out += b"\xff\xff"
        return bytes(out)

    def place(
        self,
        pieces: Mapping[str, str],
        *,
        to_move: str = "South",
        hands: str = "",
        scores: tuple[int, int, int, int] = (0, 0, 0, 0),
    ) -> TeamPosition:
        """A position from piece codes, as :meth:`pieces` gives them (``S`` a South
        warrior, ``SL`` South's large piece...); ``hands``: the seats whose large
        piece is in hand, by initial (``"SWNE"``).  Raises :class:`SetupError`."""
        if to_move not in SEATS:
            raise SetupError(f"the seat to move is {to_move!r}: South, West, North or East")
        owned = [0, 0, 0, 0]
        large = 0
        for point, code in pieces.items():
            if point not in INDEX or code[:1] not in "SWNE" or code[1:] not in ("", "L"):
                raise SetupError(f"cannot place {code!r} on {point!r}: codes S, SL, W, WL...")
            seat = "SWNE".index(code[0])
            owned[seat] |= _BIT[INDEX[point]]
            if code.endswith("L"):
                large |= _BIT[INDEX[point]]
        drawn = TeamPosition(tuple(owned), large, (False,) * 4, scores,  # type: ignore[arg-type]
                             SEATS.index(to_move))
        board = setup_text(drawn).split()[0]
        mover = WARRIOR[SEATS.index(to_move)]
        return self.setup(f"{board} {mover} {hands or '-'} {'-'.join(map(str, scores))}")

    def view(self, pos: TeamPosition) -> View:
        return View(BOARD, self.seats, self.view_pieces(pos))

    def view_pieces(self, pos: TeamPosition) -> tuple[Piece, ...]:
        out = []
        for i in _squares(pos.pieces[0] | pos.pieces[1] | pos.pieces[2] | pos.pieces[3]):
            seat, big = pos.owner(i), bool(pos.large & _BIT[i])
            code = SEATS[seat][0] + ("L" if big else "")
            out.append(Piece(POINTS[i], seat, "large" if big else "", code))
        return tuple(out)

    def pieces(self, pos: TeamPosition) -> dict[str, str]:
        """Occupied points: name -> ``S``, ``W``, ``N``, ``E`` (warriors) or ``SL``,
        ``WL``, ``NL``, ``EL`` (large pieces)."""
        return {p.square: p.code for p in self.view_pieces(pos)}

    def material(self, pos: TeamPosition) -> tuple[int, ...]:
        return tuple(bits.bit_count() for bits in pos.pieces)

    def standing(self, pos: TeamPosition) -> str:
        on = ", ".join(f"{n} {pos.pieces[s].bit_count()}" for s, n in enumerate(SEATS))
        return f"pieces on the board: {on}; {_score_words(pos)}"

    def render(self, pos: TeamPosition) -> str:
        lines = []
        for number in range(29, 0, -1):
            cells = [" "] * 29
            for i in _ROWS[number - 1]:
                cells[COORDS[i][0]] = _letter(pos, i)
            lines.append(f"{number:>2}  {' '.join(cells).rstrip()}")
        lines.append("    " + "   ".join("abcdefghijklmno"))
        hands = [SEATS[s] for s in range(4) if pos.hands[s]]
        lines.append(
            f"{SEATS[pos.to_move]} to move (round {pos.ply // 4 + 1}); large pieces in "
            f"hand: {', '.join(hands) or 'none'}; {_score_words(pos)}"
        )
        return "\n".join(lines)

    # -- turns -------------------------------------------------------------------------

    def to_move(self, pos: TeamPosition) -> int | None:
        return None if pos.over() else pos.to_move

    def move_number(self, pos: TeamPosition) -> MoveNumber:
        return numbered(pos.ply // 4 + 1, 1 if pos.to_move == 0 else 3, True, pos.to_move)

    def _capture(self, pos: TeamPosition, target: int, mover_bits: int) -> tuple[int, ...]:
        """What a piece of the seat to move landing on ``target`` captures, in Ludii's
        order; ``mover_bits``: the seat's pieces after the step."""
        team = TEAM[pos.to_move]
        partner = 3 - pos.to_move
        friends = mover_bits | pos.pieces[partner]
        enemies = pos.team_pieces(1 - team)
        return tuple(
            victim for victim, beyond in _LINES[target]
            if enemies & _BIT[victim] and friends & _BIT[beyond]
        )

    def _step(self, pos: TeamPosition, origin: int, target: int) -> TeamMove:
        own = pos.pieces[pos.to_move] ^ _BIT[origin] ^ _BIT[target]
        found = self._capture(pos, target, own)
        if not found:
            return TeamMove("step", origin, target)
        placed = found[0] if pos.hands[pos.to_move] else -1
        return TeamMove("step", origin, target, tuple(sorted(found, key=sort_key)), placed)

    def legal_moves(
        self, pos: TeamPosition, roll: Sequence[int] | None = None
    ) -> Sequence[TeamMove]:
        if self._board is not None:
            listed: Sequence[TeamMove] = self._board.moves(pos)  # type: ignore[attr-defined]
            return listed
        if pos.over():
            return ()
        seat = pos.to_move
        own = pos.pieces[seat]
        occupied = pos.pieces[0] | pos.pieces[1] | pos.pieces[2] | pos.pieces[3]
        moves = [
            self._step(pos, i, t)
            for i in _squares(own)
            for t in _TARGETS[seat][1 if pos.large & _BIT[i] else 0][i]
            if not occupied & _BIT[t]
        ]
        return tuple(moves) or (PASS_MOVE,)

    def apply(
        self, pos: TeamPosition, move: TeamMove
    ) -> tuple[TeamPosition, tuple[Event, ...]]:
        seat = pos.to_move
        after_seat, ply = (seat + 1) % 4, pos.ply + 1
        if move.kind == "pass":
            return TeamPosition(pos.pieces, pos.large, pos.hands, pos.scores, after_seat,
                                ply, pos.passes + 1), ()
        pieces = list(pos.pieces)
        moved = _BIT[move.origin] | _BIT[move.target]
        pieces[seat] ^= moved
        large = pos.large ^ moved if pos.large & _BIT[move.origin] else pos.large
        hands, scores = pos.hands, pos.scores
        events: tuple[Event, ...] = ()
        if move.captures:
            gone = sum(_BIT[c] for c in move.captures)
            for s in range(4):
                pieces[s] &= ~gone
            large &= ~gone
            scores = tuple(  # type: ignore[assignment]
                n + len(move.captures) if s == seat else n for s, n in enumerate(scores)
            )
            events = self._events(pos, move)
            if move.placed >= 0:
                pieces[seat] |= _BIT[move.placed]
                large |= _BIT[move.placed]
                hands = tuple(h and s != seat for s, h in enumerate(hands))  # type: ignore[assignment]
        after = TeamPosition(tuple(pieces), large, hands, scores, after_seat, ply, 0)  # type: ignore[arg-type]
        return after, events

    def _events(self, pos: TeamPosition, move: TeamMove) -> tuple[Event, ...]:
        names = tuple(POINTS[c] for c in move.captures)
        losers = sorted({pos.owner(c) for c in move.captures})
        who = " and ".join(SEATS[s] for s in losers)
        mover = SEATS[pos.to_move]
        words = f"{who} {'lose' if len(losers) > 1 else 'loses'} {listing(names)}"
        events = [Event(REMOVED, f"{words}; {mover} scores {len(names)}", names)]
        if move.placed >= 0:
            spot = POINTS[move.placed]
            events.append(Event("large-placed", f"{mover}'s large piece is placed on {spot}",
                                (spot,)))
        return tuple(events)

    def sample_move(
        self, pos: TeamPosition, roll: Sequence[int] | None, rng: random.Random
    ) -> TeamMove | None:
        if self._board is not None:
            move: TeamMove | None = self._board.sample(pos, rng)  # type: ignore[attr-defined]
            return move
        moves = list(self.legal_moves(pos))
        return choose(moves, rng)

    def count_sequences(self, pos: TeamPosition, depth: int) -> list[int]:
        """Perft from ``pos`` (:func:`zrec.rules.loops.count_sequences`), native with
        the kernel."""
        if self._board is None:
            return reference_counts(self, pos, depth)
        counts: list[int] = self._board.perft(pos, depth)  # type: ignore[attr-defined]
        return counts

    def play_randomly(
        self, pos: TeamPosition, rng: random.Random, max_moves: int, max_turns: int
    ) -> Played[TeamPosition]:
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
        pos: TeamPosition,
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
            pos, turns, numbers, dots, keys
        )
        return Run(played, after, plies, found, removals)

    def routes(self, pos: TeamPosition, move: TeamMove) -> tuple[tuple[str, ...], ...]:
        if move.kind == "pass":
            return ()
        return ((POINTS[move.origin], POINTS[move.target]),)

    def click_table(
        self, pos: TeamPosition, roll: Sequence[int] | None = None
    ) -> ClickTable[TeamMove]:
        """A piece, then its target; a pass no click (a button)."""
        return ClickTable([
            Entry(m, m.text(), sum(self.routes(pos, m), ())) for m in self.legal_moves(pos)
        ])

    # -- written moves -------------------------------------------------------------------

    def spell(self, pos: TeamPosition, move: TeamMove) -> Turn:
        if move.kind == "pass":
            return Turn((PASS,))
        squares = (POINTS[move.origin], POINTS[move.target], *(POINTS[c] for c in move.captures))
        n = len(squares) - 1
        return Turn((Action("path", squares, ("-",) + ("x",) * (n - 1), (None,) * n),))

    def _illegal(self, pos: TeamPosition, reason: str, code: str = "illegal-move"
                 ) -> IllegalMoveError:
        return IllegalMoveError(reason, sorted(m.text() for m in self.legal_moves(pos)), code)

    def resolve(self, pos: TeamPosition, turn: Turn) -> Resolved[TeamMove]:
        end = self.outcome(pos)
        if end is not None:
            raise IllegalMoveError(f"the game is over: {end.reason}", (), "game-over")
        if turn.dice is not None:
            raise self._illegal(pos, "Stone Warriors is played without dice: write no roll")
        if len(turn.actions) != 1:
            raise self._illegal(pos, "write one move at a time")
        action, seat = turn.actions[0], pos.to_move
        name = SEATS[seat]
        for square in action.squares:
            if square not in INDEX:
                raise self._illegal(pos, f"{square} is not a point of the board")
        if action.kind == "pass":
            if self.legal_moves(pos) != (PASS_MOVE,):
                raise self._illegal(pos, f"{name} cannot pass: it has legal moves")
            return Resolved(PASS_MOVE)
        if action.kind == "drop":
            raise self._illegal(
                pos, "under Ludii's rules the large piece is placed by the capture itself: "
                "write the capturing step only"
            )
        if action.kind != "path":
            raise self._illegal(pos, f"{action.text()} is not a move of Stone Warriors")
        squares, seps = action.squares, action.seps
        if len(squares) < 2 or len(seps) != len(squares) - 1:
            raise self._illegal(pos, "a move names the point it leaves and the one it reaches")
        if any(via is not None for via in action.vias):
            raise self._illegal(pos, "pieces never jump in Stone Warriors: write no (point)")
        step = f"{squares[0]}-{squares[1]}"
        if seps[0] != "-" or any(sep != "x" for sep in seps[1:]):
            reason = f"write the step with '-' ({step}), then each captured point after 'x'"
            raise self._illegal(pos, reason)
        origin, target = INDEX[squares[0]], INDEX[squares[1]]
        if pos.owner(origin) != seat:
            raise self._illegal(pos, f"there is no {name} piece on {squares[0]}")
        d = DIRECTION.get((origin, target))
        if d is None:
            raise self._illegal(
                pos, f"a piece steps to a neighbouring point: {squares[1]} is not next to "
                f"{squares[0]} along a line"
            )
        large = bool(pos.large & _BIT[origin])
        if d not in _dirs(seat, large):
            raise self._illegal(pos, self._why_not(seat, large, d))
        if any(pos.pieces[s] & _BIT[target] for s in range(4)):
            raise self._illegal(pos, f"{squares[1]} is not empty")
        move = self._step(pos, origin, target)
        actual, written = [POINTS[c] for c in move.captures], list(squares[2:])
        if actual and not written:
            message = f"{step} captures {listing(actual)}; write {move.text()}"
            return Resolved(move, (Finding("missing-captures", "warning", message),))
        if sorted(written) != sorted(actual):
            actual_words = _captured(actual, written)
            reason = f"{step} captures {actual_words}, not {_captured(written, actual)}"
            raise self._illegal(pos, reason, "wrong-captures")
        return Resolved(move)

    @staticmethod
    def _why_not(seat: int, large: bool, d: int) -> str:
        allowed = " or ".join(DIRECTION_NAMES[x] for x in sorted(_dirs(seat, large)))
        if large:
            return (
                f"{SEATS[seat]}'s large piece steps {allowed}, not {DIRECTION_NAMES[d]} "
                "(never backward)"
            )
        return (
            f"a warrior steps only diagonally forward: {SEATS[seat]}'s warriors step "
            f"{allowed}, not {DIRECTION_NAMES[d]}"
        )

    # -- the end -------------------------------------------------------------------------

    def outcome(self, pos: TeamPosition) -> Outcome | None:
        if not pos.over():
            return None
        draw: tuple[Fraction, ...] = (_HALF,) * 4
        if pos.crossed(0) and pos.crossed(1):
            one, two = pos.team_score(0), pos.team_score(1)
            why = "both teams stand on the other team's start points"
            if one == two:
                scores = draw
            else:
                win = 0 if one > two else 1
                scores = tuple(_ONE if TEAM[s] == win else _NIL for s in range(4))
            return Outcome("crossed", scores, f"{why}; {_score_words(pos)}")
        if pos.passes >= 4:
            return Outcome("all-passed", draw, "every seat had to pass, one after the other")
        return Outcome(
            "turn-limit", draw,
            f"Ludii's turn limit ({TURN_LIMIT} turns) is reached; {_score_words(pos)}",
        )

    def judge_end(
        self, pos: TeamPosition, result: str, tags: Mapping[str, str]
    ) -> list[Finding]:
        found: list[Finding] = []
        end = self.outcome(pos)
        if result not in RESULTS:
            message = (
                f"{result!r} is not a result of two teams: write 1-0-0-1 (South and East "
                "win), 0-1-1-0 (West and North win), 1/2-1/2-1/2-1/2 or *"
            )
            found.append(Finding("wrong-result", "error", message))
        elif end is not None and result != end.result:
            message = (
                f"the game is over ({end.reason}), so the result is {end.result}, "
                f"not {result}"
            )
            found.append(Finding("wrong-result", "error", message))
        elif end is None and result != "*":
            message = (
                f"the game is not over by rule ({SEATS[pos.to_move]} is to move; "
                f"{_score_words(pos)}): the result {result} records a game ended by "
                "agreement or abandoned"
            )
            found.append(Finding("ended-early", "warning", message))
        if "Score" in tags:
            written = tags["Score"].strip()
            parts = written.split("-")
            if len(parts) != 4 or not all(p.isdigit() for p in parts):
                message = (
                    f'[Score "{tags["Score"]}"] is not a score: write the captures of South, '
                    'West, North and East, e.g. [Score "2-1-0-1"]'
                )
                found.append(Finding("bad-score", "error", message, "Score"))
            elif tuple(int(p) for p in parts) != pos.scores:
                message = f'[Score "{written}"] is wrong: {_score_words(pos)}'
                found.append(Finding("wrong-score", "error", message, "Score"))
        return found


def _captured(points: Sequence[str], other: Sequence[str]) -> str:
    """Captured points in words, "alone" marking one point the other list also has."""
    text = listing(points)
    return text + " alone" if len(points) == 1 and points[0] in other else text


def _score_words(pos: TeamPosition) -> str:
    each = ", ".join(f"{SEATS[s]} {pos.scores[s]}" for s in range(4))
    return (
        f"captures {pos.team_score(0)}-{pos.team_score(1)} "
        f"({TEAM_NAMES[0]} against {TEAM_NAMES[1]}; {each})"
    )
