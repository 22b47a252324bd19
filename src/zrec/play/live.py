"""A game played live, move by move: its record's tags, its moves checked by the
engine as they come, its clock, and how it ends.

This is the rules' side of live play (``zrec serve``'s ``/api/live``); the archive
keeps the state (:mod:`zrec.archive.live`), this module says what a state allows.  It
is pure: a :class:`LiveGame` is made from the tags and the moves so far (as the
archive stores them), and answers whose turn it is, the dice the turn needs, whether a
written move is legal (the engine's ``resolve``, never a rule of its own), and the
record as ``zrec fmt`` writes it.  Nothing here names a game.

- :func:`live_tags` checks what a new game is asked with (the game, its rule options,
  its seats, its time control) and makes the record's tags: ``Game``, ``Event``,
  ``Site``, ``Date``, ``Round``, one tag per seat, the options, a hidden setup the
  rules draw (from the generator given: the server's is :mod:`secrets`), and
  ``TimeControl``;
- :meth:`LiveGame.play` checks a written move (with the turn's roll, when the turn
  rolls dice: the server rolls them, and the roll is written in the record);
- :func:`ended_by` gives the result of a game ended off the board (resignation, time,
  agreement) for each seat, a team of seats as one party (:meth:`LiveGame.parties`);
- :class:`Clock` is a time control ``SECONDS+INCREMENT`` (the ``TimeControl`` tag of
  PGN) and the time left to each seat.

A problem is a :class:`LiveError` with a stable code (``bad-game``, ``bad-options``,
``bad-seats``, ``bad-clock``, ``bad-move``, ``illegal-move``) and a message that names
the place and the reason.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from zrec.errors import ZrecError
from zrec.moves import Dice, Turn
from zrec.notation.model import Game, Line, MoveNode
from zrec.play.replay import GameSetupError, Replay, prepare_rules
from zrec.play.walk import Step, Visitor, walk, written_number
from zrec.rules.base import GameRules, UnknownGameError
from zrec.rules.values import result_token

__all__ = ["MAX_CLOCK", "Clock", "LiveError", "LiveGame", "ended_by", "live_tags",
           "parse_clock"]

#: the longest time control taken, in seconds (a day), and the largest increment
MAX_CLOCK, MAX_INCREMENT = 86_400, 3_600
_CLOCK = re.compile(r"^(\d{1,6})(?:\+(\d{1,4}))?$")


class LiveError(ZrecError, ValueError):
    """A game, move or clock a live game cannot take: ``code`` says which."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Clock:
    """A time control: ``seconds`` each seat has for the game, ``increment`` added
    after each of its moves."""

    seconds: int
    increment: int = 0

    def text(self) -> str:
        """As the ``TimeControl`` tag writes it: ``300+5`` (``300`` without increment)."""
        return f"{self.seconds}+{self.increment}" if self.increment else str(self.seconds)


def parse_clock(text: str | None) -> Clock | None:
    """The time control ``SECONDS`` or ``SECONDS+INCREMENT`` (``None`` or ``""``: no
    clock); :class:`LiveError` ``bad-clock`` for anything else."""
    if text is None or not text.strip():
        return None
    found = _CLOCK.match(text.strip())
    if found is None:
        raise LiveError("bad-clock", f"clock: {text!r} is not a time control written "
                        "SECONDS or SECONDS+INCREMENT (as 300+5)")
    seconds, increment = int(found.group(1)), int(found.group(2) or 0)
    if not 1 <= seconds <= MAX_CLOCK or increment > MAX_INCREMENT:
        raise LiveError("bad-clock", f"clock: {text!r}: a game has 1 to {MAX_CLOCK} seconds "
                        f"and an increment of at most {MAX_INCREMENT}")
    return Clock(seconds, increment)


def _rules(game: str) -> GameRules:
    from zrec.rules import find_game

    try:
        return find_game(game)
    except UnknownGameError as exc:
        raise LiveError("bad-game", f"game: {exc}") from None


