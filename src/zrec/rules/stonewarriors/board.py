"""The cross board of Awithlaknakwe (Stone Warriors), its positions and how games end.

Everything here is the same under every rule option: the 168 squares (the 12×12 main
grid ``b2``-``m13`` and an arm of 6 squares centred on each side) and their neighbour
tables, the position and move values, the ``Setup`` string, a position's key, the
events of a capture, the score, the end of the game, the view for drawing and the text
drawing.  How pieces move and capture, and how written moves are read, is in
:mod:`zrec.rules.stonewarriors.rules`.

Squares are numbered on a 14×14 grid, ``index = (rank - 1) * 14 + file`` with files
``a``-``n`` as 0-13.  A position holds its pieces as bitmasks over these indices
(bit ``i`` is square ``i``), so that a move changes a few bits and copies no board.
Its *cells*, the board as text, have one character per grid point: ``"."`` an empty
square, ``" "`` a point outside the cross, else a piece: ``W``/``P`` White
warrior/priest, ``w``/``p`` Black warrior/priest.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Literal

from zrec.rules.base import REMOVED, BoardSpec, Event, Finding, Outcome, Piece, SetupError

WIDTH = 14
FILES = "abcdefghijklmn"
EMPTY, OUTSIDE = ".", " "
SIDES = ("White", "Black")
OWN = ("WP", "wp")  # warrior and priest letters of each side
HOME = ("south", "north")  # each side's home arm
CODES: Mapping[str, str] = MappingProxyType({"W": "W", "P": "WP", "w": "B", "p": "BP"})
#: Each piece letter's owner and kind, for drawing.
#: letter -> (owner, kind); a warrior is a side's plain piece, whose kind is "".
_PIECES = {"W": (0, ""), "P": (0, "priest"), "w": (1, ""), "p": (1, "priest")}
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_ONE, _NIL, _HALF = Fraction(1), Fraction(0), Fraction(1, 2)
_SCORES = {"1-0": (_ONE, _NIL), "0-1": (_NIL, _ONE), "1/2-1/2": (_HALF, _HALF)}

# Directions as (file step, rank step); north is towards rank 14.
N, NE, E, SE, S, SW, W, NW = range(8)
DELTAS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
ORTHOGONAL, DIAGONAL = (N, E, S, W), (NE, SE, SW, NW)


def _kind_at(f: int, r: int) -> str | None:
    """The kind of the grid point (file and rank from 0), or None outside the cross."""
    if 1 <= f <= 12 and 1 <= r <= 12:
        return "main"
    if 4 <= f <= 9 and r in (0, 13):
        return "south" if r == 0 else "north"
    if 4 <= r <= 9 and f in (0, 13):
        return "west" if f == 0 else "east"
    return None


_KINDS = [_kind_at(i % WIDTH, i // WIDTH) for i in range(WIDTH * WIDTH)]
#: Every square index, rank 1 first, west to east within a rank.
INDICES = tuple(i for i, k in enumerate(_KINDS) if k is not None)
#: The name of each grid point (``""`` outside the cross).
NAME = tuple(f"{FILES[i % WIDTH]}{i // WIDTH + 1}" if k else "" for i, k in enumerate(_KINDS))
INDEX: Mapping[str, int] = MappingProxyType({NAME[i]: i for i in INDICES})
#: Every square name, rank 1 first, west to east within a rank (168 names).
SQUARES = tuple(NAME[i] for i in INDICES)
#: Square name -> ``"main"``, ``"south"``, ``"north"``, ``"west"`` or ``"east"``.
SQUARE_KINDS: Mapping[str, str] = MappingProxyType(
    {NAME[i]: k for i, k in enumerate(_KINDS) if k is not None}
)
#: Arm name -> its six squares (indices), west to east or south to north.
ARMS: Mapping[str, tuple[int, ...]] = MappingProxyType(
    {a: tuple(i for i in INDICES if _KINDS[i] == a) for a in ("south", "north", "west", "east")}
)
#: The board for drawing: every square, each with its kind as its region.
BOARD = BoardSpec("grid", cells=SQUARES, regions=SQUARE_KINDS)


def _step(i: int, d: int) -> int:
    f, r = i % WIDTH + DELTAS[d][0], i // WIDTH + DELTAS[d][1]
    ok = 0 <= f < WIDTH and 0 <= r < WIDTH and _KINDS[i] and _KINDS[r * WIDTH + f]
    return r * WIDTH + f if ok else -1


#: ``STEP[d][i]``: the square next to ``i`` in direction ``d``, or -1 off the board.
STEP = tuple(tuple(_step(i, d) for i in range(WIDTH * WIDTH)) for d in range(8))
#: ``(from, to)`` -> direction, for every pair of neighbouring squares.
DIRECTION: Mapping[tuple[int, int], int] = MappingProxyType(
    {(i, STEP[d][i]): d for i in INDICES for d in range(8) if STEP[d][i] >= 0}
)
EMPTY_CELLS = "".join(EMPTY if k else OUTSIDE for k in _KINDS)
_RANKS = tuple(tuple(i for i in INDICES if i // WIDTH == r) for r in range(WIDTH))
_RUN = re.compile(r"[0-9]+|.")  # ASCII digits only: "²" or "８" is not a run
_SCORE = re.compile(r"(\d+)-(\d+)")


def sort_key(i: int) -> tuple[int, int]:
    """Order squares by file, then rank (the order captures are written in)."""
    return (i % WIDTH, i // WIDTH)


def arm_text(arm: str) -> str:
    """An arm written as a range, e.g. ``"e1-j1"``."""
    return f"{NAME[ARMS[arm][0]]}-{NAME[ARMS[arm][-1]]}"


def listing(squares: Sequence[str]) -> str:
    """Squares in words: ``"f7"``, ``"f7 and g6"``, ``"e6, f7 and g6"``."""
    if not squares:
        return "nothing"
    return squares[0] if len(squares) == 1 else f"{', '.join(squares[:-1])} and {squares[-1]}"


#: ``BIT[i]``: the bit of grid point ``i`` in a position's bitmasks.
BIT = tuple(1 << i for i in range(WIDTH * WIDTH))
#: Each side's home arm as a bitmask.
HOME_MASK = tuple(sum(BIT[i] for i in ARMS[HOME[side]]) for side in (0, 1))
#: ``OFF_TARGET[side]``: every square but the other side's home arm.  A side none of
#: whose pieces stands there has all of them on the enemy arm (the end test).
OFF_TARGET = tuple(sum(BIT[i] for i in INDICES) & ~HOME_MASK[1 - side] for side in (0, 1))


def squares_of(bits: int) -> Iterator[int]:
    """The grid points of a bitmask, lowest index first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def masks(cells: str) -> tuple[int, int, int]:
    """The bitmasks of cells: White's pieces, Black's pieces, the priests."""
    white = black = priests = 0
    for i, letter in enumerate(cells):
        if letter in OWN[0]:
            white |= BIT[i]
        elif letter in OWN[1]:
            black |= BIT[i]
        else:
            continue
        if letter in "Pp":
            priests |= BIT[i]
    return white, black, priests


