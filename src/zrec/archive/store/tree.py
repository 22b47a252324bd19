"""The opening tree: from a position, the moves played next in the archive, each with
its number of games and each seat's score (``zrec archive tree``, the explorer).

The position is the start of a game (under its rule options), the position after some
moves (``1. b6-b5 b4xb6``), or a ``Setup`` string.  A branch is one move, written as
the engine spells it (as ``zrec fmt`` writes a move); its games are the stored valid
games whose main line plays that move there, and its score the points each seat got
in those games as the standings count a result (``1-0``: 1 and 0; ``1/2-1/2``: a half
each; an unfinished game, ``*``, gives none).  Branches come by games, most first,
then by move.

How it is found:

- after fewer than :data:`~zrec.archive.store.lines.LINE_MOVES` moves, from the
  opening lines (:mod:`zrec.archive.store.lines`): the games of the start whose first
  codes are those of the moves asked for, grouped by their next code and result, a
  column of a part's entries at a time (``bytes.translate`` and integer masks: no
  Python step a game); each code is decoded once, by the engine at that position;
- further on, for games with dice, and for ``position``: the games the position and
  opening indexes give (:mod:`zrec.archive.store.search`), each replayed to find its
  next move (a false hit of a hash is dropped there).  From a ``Setup`` position a game
  counts once for each move it plays there (a game may pass through it twice).

With no game named, every start the archive holds (with the options asked for) counts,
and branches with the same move join.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from zrec.archive.store import Archive, DamagedArchiveError, split_options
from zrec.archive.store.facts import Indexer
from zrec.archive.store.lines import END, LINE_MOVES, RESULTS, UNCODED, WIDTH, split
from zrec.archive.store.packed import PART_BITS
from zrec.archive.store.query import Query, SearchError
from zrec.archive.store.starts import stored_starts
from zrec.archive.store.wanted import moves_line
from zrec.notation.model import Game, Line
from zrec.notation.reader import read_string
from zrec.play import GameSetupError, Visitor, positions, prepare, walk
from zrec.play.replay import ReplayError
from zrec.play.walk import Played
from zrec.rules import all_games, find_game
from zrec.rules.base import UnknownGameError
from zrec.rules.values import parse_result

__all__ = ["Branch", "tree"]


@dataclass(frozen=True)
class Branch:
    """One move from the position: how many games played it, and each seat's points."""

    move: str
    games: int
    score: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "games": self.games, "score": dict(self.score)}


class _Tally:
    """Branches as they are counted: move -> games and points per seat."""

    def __init__(self) -> None:
        self.games: dict[str, int] = {}
        self.points: dict[str, dict[str, Fraction]] = {}

    def add(self, move: str, games: int, seats: tuple[str, ...], result: str) -> None:
        self.games[move] = self.games.get(move, 0) + games
        points = self.points.setdefault(move, {})
        scores = parse_result(result, len(seats))
        for i, seat in enumerate(seats):
            gained = scores[i] * games if scores is not None else Fraction(0)
            points[seat] = points.get(seat, Fraction(0)) + gained

    def branches(self) -> list[Branch]:
        order = sorted(self.games, key=lambda m: (-self.games[m], m))
        return [
            Branch(m, self.games[m], {s: float(p) for s, p in self.points[m].items()})
            for m in order
        ]


class _Moves(Indexer):
    """The indexer of a line asked for, keeping its moves as well."""

    def __init__(self, replay: Any, setup: str) -> None:
        super().__init__(replay, setup, codes=True)
        self.played: list[Played] = []

    def main_moves(self, moves: list[Played]) -> None:
        self.played += moves
        super().main_moves(moves)


class _Collect(Visitor):
    every_step = False
    batches = True

    def __init__(self) -> None:
        self.played: list[Played] = []

    def main_moves(self, moves: list[Played]) -> None:
        self.played += moves


