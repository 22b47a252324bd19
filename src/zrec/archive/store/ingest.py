"""Importing games: validate, judge duplicates, store, in batched transactions.

Every record is validated as ``zrec validate`` does (:func:`zrec.archive.store.facts.facts_of`).
Then, in this order:

1. an **invalid** game is refused and reported in the validator's words (with
   ``keep_invalid`` it is stored, flagged, outside the position index);
2. a **duplicate** (the same game, options, setup and moves as a stored game, however
   written; a game with no moves is the same only with the same tags) is not stored:
   its file and place are added to the stored game's sources;
3. a **truncated copy** (its moves are the start of a stored game's) is reported and
   not stored, its place added to the longer game's sources;
4. a game that **continues** a stored one (the stored game's moves are the start of
   its own) is stored, and the report says which game it continues;
5. a **conflict** (the event, round and players of a stored game, other moves) is
   stored and reported: both games are kept for someone to judge.

Games are committed in batches that end where a part of the position and opening
indexes does (4,096 games: their rows are written once a part, not again at each
commit) or after :data:`TRANSACTION_SECONDS` of the import's work or
:data:`TRANSACTION_WALL` of the clock (at most ``batch`` games), each with the count
of its file's games done, so that other writers wait for an import a second or so at
most, and a killed import keeps every committed batch, never half a game, and the next
import of the same file goes on after the last committed game.  A file whose every
game was imported before (same SHA-256) is not read again.  Records sent with no file
(through the web: ``source=False``) are stored with no source.  The result lists the
ids of the games the import stored, so that no caller has to guess them (``max(id)``
is wrong while another import runs).
"""

from __future__ import annotations

import datetime
import gc
import time
from collections.abc import Callable, Iterable, Iterator
from itertools import islice

from zrec.archive.people.names import UNKNOWN_NAMES
from zrec.archive.store import Archive
from zrec.archive.store.batch import (
    Rows,
    known,
    material_text,
    parts,
    prefetch,
    prefix_of,
    seats_key,
    serial_facts,
    starts,
)
from zrec.archive.store.facts import Facts
from zrec.archive.store.lines import Lines
from zrec.archive.store.outcome import FileResult, ImportCounts, Notice
from zrec.archive.store.packing import tags_of_text
from zrec.archive.store.posindex import OPENINGS, PART_BITS, POSITIONS, Entries
from zrec.archive.store.schema import OPENING_PLIES
from zrec.notation.json.convert import JsonRecord
from zrec.notation.reader import Record

__all__ = ["Importer"]

#: the most games committed in one transaction (``--batch``)
BATCH = 20_000
#: games judged and written at a time inside a batch: memory holds one chunk's facts
#: (7.4 KB a game) and rows, whatever the size of the batch or the file (70,000 games,
#: --jobs 2: 150.6 MB peak with 1000, 143.4 MB with 500, the same CPU time)
CHUNK = 500
#: a transaction commits after the chunk that takes it past this many seconds of the
#: import's work (its process's CPU time), or whose games reach the next part of the
#: position and opening indexes (each commit writes again every row of the part it
#: adds to: 13% of an import that committed every 500 games), so that other writers (a
#: login, a result entered on the web) wait for an import a second or so, never the
#: minutes a batch of 20,000 games held SQLite's write lock for
TRANSACTION_SECONDS = 1.0
#: and after this many seconds of the clock, whatever the CPU did: an import that waits
#: (for a slow standard input, for its ``--jobs`` workers, for a loaded machine) holds
#: SQLite's write lock no longer than this
TRANSACTION_WALL = 1.5
#: the objects made (and not yet freed) that set off a collection of the youngest
#: while an import runs (Python's default: 700): at most a few MB of them
GC_YOUNG = 50_000
#: seconds a SQLite archive is left free between two transactions of an import (the
#: time to read and validate the next chunk counts): a writer waiting for SQLite's
#: lock tries again at least every 0.1 s, so it gets in between them
GAP_SECONDS = 0.1


_stamp: list[tuple[int, str]] = [(-1, "")]  # the last second written, and its text


def _now() -> str:
    """The time in UTC to the second (``2026-11-29T14:50:52+00:00``), made once a
    second: every game stored asks for it."""
    second = int(time.time())
    held, text = _stamp[0]
    if second != held:
        moment = datetime.datetime.fromtimestamp(second, datetime.timezone.utc)
        text = moment.isoformat(timespec="seconds")
        _stamp[0] = (second, text)
    return text


