"""Games as JSON values and back, losing nothing (the contract is the JSON Schema).

:func:`game_to_json` gives plain dicts and lists ready for :func:`json.dumps`;
:func:`game_from_json` takes such a value, already checked against the schema by
:mod:`zrec.notation.json.schema`, and rebuilds the game.  Each move carries its text (``move``)
and, for programs, the same move taken apart (``actions``, ``dice``); on input the
text is what counts, and the parts, when given, must agree with it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import islice
from typing import Any

from zrec.errors import ZrecError
from zrec.moves import Action, Turn
from zrec.notation.model import MAX_VARIATION_DEPTH, Comment, Game, Line, MoveNode

FORMAT = "zrec-game/1"

JSONValue = Any


class JsonGameError(ZrecError, ValueError):
    """A JSON game that the schema accepts but that is still not a valid record."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def _comment(c: Comment) -> dict[str, str]:
    return {"text": c.text, "kind": c.kind}


def _action(a: Action) -> dict[str, JSONValue]:
    out: dict[str, JSONValue] = {"kind": a.kind}
    if a.kind == "path":
        out["squares"] = list(a.squares)
        out["seps"] = list(a.seps)
        out["vias"] = list(a.vias)
    elif a.kind == "drop":
        out["piece"] = a.piece
        out["squares"] = list(a.squares)
    return out


def _node(node: MoveNode) -> dict[str, JSONValue]:
    out: dict[str, JSONValue] = {"move": node.turn.text()}
    if node.number is not None:
        out["number"] = node.number
        out["dots"] = node.dots
    if node.turn.dice is not None:
        out["dice"] = {"values": list(node.turn.dice.values), "option": node.turn.dice.option}
    out["actions"] = [_action(a) for a in node.turn.actions]
    if node.suffix:
        out["suffix"] = node.suffix
    if node.nags:
        out["nags"] = list(node.nags)
    if node.comments_before:
        out["comments_before"] = [_comment(c) for c in node.comments_before]
    if node.comments_after:
        out["comments_after"] = [_comment(c) for c in node.comments_after]
    if node.variations:
        out["variations"] = [_line(v) for v in node.variations]
    return out


def _line(line: Line) -> dict[str, JSONValue]:
    out: dict[str, JSONValue] = {"moves": [_node(n) for n in line.moves]}
    if line.comments:
        out["comments"] = [_comment(c) for c in line.comments]
    return out


def game_to_json(game: Game) -> dict[str, JSONValue]:
    """A game as a JSON value (see ``schemas/zrec-game.schema.json``)."""
    out: dict[str, JSONValue] = {
        "format": FORMAT,
        "tags": [[name, value] for name, value in game.tags],
        **_line(game.line),
        "result": game.result,
    }
    return out


def game_json_text(game: Game, moves: int = 256) -> Iterator[str]:
    """``json.dumps(game_to_json(game), ensure_ascii=False)`` in pieces: the main line
    of a game longer than ``moves`` moves goes ``moves`` at a time, so a long game's
    JSON is never whole in memory.  The pieces joined are that text exactly."""
    line = game.line
    if len(line.moves) <= moves:
        yield json.dumps(game_to_json(game), ensure_ascii=False)
        return
    tags = [[name, value] for name, value in game.tags]
    yield f'{{"format": {_dumps(FORMAT)}, "tags": {_dumps(tags)}, "moves": ['
    walked = iter(line.moves)  # once through: a long game's moves are made as walked
    for start in range(0, len(line.moves), moves):
        nodes = _dumps([_node(node) for node in islice(walked, moves)])
        yield (", " if start else "") + nodes[1:-1]  # the elements of a list, as it has them
    comments = [_comment(c) for c in line.comments]
    more = f', "comments": {_dumps(comments)}' if comments else ""
    yield f']{more}, "result": {_dumps(game.result)}}}'


def _dumps(value: JSONValue) -> str:
    return json.dumps(value, ensure_ascii=False)


