"""An archive's players rated: the games a rating reads from the archive, and every
pool rated from them (docs/tournaments.md, "Ratings").

- :func:`rated_games`: the archive's rated games by pool (a game is rated when it is
  finished, every seat names a player, no player holds two seats, and it was played:
  not ``Termination "forfeit"``), with the games left out by reason and the ratings
  the events' rosters give their players; :mod:`zrec.tournament.ratings.games` says
  what pools and periods are;
- :func:`rate`: every pool rated (:func:`zrec.tournament.ratings.compute.rate_pool`),
  its players named.
"""

from __future__ import annotations

from collections.abc import Sequence

from zrec.archive.store import Archive
from zrec.rules.values import parse_result
from zrec.tournament.event import round_number
from zrec.tournament.ratings.compute import Pool, rate_pool
from zrec.tournament.ratings.games import RatedGame, Reading, unrated_reason

__all__ = ["rate", "rated_games"]


def rated_games(
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
        why = unrated_reason(str(result), str(ended or ""), count, players)
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


def rate(
    archive: Archive, game: str | None = None, as_of: str | None = None,
    events: Sequence[int] | None = None,
) -> tuple[list[Pool], Reading]:
    """Every pool of the archive (of ``game`` alone, its stored name, when given),
    rated from its games up to ``as_of`` (``YYYY.MM.DD``) (and of ``events`` alone,
    their ids, when given), by game and options; and what was read (the games left
    out, by reason)."""
    reading = rated_games(archive, game, as_of, events)
    pools = [
        rate_pool(g, o, games, reading.starts) for (g, o), games in sorted(reading.pools.items())
    ]
    names = archive.player_names({r.player for p in pools for r in p.players})
    for pool in pools:
        for rated in pool.players:
            rated.name = names.get(rated.player, "?")
        pool.players.sort(key=lambda r: (-r.now.rating, r.now.rd, r.name.casefold(), r.player))
    return pools, reading
