"""The import's short cuts give what the long way gives.

- The writer's fast path for lines of plain moves writes the same text as the general
  filling of atoms.
- The indexer, handed the main line's moves in batches, notes the same keys, paths,
  material and identity as the per-ply definition (a hash of each position's key; a
  chain over the start and every key, the spelled move first in a game with dice).
"""

from __future__ import annotations

import importlib
from hashlib import blake2b
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from strategies import games
from zrec.archive.store.facts import Indexer, hash64, material_of, options_text, start_path
from zrec.moves import Action, Turn
from zrec.notation.model import Game, Line, MoveNode
from zrec.notation.writer import _atoms, _fill, _plain_lines, write_game
from zrec.play import positions, prepare, walk
from zrec.play.selfplay import random_games
from zrec.rules import find_game
from zrec.rules.base import REMOVED

walk_module = importlib.import_module("zrec.play.walk")  # (zrec.play.walk is the function)
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _general(game: Game) -> list[str]:
    return list(_fill(_atoms(game)))


@SETTINGS
@given(games)
def test_the_plain_path_writes_what_the_atoms_write(game: Game) -> None:
    plain = _plain_lines(game)
    if plain is not None:
        assert plain == _general(game)


@pytest.mark.parametrize(("name", "tags"), [("mosona", {}), ("kolowis", {"First": "Black"})])
def test_random_games_take_the_plain_path_and_write_the_same(
    name: str, tags: dict[str, str]
) -> None:
    for game in random_games(find_game(name), tags, 30, 3):
        plain = _plain_lines(game)
        assert plain is not None
        assert plain == _general(game)


def test_a_word_longer_than_a_line_and_black_numbers() -> None:
    game = next(iter(random_games(find_game("mosona"), {}, 1, 1)))
    moves = list(game.line.moves)
    moves[0] = MoveNode(moves[0].turn, 1, 3)
    moves[3] = MoveNode(Turn((Action("path", ("a" * 90, "b1"), ("-",), (None,)),)))
    game = Game(game.tags, Line(tuple(moves)), game.result)
    assert _plain_lines(game) == _general(game)
    assert "1... " in write_game(game)


def test_lines_with_anything_else_take_the_general_path() -> None:
    game = next(iter(random_games(find_game("mosona"), {}, 1, 2)))
    first = game.line.moves[0]
    marked = MoveNode(first.turn, first.number, first.dots, suffix="!")
    other = Game(game.tags, Line((marked, *game.line.moves[1:])), game.result)
    assert _plain_lines(other) is None
    assert write_game(other).count("!") == 1


def _reference(game: Game, raw: bool = False) -> tuple[Any, ...]:
    """What the indexer notes, computed a step at a time from its definition."""
    replay = prepare(game)
    engine = replay.engine
    options = options_text(dict(replay.setting.options), replay.rules.options)
    start = engine.key(replay.start)
    chain = blake2b(start, digest_size=8, key=start_path(replay.rules.name, options, ""))
    keys, raws = [hash64(start)], [start]
    paths = [int.from_bytes(chain.digest(), "big", signed=True)]
    material = [(material_of(engine, replay.start), 0)]
    spell = engine.chance(replay.start) is not None
    for step in positions(replay, game.line):
        key = engine.key(step.after)
        if spell:
            chain.update(engine.spell(step.before, step.move).text().encode())
        chain.update(key)
        digest = int.from_bytes(chain.digest(), "big", signed=True)
        if step.ply < len(keys):
            keys[step.ply], raws[step.ply] = hash64(key), key
            if step.ply <= 20:
                paths[step.ply] = digest
        else:
            keys.append(hash64(key))
            raws.append(key)
            if step.ply <= 20:
                paths.append(digest)
        if any(event.code == REMOVED for event in step.events):
            counts = material_of(engine, step.after)
            if counts not in {m for m, _ in material}:
                material.append((counts, step.ply))
    ident = int.from_bytes(chain.digest(), "big", signed=True)
    return keys, paths, material, ident, (raws if raw else None)


def _indexed(game: Game, raw: bool = False) -> tuple[Any, ...]:
    replay = prepare(game)
    indexer = Indexer(replay, "", raw)
    walk(replay, game.line, indexer)
    return indexer.keys, indexer.paths, indexer.material, indexer.path, indexer.raw


@pytest.mark.parametrize("batch", [1, 7, 4096])
@pytest.mark.parametrize(
    ("name", "tags"),
    [("mosona", {}), ("kolowis", {"Pieces": "23"}), ("stone-warriors", {}), ("awethi", {})],
)
def test_batches_note_what_the_definition_gives(
    name: str, tags: dict[str, str], batch: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(walk_module, "BATCH", batch)
    for i, game in enumerate(random_games(find_game(name), tags, 4, 11, max_plies=120)):
        assert _indexed(game, raw=i % 2 == 1) == _reference(game, raw=i % 2 == 1)
