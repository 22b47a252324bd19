"""How long a client may hold a connection of ``zrec serve``, and how the server stops.

uvicorn's HTTP protocol (h11) closes a connection left idle only after a response (a
connection that never sends a byte, or sends one every few seconds, is kept for ever),
sets no limit on the time a request body may take as a whole, and answers 503 to every
request once as many *connections* as ``limit_concurrency`` are open, idle ones
included.  :class:`Protocol`, the protocol ``zrec serve`` and ``zrec board`` give
uvicorn (its ``http=`` option), keeps uvicorn's parser and adds:

- a connection with no request under way (new, or after a response) that sends
  nothing for :data:`IDLE_TIMEOUT` seconds is closed;
- a request line and headers not complete :data:`HEAD_TIMEOUT` seconds after the
  connection was made or the last response sent are answered 408 and the connection
  closed (a slow sender, one header byte at a time);
- a request body not complete :data:`BODY_DEADLINE` seconds after its headers is
  answered 408 by the application (:class:`zrec.serve.app.Guard`) and, one second
  later, its connection is closed whatever the application did;
- beyond :data:`MAX_REQUESTS` requests being answered at once, 503: requests are
  counted, not connections, so idle sockets do not turn visitors away.

:func:`stopping` wraps the application so that a server told to stop (SIGTERM,
Ctrl-C) exits within :data:`GRACE` + :data:`HARD_EXIT_AFTER` seconds of the signal:
uvicorn waits up to :data:`GRACE` seconds for the requests under way and cancels them;
work in threads cannot be cancelled, so if the process still runs after that, it is
ended (exit 128 + the signal's number, as zrec's commands exit on a signal).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import threading
from types import FrameType
from typing import Any

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.flow_control import service_unavailable
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from zrec.serve.app import BODY_DEADLINE

__all__ = ["BODY_DEADLINE", "GRACE", "HARD_EXIT_AFTER", "HEAD_TIMEOUT", "IDLE_TIMEOUT",
           "MAX_REQUESTS", "Protocol", "served_from_environment", "server_options",
           "stopping"]

#: seconds a connection with no request under way may send nothing
IDLE_TIMEOUT = 5
#: seconds from a connection's start (or its last response) to a complete request head
HEAD_TIMEOUT = 10.0
#: requests answered at once; beyond, 503 at once rather than a queue
MAX_REQUESTS = 500
#: seconds a stopping server waits for the requests under way
GRACE = 5
#: seconds after that before the process ends, whatever its threads still do
HARD_EXIT_AFTER = 3.0

_SLOW_HEAD = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
              b"content-length: %d\r\nconnection: close\r\n\r\n%s")

logger = logging.getLogger("uvicorn.error")


class Protocol(H11Protocol):
    """uvicorn's h11 protocol with the deadlines and the request count of the module
    (the seconds are attributes of the class, so that a test can shorten them)."""

    head_timeout: float = HEAD_TIMEOUT
    body_deadline: float = BODY_DEADLINE

    def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.max_requests = config.limit_concurrency or MAX_REQUESTS
        self.limit_concurrency = None  # (uvicorn's check counts idle connections)
        self.inner_app = self.app
        self.app = self._counted
        self.head_timer: asyncio.TimerHandle | None = None
        self.body_timer: asyncio.TimerHandle | None = None

    async def _counted(self, scope: Any, receive: Any, send: Any) -> None:
        if len(self.tasks) > self.max_requests:  # (this request's task is one of them)
            logger.warning("More than %d requests at once: 503.", self.max_requests)
            await service_unavailable(scope, receive, send)
        else:
            await self.inner_app(scope, receive, send)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler)
        self._follow()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._follow()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timers()
        super().connection_lost(exc)

    def _follow(self) -> None:
        """Arm or disarm the head and body deadlines after the state of the request
        changed (waiting for a head, receiving a body, answering)."""
        if self.transport.is_closing():
            self._stop_timers()
            return
        state = self.conn.their_state
        waiting = state is h11.IDLE and (self.cycle is None or self.cycle.response_complete)
        if waiting:
            if self.head_timer is None:
                self.head_timer = self.loop.call_later(self.head_timeout, self._head_too_slow)
        elif self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None
        if state is h11.SEND_BODY:
            if self.body_timer is None:
                self.body_timer = self.loop.call_later(self.body_deadline + 1,
                                                       self._body_too_slow)
        elif self.body_timer is not None:
            self.body_timer.cancel()
            self.body_timer = None

    def _stop_timers(self) -> None:
        for timer in (self.head_timer, self.body_timer):
            if timer is not None:
                timer.cancel()
        self.head_timer = self.body_timer = None

    def _head_too_slow(self) -> None:
        self.head_timer = None
        if not self.transport.is_closing():
            if self.conn.trailing_data[0]:  # (part of a head came: say why it ends)
                said = f"the request line and headers took more than {self.head_timeout:g} s"
                self.transport.write(_SLOW_HEAD % (len(said), said.encode()))
            self.transport.close()

    def _body_too_slow(self) -> None:
        self.body_timer = None
        if not self.transport.is_closing():
            self.transport.close()


def server_options() -> dict[str, Any]:
    """The options of ``uvicorn.Config`` for the connections (both commands)."""
    return {
        "http": Protocol,
        "timeout_keep_alive": IDLE_TIMEOUT,
        "limit_concurrency": MAX_REQUESTS,
        "timeout_graceful_shutdown": GRACE,
        "h11_max_incomplete_event_size": 64 * 1024,  # request line and headers
        "server_header": False,
    }


class _Stopping:
    """ASGI wrapper: once the application has started (the lifespan's startup, in the
    process's main thread), SIGTERM and SIGINT also start a daemon thread that ends the
    process :data:`GRACE` + :data:`HARD_EXIT_AFTER` seconds later if it has not ended
    by then; uvicorn's own handling of the signal (a graceful stop) goes on as before."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return

        async def receiving() -> Any:
            message = await receive()
            if (message["type"] == "lifespan.startup"
                    and threading.current_thread() is threading.main_thread()):
                for sig in (signal.SIGTERM, signal.SIGINT):
                    signal.signal(sig, _chained(signal.getsignal(sig)))
            return message

        await self.app(scope, receiving, send)


def _chained(before: Any) -> Any:
    """A signal handler that arms the hard exit (once), then calls ``before``."""

    def handler(sig: int, frame: FrameType | None) -> None:
        global _armed
        if not _armed:
            _armed = True
            threading.Thread(target=_exit_later, args=(sig,), daemon=True).start()
        if callable(before):
            before(sig, frame)

    return handler


_armed = False


def _exit_later(sig: int) -> None:
    threading.Event().wait(GRACE + HARD_EXIT_AFTER)
    print(f"zrec: requests still running {GRACE + HARD_EXIT_AFTER:g} s after the server "
          f"was told to stop: stopped without them", file=sys.stderr, flush=True)
    sys.stdout.flush()
    os._exit(128 + sig)


def stopping(app: Any) -> Any:
    """``app`` (an ASGI application) made to end its process soon after it is told to
    stop, work in threads or not."""
    return _Stopping(app)


def served_from_environment() -> Any:
    """The application of each worker process of ``zrec serve --workers N``."""
    from zrec.serve.app import app_from_environment

    return stopping(app_from_environment())
