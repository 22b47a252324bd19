"""The tie-break rules one at a time, on small events built in memory.

Each test isolates one rule of the FIDE Tie-Break Regulations (C.07) as zrec reads
them (docs/tournaments.md), with the numbers worked out in its comments, so that
breaking the rule breaks the test.  The whole-event fixtures are in
tests/test_tournament.py.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from zrec.tournament.event import Entrant, Round, Tournament
from zrec.tournament.tiebreaks import (
    TiebreakError,
    _direct,
    _Sheet,
    parse_tiebreaks,
    rank,
    round_robin,
)

F = Fraction


def event(table: dict[int, str], seats: int = 2) -> Tournament:
    """An event from rows like ``{1: "2w1 3b= 0U"}``: per round, the opponent, the
    colour and the TRF code, or ``0`` and a bye code."""
    entrants = []
    for number, row in sorted(table.items()):
        rounds = {}
        for n, cell in enumerate(row.split(), 1):
            if cell[0] == "0":
                rounds[n] = Round(n, cell[1:])
            else:
                rounds[n] = Round(n, cell[-1], (int(cell[:-2]),), cell[-2])
        entrants.append(Entrant(number, number, f"P{number}", rounds))
    return Tournament(1, "test", max(len(r.split()) for r in table.values()), entrants, seats)


def values(ev: Tournament, codes: str, rules: str = "2026") -> dict[str, dict[str, Fraction]]:
    ranked = rank(ev, codes.split(","), rules)
    return {r.entrant.name: {"points": r.points, **r.values} for r in ranked}


def test_an_opponents_bye_before_a_game_counts_as_scored() -> None:
    # P2 is absent in round 2 (0 points) and plays round 3: P1's Buchholz counts P2's
    # real 1 point, not a draw for the absence.
    ev = event({1: "2w1 3w1 4w1", 2: "1b0 0Z 3b1", 3: "4b1 1b0 2w0", 4: "3w0 0U 1b0"})
    assert values(ev, "BH")["P1"]["BH"] == F(1) + F(1) + F(1)  # P2 0+0+1, P3, P4


def test_an_opponents_byes_after_the_last_game_count_as_draws() -> None:
    # P2 withdraws after round 1: rounds 2 and 3 (absent) count ½ each for P1: 0 + ½ + ½
    ev = event({1: "2w1 3w1 4w1", 2: "1b0 0Z 0Z", 3: "4b1 1b0 0U", 4: "3w0 0U 1b0"})
    assert values(ev, "BH")["P1"]["BH"] == F(1) + F(2) + F(1)  # P2 as 1, P3 2, P4 1


def test_a_forfeit_loss_at_the_end_stays_a_loss() -> None:
    # P2 wins rounds 1 and 2 and loses round 3 by forfeit: a round with a scheduled
    # opponent is not a withdrawal, so P2 counts 2 (not 2.5) in P1's Buchholz
    ev = event({1: "2w0 3w= 4w1", 2: "1b1 4w1 3w-", 3: "4w1 1b= 2b+", 4: "3b0 2b0 1b0"})
    assert values(ev, "BH")["P1"]["BH"] == 2 + F(5, 2) + 0  # P2, P3, P4


def test_own_unplayed_round_is_a_dummy_with_own_score_capped_since_2026() -> None:
    # P1: a pairing-allocated bye (1) and two wins: 3 points.  The dummy of the bye
    # scores 3 under the 2024 rules, and at most ½ a round (1.5) under 2026's.
    # (P4, absent throughout, makes it a Swiss event: not everybody met everybody)
    ev = event({1: "0U 2w1 3b1", 2: "3w1 1b0 0U", 3: "2b0 0U 1w0", 4: "0Z 0Z 0Z"})
    assert not round_robin(ev)
    p2, p3 = F(2), F(1)
    assert values(ev, "BH,SB", "2024")["P1"] == {"points": 3, "BH": 3 + p2 + p3,
                                                 "SB": 3 * 1 + p2 + p3}
    assert values(ev, "BH,SB", "2026")["P1"] == {"points": 3, "BH": F(3, 2) + p2 + p3,
                                                 "SB": F(3, 2) + p2 + p3}


def test_a_forfeits_dummy_is_capped_by_the_scheduled_opponent() -> None:
    # P1 wins round 1 by forfeit against P2 (who scores 1 in all): 2026 caps the dummy
    # at P2's 1; 2024 takes P1's own 2.  P3 (1 point) is P1's other opponent.
    ev = event({1: "2w+ 3w1", 2: "1b- 4b1", 3: "4w1 1b0", 4: "3b0 2w0"})
    assert values(ev, "BH", "2024")["P1"]["BH"] == 2 + 1
    assert values(ev, "BH", "2026")["P1"]["BH"] == 1 + 1


def test_cut_one_removes_a_round_the_player_chose_not_to_play_first() -> None:
    # P1: a half-point bye, then opponents P2, P3, P4.  Cut 1 removes the bye's dummy
    # (P1's own 2.5), not the weakest opponent (P2, 1.5).
    ev = event({
        1: "0H 2w1 3w1 4b0", 2: "3b0 1b0 0U 0Z", 3: "2w1 4w1 1b0 0Z", 4: "0Z 3b0 0U 1w1",
    })
    got = values(ev, "BH,BH-C1,BH-M1", "2024")["P1"]
    assert got["points"] == F(5, 2)
    # as opponents count them: P2 0+0+1 and ½ for the absence at the end; P3 1+1+0
    # and ½; P4's absence in round 1 came before its games: 0+0+1+1
    p2, p3, p4 = F(3, 2), F(5, 2), F(2)
    assert got["BH"] == F(5, 2) + p2 + p3 + p4
    assert got["BH-C1"] == p2 + p3 + p4
    assert got["BH-M1"] == p2 + p4  # and the highest (P3) goes too


def test_wins_count_forfeit_wins_and_full_byes_not_half_byes() -> None:
    ev = event({1: "2w+ 0F 0H 0U", 2: "1b- 0Z 0Z 0Z"})
    assert values(ev, "WIN,PS")["P1"] == {
        "points": F(7, 2), "WIN": 3, "PS": 1 + 2 + F(5, 2) + F(7, 2)}


def test_direct_encounter_needs_every_tied_pair_to_have_met() -> None:
    # P1, P2, P3 on 2 points.  P1 beat P2; P3 met neither (a Swiss).  P1's 1 point
    # among them does not beat what P3 could have had (2): no order.
    ev = event({
        1: "2w1 4w1 5w0", 2: "1b0 5w1 4w1", 3: "4w1 0Z 0U", 4: "3b0 1b0 2b0", 5: "0Z 2b0 1b1",
    })
    got = values(ev, "DE")
    assert [got[p]["points"] for p in ("P1", "P2", "P3")] == [2, 2, 2]
    assert [got[p]["DE"] for p in ("P1", "P2", "P3")] == [1, 0, 0]
    ranks = {r.entrant.name: r.rank for r in rank(ev, ["DE"])}
    assert ranks["P1"] == ranks["P2"] == ranks["P3"] == 1


def test_direct_encounter_places_a_winner_no_missing_game_could_catch() -> None:
    # P1 beat P2 and P3, who did not meet: P1's 2 beats the most either of them could
    # have had (1), so P1 is first; P2 and P3 stay tied.
    ev = event({
        1: "2w1 3w1 4w0", 2: "1b0 4w1 5w1", 3: "5w1 1b0 0U", 4: "0Z 2b0 1b1", 5: "3b0 0Z 2b0",
    })
    order = [(r.rank, r.entrant.name, r.points) for r in rank(ev, ["DE"])][:3]
    assert order == [(1, "P1", F(2)), (2, "P2", F(2)), (2, "P3", F(2))]


def test_direct_encounter_is_taken_again_within_a_tied_part() -> None:
    # four players who all met: among them A 2, B 1.5, C 1.5, D 1; taken again on
    # their own, B beat C.
    ev = event({1: "2w1 3w0 4w1", 2: "1b0 4w= 3w1", 3: "4w= 1b1 2b0", 4: "3b= 2b= 1b0"})
    sheet = _Sheet(ev, round_robin(ev))
    found: dict[int, dict[str, Fraction]] = {e.number: {} for e in ev.entrants}
    parts = _direct(sheet, list(ev.entrants), found)
    assert [[e.number for e in part] for part in parts] == [[1], [2], [3], [4]]
    assert [found[n]["DE"] for n in (1, 2, 3, 4)] == [2, 1, 0, 1]


def test_double_round_robin_averages_the_games_against_one_opponent() -> None:
    # two players who drew twice: ½ each (the average), not 1
    ev = event({1: "2w= 2b=", 2: "1b= 1w="})
    assert round_robin(ev)
    got = values(ev, "DE")
    assert got["P1"]["DE"] == got["P2"]["DE"] == F(1, 2)


def test_round_robin_counts_forfeits_against_the_scheduled_opponent() -> None:
    # P1 wins by forfeit against P2 (½ in all), beats P3 (½), rests in round 3: in a
    # round robin the forfeit counts P2's ½ and the rest counts nothing: BH 1.  Read as
    # a Swiss event, the rest would count a dummy (1.5), BH 2.5.
    robin = event({1: "2w+ 3b1 0Z", 2: "1b- 0Z 3w=", 3: "0Z 1w0 2b="})
    assert round_robin(robin)
    assert values(robin, "BH,SB")["P1"] == {"points": 2, "BH": 1, "SB": 1}


def test_two_player_tie_breaks_are_refused_for_games_of_more_seats() -> None:
    ev = event({1: "2w1", 2: "1b0"}, seats=3)
    with pytest.raises(TiebreakError, match="BH, SB need one opponent a game, and 'test' "
                       "has games of 3 seats: use WIN and PS"):
        parse_tiebreaks("BH,SB,WIN", ev)
    assert parse_tiebreaks("win,ps", ev) == ["WIN", "PS"]
