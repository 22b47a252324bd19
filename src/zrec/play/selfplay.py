"""Random legal games of any game with an engine, for tests, benchmarks and studies.

The random player asks the engine what the turn rolls, rolls real dice where the game
has them, and asks the engine for a random legal move given the roll
(:meth:`~zrec.rules.base.Engine.sample_move`: uniform, or leaning towards moves that
end the game, or built step by step where a turn has too many forms to list).  The same seed
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
        move = engine.sample_move(pos, roll, rng)
        if move is None:
            break
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
    seats: int | None = None,
) -> Game:
    """One random legal game of ``seats`` seats (``None``: the game's usual number).

    The game draws the tags a random game needs (seat names, a hidden setup such as a
    herd's order); ``tags`` may set rule options (checked), setup inputs and a Setup,
    and any other tag, which the record keeps.  Raises
    :class:`~zrec.play.replay.GameSetupError` or
    :class:`~zrec.rules.base.InputError`."""
    tags = {**rules.random_tags(seats, rng), **tags}
    replay = prepare_rules(rules, tags)
    played = play_random(replay, rng, max_plies)
    header: dict[str, str] = {
        "Game": rules.name,
        "Event": "zrec random game",
        "Site": "?",
        "Date": "????.??.??",
        "Round": str(round_number),
    }
    header.update((seat, "random") for seat in replay.engine.seats)
    header["Result"] = played.result
    # the caller's tags replace the defaults in place and follow them otherwise; the
    # game and its result are the player's own
    header.update((k, v) for k, v in tags.items() if k not in {"Game", "Result"})
    return Game(tuple(header.items()), Line(played.nodes), played.result)


def random_games(
    rules: GameRules,
    tags: Mapping[str, str],
    count: int,
    seed: int,
    max_plies: int = 300,
    seats: int | None = None,
) -> Iterator[Game]:
    """``count`` random games, deterministic by ``seed``."""
    rng = random.Random(seed)
    for i in range(count):
        yield random_game(rules, tags, rng, max_plies, i + 1, seats)
