"""The TRF-16 writer of a read TRF (zrec.tournament.trfwrite): the exact
columns of the lines it writes, and any file model it writes reads back the same."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from zrec.tournament.event import Entrant, Round
from zrec.tournament.trf import Trf, read_trf
from zrec.tournament.trfwrite import trf_text

#: the codes of the two sides of a game: played, not rated, forfeits, not finished
GAMES = ["10", "01", "==", "WL", "LW", "DD", "+-", "-+", "--", "  "]


def _field(alphabet: str, width: int) -> st.SearchStrategy[str]:
    """Text that fits a column and survives being cut out of it (no outer blanks)."""
    return st.text(alphabet, max_size=width).map(str.strip)


@st.composite
def trfs(draw: st.DrawFn) -> Trf:
    count = draw(st.integers(1, 12))
    rounds = draw(st.integers(0, 6))
    players = [
        Entrant(
            n,
            0,
            draw(_field("abcXYZ ,.-'", 33).filter(bool)),
            {},
            draw(st.none() | st.integers(1, 3000)),
            draw(_field("ABCNZL", 3)),
            draw(_field("0123456789", 11)),
            draw(st.sampled_from(["", "GM", "IM", "WFM"])),
            draw(st.sampled_from(["", "m", "w"])),
            draw(st.sampled_from(["", "1990/01/31", "2001"])),
        )
        for n in range(1, count + 1)
    ]
    for number in range(1, rounds + 1):
        order = draw(st.permutations(range(count)))
        paired = draw(st.integers(0, count // 2))
        for i in range(paired):
            a, b = players[order[2 * i]], players[order[2 * i + 1]]
            codes = draw(st.sampled_from(GAMES))
            colours = draw(st.sampled_from(["wb", "bw", "  "])).strip()
            a.rounds[number] = Round(number, codes[0], (b.number,), colours[:1])
            b.rounds[number] = Round(number, codes[1], (a.number,), colours[1:])
        for i in order[2 * paired :]:
            code = draw(st.sampled_from(["U", "F", "H", "Z", "-", "+", None]))
            if code is not None:
                players[i].rounds[number] = Round(number, code)
    known = max((n for p in players for n in p.rounds), default=0)
    return Trf(
        name=draw(_field("Open 2026ab", 40)),
        site=draw(_field("Zuni Pueblo", 20)),
        start=draw(st.sampled_from(["", "2026-03-01"])),
        end=draw(st.sampled_from(["", "2026-03-09"])),
        rounds=max(known, draw(st.integers(1, 9))),
        players=players,
        first_colour=draw(st.sampled_from(["", "w", "b"])),
        forbidden=draw(
            st.lists(
                st.lists(st.integers(1, count), min_size=2, max_size=3).map(tuple), max_size=2
            )
        ),
    )


@settings(max_examples=150, deadline=None)
@given(trfs(), st.sampled_from(["\n", "\r\n", "\r"]))
def test_a_written_file_reads_back_as_it_was(trf: Trf, newline: str) -> None:
    text = trf_text(trf)
    assert read_trf(text.replace("\n", newline)) == trf


def test_the_columns_of_a_player_line() -> None:
    a = Entrant(1, 0, "Adams, Ann", {}, 2105, "NZL", "4100018", "FM", "w", "1990/01/31")
    b = Entrant(12, 0, "Brown", {}, None)
    a.rounds = {1: Round(1, "1", (12,), "w"), 2: Round(2, "H"), 3: Round(3, " ", (12,), "b")}
    b.rounds = {1: Round(1, "0", (1,), "b"), 2: Round(2, "U"), 3: Round(3, " ", (1,), "w")}
    trf = Trf("Club Swiss", "Zuni", "2026-03-01", "", 5, [a, b], "w", [(1, 12)])
    lines = trf_text(trf).splitlines()
    assert lines[:6] == [
        "012 Club Swiss",
        "022 Zuni",
        "042 2026/03/01",
        "062 2",
        "XXR 5",
        "XXC white1",
    ]
    assert lines[6] == "XXP 1 12"
    ruler = "".join(str(n % 10) for n in range(1, 122))
    assert lines[7] == (
        "001    1 w FM Adams, Ann                        2105 NZL     4100018 1990/01/31"
        "  1.5    1    12 w 1  0000 - H    12 b"
    ), ruler
    assert lines[8] == (
        "001   12      Brown" + " " * 62 + "1.0    2     1 b 0  0000 - U     1 w"
    )
    # columns 81-84 points, 86-89 rank, 92-95 opponent, 97 colour, 99 result
    assert lines[7][80:84] == " 1.5" and lines[7][85:89] == "   1"
    assert lines[7][91:95] == "  12" and lines[7][96] == "w" and lines[7][98] == "1"
    assert lines[7][101:109] == "0000 - H"
