"""Ratings: Glicko-2 against the worked example of Glickman's paper, Plackett-Luce
against Weng and Lin's algorithm 4 computed here by hand, the order a fixture's
results give, and ``zrec archive ratings`` on an archive of real games.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from zrec.tournament.ratings import glicko2, plackett
from zrec.tournament.ratings.compute import GLICKO2, PLACKETT_LUCE, rate_pool
from zrec.tournament.ratings.games import RatedGame, periods

runner = CliRunner()
F = Fraction

# -- Glicko-2: Glickman, "Example of the Glicko-2 system" (2013) --------------------------

PLAYER = glicko2.Glicko(1500, 200, 0.06)
GAMES = [(glicko2.Glicko(1400, 30), 1.0), (glicko2.Glicko(1550, 100), 0.0),
         (glicko2.Glicko(1700, 300), 0.0)]


def test_glickman_s_example_step_by_step() -> None:
    # step 2: the Glicko-2 scale (the paper's table, 4 decimals)
    assert (round(PLAYER.mu, 4), round(PLAYER.phi, 4)) == (0.0, 1.1513)
    scaled = [(round(o.mu, 4), round(o.phi, 4)) for o, _ in GAMES]
    assert scaled == [(-0.5756, 0.1727), (0.2878, 0.5756), (1.1513, 1.7269)]
    # step 3: g(phi_j) to 4 decimals and E to 3, as the paper's table gives them
    gs = [round(glicko2.g(o.phi), 4) for o, _ in GAMES]
    es = [round(glicko2.expected(PLAYER.mu, o.mu, o.phi), 3) for o, _ in GAMES]
    assert gs == [0.9955, 0.9531, 0.7242]
    assert es == [0.639, 0.432, 0.303]
    # the paper carries those rounded values on: v = 1.7785 and Delta = -0.4834
    v_paper = 1 / sum(g * g * e * (1 - e) for g, e in zip(gs, es, strict=True))
    d_paper = v_paper * sum(g * (s - e) for g, e, (_, s) in zip(gs, es, GAMES, strict=True))
    assert (round(v_paper, 4), round(d_paper, 4)) == (1.7785, -0.4834)
    # in full precision they are 1.77898 and -0.48393: within the rounding carried on
    v = glicko2.variance(PLAYER, GAMES)
    delta = glicko2.improvement(PLAYER, GAMES, v)
    assert (round(v, 5), round(delta, 5)) == (1.77898, -0.48393)
    # step 5: sigma' = 0.05999 (the paper cuts it there: 0.059996)
    assert f"{glicko2.volatility(PLAYER, delta, v):.6f}" == "0.059996"


def test_glickman_s_example_result() -> None:
    after = glicko2.update(PLAYER, GAMES)
    # steps 6-7: mu' = -0.2069 and phi' = 0.8722, as the paper gives them
    assert (round(after.mu, 4), round(after.phi, 4)) == (-0.2069, 0.8722)
    # step 8: the paper converts those 4-decimal values: r' = 1464.06, RD' = 151.52
    assert round(173.7178 * round(after.mu, 4) + 1500, 2) == 1464.06
    assert round(173.7178 * round(after.phi, 4), 2) == 151.52
    # in full precision: 1464.05 (the paper's 1464.06 is from mu' rounded), 151.52
    assert (round(after.rating, 2), round(after.rd, 2)) == (1464.05, 151.52)
    assert f"{after.volatility:.7f}"[:7] == "0.05999"


def test_a_period_without_games_widens_the_deviation_only() -> None:
    once = glicko2.update(PLAYER, [])  # step 6 alone: phi' = sqrt(phi^2 + sigma^2)
    assert once.rating == 1500 and once.volatility == 0.06
    assert once.rd == pytest.approx(math.sqrt((200 / 173.7178) ** 2 + 0.06**2) * 173.7178)
    # three idle periods at once are three periods one by one
    thrice = glicko2.update(glicko2.update(once, []), [])
    assert glicko2.idle(PLAYER, 3).rd == pytest.approx(thrice.rd, abs=1e-9)
    # sigma = 0.06 is 10.42 on the RD scale: 100 idle periods take 345 past 350, the
    # deviation of a new player, where it stops
    assert glicko2.idle(glicko2.Glicko(1500, 345, 0.06), 5).rd == pytest.approx(345.79, abs=0.01)
    assert glicko2.idle(glicko2.Glicko(1500, 345, 0.06), 100).rd == 350.0


# -- Plackett-Luce: Weng and Lin (2011), algorithm 4, by hand -----------------------------


def weng_lin(skills: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """Algorithm 4 for teams of one player and no shared place, with openskill's
    parameters: beta = 25/6, kappa = 0.0001, gamma_i = sigma_i / c, and tau = 25/300
    added to every sigma before the game."""
    beta, kappa, tau = 25 / 6, 0.0001, 25 / 300
    sig2 = [s * s + tau * tau for _, s in skills]
    c = math.sqrt(sum(s2 + beta * beta for s2 in sig2))
    mus = [m for m, _ in skills]
    out = []
    for i in range(len(skills)):
        omega = delta = 0.0
        for q in range(len(skills)):
            if ranks[q] > ranks[i]:  # only the q placed at or above i
                continue
            total = sum(math.exp(mus[s] / c) for s in range(len(skills)) if ranks[s] >= ranks[q])
            p = math.exp(mus[i] / c) / total
            omega += (1 - p) if q == i else -p
            delta += p * (1 - p)
        omega *= sig2[i] / c
        delta *= math.sqrt(sig2[i]) / c * sig2[i] / c**2
        out.append((mus[i] + omega, math.sqrt(sig2[i]) * math.sqrt(max(1 - delta, kappa))))
    return out


def test_plackett_luce_one_game_against_the_formulas() -> None:
    skills = [(25.0, 25 / 3), (30.0, 6.0), (20.0, 7.0), (27.0, 4.0)]
    scores = [F(0), F(1), F(1, 2), F(1, 3)]  # places: seat 2 first, 3, 4, 1 last
    assert plackett.ranks(scores) == [3, 0, 1, 2]
    got = plackett.rate_game(skills, scores)
    want = weng_lin(skills, [3, 0, 1, 2])
    for (mu, sigma), (mu_w, sigma_w) in zip(got, want, strict=True):
        assert mu == pytest.approx(mu_w, abs=1e-9)
        assert sigma == pytest.approx(sigma_w, abs=1e-9)
    # the winner gains, the last loses, and every sigma shrinks from sigma^2 + tau^2
    assert got[1][0] > 30 and got[0][0] < 25


def game(gid: int, players: str, scores: tuple[Fraction, ...], round_: int) -> RatedGame:
    return RatedGame(gid, "awethi", "", tuple(ord(p) for p in players), scores,
                     f"2026.01.{round_:02d}", "Ev", 1, round_)


def order(games: list[RatedGame]) -> list[str]:
    pool = rate_pool("awethi", "", games)
    assert pool.system == PLACKETT_LUCE  # three seats and more in the registry
    return [chr(r.player) for r in pool.players]


def test_plackett_luce_order_of_a_fixture() -> None:
    # A first, B second, C last in every game, the seats turning: A > B > C
    one, half, nil = F(1), F(1, 2), F(0)
    games = [game(1, "ABC", (one, half, nil), 1), game(2, "CAB", (nil, one, half), 2),
             game(3, "BCA", (half, nil, one), 3)]
    assert order(games) == ["A", "B", "C"]
    # mixed, four players, three games: A is 1st, 2nd, 1st; B 2nd, 1st (absent from
    # the third); C shares last, is 3rd, then 2nd; D is last every time.  A has the
    # best places and B's only game off first is behind A; C beats only D; so
    # A > B > C > D (mu: 31.27, 29.22, 23.30, 16.45; mu - 3 sigma: 7.42, 4.90, 0.42, -6.47)
    third = F(1, 3)
    mixed = [game(1, "ABCD", (one, half, nil, nil), 1),
             game(2, "BACD", (one, half, third, nil), 2),
             game(3, "CAD", (half, one, nil), 3)]
    assert order(mixed) == ["A", "B", "C", "D"]


def test_two_seat_pools_are_glicko2_and_a_period_is_rated_at_once() -> None:
    rounds = [RatedGame(1, "mosona", "", (1, 2), (F(1), F(0)), "2026.01.01", "E", 1, 1),
              RatedGame(2, "mosona", "", (3, 1), (F(0), F(1)), "2026.01.01", "E", 1, 1)]
    pool = rate_pool("mosona", "", rounds)
    assert pool.system == GLICKO2 and pool.periods == 1
    first = pool.players[0]
    # player 1 beat two new players in one period: both games against 1500/350
    new = glicko2.DEFAULT
    assert first.player == 1
    assert first.now.rating == glicko2.update(new, [(new, 1.0), (new, 1.0)]).rating


def test_periods_come_in_date_then_event_and_round_order() -> None:
    def at(gid: int, date: str, event: str = "", eid: int = 0, round_: int = 0) -> RatedGame:
        return RatedGame(gid, "mosona", "", (1, 2), (F(1), F(0)), date, event, eid, round_)

    games = [
        at(1, "2026.03.02", "Spring", 2, 2),
        at(2, "2026.03.01", "Spring", 2, 1),
        at(3, "2026.03.01"),  # no event: the day's period, before the day's rounds
        at(4, ""),  # date unknown: first
        at(5, "2026.03.01", "Autumn", 3, 1),  # same day: by event name
        at(6, "2026.03.03", "Spring", 2, 1),  # a later game of round 1: same period
        at(7, "2026.03.01"),
    ]
    found = periods(games)
    assert [(p.label, p.date, [g.id for g in p.games]) for p in found] == [
        ("date unknown", "", [4]),
        ("2026.03.01", "2026.03.01", [3, 7]),
        ("Autumn, round 1", "2026.03.01", [5]),
        ("Spring, round 1", "2026.03.01", [2, 6]),
        ("Spring, round 2", "2026.03.02", [1]),
    ]


def test_a_game_played_with_more_seats_than_two_is_never_rated_by_glicko2() -> None:
    three = RatedGame(1, "mosona", "", (1, 2, 3), (F(1), F(0), F(0)), "", "", 0, 0)
    assert rate_pool("mosona", "", [three]).system == PLACKETT_LUCE
    assert rate_pool("unknown game", "", [three]).system == PLACKETT_LUCE
