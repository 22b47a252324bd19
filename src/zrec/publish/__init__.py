"""A static website of events, built from the archive (``zrec archive publish``): a
publisher beside :mod:`zrec.serve`, over the archive, :mod:`zrec.render` and
:mod:`zrec.tournament`.

:func:`publish` writes, into one folder:

- ``index.html``: the events published, each linking to its folder;
- per event, a folder named after it (``<folder>/index.html``: its rounds, standings
  with the default tie-breaks, crosstable, the stored pairings of its rounds and the
  stored games that do not count);
- per round, ``<folder>/round-N.html``: its boards with their results, then its byes
  and absences;
- per stored game, ``<folder>/game-ID.html``: the replay page of that one game, with a
  navigation bar at the top (the site, the event, the round, the games either side);
- ``zrec-site.css``: the stylesheet of every page (the game pages' font, links and bar
  too), and ``zrec-replay.css`` and ``zrec-replay.js``: the stylesheet and script of
  the game pages, one copy for the whole site;
- with ``ratings``, ``ratings/``: the ratings of the games the events are played in,
  and each player's history (:mod:`zrec.publish.ratings`).

Each game has a page of its own, so no page grows with the number of games; the
standings, crosstable and rounds of a large event are cut into pages of a bounded size
(:mod:`zrec.publish.paged`), so none grows with the number of players.  Links
are relative and nothing is loaded from the network: the folder can be copied
anywhere and read offline.

The site is built in a temporary folder beside the target and renamed into place
at the end, so a failure leaves the old site as it was and nothing behind.  An
existing folder is replaced only when it is empty or a site zrec made: its
:data:`MARKER` file is the manifest zrec writes (JSON: every page of the site), and the
pages it lists are there.  Any other folder is refused, even with a planted
:data:`MARKER` file.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import tempfile
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TextIO

from zrec.archive.analyses import page_evaluation
from zrec.archive.events.loading import load_event
from zrec.archive.events.pairstore import stored_boards
from zrec.archive.store import Archive, ArchiveError, StoredGame
from zrec.errors import ZrecError
from zrec.fileio import mode_for, no_space
from zrec.notation.reader import read_game
from zrec.publish.paged import event_pages, game_home, page_count
from zrec.publish.pages import (
    CSS,
    STYLESHEET,
    EventPlan,
    Pairing,
    fallback_page,
    game_href,
    game_links,
    game_nav,
    game_title,
    index_page,
    neighbours,
    policy,
)
from zrec.publish.ratings import FOLDER, rating_pages
from zrec.render.replay_page import Evaluation, assets, write_page
from zrec.tournament.event import Entrant, EventError, Round, Tournament
from zrec.tournament.tiebreaks import default_tiebreaks, rank, round_robin

__all__ = ["MARKER", "Progress", "Published", "SiteError", "publish", "slug"]

#: the file that makes a folder a site zrec may replace: the site's manifest
MARKER = ".zrec-site"
#: what the manifest says it is
ABOUT = "A site zrec archive publish made: publishing again replaces this folder."
#: (pages written, pages in all), after each page
Progress = Callable[[int, int], None]
#: the names of the site's own folders, which no event's folder takes
RESERVED = frozenset({FOLDER})
#: the board of a game whose Round tag names none (after every numbered board)
_NO_BOARD = 1 << 30


class SiteError(ArchiveError):
    """A site that cannot be written where it was asked for, and why."""


@dataclass(slots=True)
class Published:
    """What :func:`publish` wrote."""

    events: list[str] = field(default_factory=list)
    game_pages: int = 0
    pages: int = 0
    #: the size of the largest page, in bytes, and its path in the site
    largest: int = 0
    largest_page: str = ""


def slug(name: str, taken: set[str]) -> str:
    """A folder name for an event: lower-case ASCII letters, digits and ``-``, not in
    ``taken`` (which it joins; :func:`publish` starts it with :data:`RESERVED`)."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].strip("-") or "event"
    found, n = base, 2
    while found in taken:
        found, n = f"{base}-{n}", n + 1
    taken.add(found)
    return found


# -- what goes in the site --------------------------------------------------------------


def _events(archive: Archive, names: Sequence[str] | None) -> list[Tournament]:
    """The events asked for (``None``: every event with rounds, or with stored pairings
    of a round not played yet), each once."""

    def shown(event: Tournament) -> bool:
        return event.rounds > 0 or bool(stored_boards(archive.db, event.id))

    if names is None:
        rows = archive.db.rows("SELECT name FROM events ORDER BY name")
        found = [e for e in (load_event(archive, str(r[0])) for r in rows) if shown(e)]
        if not found:
            raise SiteError(f"there is no event with rounds in {archive.db.target}")
        return found
    if not names:
        raise SiteError("there is no event to publish")
    events: dict[int, Tournament] = {}
    for name in names:
        event = load_event(archive, name)
        if not shown(event):
            raise EventError(
                f"{event.name!r} has no game with a round and a result yet, and no stored "
                "pairings"
            )
        events.setdefault(event.id, event)
    return list(events.values())