def live_tags(
    game: str,
    options: Mapping[str, str],
    seats: Sequence[str],
    names: Mapping[str, str],
    clock: Clock | None,
    rng: random.Random,
    tags: Sequence[tuple[str, str]] = (),
) -> list[tuple[str, str]]:
    """The tags of a new live game's record: ``game`` with the rule ``options``, played
    by ``seats`` (each with the name its tag in ``tags`` gives, else the one in
    ``names``, else ``?``), ``clock`` as its
    ``TimeControl``, a hidden setup drawn with ``rng``, and the ``tags`` given
    (``Event``, ``Round``, ``Date``...) first.  Raises :class:`LiveError`."""
    rules = _rules(game)
    unknown = [seat for seat in seats if seat not in rules.seats]
    if unknown or not seats or len(set(seats)) != len(seats):
        raise LiveError("bad-seats", f"seats: {rules.title} is played by seats of "
                        f"{', '.join(rules.seats)}, not {', '.join(seats) or 'none'}")
    for tag, value in options.items():
        if tag not in rules.options:
            known = ", ".join(rules.options) or "none"
            raise LiveError("bad-options", f"options: {tag} is not a rule option of "
                            f"{rules.title} (its options: {known})")
        if not isinstance(value, str) or not value.strip():
            raise LiveError("bad-options", f"options: {tag} needs a value")
    drawn: dict[str, str] | None = None
    ordered = [seat for seat in rules.seats if seat in seats]
    for count in [len(seats), *range(1, len(rules.seats) + 1), None]:
        try:
            tried = rules.random_tags(count, rng)
        except ZrecError:
            continue
        named = [seat for seat in rules.seats if seat in tried]
        if not named or named == ordered:  # (a game whose seats are always the same)
            drawn = tried
            break
    if drawn is None:
        raise LiveError("bad-seats", f"seats: {rules.title} cannot be played by "
                        f"{', '.join(seats)}")
    written: dict[str, str] = {"Game": rules.name, "Event": "?", "Site": "zrec live",
                               "Date": "????.??.??", "Round": "-"}
    written.update((name, value) for name, value in tags if value)
    for seat in rules.seats:
        if seat in seats:  # (a seat's tag given: the player it is kept for)
            written[seat] = written.get(seat) or names.get(seat) or "?"
    written.update((name, value) for name, value in drawn.items()
                   if name in rules.inputs)
    written.update(options)
    if clock is not None:
        written["TimeControl"] = clock.text()
    try:
        replay = prepare_rules(rules, written)
    except GameSetupError as exc:
        raise LiveError("bad-options", f"options: {exc.message}") from None
    if tuple(replay.engine.seats) != tuple(s for s in rules.seats if s in seats):
        raise LiveError("bad-seats", f"seats: this game of {rules.title} is played by "
                        f"{', '.join(replay.engine.seats)}")
    return list(written.items())


class _Played(Visitor):
    """The walker's step of the one move tried (its error, if it is not legal)."""

    def __init__(self) -> None:
        self.found: Step | None = None

    def step(self, step: Step) -> None:
        self.found = step


