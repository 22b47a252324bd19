"""The recording board's edits of a record, each answering the new record and the node
reached.

An edit takes a record (:class:`~zrec.notation.model.Game`), a node (its moves
numbered in file order, variations included: :mod:`zrec.play.places`; 0 is the start)
and what to do:

- ``play``: a written move at the node, checked legal there by the engine and written
  as the engine spells it; it follows the next move when it is the same move, else
  enters the variation of the next move that starts with it, else is added at the end
  of the line, else starts a new variation of the next move;
- ``comment``: the comment after the move at the node (at 0: before the first move);
  an empty text removes it;
- ``nag``: ``$n`` or a suffix (``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``) on the move
  at the node, taken off when it is there already;
- ``cut``: the move at the node and the rest of its line (a variation left empty goes;
  cutting the main line makes the result ``*`` again, as the game is unfinished);
- ``tags``: tags set (in place, or added at the end) or removed (``None``);
- ``result``: the result and the ``Result`` tag, and the ``Termination`` tag (set just
  after ``Result``, or removed by ``None``);
- ``promote``: the variation holding the node takes the place of the line it branches
  from, which becomes its variation.

Every edited record has its move numbers written again by the one rule
(:func:`zrec.play.walk.written_number`), so :func:`edit` answers the text exactly as
``zrec fmt`` writes it.  Problems are :class:`~zrec.play.board.BoardError` values:
``bad-node``, ``bad-move`` (not a move in the notation), ``illegal-move`` and
``bad-edit``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from zrec.notation.grammar import parse_turn_text
from zrec.notation.model import Comment, Game, Line, MoveNode
from zrec.notation.writer import write_game
from zrec.play.board import BoardError, BoardRecord
from zrec.play.places import Place, check_node, line_at, node_of, places, with_line
from zrec.play.replay import Replay
from zrec.play.walk import Step, Visitor, walk, written_number
from zrec.rules.base import parse_result

__all__ = ["OPS", "SUFFIXES", "edit", "renumber"]

#: The suffixes a move may carry, glued to it.
SUFFIXES = ("!", "?", "!!", "??", "!?", "?!")


def _place(game: Game, at: int) -> Place:
    """The place of node ``at`` (at least 1)."""

    def wrong(total: int) -> BoardError:
        what = f"has moves 1 to {total}" if total else "has no moves"
        return BoardError("bad-node", f"the record {what}, variations included: no node {at}")

    check_node(game.line, at, wrong, first=1)
    return places(game.line)[at - 1]


def _node(root: Line, place: Place) -> MoveNode:
    return line_at(root, place).moves[place[-1]]


def _with_node(root: Line, place: Place, node: MoveNode) -> Line:
    line = line_at(root, place)
    moves = list(line.moves)
    moves[place[-1]] = node
    return with_line(root, place, replace(line, moves=tuple(moves)))


class _Steps(Visitor):
    """Every move of a record as the walker plays it, in file order."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def step(self, step: Step) -> None:
        self.steps.append(step)


def steps_of(replay: Replay, line: Line) -> list[Step]:
    """The walker's step of every move of the line and its variations, in file order
    (node ``k`` is at ``k - 1``); the record was validated, so each is legal."""
    found = _Steps()
    walk(replay, line, found)
    return found.steps


def _written(replay: Replay, steps: Sequence[Step], root: Line, place: Place) -> str:
    step = steps[node_of(root, place) - 1]
    return replay.engine.spell(step.before, step.move).text()


def play(prepared: BoardRecord, at: int, written: str) -> tuple[Game, Place]:
    """The record with ``written`` played after node ``at``, and the move's place."""
    game, replay = prepared.game, prepared.replay
    engine = replay.engine
    pos = prepared.position(at)
    try:
        turn = parse_turn_text(written)
    except ValueError as exc:
        raise BoardError("bad-move", str(exc)) from None
    tried = steps_of(replace(replay, start=pos), Line((MoveNode(turn),)))
    step = tried[0]
    if step.error is not None:
        raise BoardError(
            "illegal-move", f"{written} cannot be played after node {at}: {step.error.reason}"
        )
    move = step.move
    spelled = engine.spell(pos, move)
    text = spelled.text()
    root = game.line
    here = _place(game, at) if at else (-1,)
    above, index = here[:-1], here[-1]
    line = line_at(root, (*above, 0))
    nxt = index + 1
    if nxt < len(line.moves):
        after = line.moves[nxt]
        steps = steps_of(replay, root)
        if _written(replay, steps, root, (*above, nxt)) == text:
            return game, (*above, nxt)
        for v, variation in enumerate(after.variations):
            if variation.moves and _written(replay, steps, root, (*above, nxt, v, 0)) == text:
                return game, (*above, nxt, v, 0)
        grown = replace(after, variations=(*after.variations, Line((MoveNode(spelled),))))
        place = (*above, nxt, len(after.variations), 0)
        return replace(game, line=_with_node(root, (*above, nxt), grown)), place
    node = MoveNode(spelled, comments_before=line.comments if not line.moves else ())
    new = Line((*line.moves, node), () if not line.moves else line.comments)
    return replace(game, line=with_line(root, (*above, nxt), new)), (*above, nxt)


