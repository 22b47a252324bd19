"""Studies: many self-played games under one or several readings of the rules, counted.

A **reading** is a set of tags given to the game (rule options, setup inputs, a
``Setup``) and the player of each seat.  :func:`study_readings` makes the readings of a study
from the tags as a command line gives them: a tag given with several values makes one
reading per value, and several such tags make every combination of their values (the
first tag named varies slowest), each combination once per player set.

Two players here, both drawing only on the random generator they are given (the search
players ``mcts`` and ``alphabeta``, named with a budget, are in
:mod:`zrec.research.players`):

- ``random``: the engine's own self-play move (:meth:`~zrec.rules.base.Engine.
  sample_move`, as ``zrec random`` plays): uniform among the legal moves, or leaning
  towards moves that end the game where an engine does so for its random games to end;
- ``greedy``: among the legal moves, the ones that take the most pieces (counted from
  the ``removed`` events of :meth:`~zrec.rules.base.Engine.apply`), a tie drawn at
  random; where no move takes anything, the ``random`` player's move.

Game ``i`` of a study (from 0) plays with its own generator, :func:`game_rng` of the
seed and ``i``, the same for every reading, so games are independent of the order and
of the process they are played in (:mod:`zrec.research.study_runs` plays them in several
processes).  A game is cut off at ``max_plies`` plies (turns, as records count them),
``unfinished`` with the termination ``max-plies``.  The statistics of a reading are a
:class:`Summary`; :meth:`Summary.to_json` gives their stable key names.
"""

from __future__ import annotations

import itertools
import random
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from zrec.errors import ZrecError
from zrec.play.replay import Replay, prepare_rules
from zrec.research.metrics_trace import Recorder, Trace
from zrec.research.players import SEARCHERS, make_player, player_spec
from zrec.rules.base import READING, REMOVED, Event, GameRules, check_options, named_reading
from zrec.rules.loops import play_randomly, takings

__all__ = [
    "MAX_PLIES",
    "PLAYERS",
    "STALLED",
    "GameResult",
    "Reading",
    "StudyError",
    "Summary",
    "game_rng",
    "greedy_move",
    "parse_players",
    "play_game",
    "play_games",
    "prepare_reading",
    "random_move",
    "removed",
    "seat_players",
    "study_readings",
    "study_tags",
    "summarize",
]

#: The termination of a game cut off at the cap of plies (it is unfinished).
MAX_PLIES = "max-plies"
#: The termination of a game whose player found no move although the game was not over
#: (it is unfinished; an engine whose outcome and moves agree never gives one).
STALLED = "stalled"

MoveChooser = Callable[[Any, Any, "Sequence[int] | None", random.Random], Any]


class StudyError(ZrecError, ValueError):
    """A study that cannot be made: a bad player, a tag given no value, no games."""


def removed(events: Sequence[Event]) -> int:
    """The pieces a move took off the board: the squares its ``removed`` events empty."""
    return sum(len(e.squares) for e in events if e.code == REMOVED)


def random_move(engine: Any, pos: Any, roll: Sequence[int] | None, rng: random.Random) -> Any:
    """The ``random`` player: the engine's self-play move."""
    return engine.sample_move(pos, roll, rng)


def greedy_move(engine: Any, pos: Any, roll: Sequence[int] | None, rng: random.Random) -> Any:
    """The ``greedy`` player: a move that takes the most pieces (ties at random); the
    ``random`` player's move where no legal move takes anything."""
    best: list[Any] = []
    most = 0
    moves = engine.legal_moves(pos, roll)
    for move, taken in zip(moves, takings(engine, pos, roll), strict=True):
        if taken > most:
            best, most = [move], taken
        elif taken == most and most:
            best.append(move)
    if not most:
        return engine.sample_move(pos, roll, rng)
    return rng.choice(best)


#: The players by name, in the order ``--help`` lists them.
PLAYERS: dict[str, MoveChooser] = {"random": random_move, "greedy": greedy_move}
#: Every player's name as ``--player`` takes it (search players with a budget).
PLAYER_NAMES = (*PLAYERS, *(s.spelt(name) for name, s in SEARCHERS.items()))


@dataclass(frozen=True)
class Reading:
    """One column of a study: the tags given to the game and the player of each seat
    (``players`` one name for every seat, or one name per seat in seat order)."""

    tags: tuple[tuple[str, str], ...]
    players: tuple[str, ...] = ("random",)

    def label(self, with_players: bool = False) -> str:
        """``Jumps=bent Board=open`` (``defaults`` without tags), the players after a
        comma when asked: ``Jumps=bent, greedy/random``."""
        text = " ".join(f"{tag}={value}" for tag, value in self.tags) or "defaults"
        return f"{text}, {'/'.join(self.players)}" if with_players else text


