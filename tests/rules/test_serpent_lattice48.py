"""Kolowis on Ludii's 48-point board, ``[Lattice "48"]`` (docs/rules.md, Ludii's Kolowis
board): its points, lines and jumps (the ends above all), its start, Setup strings, the
drawing, the conflict with ``Pieces``, and perft against the naive generator
(tests/naive_serpent.py).

The lines and jumps below were checked against the board Ludii builds from its own
``Kolowis Awithlaknannai.lud`` (its edges and the hops it allows from every site):
Ludii agrees with every one of them.  Under Ludii's own reading (captures optional,
one hop a move), zrec's board gives Ludii's move counts from the start too (5, 19,
101, 540, 3,558, 22,863 for depths 1 to 6); that reading needs the options of another
part of zrec and is not tested here.
"""

from __future__ import annotations

import io

import pytest

from naive_serpent import Naive
from zrec.check.validate import validate_records
from zrec.notation.reader import read_records
from zrec.rules.base import OptionConflict, Setting, SetupError, check_options
from zrec.rules.serpent.rules import KOLOWIS, SerpentEngine, SerpentPosition

L48 = {"Lattice": "48"}
START_RIGHT = "BBBBBBBBBBBBBBBB/1BBBBBBB1WWWWWWW/WWWWWWWWWWWWWWWW w"
START_LEFT = "BBBBBBBBBBBBBBBB/1WWWWWWW1BBBBBBB/WWWWWWWWWWWWWWWW w"
CONFLICT = (
    'Pieces "{}" cannot go with Lattice "48": the 48-point board sets the pieces itself '
    "(23 a side, b1 and the centre empty, no first-move rule); leave out the Pieces tag"
)


def perft(v: SerpentEngine, pos: SerpentPosition, depth: int) -> int:
    moves = v.legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(v, v.apply(pos, m)[0], depth - 1) for m in moves)


def neighbours(v: SerpentEngine, point: str) -> set[str]:
    return {q for line in v.lines if point in line for q in line if q != point}


def jumps_at(v: SerpentEngine, *points: str) -> set[tuple[str, str, str]]:
    return {j for j in v.jumps if set(j) & set(points)}


# -- the board -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("board", "jumps", "lines", "count"),
    [("lined", "line", 107, 144), ("open", "line", 77, 88), ("lined", "bent", 107, 798),
     ("open", "bent", 77, 506)],
)  # fmt: skip
def test_board_counts(board: str, jumps: str, lines: int, count: int) -> None:
    v = KOLOWIS.engine(Board=board, Jumps=jumps, **L48)
    assert len(v.points) == 48 and "b17" not in v.points and v.centre == "b9"
    assert (len(v.lines), len(v.jumps)) == (lines, count)


def test_the_ends_are_ludiis() -> None:
    v = KOLOWIS.engine(**L48)
    # west: b1 joins a1, c1 and b2, and no jump goes round the end a1-b1-c1
    assert neighbours(v, "b1") == {"a1", "b2", "c1"}
    assert jumps_at(v, "b1") == {("b1", "b2", "b3"), ("b3", "b2", "b1")}
    # east: a16 and c16 join b16 only (and their own row); no jump a16-b16-c16
    assert neighbours(v, "a16") == {"a15", "b16"}
    assert neighbours(v, "c16") == {"c15", "b16"}
    assert neighbours(v, "b16") == {"a15", "a16", "b15", "c15", "c16"}
    assert jumps_at(v, "a16", "c16") == {
        ("a14", "a15", "a16"), ("a16", "a15", "a14"), ("a15", "b16", "c16"),
        ("c16", "b16", "a15"), ("a16", "b16", "c15"), ("c15", "b16", "a16"),
        ("c14", "c15", "c16"), ("c16", "c15", "c14"),
    }  # fmt: skip
    # the 49-point board keeps its curved ends
    assert ("a1", "b1", "c1") in KOLOWIS.engine().jumps
    assert ("a16", "b17", "c16") in KOLOWIS.engine().jumps


@pytest.mark.parametrize(("middle", "setup"), [("right", START_RIGHT), ("left", START_LEFT)])
def test_start(middle: str, setup: str) -> None:
    v = KOLOWIS.engine(Middle=middle, **L48)
    pos = v.start()
    assert v.setup_text(pos) == setup
    assert v.material(pos) == (23, 23)
    assert v.setup(setup) == pos


def test_first_moves_have_no_first_move_rule() -> None:
    right = KOLOWIS.engine(**L48)
    left = KOLOWIS.engine(Middle="left", **L48)
    spelled = [
        sorted(v.spell(v.start(), m).text() for m in v.legal_moves(v.start()))
        for v in (right, left)
    ]
    assert spelled == [
        ["a1-b1", "a8-b9", "a9-b9", "b10-b9"],
        ["a1-b1", "a8-b9", "a9-b9", "b2-b1", "b8-b9"],
    ]