def comment(game: Game, at: int, text: str) -> Game:
    """The record with the comment after node ``at`` (at 0: before the first move)."""
    words = " ".join(text.split())
    if "}" in words:
        raise BoardError("bad-edit", "a comment cannot hold a }")
    said = (Comment(words),) if words else ()
    root = game.line
    if at:
        place = _place(game, at)
        node = replace(_node(root, place), comments_after=said)
        return replace(game, line=_with_node(root, place, node))
    if not root.moves:
        return replace(game, line=replace(root, comments=said))
    node = replace(root.moves[0], comments_before=said)
    return replace(game, line=_with_node(root, (0,), node))


def nag(game: Game, at: int, mark: str) -> Game:
    """The record with the NAG or suffix ``mark`` put on node ``at``, or taken off."""
    if not at:
        raise BoardError("bad-edit", "a NAG goes after a move: node 0 is the start")
    place = _place(game, at)
    node = _node(game.line, place)
    if mark in SUFFIXES:
        node = replace(node, suffix=None if node.suffix == mark else mark)
    elif mark.startswith("$") and mark[1:].isdigit() and int(mark[1:]) <= 255:
        n = int(mark[1:])
        nags = tuple(g for g in node.nags if g != n) if n in node.nags else (*node.nags, n)
        node = replace(node, nags=nags)
    else:
        raise BoardError(
            "bad-edit", f"{mark!r} is no NAG: write $0 to $255 or one of {' '.join(SUFFIXES)}"
        )
    return replace(game, line=_with_node(game.line, place, node))


def _before(place: Place) -> Place | None:
    """The place of the move whose position the move at ``place`` is played from."""
    if place[-1]:
        return (*place[:-1], place[-1] - 1)
    if len(place) == 1:
        return None
    return _before(place[:-2])


def cut(game: Game, at: int) -> tuple[Game, Place | None]:
    """The record without node ``at`` and the rest of its line, and the place of the
    move before it (``None``: the start).  A move with alternatives (variations) is
    replaced by the first of them, which keeps the others, and the place is its own."""
    place = _place(game, at)
    root = game.line
    line = line_at(root, place)
    kept = line.moves[: place[-1]]
    gone = line.moves[place[-1]]
    if gone.variations:  # its first alternative takes its place, the others hang on it
        first = gone.variations[0]
        head = replace(first.moves[0], variations=gone.variations[1:] + first.moves[0].variations)
        moves = (*kept, head, *first.moves[1:])
        return replace(game, line=with_line(root, place, replace(line, moves=moves))), place
    if len(place) == 1:
        game = replace(game, line=replace(root, moves=kept), result="*")
        tags = tuple((k, "*" if k == "Result" else v) for k, v in game.tags if k != "Termination")
        return replace(game, tags=tags), _before(place)
    if kept:
        return replace(game, line=with_line(root, place, replace(line, moves=kept))), _before(
            place
        )
    holder = (*place[:-3], place[-3])  # the move the emptied variation hangs on
    node = _node(root, holder)
    v = place[-2]
    node = replace(node, variations=node.variations[:v] + node.variations[v + 1:])
    return replace(game, line=_with_node(root, holder, node)), _before(place)


def _set_tag(tags: list[tuple[str, str]], name: str, value: str | None, after: str = "") -> None:
    at = next((i for i, (k, _) in enumerate(tags) if k == name), None)
    if value is None:
        if at is not None:
            del tags[at]
    elif at is not None:
        tags[at] = (name, value)
    else:
        anchor = next((i for i, (k, _) in enumerate(tags) if k == after), None)
        tags.insert(len(tags) if anchor is None else anchor + 1, (name, value))


def set_tags(game: Game, changes: Mapping[str, str | None]) -> Game:
    """The record with its tags set or removed."""
    if len(changes) > MAX_TAGS:
        raise BoardError("bad-edit", f"{len(changes)} tags in one edit: at most {MAX_TAGS}")
    tags = list(game.tags)
    for name, value in changes.items():
        if len(name) > 40:
            raise BoardError("bad-edit", "a tag name has at most 40 characters")
        if name == "Result" and value is not None:
            raise BoardError("bad-edit", "the result is set by the result edit, not as a tag")
        if not name.isascii() or not name[:1].isalpha() or not name.replace("_", "").isalnum():
            raise BoardError("bad-edit", f"{name!r} is not a tag name (letters, digits, _)")
        if value is not None and not value.isprintable():
            raise BoardError("bad-edit", f"the value of {name} holds a line break or a control "
                             "character")
        if name == "Game" and value is None:
            raise BoardError("bad-edit", "the Game tag cannot be removed")
        _set_tag(tags, name, value)
    return replace(game, tags=tuple(tags))


