"""The pairing tools around the Dutch engine: a TRF file's rounds as the engine sees them.

:func:`next_round` finds the round to pair (one past the last round anybody was paired
in; a column holding only absences entered in advance, ``0000 - H``, ``Z`` or ``F``, is
not paired).  :func:`entrants_for` gives the players as they stood before a round: the
rounds before it as history, and the round's own entries without an opponent as its
absences, the way bbpPairings and JaVaFo read a TRF.  :func:`pair_file` pairs a round of
a file with :func:`~zrec.tournament.swiss.pair_round`, :func:`played` reads the
pairing a file holds for a round, and :func:`check` compares the two for every round of
a finished file (the pairings checker of FIDE's endorsement rules, C.04.A).
"""

from __future__ import annotations

from dataclasses import dataclass

from zrec.tournament.event import Entrant, Round
from zrec.tournament.swiss import Pairing, PairingError, before_round, pair_round
from zrec.tournament.trf import Trf

__all__ = [
    "Difference",
    "check",
    "entrants_for",
    "is_paired",
    "next_round",
    "pair_file",
    "paired_rounds",
    "pairs_text",
    "played",
    "refusal",
    "same_pairing",
]


def is_paired(r: Round) -> bool:
    """A round the pairing made: a game (or forfeit) against an opponent, or the
    pairing-allocated bye."""
    return r.opponent is not None or r.code == "U"


def paired_rounds(trf: Trf) -> list[int]:
    """The rounds in which at least one player was paired, in order."""
    return sorted({n for p in trf.players for n, r in p.rounds.items() if is_paired(r)})


def next_round(trf: Trf) -> int:
    """One past the last round anybody was paired in (1 for a file of entries only)."""
    return max(paired_rounds(trf), default=0) + 1


def entrants_for(trf: Trf, number: int) -> list[Entrant]:
    """The players before round ``number`` is paired: their rounds before it, and in
    it only the entries without an opponent (absences, byes announced in advance; the
    pairing-allocated bye ``U`` is the pairing's own, so it is left out)."""
    return before_round(trf.players, number)


def refusal(trf: Trf, number: int) -> str | None:
    """Why round ``number`` of the file cannot be paired (``None``: it can)."""
    if number < 1:
        return f"there is no round {number}: rounds count from 1"
    if number > trf.rounds:
        return (
            f"round {number} is past the {trf.rounds} rounds of the event "
            "(the XXR line declares them)"
        )
    if number in paired_rounds(trf):
        return f"round {number} is already paired in the file"
    if number > next_round(trf):
        return (
            f"round {next_round(trf)} is not paired yet in the file: rounds are paired in "
            f"order (round {number} would have every player absent before it)"
        )
    return None


def pair_file(trf: Trf, number: int) -> Pairing:
    """The Dutch system's pairing of round ``number`` of the file; raises
    :class:`~zrec.tournament.swiss.PairingError` for unpairable input."""
    return pair_round(
        entrants_for(trf, number), number, trf.rounds, trf.first_colour, trf.forbidden
    )


def played(trf: Trf, number: int) -> Pairing:
    """The pairing the file holds for round ``number``: each game as (white, black)
    (a game without colours as the lower number first), the pairing-allocated bye,
    and the players not paired (pairs ordered by their first player)."""
    pairs: set[tuple[int, int]] = set()
    bye: int | None = None
    absent: list[int] = []
    for p in trf.players:
        r = p.rounds.get(number)
        if r is None or not is_paired(r):
            absent.append(p.number)
        elif r.opponent is None:
            bye = p.number
        elif r.colour == "w" or (r.colour == "" and p.number < r.opponent):
            pairs.add((p.number, r.opponent))
    ordered = tuple(sorted(pairs, key=lambda pair: min(pair)))
    return Pairing(number, ordered, bye, tuple(absent))


def same_pairing(a: Pairing, b: Pairing) -> bool:
    """The same games with the same colours and the same bye (board order aside)."""
    return set(a.pairs) == set(b.pairs) and a.bye == b.bye


@dataclass(frozen=True, slots=True)
class Difference:
    """A round whose pairing in the file is not the Dutch system's: the engine's
    pairing, or its message when it found the round unpairable."""

    round: int
    actual: Pairing
    expected: Pairing | None
    error: str = ""


def check(trf: Trf) -> tuple[int, list[Difference]]:
    """Re-pair every paired round of a file; how many rounds were checked, and each
    round whose pairing differs from the engine's."""
    rounds = paired_rounds(trf)
    found: list[Difference] = []
    for number in rounds:
        actual = played(trf, number)
        try:
            expected = pair_file(trf, number)
        except PairingError as exc:
            found.append(Difference(number, actual, None, str(exc)))
            continue
        if not same_pairing(actual, expected):
            found.append(Difference(number, actual, expected))
    return len(rounds), found


def pairs_text(pairing: Pairing) -> str:
    """A pairing in one line: ``1-5 4-2 3-6, bye 7`` (white first)."""
    text = " ".join(f"{w}-{b}" for w, b in pairing.pairs)
    if pairing.bye is not None:
        text += f", bye {pairing.bye}" if text else f"bye {pairing.bye}"
    return text or "no game"
