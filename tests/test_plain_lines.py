"""A common game's main line as the reader holds it (``PlainMoves``) and its check in
one call (``zrec.rules.lines.play_line`` through the walker): no move node is made for
a game with nothing to say, and a game with something to say is reported exactly as
the walker reports it move by move, with the kernel and without it."""

from __future__ import annotations

import pickle
from dataclasses import replace
from pathlib import Path

import pytest

from zrec.check.validate import validate_game
from zrec.moves import WrittenTurns
from zrec.notation.grammar import parse_turn_text
from zrec.notation.model import Game, Line
from zrec.notation.plainmoves import PlainMoves
from zrec.notation.reader import read_records, read_string
from zrec.rules import kernel

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

GAME = """[Game "mosona"]

1. a4-b5 c5xa4 2. b6-b5 a4xc5 3. b7-b6 c6-b7 4. a7xc6 c8xa7 *
"""


def _diagnostics(game: Game) -> list[str]:
    report = validate_game(game, "x.zrec")
    return [d.format() for d in report.diagnostics] + [f"plies={report.plies}"]


def _held_whole(game: Game) -> Game:
    """The same game with its moves a tuple of nodes (as the grammar reads it)."""
    return replace(game, line=Line(tuple(game.line.moves)))


def test_a_common_game_is_held_as_its_turns_and_equals_its_nodes() -> None:
    (record,) = read_string(GAME)
    assert record.game is not None
    moves = record.game.line.moves
    assert isinstance(moves, PlainMoves)
    assert moves.numbers == [1, None, 2, None, 3, None, 4, None]
    assert moves.dots == [1] * 8
    assert moves[1].turn.text() == "c5xa4" and moves[1].span is not None
    assert (moves[1].span.line, moves[1].span.column) == (3, 10)
    assert moves._nodes is None  # one node asked for: the line is not made whole
    nodes = tuple(moves)
    assert moves == nodes and nodes == moves and hash(moves) == hash(nodes)
    assert moves[1:3] == nodes[1:3] and moves[-1] == nodes[-1]
    with pytest.raises(IndexError):
        moves[8]
    assert pickle.loads(pickle.dumps(record.game)) == record.game
    assert _held_whole(record.game) == record.game


@pytest.mark.parametrize("compiled", [True, False])
def test_validating_a_common_game_makes_no_move_node(compiled: bool) -> None:
    (record,) = read_string(GAME)
    assert record.game is not None
    with kernel.python_engines() if not compiled else _nothing():
        report = validate_game(record.game)
    assert report.valid and report.plies == 8 and not report.diagnostics
    assert record.game.line.moves._nodes is None  # type: ignore[attr-defined]


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *_: object) -> None:
        return None


SPOILT = [
    # a wrong number, wrong dots, a step while a capture is open, a step written as a
    # capture, no piece there, dice, a result the position refutes
    "1. a4-b5 c5xa4 3. b6-b5 a4xc5 *",
    "1. a4-b5 c5xa4 2... b6-b5 *",
    "1. a4-b5 c5-c4 *",
    "1. a4xb5 *",
    "1. b4-b5 *",
    "1. 3: a4-b5 *",
    "1. a4-b5 c5xa4 2. b6-b5 a4xc5 3. b7-b6 c6-b7 4. a7xc6 c8xa7 1-0",
]


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("movetext", SPOILT)
def test_a_line_with_something_to_say_is_reported_as_the_walker_reports_it(
    compiled: bool, movetext: str
) -> None:
    (record,) = read_string(f'[Game "mosona"]\n\n{movetext}\n')
    assert record.game is not None and isinstance(record.game.line.moves, PlainMoves)
    with kernel.python_engines() if not compiled else _nothing():
        fast = _diagnostics(record.game)
        walked = _diagnostics(_held_whole(record.game))
    assert fast == walked
    assert any(" x.zrec" in line or "x.zrec:" in line for line in fast)


def test_every_sample_is_reported_alike_both_ways() -> None:
    checked = 0
    for path in sorted(SAMPLES.rglob("*.zrec")):
        for record in read_records(path):
            if record.game is None or not isinstance(record.game.line.moves, PlainMoves):
                continue
            fast = _diagnostics(record.game)
            with kernel.python_engines():
                python = _diagnostics(record.game)
            assert fast == python == _diagnostics(_held_whole(record.game)), path
            checked += 1
    assert checked > 30, checked


def _facts(record: object) -> tuple[object, ...]:
    from zrec.archive.store.facts import facts_of

    facts = facts_of(record, "x.zrec")  # type: ignore[arg-type]
    lines = [d.format() for d in facts.report.diagnostics]
    return (facts.keys, facts.paths, facts.material, facts.codes, facts.ident, facts.text,
            facts.plies, lines)


