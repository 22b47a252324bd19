"""The ratings as ``zrec archive ratings`` prints them: JSON documents and text tables
(docs/tournaments.md, "Ratings", gives the shapes).

- a list: ``[{"game", "options", "system", "periods", "players": [...]}]``, each player
  ``{"rank", "name", "rating", "rd", "volatility", "games"}`` (Glicko-2) or ``{"rank",
  "name", "rating", "mu", "sigma", "games"}`` (Plackett-Luce, ``rating`` = μ − 3σ);
- a player's history: ``[{"game", "options", "system", "name", "history": [...]}]``,
  a step a period played: ``{"period", "date", "rating", "rd", "volatility", "games"}``
  (or ``mu`` and ``sigma``).

Ratings and deviations are rounded to 2 decimals, μ and σ to 4, volatilities to 6.
"""

from __future__ import annotations

from typing import Any

from zrec.tournament.ratings.compute import GLICKO2, Pool, Step, pool_title

__all__ = ["history_json", "history_text", "pools_json", "pools_text"]


def _values(system: str, step: Step) -> dict[str, Any]:
    if system == GLICKO2:
        return {"rating": round(step.rating, 2), "rd": round(step.rd, 2),
                "volatility": round(step.volatility, 6), "games": step.games}
    return {"rating": round(step.rating, 2), "mu": round(step.mu, 4),
            "sigma": round(step.rd, 4), "games": step.games}


def pools_json(pools: list[Pool]) -> list[dict[str, Any]]:
    return [
        {"game": p.game, "options": p.options, "system": p.system, "periods": p.periods,
         "players": [{"rank": i, "name": r.name, **_values(p.system, r.now)}
                     for i, r in enumerate(p.players, 1)]}
        for p in pools
    ]


def history_json(pools: list[Pool], players: set[int]) -> list[dict[str, Any]]:
    return [
        {"game": p.game, "options": p.options, "system": p.system, "name": r.name,
         "history": [{"period": s.period, "date": s.date, **_values(p.system, s)}
                     for s in r.history]}
        for p in pools for r in p.players if r.player in players
    ]


def _heading(pool: Pool) -> str:
    system = "Glicko-2" if pool.system == GLICKO2 else "Plackett-Luce"
    periods = f"{pool.periods} rating period" + ("" if pool.periods == 1 else "s")
    started = ""
    if pool.rostered:
        started = (f"; {pool.rostered} player{'' if pool.rostered == 1 else 's'} started "
                   "from a roster's rating")
    return f"{pool_title(pool.game, pool.options)} ({system}, {periods}{started})"


def _grid(rows: list[list[str]], left: set[int]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in
                  enumerate(zip(row, widths, strict=True))).rstrip()
        for row in rows
    ]


def _cells(system: str, step: Step) -> list[str]:
    if system == GLICKO2:
        return [f"{step.rating:.1f}", f"{step.rd:.1f}", f"{step.volatility:.5f}"]
    return [f"{step.rating:.2f}", f"{step.mu:.2f}", f"{step.rd:.2f}"]


def _head(system: str) -> list[str]:
    return ["Rating", "RD", "Vol"] if system == GLICKO2 else ["Rating", "mu", "sigma"]


def pools_text(pools: list[Pool]) -> str:
    blocks = []
    for pool in pools:
        rows = [["Rank", "Player", *_head(pool.system), "Games"]]
        rows += [[str(i), r.name, *_cells(pool.system, r.now), str(r.now.games)]
                 for i, r in enumerate(pool.players, 1)]
        blocks.append("\n".join([_heading(pool), "", *_grid(rows, {1})]))
    return "\n\n".join(blocks) + "\n"


def history_text(pools: list[Pool], players: set[int]) -> str:
    blocks = []
    for pool in pools:
        for rated in (r for r in pool.players if r.player in players):
            rows = [["Period", "Date", *_head(pool.system), "Games"]]
            rows += [[s.period, s.date or "?", *_cells(pool.system, s), str(s.games)]
                     for s in rated.history]
            blocks.append("\n".join([f"{rated.name}: {_heading(pool)}", "",
                                     *_grid(rows, {0, 1})]))
    return "\n\n".join(blocks) + "\n"
