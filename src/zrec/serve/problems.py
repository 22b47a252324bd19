"""The error a route answers with (:class:`ApiError`), apart from how it is answered
(:mod:`zrec.serve.errors`), so that who-may-do-what (:mod:`zrec.serve.access`) can
raise it without importing the pages."""

from __future__ import annotations

__all__ = ["ApiError"]


class ApiError(Exception):
    """An error a route answers with: its HTTP status, code and message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
