"""The play layer: plies count turns, numbering, paths into variations, how games end,
diagnostics in file order, random games' headers."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from zrec import read_game, read_string
from zrec.check.diagnostics import Diagnostic
from zrec.check.validate import validate_game, validate_records
from zrec.notation.reader import read_records
from zrec.play import path_to, positions, prepare, written_number
from zrec.play.ending import TERMINATIONS, judge_ending, termination_of
from zrec.play.selfplay import random_game
from zrec.rules import find_game
from zrec.rules.base import InputError, MoveNumber

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"


def codes(text: str) -> list[tuple[str, int | None]]:
    return [(d.code, d.ply) for d in validate_game(read_game(text)).diagnostics]


def messages(text: str) -> list[str]:
    return [d.message for d in validate_game(read_game(text)).diagnostics]


# -- plies count turns ------------------------------------------------------------------


def test_a_priests_entry_is_not_a_ply() -> None:
    game = read_game((SAMPLES / "stone-warriors.zrec").read_text(encoding="utf-8"))
    entries = sum(1 for node in game.line.moves if node.turn.text().startswith("P@"))
    assert entries == 2 and len(game.line.moves) == 154
    assert validate_game(game).plies == 152
    replay = prepare(game)
    steps = positions(replay, game.line)
    entry = next(s for s in steps if s.node.turn.text() == "P@e1")
    before = steps[steps.index(entry) - 1]
    after = steps[steps.index(entry) + 1]
    assert entry.ply == before.ply and after.ply == before.ply + 1


STONE = """[Game "stone-warriors"]
[Setup "6/12/1ww6www/12/14/14/14/W12W/W12W/14/12/3Ww7/5W6/6 w Pp"]

1. g2-g3xf3 P@e14 {move} *
"""


def test_a_move_after_an_entry_is_reported_at_its_turn() -> None:
    # White's g2-g3 takes f3 (ply 1); Black's priest enters (no ply); Black's move is ply 2
    assert codes(STONE.format(move="1... c12-c13")) == [("illegal-move", 2)]
    assert codes(STONE.format(move="1... c12-c11")) == []


def test_a_number_on_an_entry_is_a_warning() -> None:
    text = STONE.replace("P@e14", "1... P@e14").format(move="c12-c11")
    assert messages(text) == [
        "the move number 1... does not fit: this move is not a turn and carries no number (Black)"
    ]


def test_show_and_diagram_plies_count_turns() -> None:
    game = read_game(STONE.format(move="1... c12-c11"))
    replay = prepare(game)
    assert [s.node.turn.text() for s in positions(replay, game.line, 1)] == ["g2-g3xf3"]
    assert [s.ply for s in positions(replay, game.line)] == [1, 1, 2]


def test_written_numbers() -> None:
    opening, reply, entry = MoveNumber(3, 1, True, 0), MoveNumber(3, 3, True, 1), None
    assert written_number(opening, follows_turn=True) == opening
    assert written_number(reply, follows_turn=True) is None
    assert written_number(reply, follows_turn=False) == reply
    assert entry is None and written_number(MoveNumber(3, 3, False, 1), False) is None


# -- a move anywhere in the record ------------------------------------------------------

CULIN_TREE = """[Game "mosona"]

