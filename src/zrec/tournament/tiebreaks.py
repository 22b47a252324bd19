"""Tie-breaks as the FIDE Tie-Break Regulations define them, and the ranking they give.

The codes are FIDE's: ``DE`` direct encounter, ``BH`` Buchholz, ``BH-C1`` Buchholz
cut 1, ``BH-M1`` median Buchholz 1, ``SB`` Sonneborn-Berger, ``WIN`` number of wins,
``PS`` progressive score.  Unplayed rounds (byes, absences, forfeits) follow the
regulations' article 16; docs/tournaments.md gives every rule with a worked example.
Everything here is arithmetic on an :class:`~zrec.tournament.event.Tournament`: exact
fractions, no database.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from zrec.tournament.event import DRAW, WIN, Entrant, EventError, Round, Tournament

__all__ = [
    "NAMES",
    "REGULATIONS",
    "Ranked",
    "TiebreakError",
    "default_tiebreaks",
    "parse_tiebreaks",
    "rank",
    "round_robin",
]

#: code -> what it is, in words (the order of ``--help``)
NAMES: dict[str, str] = {
    "DE": "direct encounter",
    "BH": "Buchholz",
    "BH-C1": "Buchholz cut 1",
    "BH-M1": "median Buchholz 1",
    "SB": "Sonneborn-Berger",
    "WIN": "number of wins",
    "PS": "progressive score",
}
#: the tie-breaks that need one opponent a game
TWO_PLAYER = frozenset({"DE", "BH", "BH-C1", "BH-M1", "SB"})
#: zrec's defaults: a round robin, a Swiss event, an event of games of more seats
DEFAULTS = {
    "round robin": ("DE", "SB", "WIN"),
    "swiss": ("BH-C1", "BH", "DE", "WIN"),
    "seats": ("WIN", "PS"),
}


class TiebreakError(EventError):
    """A tie-break that is unknown, or that makes no sense for the event."""


def parse_tiebreaks(text: str, event: Tournament | None = None) -> list[str]:
    """The codes of ``--tiebreaks BH,SB,…`` (case does not matter), checked; for an
    event of games of more than two seats, the two-player tie-breaks are refused."""
    codes = []
    for part in text.split(","):
        code = part.strip().upper()
        if not code:
            continue
        if code not in NAMES:
            known = ", ".join(NAMES)
            raise TiebreakError(f"unknown tie-break {part.strip()!r}: the codes are {known}")
        if code in codes:
            raise TiebreakError(f"tie-break {code} is asked for twice")
        codes.append(code)
    if not codes:
        raise TiebreakError("--tiebreaks names no tie-break")
    if event is not None and not event.two_player:
        bad = [c for c in codes if c in TWO_PLAYER]
        if bad:
            raise TiebreakError(
                f"{', '.join(bad)} {'needs' if len(bad) == 1 else 'need'} one opponent a "
                f"game, and {event.name!r} has games of {event.seats} seats: use WIN "
                "and PS"
            )
    return codes


def default_tiebreaks(event: Tournament, robin: bool | None = None) -> list[str]:
    if not event.two_player:
        return list(DEFAULTS["seats"])
    robin = round_robin(event) if robin is None else robin
    return list(DEFAULTS["round robin" if robin else "swiss"])


def round_robin(event: Tournament) -> bool:
    """Whether everybody meets everybody the same number of times (once, twice…) over
    the event's rounds (two-player events)."""
    n = len(event.entrants)
    if n < 2 or not event.two_player:
        return False
    per_cycle = n - 1 if n % 2 == 0 else n
    return event.rounds % per_cycle == 0 and all(
        _meetings(e).keys() == set(range(1, n + 1)) - {e.number} for e in event.entrants
    ) and len({tuple(sorted(_meetings(e).values())) for e in event.entrants}) == 1


def _meetings(entrant: Entrant) -> dict[int, int]:
    seen: dict[int, int] = {}
    for r in entrant.rounds.values():
        if r.opponent is not None:
            seen[r.opponent] = seen.get(r.opponent, 0) + 1
    return seen


# -- the values --------------------------------------------------------------------