def test_setup_strings_on_48_points() -> None:
    v = KOLOWIS.engine(**L48)
    text = "16/B15/W15 b"
    pos = v.setup(text)
    assert v.setup_text(pos) == text and v.pieces(pos) == {"a1": "W", "b1": "B"}
    example = "BBBBBBBBBBBBBBBB/BBBBBBBB1WWWWWWW/WWWWWWWWWWWWWWWW w"
    for bad, message in [
        ("16/17/16 w", "row b has 17 points; it must have 16"),
        ("16/16 w", f'a Setup for Kolowis Awithlaknannai is the rows c/b/a and the side to '
                    f'move, e.g. "{example}"; got "16/16 w"'),
        ("16/WWWWWWWW8/WWWWWWWWWWWWWWWW w",
         "White has 24 pieces; Kolowis Awithlaknannai has at most 23 a side"),
    ]:  # fmt: skip
        with pytest.raises(SetupError) as caught:
            v.setup(bad)
        assert str(caught.value) == message


def test_the_text_drawing_has_no_b17() -> None:
    lines = KOLOWIS.engine(**L48).render(KOLOWIS.engine(**L48).start()).splitlines()
    assert lines[2] == "     " + " ".join(["/ \\"] * 15) + " /"
    assert lines[3] == "b   " + "---".join(".BBBBBBB.WWWWWWW")
    assert lines[4] == "     " + " ".join(["\\ /"] * 15) + " \\"
    assert lines[6].endswith("15  16")


# -- Pieces does not apply -------------------------------------------------------------


def test_pieces_23_with_lattice_48_is_refused() -> None:
    with pytest.raises(OptionConflict) as caught:
        KOLOWIS.engine(Pieces="23", **L48)
    assert str(caught.value) == CONFLICT.format("23")
    assert (caught.value.tag, caught.value.other) == ("Pieces", "Lattice")
    tags = {"Pieces": "23", **L48}
    with pytest.raises(OptionConflict):
        KOLOWIS.engine_for(Setting(check_options(KOLOWIS.options, tags), tags=tags))
    # Pieces "24", the default, means nothing on the 48-point board: the archive and
    # zrec readings write every option of a reading back as tags
    assert KOLOWIS.engine(Pieces="24", **L48) is KOLOWIS.engine(**L48)
    assert KOLOWIS.engine(**L48).start().white.bit_count() == 23


def test_a_record_with_pieces_and_lattice_48_gets_the_conflict() -> None:
    text = '[Game "kolowis"]\n[Lattice "48"]\n[Pieces "23"]\n[Result "*"]\n\n1. a8-b9 *\n'
    reports = list(validate_records(read_records(io.BytesIO(text.encode()), "r"), "r"))
    found = [(d.code, d.message) for d in reports[0].diagnostics]
    assert found == [("option-conflict", CONFLICT.format("23"))]
    valid = text.replace('[Pieces "23"]\n', "")
    reports = list(validate_records(read_records(io.BytesIO(valid.encode()), "r"), "r"))
    assert reports[0].diagnostics == []


# -- perft -----------------------------------------------------------------------------

# zrec's counts from the start, compulsory whole chains; the naive generator agrees
# as deep as it is asked (it is slow).
COUNTS = {
    ("lined", "line"): [4, 8, 20, 51, 187, 692, 2448, 10155],
    ("open", "line"): [4, 8, 20, 55, 190, 676, 2415, 9765],
    ("lined", "bent"): [7, 102, 3332],
    ("open", "bent"): [5, 41, 332, 2592],
}
NAIVE_BUDGET = 2_500


@pytest.mark.parametrize(("board", "jumps"), list(COUNTS))
def test_perft_against_the_naive_generator(board: str, jumps: str) -> None:
    counts = COUNTS[board, jumps]
    v = KOLOWIS.engine(Board=board, Jumps=jumps, **L48)
    assert [perft(v, v.start(), d) for d in range(1, len(counts) + 1)] == counts
    naive = Naive(16, board == "lined", jumps == "bent", ludii=True)
    assert {frozenset(line) for line in naive.lines} == {frozenset(line) for line in v.lines}
    assert set(naive.jumps) == set(v.jumps)
    assert v.pieces(v.start()) == {p: x for p, x in naive.start().items() if x}
    depth = max(d for d in range(1, len(counts) + 1) if counts[d - 1] <= NAIVE_BUDGET)
    assert [naive.perft(naive.start(), "W", d) for d in range(1, depth + 1)] == counts[:depth]
