"""Stone Warriors keeps its board as bitmasks that each move updates: nothing changes.

The engine no longer copies the board for a move nor scans it for the end test: a move
flips the bits of the squares it touches, and the end test masks and counts bits.  Here
a reference plays the same random games the old way, on the board as text (each move
copies the cells, the end test and the move generation scan them), and at every ply
the engine's position, end state, legal moves (in order: random games depend on it),
key and move number must equal the reference's, computed from scratch.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from written import turn

from zrec.moves import Action, Turn
from zrec.rules.base import REMOVED, IllegalMoveError
from zrec.rules.stonewarriors.board import (
    ARMS,
    DIAGONAL,
    EMPTY,
    HOME,
    INDEX,
    NAME,
    ORTHOGONAL,
    OWN,
    STEP,
    sort_key,
)
from zrec.rules.stonewarriors.position import StoneMove, StonePosition
from zrec.rules.stonewarriors.rules import StoneWarriors

GAMES = 160  # per rule set; each runs to its end or 300 plies
MAX_PLIES = 300
ENGINES = {(r, f): StoneWarriors(r, f) for r in ("default", "culin") for f in ("White", "Black")}


# -- the reference: the board as text, every question answered by a full scan -------------


def dirs_of(culin: bool, side: int, priest: bool) -> tuple[int, ...]:
    """The directions a piece steps in (docs/rules.md, Stone Warriors: moves, the Culin rule
    set)."""
    forward, diagonals = (0, (7, 1)) if side == 0 else (4, (5, 3))  # N (NW, NE) / S (SW, SE)
    if culin:
        return (forward, 2, 6, *diagonals) if priest else diagonals
    return tuple(range(8)) if priest else (forward, 2, 6)


@dataclass
class Reference:
    """One game played on the cells, the way the engine played before it kept bitmasks."""

    culin: bool
    cells: str
    to_move: int
    priests_off: tuple[bool, bool]
    ply: int = 0
    passes: int = 0

    def count(self, side: int) -> int:
        return self.cells.count(OWN[side][0]) + self.cells.count(OWN[side][1])

    def across(self, side: int) -> int:
        return sum(1 for i in ARMS[HOME[1 - side]] if self.cells[i] in OWN[side])

    def lost(self, side: int) -> int:
        return 7 - self.count(side) - int(self.priests_off[side])

    def crossed(self) -> list[int]:
        return [s for s in (0, 1) if self.across(s) == self.count(s)]

    def over(self) -> bool:
        return self.passes >= 2 or bool(self.crossed())

    def score(self) -> tuple[int, int]:
        return self.across(0) + self.lost(1), self.across(1) + self.lost(0)

    def entries(self) -> tuple[int, ...]:
        side = self.to_move
        if not (self.priests_off[side] and self.lost(side) > 0):
            return ()
        return tuple(i for i in ARMS[HOME[side]] if self.cells[i] == EMPTY)

    def captures(self, side: int, target: int) -> tuple[int, ...]:
        found = []
        for d in DIAGONAL if self.culin else ORTHOGONAL:
            victim = STEP[d][target]
            if victim >= 0 and self.cells[victim] in OWN[1 - side]:
                beyond = STEP[d][victim]
                if beyond >= 0 and self.cells[beyond] in OWN[side]:
                    found.append(victim)
        return tuple(sorted(found, key=sort_key))

    def moves(self) -> list[StoneMove]:
        if self.over():
            return []
        entries = self.entries()
        if entries:
            return [StoneMove("enter", target=i) for i in entries]
        side, found = self.to_move, []
        for letter in OWN[side]:
            i = self.cells.find(letter)
            while i >= 0:
                for d in dirs_of(self.culin, side, letter in "Pp"):
                    t = STEP[d][i]
                    if t >= 0 and self.cells[t] == EMPTY:
                        found.append(StoneMove("step", i, t, self.captures(side, t)))
                i = self.cells.find(letter, i + 1)
        return found or [StoneMove("pass")]

    def play(self, move: StoneMove) -> None:
        cells, side = list(self.cells), self.to_move
        if move.kind == "pass":
            self.to_move, self.ply, self.passes = 1 - side, self.ply + 1, self.passes + 1
            return
        if move.kind == "enter":
            cells[move.target] = OWN[side][1]
            off = list(self.priests_off)
            off[side] = False
            self.cells, self.priests_off = "".join(cells), (off[0], off[1])
            return
        cells[move.target], cells[move.origin] = cells[move.origin], EMPTY
        for c in move.captures:
            cells[c] = EMPTY
        self.cells = "".join(cells)
        self.to_move, self.ply, self.passes = 1 - side, self.ply + 1, 0

    def key(self) -> bytes:
        out = bytearray((self.to_move, *self.priests_off, min(self.passes, 2)))
        for letter in "WPwp":
            i = self.cells.find(letter)
            while i >= 0:
                out.append(i)
                i = self.cells.find(letter, i + 1)
            out.append(255)
        return bytes(out)


# -- the check, ply by ply -----------------------------------------------------------------


def check(v: StoneWarriors, pos: StonePosition, ref: Reference) -> None:
    """The engine's position and everything it answers equal the reference's."""
    assert pos.cells == ref.cells
    fresh = StonePosition(ref.cells, ref.to_move, ref.priests_off, ref.ply, ref.passes)
    assert pos == fresh and hash(pos) == hash(fresh)
    assert not pos.white & pos.black and pos.priests & ~(pos.white | pos.black) == 0
    for side in (0, 1):
        assert pos.on_board(side) == ref.count(side)
        assert pos.across(side) == ref.across(side)
        assert pos.lost(side) == ref.lost(side)
        assert pos.crossed(side) == (side in ref.crossed())
    assert pos.over() == ref.over()
    end = v.outcome(pos)
    if not ref.over():
        assert end is None and v.to_move(pos) == ref.to_move
    else:
        assert end is not None and v.to_move(pos) is None
        white, black = ref.score()
        assert end.termination == ("both-passed" if ref.passes >= 2 else "crossed")
        assert end.result == ("1-0" if white > black else "0-1" if black > white else "1/2-1/2")
    entries = ref.entries()
    assert pos.entries() == entries and pos.must_enter() == bool(entries)
    assert v.move_number(pos).turn == (not entries)
    assert list(v.legal_moves(pos)) == ref.moves()
    assert v.key(pos) == ref.key()


def play_games(ruleset: str, seed: int, games: int) -> tuple[int, set[str]]:
    """Random games (leaning forward, as ``zrec random`` plays them), checked at every
    ply; the plies played and the kinds of moves and endings met."""
    rng = random.Random(seed)
    plies, seen = 0, set[str]()
    for number in range(games):
        first = ("White", "Black")[number % 2]
        v = ENGINES[ruleset, first]
        pos = v.start()
        ref = Reference(ruleset == "culin", pos.cells, pos.to_move, pos.priests_off)
        for _ in range(MAX_PLIES):
            check(v, pos, ref)
            move = v.sample_move(pos, None, rng)
            if move is None:
                seen.add("ended" if v.outcome(pos) is not None else "stuck")
                break
            seen.add(move.kind + ("x" if move.captures else ""))
            written = v.spell(pos, move)
            resolved = v.resolve(pos, written)  # the fast path, mostly
            assert resolved == v._resolve_checked(pos, written)
            assert resolved.move == move and resolved.notes == ()
            pos, events = v.apply(pos, move)
            ref.play(move)
            removed = [set(e.squares) for e in events if e.code == REMOVED]
            assert removed == ([{NAME[c] for c in move.captures}] if move.captures else [])
            plies += 1
        check(v, pos, ref)
    return plies, seen


@pytest.mark.parametrize(
    ("ruleset", "seed", "kinds"),
    [
        ("default", 31, {"step", "stepx", "enter", "ended"}),
        ("culin", 32, {"step", "stepx", "enter", "pass", "ended"}),
    ],
)
def test_incremental_state_equals_a_full_recomputation(
    ruleset: str, seed: int, kinds: set[str]
) -> None:
    plies, seen = play_games(ruleset, seed, GAMES)
    assert plies > GAMES * 50
    assert kinds <= seen and "stuck" not in seen


def test_written_forms_off_the_fast_path_resolve_as_before() -> None:
    """Captures out of order or left out, wrong captures, a priest's step, a step when
    the game is over or the priest must enter: the fast path answers only for a step
    written in full and in order, and the full check answers the rest as it did."""
    v = StoneWarriors()
    pos = v.place({"g5": "W", "e6": "W", "g8": "W", "f6": "B", "g7": "B", "i5": "WP"})
    capture = StoneMove("step", INDEX["g5"], INDEX["g6"], (INDEX["f6"], INDEX["g7"]))
    for text, notes in (
        ("g5-g6xf6xg7", []),
        ("g5-g6xg7xf6", []),
        ("g5-g6", ["missing-captures"]),
    ):
        resolved = v.resolve(pos, turn(text))
        assert resolved == v._resolve_checked(pos, turn(text))
        assert resolved.move == capture and [n.code for n in resolved.notes] == notes
    jump = Turn((Action("path", ("g8", "h8"), ("-",), ("g9",)),))
    for written, code in (
        (turn("g5-g6xf6"), "wrong-captures"),
        (turn("g8-h8xh9"), "wrong-captures"),  # g8-h8 captures nothing
        (turn("g5-g4"), "illegal-move"),
        (turn("g5xg6xf6xg7"), "illegal-move"),
        (turn("e6-f6"), "illegal-move"),
        (turn("f6-f7"), "illegal-move"),  # a Black piece
        (jump, "illegal-move"),
    ):
        with pytest.raises(IllegalMoveError) as caught:
            v.resolve(pos, written)
        assert caught.value.code == code
    assert v.resolve(pos, turn("i5-h4")).move == StoneMove("step", INDEX["i5"], INDEX["h4"])
    assert v.resolve(pos, turn("g8-h8")).move == StoneMove("step", INDEX["g8"], INDEX["h8"])
    # (no priest due: one due would turn the fast path away on its own)
    white_crossed = v.place({"e14": "W", "f6": "B"}, to_move="Black", priests_off="-")
    black_crossed = v.place({"f6": "W", "e1": "B"}, priests_off="-")
    passed = replace(v.place({"f6": "W", "e9": "B"}, priests_off="-"), passes=2)
    for over, text in ((white_crossed, "f6-f5"), (black_crossed, "f6-f7"), (passed, "f6-f7")):
        with pytest.raises(IllegalMoveError) as caught:
            v.resolve(over, turn(text))
        assert caught.value.code == "game-over"
    due = v.place({"e2": "W", "f6": "B"}, priests_off="Pp")
    with pytest.raises(IllegalMoveError) as caught:
        v.resolve(due, turn("e2-e3"))
    assert caught.value.reason.startswith("the priest must enter now")


def test_positions_stay_values() -> None:
    """Positions made by a move compare, hash, copy and pickle as values, and
    ``dataclasses.replace`` makes a consistent one."""
    v = StoneWarriors()
    start = v.start()
    after, _ = v.apply(start, v.legal_moves(start)[0])
    assert start == v.start() and after != start
    assert pickle.loads(pickle.dumps(after)) == after
    moved = replace(after, to_move=0, ply=7)
    assert (moved.cells, moved.to_move, moved.ply) == (after.cells, 0, 7)
    assert StonePosition(after.cells, after.to_move, after.priests_off, after.ply) == after
    assert repr(after).startswith("StonePosition('wwwwww/12/")
    with pytest.raises(AttributeError):
        after.white = 0  # type: ignore[misc]


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10_000))
def test_the_engine_s_one_trick_makes_what_the_constructor_makes(seed: int) -> None:
    """``_fast.new_position`` (slot setters, no ``__init__``) and the constructor give
    equal positions, with equal hashes, keys and text, at every ply of a random game."""
    from zrec.rules.stonewarriors import _fast

    engine = ENGINES[("default", "White")]
    rng = random.Random(seed)
    pos = engine.start()
    for _ in range(60):
        values = (pos.white, pos.black, pos.priests, pos.to_move, pos.priests_off, pos.ply,
                  pos.passes)
        fast, slow = _fast.new_position(*values), _fast.new_position_slowly(*values)
        assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)
        assert engine.key(fast) == engine.key(slow) and fast.cells == slow.cells
        move = engine.sample_move(pos, None, rng)
        if move is None:
            break
        pos, _ = engine.apply(pos, move)
