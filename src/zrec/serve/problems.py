"""The error a route answers with (:class:`ApiError`), apart from how it is answered
(:mod:`zrec.serve.errors`), so that who-may-do-what (:mod:`zrec.serve.access`) can
raise it without importing the pages."""

from __future__ import annotations

__all__ = ["ApiError"]


class ApiError(Exception):
    """An error a route answers with: its HTTP status, code and message, and headers
    of the answer (``Retry-After``)."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.headers = headers or {}

    def __reduce__(self) -> tuple[type[ApiError], tuple[int, str, str, dict[str, str]]]:
        # (raised in a worker process of :mod:`zrec.serve.work`, sent back pickled)
        return type(self), (self.status, self.code, self.message, self.headers)