def tree(
    archive: Archive,
    game: str | None = None,
    options: Mapping[str, str] | None = None,
    moves: str | None = None,
    position: str | None = None,
) -> list[Branch]:
    """The moves played next from the start (``moves`` and ``position`` not given),
    after ``moves`` or from ``position``, by the stored games of ``game`` (any, when
    not given) with these rule ``options`` (see the module's docstring).  Raises
    :class:`SearchError` for a game or option zrec does not know, moves that cannot be
    played and a position that cannot be read."""
    if moves is not None and position is not None:
        raise SearchError("give --moves or --position, not both")
    name = None
    try:
        if game is not None:
            name = find_game(game).name
        pairs = _checked_options(options or {}, name)
    except UnknownGameError as exc:
        raise SearchError(str(exc)) from None
    tally = _Tally()
    if position is not None:
        _from_position(archive, name, pairs, position, tally)
    else:
        _after_moves(archive, name, pairs, moves, tally)
    return tally.branches()


def _checked_options(options: Mapping[str, str], name: str | None) -> list[tuple[str, str]]:
    from zrec.play.overrides import OverrideError, check_for_any

    if options:
        try:
            check_for_any(dict(options), [find_game(name)] if name else all_games())
        except OverrideError as exc:
            raise SearchError(str(exc)) from None
    return list(options.items())


def _after_moves(
    archive: Archive,
    name: str | None,
    pairs: list[tuple[str, str]],
    moves: str | None,
    tally: _Tally,
) -> None:
    line = moves_line(moves) if moves is not None and moves.strip() else Line(())
    reasons: list[str] = []
    played_any = False
    seen: set[int] = set()
    for label, tags in stored_starts(archive, pairs, name):
        record = Game(tuple(tags.items()), line, "*")
        try:
            replay = prepare(record)
        except GameSetupError as exc:
            reasons.append(f"{label}: {exc}")
            continue
        setup = replay.engine.setup_text(replay.start) if "Setup" in tags else ""
        asked = _Moves(replay, setup)
        end = walk(replay, line, asked, variations=False)
        if end.position is None or len(asked.keys) != end.ply + 1:
            reasons.append(f"{label}: {_illegal(replay, record)}")
            continue
        played_any = True
        start = asked.paths[0]
        if start in seen:
            continue
        seen.add(start)
        codes = asked.codes
        if codes is not None and len(codes) < LINE_MOVES and UNCODED not in codes:
            _from_lines(archive, start, bytes(codes), replay.engine, end.position, tally)
        else:
            _replayed_after(archive, tags, replay, asked, end.ply, tally)
    if not played_any and moves is not None and moves.strip():
        unique = list(dict.fromkeys(reasons))
        why = "; ".join(unique) if unique else "the archive holds no game it could be played in"
        raise SearchError(f"--moves {moves!r} is not an opening of any game searched: {why}")


def _illegal(replay: Any, game: Game) -> str:
    try:
        positions(replay, game.line)
    except ReplayError as exc:
        return str(exc)
    return "the moves cannot be played"


@cache
def _one(code: int) -> bytes:
    """A table for ``bytes.translate``: ``code`` becomes 1, every other byte 0."""
    return bytes(int(i == code) for i in range(256))


@cache
def _maybe(code: int) -> bytes:
    """As :func:`_one`, and :data:`UNCODED` (any move) becomes 1 too."""
    return bytes(int(i in (code, UNCODED)) for i in range(256))


