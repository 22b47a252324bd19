"""Live games: games played move by move on ``zrec serve``, kept in the archive.

A live game's whole state is in the archive's tables (schemas 13 and 14,
:mod:`zrec.archive.store.schema`), never only in a server's memory, so that any
worker process can answer for it and a worker killed mid-game loses nothing:

- ``live_games``: the record's tags (JSON), the time control and each seat's time
  left, when the turn to move began, the dice rolled for it, the status (``playing``,
  ``over``), result and termination, a draw offered and the seats that agreed to it
  so far, a version counted up at every change (what a stream of the game follows),
  the id of the stored game once it is over (and why it is not a game of its own,
  when it is not), and whether it is a broadcast (a game played on a real board and
  recorded on the recording board: its moves and its end come only from the
  arbiter's record, :func:`recorded`, never from a seat's move or action);
- ``live_seats``: who plays each seat: a user (by name, and its key), a study player
  (``study:greedy``), or nobody yet (whoever opens the seat's link and is logged in
  takes it; a seat whose tag names a player is kept for that user: a seat the creator
  named for another user, or a board's roster player);
- ``live_moves``: the moves in order, each as the engine spells it (its roll
  included), with the seat that made it and when.

Every change is one transaction that reads the game's row first under a lock (SQLite:
the write lock; PostgreSQL: ``SELECT ... FOR UPDATE`` of the row, and after it the
import's lock only to count a user's games or store a finished game), replays its moves
through the engine (:class:`zrec.play.live.LiveGame`), checks the change and writes
it, so two moves sent at once are taken one after the other, the second judged
after the first.  On PostgreSQL the transaction also sends ``NOTIFY zrec_live`` with
the game's id and new version (delivered at commit), which every server process
listens for.  The game a move was checked on is kept by the process
(:class:`_Replayed`), so that reading the game back does not check the move again;
it is used only for a game whose tags and moves in the archive begin with its own.

Locks on PostgreSQL are taken in one order, so that no two changes wait for each other
in a circle (a deadlock, which PostgreSQL breaks by failing one of them): first the
row of the one existing game a change is about (``SELECT ... FOR UPDATE``:
:func:`_lock`), then the import's advisory lock 7317 (:func:`_import_lock`: to count a
user's live games, or to store a finished game as imports do).  A change that takes
7317 first (a game made: :func:`create`, :func:`broadcast`, a round put online) locks
no row but those it made itself, which nobody else can wait for.  (A seat taken once
took 7317 before the game's row while a move ending a game took the row before 7317.)
On SQLite the write lock, taken at the start of every change, is the only lock.

A game ends by rule (the engine's outcome), by resignation, by agreement on a draw,
on time (checked whenever the game is read or changed: :func:`settle`), or is aborted
before its first move.  A game that ended with a result is imported as any other
record (:class:`zrec.archive.store.ingest.Importer`, no source) with its ``Event``,
``Round``, players, ``Date``, ``TimeControl`` and ``Termination`` tags, so it is in
the standings, ratings and explorer at once; an aborted game is not stored.  A game
played live is a game of its own even when the archive has one with the same players
and moves (two quick resignations after the same first move): it is stored all the
same, never judged a copy.  A broadcast may be a game the archive has already (its
record imported, or broadcast before): it then keeps the id of that game, and
``not_stored`` says so in the import's words; a record the import refuses is not
stored, and ``not_stored`` says why.

Refusals are :class:`LiveRefused` with a stable code and the HTTP status the server
answers them with; each message names the place and the reason.

Past 500 lines, and one piece on purpose: every change of a live game (made, a seat
taken, a move, an action, a broadcast's record, the clock) reads the game under the
same lock, checks it against the same state, counts its version up and notifies in
the same transaction; split, those steps would be shared across modules that each
need all of them.
"""

from __future__ import annotations

import datetime
import json
import random
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from zrec.archive.store import Archive
from zrec.errors import ZrecError
from zrec.play.live import Clock, LiveError, LiveGame, ended_by, live_tags, parse_clock

__all__ = ["ACTIONS", "CHANNEL", "MAX_LIVE", "STUDY", "LiveRefused", "LiveState", "act",
           "broadcast", "create", "is_broadcast", "listen", "live_games", "load", "move",
           "recorded", "settle", "start_study", "take_seat"]

#: the live games a user may be playing at once (not over, and seated in or made by
#: them; a board of a paired round counts for its players, not for its arbiter)
MAX_LIVE = 20
#: what a seat's player is written with when it is a study player (``study:greedy``)
STUDY = "study:"
#: the actions ``POST /api/live/{id}/move`` takes beside a move
ACTIONS = ("resign", "draw-offer", "draw-accept", "abort")
#: the PostgreSQL channel a change of a live game is announced on (its id)
CHANNEL = "zrec_live"