@dataclass(frozen=True, slots=True, init=False, repr=False)
class StonePosition:
    """A position: the pieces, the side to move (0 White, 1 Black), which priests are
    still off the board, turns played (``ply``, 0 at the ``First`` side's first turn)
    and the passes made in a row just before.

    The pieces are bitmasks over the grid points (bit ``i`` is square ``i``):
    ``white`` and ``black`` hold every piece of the side, its priest included, and
    ``priests`` the squares of the priests on the board.  A move changes a few bits of
    them (:meth:`StoneWarriors.apply`): no move copies the board, and what the end
    test needs (the pieces of each side on the board and on the enemy home arm) is a
    mask and a bit count away.  :attr:`cells` is the board as text.

    Made from cells, ``StonePosition(cells, to_move, priests_off, ply, passes)``, or
    from the bitmasks by keyword, ``white=``, ``black=``, ``priests=`` (as
    :func:`dataclasses.replace` does); cells, when given, set the pieces.
    """

    white: int
    black: int
    priests: int
    to_move: int
    priests_off: tuple[bool, bool]
    ply: int = 0
    passes: int = 0

    def __init__(
        self,
        cells: str | None = None,
        to_move: int = 0,
        priests_off: tuple[bool, bool] = (True, True),
        ply: int = 0,
        passes: int = 0,
        *,
        white: int = 0,
        black: int = 0,
        priests: int = 0,
    ) -> None:
        if cells is not None:
            white, black, priests = masks(cells)
        values = (white, black, priests, to_move, priests_off, ply, passes)
        for set_slot, value in zip(SET_SLOTS, values, strict=True):
            set_slot(self, value)

    def __repr__(self) -> str:
        return (
            f"StonePosition({board_text(self.cells)!r}, to_move={self.to_move}, "
            f"priests_off={self.priests_off}, ply={self.ply}, passes={self.passes})"
        )

    @property
    def cells(self) -> str:
        """One character per grid point: ``"."`` an empty square, ``" "`` a point
        outside the cross, ``W``/``P`` a White warrior/priest, ``w``/``p`` Black's."""
        cells = list(EMPTY_CELLS)
        for i in squares_of(self.white | self.black):
            cells[i] = self.letter(i)
        return "".join(cells)

    def letter(self, i: int) -> str:
        """The letter of the piece on square ``i`` (``"."`` when it is empty)."""
        bit = BIT[i]
        side = 0 if self.white & bit else 1 if self.black & bit else -1
        if side < 0:
            return EMPTY
        return OWN[side][1 if self.priests & bit else 0]

    def pieces_of(self, side: int) -> int:
        """The bitmask of the pieces of ``side``."""
        return self.black if side else self.white

    def on_board(self, side: int) -> int:
        """How many pieces of ``side`` stand on the board."""
        return (self.black if side else self.white).bit_count()

    def lost(self, side: int) -> int:
        """How many pieces ``side`` has lost (captured by the other side)."""
        return 7 - self.on_board(side) - int(self.priests_off[side])

    def entry_due(self, side: int) -> bool:
        """Whether the priest of ``side`` must enter as soon as its home arm has room."""
        return self.priests_off[side] and self.lost(side) > 0

    def must_enter(self) -> bool:
        """Whether the side to move must enter its priest now (:meth:`entries` is not
        empty)."""
        side = self.to_move
        return (
            self.priests_off[side]
            and (self.black if side else self.white).bit_count() < 6  # a loss: due
            and bool(HOME_MASK[side] & ~(self.white | self.black))
        )

    def entries(self) -> tuple[int, ...]:
        """The squares where the side to move must enter its priest now (else none)."""
        if not self.entry_due(self.to_move):
            return ()
        free = HOME_MASK[self.to_move] & ~(self.white | self.black)
        return tuple(i for i in ARMS[HOME[self.to_move]] if free & BIT[i])

    def across(self, side: int) -> int:
        """How many pieces of ``side`` stand on the other side's home arm."""
        return ((self.black if side else self.white) & HOME_MASK[1 - side]).bit_count()

    def crossed(self, side: int) -> bool:
        """Whether every piece of ``side`` on the board stands on the other side's home
        arm (true too when it has none on the board)."""
        return not (self.black if side else self.white) & OFF_TARGET[side]

    def over(self) -> bool:
        """Whether the game is over by rule: two passes in a row, or a side with every
        piece on the board on the enemy home arm (:func:`outcome` says how)."""
        return self.passes >= 2 or not self.white & OFF_TARGET[0] or not self.black & OFF_TARGET[1]