def _from_lines(
    archive: Archive, start: int, prefix: bytes, engine: Any, pos: Any, tally: _Tally
) -> None:
    """Count the next moves of the games of ``start`` that open with ``prefix`` (codes)."""
    k = len(prefix)
    counts: dict[tuple[int, int], int] = {}
    others: list[int] = []  # games whose result is not one of RESULTS, or unsure codes
    unsure: list[int] = []
    for part, blob in archive.db.rows(
        "SELECT part, entries FROM tree_lines WHERE start = ? ORDER BY part", (start,)
    ):
        data = split(archive.db, blob)
        n = len(data) // WIDTH
        if not n:
            continue
        mask = int.from_bytes(b"\x01" * n, "big")
        doubt = 0
        for j in range(k + 1):
            column = data[2 + j :: WIDTH]
            if j < k:
                mask &= int.from_bytes(column.translate(_maybe(prefix[j])), "big")
            if UNCODED in column:
                doubt |= int.from_bytes(column.translate(_one(UNCODED)), "big")
        if not mask:
            continue
        base = int(part) << PART_BITS
        if doubt & mask:
            unsure += [base | p for p in _places(data, doubt & mask, n)]
            mask &= ~doubt
        following = data[2 + k :: WIDTH]
        results = data[2 + LINE_MOVES :: WIDTH]
        by_result = {r: int.from_bytes(results.translate(_one(r)), "big") for r in set(results)}
        for code in set(following) - {END, UNCODED}:
            chosen = mask & int.from_bytes(following.translate(_one(code)), "big")
            if not chosen:
                continue
            for result, held in by_result.items():
                both = chosen & held
                if not both:
                    continue
                if result == 0 or result >= len(RESULTS):
                    others += [base | p for p in _places(data, both, n)]
                    continue
                counts[code, result] = counts.get((code, result), 0) + both.bit_count()
    legal = engine.legal_moves(pos) if counts or others else ()
    seats = tuple(engine.seats)
    spelled: dict[int, str] = {}

    def spell(code: int) -> str:
        if code not in spelled:
            if code >= len(legal):
                raise DamagedArchiveError(
                    archive.db.target, "an opening line holds a move that is not legal"
                )
            spelled[code] = engine.spell(pos, legal[code]).text()
        return spelled[code]

    for (code, result), games in sorted(counts.items()):
        tally.add(spell(code), games, seats, RESULTS[result])
    if others:
        rows = _results(archive, others)
        for gid in others:
            entry = _entry(archive, gid, start)
            if entry is not None and gid in rows:
                tally.add(spell(entry[2 + k]), 1, seats, rows[gid])
    for gid in unsure:  # a move the codes could not hold: replayed
        _replay_one(archive, gid, engine.key(pos), k, tally, engine_start=start)


def _places(data: bytes, mask: int, n: int) -> list[int]:
    marks = mask.to_bytes(n, "big")
    found, at = [], marks.find(1)
    while at >= 0:
        found.append(data[at * WIDTH] | data[at * WIDTH + 1] << 8)
        at = marks.find(1, at + 1)
    return found


def _entry(archive: Archive, gid: int, start: int) -> bytes | None:
    blob = archive.db.value(
        "SELECT entries FROM tree_lines WHERE start = ? AND part = ?", (start, gid >> PART_BITS)
    )
    if blob is None:
        return None
    data = split(archive.db, blob)
    place = gid & ((1 << PART_BITS) - 1)
    for i in range(0, len(data), WIDTH):
        if data[i] | data[i + 1] << 8 == place:
            return data[i : i + WIDTH]
    return None


def _results(archive: Archive, ids: Iterable[int]) -> dict[int, str]:
    found: dict[int, str] = {}
    wanted = sorted(set(ids))
    for i in range(0, len(wanted), 500):
        part = wanted[i : i + 500]
        for gid, result in archive.db.rows(
            f"SELECT id, result FROM games WHERE id IN ({','.join('?' * len(part))})", part
        ):
            found[int(gid)] = str(result)
    return found


def _replayed(archive: Archive, gid: int, upto: int | None) -> tuple[Any, list[Played]] | None:
    """A stored game's engine and main-line moves (up to ``upto`` turns)."""
    text = archive.text_of(gid)
    if text is None:
        return None
    for record in read_string(text, "<archive>"):
        if record.game is None:
            return None
        try:
            replay = prepare(record.game, record.game.tag_map())
        except GameSetupError:
            return None
        collect = _Collect()
        walk(replay, record.game.line, collect, variations=False, upto=upto)
        return replay, collect.played
    return None