def _board(tag: object) -> int:
    """The board a ``Round`` tag names (``3.2``: board 2)."""
    parts = str(tag or "").strip().split(".")
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else _NO_BOARD


def _seat_order(r: Round, entrant: Entrant) -> tuple[int, int]:
    return {"w": 0, "b": 1}.get(r.colour, 2), entrant.number


def _plan(archive: Archive, event: Tournament, taken: set[str]) -> EventPlan:
    codes = default_tiebreaks(event)
    form = "round robin" if round_robin(event) else "swiss"
    plan = EventPlan(event, slug(event.name, taken), rank(event, codes), codes, form)
    db = archive.db
    plan.boards = stored_boards(db, event.id)
    boards: dict[int, int] = {}
    for gid, tag in db.rows(
        "SELECT id, round FROM games WHERE event = ? ORDER BY id", (event.id,)
    ):
        plan.games.append(int(gid))
        boards[int(gid)] = _board(tag)
    seat = {
        (int(g), int(p)): int(s)
        for g, s, p in db.rows(
            "SELECT gp.game, gp.seat, gp.player FROM game_players gp JOIN games g "
            "ON g.id = gp.game WHERE g.event = ?",
            (event.id,),
        )
    }
    played: dict[tuple[int, int], Pairing] = {}
    unrecorded: dict[tuple[int, frozenset[int]], Pairing] = {}
    for entrant in event.entrants:
        for n, r in sorted(entrant.rounds.items()):
            if r.game is not None:
                key = (n, r.game)
                pairing = played.setdefault(key, Pairing((boards[r.game], r.game), [], r.game))
            elif r.opponents:
                group = frozenset((entrant.number, *r.opponents))
                pairing = unrecorded.setdefault(
                    (n, group), Pairing((_NO_BOARD, _NO_BOARD + min(group)), [])
                )
            else:
                plan.byes.setdefault(n, []).append((entrant, r))
                continue
            pairing.seats.append((entrant, r))
    for (n, gid), pairing in played.items():
        pairing.seats.sort(key=lambda s: seat.get((gid, s[0].player), 0))
        plan.pairings.setdefault(n, []).append(pairing)
    for (n, _), pairing in unrecorded.items():
        pairing.seats.sort(key=lambda s: _seat_order(s[1], s[0]))
        plan.pairings.setdefault(n, []).append(pairing)
    for pairings in plan.pairings.values():
        pairings.sort(key=lambda p: p.key)
    return plan


# -- writing ------------------------------------------------------------------------------


def _manifest(pages: Sequence[str]) -> str:
    """The text of the :data:`MARKER` file: what it is, and every page of the site."""
    document = {"zrec-site": 1, "about": ABOUT, "pages": sorted(pages)}
    return json.dumps(document, ensure_ascii=False, indent=0) + "\n"


def _is_site(folder: Path) -> bool:
    """Whether the folder is a site zrec made: its :data:`MARKER` file is the manifest
    zrec writes, and the pages it lists are there."""
    try:
        document = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    if not isinstance(document, dict) or document.get("zrec-site") != 1:
        return False
    listed = document.get("pages")
    if not isinstance(listed, list) or "index.html" not in listed:
        return False
    for name in listed:
        if not isinstance(name, str) or name.startswith("/") or ".." in name.split("/"):
            return False
        if not (folder / name).is_file():
            return False
    return True


def _check_target(target: Path, shown: str) -> None:
    """Refuse a target that is a file, or a folder with things in it that is no site."""
    if not target.exists():
        if not target.parent.is_dir():
            raise SiteError(f"cannot write {shown}: there is no folder {target.parent}")
        return
    if not target.is_dir():
        raise SiteError(f"cannot write {shown}: it is a file, not a folder")
    if not any(target.iterdir()) or _is_site(target):
        return
    why = (
        f"its {MARKER} file is not the manifest zrec writes, or the pages it lists are not "
        "there"
        if (target / MARKER).exists()
        else f"it has no {MARKER} file"
    )
    raise SiteError(
        f"{shown} is a folder that is not a site zrec made ({why}), and publish replaces "
        "the whole folder: give a new or empty folder"
    )