#: The setters of the slots of a position, in the order of its fields: a position is
#: made with them (a frozen dataclass's own ``__setattr__`` refuses).
SET_SLOTS = tuple(
    StonePosition.__dict__[name].__set__
    for name in ("white", "black", "priests", "to_move", "priests_off", "ply", "passes")
)


@dataclass(frozen=True, slots=True)
class StoneMove:
    """A move: a ``step`` from ``origin`` to ``target`` removing ``captures`` (by file,
    then rank), the priest's ``enter`` on ``target``, or a ``pass``."""

    kind: Literal["step", "enter", "pass"]
    origin: int = -1
    target: int = -1
    captures: tuple[int, ...] = ()

    def text(self) -> str:
        """The move in the notation: ``f5-f6xf7``, ``P@g14`` or ``--``."""
        if self.kind == "pass":
            return "--"
        if self.kind == "enter":
            return f"P@{NAME[self.target]}"
        steps = [NAME[self.origin], "-", NAME[self.target]]
        return "".join(steps + [f"x{NAME[c]}" for c in self.captures])

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<StoneMove {self.text()}>"


PASS_MOVE = StoneMove("pass")


# -- the Setup string --------------------------------------------------------------------


def start_position(first: int) -> StonePosition:
    """Warriors on their home arms, both priests off the board, ``first`` to move."""
    cells = list(EMPTY_CELLS)
    for side in (0, 1):
        for i in ARMS[HOME[side]]:
            cells[i] = OWN[side][0]
    return StonePosition("".join(cells), first, (True, True))


def board_text(cells: str) -> str:
    """The board field of a Setup string: ranks 14 to 1, ``/`` between them."""
    ranks = []
    for squares in reversed(_RANKS):
        row = "".join(cells[i] for i in squares)
        ranks.append(re.sub(r"\.+", lambda run: str(len(run[0])), row))
    return "/".join(ranks)


