"""The canonical text of a game: what ``zrec fmt`` prints.

Tag pairs one a line in their order, a blank line, then the movetext filled to at
most 79 columns and ended by the result.  Move numbers are printed as the record
has them (the notation knows no game's turn order).  Reading what this writes
gives back an equal :class:`~zrec.notation.model.Game`, so formatting is idempotent.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from zrec.moves import Turn
from zrec.notation.model import Comment, Game, Line, MoveNode
from zrec.notation.plainmoves import PlainMoves

WIDTH = 79
#: about how many characters :func:`game_text` hands out at a time
CHUNK = 1 << 16

# An atom of movetext: its text, whether it must be glued to the next atom, and
# whether a line break must follow it (after a ";" comment).
_Atom = tuple[str, bool, bool]


def escape_tag_value(value: str) -> str:
    """A tag value with ``\\`` and ``"`` escaped."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def tag_line(name: str, value: str) -> str:
    """``[Name "value"]``."""
    return f'[{name} "{escape_tag_value(value)}"]'


def _comment_atoms(comment: Comment) -> Iterator[_Atom]:
    if comment.kind == "line":
        yield (f"; {comment.text}" if comment.text else ";", False, True)
        return
    words = comment.text.split(" ") if comment.text else []
    if len(words) <= 1:
        yield ("{" + comment.text + "}", False, False)
        return
    yield ("{" + words[0], False, False)
    yield from ((w, False, False) for w in words[1:-1])
    yield (words[-1] + "}", False, False)


def move_number(node: MoveNode) -> str:
    """The move number written before a move, as the record has it: ``12.``, ``12...``
    (``""``: none)."""
    if node.number is None:
        return ""
    return f"{node.number}{'...' if node.dots == 3 else '.'}"


def move_text(node: MoveNode) -> str:
    """A move as written, with its suffix: ``b4xb6!``, ``2413e: a1-a3, b2-b4``."""
    return node.turn.text() + (node.suffix or "")


def _move_atoms(node: MoveNode, first: bool) -> Iterator[_Atom]:
    # Comments before a later move can only stand between its number and the move;
    # before the first move of a line they read better ahead of the number.
    if first:
        for comment in node.comments_before:
            yield from _comment_atoms(comment)
    if node.number is not None:
        # glued: a move number never ends a line when its move follows at once
        glue = first or not node.comments_before
        yield (move_number(node), glue, False)
    if not first:
        for comment in node.comments_before:
            yield from _comment_atoms(comment)
    turn = node.turn
    if turn.dice is not None:
        yield (turn.dice.text(), False, False)
    actions = turn.actions
    for i, action in enumerate(actions):
        last = i == len(actions) - 1
        text = action.text() + ("" if last else ",")
        if last and node.suffix:
            text += node.suffix
        yield (text, False, False)
    for nag in node.nags:
        yield (f"${nag}", False, False)
    for comment in node.comments_after:
        yield from _comment_atoms(comment)
    for variation in node.variations:
        yield from _variation_atoms(variation)


def _line_atoms(line: Line) -> Iterator[_Atom]:
    for comment in line.comments:
        yield from _comment_atoms(comment)
    for i, node in enumerate(line.moves):
        yield from _move_atoms(node, i == 0)


def _variation_atoms(line: Line) -> Iterator[_Atom]:
    inner = list(_line_atoms(line))
    if not inner:
        yield ("()", False, False)
        return
    first_text, _, first_break = inner[0]
    inner[0] = ("(" + first_text, False, first_break)
    text, glue, brk = inner[-1]
    if brk:  # a ";" comment runs to the line end: the ")" goes on the next line
        yield from inner
        yield (")", False, False)
        return
    inner[-1] = (text + ")", glue, brk)
    yield from inner


def _fill(atoms: Iterable[_Atom], width: int = WIDTH) -> Iterator[str]:
    """The lines of the movetext, one at a time (the atoms are read as they come)."""
    current = ""
    held = ""  # an atom glued to the next one: they go on one line together
    for text, glue, brk in atoms:
        if held:
            text, held = f"{held} {text}", ""
        if glue and not brk:
            held = text
            continue
        if current and len(current) + 1 + len(text) > width:
            yield current
            current = text
        else:
            current = f"{current} {text}" if current else text
        if brk:
            yield current
            current = ""
    if held:
        current = f"{current} {held}" if current else held
    if current:
        yield current