def _comments(values: list[dict[str, str]] | None) -> tuple[Comment, ...]:
    return tuple(Comment(c["text"], c.get("kind", "brace")) for c in values or ())  # type: ignore[arg-type]


def node_from_json(value: dict[str, JSONValue], path: str) -> MoveNode:
    """A move (schema-valid) of a line; raises :class:`JsonGameError`."""
    from zrec.notation.grammar import parse_turn_text  # Lark's terminals: only for JSON read

    try:
        turn = parse_turn_text(value["move"])
    except ValueError as exc:
        raise JsonGameError(f"{path}.move", str(exc)) from None
    if "actions" in value:
        given = Turn(
            tuple(_action_from(a) for a in value["actions"]),
            turn.dice,
        )
        if given != turn:
            raise JsonGameError(
                f"{path}.actions", f"the actions do not agree with the move {value['move']!r}"
            )
    if "dice" in value:
        dice = value["dice"]
        if (
            turn.dice is None
            or list(turn.dice.values) != dice["values"]
            or (turn.dice.option != dice.get("option"))
        ):
            raise JsonGameError(
                f"{path}.dice", f"the dice do not agree with the move {value['move']!r}"
            )
    return MoveNode(
        turn,
        value.get("number"),
        value.get("dots", 1),
        value.get("suffix"),
        tuple(value.get("nags", ())),
        _comments(value.get("comments_before")),
        _comments(value.get("comments_after")),
        tuple(
            _line_from(v, f"{path}.variations[{i}]")
            for i, v in enumerate(value.get("variations", ()))
        ),
    )


def _action_from(value: dict[str, JSONValue]) -> Action:
    kind = value["kind"]
    squares = tuple(value.get("squares", ()))
    if kind == "path":
        vias = tuple(value.get("vias", (None,) * (len(squares) - 1)))
        return Action("path", squares, tuple(value.get("seps", ())), vias)
    if kind == "drop":
        return Action("drop", squares, piece=value.get("piece"))
    return Action(kind)


def _line_from(value: dict[str, JSONValue], path: str) -> Line:
    moves = tuple(node_from_json(n, f"{path}.moves[{i}]") for i, n in enumerate(value["moves"]))
    return line_from_parts(moves, value.get("comments"), path)


def line_from_parts(
    moves: tuple[MoveNode, ...], comments: list[dict[str, str]] | None, path: str
) -> Line:
    """The line of these moves (each read by :func:`node_from_json`) and the comments
    of the line's own; raises :class:`JsonGameError`."""
    for i, node in enumerate(moves[1:], 1):
        if node.comments_before and node.number is None:
            raise JsonGameError(
                f"{path}.moves[{i}].comments_before",
                "a move other than the first of its line has comments before it only "
                "after a move number; put them in comments_after of the move before",
            )
    if moves and comments:
        raise JsonGameError(
            f"{path}.comments", "only a line with no moves has comments of its own"
        )
    return Line(moves, _comments(comments))


def check_depth(value: JSONValue, path: str = "$") -> None:
    """Refuse variations nested deeper than the text form allows (before the schema
    check, which would itself recurse that deep); raises :class:`JsonGameError`."""
    todo: list[tuple[JSONValue, str, int]] = [(value, path, 0)]
    while todo:
        line, where, depth = todo.pop()
        if depth > MAX_VARIATION_DEPTH:
            raise JsonGameError(
                where, f"variations are nested more than {MAX_VARIATION_DEPTH} deep"
            )
        moves = line.get("moves") if isinstance(line, dict) else None
        if not isinstance(moves, list):
            continue
        for i, node in enumerate(moves):
            variations = node.get("variations") if isinstance(node, dict) else None
            if isinstance(variations, list):
                for j, variation in enumerate(variations):
                    todo.append((variation, f"{where}.moves[{i}].variations[{j}]", depth + 1))


def game_from_json(value: dict[str, JSONValue], path: str = "$") -> Game:
    """The game a schema-valid JSON value describes; raises :class:`JsonGameError`."""
    tags = tuple((name, text) for name, text in value["tags"])
    return Game(tags, _line_from(value, path), value["result"])
