"""Pairing a Swiss round by the FIDE Dutch system (C.04.3, with C.04.1's basic rules).

:func:`pair_round` takes an event's entrants (pairing numbers and the rounds before the
one to pair, as :mod:`event` or a TRF file gives them) and returns the round's
:class:`Pairing`: who plays whom with which colour, who has the pairing-allocated bye,
who is absent.  The choice of opponents is :mod:`dutch`'s; this module reads the
history (scores, colours, floats, byes), allocates the colours (C.04.3 E) and orders
the boards as FIDE's programs print them.

The rules it follows, as the FIDE-endorsed programs read a TRF file:

- a round before the one to pair that a player has no entry for counts as not paired
  (no points); a game is *played* when it has an opponent, a colour and a result
  played over the board (``1 = 0 W D L``): forfeits count for neither colours nor
  meetings;
- a player whose entry for the round to pair is already there without an opponent
  (``H``, ``F``, ``Z``, ``U``, ``-``: an announced bye or absence, a withdrawal) is
  not paired;
- the pairing-allocated bye goes only to a player who has not had one, nor a win
  without playing (a forfeit win or a full-point bye).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from zrec.tournament.dutch import Unpairable, dutch_pairs
from zrec.tournament.dutch_weights import Context, Standing, invert
from zrec.tournament.event import BYES, CODES, Entrant, EventError

__all__ = ["Pairing", "PairingError", "before_round", "first_colour_of", "pair_round"]


class PairingError(EventError):
    """A round that cannot be paired, in words."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's pairings: ``pairs`` as (white, black) pairing numbers, top board
    first; the pairing-allocated ``bye``; the players not paired."""

    round: int
    pairs: tuple[tuple[int, int], ...]
    bye: int | None
    absent: tuple[int, ...]


def _standing(e: Entrant, number: int, rank: int) -> Standing:
    played: list[str] = []
    gains: list[int] = []
    opponents: list[int] = []
    eligible = True
    for n in range(1, number):
        r = e.rounds.get(n)
        if r is None:
            played.append("")
            gains.append(0)
            opponents.append(0)
            continue
        if r.code == " " or r.code not in CODES:
            raise PairingError(
                f"round {n} is not finished: player {e.number} ({e.name}) has no result"
            )
        opponent = r.opponents[0] if r.opponents else 0
        over_board = CODES[r.code][1] and opponent > 0 and r.colour in ("w", "b")
        gain = int(CODES[r.code][0] * 2)
        paired = opponent > 0 or r.code in "U+"
        if not over_board and (gain >= 2 or (paired and not opponent)):
            eligible = False
        played.append(r.colour if over_board else "")
        gains.append(gain)
        opponents.append(opponent if over_board else 0)
    return Standing(e.number, rank, played, gains, opponents, eligible)


def first_colour_of(entrants: Sequence[Entrant]) -> str:
    """The colour the top seed had in round 1, read back from the first round in which
    colours were given (the parity of each player's place decides theirs)."""
    rounds = [n for e in entrants for n, r in e.rounds.items() if r.colour in ("w", "b")]
    if not rounds:
        return ""
    first = min(rounds)
    place = 0
    for e in sorted(entrants, key=lambda e: e.number):
        if not any(r.opponents or r.code in "U+" for n, r in e.rounds.items() if n <= first):
            continue
        r = e.rounds.get(first)
        if r is not None and r.colour in ("w", "b"):
            return invert(r.colour) if place % 2 else r.colour
        place += 1
    return ""


def before_round(entrants: Sequence[Entrant], number: int) -> list[Entrant]:
    """The entrants as they stood when round ``number`` was paired: the rounds before
    it, and the byes and absences already entered for it (how a checker re-pairs a
    finished event)."""
    return [
        replace(e, rounds={
            n: r for n, r in e.rounds.items()
            if n < number or (n == number and not r.opponents and r.code != "U")
        })
        for e in entrants
    ]


def _colour(p: Standing, o: Standing, first: str) -> str:
    """The colour of ``p`` against ``o`` (C.04.3 E.1-E.5)."""
    c = _neutral(p, o)
    if c:
        return c
    o_higher = (p.score, o.rank) < (o.score, p.rank)
    if p.preference == "":
        if o_higher:
            return first if o.rank % 2 else invert(first)
        return invert(first) if p.rank % 2 else first
    return invert(o.preference) if o_higher else p.preference


def _neutral(p: Standing, o: Standing) -> str:
    if p.preference != o.preference or not p.preference or not o.preference:
        return p.preference or invert(o.preference)
    if p.absolute and (p.imbalance > o.imbalance or not o.absolute):
        return p.preference
    if o.absolute and (o.imbalance > p.imbalance or not p.absolute):
        return invert(o.preference)
    if p.strong and not o.strong:
        return p.preference
    if o.strong and not p.strong:
        return invert(o.preference)
    mine = [c for c in p.played if c]
    theirs = [c for c in o.played if c]
    for a, b in zip(reversed(mine), reversed(theirs), strict=False):
        if a != b:
            return b
    return ""


def pair_round(
    entrants: Sequence[Entrant],
    number: int,
    rounds: int,
    first_colour: str = "",
    forbidden: Sequence[tuple[int, ...]] = (),
) -> Pairing:
    """Pair round ``number`` of an event of ``rounds`` rounds; raises
    :class:`PairingError` where no pairing meets the absolute criteria."""
    if number < 1:
        raise PairingError(f"rounds are numbered from 1, not {number}")
    ordered = sorted(entrants, key=lambda e: e.number)
    absent: list[int] = []
    valid: list[Entrant] = []
    for e in ordered:
        r = e.rounds.get(number)
        if r is not None and r.opponents:
            raise PairingError(
                f"round {number} is already paired: player {e.number} ({e.name}) plays "
                f"{r.opponents[0]}"
            )
        if r is not None and r.code not in BYES and r.code != "-":
            raise PairingError(
                f"round {number}: player {e.number} ({e.name}) already has the result "
                f"{r.code!r} in that round without an opponent; before a round is paired "
                "it may hold only byes and absences (U F H Z, or - for a player who will "
                "not play)"
            )
        was_paired = any(
            x.opponents or x.code in "U+" for n, x in e.rounds.items() if n < number
        )
        if r is not None and (r.code in BYES or r.code == "-"):
            absent.append(e.number)
            if not was_paired:
                continue  # not yet in the event: no place among the ranks
        valid.append(e)
    players = {e.number: _standing(e, number, rank) for rank, e in enumerate(valid)}
    ban: dict[int, set[int]] = {}
    for group in forbidden:
        for a in group:
            ban.setdefault(a, set()).update(b for b in group if b != a)
    ctx = Context(players, number - 1, max(rounds, number), ban)
    order = sorted(
        (p for p in players.values() if p.number not in absent),
        key=lambda p: (-p.score, p.rank),
    )
    try:
        pairs, bye = dutch_pairs(ctx, order)
    except Unpairable:
        raise PairingError(
            f"round {number} cannot be paired: no pairing of the {len(order)} players "
            "meets the absolute criteria (no two players meet twice, no forbidden pair, "
            "no colour against an absolute preference, at most one bye and only to a "
            "player who has not had one)"
        ) from None
    first = first_colour or first_colour_of(ordered) or "w"
    boards: list[tuple[tuple[int, int, int], tuple[int, int]]] = []
    for a, b in pairs:
        p, o = (players[a], players[b]) if a < b else (players[b], players[a])
        white, black = (p, o) if _colour(p, o, first) == "w" else (o, p)
        hi, lo = sorted((p, o), key=lambda s: (-s.score, s.rank))
        boards.append(((-hi.score, -lo.score, hi.rank), (white.number, black.number)))
    boards.sort()
    return Pairing(number, tuple(pair for _, pair in boards), bye, tuple(absent))
