"""The Dutch system pairs rounds as FIDE C.04.3 says, worked out by hand on small events.

Each case builds the entrants' history in TRF codes and asserts the exact boards
(white, black), the bye and the absent players.  The comparison with the FIDE-endorsed
bbpPairings on hundreds of random tournaments is in benchmarks/pairing_vs_bbp.py; the
cases both programs agree on are in tests/data/pairing/.
"""

from __future__ import annotations

import pytest

from zrec.tournament.event import Entrant, Round
from zrec.tournament.swiss import (
    Pairing,
    PairingError,
    before_round,
    first_colour_of,
    pair_round,
)
from zrec.tournament.trf import read_trf


def field(n: int) -> list[Entrant]:
    return [Entrant(i, 0, f"P{i}") for i in range(1, n + 1)]


def play(entrants: list[Entrant], number: int, *boards: tuple[int, int, str]) -> None:
    """Enter round ``number``: (white, black, result for white: 1 = 0)."""
    back = {"1": "0", "0": "1", "=": "="}
    by = {e.number: e for e in entrants}
    for white, black, code in boards:
        by[white].rounds[number] = Round(number, code, (black,), "w")
        by[black].rounds[number] = Round(number, back[code], (white,), "b")


def bye(entrants: list[Entrant], number: int, player: int, code: str = "U") -> None:
    entrants[player - 1].rounds[number] = Round(number, code)


def test_round_one_pairs_the_top_half_with_the_bottom_half_colours_alternating() -> None:
    p = pair_round(field(8), 1, 5, "w")
    assert p.pairs == ((1, 5), (6, 2), (3, 7), (8, 4))
    assert p.bye is None and p.absent == ()
    assert pair_round(field(8), 1, 5, "b").pairs == ((5, 1), (2, 6), (7, 3), (4, 8))


def test_an_odd_round_one_gives_the_bye_to_the_last_player() -> None:
    p = pair_round(field(7), 1, 5, "w")
    assert p.pairs == ((1, 4), (5, 2), (3, 6))
    assert p.bye == 7


def test_round_two_pairs_score_groups_and_alternates_colours() -> None:
    e = field(8)
    play(e, 1, (1, 5, "1"), (6, 2, "0"), (3, 7, "1"), (8, 4, "0"))
    p = pair_round(e, 2, 5)
    # winners 1 2 3 4: S1 = 1 2, S2 = 3 4, but 1-3 and 2-4 would each leave one colour
    # preference unmet (1 and 3 had white, 2 and 4 black): the transposition 1-4 2-3
    # meets all four (C.04.3 C.12 before the order of S2).  Losers alike: 5-8, 6-7.
    assert p.pairs == ((4, 1), (2, 3), (5, 8), (7, 6))


def test_no_two_players_meet_twice() -> None:
    e = field(4)
    play(e, 1, (1, 3, "="), (4, 2, "="))
    p = pair_round(e, 2, 3)
    assert sorted(tuple(sorted(b)) for b in p.pairs) == [(1, 2), (3, 4)]


def test_a_forfeit_is_no_meeting() -> None:
    e = field(4)
    by = {x.number: x for x in e}
    by[1].rounds[1] = Round(1, "+", (3,), "w")
    by[3].rounds[1] = Round(1, "-", (1,), "b")
    play(e, 1, (4, 2, "="))
    p = pair_round(e, 2, 3)
    # 1 (a point) floats down to 2 and 4 (who met) and takes the higher, 2, who had
    # black; 4 floats on to 3, whose forfeit is no game: 4 had white, so 3 has it
    assert p.pairs == ((2, 1), (3, 4))
    e[2].rounds[1] = Round(1, "1", (1,), "b")
    e[0].rounds[1] = Round(1, "0", (3,), "w")
    # a game played: 1 and 3 have met; 3 (a point) floats down to 2 and 4 and takes
    # 4, who had white, over 2, who had black like 3 (colours before the order)
    assert pair_round(e, 2, 3).pairs == ((3, 4), (2, 1))


def test_announced_absences_and_withdrawals_are_not_paired() -> None:
    e = field(6)
    bye(e, 1, 6, "H")  # a half-point bye asked for round 1
    p = pair_round(e, 1, 5, "w")
    assert p.absent == (6,)
    assert p.pairs == ((1, 3), (4, 2))
    assert p.bye == 5


def test_the_pairing_allocated_bye_goes_once() -> None:
    e = field(3)
    bye(e, 1, 3)
    play(e, 1, (1, 2, "1"))
    p = pair_round(e, 2, 3)
    # 3 has had the bye; 2 (no points) gets it now, 3 plays 1
    assert p.bye == 2
    assert p.pairs == ((3, 1),)


def test_forbidden_pairs_are_never_paired() -> None:
    p = pair_round(field(4), 1, 3, "w", forbidden=[(1, 3)])
    assert (1, 3) not in p.pairs and (3, 1) not in p.pairs
    assert {frozenset(b) for b in p.pairs} == {frozenset({1, 4}), frozenset({3, 2})}


