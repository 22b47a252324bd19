"""Rating a pool: its players rated period by period (docs/tournaments.md, "Ratings";
:func:`zrec.archive.rated.rate` rates every pool of an archive).

A pool of a game with at most two seats in the rules registry is rated by Glicko-2
(:mod:`zrec.tournament.ratings.glicko2`): each rating period at once, every player
against the opponents' ratings before the period, each game scoring 1 for the higher
score, ½ for equal scores and 0 for the lower.  A pool of a game of more seats is rated
by Plackett-Luce (:mod:`zrec.tournament.ratings.plackett`), game by game in period order.
A player who sits out periods of their pool has their deviation widened for each
(Glicko-2's step 6), up to an unrated player's.  A player starts from 1500 (Glicko-2),
or, when their first period is a round of an event whose roster gives them a rating
(a TRF file's), from that rating, with an unrated player's deviation and volatility.
Plackett-Luce pools start everyone alike (a roster's Elo-like rating has no μ).

:func:`pool_title` names a pool for a reader: the game's name from its rules package
and the rule options that are not the game's defaults.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from zrec.rules import find_game
from zrec.rules.base import UnknownGameError
from zrec.tournament.ratings import glicko2, plackett
from zrec.tournament.ratings.games import Period, RatedGame, periods

__all__ = [
    "GLICKO2",
    "PLACKETT_LUCE",
    "Pool",
    "Rated",
    "Step",
    "pool_title",
    "rate_pool",
]

GLICKO2 = "glicko2"
PLACKETT_LUCE = "plackett-luce"


@dataclass(frozen=True, slots=True)
class Step:
    """A player's rating after a period they played in (``games``: in all, so far).
    For Plackett-Luce ``rd`` is σ, ``mu`` μ and ``volatility`` 0."""

    period: str
    date: str
    rating: float
    rd: float
    volatility: float
    games: int
    mu: float = 0.0


@dataclass(slots=True)
class Rated:
    """A player of a pool: after each period played (``history``), and now, after
    the pool's last period (``now``: the deviation widened for the periods sat out
    since the last played)."""

    player: int
    name: str = ""
    history: list[Step] = field(default_factory=list)
    aged: Step | None = None

    @property
    def now(self) -> Step:
        return self.aged if self.aged is not None else self.history[-1]


@dataclass(slots=True)
class Pool:
    """A game and its options, the system that rates it and its players, best first."""

    game: str
    options: str
    system: str
    players: list[Rated] = field(default_factory=list)
    periods: int = 0
    rostered: int = 0  # the players who started from a roster's rating


def pool_title(game: str, options: str) -> str:
    """A pool's name for a reader: the game's title from its rules package, and the
    stored options that differ from the game's defaults, if any (``TITLE, Jumps=bent``);
    a game the registry does not know, its stored name and every option."""
    # (options in their stored form, Tag=value;..., read as the archive's split_options)
    parts = (part.partition("=") for part in options.split(";"))
    chosen = {tag: value for tag, sep, value in parts if sep}
    try:
        rules = find_game(game)
    except UnknownGameError:
        return f"{game} {options.replace(';', '; ')}" if options else game
    specs = rules.options
    differ = [f"{k}={v}" for k, v in chosen.items() if k not in specs or specs[k].default != v]
    return ", ".join([rules.title, *differ])


def system_of(game: str, games: Sequence[RatedGame]) -> str:
    """Plackett-Luce for a game the registry gives more than two seats (or one played
    with more: a game it does not know, a record stored invalid), else Glicko-2."""
    try:
        seats = len(find_game(game).seats)
    except UnknownGameError:
        seats = 0
    seats = max([seats, *(len(g.players) for g in games)])
    return PLACKETT_LUCE if seats > 2 else GLICKO2


def _score(mine: Fraction, theirs: Fraction) -> float:
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def _start(starts: Mapping[tuple[int, int], int], period: Period, pid: int) -> glicko2.Glicko:
    """A player's rating before their first period: their roster's, else 1500."""
    given = starts.get((period.games[0].event_id, pid))
    return glicko2.DEFAULT if given is None else glicko2.Glicko(rating=float(given))


def _glicko(
    order: list[Period], rated: dict[int, Rated], starts: Mapping[tuple[int, int], int]
) -> int:
    """Rate the periods by Glicko-2 into ``rated``; how many players started from a
    roster's rating."""
    state: dict[int, tuple[glicko2.Glicko, int, int]] = {}  # now, last period, games
    for index, period in enumerate(order):
        faced: dict[int, list[tuple[int, float]]] = {}
        for game in period.games:
            (a, b), (sa, sb) = game.players, game.scores
            faced.setdefault(a, []).append((b, _score(sa, sb)))
            faced.setdefault(b, []).append((a, _score(sb, sa)))
        before = {
            pid: glicko2.idle(state[pid][0], index - state[pid][1] - 1)
            if pid in state else _start(starts, period, pid)
            for pid in faced
        }
        for pid, games in faced.items():
            after = glicko2.update(before[pid], [(before[o], s) for o, s in games])
            count = (state[pid][2] if pid in state else 0) + len(games)
            state[pid] = (after, index, count)
            step = Step(period.label, period.date, after.rating, after.rd, after.volatility,
                        count)
            rated.setdefault(pid, Rated(pid)).history.append(step)
    last = len(order) - 1
    for pid, (now, index, count) in state.items():  # the periods sat out since
        if index < last:
            aged = glicko2.idle(now, last - index)
            rated[pid].aged = Step(order[last].label, order[last].date, aged.rating, aged.rd,
                                   aged.volatility, count)
    return sum(
        (order[index].games[0].event_id, pid) in starts
        for pid, index in _firsts(order).items()
    )


def _firsts(order: list[Period]) -> dict[int, int]:
    """Each player's first period (its index)."""
    found: dict[int, int] = {}
    for index, period in enumerate(order):
        for game in period.games:
            for pid in game.players:
                found.setdefault(pid, index)
    return found


def _plackett(order: list[Period], rated: dict[int, Rated]) -> None:
    skills: dict[int, plackett.Skill] = {}
    counts: dict[int, int] = {}
    for period in order:
        for game in period.games:
            now = [skills.get(pid, (plackett.MU, plackett.SIGMA)) for pid in game.players]
            for pid, skill in zip(game.players, plackett.rate_game(now, game.scores),
                                  strict=True):
                skills[pid] = skill
                counts[pid] = counts.get(pid, 0) + 1
        for pid in dict.fromkeys(p for g in period.games for p in g.players):
            mu, sigma = skills[pid]
            step = Step(period.label, period.date, plackett.conservative((mu, sigma)), sigma,
                        0.0, counts[pid], mu)
            rated.setdefault(pid, Rated(pid)).history.append(step)


def rate_pool(
    game: str,
    options: str,
    games: list[RatedGame],
    starts: Mapping[tuple[int, int], int] | None = None,
) -> Pool:
    """The pool of ``games`` (one game and options), its players best first (by
    rating, then the smaller deviation, then name; names are filled in by
    :func:`zrec.archive.rated.rate`); ``starts``: the rosters' ratings, by (event id,
    player id)."""
    system = system_of(game, games)
    order = periods(games)
    rated: dict[int, Rated] = {}
    rostered = 0
    if system == PLACKETT_LUCE:
        _plackett(order, rated)
    else:
        rostered = _glicko(order, rated, starts or {})
    pool = Pool(game, options, system, list(rated.values()), len(order), rostered)
    pool.players.sort(key=lambda r: (-r.now.rating, r.now.rd, r.player))
    return pool
