"""The opening tree's counts, and the games it replays (:mod:`zrec.archive.store.tree`).

:class:`Tally` adds up the branches: games and each seat's points, by move.  The
functions here find the next moves by replaying stored games: after a line the opening
lines do not reach (more than 20 moves, dice, a move without a code), and from a
``Setup`` position.  A candidate the indexes give is replayed and kept only if it
plays the moves asked for (or stands in the position): a false hit of a hash counts
for nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from zrec.archive.store import Archive, stored_options
from zrec.archive.store.facts import Indexer
from zrec.archive.store.query import Query
from zrec.notation.reader import read_string
from zrec.play import GameSetupError, Visitor, prepare, walk
from zrec.play.walk import Played
from zrec.rules.values import parse_result

__all__ = [
    "Branch",
    "Moves",
    "Tally",
    "from_position",
    "replay_one",
    "replayed_after",
    "results_of",
]


@dataclass(frozen=True)
class Branch:
    """One move from the position: how many games played it, and each seat's points."""

    move: str
    games: int
    score: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "games": self.games, "score": dict(self.score)}


class Tally:
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


class Moves(Indexer):
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


def results_of(archive: Archive, ids: Iterable[int]) -> dict[int, str]:
    """The stored results of these games."""
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


def replay_one(archive: Archive, gid: int, key: bytes, k: int, tally: Tally) -> None:
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
    result = results_of(archive, [gid]).get(gid, "*")
    move = replay.engine.spell(before, played[k][2]).text()
    tally.add(move, 1, tuple(replay.engine.seats), result)


def replayed_after(
    archive: Archive, tags: dict[str, str], replay: Any, asked: Moves, ply: int, tally: Tally
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
    found_results = results_of(archive, ids)
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
        tally.add(text, 1, tuple(theirs.engine.seats), found_results.get(gid, "*"))


def from_position(
    archive: Archive, name: str | None, pairs: list[tuple[str, str]], setup: str, tally: Tally
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
            stored = stored_options(str(game), str(options))
            held = {t.lower(): v.lower() for t, v in stored.items()}
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