class _Writer:
    """Writes the pages of a site under ``root``, counting them."""

    def __init__(self, root: Path, total: int, progress: Progress | None) -> None:
        self.root, self.total, self.progress = root, total, progress
        self.done = Published()
        self.names: list[str] = []

    def write(self, relative: str, text: str) -> None:
        self.stream(relative, lambda out: out.write(text))

    def stream(self, relative: str, fill: Callable[[TextIO], object]) -> None:
        """Write a page as ``fill`` writes it to the stream it is given."""
        with open(self.root / relative, "w", encoding="utf-8", newline="\n") as out:
            fill(out)
            size = out.tell()
        self.names.append(relative)
        self.done.pages += 1
        if size > self.done.largest:
            self.done.largest, self.done.largest_page = size, relative
        if self.progress is not None:
            self.progress(self.done.pages, self.total)


def _game_page(
    plan: EventPlan,
    stored: StoredGame,
    number: int | None,
    around: tuple[int | None, int | None],
    evaluation: Evaluation | None,
    out: TextIO,
) -> None:
    """Write a game's page: its replay page, linking the site's shared stylesheet and
    script, written as the game is walked (one long game costs no more memory than a
    short one); or, for a game that cannot be replayed, why, and its record."""
    links = game_links(plan, number, game_home(plan, stored.id, number), *around)
    title = game_title(plan, stored.players, number)
    try:
        game = read_game(stored.text, f"game #{stored.id}")
        write_page([(game, 1, None)], out, nav=game_nav(links), linked="../", heading=title,
                   sheets=["../" + STYLESHEET], policy=policy, evaluations=[evaluation])
    except ZrecError as exc:  # nothing was written: the page is written after the walk
        out.write(fallback_page(f"{title} (game #{stored.id})", links, str(exc), stored.text))


def _write_event(archive: Archive, plan: EventPlan, out: _Writer) -> None:
    folder = plan.folder
    (out.root / folder).mkdir()
    for name, text in event_pages(plan, set(plan.games)):
        out.write(f"{folder}/{name}", text)
    rounds = {p.game: n for n, ps in plan.pairings.items() for p in ps if p.game is not None}
    around = neighbours(plan)
    for stored in archive.games(plan.games):
        page = partial(_game_page, plan, stored, rounds.get(stored.id), around[stored.id],
                       page_evaluation(archive, stored))
        out.stream(f"{folder}/{game_href(stored.id)}", page)
        out.done.game_pages += 1


def _swap(built: Path, target: Path) -> None:
    """Put the folder ``built`` where ``target`` is, the old one removed."""
    if not target.exists():
        os.rename(built, target)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent))
    try:
        os.rename(target, old / "site")
        try:
            os.rename(built, target)
        except OSError:
            os.rename(old / "site", target)
            raise
    finally:
        shutil.rmtree(old, ignore_errors=True)


def publish(
    archive: Archive,
    events: Sequence[str] | None,
    out_dir: str | os.PathLike[str],
    progress: Progress | None = None,
    ratings: bool = False,
) -> Published:
    """Write the site of ``events`` (their names; ``None``: every event with rounds) to
    the folder ``out_dir``, replacing the site there (``ratings``: with the pages of
    :mod:`zrec.publish.ratings`).  Raises :class:`SiteError` (the
    folder cannot be written or is not a site) and
    :class:`~zrec.tournament.event.EventError` (an unknown event)."""
    shown = str(out_dir)
    target = Path(os.path.realpath(out_dir))
    _check_target(target, shown)
    taken: set[str] = set(RESERVED)  # an event called "Ratings" gets ratings-2/
    plans = [_plan(archive, event, taken) for event in _events(archive, events)]
    rated = rating_pages(archive, [p.event.id for p in plans]) if ratings else []
    total = 1 + sum(page_count(p) + len(p.games) for p in plans) + len(rated)
    try:
        built = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    except OSError as exc:
        full = no_space(shown, exc)  # NoSpaceError: no space left on device: DIR
        raise full or SiteError(f"cannot write {shown}: {exc.strerror or exc}") from None
    try:
        out = _Writer(built, total, progress)
        for plan in plans:
            _write_event(archive, plan, out)
            out.done.events.append(plan.event.name)
        if rated:
            (built / FOLDER).mkdir()
        for name, text in rated:
            out.write(name, text)
        links = [("Ratings", f"{FOLDER}/index.html")] if rated else []
        out.write("index.html", index_page(plans, links))
        shared = {**assets(), STYLESHEET: CSS}
        for name, text in shared.items():
            (built / name).write_text(text, encoding="utf-8")
        (built / MARKER).write_text(_manifest([*out.names, *shared]), encoding="utf-8")
        os.chmod(built, mode_for(target, 0o777))
        _check_target(target, shown)  # nobody put anything there meanwhile
        _swap(built, target)
    except OSError as exc:
        full = no_space(shown, exc)  # NoSpaceError: no space left on device: DIR
        raise full or SiteError(f"cannot write {shown}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(OSError):
            shutil.rmtree(built)
    return out.done
