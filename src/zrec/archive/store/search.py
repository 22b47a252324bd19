"""Finding stored games: by tags, players, dates, rule options, opening moves, exact
position and material.

Every condition of a :class:`Query` must hold.  Tags are matched exactly (a player's
name through its normal form and the aliases); dates as ranges (:mod:`.dates`).  The
move and position conditions are played before they are looked up:

- ``moves`` (``1. b6-b5 b4xb6``) is replayed from the start of every game, rule
  options and setup the archive holds (or those ``game`` and ``options`` allow), and the
  games found are those whose first plies are exactly these (the opening paths);
- ``position`` (a ``Setup`` string) or ``position_of`` (a record and a ply) gives a
  position; the games found are those that pass through it at any ply, by whatever
  order of moves.  Each hit of the index is confirmed by replaying the stored game.

Results come in archive order (by id).
"""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from zrec.archive.store import Archive, posindex
from zrec.archive.store.dates import DateError, date_range
from zrec.archive.store.db import ArchiveError
from zrec.archive.store.facts import Indexer, hash64
from zrec.archive.store.schema import OPENING_PLIES
from zrec.archive.store.starts import stored_starts
from zrec.archive.store.verify import After, confirmed
from zrec.notation.model import Game, Line
from zrec.notation.reader import read_records
from zrec.play import GameSetupError, positions, prepare, walk
from zrec.play.replay import ReplayError, prepare_rules
from zrec.rules import find_game
from zrec.rules.base import UnknownGameError

__all__ = ["Query", "SearchError", "search", "search_page"]

#: candidate games read from the database at a time
CHUNK = 500


class SearchError(ArchiveError):
    """A search that cannot be run as asked: the message says why."""


@dataclass
class Query:
    """What to look for (every field that is set must match)."""

    players: list[str] = field(default_factory=list)
    seats: list[tuple[str, str]] = field(default_factory=list)  # (seat tag, name)
    event: str | None = None
    site: str | None = None
    round: str | None = None
    date_from: str | None = None
    date_to: str | None = None
    result: str | None = None
    termination: str | None = None
    game: str | None = None
    options: list[tuple[str, str]] = field(default_factory=list)
    moves: str | None = None
    position: str | None = None
    position_of: tuple[Game, int] | None = None
    material: str | None = None
    ids: list[int] | None = None
    limit: int | None = None
    offset: int = 0


@dataclass
class _Plan:
    where: list[str] = field(default_factory=list)
    params: list[Any] = field(default_factory=list)
    #: positions a hit must pass through, each as the raw keys it may have (one of
    #: each set, confirmed by replay)
    raw_keys: list[set[bytes]] = field(default_factory=list)
    #: move-prefix keys to confirm by replay, for prefixes longer than the openings
    prefix: list[tuple[int, list[int]]] = field(default_factory=list)
    #: for each position asked for: the games the index gives, with the plies
    plies: list[dict[int, list[int]]] = field(default_factory=list)
    #: the games the position index allows (None: no position condition)
    candidates: set[int] | None = None
    #: the opening paths asked for, when the openings index is the only condition
    paths: list[int] = field(default_factory=list)
    empty: bool = False

    def allow(self, games: set[int]) -> None:
        """Only these games can match."""
        self.candidates = games if self.candidates is None else self.candidates & games

    def add(self, clause: str, *params: Any) -> None:
        self.where.append(clause)
        self.params.extend(params)


def search(archive: Archive, query: Query) -> Iterator[int]:
    """The ids of the games that match, in archive order, from ``query.offset`` on
    (at most ``query.limit``)."""
    plan = _plan(archive, query)
    if plan.empty:
        return
    shown = skipped = 0
    for gid in _matches(archive, plan, query, paged=True):
        if skipped < query.offset and _confirms(plan):
            skipped += 1
            continue
        yield gid
        shown += 1
        if query.limit is not None and shown >= query.limit:
            return


def search_page(archive: Archive, query: Query) -> tuple[list[int], int]:
    """One page of the games that match (``query.offset`` and ``query.limit``), and
    how many games match in all."""
    plan = _plan(archive, query)
    if plan.empty:
        return [], 0
    start, limit = query.offset, query.limit
    if not _confirms(plan):
        total = _count(archive, plan)
        if plan.paths and limit is not None and total:
            _page_by_scan(archive, plan, start + limit, total)
        return list(_matches(archive, plan, query, paged=True)), total
    found = list(_matches(archive, plan, query, paged=False))
    end = None if limit is None else start + limit
    return found[start:end], len(found)