def parse_players(spec: str) -> tuple[str, ...]:
    """``random``, ``greedy`` or one name per seat joined by commas; raises
    :class:`StudyError`."""
    names = tuple(name.strip().lower() for name in spec.split(","))
    names = tuple(player_spec(name) or name for name in names)  # mcts -> mcts:200
    for name in names:
        if name not in PLAYERS and name.partition(":")[0] not in SEARCHERS:
            raise StudyError(
                f"--player takes {' or '.join(PLAYER_NAMES)} (or one per seat, "
                f"joined by commas), not {spec!r}"
            )
    return names


def study_readings(
    tags: Sequence[tuple[str, str]], players: Sequence[str] = ("random",)
) -> list[Reading]:
    """The readings of tags given in order, each tag possibly several times, and of one
    or more player specs: the cartesian product of every tag's values (tags in the
    order first given, the first varying slowest; a value repeated counts once), then of
    the player specs.  Raises :class:`StudyError`."""
    values: dict[str, list[str]] = {}
    for tag, value in tags:
        if not tag:
            raise StudyError(f"a tag needs a name: ={value}")
        given = values.setdefault(tag, [])
        if value not in given:
            given.append(value)
    specs = list(dict.fromkeys(parse_players(s) for s in players)) or [("random",)]
    names = list(values)
    return [
        Reading(tuple(zip(names, combo, strict=True)), spec)
        for combo in itertools.product(*values.values())
        for spec in specs
    ]