class Importer:
    """Imports files into one archive; ``notify`` is shown every :class:`Notice`;
    ``copies``: duplicates and truncated copies are stored too (step 2 and 3 above
    skipped)."""

    def __init__(
        self,
        archive: Archive,
        keep_invalid: bool = False,
        notify: Callable[[Notice], None] | None = None,
        batch: int = BATCH,
        copies: bool = False,
    ) -> None:
        self.archive = archive
        #: store a game even when a stored game has its moves and players (a game played
        #: live on zrec serve is a game of its own, never a copy of a record)
        self.copies = copies
        self.db = archive.db
        self.keep_invalid = keep_invalid
        self.notify = notify or (lambda notice: None)
        self.batch = batch
        self.players: dict[str, int] = {}
        self.events: dict[str, int] = {}
        self.options: dict[str, int] = {}  # rule options -> their id
        self._committed: float | None = None  # when the last transaction committed

    # -- files ---------------------------------------------------------------------

    def begin(self, file: str, sha256: str | None, size: int | None) -> tuple[int, int, str]:
        """The source row for a file: (its id, games already done, status)."""
        with self.db.transaction(lock=True):
            if sha256 is not None:
                row = self.db.one(
                    "SELECT id, games_done, complete, path FROM sources WHERE sha256 = ? "
                    "ORDER BY complete DESC, games_done DESC",
                    (sha256,),
                )
                if row is not None:
                    status = "already imported" if row[2] else "resumed"
                    return int(row[0]), int(row[1]), status if row[2] else "resumed"
            sid = self.db.insert(
                "INSERT INTO sources (path, sha256, size, imported_at) VALUES (?, ?, ?, ?) "
                "RETURNING id",
                (file, sha256, size, _now()),
            )
            return sid, 0, "imported"

    def import_records(
        self,
        records: Iterable[Record | JsonRecord],
        file: str,
        sha256: str | None = None,
        size: int | None = None,
        facts: Callable[[int], Iterable[Facts]] | None = None,
        tick: Callable[[], None] | None = None,
        source: bool = True,
    ) -> FileResult:
        """Import every record of one input (``file`` is its name in reports and
        sources).  ``facts``, given how many games of the file are done already, gives
        the facts of the others (default: the records validated one at a time, here;
        :func:`zrec.archive.store.jobs.parallel_facts` reads the file in several processes);
        ``tick`` is called after each game (for a progress bar); ``source`` False:
        records that come from no file (sent through the web), stored with no source
        (and never "imported before")."""
        if source:
            sid: int | None
            sid, done, status = self.begin(file, sha256, size)
        else:
            sid, done, status = None, 0, "imported"
        result = FileResult(file, sha256, status)
        counts = result.counts
        if status == "already imported":
            counts.already = done
            counts.read = done
            return result
        found = iter(facts(done) if facts is not None else serial_facts(records, file, done))
        # the games up to ``done`` were committed by an earlier, interrupted import
        # what was made before the import (the rules, the parser, the command line's
        # modules: most of the process's objects) is left out of the garbage collector's
        # passes while it runs, and the young objects are looked at every
        # GC_YOUNG allocations rather than 700 (most die young: 6,000 games went through
        # 608 collections, 6.4% of the import, and then through one)
        gc.freeze()
        threshold = gc.get_threshold()
        gc.set_threshold(GC_YOUNG, *threshold[1:])
        try:
            while self._commit(found, sid, file, counts, tick, result.ids):
                pass
        finally:
            gc.set_threshold(*threshold)
            gc.unfreeze()
        counts.already += done
        counts.read += done
        return result

    def _commit(
        self,
        found: Iterator[Facts],
        sid: int | None,
        file: str,
        counts: ImportCounts,
        tick: Callable[[], None] | None,
        ids: list[int],
    ) -> bool:
        """Judge and store up to one batch of games in one transaction, a chunk at a
        time (memory holds one chunk of facts and the batch's position entries);
        whether games may remain.  The ids of the games stored are added to ``ids``
        once committed."""
        mine = ImportCounts()
        stored: list[int] = []
        notices: list[Notice] = []
        entries, openings, lines = Entries(POSITIONS), Entries(OPENINGS), Lines()
        more = True
        asked = min(CHUNK, self.batch)
        chunk = self._next(found, asked)  # (read, and validated, outside the lock)
        try:
            with self.db.transaction(lock=True):
                started, clock = time.process_time(), time.monotonic()
                taken = 0
                part: int | None = None  # the index part of the batch's first game
                while True:
                    taken += len(chunk)
                    if chunk:
                        self.archive.texts.train((f.name, f.text) for f in chunk if f.readable)
                        # the chunks before are in the database: only this one's games are
                        # judged from memory
                        rows = Rows(entries, openings, lines)
                        prefetch(self.db, chunk, rows)
                        for fact in chunk:
                            mine.read += 1
                            notices.extend(self._one(fact, sid, file, rows, mine, stored))
                            if tick is not None:
                                tick()
                        rows.write(self.db)
                        if sid is not None:
                            done = (chunk[-1].number, sid)
                            self.db.execute(
                                "UPDATE sources SET games_done = ? WHERE id = ?", done)
                    if len(chunk) < asked:
                        more = False
                        break
                    if stored:
                        part = stored[0] >> PART_BITS if part is None else part
                        if stored[-1] >> PART_BITS != part:
                            break  # the part is full: its rows are written whole
                    if (
                        taken >= self.batch
                        or time.process_time() - started >= TRANSACTION_SECONDS
                        or time.monotonic() - clock >= TRANSACTION_WALL
                    ):
                        break
                    asked = min(CHUNK, self.batch - taken)
                    chunk = list(islice(found, asked))
                entries.write(self.db)
                openings.write(self.db)
                lines.write(self.db)
                if not more and sid is not None:
                    self.db.execute("UPDATE sources SET complete = 1 WHERE id = ?", (sid,))
        except BaseException:  # what the batch made is gone with it
            self.archive.texts.forget()
            for cache in (self.options, self.events, self.players):
                cache.clear()
            raise
        counts.merge(mine)  # only once committed
        ids.extend(stored)
        for notice in notices:
            self.notify(notice)
        self._committed = time.monotonic()
        return more

    def _next(self, found: Iterator[Facts], asked: int) -> list[Facts]:
        """The next chunk of games, read before a transaction; on SQLite, at least
        :data:`GAP_SECONDS` after the last commit, so that a writer waiting for the
        lock gets it (PostgreSQL's lock serves its waiters in turn)."""
        chunk = list(islice(found, asked))
        if self.db.dialect == "sqlite" and self._committed is not None:
            time.sleep(max(0.0, self._committed + GAP_SECONDS - time.monotonic()))
        return chunk

    # -- one game ------------------------------------------------------------------

    def _one(
        self, fact: Facts, sid: int | None, file: str, rows: Rows, counts: ImportCounts,
        stored: list[int],
    ) -> list[Notice]:
        def notice(
            kind: str, message: str, stored: int | None = None, other: int | None = None
        ) -> Notice:
            return Notice(kind, file, fact.number, fact.line, message, stored, other)

        if not fact.valid:
            counts.invalid += 1
            problem = fact.problem or "invalid"
            if not (self.keep_invalid and fact.readable):
                return [notice("invalid", f"not stored: {problem}")]
            same = self._same(fact, rows)
            if same is not None:
                rows.source(same, sid, fact)
                return [notice("invalid", f"not stored: a copy of #{same}: {problem}", other=same)]
            gid = self._store(fact, sid, rows)
            stored.append(gid)
            return [notice("invalid", f"kept, flagged invalid, as #{gid}: {problem}", gid)]
        found: list[Notice] = []
        same = None if self.copies else self._same(fact, rows)
        if same is not None:
            counts.duplicates += 1
            rows.source(same, sid, fact)
            return [notice("duplicate", f"the same game as #{same}: not stored again", None, same)]
        longer = None if self.copies else self._longer(fact, rows)
        if longer is not None:
            gid, plies = longer
            counts.truncated += 1
            rows.source(gid, sid, fact)
            message = (
                f"a truncated copy of #{gid}: its {fact.plies} plies are the start of that "
                f"game's {plies}; not stored"
            )
            return [notice("truncated", message, None, gid)]
        gid = self._store(fact, sid, rows)
        stored.append(gid)
        counts.added += 1
        kinds = set()
        for other, plies, text in self._same_round(fact, gid):
            if prefix_of(fact, plies, text):
                kinds.add("continues")
                message = (
                    f"continues #{other} (same event, round and players): that game's {plies} "
                    f"plies are the start of this one's {fact.plies}; stored as #{gid}"
                )
                found.append(notice("continues", message, gid, other))
                continue
            kinds.add("conflict")
            message = (
                f"the event, round and players of #{other} with other moves: stored as "
                f"#{gid}; both kept"
            )
            found.append(notice("conflict", message, gid, other))
        # a game counts once, whatever number of stored games it concerns
        counts.continued += "continues" in kinds
        counts.conflicts += "conflict" in kinds
        return found

    def _same(self, fact: Facts, rows: Rows) -> int | None:
        """A stored game that is this one (same ident, plies and players)."""
        return rows.same.get((fact.ident, fact.plies, seats_key(fact)))

    def _longer(self, fact: Facts, rows: Rows) -> tuple[int, int] | None:
        """A stored game whose moves this game's are the start of, with the same
        players."""
        n = fact.plies
        if not fact.extendable:
            return None
        seats = seats_key(fact)
        if n <= OPENING_PLIES:
            for gid, plies, their in rows.by_path.get(fact.paths[n], ()):
                if plies > n and their == seats:
                    return gid, plies
            pending = rows.openings_by_path.get((fact.paths[n], seats))
            return pending if pending is not None and pending[1] > n else None
        # stored games, and this chunk's, that share its first 20 plies (confirmed by
        # replay)
        path = fact.paths[OPENING_PLIES]
        ids = sorted(
            {
                *(gid for gid, plies, their in rows.by_path.get(path, ()) if plies > n),
                *rows.long.get(path, ()),
            }
        )
        for part in parts(ids):
            for gid, plies, text in self.db.rows(
                "SELECT id, plies, text FROM games WHERE id IN "
                f"({','.join('?' * len(part))}) AND plies > ? AND seats = ? ORDER BY id",
                [*part, n, seats],
            ):
                if starts(self.archive.texts.unpack(text), fact, n):
                    return int(gid), int(plies)
        return None

    def _same_round(self, fact: Facts, gid: int) -> list[tuple[int, int, str]]:
        """Stored games of this game's event and round, with the same players and other
        moves: (id, plies, text)."""
        event, round_ = fact.tag("Event"), fact.tag("Round")
        if event is None or round_ is None or not known(event) or not known(round_):
            return []
        eid = self.events.get(event)
        if eid is None or not fact.seats:
            return []
        if any(name.strip() in UNKNOWN_NAMES for _, name in fact.seats):
            return []  # unnamed players are not the same players
        rows = self.db.rows(
            "SELECT id, ident, plies, text FROM games WHERE event = ? AND round = ? "
            "AND seats = ? AND id <> ? ORDER BY id",
            (eid, round_, seats_key(fact), gid),
        )
        unpack = self.archive.texts.unpack
        return [(int(r[0]), int(r[2]), unpack(r[3])) for r in rows if int(r[1]) != fact.ident]

    # -- storing ---------------------------------------------------------------------

    def _store(self, fact: Facts, sid: int | None, rows: Rows) -> int:
        event = fact.tag("Event")
        eid = (
            self._id(self.events, "events", "name", event)
            if event is not None and known(event)
            else None
        )
        gid = self.db.insert(
            "INSERT INTO games (game, options_id, setup, event, site, round, date, date_lo, "
            "date_hi, result, termination, plies, valid, checked, problem, ident, seats, "
            "text, added) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "RETURNING id",
            (
                fact.name,
                self._id(self.options, "rule_options", "options", fact.options),
                fact.setup,
                eid,
                fact.tag("Site"),
                fact.tag("Round"),
                fact.tag("Date"),
                fact.date_lo,
                fact.date_hi,
                fact.result,
                fact.tag("Termination"),
                fact.plies,
                int(fact.valid),
                int(fact.report.checked),
                None if fact.valid else fact.problem,
                fact.ident,
                seats_key(fact),
                self.archive.texts.pack(fact.name, fact.text),
                _now(),
            ),
        )
        rows.same.setdefault((fact.ident, fact.plies, seats_key(fact)), gid)
        if tags_of_text(fact.text) != tuple(fact.tags):  # kept when the text cannot say
            rows.tags.extend((gid, i, k, v) for i, (k, v) in enumerate(fact.tags))
        for seat, (role, name) in enumerate(fact.seats):
            if name.strip() not in UNKNOWN_NAMES:
                rows.players.append((gid, seat, role, self._player(name)))
        rows.source(gid, sid, fact)
        if fact.indexed:
            rows.entries.add(gid, fact.keys)
            rows.starts.add((fact.name, fact.options, fact.setup))
            if fact.plies > OPENING_PLIES:
                rows.long.setdefault(fact.paths[OPENING_PLIES], []).append(gid)
            last = min(fact.plies, OPENING_PLIES)
            rows.openings.add(gid, fact.paths[1 : last + 1])
            if fact.plies > OPENING_PLIES:
                rows.openings_long.append((fact.paths[OPENING_PLIES], gid))
            for ply in range(1, last + 1):
                rows.openings_by_path.setdefault(
                    (fact.paths[ply], seats_key(fact)), (gid, fact.plies)
                )
            if fact.material:
                rows.material.append((gid, material_text(fact)))
            if fact.lined:
                assert fact.codes is not None
                rows.lines.add(gid, fact.paths[0], fact.codes, fact.result)
        return gid

    def _id(self, cache: dict[str, int], table: str, column: str, value: str) -> int:
        """The id of the row of ``table`` (events, rule_options) with this value, made
        if there is none."""
        found = cache.get(value)
        if found is None:
            held = self.db.value(f"SELECT id FROM {table} WHERE {column} = ?", (value,))
            if held is None:
                sql = f"INSERT INTO {table} ({column}) VALUES (?) RETURNING id"
                held = self.db.insert(sql, (value,))
            found = cache[value] = int(held)
        return found

    def _player(self, name: str) -> int:
        name = " ".join(name.split())
        pid = self.players.get(name)
        if pid is None:
            ids = self.archive.player_ids(name)
            pid = ids[0] if ids else self.archive.add_player(name)
            self.players[name] = pid
        return pid