@dataclass(slots=True)
class _Sheet:
    """What every tie-break reads: points, and the scores opponents are counted with.

    In a Swiss event (article 16) a participant's own unplayed rounds count as games
    against a dummy opponent with the participant's own score; in a round robin a
    forfeit counts as a game against the scheduled opponent and a round without an
    opponent counts nothing."""

    event: Tournament
    robin: bool
    #: the regulations in force from 1 March 2026 cap the dummy's score (art. 16.4)
    capped: bool = True
    points: dict[int, Fraction] = field(default_factory=dict)
    #: a participant's score as its opponents count it (art. 16.3)
    adjusted: dict[int, Fraction] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for e in self.event.entrants:
            self.points[e.number] = e.points()
            self.adjusted[e.number] = _adjusted(e, Fraction(0) if self.robin else DRAW)

    def counted(self, r: Round) -> bool:
        """Whether a round is a game against its opponent for the tie-breaks."""
        return r.opponent is not None and (r.played or self.robin)

    def contributions(self, entrant: Entrant) -> list[tuple[Fraction, bool, Fraction]]:
        """Per round: (the opponent's score as counted, a round the entrant chose not
        to play, the points the entrant scored)."""
        out = []
        for r in entrant.rounds.values():
            if self.counted(r):
                assert r.opponent is not None
                out.append((self.adjusted[r.opponent], False, r.points))
            elif self.robin:
                out.append((Fraction(0), r.voluntary, r.points))
            else:  # the dummy opponent (art. 16.4)
                out.append((self.dummy(entrant, r), r.voluntary, r.points))
        return out

    def dummy(self, entrant: Entrant, r: Round) -> Fraction:
        """The score of the dummy opponent of an unplayed round: the participant's own
        score; since 2026 no more than the scheduled opponent's (a forfeit) or than
        a draw in every round (any other unplayed round)."""
        own = self.points[entrant.number]
        if not self.capped:
            return own
        if r.opponent is not None:
            return min(own, self.adjusted[r.opponent])
        return min(own, DRAW * self.event.rounds)


def _adjusted(entrant: Entrant, later: Fraction) -> Fraction:
    """A participant's score as its opponents' Buchholz counts it (art. 16.3): a round
    without an opponent that it chose not to play after its last round played or
    won (a withdrawal, a bye at the end) counts as ``later`` (a draw in a Swiss
    event), whatever it gave; a forfeit loss still counts as a loss."""
    rounds = [entrant.rounds[n] for n in sorted(entrant.rounds)]
    last = max((i for i, r in enumerate(rounds, 1) if not r.voluntary), default=0)
    return sum(
        (later if i > last and r.opponent is None else r.points for i, r in enumerate(rounds, 1)),
        Fraction(0),
    )


def _buchholz(sheet: _Sheet, e: Entrant, cut_low: int, cut_high: int) -> Fraction:
    parts = sheet.contributions(e)
    # the least significant value is cut, except that a round the participant chose
    # not to play is cut first: its dummy is never below the least significant value,
    # and the regulations cut the higher of the two (art. 16.5)
    low = sorted(parts, key=lambda p: (not p[1], p[0]))
    kept = sorted(p[0] for p in low[cut_low:])
    return sum(kept[: len(kept) - cut_high], Fraction(0))


def _sonneborn(sheet: _Sheet, e: Entrant) -> Fraction:
    return sum((score * got for score, _, got in sheet.contributions(e)), Fraction(0))


def _wins(e: Entrant) -> Fraction:
    """Rounds with a win's points, played or not (forfeit wins and byes included)."""
    return Fraction(sum(1 for r in e.rounds.values() if r.points == WIN))


def _progressive(e: Entrant) -> Fraction:
    total, running = Fraction(0), Fraction(0)
    for n in sorted(e.rounds):
        running += e.rounds[n].points
        total += running
    return total


_PLAIN: dict[str, Callable[[_Sheet, Entrant], Fraction]] = {
    "BH": lambda s, e: _buchholz(s, e, 0, 0),
    "BH-C1": lambda s, e: _buchholz(s, e, 1, 0),
    "BH-M1": lambda s, e: _buchholz(s, e, 1, 1),
    "SB": _sonneborn,
    "WIN": lambda s, e: _wins(e),
    "PS": lambda s, e: _progressive(e),
}


