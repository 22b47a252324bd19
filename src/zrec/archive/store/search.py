"""Finding stored games: by tags, players, dates, rule options, opening moves, exact
position, material and the marks of a stored computer analysis.

Every condition of a :class:`Query` must hold.  Tags are matched exactly (a player's
name through its normal form and the aliases); dates as ranges (:mod:`.dates`).  The
move and position conditions are played before they are looked up:

- ``moves`` (``1. b6-b5 b4xb6``) is replayed from the start of every game, rule
  options and setup the archive holds (or those ``game`` and ``options`` allow), and the
  games found are those whose first plies are exactly these (the opening paths);
- ``position`` (a ``Setup`` string) or ``position_of`` (a record and a ply) gives a
  position; the games found are those that pass through it at any ply, by whatever
  order of moves.  Each game shown is confirmed by replaying it; a page's count comes
  from the index (:func:`search_page`).

Results come in archive order (by id).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from zrec.archive.store import Archive
from zrec.archive.store.dates import DateError, date_range
from zrec.archive.store.query import Plan, Query, SearchError

# The moves and positions asked for are played with the rules (.wanted), imported when
# a search asks for them: a search by tags alone (a player's games) starts without the
# rules and the replay (228 -> 196 ms of CPU a command, median of 21 runs interleaved,
# on the loaded machine, 2026-11-26).

__all__ = ["MAX_CONDITIONS", "Query", "SearchError", "search", "search_page"]

#: candidate games read from the database at a time
CHUNK = 500


def search(archive: Archive, query: Query) -> Iterator[int]:
    """The ids of the games that match, in archive order, from ``query.offset`` on
    (at most ``query.limit``); every hit of a position is confirmed by replay."""
    plan = _plan(archive, query)
    if plan.empty:
        return
    _candidates(archive, plan)
    if not _confirms(plan):
        yield from _matches(archive, plan, query.offset, query.limit)
        return
    shown = skipped = 0
    for gid in _matches(archive, plan, 0, None):
        if not _confirmed(archive, plan, gid):
            continue
        if skipped < query.offset:
            skipped += 1
            continue
        yield gid
        shown += 1
        if query.limit is not None and shown >= query.limit:
            return


def search_page(archive: Archive, query: Query) -> tuple[list[int], int]:
    """One page of the games that match (``query.offset`` and ``query.limit``), and
    how many games match in all.

    The games are counted from the indexes (a false hit of the position index is a
    chance of one in millions, :mod:`zrec.archive.store.posindex`); only the games of
    the page are replayed to confirm a position, and one that fails is left out of the
    page and the count.  A move prefix longer than the openings kept is confirmed
    game by game."""
    plan = _plan(archive, query)
    if plan.empty:
        return [], 0
    start, limit = query.offset, query.limit
    if plan.prefix:
        _candidates(archive, plan)
        found = [g for g in _matches(archive, plan, 0, None) if _confirmed(archive, plan, g)]
        return found[start : None if limit is None else start + limit], len(found)
    if len(plan.index) == 1 and not plan.where:  # one index alone: counted and paged there
        layout, keys = plan.index[0]
        total, page = layout.count_page(archive.db, keys, start, limit)
    else:
        _candidates(archive, plan)
        total = _count(archive, plan)
        page = list(_matches(archive, plan, start, limit))
    if plan.raw_keys:
        kept = [gid for gid in page if _confirmed(archive, plan, gid)]
        total -= len(page) - len(kept)
        page = kept
    return page, total


def _candidates(archive: Archive, plan: Plan) -> None:
    """The games every index condition allows."""
    for layout, keys in plan.index:
        games = layout.games(archive.db, keys)
        plan.candidates = games if plan.candidates is None else plan.candidates & games


def _confirms(plan: Plan) -> bool:
    return bool(plan.raw_keys or plan.prefix)


def _where(plan: Plan) -> str:
    """The SQL conditions, all of them: joined two by two, so that the depth of the
    expression grows with the logarithm of their number (``a AND b AND c ...``
    nests one level a condition, and SQLite refuses more than 1,000 levels: a search
    with a thousand players or options was "database error: Expression tree is too
    large")."""
    terms = list(plan.where)
    if not terms:
        return "1 = 1"
    while len(terms) > 1:
        terms = [f"({' AND '.join(terms[i : i + 2])})" for i in range(0, len(terms), 2)]
    return terms[0]


def _count(archive: Archive, plan: Plan) -> int:
    if plan.candidates is None:
        sql = f"SELECT count(*) FROM games g WHERE {_where(plan)}"
        return int(archive.db.value(sql, plan.params))
    if not plan.where:
        return len(plan.candidates)
    ids = sorted(plan.candidates)
    total = 0
    for start in range(0, len(ids), CHUNK):
        part = ids[start : start + CHUNK]
        total += int(
            archive.db.value(
                f"SELECT count(*) FROM games g WHERE {_where(plan)} AND g.id IN "
                f"({','.join('?' * len(part))})",
                [*plan.params, *part],
            )
        )
    return total


def _matches(archive: Archive, plan: Plan, offset: int, limit: int | None) -> Iterator[int]:
    """The games that match the conditions of the database and the indexes (not
    confirmed by replay), in archive order, from ``offset`` on (at most ``limit``)."""
    where = _where(plan)
    if plan.candidates is not None:
        ids = sorted(plan.candidates)
        if not plan.where:
            yield from ids[offset : None if limit is None else offset + limit]
            return
        shown = 0
        for start in range(0, len(ids), CHUNK):
            part = ids[start : start + CHUNK]
            rows = archive.db.rows(
                f"SELECT g.id FROM games g WHERE {where} AND g.id IN "
                f"({','.join('?' * len(part))}) ORDER BY g.id",
                [*plan.params, *part],
            )
            for (gid,) in rows:
                if offset:
                    offset -= 1
                    continue
                yield int(gid)
                shown += 1
                if limit is not None and shown >= limit:
                    return
        return
    if plan.index:  # an index condition that no game holds
        return
    page = ""
    if limit is not None or offset:
        page = f" LIMIT {int(limit) if limit is not None else -1} OFFSET {int(offset)}"
        if archive.db.dialect == "postgresql" and limit is None:
            page = f" OFFSET {int(offset)}"
    rows = archive.db.rows(
        f"SELECT g.id FROM games g WHERE {where} ORDER BY g.id{page}", plan.params
    )
    for (gid,) in rows:
        yield int(gid)


#: the most players, seats and rule options one search may name (repeats counted once):
#: each is a subquery, and a database plans a thousand of them for minutes
MAX_CONDITIONS = 32


def _left_out(name: str | None, tag: str, value: str) -> bool:
    """Whether ``tag=value`` is the default of an option that the store leaves out at its
    default (:attr:`OptionSpec.stored_default`), in the game ``name`` or, with none, in
    a game that has the option."""
    from zrec.rules import all_games, find_game

    games = (find_game(name),) if name is not None else all_games()
    for rules in games:
        for known, spec in rules.options.items():
            if (
                known.lower() == tag.lower()
                and not spec.stored_default
                and spec.default.lower() == value.strip().lower()
            ):
                return True
    return False


def _plan(archive: Archive, q: Query) -> Plan:
    plan = Plan()
    name = None
    players = list(dict.fromkeys(q.players))
    seats = list(dict.fromkeys(q.seats))
    options = list(dict.fromkeys(q.options))
    named = len(players) + len(seats) + len(options)
    if named > MAX_CONDITIONS:
        raise SearchError(
            f"the search names {named} players, seats and rule options: "
            f"at most {MAX_CONDITIONS} are taken")
    if q.game is not None:
        from zrec.rules import find_game
        from zrec.rules.base import UnknownGameError

        try:
            name = find_game(q.game).name
        except UnknownGameError as exc:
            raise SearchError(str(exc)) from None
        plan.add("g.game = ?", name)
    for tag, value in options:
        pattern = f"%;{_like(tag)}={_like(value)};%"
        if not _left_out(name, tag, value):
            plan.add(
                "g.options_id IN (SELECT id FROM rule_options WHERE LOWER(';' || options || ';') "
                "LIKE LOWER(?) ESCAPE '!')",
                pattern,
            )
            continue
        # the default of an option the store leaves out at its default: stored so, or absent
        plan.add(
            "g.options_id IN (SELECT id FROM rule_options WHERE LOWER(';' || options || ';') "
            "LIKE LOWER(?) ESCAPE '!' OR LOWER(';' || options || ';') NOT LIKE LOWER(?) "
            "ESCAPE '!')",
            pattern,
            f"%;{_like(tag)}=%",
        )
    if q.ids is not None:
        if not q.ids:
            plan.empty = True
            return plan
        plan.add(f"g.id IN ({','.join('?' * len(q.ids))})", *q.ids)
    if q.event is not None:
        plan.add("g.event IN (SELECT id FROM events WHERE name = ?)", q.event)
    for column, wanted in (("site", q.site), ("round", q.round), ("result", q.result)):
        if wanted is not None:
            plan.add(f"g.{column} = ?", wanted)
    if q.termination is not None:
        wanted = " ".join(q.termination.split()).lower()
        if wanted == "normal":
            plan.add("(LOWER(g.termination) = ? OR g.termination IS NULL)", wanted)
        else:
            plan.add("LOWER(g.termination) = ?", wanted)
    _dates(plan, q)
    for role, person in [*((None, p) for p in players), *seats]:
        ids = archive.player_ids(person)
        if not ids:
            plan.empty = True
            continue
        marks = ",".join("?" * len(ids))
        if role is None:
            plan.add(f"g.id IN (SELECT game FROM game_players WHERE player IN ({marks}))", *ids)
        else:
            plan.add(
                f"g.id IN (SELECT game FROM game_players WHERE role = ? AND player IN ({marks}))",
                role,
                *ids,
            )
    if q.material is not None:
        counts = ":".join(part.strip() for part in q.material.split(":"))
        if not re.fullmatch(r"[0-9]+(:[0-9]+)+", counts):
            raise SearchError(f"--material {q.material!r}: write the pieces per seat, as 12:9")
        # one row a game: its counts in game order, each between spaces
        plan.add("g.id IN (SELECT game FROM material WHERE counts LIKE ?)", f"% {counts} %")
    _marked(plan, q)
    if q.moves is not None or q.position is not None or q.position_of is not None:
        from zrec.archive.store import wanted as asked

        if q.moves is not None:
            asked.moves(archive, plan, q, name)
        if q.position is not None or q.position_of is not None:
            asked.position(archive, plan, q, name)
    return plan


#: the marks a stored analysis gives (zrec.research.analysis.MARKS)
MARKS = ("?!", "?", "??")


def _marked(plan: Plan, q: Query) -> None:
    """The games a stored analysis (any player, any budget) marks ``q.mark`` at a ply
    of at most ``q.max_ply``."""
    if q.mark is None:
        if q.max_ply is not None:
            raise SearchError("--max-ply goes with --mark: the ply of a marked move")
        return
    if q.mark not in MARKS:
        raise SearchError(f"--mark takes ?!, ? or ??, not {q.mark!r}")
    if q.max_ply is None:
        plan.add("g.id IN (SELECT game FROM analysis_marks WHERE mark = ?)", q.mark)
    else:
        plan.add("g.id IN (SELECT game FROM analysis_marks WHERE mark = ? AND ply <= ?)",
                 q.mark, q.max_ply)


def _dates(plan: Plan, q: Query) -> None:
    try:
        low = date_range(q.date_from) if q.date_from is not None else None
        high = date_range(q.date_to) if q.date_to is not None else None
    except DateError as exc:
        raise SearchError(str(exc)) from None
    if (q.date_from is not None and low is None) or (q.date_to is not None and high is None):
        raise SearchError("a date to search from or to needs its year")
    if low is not None:
        plan.add("g.date_hi >= ?", low[0])
    if high is not None:
        plan.add("g.date_lo <= ?", high[1])


def _like(text: str) -> str:
    """``text`` matched literally inside a LIKE pattern (escape character ``!``)."""
    return text.replace("!", "!!").replace("%", "!%").replace("_", "!_")


def _confirmed(archive: Archive, plan: Plan, gid: int) -> bool:
    """Replay a candidate to confirm the position and long-prefix conditions."""
    from zrec.archive.store.verify import confirmed

    return confirmed(archive.text_of(gid) or "", plan.raw_keys, plan.prefix)
