"""Checking JSON games against the schema: the only module that imports jsonschema.

The schema ships inside the package (``zrec/_data``, from ``schemas/``).  Errors
name the JSON path of the offending value, e.g. ``$[2].moves[0].move``.  jsonschema is
imported at the first check, not with this module: commands that read no JSON never
pay for it.
"""

from __future__ import annotations

from functools import cache, lru_cache
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


#: The keywords the short way of :func:`_surely_valid` relies on, where it relies on
#: them: the game's own keywords, those of its ``tags`` property and those of the list of
#: moves.  tests/test_schema_fast.py fails when the schema uses any other keyword there,
#: so that a new keyword cannot silently make the short way wrong.
GAME_KEYWORDS = frozenset(
    (
        "$schema",
        "$id",
        "title",
        "description",
        "type",
        "required",
        "additionalProperties",
        "properties",
    )
)
TAGS_KEYWORDS = frozenset(("description", "type", "items", "contains"))
MOVES_KEYWORDS = frozenset(("description", "type", "items"))


def _freeze(value: Any) -> Any:
    """A hashable value that stands for a JSON value and tells apart every two values
    the schema may tell apart (a list from a tuple, ``1`` from ``1.0`` and ``True``)."""
    kind = type(value)
    if kind is dict:
        return ("object", tuple((k, _freeze(v)) for k, v in value.items()))
    if kind is list or kind is tuple:
        return (kind.__name__, tuple(_freeze(v) for v in value))
    return (kind.__name__, value)


def _thaw(frozen: Any) -> Any:
    kind, value = frozen
    if kind == "object":
        return {k: _thaw(v) for k, v in value}
    if kind == "list":
        return [_thaw(v) for v in value]
    if kind == "tuple":
        return tuple(_thaw(v) for v in value)
    return value


@lru_cache(maxsize=32_768)
def _valid_part(kind: str, frozen: Any) -> bool:
    """Whether a part of a game (``game`` without its moves, ``tag``, ``node``) is valid;
    a file repeats the same moves and tag pairs again and again: each is checked once."""
    check = validator() if kind == "game" else _part_validator(kind)
    return bool(check.is_valid(_thaw(frozen)))


def _known_valid(kind: str, value: Any) -> bool:
    try:
        frozen = _freeze(value)
        hash(frozen)
    except TypeError:  # not a JSON value: the whole check says what is wrong
        return False
    return _valid_part(kind, frozen)


def number_free(node: Any) -> Any:
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
    tag pair; see :data:`GAME_KEYWORDS`): so a game is valid when the game with no
    moves and only its Game tag pairs is valid, and each move and each tag pair is.
    Each is checked once, the first time it is seen.  ``False`` only means: check the
    game whole (which gives the error to report)."""
    if not frame_surely_valid(value):
        return False
    return all(node_surely_valid(n) for n in value["moves"])


def frame_surely_valid(value: Any) -> bool:
    """Whether ``value`` is a valid game but for its moves (a list), each of which
    :func:`node_surely_valid` then checks on its own; as :func:`_surely_valid`,
    ``False`` only means: check the game whole."""
    if not isinstance(value, dict):
        return False
    tags, moves = value.get("tags"), value.get("moves")
    if not isinstance(tags, list) or not isinstance(moves, list):
        return False
    games = [t for t in tags if isinstance(t, list) and t[:1] == ["Game"]]
    if not _known_valid("game", {**value, "tags": games, "moves": []}):
        return False
    return all(_known_valid("tag", t) for t in tags)


def node_surely_valid(node: Any) -> bool:
    """Whether a move of a game's main line is valid (checked once for all its
    repetitions); ``False`` only means: check the game whole."""
    return _known_valid("node", number_free(node))


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