def parse_board(text: str) -> str:
    """The cells a Setup board field describes; raises :class:`SetupError`."""
    rows = text.split("/")
    if len(rows) != WIDTH:
        raise SetupError(f"the board has {len(rows)} ranks; it needs 14, rank 14 first")
    cells = list(EMPTY_CELLS)
    for row, rank in zip(rows, range(WIDTH, 0, -1), strict=True):
        squares, found = _RANKS[rank - 1], list[str]()
        for token in _RUN.findall(row):
            if token[0] in "123456789":
                # a run longer than the rank is refused below; never build a huge one
                run = int(token) if len(token) <= 3 else len(squares) + 1
                found.extend(EMPTY * min(run, len(squares) + 1))
            elif token in "WPwp":
                found.append(token)
            else:
                raise SetupError(
                    f"rank {rank} has {token[:12]!r}: write W, P, w, p, and a number for each "
                    "run of empty squares"
                )
        if len(found) != len(squares):
            raise SetupError(
                f"rank {rank} describes {len(found)} squares; it has {len(squares)} "
                f"({NAME[squares[0]]}-{NAME[squares[-1]]})"
            )
        for i, letter in zip(squares, found, strict=True):
            cells[i] = letter
    return "".join(cells)


def parse_setup(text: str, first: int) -> StonePosition:
    """The position a Setup string describes; raises :class:`SetupError`."""
    fields = text.split()
    if len(fields) != 3:
        raise SetupError(
            "a Setup string has three fields: the board (ranks 14 to 1), the side to move "
            "(w or b) and the priests still off the board (Pp, P, p or -)"
        )
    board, side, off = fields
    cells = parse_board(board)
    if side not in ("w", "b"):
        raise SetupError(f"the side to move is {side!r}: write w (White) or b (Black)")
    if off != "-" and (not set(off) <= {"P", "p"} or len(set(off)) != len(off)):
        raise SetupError(
            f"the priests off the board are {off!r}: write P (White's), p (Black's), Pp "
            "(both) or - (none)"
        )
    priests_off = ("P" in off, "p" in off)
    for s, name in enumerate(SIDES):
        warriors, priests = cells.count(OWN[s][0]), cells.count(OWN[s][1])
        if warriors > 6:
            raise SetupError(f"{name} has {warriors} warriors on the board; a side has 6")
        if priests > 1:
            raise SetupError(f"{name} has {priests} priests on the board; a side has 1")
        if priests and priests_off[s]:
            raise SetupError(f"{name}'s priest is both on the board and off it")
        if warriors == 6 and not priests_off[s]:
            raise SetupError(
                f"{name}'s priest has entered, but all 6 {name} warriors are on the board: "
                f"the priest enters only after {name}'s first loss"
            )
    to_move = "wb".index(side)
    return StonePosition(cells, to_move, priests_off, 0 if to_move == first else 1)


def setup_text(pos: StonePosition) -> str:
    """The Setup string of a position (inverse of :func:`parse_setup`)."""
    off = "".join(p for p, o in zip("Pp", pos.priests_off, strict=True) if o) or "-"
    return f"{board_text(pos.cells)} {'wb'[pos.to_move]} {off}"


def key(pos: StonePosition) -> bytes:
    """The position's key: the side to move, the priests off the board, the passes in a
    row (2 and more end the game alike), then the squares of each kind of piece."""
    out = bytearray((pos.to_move, *pos.priests_off, min(pos.passes, 2)))
    white, black, priests = pos.white, pos.black, pos.priests
    for bits in (white & ~priests, white & priests, black & ~priests, black & priests):
        out.extend(squares_of(bits))
        out.append(255)  # no square has this index
    return bytes(out)


def capture_events(pos: StonePosition, captures: Sequence[int]) -> tuple[Event, ...]:
    """The events of a step by the side to move of ``pos`` (the position before it)
    that removes ``captures``: the removal, and the priest due after a first loss."""
    victim = 1 - pos.to_move
    first = pos.priests_off[victim] and pos.lost(victim) == 0
    return _capture_events(victim, tuple(captures), first)


@lru_cache(maxsize=4096)
def _capture_events(victim: int, captures: tuple[int, ...], first: bool) -> tuple[Event, ...]:
    """The events of a capture (made once: replaying an archive makes the same captures
    again and again); ``first``: the victim's first loss, with its priest off the board."""
    squares = tuple(sorted((NAME[c] for c in captures), key=lambda s: (s[0], int(s[1:]))))
    events = [Event(REMOVED, f"{SIDES[victim]} loses {listing(squares)}", squares)]
    if first:
        home = HOME[victim]
        words = f"{SIDES[victim]}'s priest must enter on {arm_text(home)}"
        events.append(Event("priest-due", words, tuple(NAME[i] for i in ARMS[home])))
    return tuple(events)


# -- the end -----------------------------------------------------------------------------