class LiveRefused(ZrecError):
    """A change a live game refuses: ``code``, the HTTP ``status`` and the reason."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _refused(exc: LiveError) -> LiveRefused:
    status = 409 if exc.code == "game-over" else 400
    return LiveRefused(status, exc.code, exc.message)


@dataclass
class LiveState:
    """A live game as the archive holds it (see the module)."""

    id: int
    game: str
    tags: list[tuple[str, str]]
    seats: dict[str, str | None]
    moves: list[tuple[str, str, float]]  # (seat, move, when)
    status: str
    result: str
    termination: str | None
    draw_offer: str | None
    clock: Clock | None
    clocks: dict[str, float]  # seconds left of each seat, at turn_started
    turn_started: float | None
    roll: tuple[int, ...] | None
    version: int
    stored: int | None
    event: str | None
    round: str | None
    created: float
    creator: str
    broadcast: bool = False
    #: the seats that agreed to the draw offered (the offer's seats first), in seat order
    draw_agreed: list[str] = field(default_factory=list)
    #: why the finished game is not stored as a game of its own (the import's words: a
    #: broadcast of a game the archive has, whose id ``stored`` is), else ``None``
    not_stored: str | None = None
    _game: LiveGame | None = field(default=None, repr=False)

    def replayed(self) -> LiveGame:
        """The game replayed through the engine to its last move (from the position
        this process reached last for the game, when its moves begin this game's)."""
        if self._game is None:
            self._game = _REPLAYED.get(self.id, self.tags, [m for _, m, _ in self.moves])
        return self._game

    def names(self) -> dict[str, str]:
        """The players the record names, by seat (its seat tags; ``?``: none yet)."""
        tags = dict(self.tags)
        return {seat: tags.get(seat, "?") for seat in self.seats}

    def to_move(self) -> str | None:
        """The seat to move, ``None`` once the game is over."""
        return None if self.status != "playing" else self.replayed().to_move()

    def left(self, now: float) -> dict[str, float]:
        """The seconds each seat has left at ``now`` (the clock of the seat to move
        runs from the first move on)."""
        out = dict(self.clocks)
        seat = self.to_move()
        if seat is not None and self.turn_started is not None and seat in out:
            out[seat] = max(0.0, out[seat] - (now - self.turn_started))
        return out

    def record(self, shown: bool = False) -> str:
        """The record; ``shown``: as the players and spectators see it (while it is
        played, without the hidden setup the rules drew)."""
        game = self.replayed()
        hide = game.hidden() if shown and self.status == "playing" else []
        return game.record(self.result, self.termination, hide)

    def to_json(self, now: float | None = None) -> dict[str, Any]:
        """What ``GET /api/live/{id}`` answers."""
        now = time.time() if now is None else now
        return {
            "id": self.id,
            "game": self.game,
            "record": self.record(shown=True),
            "to_move": self.to_move(),
            "status": self.status,
            "result": self.result,
            "termination": self.termination,
            "seats": dict(self.seats),
            "names": self.names(),
            "ply": len(self.moves),
            "moves": [m for _, m, _ in self.moves],
            "roll": None if self.roll is None else list(self.roll),
            "draw_offer": self.draw_offer,
            "draw_agreed": list(self.draw_agreed) if self.draw_offer else None,
            "clock": None if self.clock is None else self.clock.text(),
            "clocks": None if self.clock is None else {
                seat: round(left, 3) for seat, left in self.left(now).items()},
            "version": self.version,
            "game_id": self.stored,
            "not_stored": self.not_stored,
            "event": self.event,
            "round": self.round,
            "broadcast": self.broadcast,
        }


class _Replayed:
    """The live games this process replayed last, each as far as it was played: a
    game asked for again with more moves is played on from there, not replayed from
    its start (a move replayed the whole game twice: 82% of a move's time at 40
    plies).  What is kept is checked against what is asked for (the same tags, its
    moves the start of the moves asked for), so it is never wrong, only not used; at
    most :data:`KEPT` games, the least recently used dropped first."""

    KEPT = 1000

    def __init__(self) -> None:
        self._games: OrderedDict[int, tuple[list[tuple[str, str]], tuple[str, ...],
                                             LiveGame]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, gid: int, tags: list[tuple[str, str]], moves: list[str]) -> LiveGame:
        with self._lock:
            kept = self._games.get(gid)
        if kept is not None and kept[0] == tags and tuple(moves[:len(kept[1])]) == kept[1]:
            game = kept[2].copy()
            for ply, text in enumerate(moves[len(kept[1]):], len(kept[1]) + 1):
                try:
                    game.play(text)
                except LiveError as exc:
                    raise LiveError(exc.code, f"move {ply} of the stored game: "
                                    f"{exc.message}") from None
        else:
            game = LiveGame(tags, moves)
        self.put(gid, game)
        return game

    def put(self, gid: int, game: LiveGame) -> None:
        """Keep ``game`` (a copy) as the game ``gid`` replayed as far as it was played:
        a move just checked and written is not checked again when the game is read back
        (a move's own answer, its streams).  Kept, it is still only used for moves the
        archive has: a transaction that wrote them and was then rolled back leaves a game
        whose moves are not the start of the archive's, which :meth:`get` does not use."""
        with self._lock:
            self._games[gid] = (list(game.tags), game.moves(), game.copy())
            self._games.move_to_end(gid)
            while len(self._games) > self.KEPT:
                self._games.popitem(last=False)


_REPLAYED = _Replayed()


_SELECT = ("SELECT id, game, tags, clock, clocks, turn_started, roll, status, result, "
           "termination, draw_offer, version, stored, event, round, created, creator, "
           "broadcast, draw_agreed, not_stored FROM live_games WHERE id = ?")


def _changing(archive: Archive) -> Any:
    """The transaction of a change of one game: SQLite's write lock; on PostgreSQL no
    lock of the whole archive (the game's row is locked, :func:`_lock`), so that moves
    of different games do not wait for each other, nor for an import."""
    return archive.db.transaction(lock=archive.db.dialect == "sqlite")


def _lock(archive: Archive, gid: int) -> Any:
    """The game's row, locked for this transaction (PostgreSQL: the row; SQLite: the
    write lock the transaction holds)."""
    sql = _SELECT
    if archive.db.dialect == "postgresql":
        sql += " FOR UPDATE"
    return archive.db.one(sql, (gid,))


def _state(archive: Archive, row: Any) -> LiveState:
    gid = int(row[0])
    seats: dict[str, str | None] = {}
    for seat, player in archive.db.rows(
        "SELECT seat, player FROM live_seats WHERE live = ? ORDER BY idx", (gid,)
    ):
        seats[str(seat)] = None if player is None else str(player)
    moves = [(str(s), str(m), float(w)) for s, m, w in archive.db.rows(
        "SELECT seat, move, made FROM live_moves WHERE live = ? ORDER BY ply", (gid,))]
    clocks = {} if row[4] is None else {k: float(v) for k, v in json.loads(row[4]).items()}
    return LiveState(
        id=gid, game=str(row[1]), tags=[(str(n), str(v)) for n, v in json.loads(row[2])],
        seats=seats, moves=moves, status=str(row[7]), result=str(row[8]),
        termination=None if row[9] is None else str(row[9]),
        draw_offer=None if row[10] is None else str(row[10]),
        clock=parse_clock(None if row[3] is None else str(row[3])), clocks=clocks,
        turn_started=None if row[5] is None else float(row[5]),
        roll=None if not row[6] else tuple(int(c) for c in str(row[6])),
        version=int(row[11]), stored=None if row[12] is None else int(row[12]),
        event=None if row[13] is None else str(row[13]),
        round=None if row[14] is None else str(row[14]),
        created=float(row[15]), creator=str(row[16]), broadcast=bool(row[17]),
        draw_agreed=[] if not row[18] else [str(s) for s in json.loads(row[18])],
        not_stored=None if row[19] is None else str(row[19]),
    )


def load(archive: Archive, gid: int) -> LiveState:
    """The live game ``gid``; :class:`LiveRefused` ``not-found``."""
    row = archive.db.one(_SELECT, (gid,))
    if row is None:
        raise LiveRefused(404, "not-found", f"there is no live game #{gid}")
    return _state(archive, row)


def _key(name: str) -> str:
    """What a user's name is compared by: Unicode NFC without case (as the accounts of
    ``zrec serve`` compare them)."""
    return unicodedata.normalize("NFC", name).casefold()


def _roll(game: LiveGame, rng: random.Random) -> str | None:
    faces = game.chance() if game.to_move() is not None else None
    return None if faces is None else "".join(str(rng.randint(1, n)) for n in faces)


def _notify(archive: Archive, gid: int, version: int) -> None:
    """``NOTIFY zrec_live`` (PostgreSQL), delivered at commit: ``ID VERSION``, the
    game and its version after the change (a process that already has that version,
    having made the change, need not read the game again)."""
    if archive.db.dialect == "postgresql":
        archive.db.execute("SELECT pg_notify(?, ?)", (CHANNEL, f"{gid} {version}"))


def _playing(archive: Archive, user_key: str) -> int:
    """The live games not over that count against the user's :data:`MAX_LIVE`: those
    in which they hold a seat, and those they made, but for the boards of a paired
    round they put online (made for their players)."""
    return int(archive.db.value(
        "SELECT count(DISTINCT g.id) FROM live_games g LEFT JOIN live_seats s ON "
        "s.live = g.id WHERE g.status = 'playing' AND (s.norm = ? OR (g.creator = ? "
        "AND g.paired = 0))", (user_key, user_key)))


def create(
    archive: Archive,
    creator: str,
    game: str,
    options: Mapping[str, str],
    seats: Mapping[str, str | None],
    clock: str | None = None,
    tags: Sequence[tuple[str, str]] = (),
    now: float | None = None,
    rng: random.Random | None = None,
    event: str | None = None,
    round_: str | None = None,
    paired: bool = False,
    seat_others: bool = False,
) -> int:
    """A new live game made by the user ``creator``: ``seats`` maps each seat to the
    user who plays it (the name as the accounts store it), a study
    player (``study:greedy``) or ``None`` (an open seat); its id.  ``paired``: a board
    of a paired round put online by an arbiter, ``creator``, for its players: it does
    not count against the arbiter's live games (:data:`MAX_LIVE`).  A seat given a
    user other than the creator is only kept for them (its tag names them) until they
    take it (:func:`take_seat`), and no move is taken before they do; ``seat_others``
    (an arbiter's round): they are seated at once.  The study players
    whose turns come first play them in the same transaction (a game is never left
    made without them).  Raises :class:`LiveRefused`."""
    now = time.time() if now is None else now
    rng = rng or random.Random(secrets.randbits(128))
    try:
        timing = parse_clock(clock)
        names = {seat: p for seat, p in seats.items() if p}
        written = live_tags(game, options, list(seats), names, timing, rng, [
            *tags, ("Date", datetime.date.fromtimestamp(now).strftime("%Y.%m.%d"))])
        started = LiveGame(written)
    except LiveError as exc:
        raise _refused(exc) from None
    order = list(started.seats)
    if all((seats.get(seat) or "").startswith(STUDY) for seat in order):
        # (played to its end at once, in the request and under the archive's lock: a
        # game of study players alone is zrec study's)
        raise LiveRefused(400, "bad-seats", "seats: a live game needs a person's seat (a "
                          "user, or an open seat): study players alone play with zrec study")
    with archive.db.transaction(lock=True):
        _import_lock(archive)  # (first: the rows it locks after are its own)
        if not paired and _playing(archive, _key(creator)) >= MAX_LIVE:
            raise LiveRefused(429, "too-many-games", f"{creator} already plays or made "
                              f"{MAX_LIVE} live games that are not over: finish one first")
        gid = archive.db.insert(
            "INSERT INTO live_games (game, tags, clock, clocks, roll, status, creator, "
            "created, event, round, paired) VALUES (?, ?, ?, ?, ?, 'playing', ?, ?, ?, ?, "
            "?) RETURNING id",
            (started.replay.rules.name, json.dumps(written, ensure_ascii=False),
             None if timing is None else timing.text(),
             None if timing is None else json.dumps({s: timing.seconds for s in order}),
             _roll(started, rng), _key(creator), now, event, round_, int(paired)))
        for idx, seat in enumerate(order):
            player = names.get(seat)
            if (player is not None and not player.startswith(STUDY) and not seat_others
                    and _key(player) != _key(creator)):
                player = None  # (kept for them: they take it)
            archive.db.execute(
                "INSERT INTO live_seats (live, seat, idx, player, norm) VALUES (?, ?, ?, ?, ?)",
                (gid, seat, idx, player,
                 None if player is None or player.startswith(STUDY) else _key(player)))
        _notify(archive, gid, 0)
        start_study(archive, gid, now, rng)
    return gid


#: how a column :func:`_bump` writes is read back into :class:`LiveState` (as
#: :func:`_state` reads it); the other columns are read as written
_READ_BACK: dict[str, Callable[[Any], Any]] = {
    "roll": lambda v: None if not v else tuple(int(c) for c in str(v)),
    "clocks": lambda v: {} if v is None else {k: float(x) for k, x in json.loads(v).items()},
    "tags": lambda v: [(str(n), str(x)) for n, x in json.loads(v)],
    "draw_agreed": lambda v: [] if not v else [str(s) for s in json.loads(v)],
}


def _bump(archive: Archive, state: LiveState, **changes: Any) -> None:
    """The game's row changed (its version counted up) in the transaction that read
    ``state`` under the lock; ``state`` is changed the same way (its version the new
    one), so that it is the game as the archive holds it after the change (a move
    returns it, not reading the game back: three queries, and on PostgreSQL three
    round trips, a move)."""
    sets = ", ".join(f"{name} = ?" for name in changes)
    archive.db.execute(
        f"UPDATE live_games SET {sets}{', ' if sets else ''}version = version + 1 "
        "WHERE id = ?", (*changes.values(), state.id))
    for name, value in changes.items():
        setattr(state, name, _READ_BACK.get(name, lambda v: v)(value))
    state.version += 1
    _notify(archive, state.id, state.version)


def take_seat(archive: Archive, gid: int, seat: str, user: str, now: float | None = None,
              rng: random.Random | None = None) -> LiveState:
    """The user takes the open seat ``seat``, and the study players whose turns come
    first play them (:func:`start_study`), in one transaction; the game after.  The
    game's row is locked before the import's lock (the module's lock order)."""
    with _changing(archive):
        state = _locked(archive, gid)
        _not_broadcast(state)
        if state.status != "playing":
            raise LiveRefused(409, "game-over", f"live game #{gid} is over: its seats "
                              "are no longer taken")
        if seat not in state.seats:
            raise LiveRefused(400, "bad-seat", f"seat: live game #{gid} has the seats "
                              f"{', '.join(state.seats)}, not {seat!r}")
        holder = state.seats[seat]
        if holder is not None and _key(holder) == _key(user):
            return state
        if holder is not None:
            raise LiveRefused(409, "seat-taken", f"seat {seat} of live game #{gid} is "
                              f"taken by {holder}")
        kept = dict(state.tags).get(seat, "?")
        if kept not in ("?", "") and _key(kept) != _key(user):
            raise LiveRefused(403, "not-your-seat", f"seat {seat} of live game #{gid} is "
                              f"kept for {kept}")
        _import_lock(archive)  # (a user's games counted by one change at a time)
        if _playing(archive, _key(user)) >= MAX_LIVE:
            raise LiveRefused(429, "too-many-games", f"{user} already plays {MAX_LIVE} "
                              "live games that are not over: finish one first")
        archive.db.execute("UPDATE live_seats SET player = ?, norm = ? WHERE live = ? "
                           "AND seat = ?", (user, _key(user), gid, seat))
        tags = [(n, user if n == seat else v) for n, v in state.tags]
        _bump(archive, state, tags=json.dumps(tags, ensure_ascii=False))
        return start_study(archive, gid, now, rng)


def _locked(archive: Archive, gid: int) -> LiveState:
    row = _lock(archive, gid)
    if row is None:
        raise LiveRefused(404, "not-found", f"there is no live game #{gid}")
    return _state(archive, row)


def _not_broadcast(state: LiveState) -> None:
    """:class:`LiveRefused` ``broadcast`` for a broadcast: its moves and its end come
    from the arbiter's recording board (:func:`recorded`), not from its seats."""
    if state.broadcast:
        raise LiveRefused(409, "broadcast", f"live game #{state.id} is a broadcast of a "
                          "recorded game: its moves come from the recording board")


def _seat_of(state: LiveState, user: str) -> list[str]:
    key = _key(user)
    return [seat for seat, player in state.seats.items()
            if player is not None and not player.startswith(STUDY) and _key(player) == key]


def _timed_out(archive: Archive, state: LiveState, now: float) -> bool:
    """End the game on time if the seat to move has no time left; whether it did."""
    seat = state.to_move()
    if state.clock is None or seat is None or state.turn_started is None:
        return False
    if state.left(now).get(seat, 1.0) > 0:
        return False
    game = state.replayed()
    _finish(archive, state, ended_by(game.seats, [seat], parties=game.parties()),
            "time forfeit")
    return True


def _finish(archive: Archive, state: LiveState, result: str, termination: str | None,
            keep: bool = True) -> None:
    """The game over with ``result``; stored as an import unless ``keep`` is False."""
    state.status, state.result, state.termination = "over", result, termination
    stored, why = (_store(archive, state.record(), copies=not state.broadcast) if keep
                   else (None, None))
    state.stored, state.not_stored = stored, why
    _bump(archive, state, status="over", result=result, termination=termination,
          stored=stored, not_stored=why, roll=None, draw_offer=None, draw_agreed=None)


def _import_lock(archive: Archive) -> None:
    """The import's lock (PostgreSQL: advisory lock 7317, to the transaction's end;
    SQLite: the write lock the transaction holds already): after the game's row, never
    before it (the module's lock order)."""
    if archive.db.dialect == "postgresql":
        archive.db.execute("SELECT pg_advisory_xact_lock(7317)")


def _store(archive: Archive, text: str, copies: bool) -> tuple[int | None, str | None]:
    """The finished game imported as any record (no source): its id, and ``None``; or,
    when the import stores it not (``copies``: not even as a copy of a stored game),
    the id of the stored game it is a copy of (``None``: refused) and why, in the
    import's words."""
    from zrec.archive.store.ingest import Importer
    from zrec.archive.store.outcome import Notice
    from zrec.notation.inputs import read_input

    _import_lock(archive)  # (imports take turns)
    notices: list[Notice] = []
    importer = Importer(archive, notify=notices.append, copies=copies)
    result = importer.import_records(read_input(text.encode("utf-8"), "-", "<live>"),
                                     "<live>", source=False)
    if result.ids:
        return result.ids[0], None
    if not notices:
        return None, "the import stored nothing"
    return notices[0].other, notices[0].message


def settle(archive: Archive, gid: int, now: float | None = None) -> bool:
    """End the game on time if its clock ran out (whoever asks: a reader too); whether
    it did."""
    now = time.time() if now is None else now
    state = load(archive, gid)
    if state.status != "playing" or state.clock is None or state.turn_started is None:
        return False
    seat = state.to_move()
    if seat is None or state.left(now).get(seat, 1.0) > 0:
        return False
    with _changing(archive):
        return _timed_out(archive, _locked(archive, gid), now)


def move(archive: Archive, gid: int, user: str, written: str, now: float | None = None,
         rng: random.Random | None = None) -> LiveState:
    """The user plays ``written`` for its seat; then each study player whose turn it
    is plays (:func:`zrec.research.study.seat_players`: the spec after ``study:``).
    The game after.  Raises :class:`LiveRefused`."""
    now = time.time() if now is None else now
    rng = rng or random.Random(secrets.randbits(128))
    with _changing(archive):
        state = _locked(archive, gid)
        _not_broadcast(state)
        if state.status != "playing":
            raise LiveRefused(409, "game-over", f"live game #{gid} is over ({state.result}"
                              f"{', ' + state.termination if state.termination else ''}): "
                              "no move is taken")
        if _timed_out(archive, state, now):
            return state
        seat = state.to_move()
        mine = _seat_of(state, user)
        if not mine:
            raise LiveRefused(403, "not-your-seat", f"{user} plays no seat of live game "
                              f"#{gid}: only its players move")
        if seat not in mine:
            raise LiveRefused(409, "not-your-turn", f"it is {seat}'s turn in live game "
                              f"#{gid}, not {', '.join(mine)}'s")
        empty = [s for s, p in state.seats.items() if p is None]
        if empty:
            raise LiveRefused(409, "seats-open", f"live game #{gid} waits for players in "
                              f"the seats {', '.join(empty)}: no move before they are taken")
        game = state.replayed()
        try:
            spelled = game.play(written, state.roll)
        except LiveError as exc:
            raise _refused(exc) from None
        _record_move(archive, state, seat, spelled, now)
        _study_moves(archive, state, now, rng)
        _after(archive, state, now, rng)
        _REPLAYED.put(gid, game)
        if state.status != "playing":  # (the end writes the clocks as they were)
            return _locked(archive, gid)
        return state  # (as the archive now holds it: _bump)


def _record_move(archive: Archive, state: LiveState, seat: str, spelled: str,
                 now: float) -> None:
    ply = len(state.moves) + 1
    archive.db.execute("INSERT INTO live_moves (live, ply, seat, move, made) VALUES "
                       "(?, ?, ?, ?, ?)", (state.id, ply, seat, spelled, now))
    state.moves.append((seat, spelled, now))
    if state.clock is not None and state.turn_started is not None:
        left = state.clocks.get(seat, 0.0) - (now - state.turn_started)
        state.clocks[seat] = left + state.clock.increment
    state.turn_started = now


def _study_moves(archive: Archive, state: LiveState, now: float,
                 rng: random.Random) -> None:
    """The study players whose turn it is play, one after the other."""
    from zrec.research.study import seat_players

    game = state.replayed()
    while (seat := game.to_move()) is not None:
        player = state.seats.get(seat)
        if player is None or not player.startswith(STUDY):
            return
        choose = seat_players(game.engine, (player[len(STUDY):],))[0]
        faces = game.chance()
        roll = None if faces is None else tuple(rng.randint(1, n) for n in faces)
        chosen = choose(game.engine, game.position, roll, rng)
        if chosen is None:
            return
        _record_move(archive, state, seat, game.play_chosen(chosen), now)


def start_study(archive: Archive, gid: int, now: float | None = None,
                rng: random.Random | None = None) -> LiveState:
    """A game whose first turns are study players': they play them (once every seat
    is taken); the game after."""
    now = time.time() if now is None else now
    rng = rng or random.Random(secrets.randbits(128))
    with _changing(archive):
        state = _locked(archive, gid)
        seat = state.to_move()
        player = None if seat is None else state.seats.get(seat)
        if player is None or not player.startswith(STUDY) or None in state.seats.values():
            return state
        _study_moves(archive, state, now, rng)
        _after(archive, state, now, rng)
        return _locked(archive, gid)


def listen(db: str, heard: Callable[[int, int | None], None], stop: threading.Event
           ) -> None:
    """Call ``heard`` with the id and the new version of every live game changed in
    the PostgreSQL archive ``db`` (``NOTIFY zrec_live``, sent by the transaction that
    changed it; the version ``None`` when the note does not say it), until ``stop`` is
    set; a lost connection is made again a second later."""
    import psycopg

    while not stop.is_set():
        try:
            with psycopg.connect(db, autocommit=True, connect_timeout=10) as conn:
                conn.execute(f"LISTEN {CHANNEL}")
                while not stop.is_set():
                    for note in conn.notifies(timeout=1.0):
                        parts = note.payload.split()
                        if 1 <= len(parts) <= 2 and all(p.isdigit() for p in parts):
                            heard(int(parts[0]),
                                  int(parts[1]) if len(parts) == 2 else None)
        except psycopg.Error:
            stop.wait(1.0)


def _after(archive: Archive, state: LiveState, now: float, rng: random.Random) -> None:
    """After moves: the game over by rule, or the next turn's roll."""
    game = state.replayed()
    ended = game.outcome()
    if ended is not None:
        _finish(archive, state, ended[0], "normal")
        return
    _bump(archive, state, roll=_roll(game, rng), draw_offer=None, draw_agreed=None,
          turn_started=state.turn_started,
          clocks=None if state.clock is None else json.dumps(state.clocks))


def act(archive: Archive, gid: int, user: str, action: str,
        now: float | None = None) -> LiveState:
    """A player's ``resign``, ``draw-offer``, ``draw-accept`` or ``abort`` (also the
    game's maker's, seated or not: a game made for others that nobody began); the
    game after.  Raises :class:`LiveRefused`."""
    now = time.time() if now is None else now
    if action not in ACTIONS:
        raise LiveRefused(400, "bad-action", f"action: {action!r} is not one of "
                          f"{', '.join(ACTIONS)}")
    with _changing(archive):
        state = _locked(archive, gid)
        _not_broadcast(state)
        mine = _seat_of(state, user)
        if not mine and not (action == "abort" and state.creator == _key(user)):
            # (its maker aborts a game whose seats it kept for others, none taken yet)
            raise LiveRefused(403, "not-your-seat", f"{user} plays no seat of live game "
                              f"#{gid}: only its players {action}")
        if state.status != "playing":
            raise LiveRefused(409, "game-over", f"live game #{gid} is over: it cannot "
                              f"{action}")
        if _timed_out(archive, state, now):
            return state
        game = state.replayed()
        if action == "abort":
            if state.moves:
                raise LiveRefused(409, "too-late", f"live game #{gid} has begun ("
                                  f"{len(state.moves)} moves): abort only before the "
                                  "first move; resign instead")
            _finish(archive, state, "*", "abandoned", keep=False)
        elif action == "resign":
            if not state.moves:
                raise LiveRefused(409, "too-early", f"live game #{gid} has no move yet: "
                                  "abort it instead")
            _finish(archive, state, ended_by(game.seats, mine, parties=game.parties()),
                    "resignation")
        else:
            _draw(archive, state, user, mine, action)
        return _locked(archive, gid)


def _draw(archive: Archive, state: LiveState, user: str, mine: list[str],
          action: str) -> None:
    """A draw offered or accepted by ``user`` (its seats ``mine``).  A draw is agreed
    by every party (:meth:`LiveGame.parties`: a seat, or a team as one) that has a
    person in it (a user, or a seat still open); a party of study players alone
    neither agrees nor blocks, so a draw needs two parties of persons.  A draw offered
    while one stands joins it; the offer and its agreements end with the next move."""
    gid = state.id
    game = state.replayed()
    people = [party for party in game.parties()
              if any(not (state.seats.get(seat) or "").startswith(STUDY) for seat in party)]
    if len(people) < 2:
        raise LiveRefused(409, "no-draw", f"live game #{gid} has no other player to agree "
                          "to a draw (study players neither offer nor accept one)")
    offer = state.draw_offer
    if offer is None and action == "draw-accept":
        raise LiveRefused(409, "no-offer", f"no other player of live game #{gid} "
                          "offers a draw")
    agreed = set(state.draw_agreed) if offer is not None else set()
    ours = [party for party in people if set(party) & set(mine)]
    if offer is not None and all(set(party) & agreed for party in ours):
        if action == "draw-offer":
            return  # (offered already: nothing changes)
        if offer in mine:
            raise LiveRefused(409, "no-offer", f"no other player of live game #{gid} "
                              "offers a draw")
        raise LiveRefused(409, "agreed-already", f"{user} agreed to the draw of live game "
                          f"#{gid} already: it waits for {_waiting(people, agreed)}")
    agreed |= set(mine)
    if all(set(party) & agreed for party in people):
        _finish(archive, state, ended_by(game.seats, draw=True), "agreement")
        return
    ordered = [seat for seat in game.seats if seat in agreed]
    _bump(archive, state, draw_offer=offer or mine[0], draw_agreed=json.dumps(ordered))


def _waiting(people: list[tuple[str, ...]], agreed: set[str]) -> str:
    """The parties that have not agreed to a draw yet, in words (a team: its seats
    joined with ``+``)."""
    return ", ".join("+".join(party) for party in people if not set(party) & agreed)


def live_games(archive: Archive, status: str | None = "playing", event: str | None = None,
               limit: int = 200) -> list[dict[str, Any]]:
    """The live games (the latest first; an event's: in the order they were made, a
    round's boards in order): id, game, seats, the players the record names (its seat
    tags), plies, status, result, event, round and whether it is a broadcast."""
    where, args = [], []
    if status is not None:
        where.append("g.status = ?")
        args.append(status)
    if event is not None:
        where.append("g.event = ?")
        args.append(event)
    sql = ("SELECT g.id, g.game, g.status, g.result, g.event, g.round, g.stored, "
           "(SELECT count(*) FROM live_moves m WHERE m.live = g.id), g.tags, g.broadcast "
           "FROM live_games g"
           + (" WHERE " + " AND ".join(where) if where else "")
           + (" ORDER BY g.id " if event is not None else " ORDER BY g.id DESC ")
           + "LIMIT ?")
    rows = archive.db.rows(sql, (*args, limit))
    ids = [int(r[0]) for r in rows]
    seats: dict[int, dict[str, str | None]] = {}
    for start in range(0, len(ids), 500):
        part = ids[start:start + 500]
        marks = ",".join("?" * len(part))
        for live, seat, player in archive.db.rows(
            f"SELECT live, seat, player FROM live_seats WHERE live IN ({marks}) "
            "ORDER BY live, idx", part):
            seats.setdefault(int(live), {})[str(seat)] = None if player is None else str(player)
    out = []
    for r in rows:
        held = seats.get(int(r[0]), {})
        named = dict(json.loads(r[8]))
        out.append({"id": int(r[0]), "game": str(r[1]), "status": str(r[2]),
                    "result": str(r[3]), "event": r[4], "round": r[5], "game_id": r[6],
                    "ply": int(r[7]), "seats": held,
                    "names": {seat: str(named.get(seat, "?")) for seat in held},
                    "broadcast": bool(r[9])})
    return out


# -- broadcasts: a game recorded on the recording board, followed live ------------------

#: the tags of a record that are not the broadcast game's own (written at its end)
_END_TAGS = ("Result", "Termination")


def _broadcast_record(text: str) -> tuple[list[tuple[str, str]], list[str], str, str | None]:
    """The tags, the main line's moves, the result and the termination of a record
    sent by the recording board; :class:`LiveRefused` ``bad-record``."""
    from zrec.notation.reader import read_game

    try:
        game = read_game(text, "record")
    except ZrecError as exc:
        raise LiveRefused(400, "bad-record", f"record: {exc}") from None
    tags = [(n, v) for n, v in game.tags if n not in _END_TAGS]
    termination = dict(game.tags).get("Termination")
    return tags, [node.turn.text() for node in game.line.moves], game.result, termination


def broadcast(archive: Archive, arbiter: str, text: str, now: float | None = None) -> int:
    """A live game that follows a game recorded on the recording board by ``arbiter``:
    its tags, players and hidden setup are the record's (``text``), it is marked a
    broadcast (its moves and its end come only from :func:`recorded`), the arbiter
    holds every seat (its live games count it), and the moves already recorded are
    played, all in one transaction (a record refused leaves no game); its id.  Raises
    :class:`LiveRefused`."""
    now = time.time() if now is None else now
    tags, moves, _, _ = _broadcast_record(text)
    try:
        started = LiveGame(tags)
    except LiveError as exc:
        raise _refused(exc) from None
    values = dict(tags)
    with archive.db.transaction(lock=True):
        _import_lock(archive)  # (first: the rows it locks after are its own)
        if _playing(archive, _key(arbiter)) >= MAX_LIVE:
            raise LiveRefused(429, "too-many-games", f"{arbiter} already plays or made "
                              f"{MAX_LIVE} live games that are not over: finish one first")
        gid = archive.db.insert(
            "INSERT INTO live_games (game, tags, status, creator, created, event, round, "
            "broadcast) VALUES (?, ?, 'playing', ?, ?, ?, ?, 1) RETURNING id",
            (started.replay.rules.name, json.dumps(tags, ensure_ascii=False),
             _key(arbiter), now, values.get("Event"), values.get("Round")))
        for idx, seat in enumerate(started.seats):
            archive.db.execute(
                "INSERT INTO live_seats (live, seat, idx, player, norm) VALUES (?, ?, ?, ?, ?)",
                (gid, seat, idx, arbiter, _key(arbiter)))
        _notify(archive, gid, 0)
        if moves:
            recorded(archive, gid, arbiter, text, now)
    return gid


def is_broadcast(state: LiveState) -> bool:
    """Whether the live game follows a recording board (made by :func:`broadcast`, so
    marked in the archive: a game whose maker holds every seat is not one)."""
    return state.broadcast


def recorded(archive: Archive, gid: int, arbiter: str, text: str,
             now: float | None = None) -> LiveState:
    """The record of the broadcast ``gid`` as the arbiter's recording board has it now:
    its new moves at the end of the main line are played (their dice as written), and
    a result other than ``*`` ends the game (stored as an import); the game after.
    Moves already broadcast are not changed.  Raises :class:`LiveRefused`."""
    now = time.time() if now is None else now
    tags, moves, result, termination = _broadcast_record(text)
    with _changing(archive):
        state = _locked(archive, gid)
        if not is_broadcast(state):
            raise LiveRefused(409, "not-a-broadcast", f"live game #{gid} is not a broadcast"
                              f" of a recorded game: its moves are sent by its players "
                              f"(POST /api/live/{gid}/move)")
        if state.creator != _key(arbiter):
            raise LiveRefused(403, "not-your-seat", f"live game #{gid} is not a broadcast "
                              f"of {arbiter}'s: only its arbiter records it")
        if state.status != "playing":
            raise LiveRefused(409, "game-over", f"live game #{gid} is over ({state.result}):"
                              " no move is taken")
        if tags != state.tags:
            raise LiveRefused(409, "record-changed", f"record: its tags are not those of "
                              f"live game #{gid}: a broadcast keeps the tags it began with")
        for ply, ((_, done, _), sent) in enumerate(zip(state.moves, moves, strict=False), 1):
            if done != sent:
                raise LiveRefused(409, "record-changed", f"record: move {ply} is {sent}, "
                                  f"but the broadcast has {done}: moves already broadcast "
                                  "are not changed")
        if len(moves) < len(state.moves):
            raise LiveRefused(409, "record-changed", f"record: {len(moves)} moves, but the "
                              f"broadcast has {len(state.moves)}: moves already broadcast "
                              "are not taken back")
        game = state.replayed()
        for sent in moves[len(state.moves):]:
            seat = game.to_move()
            try:
                spelled = game.play(sent)
            except LiveError as exc:
                raise _refused(exc) from None
            _record_move(archive, state, seat or "", spelled, now)
        ended = game.outcome()
        if result != "*":
            said = termination or "normal"
            if said == "normal" and (ended is None or ended[0] != result):
                by_rule = "the game is not over" if ended is None else f"it ends {ended[0]}"
                raise LiveRefused(400, "bad-result", f"record: the result {result} is not "
                                  f"the rules' ({by_rule} after {len(state.moves)} moves): "
                                  "write how it ended in a Termination tag (resignation, "
                                  "agreement, adjudication...)")
            _finish(archive, state, result, said)
            if state.stored is None:  # (the whole change is undone)
                raise LiveRefused(400, "bad-record", f"record: live game #{gid} ended "
                                  f"{result} ({said}) cannot be stored: "
                                  f"{state.not_stored or 'check its record'}")
        elif ended is not None:
            _finish(archive, state, ended[0], "normal")
        else:
            _bump(archive, state, turn_started=state.turn_started)
        return _locked(archive, gid)
