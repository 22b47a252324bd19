"""The ratings of a published site (see :mod:`zrec.publish`), in the folder
``ratings/``:

- ``ratings/index.html``: each rated pool (a game and its rule options) the published
  events are played in, with its system and number of players;
- ``ratings/pool-K.html`` (``pool-K-2.html`` … past :data:`PER_PAGE` players): the
  pool's list, rated from the published events' games alone (a site shows no player,
  game or event of the archive that it does not publish);
- ``ratings/player-ID.html``: a player's rating after each period played, pool by pool.

Built with the site's own page parts, so every text is escaped and every link relative.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence

from zrec.archive.rated import rate
from zrec.archive.store import Archive
from zrec.publish.paged import cut
from zrec.publish.pages import Link, heading, nav, page, para, plural, table
from zrec.tournament.ratings.compute import GLICKO2, Pool, Rated, Step, pool_title

__all__ = ["FOLDER", "rating_pages"]

#: the site's folder of ratings
FOLDER = "ratings"


def _system(pool: Pool) -> str:
    return "Glicko-2" if pool.system == GLICKO2 else "Plackett-Luce (rating μ − 3σ)"


def _title(pool: Pool) -> str:
    """The pool's game by its name, with the options that are not its defaults."""
    return pool_title(pool.game, pool.options)


def _pool_href(k: int, part: int = 1) -> str:
    return f"pool-{k}.html" if part == 1 else f"pool-{k}-{part}.html"


def _player_href(pid: int) -> str:
    return f"player-{pid}.html"


def _head(pool: Pool) -> list[str]:
    tail = ["RD", "Volatility"] if pool.system == GLICKO2 else ["μ", "σ"]
    return ["Rating", *tail, "Games"]


def _numbers(pool: Pool, step: Step) -> list[str | Link]:
    if pool.system == GLICKO2:
        return [f"{step.rating:.1f}", f"{step.rd:.1f}", f"{step.volatility:.5f}",
                str(step.games)]
    return [f"{step.rating:.2f}", f"{step.mu:.2f}", f"{step.rd:.2f}", str(step.games)]


#: the bar of a ratings page: back to the events, and to the list of pools
BAR: list[Link] = [("Events", "../index.html"), ("Ratings", "index.html")]


def _pool_pages(k: int, pool: Pool) -> Iterator[tuple[str, str]]:
    parts = cut(len(pool.players))
    started = (f" · {plural(pool.rostered, 'player')} started from a roster's rating"
               if pool.rostered else "")
    meta = para(f"{_system(pool)} · {plural(pool.periods, 'rating period')} · "
                f"{plural(len(pool.players), 'player')}{started}", "meta")
    for n, part in enumerate(parts, 1):
        rows: list[list[str | Link]] = [
            [str(i + 1), (pool.players[i].name, _player_href(pool.players[i].player)),
             *_numbers(pool, pool.players[i].now)]
            for i in part
        ]
        body = [meta]
        if len(parts) > 1:
            links: list[Link] = [(f"{p.start + 1}–{p.stop}", None if m == n else _pool_href(k, m))
                                 for m, p in enumerate(parts, 1)]
            body.append(nav(links))
        body.append(table(["Rank", "Player", *_head(pool)], rows, "standings"))
        yield _pool_href(k, n), page(_title(pool), BAR, *body)


def _player_page(name: str, held: Sequence[tuple[int, Pool, Rated]]) -> str:
    parts: list[ET.Element] = []
    for k, pool, rated in held:
        parts.append(heading(_title(pool)))
        parts.append(nav([(f"{_system(pool)}: the list", _pool_href(k))]))
        rows: list[list[str | Link]] = [[s.period, s.date or "?", *_numbers(pool, s)]
                                        for s in rated.history]
        parts.append(table(["Period", "Date", *_head(pool)], rows, "standings"))
    return page(f"{name}: ratings", BAR, *parts)


def rating_pages(archive: Archive, events: Sequence[int]) -> list[tuple[str, str]]:
    """The pages of ``ratings/`` (paths inside the site, and their text) for the pools
    the games of ``events`` (their ids) are in; none when they have no rated game."""
    if not events:
        return []
    marks = ",".join("?" * len(events))
    wanted = {(str(g), str(o)) for g, o in archive.db.rows(
        "SELECT DISTINCT g.game, o.options FROM games g JOIN rule_options o "
        f"ON o.id = g.options_id WHERE g.event IN ({marks})", list(events))}
    pools = [p for p in rate(archive, events=events)[0] if (p.game, p.options) in wanted]
    if not pools:
        return []
    out: list[tuple[str, str]] = []
    held: dict[int, list[tuple[int, Pool, Rated]]] = {}
    rows: list[list[str | Link]] = []
    for k, pool in enumerate(pools, 1):
        rows.append([(_title(pool), _pool_href(k)), _system(pool), str(len(pool.players))])
        out += [(f"{FOLDER}/{href}", text) for href, text in _pool_pages(k, pool)]
        for rated in pool.players:
            held.setdefault(rated.player, []).append((k, pool, rated))
    for pid, mine in sorted(held.items()):
        out.append((f"{FOLDER}/{_player_href(pid)}", _player_page(mine[0][2].name, mine)))
    index = page("Ratings", [("Events", "../index.html")],
                 table(["Game and rule options", "System", "Players"], rows, "events"))
    return [(f"{FOLDER}/index.html", index), *out]
