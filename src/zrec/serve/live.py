"""Live games: two people (or five) play in their browsers, spectators follow.

The API (the names are kept exactly; organisers' scripts use them):

- ``POST /api/live`` with ``{"game", "options", "seats": {SEAT: USER or null},
  "clock"}`` (a logged-in user with the CSRF token, or an API token; optionally
  ``"event"`` and ``"round"``) makes a game and answers ``{"id", "seats": {SEAT:
  URL}}``: each seat's link.  A seat given the maker is theirs at once; a seat given
  another user is kept for them, who takes it by opening its link logged in (``POST
  /api/live/{id}/seat``), and no move is taken before every person's seat is taken
  (an arbiter's round put online seats its players at once); ``null`` is open
  (whoever opens its link and is logged in takes it), and
  ``"study:greedy"`` (``random``, ``greedy``, ``mcts:N``, ``alphabeta:D``, with the
  budgets of :data:`LIVE_BUDGETS`) is a study player, whose moves the server makes;
- ``POST /api/live/{id}/move`` with ``{"move": TEXT}`` (only the user of the seat to
  move) or ``{"action": "resign" | "draw-offer" | "draw-accept" | "abort"}`` (not on
  a broadcast: ``409 broadcast``);
- ``POST /api/live/broadcast`` with ``{"record"}`` (a game recorded on the recording
  board, followed live) and ``POST /api/live/{id}/record`` with the record after each
  change: a broadcast's moves and end come only from there;
- ``GET /api/live/{id}``: ``{"record", "to_move", "status", "result", ...}``;
- ``GET /api/live/{id}/stream``: Server-Sent Events, an ``event: move`` for each move
  as it is made (its ``id`` the ply, so that a client that reconnects with
  ``Last-Event-ID`` gets the moves it missed, and goes on), and an ``event: state``
  (the game as ``GET /api/live/{id}`` answers it) after every change;
- ``GET /api/live``: the live games; ``/live`` and ``/live/{id}``: their pages.

Why Server-Sent Events and not WebSocket: what goes to the browser is one way (the
moves, pushed), what comes back is a few small writes that must be checked as every
other write is (the session's CSRF token or an API token, the size of the body, the
limits per user), and those are plain ``POST`` requests through the same middleware
as the rest of the API.  SSE is a plain HTTP response that Starlette streams and
uvicorn's h11 protocol serves as any other (the connection limits of
:mod:`zrec.serve.connections` hold), the browser's ``EventSource`` reconnects by
itself and sends ``Last-Event-ID``, and nothing new is needed: WebSocket would need a
second protocol library in uvicorn, and its own checks of origin, size and rate.

Where the state is: in the archive (:mod:`zrec.archive.live`), never only in a
process.  A stream is woken by a change made through its own process (which hands
it the game as the change's transaction committed it: :meth:`Hub.publish`), by
PostgreSQL's ``NOTIFY`` from any worker process (one listening connection a process,
:func:`zrec.archive.live.listen`; the game is then read from the archive when the
note's version is newer than what the stream has), when the clock of the seat to
move runs out, and every :data:`KEEP_ALIVE` seconds anyway (a comment line keeps
proxies from closing the connection); but for a change its own process handed it,
it reads the game from the archive each time.  On SQLite one process serves
(``zrec serve`` refuses ``--workers`` above 1 for a SQLite archive), and writes one
move at a time, in the order they came.

Limits: anonymous users watch only (``401 login-needed`` for a write); a player moves
only for its own seat (``403 not-your-seat``, ``409 not-your-turn``); a user plays at
most :data:`zrec.archive.live.MAX_LIVE` games at once (``429 too-many-games``; a
round's boards put online count for their players, not the arbiter) and
sends at most :data:`MOVES_PER_SECOND` moves or actions a second to a server process
(``429 too-many-requests``); a message is at most :data:`MAX_MESSAGE` bytes
(``413 too-large``); at most :data:`MAX_STREAMS` streams are open in a process at
once (``503 busy``), at most :data:`STREAMS_PER_CLIENT` of one anonymous client
(``429 too-many-requests``).  Every refusal is JSON with a code and a message naming the
place and the reason.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import re
import threading
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from zrec.archive import Archive, ArchiveError
from zrec.archive import live as store
from zrec.serve.access import Caller, caller, client_key, needs
from zrec.serve.errors import ERROR, ApiError
from zrec.serve.opening import Reader, Writer, reading, settings_of, writing
from zrec.serve.templating import render

__all__ = ["KEEP_ALIVE", "LIVE_BUDGETS", "MAX_MESSAGE", "MAX_STREAMS", "MOVES_PER_SECOND",
           "STREAMS_PER_CLIENT", "router"]

router = APIRouter()
log = logging.getLogger("zrec.serve")
Player = Annotated[Caller, Depends(needs("play"))]
GameId = Annotated[int, PathParam(ge=1, le=2**62)]

#: the largest message (request body) of live play, in bytes
MAX_MESSAGE = 4096
#: moves and actions a user may send a second (to one server process)
MOVES_PER_SECOND = 5
#: seconds between two comment lines of a quiet stream (and two reads of its game)
KEEP_ALIVE = 15.0
#: streams open at once in one server process
MAX_STREAMS = 400
#: streams an anonymous client (its address, as the pool of expensive work counts
#: clients) may have open at once in one process: a few anonymous clients cannot take
#: every stream and leave the players none
STREAMS_PER_CLIENT = 8
#: the streams' reads, and the moves' writes, under way at once in one process
READS_AT_ONCE, WRITES_AT_ONCE = 8, 16
#: the largest budget of each search player in a live seat (its moves are made while
#: the game's row is locked)
LIVE_BUDGETS = {"mcts": 100, "alphabeta": 2}


class LiveRequest(BaseModel):
    """A new live game."""

    game: str = Field(max_length=40)
    options: dict[str, str] = Field(default_factory=dict, max_length=20)
    seats: dict[str, str | None] = Field(max_length=8)
    clock: str | None = Field(None, max_length=20)
    event: str | None = Field(None, max_length=200)
    round: str | None = Field(None, max_length=20)


class MoveRequest(BaseModel):
    """A move (``move``) or an action (``action``): exactly one."""

    move: str | None = Field(None, max_length=1000)
    action: str | None = Field(None, max_length=20)


class SeatRequest(BaseModel):
    """The seat to take."""

    seat: str = Field(max_length=40)


# -- what wakes the streams of this process -----------------------------------------


class Hub:
    """The streams of this process waiting for a change of a live game: each waits on
    an :class:`asyncio.Event` of its own, set by :meth:`poke` (from the event loop's
    thread) or :meth:`poke_from_thread` (the PostgreSQL listener's thread).

    A change made by this process is handed to its streams with the poke
    (:meth:`publish`): the game as the transaction that made it committed it, and what
    ``GET /api/live/{id}`` answers for it, so that a stream does not read the game
    back nor write its record again (a move's stream read it: a third of a move's
    time).  A stream takes it only when its version is newer than the one it has, and
    reads the archive whenever another process announced a newer version still
    (:attr:`heard`, from ``NOTIFY``) or it woke for another reason (the clock, the
    keep-alive): the archive stays what a stream follows, this is only the last
    state this process wrote."""

    def __init__(self) -> None:
        self.waiting: dict[int, set[asyncio.Event]] = collections.defaultdict(set)
        #: game -> (its state, its JSON) as this process's last change of it left it
        self.latest: dict[int, tuple[store.LiveState, dict[str, Any]]] = {}
        #: game -> the newest version another process announced (``NOTIFY``)
        self.heard: dict[int, int] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.listener: threading.Thread | None = None
        self.stop = threading.Event()
        self.open = 0
        #: client -> its streams open (:data:`STREAMS_PER_CLIENT`)
        self.clients: collections.Counter[str] = collections.Counter()
        #: user -> when their last moves and actions came (:data:`MOVES_PER_SECOND`)
        self.sent: dict[str, collections.deque[float]] = {}
        self.sent_lock = threading.Lock()
        self._reads: asyncio.Semaphore | None = None
        self._writes: asyncio.Semaphore | None = None

    def reads(self) -> asyncio.Semaphore:
        """The streams' reads of their games under way at once in this process: as many
        as the connections it keeps (a PostgreSQL connection costs the server a process,
        and 200 streams woken at once opened more than it allows)."""
        if self._reads is None:
            self._reads = asyncio.Semaphore(READS_AT_ONCE)
        return self._reads

    def writes(self, dialect: str) -> asyncio.Semaphore:
        """The moves written at once in this process: on SQLite one (a SQLite archive
        has one writer at a time: writers let in together waited for its lock in
        SQLite's busy handler, which sleeps up to 100 ms between tries, and that was
        the largest part of a move's delay at 200 games: p50 1.1 s), taken in the order
        they came; on PostgreSQL :data:`WRITES_AT_ONCE` (moves of different games lock
        different rows)."""
        if self._writes is None:
            self._writes = asyncio.Semaphore(1 if dialect == "sqlite" else WRITES_AT_ONCE)
        return self._writes

    def poke(self, gid: int) -> None:
        for event in self.waiting.get(gid, ()):
            event.set()

    def publish(self, gid: int, state: store.LiveState, shown: dict[str, Any]) -> None:
        """The game as a change this process made (and committed) left it, ``shown``
        its JSON: handed to the game's streams, which are woken."""
        if gid in self.waiting:
            kept = self.latest.get(gid)
            if kept is None or kept[0].version < state.version:
                self.latest[gid] = (state, shown)
        self.poke(gid)

    def fresh(self, gid: int, version: int
              ) -> tuple[store.LiveState, dict[str, Any]] | None:
        """The game as this process last changed it, if that is newer than
        ``version`` and no other process announced a newer one still; else ``None``
        (read the archive)."""
        kept = self.latest.get(gid)
        if kept is None or kept[0].version <= version:
            return None
        if self.heard.get(gid, -1) > kept[0].version:
            return None
        return kept

    def heard_from(self, gid: int, version: int | None) -> None:
        """Another process (or this one) changed the game: its version ``version``
        (``None``: not said, so always newer).  The note of a change this process
        made and handed its streams already (:meth:`publish`) wakes nobody."""
        if gid not in self.waiting:
            return
        seen = 2**62 if version is None else version
        self.heard[gid] = max(self.heard.get(gid, -1), seen)
        kept = self.latest.get(gid)
        if kept is None or kept[0].version < seen:
            self.poke(gid)

    def poke_from_thread(self, gid: int, version: int | None = None) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.heard_from, gid, version)

    def leave(self, gid: int, woken: asyncio.Event) -> None:
        """A stream of the game ends: what is kept for the game's streams goes with
        the last."""
        self.waiting[gid].discard(woken)
        if not self.waiting[gid]:
            del self.waiting[gid]
            self.latest.pop(gid, None)
            self.heard.pop(gid, None)

    def listen(self, db: str) -> None:
        """Start this process's PostgreSQL listener (once)."""
        self.loop = asyncio.get_running_loop()
        if self.listener is None or not self.listener.is_alive():
            self.listener = threading.Thread(
                target=store.listen, args=(db, self.poke_from_thread, self.stop),
                daemon=True, name="zrec-live-listen")
            self.listener.start()


def hub_of(request: Request) -> Hub:
    """The application's hub (made with it: :func:`zrec.serve.app.create_app`)."""
    hub: Hub = request.app.state.live_hub
    return hub


# -- limits ---------------------------------------------------------------------------

def _rate(request: Request, who: Caller) -> None:
    """429 when the user sent :data:`MOVES_PER_SECOND` moves in the last second (to
    this process's application: its :class:`Hub` counts them)."""
    now = time.monotonic()
    key = (who.name or "").casefold()
    hub = hub_of(request)
    with hub.sent_lock:
        sent = hub.sent
        times = sent.setdefault(key, collections.deque())
        while times and times[0] <= now - 1.0:
            times.popleft()
        if len(times) >= MOVES_PER_SECOND:
            raise ApiError(429, "too-many-requests", f"{who.name} sent {MOVES_PER_SECOND} "
                           "moves or actions in the last second: wait a moment",
                           headers={"Retry-After": "1"})
        times.append(now)
        if len(sent) > 10_000:  # (users gone quiet are forgotten)
            for name in [k for k, v in sent.items() if not v or v[-1] <= now - 1.0]:
                del sent[name]


async def _message(request: Request, model: type[Any]) -> Any:
    from zrec.serve.board_records import parsed

    body = await request.body()
    if len(body) > MAX_MESSAGE:
        raise ApiError(413, "too-large", f"a message of live play is at most {MAX_MESSAGE} "
                       f"bytes, not {len(body)}")
    return parsed(model, body)


def _refused(exc: store.LiveRefused) -> ApiError:
    headers = {"Retry-After": "60"} if exc.status == 429 else {}
    return ApiError(exc.status, exc.code, exc.message, headers=headers)


# -- the API ----------------------------------------------------------------------------


def _seat_players(archive: Archive, seats: dict[str, str | None]) -> dict[str, str | None]:
    """The seats with each user's name as stored and each study player checked."""
    from zrec.serve.accounts import find_user
    from zrec.serve.board_player import web_player

    out: dict[str, str | None] = {}
    for seat, player in seats.items():
        if player is None or not player.strip():
            out[seat] = None
        elif player.startswith(store.STUDY):
            try:
                spec = web_player(player[len(store.STUDY):])
            except ApiError as exc:
                raise ApiError(400, "bad-seats", f"seats.{seat}: {exc.message}") from None
            name, _, budget = spec.partition(":")
            most = LIVE_BUDGETS.get(name)
            if most is not None and int(budget.split(":")[0]) > most:
                raise ApiError(400, "bad-seats", f"seats.{seat}: in a live game, {name} "
                               f"searches with a budget of at most {most}")
            out[seat] = store.STUDY + spec
        else:
            user = find_user(archive, player)
            if user is None:
                raise ApiError(400, "bad-seats", f"seats.{seat}: there is no user "
                               f"{player!r} on this server")
            out[seat] = user.name
    return out


def _create(archive: Archive, who: Caller, asked: LiveRequest) -> int:
    seats = _seat_players(archive, asked.seats)
    tags = [("Event", asked.event or "Live games"), ("Round", asked.round or "-")]
    try:
        gid = store.create(archive, who.name or "", asked.game, asked.options, seats,
                           asked.clock, tags, event=asked.event, round_=asked.round)
    except store.LiveRefused as exc:
        raise _refused(exc) from None
    return gid


def seat_links(request: Request, gid: int, seats: Any) -> dict[str, str]:
    from zrec.serve.templating import url_part

    base = str(request.base_url).rstrip("/")
    return {seat: f"{base}/live/{gid}?seat={url_part(seat)}" for seat in seats}


@router.post("/api/live", tags=["live"], summary="Make a live game",
             responses={400: ERROR, 401: ERROR, 403: ERROR, 413: ERROR, 429: ERROR})
async def post_live(request: Request, who: Player, archive: Writer) -> Response:
    asked = await _message(request, LiveRequest)
    gid = await run_in_threadpool(_create, archive, who, asked)
    state = await run_in_threadpool(store.load, archive, gid)
    hub_of(request).poke(gid)
    return JSONResponse({"id": gid, "seats": seat_links(request, gid, state.seats)},
                        status_code=201)


def _move(archive: Archive, who: Caller, gid: int, asked: MoveRequest
          ) -> tuple[store.LiveState, dict[str, Any]]:
    try:
        if asked.move is not None:
            state = store.move(archive, gid, who.name or "", asked.move)
        else:
            state = store.act(archive, gid, who.name or "", asked.action or "")
    except store.LiveRefused as exc:
        raise _refused(exc) from None
    return state, state.to_json()


@router.post("/api/live/{gid}/move", tags=["live"],
             summary="A move, or resign / draw-offer / draw-accept / abort",
             responses={400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR, 409: ERROR,
                        413: ERROR, 429: ERROR})
async def post_move(request: Request, who: Player, gid: GameId) -> Response:
    asked = await _message(request, MoveRequest)
    if (asked.move is None) == (asked.action is None):
        raise ApiError(400, "bad-request", "body: give either a move ({\"move\": TEXT}) or "
                       "an action ({\"action\": \"resign\"}), not both or neither")
    _rate(request, who)
    hub = hub_of(request)
    async with hub.writes(settings_of(request).dialect):
        state, answer = await run_in_threadpool(_written, request, _move, who, gid, asked)
    hub.publish(gid, state, answer)
    return JSONResponse(answer)


#: read-write connections this process keeps for the moves of live games, by archive
#: (a move opened one: on PostgreSQL a new server process a move)
_WRITERS: dict[str, list[Archive]] = {}
_writers_lock = threading.Lock()


def _idle_writer(db: str) -> Archive | None:
    """A kept read-write connection to ``db``, open and in no transaction, its cached
    dictionaries dropped (another process may have added some)."""
    with _writers_lock:
        idle = _WRITERS.get(db, [])
        while idle:
            archive = idle.pop()
            if _idle_ok(archive):
                archive.texts.forget()
                return archive
            archive.close()
    return None


def _idle_ok(archive: Archive) -> bool:
    conn = archive.db.conn
    try:
        if archive.db.dialect == "sqlite":
            return not conn.in_transaction
        return not (conn.closed or conn.broken) and conn.info.transaction_status == 0
    except Exception:  # (closed) noqa: BLE001
        return False


def _written(request: Request, change: Any, *args: Any) -> Any:
    """``change(archive, *args)`` on the archive read-write: a connection this process
    keeps for the moves (at most :data:`WRITES_AT_ONCE`), or a new one; a connection
    whose change failed is closed, not kept."""
    settings = settings_of(request)
    archive = _idle_writer(settings.db) or Archive.open(settings.db, wait=settings.wait)
    kept = False
    try:
        done = change(archive, *args)
        with _writers_lock:
            idle = _WRITERS.setdefault(settings.db, [])
            if len(idle) < WRITES_AT_ONCE and _idle_ok(archive):
                idle.append(archive)
                kept = True
        return done
    finally:
        if not kept:
            archive.close()


def _take(archive: Archive, who: Caller, gid: int, seat: str
          ) -> tuple[store.LiveState, dict[str, Any]]:
    try:
        state = store.take_seat(archive, gid, seat, who.name or "")
    except store.LiveRefused as exc:
        raise _refused(exc) from None
    return state, state.to_json()


@router.post("/api/live/{gid}/seat", tags=["live"], summary="Take an open seat",
             responses={400: ERROR, 401: ERROR, 404: ERROR, 409: ERROR, 429: ERROR})
async def post_seat(request: Request, who: Player, gid: GameId) -> Response:
    asked = await _message(request, SeatRequest)
    _rate(request, who)
    hub = hub_of(request)
    async with hub.writes(settings_of(request).dialect):
        state, answer = await run_in_threadpool(_written, request, _take, who, gid,
                                                asked.seat)
    hub.publish(gid, state, answer)
    return JSONResponse(answer)


def current(request: Request, archive: Archive, gid: int) -> store.LiveState:
    """The game now: ended on time first if its clock ran out (a reader's request
    writes that, once)."""
    try:
        state = store.load(archive, gid)
        seat = state.to_move()
        if (seat is not None and state.clock is not None and state.turn_started is not None
                and state.left(time.time()).get(seat, 1.0) <= 0):
            with writing(settings_of(request)) as writer:
                store.settle(writer, gid)
            state = store.load(archive, gid)
    except store.LiveRefused as exc:
        raise _refused(exc) from None
    return state


@router.get("/api/live/{gid}", tags=["live"], summary="A live game now",
            responses={404: ERROR})
async def get_live(request: Request, archive: Reader, gid: GameId) -> Response:
    state = await run_in_threadpool(current, request, archive, gid)
    return JSONResponse(state.to_json())


#: a face-down token's own name in a drawing (``data-piece="c1"``: a calf): scrubbed
_FACE_DOWN = re.compile(r'(<[^>]*\bclass="piece token face-down[^"]*"[^>]*?) '
                        r'data-piece="[^"]*"')


def position_of(text: str, roll: str | None, clicks: str | None) -> dict[str, Any]:
    """The board of a live game's record (the whole record: the server's) as
    ``POST /api/position`` answers it, with nothing in it that no seat may see: a
    face-down token is drawn without its name."""
    from zrec.serve.board import position_json

    answer = position_json(text.encode("utf-8"), None, roll, clicks)
    if answer.get("view"):
        answer["view"] = _FACE_DOWN.sub(r"\1", answer["view"])
    return answer


@router.get("/api/live/{gid}/position", tags=["live"],
            summary="The board of a live game now, for the page (the clicks of a move)",
            responses={400: ERROR, 404: ERROR, 429: ERROR, 503: ERROR})
async def live_position(request: Request, archive: Reader, gid: GameId,
                        clicks: Annotated[str | None, Query(max_length=4000)] = None
                        ) -> Response:
    from zrec.serve.board_records import Invalid
    from zrec.serve.work import run

    state = await run_in_threadpool(current, request, archive, gid)
    roll = None if state.roll is None else "".join(map(str, state.roll))
    try:
        answer = await run(request, position_of, state.record(), roll, clicks)
    except Invalid as exc:
        return exc.answer
    answer["version"] = state.version
    return JSONResponse(answer)


@router.get("/api/live", tags=["live"], summary="The live games (the latest first)")
async def list_live(archive: Reader, status: str = "playing") -> Response:
    wanted = None if status == "all" else status
    if wanted not in (None, "playing", "over"):
        raise ApiError(400, "bad-request", f"status: playing, over or all, not {status!r}")
    return JSONResponse(await run_in_threadpool(store.live_games, archive, wanted))


def _sse(event: str, data: Any, ident: int | None = None) -> str:
    head = f"id: {ident}\n" if ident is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def _read(request: Request, gid: int) -> store.LiveState:
    with reading(settings_of(request).db) as archive:
        return current(request, archive, gid)


@router.get("/api/live/{gid}/stream", tags=["live"],
            summary="Server-Sent Events: each move of a live game as it is made",
            responses={404: ERROR, 503: ERROR})
async def stream(request: Request, gid: GameId, after: int | None = None) -> Response:
    hub = hub_of(request)
    given = request.headers.get("last-event-id", "")
    sent = int(given) if given.isdigit() else (after if after is not None else 0)
    state = await run_in_threadpool(_read, request, gid)  # (404 before the stream)
    if hub.open >= MAX_STREAMS:
        raise ApiError(503, "busy", f"this server follows {MAX_STREAMS} live games at "
                       "once already: try again in a moment", headers={"Retry-After": "5"})
    # an anonymous client (its address) follows a few games at once; a logged-in one,
    # answerable for what they do, up to the process's streams
    client = client_key(request) if caller(request).name is None else ""
    if client and hub.clients[client] >= STREAMS_PER_CLIENT:
        raise ApiError(429, "too-many-requests", f"this client follows {STREAMS_PER_CLIENT} "
                       "live games at once already: close one first",
                       headers={"Retry-After": "5"})
    if settings_of(request).dialect == "postgresql":
        hub.listen(settings_of(request).db)

    async def events() -> AsyncIterator[str]:
        nonlocal sent, state
        woken = asyncio.Event()
        hub.waiting[gid].add(woken)
        hub.open += 1
        hub.clients[client] += 1
        version, shown = -1, None
        try:
            yield "retry: 1000\n\n"
            while True:
                for ply, (seat, text, _) in enumerate(state.moves, 1):
                    if ply > sent:
                        yield _sse("move", {"ply": ply, "seat": seat, "move": text}, ply)
                sent = max(sent, len(state.moves))
                if state.version != version:
                    version = state.version
                    yield _sse("state", state.to_json() if shown is None else shown)
                if state.status != "playing":
                    return
                wait = KEEP_ALIVE
                moving = state.to_move()
                if moving is not None and state.clock is not None and state.turn_started:
                    wait = min(wait, state.left(time.time()).get(moving, wait) + 0.05)
                try:
                    await asyncio.wait_for(woken.wait(), max(wait, 0.05))
                except asyncio.TimeoutError:
                    yield ": keep-alive\n\n"
                woken.clear()  # (before reading: a change made while it reads wakes it again)
                kept = hub.fresh(gid, state.version)
                if kept is not None:
                    state, shown = kept
                    continue
                shown = None
                try:
                    async with hub.reads():
                        state = await run_in_threadpool(_read, request, gid)
                except ArchiveError as exc:  # (read again a second later)
                    log.warning("live game #%d: the stream could not read it: %s", gid, exc)
                    yield ": the archive could not be read; trying again\n\n"
                    await asyncio.sleep(1.0)
                    woken.set()
        finally:
            hub.open -= 1
            hub.clients[client] -= 1
            if not hub.clients[client]:
                del hub.clients[client]
            hub.leave(gid, woken)

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


class RoundRequest(BaseModel):
    """A paired round to play online, and its clock."""

    round: int = Field(ge=1, le=999)
    clock: str | None = Field(None, max_length=20)


Recorder = Annotated[Caller, Depends(needs("record"))]


def _online(archive: Archive, who: Caller, name: str, asked: RoundRequest
            ) -> list[tuple[int, int, dict[str, str | None]]]:
    """A live game for each board of the round without a result or a live game yet:
    (board, id, seats), made in one transaction (a board refused leaves none made)."""
    with archive.db.transaction(lock=True):
        return _round_games(archive, who, name, asked)


def _round_games(archive: Archive, who: Caller, name: str, asked: RoundRequest
                 ) -> list[tuple[int, int, dict[str, str | None]]]:
    from zrec.serve.accounts import find_user
    from zrec.serve.events import loaded
    from zrec.serve.results import recording

    event = loaded(archive, name)
    found = recording(archive, event)
    if found is None or found.refused:
        why = found.refused if found else "no game of the event gives the game and options"
        raise ApiError(400, "bad-round", f"{event.name}: {why}")
    boards = [b for b in found.boards if b.round == asked.round]
    if not boards:
        raise ApiError(400, "bad-round", f"round: {event.name} has no board of round "
                       f"{asked.round} without a result (zrec archive pair pairs a round)")
    playing = {g["round"] for g in store.live_games(archive, "playing", event=event.name,
                                                    limit=10_000)}
    made = []
    for board in boards:
        if board.value in playing:
            continue
        seats: dict[str, str | None] = {}
        for seat, player in zip(found.seats, board.players, strict=True):
            user = find_user(archive, player)
            seats[seat] = None if user is None else user.name
        try:
            gid = store.create(
                archive, who.name or "", found.game, found.options, seats, asked.clock,
                [("Event", event.name), ("Round", board.value), *(
                    (seat, player) for seat, player in zip(found.seats, board.players,
                                                           strict=True))],
                event=event.name, round_=board.value, paired=True, seat_others=True)
        except store.LiveRefused as exc:
            raise _refused(exc) from None
        made.append((board.board, gid, seats))
    return made


@router.post("/api/events/{name:path}/live", tags=["live"],
             summary="A live game for each board of a paired round",
             responses={400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR, 413: ERROR})
async def post_round(request: Request, who: Recorder, archive: Writer, name: str
                     ) -> Response:
    asked = await _message(request, RoundRequest)
    made = await run_in_threadpool(_online, archive, who, name, asked)
    hub = hub_of(request)
    for _, gid, _ in made:
        hub.poke(gid)
    return JSONResponse({"round": asked.round, "games": [
        {"board": board, "id": gid, "players": seats,
         "seats": seat_links(request, gid, seats)} for board, gid, seats in made]},
        status_code=201)


# -- broadcasts of the recording board --------------------------------------------------

#: the largest record a recording board sends to its broadcast, in bytes
MAX_RECORD = 256 * 1024


class RecordRequest(BaseModel):
    """The record as the recording board has it."""

    record: str = Field(max_length=MAX_RECORD)


async def _record_message(request: Request) -> RecordRequest:
    from zrec.serve.board_records import parsed

    body = await request.body()
    if len(body) > MAX_RECORD + 1024:
        raise ApiError(413, "too-large", f"a broadcast's record is at most {MAX_RECORD} "
                       f"bytes, not {len(body)}")
    return parsed(RecordRequest, body)


def _broadcast(archive: Archive, who: Caller, text: str) -> int:
    try:
        return store.broadcast(archive, who.name or "", text)
    except store.LiveRefused as exc:
        raise _refused(exc) from None


@router.post("/api/live/broadcast", tags=["live"],
             summary="Broadcast a game recorded on the recording board",
             responses={400: ERROR, 401: ERROR, 403: ERROR, 413: ERROR, 429: ERROR})
async def post_broadcast(request: Request, who: Player, archive: Writer) -> Response:
    asked = await _record_message(request)
    _rate(request, who)
    gid = await run_in_threadpool(_broadcast, archive, who, asked.record)
    hub_of(request).poke(gid)
    base = str(request.base_url).rstrip("/")
    return JSONResponse({"id": gid, "url": f"{base}/live/{gid}"}, status_code=201)


def _recorded(archive: Archive, who: Caller, gid: int, text: str
              ) -> tuple[store.LiveState, dict[str, Any]]:
    try:
        state = store.recorded(archive, gid, who.name or "", text)
    except store.LiveRefused as exc:
        raise _refused(exc) from None
    return state, state.to_json()


@router.post("/api/live/{gid}/record", tags=["live"],
             summary="The record of a broadcast as the recording board has it now",
             responses={400: ERROR, 401: ERROR, 403: ERROR, 404: ERROR, 409: ERROR,
                        413: ERROR, 429: ERROR})
async def post_record(request: Request, who: Player, gid: GameId) -> Response:
    asked = await _record_message(request)
    _rate(request, who)
    hub = hub_of(request)
    async with hub.writes(settings_of(request).dialect):
        state, answer = await run_in_threadpool(_written, request, _recorded, who, gid,
                                                asked.record)
    hub.publish(gid, state, answer)
    return JSONResponse(answer)


# -- pages --------------------------------------------------------------------------------


@router.get("/live", response_class=HTMLResponse, include_in_schema=False)
def live_page(request: Request, archive: Reader) -> Response:
    from zrec.serve.new_games import games_offered

    return render(request, "live_list.html", title="Live games",
                  games=store.live_games(archive, "playing"),
                  over=store.live_games(archive, "over", limit=20),
                  offered=games_offered())


@router.post("/live", include_in_schema=False)
async def live_form(request: Request, who: Player, archive: Writer) -> Response:
    """The form of ``/live``: a game, its seats (``SEAT=USER`` a line) and clock."""
    from fastapi.responses import RedirectResponse

    form = await request.form()
    seats: dict[str, str | None] = {}
    for line in str(form.get("seats", "")).splitlines():
        seat, sep, player = line.partition("=")
        if not seat.strip():
            continue
        if not sep:
            raise ApiError(400, "bad-seats", f"seats: {line.strip()!r} is not SEAT=USER")
        seats[seat.strip()] = player.strip() or None
    asked = LiveRequest(game=str(form.get("game", "")), seats=seats,
                        clock=str(form.get("clock", "")).strip() or None,
                        event=str(form.get("event", "")).strip()[:200] or None,
                        round=str(form.get("round", "")).strip()[:20] or None)
    gid = await run_in_threadpool(_create, archive, who, asked)
    hub_of(request).poke(gid)
    state = await run_in_threadpool(store.load, archive, gid)
    mine = [s for s, p in state.seats.items() if p is not None
            and p.casefold() == (who.name or "").casefold()]
    where = f"/live/{gid}" + (f"?seat={mine[0]}" if mine else "")
    return RedirectResponse(where, status_code=303)


@router.get("/live/{gid}", response_class=HTMLResponse, include_in_schema=False)
def live_game_page(request: Request, archive: Reader, gid: GameId,
                   seat: str | None = None) -> Response:
    state = current(request, archive, gid)
    title = f"Live game #{gid}" + (f": {state.event}" if state.event else "") + (
        f", round {state.round}" if state.round else "")
    held = [p for p in state.seats.values() if p is not None]
    return render(request, "live.html", title=title, state=state, seat=seat or "",
                  links=seat_links(request, gid, state.seats),
                  arbiter=held[0] if state.broadcast and held else None)
