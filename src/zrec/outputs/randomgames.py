"""Random legal games of any game with an engine, for tests and benchmarks.

The same seed gives the same games.  Moves are spelled by the engine in their
canonical form and numbered as docs/notation.md section 4.3 says a player should:
``N.`` before each turn of the side that moves first, ``N...`` before the other
side's turn where it does not follow one (at the start, after a priest's entry), and
no number on a move that is not a turn.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping

from zrec.notation.model import Game, Line, MoveNode
from zrec.rules.base import GameRules, check_options


def random_game(
    rules: GameRules,
    tags: Mapping[str, str],
    rng: random.Random,
    max_plies: int = 300,
    round_number: int = 1,
) -> Game:
    """One random legal game; ``tags`` may set rule options (checked) and a Setup."""
    options = check_options(rules.options, tags)
    variant = rules.variant(options)
    if variant is None:
        raise ValueError(f"zrec has no rules engine for {rules.title}: it cannot play it")
    pos = variant.setup(tags["Setup"]) if "Setup" in tags else variant.start()
    first_side = options.get("First", rules.sides[0])
    nodes: list[MoveNode] = []
    after_first_turn = False
    result = "*"
    for _ in range(max_plies):
        outcome = variant.outcome(pos)
        if outcome is not None:
            result = outcome.result
            break
        moves = variant.legal_moves(pos)
        if not moves:
            break
        move = rng.choice(list(moves))
        label = variant.turn_label(pos)
        after = variant.apply(pos, move)
        is_turn = variant.turn_label(after) != label  # a priest's entry is not a turn
        first = label[1] == first_side
        # N. before every turn of the first side; N... before the other side's turn
        # when it does not follow the first side's turn (the start, or an entry)
        number = label[0] if is_turn and (first or not after_first_turn) else None
        nodes.append(MoveNode(variant.spell(pos, move), number, 1 if first else 3))
        after_first_turn = is_turn and first
        pos = after
    else:
        outcome = variant.outcome(pos)
        if outcome is not None:
            result = outcome.result
    header: list[tuple[str, str]] = [
        ("Game", rules.name),
        ("Event", "zrec random game"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", str(round_number)),
    ]
    header += [(side, "random") for side in rules.sides]
    header.append(("Result", result))
    header += [(k, v) for k, v in tags.items() if k not in {"Game", "Result"}]
    return Game(tuple(header), Line(tuple(nodes)), result)


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
