"""Ratings for games of more than two seats: the Plackett-Luce model of Weng and Lin
("A Bayesian approximation method for online ranking", JMLR 12, 2011, algorithm 4), as
the ``openskill`` library implements it.

openskill is used rather than our own code: it is kept up, typed, and implements the
whole family of Weng and Lin's models with their published defaults.  Each seat of a
game is a team of one player; the seats are ranked by their scores (the higher score
first, equal scores sharing a place).  The defaults are openskill's: μ = 25,
σ = 25/3, β = σ/2, κ = 0.0001, γ = σ/c, and τ = 25/300 added to each σ before a
game (so that σ never shrinks to nothing).  The rating shown is the conservative
μ − 3σ.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from openskill.models import PlackettLuce

__all__ = ["MODEL", "MU", "SIGMA", "Skill", "conservative", "ranks", "rate_game"]

#: the model, with openskill's defaults
MODEL = PlackettLuce()
#: a new player's μ and σ
MU = MODEL.mu
SIGMA = MODEL.sigma

Skill = tuple[float, float]  # (μ, σ)


def conservative(skill: Skill) -> float:
    """The rating shown: μ − 3σ."""
    return skill[0] - 3.0 * skill[1]


def ranks(scores: Sequence[Fraction]) -> list[int]:
    """Each seat's place from 0 (the best): the number of seats that scored more."""
    return [sum(1 for other in scores if other > score) for score in scores]


def rate_game(skills: Sequence[Skill], scores: Sequence[Fraction]) -> list[Skill]:
    """The seats' skills after a game they scored ``scores`` in."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in skills]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks(scores)])
    return [(team[0].mu, team[0].sigma) for team in rated]