class LiveGame:
    """A live game's record so far: its tags and its moves (as the engine spells
    them), replayed by the engine to the position now."""

    def __init__(self, tags: Sequence[tuple[str, str]], moves: Sequence[str] = ()) -> None:
        self.tags = list(tags)
        tag_map = dict(self.tags)
        self.replay: Replay = prepare_rules(_rules(tag_map.get("Game", "")), tag_map)
        self.engine: Any = self.replay.engine
        self.position: Any = self.replay.start
        self.nodes: list[MoveNode] = []
        self._texts: list[str] = []  # (each node's move as the engine spelled it)
        self._follows_turn = False
        for ply, text in enumerate(moves, 1):
            try:
                self._play(text, None)
            except LiveError as exc:  # (the archive's moves were checked when made)
                raise LiveError(exc.code, f"move {ply} of the stored game: {exc.message}"
                                ) from None

    def copy(self) -> LiveGame:
        """The same game, to play on without changing this one (the engine, its start
        and its positions are values: shared)."""
        other = LiveGame.__new__(LiveGame)
        other.tags, other.replay, other.engine = list(self.tags), self.replay, self.engine
        other.position, other.nodes = self.position, list(self.nodes)
        other._texts = list(self._texts)
        other._follows_turn = self._follows_turn
        return other

    def moves(self) -> tuple[str, ...]:
        """The moves played, as the engine spells them."""
        return tuple(self._texts)

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self.engine.seats)

    @property
    def ply(self) -> int:
        return len(self.nodes)

    def to_move(self) -> str | None:
        """The seat to move (``None``: the game ended by rule)."""
        if self.engine.outcome(self.position) is not None:
            return None
        seat = self.engine.to_move(self.position)
        return None if seat is None else str(self.engine.seats[seat])

    def chance(self) -> tuple[int, ...] | None:
        """The faces of the dice the turn to move rolls (``None``: no dice)."""
        chance = self.engine.chance(self.position)
        return None if chance is None else tuple(chance.faces)

    def outcome(self) -> tuple[str, str] | None:
        """The result and the reason in words, if the game ended by rule."""
        end = self.engine.outcome(self.position)
        return None if end is None else (str(end.result), str(end.reason))

    def play(self, written: str, roll: Sequence[int] | None = None) -> str:
        """Play the written move (``roll``: the dice rolled for the turn, which a turn
        with dice must have, and which a roll written in the move must equal); the move
        as the engine spells it, dice included.  Raises :class:`LiveError` and leaves
        the game as it was."""
        return self._play(written, roll)

    def _play(self, written: str, roll: Sequence[int] | None) -> str:
        from zrec.notation.grammar import parse_turn_text
        if self.to_move() is None:
            raise LiveError("game-over", "the game is over: no move is left to play")
        try:
            turn = parse_turn_text(written.strip())
        except ValueError as exc:
            raise LiveError("bad-move", f"move: {exc}") from None
        if roll is not None:
            if turn.dice is None:
                turn = Turn(turn.actions, Dice(tuple(roll)))
            elif turn.dice.values != tuple(roll):
                rolled = "".join(str(v) for v in roll)
                raise LiveError("bad-move", f"move: {written!r} is written with the roll "
                                f"{''.join(map(str, turn.dice.values))}, but the server "
                                f"rolled {rolled}")
        found = _Played()
        walk(replace(self.replay, start=self.position), Line((MoveNode(turn),)), found)
        step = found.found
        if step is None or step.error is not None:
            reason = "no move" if step is None or step.error is None else step.error.reason
            raise LiveError("illegal-move", f"move: {written.strip()} is not legal at "
                            f"ply {self.ply + 1}: {reason}")
        move = step.move
        return self._append(move)

    def _append(self, move: Any) -> str:
        pos = self.position
        number = self.engine.move_number(pos)
        shown = written_number(number, self._follows_turn)
        spelled = self.engine.spell(pos, move)
        self.nodes.append(MoveNode(spelled, shown.number if shown is not None else None,
                                   number.dots))
        self._follows_turn = number.turn
        self.position, _ = self.engine.apply(pos, move)
        text = str(spelled.text())
        self._texts.append(text)
        return text

    def play_chosen(self, move: Any) -> str:
        """Play a move the engine made (a study player's); its spelling."""
        return self._append(move)

    def parties(self) -> list[tuple[str, ...]]:
        """The parties of the game, each the seats that win or lose together: under a
        reading whose seats play in teams (its engine's ``teams``, a team number for
        each seat, as its results score teammates alike), each team; else each seat
        alone.  A party resigns, runs out of time and agrees to a draw as one."""
        teams = self.engine.teams
        if not teams:
            return [(seat,) for seat in self.seats]
        found: dict[int, list[str]] = {}
        for seat, team in zip(self.seats, teams, strict=True):
            found.setdefault(team, []).append(seat)
        return [tuple(seats) for seats in found.values()]

    def hidden(self) -> list[str]:
        """The tags of a hidden setup the rules drew (the order of a herd): what no
        seat may see while the game is played."""
        return list(_hidden(self.replay.rules.name))

    def record(self, result: str = "*", termination: str | None = None,
               hide: Sequence[str] = ()) -> str:
        """The record as ``zrec fmt`` writes it, with ``result`` and ``Termination``,
        without the tags ``hide``."""
        from zrec.notation.writer import write_game

        tags = [(n, v) for n, v in self.tags
                if n not in ("Result", "Termination") and n not in hide]
        at = next((i for i, (n, _) in enumerate(tags) if n not in (
            "Game", "Event", "Site", "Date", "Round", *self.engine.seats)), len(tags))
        ending = [("Result", result)]
        if termination is not None:
            ending.append(("Termination", termination))
        tags[at:at] = ending
        return str(write_game(Game(tuple(tags), Line(tuple(self.nodes)), result)))


@functools.cache
def _hidden(game: str) -> tuple[str, ...]:
    """The setup tags the rules of ``game`` draw at random for a new game."""
    rules = _rules(game)
    found: dict[str, None] = {}
    for seats in [None, *range(1, len(rules.seats) + 1)]:
        try:
            drawn = rules.random_tags(seats, random.Random(0))
        except ZrecError:
            continue
        found.update((tag, None) for tag in drawn if tag in rules.inputs)
    return tuple(found)


def ended_by(seats: Sequence[str], losers: Sequence[str] = (), draw: bool = False,
             parties: Sequence[Sequence[str]] = ()) -> str:
    """The result token of a game ended off the board: every seat ½ (``draw``), else
    the ``losers`` 0 and every other seat 1; a seat of a party (``parties``: a team,
    :meth:`LiveGame.parties`) with a loser in it loses with it."""
    if draw:
        return result_token([Fraction(1, 2)] * len(seats))
    lost = set(losers)
    for party in parties:
        if lost & set(party):
            lost |= set(party)
    return result_token([Fraction(0 if seat in lost else 1) for seat in seats])
