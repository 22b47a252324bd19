"""The Glicko-2 rating system, as Glickman's "Example of the Glicko-2 system" (Boston
University, 2013) sets it out step by step.

Our own module rather than a library: the one Glicko-2 package on PyPI (``glicko2``
2.1.0) is an untyped class whose volatility function uses the rating (μ²) where the
paper has the deviation (φ²), and nothing else is kept up.  A player is a
:class:`Glicko` (rating r, deviation RD, volatility σ, on the Glicko scale); a rating
period's games are the opponents' pre-period ratings and the scores against them
(1 a win, ½ a draw, 0 a loss), and :func:`update` gives the player after the period.
The steps are functions of their own so that the paper's intermediate values can be
checked.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "DEFAULT",
    "EPSILON",
    "SCALE",
    "TAU",
    "Glicko",
    "expected",
    "g",
    "idle",
    "improvement",
    "update",
    "variance",
    "volatility",
]

#: the Glicko-2 scale's factor: μ = (r - 1500) / SCALE, φ = RD / SCALE
SCALE = 173.7178
#: the system constant τ (the paper's example uses 0.5; it suggests 0.3 to 1.2)
TAU = 0.5
#: the convergence tolerance of step 5
EPSILON = 0.000001


@dataclass(frozen=True, slots=True)
class Glicko:
    """A rating on the Glicko scale: rating, rating deviation and volatility."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06

    @property
    def mu(self) -> float:
        return (self.rating - 1500.0) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE


#: an unrated player (step 1): 1500, 350, 0.06
DEFAULT = Glicko()


def g(phi: float) -> float:
    """Step 3's g(φ): how much an opponent's deviation weakens what a game says."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """Step 3's E(μ, μj, φj): the expected score against opponent j."""
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


Game = tuple[Glicko, float]  # (the opponent before the period, the score against them)


def variance(player: Glicko, games: Sequence[Game]) -> float:
    """Step 3's v: the estimated variance of the rating from the games alone."""
    total = 0.0
    for opponent, _ in games:
        e = expected(player.mu, opponent.mu, opponent.phi)
        total += g(opponent.phi) ** 2 * e * (1.0 - e)
    return 1.0 / total


def improvement(player: Glicko, games: Sequence[Game], v: float) -> float:
    """Step 4's Δ: the estimated improvement over the pre-period rating."""
    return v * sum(
        g(o.phi) * (score - expected(player.mu, o.mu, o.phi)) for o, score in games
    )


def volatility(player: Glicko, delta: float, v: float, tau: float = TAU) -> float:
    """Step 5: the new volatility σ', by the Illinois algorithm of the paper."""
    phi2, a = player.phi**2, math.log(player.volatility**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / tau**2

    big_a = a
    if delta**2 > phi2 + v:
        big_b = math.log(delta**2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def idle(player: Glicko, periods: int = 1, most: float = DEFAULT.rd) -> Glicko:
    """A player after ``periods`` rating periods without a game: φ' = √(φ² + σ²) each
    period (step 6), the deviation never above ``most`` (an unrated player's)."""
    if periods <= 0:
        return player
    phi = math.sqrt(player.phi**2 + periods * player.volatility**2)
    return Glicko(player.rating, min(phi * SCALE, most), player.volatility)


def update(
    player: Glicko, games: Sequence[Game], tau: float = TAU, most: float = DEFAULT.rd
) -> Glicko:
    """The player after a rating period of ``games`` (none: :func:`idle`)."""
    if not games:
        return idle(player, 1, most)
    v = variance(player, games)
    delta = improvement(player, games, v)
    sigma = volatility(player, delta, v, tau)
    phi_star = math.sqrt(player.phi**2 + sigma**2)  # step 6
    phi = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / v)  # step 7
    mu = player.mu + phi**2 * sum(
        g(o.phi) * (score - expected(player.mu, o.mu, o.phi)) for o, score in games
    )
    return Glicko(SCALE * mu + 1500.0, min(SCALE * phi, most), sigma)  # step 8
