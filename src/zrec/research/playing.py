"""A person against a study player: the game loop of ``zrec play``, typed moves in.

:func:`play_against` plays one game: the person's seat takes moves typed in the
notation (``?`` lists the legal moves, ``help`` the commands, ``quit`` stops the game
unfinished; a move the engine refuses is asked again with the engine's reason), every
other seat is played by one player of :mod:`zrec.research.study` (``random``,
``greedy``, ``mcts:N``, ``alphabeta:D``).  Dice are rolled by the program for every
seat.  The game draws on one generator seeded from ``seed`` (dice, the player's
choices, a hidden setup), so the same seed and the same typed moves give the same
game.  The answer is the record of the game, numbered as
:func:`zrec.play.walk.written_number` says, ready to be written.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from zrec.notation.grammar import parse_turn_text
from zrec.notation.model import Game, Line, MoveNode
from zrec.play.replay import Replay, prepare_rules
from zrec.play.walk import Step, Visitor, walk, written_number
from zrec.research.study import StudyError, parse_players, seat_players
from zrec.rules.base import GameRules

__all__ = ["COMMANDS", "HELP", "QUIT", "play_against"]

#: what the person types to see the legal moves, and to stop
HELP, QUIT = "?", "quit"
#: what ``help`` (or ``h``) answers: every command the prompt knows
COMMANDS = (
    "Type a move in the notation to play it (e.g. b6-b5, or a capture chain a4xb5xb4); "
    f"{HELP} lists the legal moves; help shows this; {QUIT} stops the game, unfinished, "
    "and prints its record."
)

Ask = Callable[[str], "str | None"]  # a prompt shown; the line typed (None: no more)
Tell = Callable[[str], None]


def _legal_text(engine: Any, pos: Any, roll: Sequence[int] | None) -> str:
    moves = [engine.spell(pos, m).text() for m in engine.legal_moves(pos, roll)]
    listed = ", ".join(moves)
    if engine.click_table(pos, roll) is None:  # a turn of too many forms to list
        return f"Legal moves include: {listed} (this turn has more forms than listed)"
    return f"Legal moves: {listed}"


class _Steps(Visitor):
    """The walker's steps, illegal ones included (their ``error`` set)."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def step(self, step: Step) -> None:
        self.steps.append(step)


def _person_move(
    replay: Replay, pos: Any, roll: Sequence[int] | None, ask: Ask, tell: Tell
) -> Any:
    """The move the person types (``None``: quit, or no more input), played through the
    replay walker (:func:`zrec.play.walk.walk`)."""
    engine = replay.engine
    while True:
        text = ask("Your move (? lists the legal moves, quit stops): ")
        if text is None or text.strip().lower() == QUIT:
            return None
        text = text.strip()
        if not text:
            continue
        if text == HELP:
            tell(_legal_text(engine, pos, roll))
            continue
        if text.lower() in ("help", "h"):
            tell(COMMANDS)
            continue
        try:
            turn = parse_turn_text(text)
        except ValueError as exc:
            tell(f"Not played: {exc}")
            continue
        found = _Steps()
        walk(replace(replay, start=pos), Line((MoveNode(turn),)), found)
        step = found.steps[0]
        if step.error is not None:
            tell(f"Not played: {step.error.reason}")
            continue
        move = step.move
        dice = engine.spell(pos, move).dice
        if roll is not None and (dice is None or tuple(dice.values) != tuple(roll)):
            rolled = "".join(str(d) for d in roll)
            tell(f"Not played: you rolled {rolled}; write the move with those dice")
            continue
        return move


def play_against(
    rules: GameRules,
    tags: Mapping[str, str],
    player: str,
    seat: int,
    seed: int,
    ask: Ask,
    tell: Tell,
    seats: int | None = None,
    max_plies: int = 1000,
) -> Game:
    """One game of the person at ``seat`` (from 0) against ``player`` at every other
    seat, stopped unfinished (and said so) after ``max_plies`` turns; the record.
    Raises :class:`~zrec.errors.ZrecError` for a bad player, seat or tag."""
    rng = random.Random(f"zrec-play/{seed}")
    drawn = {**rules.random_tags(seats, rng), **tags}
    replay = prepare_rules(rules, drawn)
    engine = replay.engine
    names = parse_players(player)
    if len(names) != 1:
        raise StudyError(f"--player takes one player for zrec play, not {player!r}")
    choose = seat_players(engine, names)[0]
    if not 0 <= seat < len(engine.seats):
        raise StudyError(
            f"--seat {seat + 1}: the game has seats 1 to {len(engine.seats)} "
            f"({', '.join(engine.seats)})"
        )
    tell(f"You play {engine.seats[seat]}; {names[0]} plays the other seats.")
    pos, follows_turn, plies = replay.start, False, 0
    nodes: list[MoveNode] = []
    result = "*"
    while True:
        outcome = engine.outcome(pos)
        if outcome is not None:
            tell(engine.render(pos))
            tell(f"Game over: {outcome.reason} ({outcome.result})")
            result = outcome.result
            break
        if plies >= max_plies:
            tell(engine.render(pos))
            tell(f"Game stopped unfinished after {max_plies} plies (*).")
            break
        number = engine.move_number(pos)
        chance = engine.chance(pos)
        roll = chance.roll(rng) if chance is not None else None
        if number.seat == seat:
            tell(engine.render(pos))
            if roll is not None:
                tell(f"You rolled {''.join(str(d) for d in roll)}.")
            move = _person_move(replay, pos, roll, ask, tell)
            if move is None:
                tell("Game stopped, unfinished (*).")
                break
        else:
            move = choose(engine, pos, roll, rng)
            if move is None:  # no engine ends a game this way today; said if one does
                tell(f"Game stopped: {names[0]} has no move for {engine.seats[number.seat]} (*).")
                break
        spelt = engine.spell(pos, move)
        tell(f"{number.text()} {engine.seats[number.seat]}: {spelt.text()}")
        written = written_number(number, follows_turn)
        nodes.append(MoveNode(spelt, written.number if written is not None else None, number.dots))
        follows_turn = number.turn
        plies += number.turn
        pos = engine.apply(pos, move)[0]
    header = {
        "Game": rules.name,
        "Event": "zrec play",
        "Site": "?",
        "Date": "????.??.??",
        "Round": "1",
    }
    header.update(
        (name, tags.get(name, "person" if i == seat else names[0]))
        for i, name in enumerate(engine.seats)
    )
    header["Result"] = result
    header.update((k, v) for k, v in drawn.items() if k not in {"Game", "Result", *engine.seats})
    return Game(tuple(header.items()), Line(tuple(nodes)), result)
