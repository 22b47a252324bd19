"""The budget of one piece of work: a deadline and a flag to stop it, checked by the
long loops as they go.

The server (:mod:`zrec.serve.work`) runs a request's expensive work under a budget:
:func:`limited` arms one for the thread, and the loops that may run long (the replay
walker, a move at a time) call :func:`current` once and then :meth:`Budget.check` at
each step.  A budget that is spent (its time is up, or its flag was raised because
the client left) raises :class:`Stopped` there, a :class:`BaseException`, so that no
``except Exception`` on the way turns it into an ordinary error.  With no budget
armed (the commands), :func:`current` is ``None`` and the loops do not check.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

__all__ = ["Budget", "Flag", "Stopped", "current", "limited"]


class Flag(Protocol):
    """A flag another process may raise (a shared ``multiprocessing`` value): not 0
    once raised."""

    value: int


class Stopped(BaseException):
    """The work's budget is spent: ``reason`` is ``"time"`` (its deadline passed) or
    ``"cancelled"`` (its flag was raised)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Budget:
    """A deadline (:func:`time.monotonic`) and a flag."""

    __slots__ = ("deadline", "flag")

    def __init__(self, deadline: float, flag: Flag | None = None) -> None:
        self.deadline, self.flag = deadline, flag

    def spent(self) -> str | None:
        """Why the budget is spent (``"cancelled"``, ``"time"``), or ``None``."""
        if self.flag is not None and self.flag.value:
            return "cancelled"
        if time.monotonic() > self.deadline:
            return "time"
        return None

    def check(self) -> None:
        """Raises :class:`Stopped` once the budget is spent."""
        reason = self.spent()
        if reason is not None:
            raise Stopped(reason)


class _Armed(threading.local):
    budget: Budget | None = None


_local = _Armed()


def current() -> Budget | None:
    """The budget of this thread's work, or ``None`` (none armed)."""
    return _local.budget


@contextmanager
def limited(seconds: float, flag: Flag | None = None) -> Iterator[Budget]:
    """A budget of ``seconds`` from now (and ``flag``) for this thread's work within
    the block."""
    before = current()
    _local.budget = budget = Budget(time.monotonic() + seconds, flag)
    try:
        yield budget
    finally:
        _local.budget = before