def test_an_import_indexes_a_plain_line_as_the_walker_does() -> None:
    """The indexer's keys, paths, material and opening codes of a line the rules play
    in one call (with the kernel and without) are those of the walk move by move."""
    from zrec.notation.writer import write_games
    from zrec.play.selfplay import random_games
    from zrec.rules import find_game

    texts = [
        path.read_bytes().decode("utf-8", "replace") for path in sorted(SAMPLES.rglob("*.zrec"))
    ]
    for game, options in [("mosona", {}), ("kolowis", {"Captures": "huff"}),
                          ("mosona", {"Captures": "optional", "Pieces": "24"}),
                          ("kolowis", {"Pieces": "23", "Chains": "stop"})]:
        if game == "mosona":
            options.pop("Pieces", None)
        texts.append("".join(write_games(random_games(find_game(game), options, 20, 7))))
    texts += [f'[Game "mosona"]\n\n{movetext}\n' for movetext in SPOILT]
    plain = 0
    for text in texts:
        for record in read_string(text):
            if record.game is None or not isinstance(record.game.line.moves, PlainMoves):
                continue
            plain += 1
            fast = _facts(record)
            with kernel.python_engines():
                python = _facts(record)
            whole = replace(record, game=_held_whole(record.game))
            assert fast == python == _facts(whole)
    assert plain > 100, plain


DICE_GAME = """[Game "awethi"]
[Shepherd1 "A"]
[Wolves "B"]
[Herd1 "bccwcw"]

1. 4: H 2131e: a1-a2-a3, a1-a2, a1-b1-c2, a1-b1 2. 2: H 1222e: c2-d2,
a3-b3-c3, b1-b2-b3, a2-a3-a4 *
"""


def test_a_line_with_dice_is_held_as_its_words_and_checked_without_a_turn() -> None:
    """The reader keeps a line with dice as its words; the kernel reads them, so checking
    it makes no turn; a turn asked for is the grammar's."""
    (record,) = read_string(DICE_GAME)
    assert record.game is not None
    moves = record.game.line.moves
    assert isinstance(moves, PlainMoves)
    turns = moves.turns
    assert isinstance(turns, WrittenTurns)
    assert turns.words == [
        "4:", "H", "2131e:", "a1-a2-a3", "a1-a2", "a1-b1-c2", "a1-b1",
        "2:", "H", "1222e:", "c2-d2", "a3-b3-c3", "b1-b2-b3", "a2-a3-a4",
    ]
    assert turns.bounds == [0, 2, 7, 9, 14]
    assert moves.numbers == [1, None, 2, None] and len(turns) == 4
    report = validate_game(record.game, "x.zrec")
    assert report.valid and report.plies == 4 and not report.diagnostics
    if kernel.load("zrec.rules.awethi") is not None:
        assert turns._made is None  # the kernel read every word
    assert turns[3] == parse_turn_text("1222e: c2-d2, a3-b3-c3, b1-b2-b3, a2-a3-a4")
    assert turns[-1] is turns[3] and turns[1:3] == [turns[1], turns[2]]
    with pytest.raises(IndexError):
        turns[4]
    assert list(turns) == [parse_turn_text(t.text()) for t in turns]
    assert pickle.loads(pickle.dumps(record.game)) == record.game
    assert _held_whole(record.game) == record.game
    (plain,) = read_string(GAME)
    assert type(plain.game.line.moves.turns) is list  # type: ignore[union-attr]


# turns the kernel does not take: the engine's own words, with the kernel and without
DICE_SPOILT = {
    "2131e: a1-a2-a3, a1, a1-b1-c2, a1-b1": "x.zrec:6:9: error[forced-move] game 1, ply 2: "
    "move 1 (Shepherd1): 2131e: a1-a2-a3, a1, a1-b1-c2, a1-b1 is illegal: path 2, a1: "
    "the shepherd on a1 can move 1 (e.g. a1-a2), so it must; legal moves: a1-a2, a1-b1",
    "2131e: a1-a2-a3, P@a2, a1-b1-c2, a1-b1": "x.zrec:6:9: error[form] game 1, ply 2: "
    "move 1 (Shepherd1): 2131e: a1-a2-a3, P@a2, a1-b1-c2, a1-b1 is illegal: path 2, P@a2: "
    "a shepherd's turn writes a path for each shepherd (its square alone to stay, e.g. c3; "
    "c3>a1 to go back to the shelter); there is no legal move",
    "2131e: a1-a2-a3, a1-a2, a1-b1-c2, a1-b1-z9": "x.zrec:6:9: error[path-blocked] game 1, "
    "ply 2: move 1 (Shepherd1): 2131e: a1-a2-a3, a1-a2, a1-b1-c2, a1-b1-z9 is illegal: "
    "path 4, a1-b1-z9: z9 is not a square of the board (a1-y25); legal moves: a1-b1",
    "2131e: a1-a2-a3, a1-a2, a1-b1-c2, a1-b1, a1": "x.zrec:6:9: error[path-count] game 1, "
    "ply 2: move 1 (Shepherd1): 2131e: a1-a2-a3, a1-a2, a1-b1-c2, a1-b1, a1 is illegal: "
    "Shepherd1 has 4 shepherds: write 4 paths, one for each, not 5; there is no legal move",
}


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("turn", sorted(DICE_SPOILT))
def test_a_dice_turn_the_kernel_does_not_take_is_the_engines_to_refuse(
    compiled: bool, turn: str
) -> None:
    text = DICE_GAME.replace("2131e: a1-a2-a3, a1-a2, a1-b1-c2, a1-b1", turn)
    (record,) = read_string(text)
    assert record.game is not None
    assert isinstance(record.game.line.moves.turns, WrittenTurns)  # type: ignore[attr-defined]
    with kernel.python_engines() if not compiled else _nothing():
        fast = _diagnostics(record.game)
        walked = _diagnostics(_held_whole(record.game))
    assert fast == walked == [DICE_SPOILT[turn], "plies=2"]