def score(pos: StonePosition) -> tuple[int, int]:
    """Points of White and Black: own pieces on the enemy home arm + enemy pieces taken."""
    return pos.across(0) + pos.lost(1), pos.across(1) + pos.lost(0)


def score_words(pos: StonePosition) -> str:
    """The score and how it is made up, in words."""
    parts = []
    for side, name in enumerate(SIDES):
        there, taken = pos.across(side), pos.lost(1 - side)
        words = [f"{there} on {SIDES[1 - side]}'s home arm"] if there else []
        words += [f"{taken} captured"] if taken else []
        parts.append(f"{name}: {' + '.join(words) or '0'}")
    white, black = score(pos)
    return f"the score is {white}-{black} ({'; '.join(parts)})"


def outcome(pos: StonePosition) -> Outcome | None:
    """The result when the game is over in this position, else ``None``."""
    if not pos.over():
        return None
    if pos.passes >= 2:
        termination, why = "both-passed", "both sides had to pass, one after the other"
    else:
        termination = "crossed"
        done = [s for s in (0, 1) if pos.crossed(s)]
        why = " and ".join(
            f"{SIDES[s]} has no piece left on the board"
            if pos.on_board(s) == 0
            else f"every {SIDES[s]} piece on the board stands on {SIDES[1 - s]}'s home arm"
            for s in done
        )
    white, black = score(pos)
    result = "1-0" if white > black else "0-1" if black > white else "1/2-1/2"
    return Outcome(termination, _SCORES[result], f"{why}; the score is {white}-{black}")


def judge_end(pos: StonePosition, result: str, tags: Mapping[str, str]) -> list[Finding]:
    """Check a record's result and ``Score`` tag against its last position."""
    found: list[Finding] = []
    end = outcome(pos)
    if result not in RESULTS:
        message = f"{result!r} is not a result: write 1-0, 0-1, 1/2-1/2 or *"
        found.append(Finding("wrong-result", "error", message))
    elif end is not None and result != end.result:
        message = f"the game is over ({end.reason}), so the result is {end.result}, not {result}"
        found.append(Finding("wrong-result", "error", message))
    elif end is None and result != "*":
        message = (
            f"the game is not over by rule ({SIDES[pos.to_move]} is to move; "
            f"{score_words(pos)}): the result {result} records a game ended by agreement "
            "or abandoned"
        )
        found.append(Finding("ended-early", "warning", message))
    if "Score" in tags:
        written = tags["Score"].strip()
        match = _SCORE.fullmatch(written)
        if match is None:
            message = (
                f'[Score "{tags["Score"]}"] is not a score: write the points of White and '
                'Black, e.g. [Score "4-2"]'
            )
            found.append(Finding("bad-score", "error", message, "Score"))
        elif (int(match[1]), int(match[2])) != score(pos):
            message = f'[Score "{written}"] is wrong: {score_words(pos)}'
            found.append(Finding("wrong-score", "error", message, "Score"))
    return found


# -- pictures ----------------------------------------------------------------------------


def view_pieces(pos: StonePosition) -> tuple[Piece, ...]:
    """The pieces on the board, in the order of :data:`SQUARES`; their codes are ``W``,
    ``B`` (warriors), ``WP`` and ``BP`` (priests)."""
    letter = pos.letter
    return tuple(
        Piece(NAME[i], *_PIECES[code], CODES[code])
        for i in squares_of(pos.white | pos.black)
        for code in (letter(i),)
    )


def render(pos: StonePosition) -> str:
    """The board as text (rank 14 at the top), then who is to move, priests and score."""
    files = "    " + " ".join(FILES)
    lines = [files]
    cells = pos.cells
    for rank in range(WIDTH, 0, -1):
        row = " ".join(cells[(rank - 1) * WIDTH : rank * WIDTH])
        lines.append(f"{rank:>2}  {row}".rstrip())
    lines.append(files)
    side, off = SIDES[pos.to_move], [SIDES[s] for s in (0, 1) if pos.priests_off[s]]
    white, black = score(pos)
    lines.append(
        f"{side} to move (move {pos.ply // 2 + 1}); priests off the board: "
        f"{', '.join(off) or 'none'}; score {white}-{black}"
    )
    if pos.entry_due(pos.to_move):
        home = arm_text(HOME[pos.to_move])
        lines.append(
            f"{side}'s priest must enter now, on {home}"
            if pos.entries()
            else f"{side}'s priest enters once a square of {home} is empty"
        )
    end = outcome(pos)
    if end is not None:
        lines.append(f"game over, {end.result}: {end.reason}")
    return "\n".join(lines)