def _page_by_scan(archive: Archive, plan: _Plan, wanted: int, total: int) -> None:
    """When an opening is common, the first games are found sooner by going through
    the games in order and looking each up in the openings index than by reading
    every game of the opening and sorting them."""
    games = int(archive.db.value("SELECT coalesce(max(id), 0) FROM games"))
    if wanted * games / total < total:  # games gone through, against games read
        marks = ",".join("?" * len(plan.paths))
        at = plan.where.index(f"g.id IN (SELECT game FROM openings WHERE path IN ({marks}))")
        plan.where[at] = (
            f"EXISTS (SELECT 1 FROM openings o WHERE o.path IN ({marks}) AND o.game = g.id)"
        )


def _confirms(plan: _Plan) -> bool:
    return bool(plan.raw_keys or plan.prefix)


def _where(plan: _Plan) -> str:
    return " AND ".join(plan.where) or "1 = 1"


def _count(archive: Archive, plan: _Plan) -> int:
    if plan.paths and len(plan.where) == 1:  # the openings index alone: counted there
        marks = ",".join("?" * len(plan.paths))
        return int(
            archive.db.value(f"SELECT count(*) FROM openings WHERE path IN ({marks})", plan.paths)
        )
    return int(archive.db.value(f"SELECT count(*) FROM games g WHERE {_where(plan)}", plan.params))


def _matches(archive: Archive, plan: _Plan, query: Query, paged: bool) -> Iterator[int]:
    """The games that match, in archive order; ``paged``: from the query's offset, at
    most its limit, where no hit needs confirming."""
    where = _where(plan)
    if plan.candidates is not None:
        ids = sorted(plan.candidates)
        for start in range(0, len(ids), CHUNK):
            part = ids[start : start + CHUNK]
            rows = archive.db.rows(
                f"SELECT g.id FROM games g WHERE {where} AND g.id IN "
                f"({','.join('?' * len(part))}) ORDER BY g.id",
                [*plan.params, *part],
            )
            for (gid,) in rows:
                if not _confirms(plan) or _confirmed(archive, plan, int(gid)):
                    yield int(gid)
        return
    confirm = _confirms(plan)
    page = ""
    if paged and not confirm and (query.limit is not None or query.offset):
        page = f" LIMIT {int(query.limit) if query.limit is not None else -1}"
        page += f" OFFSET {int(query.offset)}"
        if archive.db.dialect == "postgresql" and query.limit is None:
            page = f" OFFSET {int(query.offset)}"
    sql = f"SELECT g.id FROM games g WHERE {where} ORDER BY g.id{page}"
    rows = archive.db.rows(sql, plan.params)
    for (gid,) in rows:
        if confirm and not _confirmed(archive, plan, int(gid)):
            continue
        yield int(gid)


