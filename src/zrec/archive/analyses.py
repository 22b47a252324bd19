"""The computer analysis of stored games: kept, read back, searched by mark, averaged
by player.

``zrec archive analyse`` judges stored games with :func:`zrec.research.analysis.analyse_game`
and keeps each in the tables of schema 12 (:mod:`zrec.archive.store.schema`), keyed by
game, analysing player (``alphabeta``, ``mcts``) and budget (``4``, ``200``): the
analysis as JSON (``analyses.body``, as ``zrec analyse --format json`` gives a game's),
each seat's moves, accuracy and average loss (``analysis_seats``) and each marked move
(``analysis_marks``).  A game analysed again by the same player and budget has its rows
replaced; removing a game removes them (``ON DELETE CASCADE``).

:func:`analyses_of` reads a game's back (the game page, on ``zrec serve`` and on the
published site, draws its chart from the first one whose plies are the game's:
:func:`page_evaluation`); :func:`accuracy_of` averages a player's accuracy over
the games analysed, per analysing player and budget (each game's accuracy weighted by
its moves); a search by mark is a condition of :mod:`zrec.archive.store.search`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from zrec.archive.store import Archive, StoredGame

if TYPE_CHECKING:
    from zrec.render.replay_page import Evaluation

__all__ = [
    "Accuracy",
    "StoredAnalysis",
    "accuracy_of",
    "analysed",
    "analyses_of",
    "page_evaluation",
    "split_player",
    "store",
]

#: ids asked about at a time
CHUNK = 500


def split_player(spec: str) -> tuple[str, str]:
    """``alphabeta:4`` -> ``("alphabeta", "4")``; ``mcts:200:20`` -> ``("mcts", "200:20")``."""
    name, _, budget = spec.partition(":")
    return name, budget


@dataclass(frozen=True)
class StoredAnalysis:
    """One stored analysis of a game: who made it, with what budget and seed, the plies
    of the main line it judged, and its JSON (``seats``, ``moves``, ``summary``)."""

    player: str
    budget: str
    seed: int
    plies: int
    body: dict[str, Any]

    @property
    def spec(self) -> str:
        return f"{self.player}:{self.budget}" if self.budget else self.player

    def series(self) -> list[tuple[float, ...]]:
        """Each seat's value at the start and after each judged move."""
        moves = self.body["moves"]
        if not moves:
            return []
        return [tuple(moves[0]["before"]), *(tuple(m["after"]) for m in moves)]

    def marks(self) -> list[str | None]:
        """Each judged move's mark (or ``None``)."""
        return [m["mark"] for m in self.body["moves"]]


@dataclass(frozen=True)
class Accuracy:
    """A player's accuracy over the games one analysing player and budget judged."""

    player: str
    budget: str
    games: int
    moves: int
    accuracy: float
    average_loss: float
    marks: dict[str, int]


def store(archive: Archive, gid: int, spec: str, seed: int, body: dict[str, Any]) -> None:
    """Keep one game's analysis (``body``: :meth:`Analysis.to_json`), replacing one of
    the same player and budget, in one transaction."""
    player, budget = split_player(spec)
    key = (gid, player, budget)
    db = archive.db
    with db.transaction():
        db.execute("DELETE FROM analyses WHERE game = ? AND player = ? AND budget = ?", key)
        db.execute(
            "INSERT INTO analyses (game, player, budget, seed, plies, body) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (*key, seed, len(body["moves"]),
             json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))),
        )
        seats = {name: i for i, name in enumerate(body["seats"])}
        db.executemany(
            "INSERT INTO analysis_seats (game, player, budget, seat, moves, accuracy, "
            "average_loss) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(*key, seats[s["seat"]], s["moves"], s["accuracy"], s["average_loss"])
             for s in body["summary"]],
        )
        db.executemany(
            "INSERT INTO analysis_marks (game, player, budget, ply, seat, mark) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(*key, m["ply"], seats[m["seat"]], m["mark"]) for m in body["moves"] if m["mark"]],
        )


def analysed(archive: Archive, gids: Sequence[int], spec: str) -> set[int]:
    """The games of ``gids`` that an analysis of ``spec`` is stored for."""
    player, budget = split_player(spec)
    found: set[int] = set()
    for start in range(0, len(gids), CHUNK):
        part = list(gids[start : start + CHUNK])
        rows = archive.db.rows(
            f"SELECT game FROM analyses WHERE player = ? AND budget = ? AND game IN "
            f"({','.join('?' * len(part))})", [player, budget, *part],
        )
        found.update(int(r[0]) for r in rows)
    return found


def analyses_of(archive: Archive, gid: int) -> list[StoredAnalysis]:
    """A game's stored analyses, by player and budget."""
    rows = archive.db.rows(
        "SELECT player, budget, seed, plies, body FROM analyses WHERE game = ? "
        "ORDER BY player, budget", (gid,),
    )
    return [StoredAnalysis(str(p), str(b), int(s), int(n), json.loads(str(body)))
            for p, b, s, n, body in rows]


def accuracy_of(archive: Archive, player_ids: Iterable[int]) -> list[Accuracy]:
    """The accuracy of the player with these ids (a name and its aliases) over the
    games analysed, per analysing player and budget: the games, the moves judged, the
    accuracy and average loss over them (each game's weighted by its moves), the
    count of each mark."""
    ids = sorted(set(player_ids))
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    rows = archive.db.rows(
        "SELECT s.player, s.budget, count(DISTINCT s.game), sum(s.moves), "
        "sum(s.accuracy * s.moves), sum(s.average_loss * s.moves) FROM analysis_seats s "
        "JOIN game_players gp ON gp.game = s.game AND gp.seat = s.seat "
        f"WHERE gp.player IN ({marks}) GROUP BY s.player, s.budget "
        "ORDER BY s.player, s.budget", ids,
    )
    counted = archive.db.rows(
        "SELECT m.player, m.budget, m.mark, count(*) FROM analysis_marks m "
        "JOIN game_players gp ON gp.game = m.game AND gp.seat = m.seat "
        f"WHERE gp.player IN ({marks}) GROUP BY m.player, m.budget, m.mark", ids,
    )
    by_key: dict[tuple[str, str], dict[str, int]] = {}
    for player, budget, mark, count in counted:
        by_key.setdefault((str(player), str(budget)), {})[str(mark)] = int(count)
    out = []
    for player, budget, games, moves, weighted, lost in rows:
        n = int(moves or 0)
        known = by_key.get((str(player), str(budget)), {})
        out.append(Accuracy(
            str(player), str(budget), int(games), n,
            float(weighted) / n if n else 100.0, float(lost) / n if n else 0.0,
            {m: known.get(m, 0) for m in ("?!", "?", "??")},
        ))
    return out


def page_evaluation(archive: Archive, stored: StoredGame) -> Evaluation | None:
    """What a game's page draws its chart from and marks its moves by
    (:func:`zrec.render.replay_page.write_page`'s ``evaluations``): the values and marks
    of the game's first stored analysis that judged every move of its main line, where
    its record carries no analysis of its own (no ``Evaluation`` tag)."""
    if stored.tag("Evaluation"):
        return None
    for analysis in analyses_of(archive, stored.id):
        if analysis.plies == stored.plies and analysis.plies:
            return analysis.series(), analysis.marks()
    return None