def test_an_unpairable_round_is_refused_in_words() -> None:
    e = field(2)
    play(e, 1, (1, 2, "1"))
    with pytest.raises(PairingError, match="round 2 cannot be paired"):
        pair_round(e, 2, 3)


def test_a_round_already_paired_or_unfinished_is_refused() -> None:
    e = field(2)
    play(e, 1, (1, 2, "1"))
    with pytest.raises(PairingError, match="round 1 is already paired: player 1"):
        pair_round(e, 1, 3)
    e[0].rounds[1] = Round(1, " ", (2,), "w")
    with pytest.raises(PairingError, match="round 1 is not finished: player 1"):
        pair_round(e, 2, 3)


def test_two_whites_in_a_row_force_black() -> None:
    e = field(4)
    play(e, 1, (1, 3, "="), (4, 2, "="))
    play(e, 2, (1, 4, "="), (3, 2, "="))
    # 1 had white twice and 2 black twice: 1-2 with 2 white; 3 (b w) and 4 (w b)
    assert pair_round(e, 3, 5).pairs == ((2, 1), (4, 3))
    e = field(4)
    play(e, 1, (1, 3, "1"), (2, 4, "0"))
    play(e, 2, (1, 4, "="), (2, 3, "="))
    # 1 and 2 had white twice, 3 and 4 black twice, and 1-3, 1-4, 2-3, 2-4 were
    # played: 1-2 and 3-4 are left, each against an absolute preference
    with pytest.raises(PairingError, match="round 3 cannot be paired"):
        pair_round(e, 3, 5)
    # ... which the last round allows where one of the two is a topscorer (more than
    # half the points so far): 1 and 4 have 1.5 of 2
    assert pair_round(e, 3, 3).pairs == ((2, 1), (4, 3))


def test_before_round_keeps_history_and_announced_absences() -> None:
    e = field(4)
    play(e, 1, (1, 3, "1"), (4, 2, "1"))
    play(e, 2, (3, 4, "1"))
    bye(e, 2, 1, "H")
    bye(e, 2, 2, "U")
    then = {x.number: x for x in before_round(e, 2)}
    assert set(then[1].rounds) == {1, 2} and then[1].rounds[2].code == "H"
    assert set(then[2].rounds) == {1}  # the pairing-allocated bye is the pairing's
    assert set(then[3].rounds) == {1}


def test_trf_reads_first_colour_and_forbidden_pairs_with_any_line_end() -> None:
    head = "012 Test\nXXR 5\nXXC black1\nXXP 1 3\n"
    lines = [
        f"001 {n:4d}      P{n:<32}                                   0.0"
        for n in range(1, 5)
    ]
    for end in ("\n", "\r\n", "\r"):
        trf = read_trf((head + "\n".join(lines) + "\n").replace("\n", end))
        assert trf.first_colour == "b"
        assert trf.forbidden == [(1, 3)]
        assert [p.number for p in trf.players] == [1, 2, 3, 4]
        p = pair_round(trf.players, 1, trf.rounds, trf.first_colour, trf.forbidden)
        # 1-3 forbidden: 1-4 and 2-3; the top seed has black, so the second white
        assert p.pairs == ((4, 1), (2, 3))
    trf = read_trf(head.replace("XXP 1 3", "XXP 1 2 3") + "\n".join(lines))
    with pytest.raises(PairingError, match="round 1 cannot be paired"):
        pair_round(trf.players, 1, 5, "b", trf.forbidden)


def test_first_colour_is_read_back_from_round_one() -> None:
    e = field(4)
    play(e, 1, (3, 1, "1"), (2, 4, "1"))
    assert first_colour_of(e) == "b"
    assert first_colour_of(field(4)) == ""


def test_a_late_entry_and_a_withdrawal() -> None:
    e = field(5)
    bye(e, 1, 5, "Z")  # 5 enters in round 2
    assert pair_round(e, 1, 4, "w") == Pairing(1, ((1, 3), (4, 2)), None, (5,))
    play(e, 1, (1, 3, "1"), (4, 2, "="))
    # 3 and 5 have no points: the bye goes to 3, who has played every round (5 missed
    # one: C.04.3 2025, fewest unplayed games for the bye); 1 (had white) floats down
    # to 2 (had black), and 4 (had white) on to 5
    assert pair_round(e, 2, 4) == Pairing(2, ((2, 1), (5, 4)), 3, ())
    bye(e, 2, 4, "Z")  # 4 withdraws
    assert pair_round(e, 2, 4) == Pairing(2, ((2, 1), (3, 5)), None, (4,))


def test_a_result_without_opponent_in_the_round_to_pair_is_refused() -> None:
    e = field(4)
    e[1].rounds[1] = Round(1, "+")
    with pytest.raises(PairingError, match=r"round 1: player 2 \(P2\) already has the result"):
        pair_round(e, 1, 3, "w")