def _atoms(game: Game) -> Iterator[_Atom]:
    yield from _line_atoms(game.line)
    yield (game.result, False, False)


def movetext_lines(game: Game, width: int = WIDTH) -> list[str]:
    """The movetext and result, filled to ``width`` columns."""
    return list(_fill(_atoms(game), width))


def _plain_lines(game: Game, width: int = WIDTH) -> list[str] | None:
    """What :func:`_fill` makes of a main line of plain moves (no comments, NAGs,
    suffixes, variations or dice; most records), made without its atoms: a word a
    move, its number glued to it, filled the same way.  ``None`` for any other line.
    The import writes every record it stores: this took writing the 5,000 random games
    of the archive benchmark from 0.51 s to 0.35 s of CPU."""
    line = game.line
    moves = line.moves
    if line.comments or not game.result:
        return None
    if isinstance(moves, PlainMoves) and moves.texts is not None:  # the words as read
        words = [
            text if number is None else f"{number}{'...' if dots == 3 else '.'} {text}"
            for text, number, dots in zip(moves.texts, moves.numbers, moves.dots, strict=True)
        ]
        words.append(game.result)
        return _filled(words, width)
    if isinstance(moves, PlainMoves):  # plain moves as read: no node is made
        nodes: Iterable[tuple[Turn, int | None, int]] = zip(
            moves.turns, moves.numbers, moves.dots, strict=True
        )
    elif isinstance(moves, tuple):
        for node in moves:
            if (
                node.variations
                or node.comments_before
                or node.comments_after
                or node.nags
                or node.suffix
            ):
                return None
        nodes = ((node.turn, node.number, node.dots) for node in moves)
    else:  # (a very long game is written a piece at a time: game_text)
        return None
    words = []
    for turn, number, dots in nodes:
        if turn.dice is not None or len(turn.actions) != 1:
            return None
        action = turn.actions[0]
        seps = action.seps
        if action.kind == "path" and seps and seps.count(seps[0]) == len(seps):
            # no jumped point written: what Action.text() gives, in one call
            text = action.text() if any(action.vias) else seps[0].join(action.squares)
        else:
            text = action.text()
        if number is not None:
            text = f"{number}{'...' if dots == 3 else '.'} {text}"
        words.append(text)
    words.append(game.result)
    return _filled(words, width)


def _filled(words: list[str], width: int) -> list[str]:
    """Words joined by spaces into lines of at most ``width`` columns (a longer word
    alone on its line), as :func:`_fill` fills atoms."""
    lines = []
    current = words[0]
    size = len(current)
    for word in words[1:]:
        if size + 1 + len(word) > width:
            lines.append(current)
            current = word
            size = len(word)
        else:
            current = f"{current} {word}"
            size += 1 + len(word)
    lines.append(current)
    return lines


def _game_lines(game: Game) -> Iterator[str]:
    """The canonical text of one game a line at a time, each with its newline."""
    for name, value in game.tags:
        yield tag_line(name, value) + "\n"
    if game.tags:
        yield "\n"
    plain = _plain_lines(game)
    for line in plain if plain is not None else _fill(_atoms(game)):
        yield line + "\n"


def write_game(game: Game) -> str:
    """The canonical text of one game, ending with a newline."""
    return "".join(_game_lines(game))


def write_games(games: Iterable[Game]) -> Iterator[str]:
    """The canonical text of several games, a blank line between them."""
    for i, game in enumerate(games):
        yield ("\n" if i else "") + write_game(game)


def game_text(game: Game, size: int = CHUNK) -> Iterator[str]:
    """:func:`write_game` in pieces of whole lines, each about ``size`` characters at
    most: a long game is written without its whole text in memory."""
    lines: list[str] = []
    held = 0
    for line in _game_lines(game):
        lines.append(line)
        held += len(line)
        if held >= size:
            yield "".join(lines)
            lines.clear()
            held = 0
    if lines:
        yield "".join(lines)


def games_text(games: Iterable[Game], size: int = CHUNK) -> Iterator[str]:
    """:func:`write_games` in pieces (:func:`game_text`): the same text, joined."""
    for i, game in enumerate(games):
        if i:
            yield "\n"
        yield from game_text(game, size)