def _replay_one(
    archive: Archive, gid: int, key: bytes, k: int, tally: _Tally, engine_start: int
) -> None:
    """One game whose codes are unsure: its move after its first ``k``, if it reaches
    the position (key) there."""
    found = _replayed(archive, gid, None)
    if found is None:
        return
    replay, played = found
    if len(played) <= k:
        return
    before = played[k][1]
    if replay.engine.key(before) != key:
        return
    result = _results(archive, [gid]).get(gid, "*")
    move = replay.engine.spell(before, played[k][2]).text()
    tally.add(move, 1, tuple(replay.engine.seats), result)


def _replayed_after(
    archive: Archive, tags: dict[str, str], replay: Any, asked: _Moves, ply: int, tally: _Tally
) -> None:
    """The next moves after a line the codes do not reach, or of a game with dice: the
    candidates the indexes give, each replayed and its moves compared."""
    from zrec.archive.store.posindex import OPENINGS, POSITIONS

    db = archive.db
    if ply == 0:
        ids = {
            int(g)
            for (g,) in db.rows(
                "SELECT id FROM games WHERE game = ? AND valid = 1 AND checked = 1",
                (replay.rules.name,),
            )
        }
    else:
        ids = OPENINGS.games(db, [asked.paths[min(ply, len(asked.paths) - 1)]])
        if ply >= len(asked.paths):
            ids &= POSITIONS.games(db, [asked.keys[ply]])
    start = replay.engine.key(replay.start)
    wanted = [move for _, _, move, _, _ in asked.played]
    k = len(wanted)
    results = _results(archive, ids)
    for gid in sorted(ids):
        found = _replayed(archive, gid, ply + 1)
        if found is None:
            continue
        theirs, played = found
        if theirs.engine.key(theirs.start) != start or len(played) <= k:
            continue
        if [move for _, _, move, _, _ in played[:k]] != wanted:
            continue
        before, move = played[k][1], played[k][2]
        text = theirs.engine.spell(before, move).text()
        tally.add(text, 1, tuple(theirs.engine.seats), results.get(gid, "*"))


def _from_position(
    archive: Archive, name: str | None, pairs: list[tuple[str, str]], setup: str, tally: _Tally
) -> None:
    """The moves played from a ``Setup`` position: the games the position index gives,
    each replayed to every time it stands there (a false hit of the index is found
    nowhere and counts for nothing)."""
    from zrec.archive.store import wanted
    from zrec.archive.store.query import Plan

    plan = Plan()
    # its errors name the position and the reason, as a search's do
    wanted.position(archive, plan, Query(game=name, options=pairs, position=setup), name)
    raw = plan.raw_keys[0]
    layout, keys = plan.index[0]
    ids = sorted(layout.games(archive.db, keys))
    chosen = {t.lower(): v.lower() for t, v in pairs}
    results: dict[int, str] = {}
    for i in range(0, len(ids), 500):
        part = ids[i : i + 500]
        for gid, game, options, result in archive.db.rows(
            "SELECT g.id, g.game, o.options, g.result FROM games g JOIN rule_options o ON "
            f"o.id = g.options_id WHERE g.id IN ({','.join('?' * len(part))}) AND g.valid = 1",
            part,
        ):
            if name is not None and game != name:
                continue
            held = {t.lower(): v.lower() for t, v in split_options(str(options)).items()}
            if all(held.get(t, "") == v for t, v in chosen.items()):
                results[int(gid)] = str(result)
    for gid, result in results.items():
        found = _replayed(archive, gid, None)
        if found is None:
            continue
        replay, played = found
        key = replay.engine.key
        moves = {replay.engine.spell(b, m).text() for _, b, m, _, _ in played if key(b) in raw}
        for move in moves:
            tally.add(move, 1, tuple(replay.engine.seats), result)