1. b6-b5 (1. a4-b5 c5xa4) (1. a5-b5 c4xa5 (1... c6xa5)) b4xb6 *
"""


def test_path_to_a_move_in_file_order() -> None:
    game = read_game(CULIN_TREE)
    replay = prepare(game)
    paths = [[s.node.turn.text() for s in path_to(replay, game.line, n)] for n in range(1, 8)]
    assert paths == [
        ["b6-b5"],
        ["a4-b5"],
        ["a4-b5", "c5xa4"],
        ["a5-b5"],
        ["a5-b5", "c4xa5"],
        ["a5-b5", "c6xa5"],
        ["b6-b5", "b4xb6"],
    ]
    with pytest.raises(IndexError):
        path_to(replay, game.line, 8)


# -- file order -------------------------------------------------------------------------


def test_diagnostics_come_in_file_order() -> None:
    text = '[Game "mosona"]\n\n1. b6-b5 b4-b3 (1... c5-b5) *\n'
    found = validate_game(read_game(text)).diagnostics
    assert [(d.code, d.column, "variation" in d.message) for d in found] == [
        ("illegal-move", 10, False),
        ("illegal-move", 22, True),
    ]


# -- a capture sign on a step -----------------------------------------------------------


def test_x_on_a_step_is_an_error() -> None:
    assert messages('[Game "mosona"]\n\n1. b6xb5 *\n') == [
        "move 1 (White): b6xb5 is illegal: its x claims a capture, but it captures nothing "
        "(write b6-b5); legal moves: a4-b5, a5-b5, b6-b5"
    ]


# -- how a game ended -------------------------------------------------------------------


def tournament() -> list[list[Diagnostic]]:
    path = SAMPLES / "tournament.zrec"
    return [r.diagnostics for r in validate_records(read_records(path), "tournament.zrec")]


def test_a_tournament_file_with_off_the_board_endings_validates_clean() -> None:
    found = tournament()
    assert [[(d.severity, d.code) for d in ds] for ds in found] == [[("info", "termination")]] * 5
    assert [ds[0].message for ds in found] == [
        "White resigned (White 7 pieces, Black 7)",
        "Black lost on time (White 3 pieces, Black 6)",
        "the game was adjudicated 1/2-1/2 (White 14 pieces, Black 15)",
        "Black resigned (White 6 pieces on the board, Black 6; score 0-0)",
        "Black forfeited the game (White 12 pieces, Black 12)",
    ]
    assert found[4][0].ply is None  # the forfeit has no moves


def test_without_the_tag_the_same_games_get_the_usual_checks() -> None:
    text = (SAMPLES / "tournament.zrec").read_text(encoding="utf-8")
    bare = "\n".join(line for line in text.splitlines() if not line.startswith("[Termination"))
    reports = [validate_game(r.game) for r in read_string(bare) if r.game]
    assert [[d.code for d in r.diagnostics] for r in reports] == [
        ["wrong-result", "capture-open"],
        ["wrong-result"],
        ["wrong-result"],
        ["ended-early"],
        ["wrong-result"],
    ]


@pytest.mark.parametrize(
    ("tag", "result", "expected"),
    [
        ("Resignation", "1-0", "termination"),
        (" time   forfeit ", "0-1", "termination"),
        ("agreement", "1/2-1/2", "termination"),
        ("abandoned", "*", "termination"),
        ("resignation", "*", "wrong-result"),
        ("resignation", "1-0-0", "wrong-result"),
        ("walkover", "1-0", "bad-termination"),
        ("normal", "1-0", "wrong-result capture-open"),
    ],
)
def test_termination_values(tag: str, result: str, expected: str) -> None:
    text = f'[Game "mosona"]\n[Termination "{tag}"]\n\n1. b6-b5 b4xb6 {result}\n'
    assert [d.code for d in validate_game(read_game(text)).diagnostics] == expected.split()


def test_a_game_ended_by_rule_cannot_end_otherwise() -> None:
    text = '[Game "mosona"]\n[Setup "BB6/9/8 w"]\n[Termination "resignation"]\n\n0-1\n'
    assert messages(text) == [
        '[Termination "resignation"] does not fit: the game had already ended by rule '
        "(White has no pieces left, so Black wins)"
    ]


def test_termination_spellings_and_the_engines_words() -> None:
    assert termination_of({}) == "normal"
    assert termination_of({"Termination": "Rules  Infraction"}) == "rules infraction"
    assert termination_of({"Termination": "resigned"}) is None
    assert len(TERMINATIONS) == 8
    engine = find_game("kolowis").engine_for(prepare(read_game('[Game "kolowis"]\n*\n')).setting)
    assert engine is not None
    start = engine.start()
    [finding] = judge_ending(engine, start, "0-1", {"Termination": "rules infraction"})
    assert finding.message == "White lost by a rules infraction (White 24 pieces, Black 24)"


# -- random games -----------------------------------------------------------------------


def test_random_game_tags_replace_the_defaults() -> None:
    record = random_game(
        find_game("mosona"), {"Event": "X", "Annotator": "me"}, random.Random(1), max_plies=2
    )
    names = [name for name, _ in record.tags]
    assert names == [
        "Game",
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "Annotator",
    ]
    assert record.tag("Event") == "X"


def test_random_games_take_a_number_of_seats() -> None:
    with pytest.raises(InputError, match="played by 2 sides, not 3"):
        random_game(find_game("mosona"), {}, random.Random(1), seats=3)
    two = random_game(find_game("mosona"), {}, random.Random(1), max_plies=4, seats=2)
    assert two == random_game(find_game("mosona"), {}, random.Random(1), max_plies=4)
