"""The opening tree: from a position, the moves played next in the archive, each with
its number of games and each seat's score (``zrec archive tree``, the explorer).

The position is the start of a game (under its rule options), the position after some
moves (``1. b6-b5 b4xb6``), or a ``Setup`` string.  A branch is one move, written as
the engine spells it (as ``zrec fmt`` writes a move); its games are the stored valid
games whose main line plays that move there, and its score the points each seat got
in those games as the standings count a result (``1-0``: 1 and 0; ``1/2-1/2``: a half
each; an unfinished game, ``*``, gives none).  Branches come by games, most first,
then by move; :class:`Tally` adds them up as they are found.

How it is found:

- after fewer than :data:`~zrec.archive.store.lines.LINE_MOVES` moves, from the
  opening lines (:mod:`zrec.archive.store.lines`): the games of the start whose first
  codes are those of the moves asked for, grouped by their next code and result, a
  column of a part's entries at a time (``bytes.translate`` and integer masks: no
  Python step a game); each code is decoded once, by the legal moves of the position
  reached.  Where a move of the line shares its code with another legal move, the
  opening index picks the games that played it; games whose next moves share a code
  are replayed (:func:`replay_one`);
- further on, for games with dice, for moves that make the same position as another
  legal move with their code, and for ``position``: the games the position and
  opening indexes give, each replayed to find its next move (:func:`replayed_after`,
  :func:`from_position`: a candidate is kept only if it plays the moves asked for, or
  stands in the position, so a false hit of a hash counts for nothing).  From a
  ``Setup`` position a game counts once for each move it plays there (a game may pass
  through it twice).

With no game named, every start the archive holds (with the options asked for) counts,
and branches with the same move join.

One module of some 500 lines, and one piece: the two ways of finding the branches (the
opening lines' codes, and replaying the games the indexes give) answer the same
question together, a line falling back from the first to the second move by move, and
they share the tally, the line asked for (:class:`Moves`) and the results read back.
The size cap once split them into two modules, the second of which declared nothing of
its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from zrec.archive.store import Archive, stored_options
from zrec.archive.store.facts import Indexer, hash64
from zrec.archive.store.lines import LINE_MOVES, RESULTS, WIDTH, split
from zrec.archive.store.packed import PART_BITS
from zrec.archive.store.query import Plan, Query, SearchError
from zrec.archive.store.starts import stored_starts
from zrec.archive.store.wanted import moves_line, why_unplayable
from zrec.archive.store.wanted import position as position_of
from zrec.notation.model import Game, Line
from zrec.notation.reader import read_string
from zrec.play import GameSetupError, Visitor, prepare, walk
from zrec.play.walk import Played
from zrec.rules import all_games, find_game
from zrec.rules.base import UnknownGameError
from zrec.rules.values import parse_result

__all__ = ["Branch", "tree"]


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
    tally = Tally()
    if position is not None:
        from_position(archive, name, pairs, position, tally)
    else:
        _after_moves(archive, name, pairs, moves, tally)
    return tally.branches()


def _checked_options(options: Mapping[str, str], name: str | None) -> list[tuple[str, str]]:
    """The options of a search, checked; a named ``Reading`` (of the game named)
    stands for its options."""
    from zrec.play.overrides import OverrideError, check_for_any, expand_reading

    if options:
        try:
            games = [find_game(name)] if name else all_games()
            check_for_any(dict(options), games)
            options = expand_reading(options, games)
        except OverrideError as exc:
            raise SearchError(str(exc)) from None
    return list(options.items())


def _after_moves(
    archive: Archive,
    name: str | None,
    pairs: list[tuple[str, str]],
    moves: str | None,
    tally: Tally,
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
        asked = Moves(replay, setup)
        end = walk(replay, line, asked, variations=False)
        if end.position is None or len(asked.keys) != end.ply + 1:
            reasons.append(f"{label}: {why_unplayable(replay, record)}")
            continue
        played_any = True
        start = asked.paths[0]
        if start in seen:
            continue
        seen.add(start)
        codes = asked.codes
        engine = replay.engine
        if codes is None or len(codes) >= LINE_MOVES or _same_position(engine, asked, codes):
            replayed_after(archive, tags, replay, asked, end.ply, tally)
            continue
        only = None
        if not all(
            _by_code(engine, b).get(c, []) == [m]
            for (_, b, m, _, _), c in zip(asked.played, codes, strict=True)
        ):  # a move shares its code with another: the opening index tells them apart
            from zrec.archive.store.posindex import OPENINGS

            only = OPENINGS.games(archive.db, [asked.paths[end.ply]])
        _from_lines(archive, start, bytes(codes), engine, end.position, tally, only)
    if not played_any and moves is not None and moves.strip():
        unique = list(dict.fromkeys(reasons))
        why = "; ".join(unique) if unique else "the archive holds no game it could be played in"
        raise SearchError(f"--moves {moves!r} is not an opening of any game searched: {why}")


@cache
def _one(code: int) -> bytes:
    """A table for ``bytes.translate``: ``code`` becomes 1, every other byte 0."""
    return bytes(int(i == code) for i in range(256))


@cache
def _longer(k: int) -> bytes:
    """A table for ``bytes.translate`` of the last byte of entries: 1 for a game of
    more than ``k`` codes."""
    return bytes(int(i >> 3 > k) for i in range(256))


@cache
def _result(code: int) -> bytes:
    """A table for ``bytes.translate`` of the last byte: 1 for this result's code."""
    return bytes(int(i & 7 == code) for i in range(256))


