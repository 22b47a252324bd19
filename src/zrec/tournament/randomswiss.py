"""Random Swiss tournaments paired by the Dutch engine, for the tests of the pairings.

:func:`random_tournament` plays a whole event with ``random.Random(seed)``: players
with random ratings (pairing numbers by rating, the highest first), each round paired
by :func:`~zrec.tournament.swiss.pair_round` and given random results.  The
:data:`RATES` say how often each thing happens; the same arguments give the same
tournament, byte for byte once written (:func:`~zrec.tournament.trfwrite.trf_text`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from zrec.tournament.event import Entrant, Round
from zrec.tournament.swiss import pair_round
from zrec.tournament.trf import Trf

__all__ = ["RATES", "Rates", "random_tournament"]

LOWEST, HIGHEST = 1400, 2600


@dataclass(frozen=True, slots=True)
class Rates:
    """The chances of each event of a random tournament."""

    #: a game is drawn
    draw: float = 0.30
    #: a game is lost by forfeit (by either player, as likely)
    forfeit: float = 0.03
    #: a player announces a half-point bye for a round before it is paired (not in
    #: the last round)
    half_bye: float = 0.04
    #: a player withdraws before a round (from round 2 on; absent for the rest)
    withdrawal: float = 0.02
    #: a player enters late, in round 2 or 3 (absent before)
    late: float = 0.05


RATES = Rates()


def _results(rng: random.Random, white: Entrant, black: Entrant, rates: Rates) -> str:
    """The codes of white and black: ``10``, ``==``, ``01``, ``+-`` or ``-+``."""
    if rng.random() < rates.forfeit:
        return rng.choice(("+-", "-+"))
    if rng.random() < rates.draw:
        return "=="
    expected = 1 / (1 + 10 ** (((black.rating or 0) - (white.rating or 0)) / 400))
    return "10" if rng.random() < expected else "01"


def random_tournament(players: int, rounds: int, seed: int, rates: Rates = RATES) -> Trf:
    """A Swiss event of ``players`` players and ``rounds`` rounds, every round paired by
    the engine (white for the top seed in round 1); raises
    :class:`~zrec.tournament.swiss.PairingError` if a round cannot be paired."""
    rng = random.Random(seed)
    ratings = sorted((rng.randint(LOWEST, HIGHEST) for _ in range(players)), reverse=True)
    entrants = [
        Entrant(n, 0, f"Player {n:03d}", {}, rating) for n, rating in enumerate(ratings, 1)
    ]
    entry = {
        e.number: rng.randint(2, min(3, rounds))
        for e in entrants
        if rounds > 1 and rng.random() < rates.late
    }
    left: dict[int, int] = {}  # player -> the first round missed after withdrawing
    for number in range(1, rounds + 1):
        absent: dict[int, str] = {}
        for e in entrants:
            if number < entry.get(e.number, 1):
                absent[e.number] = "Z"
            elif e.number in left or (number > 1 and rng.random() < rates.withdrawal):
                left.setdefault(e.number, number)
                absent[e.number] = "Z"
            elif number < rounds and rng.random() < rates.half_bye:
                absent[e.number] = "H"
        if players - len(absent) < 2:  # somebody must play
            absent = {}
        for e in entrants:
            if e.number in absent:
                e.rounds[number] = Round(number, absent[e.number])
        pairing = pair_round(entrants, number, rounds, "w")
        by_number = {e.number: e for e in entrants}
        for w, b in pairing.pairs:
            codes = _results(rng, by_number[w], by_number[b], rates)
            by_number[w].rounds[number] = Round(number, codes[0], (b,), "w")
            by_number[b].rounds[number] = Round(number, codes[1], (w,), "b")
        if pairing.bye is not None:
            by_number[pairing.bye].rounds[number] = Round(number, "U")
    return Trf(
        name=f"Random tournament {seed}", rounds=rounds, players=entrants, first_colour="w"
    )
