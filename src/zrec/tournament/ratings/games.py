"""The games a rating reads, in pools and rating periods
(:func:`zrec.archive.rated.rated_games` reads them from an archive).

- A **pool** is a game and its rule options as stored (every option, defaults filled
  in): players are rated apart under each reading of the rules.
- A game is **rated** when it is finished (a score per seat), every seat names a
  player and no player holds two seats, and it was played (not ``Termination
  "forfeit"``): a result recorded without its moves is rated (:func:`unrated_reason`
  says why another is not).
- A **rating period** is a round of an event (the games whose ``Event`` and ``Round``
  tags name it), or else a date: the games of one day outside any event's round are
  one period.  Periods come in date order (a round's date is the earliest of its
  games), then event and round order; games of an unknown date come first.
- ``as_of``: only the games certainly played by that day (the last day their date
  may be); a game of an unknown date is then left out.
- **Starting ratings**: the ratings the events' rosters give their players (a TRF
  file's rating field, ``zrec archive roster``), by event and player.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from zrec.rules.values import parse_result

__all__ = ["Period", "RatedGame", "Reading", "periods", "unrated_reason"]


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A game that counts in a rating: its players (seat by seat) and their scores."""

    id: int
    game: str
    options: str
    players: tuple[int, ...]
    scores: tuple[Fraction, ...]
    date: str  # the earliest day it may have been played ("" unknown)
    event: str = ""
    event_id: int = 0
    round: int = 0


@dataclass(slots=True)
class Period:
    """A rating period: a round of an event, or a date."""

    key: tuple[str, int, str, int, int]
    label: str
    date: str
    games: list[RatedGame] = field(default_factory=list)


@dataclass(slots=True)
class Reading:
    """What :func:`~zrec.archive.rated.rated_games` found: the rated games by pool,
    and how many were left out, by reason."""

    pools: dict[tuple[str, str], list[RatedGame]] = field(default_factory=dict)
    left_out: Counter[str] = field(default_factory=Counter)
    starts: dict[tuple[int, int], int] = field(default_factory=dict)  # (event, player)


def unrated_reason(result: str, termination: str, seats: int, players: list[int]) -> str:
    """Why a game is not rated (its result token and termination, its seats, the
    players its seats name), as the games left out are counted; "" for a rated game."""
    if seats < 2:
        return "one seat: nobody to be rated against"
    if len(players) < seats:
        return "a seat names no player"
    if len(set(players)) < len(players):
        return "one player holds two seats"
    if parse_result(result, seats) is None:
        return "not finished"
    if " ".join(termination.split()).casefold() == "forfeit":
        return "forfeit"
    return ""


def periods(games: list[RatedGame]) -> list[Period]:
    """The rating periods of a pool's games, in order (each period's games in id
    order)."""
    found: dict[tuple[int, object], Period] = {}
    for game in games:
        if game.round:
            ident: tuple[int, object] = (game.event_id, game.round)
            label = f"{game.event}, round {game.round}"
        else:
            ident = (0, game.date)
            label = game.date or "date unknown"
        period = found.get(ident)
        if period is None:
            period = found[ident] = Period(("", 0, "", 0, 0), label, game.date)
        if game.date and (not period.date or game.date < period.date):
            period.date = game.date
        period.games.append(game)
    for (eid, _), period in found.items():
        first = period.games[0]
        period.key = (period.date, 1 if eid else 0, first.event.casefold(), eid, first.round)
    return sorted(found.values(), key=lambda p: p.key)
