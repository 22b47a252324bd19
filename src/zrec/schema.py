"""Checking JSON games against the schema: the only module that imports jsonschema.

The schema ships inside the package (``zrec/_data``, from ``schemas/``).  Errors
name the JSON path of the offending value, e.g. ``$[2].moves[0].move``.  jsonschema is
imported at the first check, not with this module: commands that read no JSON never
pay for it.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from zrec.errors import ZrecError
from zrec.resources import schema

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator


class SchemaError(ZrecError, ValueError):
    """A JSON document that is not a valid zrec game (or list of games)."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


@cache
def validator() -> Draft202012Validator:
    """The validator of one game."""
    from jsonschema import Draft202012Validator

    loaded = schema()
    Draft202012Validator.check_schema(loaded)
    return Draft202012Validator(loaded)


def _join(prefix: str, path: str) -> str:
    return prefix + path[1:] if path.startswith("$") else prefix + path


def _message(error: Any) -> str:
    """The schema's complaint in words, where jsonschema's own would be cryptic."""
    if error.validator == "contains" and error.json_path.endswith(".tags"):
        return 'every game needs a ["Game", "..."] tag naming what game it records'
    if error.validator == "not" and error.json_path.endswith(".text"):
        return "a brace comment cannot contain '}'"
    if error.validator == "dependentRequired":
        return '"dots" is only allowed with "number"'
    return str(error.message)


def check_game(value: Any, path: str = "$") -> None:
    """Raise :class:`SchemaError` (with the JSON path) unless ``value`` is a valid game."""
    from jsonschema.exceptions import best_match

    error = best_match(validator().iter_errors(value))
    if error is not None:
        raise SchemaError(_join(path, error.json_path), _message(error))


def is_valid(value: Any) -> bool:
    """Whether ``value`` is a valid game."""
    return bool(validator().is_valid(value))