def _encounters(
    sheet: _Sheet, group: Sequence[Entrant]
) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """Each member's points against the others of the group (several games against
    one opponent averaged, art. 6.1.2), and the most it could have had had the pairs
    who did not meet played (a win for each)."""
    numbers = {e.number for e in group}
    value: dict[int, Fraction] = {}
    best: dict[int, Fraction] = {}
    for e in group:
        games: dict[int, list[Fraction]] = {}
        for r in e.rounds.values():
            if r.opponent in numbers and sheet.counted(r):
                assert r.opponent is not None
                games.setdefault(r.opponent, []).append(r.points)
        value[e.number] = sum(
            (sum(p, Fraction(0)) / len(p) for p in games.values()), Fraction(0)
        )
        best[e.number] = value[e.number] + WIN * (len(numbers) - 1 - len(games))
    return value, best


def _direct(
    sheet: _Sheet, group: list[Entrant], values: dict[int, dict[str, Fraction]]
) -> list[list[Entrant]]:
    """Direct encounter (art. 6) splits a tied group, best first.  When every pair of
    the group met, the points among them order it; when not, a participant is placed
    above the rest only while its points beat the most any of the rest could have
    had.  Each group still tied is then taken again on its own."""
    if len(group) == 1:
        values[group[0].number]["DE"] = Fraction(0)
        return [group]
    value, best = _encounters(sheet, group)
    for e in group:
        values[e.number]["DE"] = value[e.number]
    parts: list[list[Entrant]] = []
    if value == best:  # everybody met everybody
        by_value: dict[Fraction, list[Entrant]] = {}
        for e in group:
            by_value.setdefault(value[e.number], []).append(e)
        parts = [by_value[v] for v in sorted(by_value, reverse=True)]
    else:
        order = sorted(group, key=lambda e: (-value[e.number], -best[e.number]))
        while order:
            rest = order[1:]
            if rest and value[order[0].number] > max(best[e.number] for e in rest):
                parts.append([order[0]])
                order = rest
            else:
                parts.append(order)
                break
    if len(parts) == 1:
        return parts
    out: list[list[Entrant]] = []
    for part in parts:  # a member placed on its own keeps the value that placed it
        out.extend(_direct(sheet, part, values) if len(part) > 1 else [part])
    return out


@dataclass(frozen=True, slots=True)
class Ranked:
    """One line of the standings."""

    rank: int
    entrant: Entrant
    points: Fraction
    games: int
    values: dict[str, Fraction]


#: the editions of the FIDE Tie-Break Regulations (C.07) zrec follows: the one in
#: force from 1 August 2024, and the one in force from 1 March 2026 (the default)
REGULATIONS = ("2026", "2024")


def rank(
    event: Tournament, codes: Sequence[str], regulations: str = "2026", robin: bool | None = None
) -> list[Ranked]:
    """The standings: by points, then by each tie-break in turn; entrants still tied
    share a rank (and are listed by pairing number).  ``robin``: whether the event is
    a round robin (by default, whether it looks like one; the standings after an early
    round of a round robin should say so)."""
    if regulations not in REGULATIONS:
        raise TiebreakError(f"the regulations are those of {' or '.join(REGULATIONS)}")
    if robin is None:
        robin = round_robin(event)
    sheet = _Sheet(event, robin, regulations != "2024")
    values: dict[int, dict[str, Fraction]] = {e.number: {} for e in event.entrants}
    for code in codes:
        if code != "DE":
            for e in event.entrants:
                values[e.number][code] = _PLAIN[code](sheet, e)
    by_points: dict[Fraction, list[Entrant]] = {}
    for e in event.entrants:
        by_points.setdefault(sheet.points[e.number], []).append(e)
    groups = [by_points[p] for p in sorted(by_points, reverse=True)]
    for code in codes:
        split: list[list[Entrant]] = []
        for group in groups:
            if code == "DE":
                split.extend(_direct(sheet, group, values))
                continue
            parts: dict[Fraction, list[Entrant]] = {}
            for e in group:
                parts.setdefault(values[e.number][code], []).append(e)
            split.extend(parts[v] for v in sorted(parts, reverse=True))
        groups = split
    out: list[Ranked] = []
    place = 1
    for group in groups:
        for e in sorted(group, key=lambda x: x.number):
            games = sum(1 for r in e.rounds.values() if r.played)
            out.append(Ranked(place, e, sheet.points[e.number], games, values[e.number]))
        place += len(group)
    return out
