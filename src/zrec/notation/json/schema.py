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


@cache
def _part_validator(name: str) -> Draft202012Validator:
    """The validator of one part of a game: ``node`` (a move of a line, variations and
    all) or ``tag`` (a tag pair), as the schema defines them in ``$defs``."""
    from jsonschema import Draft202012Validator

    loaded = schema()
    return Draft202012Validator(
        {"$schema": loaded["$schema"], "$defs": loaded["$defs"], "$ref": f"#/$defs/{name}"}
    )


#: the parts found valid so far, by their ``repr``: a file repeats the same moves, the
#: same tag pairs and the same game around them again and again.  (Not their JSON
#: text, which is the same for a list and a tuple, or for a character and its
#: surrogate pair: values the schema tells apart.)
_VALID: dict[str, set[str]] = {"game": set(), "tag": set(), "node": set()}


def _known_valid(kind: str, value: Any, check: Any) -> bool:
    key = repr(value)
    seen = _VALID[kind]
    if key in seen:
        return True
    if not check(value):
        return False
    if len(seen) > 20_000:
        seen.clear()
    seen.add(key)
    return True


def _number_free(node: Any) -> Any:
    """A move as its check sees it: a move number that the schema takes (an integer
    from 1 to 999999) counts as 1, since nothing else in a move depends on it."""
    number = node.get("number") if isinstance(node, dict) else None
    if type(number) is int and 1 <= number <= 999_999:
        return {**node, "number": 1}
    return node


def _surely_valid(value: Any) -> bool:
    """Whether ``value`` is a valid game, known faster than by checking it whole.

    The schema's keywords on a game look into its main line and its tag pairs only
    through ``items`` (each move, each tag pair on its own) and ``contains`` (a Game
    tag pair): so a game is valid when the game with no moves and only its Game tag
    pairs is valid, and each move and each tag pair is.  Each is checked once, the
    first time it is seen.  ``False`` only means: check the game whole
    (which gives the error to report)."""
    if not isinstance(value, dict):
        return False
    tags, moves = value.get("tags"), value.get("moves")
    if not isinstance(tags, list) or not isinstance(moves, list):
        return False
    games = [t for t in tags if isinstance(t, list) and t[:1] == ["Game"]]
    if not _known_valid("game", {**value, "tags": games, "moves": []}, validator().is_valid):
        return False
    tag = _part_validator("tag").is_valid
    if not all(_known_valid("tag", t, tag) for t in tags):
        return False
    node = _part_validator("node").is_valid
    return all(_known_valid("node", _number_free(n), node) for n in moves)


def check_game(value: Any, path: str = "$") -> None:
    """Raise :class:`SchemaError` (with the JSON path) unless ``value`` is a valid game."""
    if _surely_valid(value):
        return
    from jsonschema.exceptions import best_match

    error = best_match(validator().iter_errors(value))
    if error is not None:
        raise SchemaError(_join(path, error.json_path), _message(error))


def is_valid(value: Any) -> bool:
    """Whether ``value`` is a valid game."""
    return bool(validator().is_valid(value))
