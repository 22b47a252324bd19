"""Random legal games of any game with an engine, for tests, benchmarks and studies.

The random player asks the engine whose turn it is and what it rolls, rolls real dice
where the game has them, and picks uniformly among the legal moves.  The same seed
gives the same games.  Moves are spelled by the engine in their canonical form and
numbered as :func:`zrec.play.walk.written_number` says a writer should.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from zrec.notation.model import Game, Line, MoveNode
from zrec.play.replay import Replay, prepare_rules
from zrec.play.walk import written_number
from zrec.rules.base import GameRules


@dataclass(frozen=True)
class Played:
    """A random line of play: its moves as record nodes and the result it reached."""

    nodes: tuple[MoveNode, ...]
    result: str


def play_random(replay: Replay, rng: random.Random, max_plies: int = 300) -> Played:
    """One random legal line from the replay's start, at most ``max_plies`` moves."""
    engine = replay.engine
    pos = replay.start
    nodes: list[MoveNode] = []
    follows_turn = False
    for _ in range(max_plies):
        if engine.outcome(pos) is not None:
            break
        chance = engine.chance(pos)
        roll = chance.roll(rng) if chance is not None else None
        moves = engine.legal_moves(pos, roll)
        if not moves:
            break
        move = rng.choice(list(moves))
        number = engine.move_number(pos)
        written = written_number(number, follows_turn)
        nodes.append(
            MoveNode(
                engine.spell(pos, move),
                written.number if written is not None else None,
                number.dots,
            )
        )
        follows_turn = number.turn
        pos, _ = engine.apply(pos, move)
    outcome = engine.outcome(pos)
    return Played(tuple(nodes), outcome.result if outcome is not None else "*")


def random_game(
    rules: GameRules,
    tags: Mapping[str, str],
    rng: random.Random,
    max_plies: int = 300,
    round_number: int = 1,
) -> Game:
    """One random legal game; ``tags`` may set rule options (checked), setup inputs and a
    Setup, and any other tag, which the record keeps.  Raises
    :class:`~zrec.play.replay.GameSetupError`."""
    replay = prepare_rules(rules, tags)
    played = play_random(replay, rng, max_plies)
    header: list[tuple[str, str]] = [
        ("Game", rules.name),
        ("Event", "zrec random game"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", str(round_number)),
    ]
    header += [(seat, "random") for seat in replay.engine.seats]
    header.append(("Result", played.result))
    header += [(k, v) for k, v in tags.items() if k not in {"Game", "Result"}]
    return Game(tuple(header), Line(played.nodes), played.result)


def random_games(
    rules: GameRules,
    tags: Mapping[str, str],
    count: int,
    seed: int,
    max_plies: int = 300,
) -> Iterator[Game]:
    """``count`` random games, deterministic by ``seed``."""
    rng = random.Random(seed)
    for i in range(count):
        yield random_game(rules, tags, rng, max_plies, i + 1)