def study_tags(rules: GameRules, tags: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Tags given for a study, checked: each a rule option of the game (its value then
    spelt as the game spells it), a named ``Reading``, a setup input or ``Setup``.  Raises
    :class:`StudyError` for another tag, :class:`~zrec.rules.base.OptionError` for a
    value the option does not take."""
    known = {*rules.options, *rules.inputs, "Setup", READING}
    out = []
    for tag, value in tags:
        if tag not in known:
            raise StudyError(
                f"{tag} is not a rule option or setup tag of {rules.title} "
                f"(these are: {', '.join(sorted(known))})"
            )
        if tag in rules.options:
            value = check_options({tag: rules.options[tag]}, {tag: value})[tag]
        elif tag == READING:
            value = named_reading(rules, value)[0]
        out.append((tag, value))
    return out


def game_rng(seed: int, index: int) -> random.Random:
    """The random generator of game ``index`` (from 0) of a study seeded ``seed``."""
    return random.Random(f"zrec-study/{seed}/{index}")


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game played: its plies, how it ended (an outcome's termination code, or
    :data:`MAX_PLIES` / :data:`STALLED`), the score per seat (``None``: unfinished) and
    the pieces each seat took; ``trace``: what a :class:`~zrec.research.metrics_trace.
    Recorder` kept of it, for the metrics that ask."""

    plies: int
    termination: str
    scores: tuple[Fraction, ...] | None
    captures: tuple[int, ...]
    trace: Trace | None = None


def seat_players(engine: Any, players: Sequence[str]) -> tuple[MoveChooser, ...]:
    """The player of each seat of ``engine``; raises :class:`StudyError`."""
    seats = engine.seats
    if len(players) == 1:
        return (_chooser(engine, players[0]),) * len(seats)
    if len(players) != len(seats):
        raise StudyError(
            f"--player {','.join(players)} names {len(players)} players, but the game "
            f"has {len(seats)} seats ({', '.join(seats)})"
        )
    return tuple(_chooser(engine, name) for name in players)


def _chooser(engine: Any, name: str) -> MoveChooser:
    """``random`` and ``greedy`` from :data:`PLAYERS`; a search player (``mcts:200``)
    made for the engine (:mod:`zrec.research.players`)."""
    return PLAYERS[name] if name in PLAYERS else make_player(engine, engine.start(), name)


def play_game(
    replay: Replay,
    players: Sequence[MoveChooser],
    rng: random.Random,
    max_plies: int,
    recorder: Recorder | None = None,
) -> GameResult:
    """One game from the replay's start, each seat played by its player (told to the
    ``recorder``, if any)."""
    engine = replay.engine
    pos = replay.start
    if recorder is None and players.count(random_move) == len(players):
        # every seat random: the game in one call, native where the engine has a kernel
        played = play_randomly(engine, pos, rng, max_turns=max_plies)
        outcome = engine.outcome(played.pos)
        if outcome is not None:
            return GameResult(played.turns, outcome.termination, outcome.scores, played.removed)
        ended = STALLED if played.stalled else MAX_PLIES
        return GameResult(played.turns, ended, None, played.removed)
    plies = 0
    captures = [0] * len(engine.seats)

    def result(termination: str, scores: tuple[Fraction, ...] | None) -> GameResult:
        trace = recorder.done(engine, pos) if recorder is not None else None
        return GameResult(plies, termination, scores, tuple(captures), trace)

    while True:
        outcome = engine.outcome(pos)
        if outcome is not None:
            return result(outcome.termination, outcome.scores)
        if plies >= max_plies:
            return result(MAX_PLIES, None)
        number = engine.move_number(pos)
        chance = engine.chance(pos)
        roll = chance.roll(rng) if chance is not None else None
        if recorder is not None:
            recorder.seen(engine, pos, roll)
        move = players[number.seat](engine, pos, roll, rng)
        if move is None:
            return result(STALLED, None)
        if recorder is not None:
            recorder.moved(engine, pos, move)
        pos, events = engine.apply(pos, move)
        if events:
            captures[number.seat] += removed(events)
        if number.turn:
            plies += 1


def prepare_reading(
    rules: GameRules, reading: Reading, rng: random.Random, seats: int | None
) -> Replay:
    """The replay of one game of a reading: the tags a random game draws (seat names, a
    hidden setup), then the reading's.  Raises :class:`~zrec.errors.ZrecError`."""
    return prepare_rules(rules, {**rules.random_tags(seats, rng), **dict(reading.tags)})


def play_games(
    rules: GameRules,
    reading: Reading,
    seed: int,
    start: int,
    stop: int,
    max_plies: int,
    seats: int | None = None,
    kinds: frozenset[str] = frozenset(),
) -> list[GameResult]:
    """Games ``start`` to ``stop - 1`` of a reading (recording ``kinds``, for the
    metrics: :mod:`zrec.research.metrics_trace`)."""
    out: list[GameResult] = []
    last: tuple[dict[str, str], Replay, tuple[MoveChooser, ...]] | None = None
    for index in range(start, stop):
        rng = game_rng(seed, index)
        drawn = rules.random_tags(seats, rng)
        if last is None or last[0] != drawn:  # most games draw no tags: one engine
            replay = prepare_rules(rules, {**drawn, **dict(reading.tags)})
            last = (drawn, replay, seat_players(replay.engine, reading.players))
        recorder = Recorder(kinds) if kinds else None
        out.append(play_game(last[1], last[2], rng, max_plies, recorder))
    return out


@dataclass(frozen=True)
class Summary:
    """The statistics of one reading's games (see :meth:`to_json` for their names)."""

    game: str
    reading: Reading
    options: Mapping[str, str]
    seats: tuple[str, ...]
    first_seat: int
    seed: int
    max_plies: int
    results: tuple[GameResult, ...]

    @property
    def lengths(self) -> Counter[int]:
        """How many games lasted each number of plies."""
        return Counter(r.plies for r in self.results)

    def counts(self) -> dict[str, int]:
        """Games decisive (finished, scores not all equal), drawn and unfinished."""
        out = {"decisive": 0, "drawn": 0, "unfinished": 0}
        for r in self.results:
            key = (
                "unfinished"
                if r.scores is None
                else "drawn"
                if len(set(r.scores)) == 1
                else "decisive"
            )
            out[key] += 1
        return out

    def seat_scores(self) -> list[float | None]:
        """The mean score of each seat over the finished games (``None``: none)."""
        finished = [r.scores for r in self.results if r.scores is not None]
        if not finished:
            return [None] * len(self.seats)
        return [
            _round(sum(s[i] for s in finished) / len(finished)) for i in range(len(self.seats))
        ]

    def to_json(self) -> dict[str, Any]:
        """The statistics under stable key names (``docs/study.md``)."""
        n = len(self.results)
        plies = [r.plies for r in self.results]
        counts = self.counts()
        scores = self.seat_scores()
        taken = [sum(r.captures[i] for r in self.results) for i in range(len(self.seats))]
        players = self.reading.players * (len(self.seats) if len(self.reading.players) == 1 else 1)
        return {
            "game": self.game,
            "options": dict(self.reading.tags),
            "rules": dict(self.options),
            "players": dict(zip(self.seats, players, strict=True)),
            "games": n,
            "seed": self.seed,
            "max_plies": self.max_plies,
            "length": {
                "mean": _round(sum(plies) / n),
                "median": _round(statistics.median(plies)),
                "min": min(plies),
                "max": max(plies),
            },
            "results": counts,
            "shares": {k: _round(v / n) for k, v in counts.items()},
            "first_seat": self.seats[self.first_seat],
            "first_player_score": scores[self.first_seat],
            "scores": dict(zip(self.seats, scores, strict=True)),
            "captures": {
                "per_game": _round(sum(taken) / n),
                "by_seat": {s: _round(t / n) for s, t in zip(self.seats, taken, strict=True)},
            },
            "terminations": dict(sorted(Counter(r.termination for r in self.results).items())),
        }


def _round(x: float | Fraction) -> float:
    return round(float(x), 4)


def summarize(
    rules: GameRules,
    reading: Reading,
    results: Sequence[GameResult],
    seed: int,
    max_plies: int,
    seats: int | None = None,
) -> Summary:
    """The statistics of a reading's games; raises :class:`StudyError` for no games."""
    if not results:
        raise StudyError("a study needs at least one game")
    replay = prepare_reading(rules, reading, game_rng(seed, 0), seats)
    engine = replay.engine
    return Summary(
        rules.name,
        reading,
        dict(engine.options),
        tuple(engine.seats),
        engine.move_number(replay.start).seat,
        seed,
        max_plies,
        tuple(results),
    )