def _by_code(engine: Any, pos: Any) -> dict[int, list[Any]]:
    """The legal moves of a position by their code (the last byte of the hash of the
    position each makes)."""
    found: dict[int, list[Any]] = {}
    for move in engine.legal_moves(pos):
        after = engine.apply(pos, move)[0]
        found.setdefault(hash64(engine.key(after)) & 0xFF, []).append(move)
    return found


def _same_position(engine: Any, asked: Any, codes: bytes | bytearray) -> bool:
    """Whether a move asked for shares its code with another legal move that makes the
    same position (neither the codes nor the opening index tell them apart)."""
    for (_, before, move, after, _), code in zip(asked.played, codes, strict=True):
        group = _by_code(engine, before).get(code, [])
        if len(group) > 1:
            key = engine.key(after)
            if any(o != move and engine.key(engine.apply(before, o)[0]) == key for o in group):
                return True
    return False


def _from_lines(
    archive: Archive,
    start: int,
    prefix: bytes,
    engine: Any,
    pos: Any,
    tally: Tally,
    only: set[int] | None = None,
) -> None:
    """Count the next moves of the games of ``start`` that open with ``prefix`` (codes;
    ``only``: of these games, where a move of the prefix shares its code with another
    legal move)."""
    k = len(prefix)
    counts: dict[tuple[int, int], int] = {}
    others: list[tuple[int, int]] = []  # (game, code): results read from the games
    # the codes of the legal moves from here: a game that opens with the prefix plays
    # one of them next (the codes of other games' next positions are not looked at)
    moves = _by_code(engine, pos)
    for part, blob in archive.db.rows(
        "SELECT part, entries FROM tree_lines WHERE start = ? ORDER BY part", (start,)
    ):
        data = split(archive.db, blob)
        n = len(data) // WIDTH
        if not n:
            continue
        last = data[2 + LINE_MOVES :: WIDTH]
        mask = int.from_bytes(last.translate(_longer(k)), "big")
        for j in range(k):
            if not mask:
                break
            mask &= int.from_bytes(data[2 + j :: WIDTH].translate(_one(prefix[j])), "big")
        if not mask:
            continue
        base = int(part) << PART_BITS
        if only is not None:
            marks = bytearray(n)
            for i in range(n):
                marks[i] = (base | data[i * WIDTH] | data[i * WIDTH + 1] << 8) in only
            mask &= int.from_bytes(marks, "big")
        following = data[2 + k :: WIDTH]
        by_result = {r: int.from_bytes(last.translate(_result(r)), "big") for r in range(8)}
        for code in moves:
            chosen = mask & int.from_bytes(following.translate(_one(code)), "big")
            if not chosen:
                continue
            for result, held in by_result.items():
                both = chosen & held
                if not both:
                    continue
                if result == 0 or result >= len(RESULTS):
                    others += [(base | p, code) for p in _places(data, both, n)]
                    continue
                counts[code, result] = counts.get((code, result), 0) + both.bit_count()
    seats = tuple(engine.seats)
    unsure: set[int] = set()

    def spelled(code: int) -> str | None:
        found = moves.get(code, [])
        return engine.spell(pos, found[0]).text() if len(found) == 1 else None

    for (code, result), games in sorted(counts.items()):
        move = spelled(code)
        if move is None:  # moves that share the code (or none has it): replayed
            unsure.add(code)
            continue
        tally.add(move, games, seats, RESULTS[result])
    rows = results_of(archive, [gid for gid, _ in others])
    for gid, code in others:
        move = spelled(code)
        if move is None:
            unsure.add(code)
        elif gid in rows:
            tally.add(move, 1, seats, rows[gid])
    if unsure:
        for gid in _games_with(archive, start, prefix, unsure):
            replay_one(archive, gid, engine.key(pos), k, tally)


def _games_with(archive: Archive, start: int, prefix: bytes, codes: set[int]) -> list[int]:
    """The games of ``start`` that open with ``prefix`` and go on with one of ``codes``."""
    k = len(prefix)
    found = []
    for part, blob in archive.db.rows(
        "SELECT part, entries FROM tree_lines WHERE start = ? ORDER BY part", (start,)
    ):
        data = split(archive.db, blob)
        for i in range(0, len(data), WIDTH):
            entry = data[i : i + WIDTH]
            if entry[-1] >> 3 > k and entry[2 : 2 + k] == prefix and entry[2 + k] in codes:
                found.append(int(part) << PART_BITS | entry[0] | entry[1] << 8)
    return found


def _places(data: bytes, mask: int, n: int) -> list[int]:
    marks = mask.to_bytes(n, "big")
    found, at = [], marks.find(1)
    while at >= 0:
        found.append(data[at * WIDTH] | data[at * WIDTH + 1] << 8)
        at = marks.find(1, at + 1)
    return found


# -- the branches counted, and the games replayed to find them


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
    plan = Plan()
    # its errors name the position and the reason, as a search's do
    position_of(archive, plan, Query(game=name, options=pairs, position=setup), name)
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
