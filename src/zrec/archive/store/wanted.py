"""The moves and the positions a search asks for, played with the rules of each start
the archive holds (:mod:`zrec.archive.store.search` imports this module only when a
search asks for them, so that a search by tags starts without the rules).
"""

from __future__ import annotations

import dataclasses
import io
from typing import Any

from zrec.archive.store import Archive
from zrec.archive.store.facts import Indexer, hash64
from zrec.archive.store.posindex import OPENINGS, POSITIONS
from zrec.archive.store.query import Plan, Query, SearchError
from zrec.archive.store.schema import OPENING_PLIES
from zrec.archive.store.starts import stored_starts
from zrec.archive.store.verify import After
from zrec.notation.model import Game, Line
from zrec.notation.reader import read_records
from zrec.play import GameSetupError, positions, prepare, walk
from zrec.play.replay import ReplayError, prepare_rules
from zrec.rules import find_game
from zrec.rules.base import UnknownGameError

__all__ = ["moves", "moves_line", "position", "why_unplayable"]


def moves_line(moves: str) -> Line:
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


def moves(archive: Archive, plan: Plan, q: Query, name: str | None) -> None:

    assert q.moves is not None
    line = moves_line(q.moves)
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
            reasons.append(f"{label}: {why_unplayable(replay, game)}")
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
    plan.index.append((OPENINGS, paths))
    if length > OPENING_PLIES:
        plan.index.append((POSITIONS, sorted({keys[length] for _, keys in plan.prefix})))


def why_unplayable(replay: Any, game: Game) -> str:
    """Why the moves of ``game`` cannot be played (the replay's error), for a line
    asked for that could not be played from a start."""
    try:
        positions(replay, game.line)
    except ReplayError as exc:
        return str(exc)
    return "the moves cannot be played"


def position(archive: Archive, plan: Plan, q: Query, name: str | None) -> None:
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


def _passes(archive: Archive, plan: Plan, raw: set[bytes]) -> None:
    """A condition: the game passes through a position with one of these keys."""

    plan.raw_keys.append(raw)
    plan.index.append((POSITIONS, sorted({hash64(k) for k in raw})))
