"""An Awéthi position for people and drawings: view, text rendering and key.

Piece codes (the view's ``Piece.code``; ``k`` is the seat number, 1-4):

- ``Sk``: shepherds of Shepherdk, kind ``shepherd`` (``count``: how many stand there);
- ``ck``, ``wk``, ``bk``: a calf, cow, bull of Shepherdk's herd, kind ``calf``, ``cow``,
  ``bull`` (``hidden`` until the herd's first turn, ``state`` ``caught`` while a catch
  is pending);
- ``X``: wolves, kind ``wolf`` (``count``: how many stand there);
- ``Hk``: the animals in Shepherdk's shelter, kind ``sheltered`` (``count``);
- ``E``: the animals eaten, on the Lair, kind ``eaten`` (``count``).

The text rendering draws the map (rank 25 at the top), each square as its terrain
letter or its piece code (a caught animal in capitals: ``C1``, ``W1``, ``B1``), then
says whose turn it is and what it rolls, the pending catches, and what each shelter
holds and what the wolves ate.
"""

from __future__ import annotations

from collections import Counter

from zrec.rules.awethi.board import (
    CORNERS,
    FILES,
    KIND_LETTERS,
    KIND_WORDS,
    LAIR,
    NAME,
    SIZE,
    board_spec,
)
from zrec.rules.awethi.end import count_words, outcome
from zrec.rules.awethi.position import (
    NOT_CAUGHT,
    TURN_WORDS,
    WOLF_TURN,
    AwethiPosition,
    Counts,
    Table,
)
from zrec.rules.base import Piece, View

__all__ = ["key", "render", "setup_text", "view"]

_ROLLS = ("one d4 (1 north, 2 east, 3 south, 4 west)", "4×d4 (option e or s)", "d4+d6")


def view(t: Table, pos: AwethiPosition) -> View:
    pieces: list[tuple[int, int, Piece]] = []
    for seat, squares in enumerate(pos.shepherds):
        for square, n in sorted(Counter(squares).items()):
            pieces.append((square, 0, Piece(NAME[square], seat, "shepherd", f"S{seat + 1}", n)))
    for square, owner, kind, catcher in pos.animals:
        piece = Piece(
            NAME[square],
            owner,
            KIND_WORDS[kind],
            f"{KIND_LETTERS[kind]}{owner + 1}",
            hidden=not pos.revealed >> owner & 1,
            state="" if catcher == NOT_CAUGHT else "caught",
        )
        pieces.append((square, 1, piece))
    for square, n in sorted(Counter(pos.wolves).items()):
        pieces.append((square, 2, Piece(NAME[square], t.n, "wolf", "X", n)))
    for seat, counts in enumerate(pos.sheltered):
        if sum(counts):
            shelter = CORNERS[seat]
            piece = Piece(NAME[shelter], seat, "sheltered", f"H{seat + 1}", sum(counts))
            pieces.append((shelter, 3, piece))
    eaten = sum(sum(c) for c in pos.eaten)
    if eaten:
        pieces.append((LAIR, 3, Piece(NAME[LAIR], t.n, "eaten", "E", eaten)))
    pieces.sort(key=lambda p: (p[0], p[1]))
    return View(board_spec(t.map), t.names, tuple(p[2] for p in pieces))


def _cells(t: Table, pos: AwethiPosition) -> list[str]:
    cells = [f"{letter} " for letter in t.map.terrain]
    for square, owner, kind, catcher in pos.animals:
        letter = KIND_LETTERS[kind]
        cells[square] = f"{letter.upper() if catcher != NOT_CAUGHT else letter}{owner + 1}"
    for seat, squares in enumerate(pos.shepherds):
        for square in squares:
            cells[square] = f"S{seat + 1}"
    for square, n in Counter(pos.wolves).items():
        cells[square] = f"X{n}" if n > 1 else "X "
    return cells


def render(t: Table, pos: AwethiPosition) -> str:
    cells = _cells(t, pos)
    lines = ["    " + "  ".join(FILES)]
    for rank in range(SIZE, 0, -1):
        row = " ".join(cells[(rank - 1) * SIZE + f] for f in range(SIZE))
        lines.append(f"{rank:>2}  {row}".rstrip())
    lines.append("")
    if outcome(t, pos) is None:  # how a game ended is said once, by whoever shows it
        mover = "the Wolves'" if pos.stage == WOLF_TURN else f"{t.names[pos.seat]}'s"
        lines.append(
            f"Move {pos.group}: {mover} {TURN_WORDS[pos.stage]}, rolling {_ROLLS[pos.stage]}."
        )
    lines.append(f"The wolves are {'awake' if pos.awake else 'asleep'}.")
    pending = [a for a in pos.animals if a[3] != NOT_CAUGHT]
    if pending:
        words = "; ".join(f"{t.names[a[3]]} caught {t.animal_words(a)}" for a in pending)
        lines.append(f"Caught, to be sheltered: {words}.")
    sheltered = ", ".join(f"{t.names[k]} {count_words(c)}" for k, c in enumerate(pos.sheltered))
    eaten = ", ".join(f"{t.names[k]} {count_words(c)}" for k, c in enumerate(pos.eaten))
    lines.append(f"Sheltered: {sheltered}.")
    lines.append(f"Eaten, by herd: {eaten}.")
    return "\n".join(lines)


def key(pos: AwethiPosition) -> bytes:
    """Whose turn, the wolves' sleep, every piece, the pending catches and the shelters'
    and the wolves' tallies; not the move number nor which herds are face up."""
    out = bytearray((pos.seat, pos.stage, pos.awake, len(pos.animals)))
    for squares in pos.shepherds:
        for s in squares:
            out += s.to_bytes(2, "big")
    for square, owner, kind, catcher in pos.animals:
        out += square.to_bytes(2, "big")
        out += bytes((owner, kind, catcher + 1))
    for s in pos.wolves:
        out += s.to_bytes(2, "big")
    for counts in (*pos.sheltered, *pos.eaten):
        out += bytes(counts)
    return bytes(out)


def setup_text(t: Table, pos: AwethiPosition) -> str:
    """A compact description (not read back: the Map and Herd tags are the setup)."""
    mover = t.names[t.wolves_seat if pos.stage == WOLF_TURN else pos.seat]
    parts = [f"move {pos.group}, {mover} {TURN_WORDS[pos.stage]}, wolves "
             f"{'awake' if pos.awake else 'asleep'}"]  # fmt: skip
    for seat, squares in enumerate(pos.shepherds):
        parts.append(f"S{seat + 1} " + " ".join(NAME[s] for s in squares))
    animals = []
    for square, owner, kind, catcher in pos.animals:
        code = f"{KIND_LETTERS[kind]}{owner + 1}"
        animals.append(f"{code}{'/' + str(catcher + 1) if catcher != NOT_CAUGHT else ''}"
                       f"@{NAME[square]}")  # fmt: skip
    parts.append(" ".join(animals) or "no animals")
    parts.append("X " + " ".join(NAME[s] for s in pos.wolves))
    parts.append("sheltered " + " ".join(_letters(c) for c in pos.sheltered))
    parts.append("eaten " + " ".join(_letters(c) for c in pos.eaten))
    return "; ".join(parts)


def _letters(counts: Counts) -> str:
    return "".join(KIND_LETTERS[k] * n for k, n in enumerate(counts)) or "-"