def set_result(
    replay: Replay, game: Game, result: str, termination: str | None, change: bool
) -> Game:
    """The record with its result (and ``Result`` tag), and its ``Termination`` tag when
    ``change`` (``None``: removed)."""
    seats = len(replay.engine.seats)
    if result != "*" and parse_result(result, seats) is None:
        raise BoardError("bad-edit", f"{result!r} is not * or a result of {seats} sides")
    tags = list(game.tags)
    _set_tag(tags, "Result", result)
    if change:
        _set_tag(tags, "Termination", termination, after="Result")
    return replace(game, tags=tuple(tags), result=result)


def promote(game: Game, at: int) -> tuple[Game, Place]:
    """The record with the variation holding node ``at`` made the line it branches
    from; the move's new place."""
    place = _place(game, at)
    if len(place) == 1:
        raise BoardError("bad-edit", f"the move at node {at} is on the main line already")
    root = game.line
    holder = (*place[:-3], place[-3])
    parent = line_at(root, holder)
    i, v = place[-3], place[-2]
    old = parent.moves[i]
    variation = old.variations[v]
    demoted = Line((replace(old, variations=()), *parent.moves[i + 1:]))
    others = (*old.variations[:v], demoted, *old.variations[v + 1:])
    first = variation.moves[0]
    first = replace(first, variations=others + first.variations)
    moves = (*parent.moves[:i], first, *variation.moves[1:])
    new_root = with_line(root, holder, replace(parent, moves=moves))
    return replace(game, line=new_root), (*place[:-3], i + place[-1])


def _numbered(replay: Replay, line: Line, steps: Iterator[Step]) -> Line:
    """The line with its numbers written again; ``steps`` gives the walker's step of
    each of its moves and of its variations', in file order."""
    engine = replay.engine
    moves = []
    follows = False  # the first move of a line follows no turn
    for node in line.moves:
        number = engine.move_number(next(steps).before)
        written = written_number(number, follows)
        if written is None and number.turn and (node.number, node.dots) == number[:2]:
            written = number  # (a number the record writes where it may, after a comment)
        moves.append(replace(
            node,
            number=None if written is None else written.number,
            dots=1 if written is None else written.dots,
            variations=tuple(_numbered(replay, v, steps) for v in node.variations),
        ))
        follows = number.turn
    return replace(line, moves=tuple(moves))


def renumber(replay: Replay, game: Game) -> Game:
    """The record with its move numbers written as :func:`written_number` says, a move
    counting as following a turn when the move before it in its line is one (as
    :mod:`zrec.play.selfplay` numbers): a move that opens a round, starts a line or
    follows a move that is not a turn is numbered; another keeps the number the record
    gives it, if any (``12...`` after a comment)."""
    steps = iter(steps_of(replay, game.line))
    return replace(game, line=_numbered(replay, game.line, steps))


def _field(args: Mapping[str, Any], name: str, kind: type) -> Any:
    value = args.get(name)
    if not isinstance(value, kind):
        raise BoardError("bad-edit", f"the edit needs {name!r} as a {kind.__name__}")
    return value


def _apply(prepared: BoardRecord, at: int, op: str, args: Mapping[str, Any]) -> tuple[
    Game, int | Place | None
]:
    game, replay = prepared.game, prepared.replay
    if op == "play":
        return play(prepared, at, _field(args, "move", str))
    if op == "comment":
        return comment(game, at, _field(args, "comment", str)), at
    if op == "nag":
        return nag(game, at, _field(args, "nag", str)), at
    if op == "cut":
        return cut(game, at)
    if op == "tags":
        changes = _field(args, "tags", dict)
        if not all(isinstance(v, str | None) for v in changes.values()):
            raise BoardError("bad-edit", "each tag's value is a string, or null to remove it")
        return set_tags(game, changes), at
    if op == "result":
        termination = args.get("termination")
        if termination is not None and not isinstance(termination, str):
            raise BoardError("bad-edit", "the termination is a string, or null to remove it")
        return set_result(
            replay, game, _field(args, "result", str), termination, "termination" in args
        ), at
    if op == "promote":
        return promote(game, at)
    raise BoardError("bad-edit", f"{op!r} is no edit: the edits are {', '.join(OPS)}")


#: The most tags one ``tags`` edit may set (each is looked up in the record's tags).
MAX_TAGS = 64

#: The edits :func:`edit` makes.
OPS = ("play", "comment", "nag", "cut", "tags", "result", "promote")


def edit(record: Game | BoardRecord, at: int, op: str, args: Mapping[str, Any]) -> tuple[str, int]:
    """The text of the record after the edit ``op`` at node ``at`` (with ``args``, as
    the module says), as ``zrec fmt`` writes it, and the node reached."""
    prepared = record if isinstance(record, BoardRecord) else BoardRecord(record)
    prepared.position(at)  # (a node the record has)
    new, reached = _apply(prepared, at, op, args)
    if op != "tags":  # (tags change no move; a new Game or Setup is for the validator)
        new = renumber(prepared.replay, new)
    if isinstance(reached, tuple):
        reached = node_of(new.line, reached)
    return write_game(new), 0 if reached is None else reached