def _plan(archive: Archive, q: Query) -> _Plan:
    plan = _Plan()
    name = None
    if q.game is not None:
        try:
            name = find_game(q.game).name
        except UnknownGameError as exc:
            raise SearchError(str(exc)) from None
        plan.add("g.game = ?", name)
    for tag, value in q.options:
        pattern = f"%;{_like(tag)}={_like(value)};%"
        plan.add(
            "g.options_id IN (SELECT id FROM rule_options WHERE LOWER(';' || options || ';') "
            "LIKE LOWER(?) ESCAPE '!')",
            pattern,
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
    for role, person in [*((None, p) for p in q.players), *q.seats]:
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
    if q.moves is not None:
        _moves(archive, plan, q, name)
    if q.position is not None or q.position_of is not None:
        _position(archive, plan, q, name)
    return plan


def _dates(plan: _Plan, q: Query) -> None:
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


def _moves_line(moves: str) -> Line:
    """The moves of ``--moves``, read once (their syntax does not depend on the game)."""
    text = f'[Game "?"]\n{moves}\n*\n'
    records = list(read_records(io.BytesIO(text.encode("utf-8")), "--moves"))
    if len(records) != 1:
        raise SearchError(f"--moves {moves!r}: write the moves only, without a result")
    record = records[0]
    if record.problem is not None:
        # the line of the game tag read in front of the moves does not count
        problem = dataclasses.replace(record.problem, line=record.problem.line - 1)
        raise SearchError(f"--moves {moves!r}: {problem.format()}")
    assert record.game is not None
    return record.game.line


def _moves(archive: Archive, plan: _Plan, q: Query, name: str | None) -> None:
    assert q.moves is not None
    line = _moves_line(q.moves)
    paths: list[int] = []
    reasons: list[str] = []
    length = None
    for label, tags in stored_starts(archive, q.options, name):
        game = Game(tuple(tags.items()), line, "*")
        try:
            replay = prepare(game)
        except GameSetupError as exc:
            reasons.append(f"{label}: {exc}")
            continue
        setup = replay.engine.setup_text(replay.start) if "Setup" in tags else ""
        indexer = Indexer(replay, setup)
        end = walk(replay, game.line, indexer, variations=False)
        if end.position is None or len(indexer.keys) != end.ply + 1:
            reasons.append(f"{label}: {_illegal(replay, game)}")
            continue
        length = end.ply
        if length <= OPENING_PLIES:
            paths.append(indexer.paths[length])
        else:
            paths.append(indexer.paths[OPENING_PLIES])
            plan.prefix.append((length, indexer.keys))
    if not paths:
        unique = list(dict.fromkeys(reasons))
        why = "; ".join(unique) if unique else "the archive holds no game it could be played in"
        raise SearchError(f"--moves {q.moves!r} is not an opening of any game searched: {why}")
    assert length is not None
    if length == 0:
        raise SearchError(f'--moves {q.moves!r} holds no move: write moves, as "1. b6-b5"')
    marks = ",".join("?" * len(paths))
    plan.add(f"g.id IN (SELECT game FROM openings WHERE path IN ({marks}))", *paths)
    plan.paths = paths
    if length > OPENING_PLIES:
        hits = posindex.lookup(archive.db, {keys[length] for _, keys in plan.prefix})
        ply = min(length, 0xFFFF)
        plan.allow({gid for gid, plies in hits.items() if ply in plies})


def _illegal(replay: Any, game: Game) -> str:
    try:
        positions(replay, game.line)
    except ReplayError as exc:
        return str(exc)
    return "the moves cannot be played"


def _position(archive: Archive, plan: _Plan, q: Query, name: str | None) -> None:
    """The position conditions: ``position_of`` and ``position`` must both hold."""
    if q.position_of is not None:
        game, ply = q.position_of
        try:
            replay = prepare(game)
        except GameSetupError as exc:
            raise SearchError(f"the position searched for cannot be found: {exc}") from None
        after = After(replay, ply)
        walk(replay, game.line, after, variations=False, upto=ply + 1)
        if after.error is not None:
            raise SearchError(f"the position searched for cannot be found: {after.error}")
        if after.reached < ply:
            raise SearchError(f"the record has {after.reached} plies: there is no ply {ply}")
        _passes(archive, plan, {replay.engine.key(after.position)})
    if q.position is not None:
        raw: set[bytes] = set()
        reasons = []
        variants = [tags for _, tags in stored_starts(archive, q.options, name)]
        if not variants and name:
            variants = [{"Game": name}]
        for tags in variants:
            try:
                rules = find_game(tags["Game"])
                replay = prepare_rules(rules, {**tags, "Setup": q.position})
            except (GameSetupError, UnknownGameError) as exc:
                reasons.append(exc.message if isinstance(exc, GameSetupError) else str(exc))
                continue
            raw.add(replay.engine.key(replay.start))
        if not raw:
            why = "; ".join(dict.fromkeys(reasons)) or "the archive holds no game to read it in"
            raise SearchError(f"--position {q.position!r} is not a position: {why}")
        _passes(archive, plan, raw)


def _passes(archive: Archive, plan: _Plan, raw: set[bytes]) -> None:
    """A condition: the game passes through a position with one of these keys."""
    plan.raw_keys.append(raw)
    hits = posindex.lookup(archive.db, {hash64(k) for k in raw})
    plan.plies.append(hits)
    plan.allow(set(hits))


def _confirmed(archive: Archive, plan: _Plan, gid: int) -> bool:
    """Replay a candidate to confirm the position and long-prefix conditions."""
    text = archive.text_of(gid)
    plies = [hits.get(gid, []) for hits in plan.plies]
    return confirmed(text or "", plan.raw_keys, plies, plan.prefix)
