"""The games a rating reads from an archive, in pools and rating periods.

- A **pool** is a game and its rule options as stored (every option, defaults filled
  in): players are rated apart under each reading of the rules.
- A game is **rated** when it is finished (a score per seat), every seat names a
  player and no player holds two seats, and it was played (not ``Termination
  "forfeit"``): a result recorded without its moves is rated.
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
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from zrec.archive.store import Archive
from zrec.archive.tournament.event import round_number
from zrec.rules.values import parse_result

__all__ = ["Period", "RatedGame", "Reading", "read_games"]


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
    """What :func:`read_games` found: the rated games by pool, and how many were left
    out, by reason."""

    pools: dict[tuple[str, str], list[RatedGame]] = field(default_factory=dict)
    left_out: Counter[str] = field(default_factory=Counter)
    starts: dict[tuple[int, int], int] = field(default_factory=dict)  # (event, player)


def _why_not(result: str, termination: str, seats: int, players: list[int]) -> str:
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


def read_games(
    archive: Archive, game: str | None = None, as_of: str | None = None,
    events: Sequence[int] | None = None,
) -> Reading:
    """The rated games of the archive (of one game, by its stored name, when ``game``
    is given; of those ``events``, their ids, when given), by pool, in game id order;
    ``as_of``: a ``YYYY.MM.DD`` day."""
    db = archive.db
    terms: list[str] = []
    values: list[object] = []
    if game is not None:
        terms.append("g.game = ?")
        values.append(game)
    if events is not None:
        terms.append(f"g.event IN ({','.join('?' * len(events)) or 'NULL'})")
        values.extend(events)
    where = ("WHERE " + " AND ".join(terms)) if terms else ""
    params = tuple(values)
    seats: dict[int, list[int]] = {}
    for gid, pid in db.rows(
        f"SELECT gp.game, gp.player FROM game_players gp JOIN games g ON g.id = gp.game "
        f"{where} ORDER BY gp.game, gp.seat",
        params,
    ):
        seats.setdefault(int(gid), []).append(int(pid))
    found = Reading()
    for gid, name, options, eid, ename, tag, lo, hi, result, ended, names in db.rows(
        "SELECT g.id, g.game, o.options, g.event, e.name, g.round, g.date_lo, g.date_hi, "
        "g.result, g.termination, g.seats FROM games g "
        "JOIN rule_options o ON o.id = g.options_id LEFT JOIN events e ON e.id = g.event "
        f"{where} ORDER BY g.id",
        params,
    ):
        players = seats.get(int(gid), [])
        count = str(names).count("\x1f") + 1
        why = _why_not(str(result), str(ended or ""), count, players)
        if not why and as_of is not None and (hi is None or str(hi) > as_of):
            why = "date unknown" if hi is None else "not certainly played by the day asked for"
        if why:
            found.left_out[why] += 1
            continue
        scores = parse_result(str(result), count)
        assert scores is not None
        number = round_number(None if eid is None else tag) or 0
        rated = RatedGame(
            int(gid), str(name), str(options), tuple(players), scores, str(lo or ""),
            str(ename or "") if number else "", int(eid or 0) if number else 0, number,
        )
        found.pools.setdefault((rated.game, rated.options), []).append(rated)
    rostered = sorted({g.event_id for games in found.pools.values() for g in games} - {0})
    if rostered:
        for eid, pid, rating in db.rows(
            "SELECT event, player, rating FROM event_players WHERE rating > 0 AND event IN "
            f"({','.join('?' * len(rostered))})",
            tuple(rostered),
        ):
            found.starts[int(eid), int(pid)] = int(rating)
    return found


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
