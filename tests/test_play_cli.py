"""``zrec play``: a person against a study player, moves typed on standard input."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zrec.cli import app
from zrec.notation.writer import game_text
from zrec.research.playing import play_against
from zrec.rules import find_game

runner = CliRunner()
PROMPT = "Your move (? lists the legal moves, quit stops): "
BENT = ["play", "--game", "mosona", "-O", "Jumps=bent", "--player", "alphabeta:1", "--seed", "1"]


def test_typed_moves_are_checked_listed_and_recorded() -> None:
    typed = "a5-b5\nzz\n?\nb3xb4xc4\nquit\n"
    result = runner.invoke(app, [*BENT, "--seat", "2"], input=typed)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith(
        "You play Black; alphabeta:1 plays the other seats.\n1. White: a4xb5xb4xc4xb5\n"
    )
    assert f"{PROMPT}Not played: there is no Black piece on a5\n" in out
    assert f"{PROMPT}Not played: 'zz' is not a move in the notation (at 'zz')\n" in out
    listed = out.split(f"{PROMPT}Legal moves: ")[1].split("\n")[0].split(", ")
    assert len(listed) == 20 and "b3xb4xc4" in listed and "c6xc5xc4" in listed
    assert f"{PROMPT}1... Black: b3xb4xc4\n2. White: b6xc5xc3xb3xc2xb2xc1\n" in out
    assert f"{PROMPT}Game stopped, unfinished (*).\n" in out
    assert out.endswith(
        '[Game "mosona"]\n[Event "zrec play"]\n[Site "?"]\n[Date "????.??.??"]\n'
        '[Round "1"]\n[White "alphabeta:1"]\n[Black "person"]\n[Result "*"]\n'
        '[Jumps "bent"]\n\n1. a4xb5xb4xc4xb5 b3xb4xc4 2. b6xc5xc3xb3xc2xb2xc1 *\n'
    )
    again = runner.invoke(app, [*BENT, "--seat", "2"], input=typed)
    assert again.stdout == out  # the same seed and moves: the same game


def test_a_whole_game_is_saved_with_o_and_validates(tmp_path: Path) -> None:
    # The person always plays the first legal move listed; the game runs to its end.
    listed: list[str] = []

    def ask(prompt: str) -> str | None:
        assert prompt == PROMPT
        return listed.pop() if listed else "?"  # ask for the list, then play its first

    def tell(text: str) -> None:
        if text.startswith("Legal moves: "):
            listed.append(text.removeprefix("Legal moves: ").split(", ")[0])

    record = play_against(find_game("mosona"), {"Jumps": "bent"}, "mcts:5", 0, 3, ask, tell)
    assert (record.result, len(record.line.moves)) == ("0-1", 30)  # mcts:5 wins as Black

    # the same through the command: a file written with -o, then read back
    out = tmp_path / "game.zrec"
    lines = []

    text = "".join(game_text(record))
    for node in record.line.moves[::2]:
        lines.append(node.turn.text())
    result = runner.invoke(
        app,
        ["play", "--game", "mosona", "-O", "Jumps=bent", "--player", "mcts:5", "--seed", "3",
         "-o", str(out)],
        input="\n".join(lines) + "\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == text
    checked = runner.invoke(app, ["validate", str(out)])
    assert checked.exit_code == 0, checked.output


def test_dice_games_take_the_move_with_the_dice_rolled() -> None:
    typed = "1: H\n4: H\nquit\n"
    args = ["play", "--game", "awethi", "--seats", "1", "--player", "random", "--seed", "1"]
    result = runner.invoke(app, args, input=typed)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert (
        f"You rolled 4.\n{PROMPT}Not played: you rolled 4; write the move with those dice\n" in out
    )
    assert f"{PROMPT}1. Shepherd1: 4: H\n" in out
    assert '[Shepherd1 "person"]\n[Wolves "random"]\n[Result "*"]\n' in out


def test_bad_seats_and_players_exit_2() -> None:
    seat = runner.invoke(app, ["play", "--game", "mosona", "--seat", "3"], input="")
    assert seat.exit_code == 2
    assert seat.stderr == "zrec: --seat 3: the game has seats 1 to 2 (White, Black)\n"
    refused = runner.invoke(app, ["play", "--game", "awethi", "--player", "alphabeta"])
    assert refused.exit_code == 2
    assert refused.stderr == (
        "zrec: alphabeta plays two-seat games only; this Awéthi game has 3 seats\n"
    )
    two = runner.invoke(app, ["play", "--game", "mosona", "--player", "mcts,random"])
    assert two.exit_code == 2
    assert two.stderr == "zrec: --player takes one player for zrec play, not 'mcts,random'\n"


def test_the_cap_of_plies_stops_the_game_and_says_so() -> None:
    # The person always plays the first legal move listed, as above; three turns played
    listed: list[str] = []
    told: list[str] = []

    def ask(prompt: str) -> str | None:
        return listed.pop() if listed else "?"

    def tell(text: str) -> None:
        told.append(text)
        if text.startswith("Legal moves: "):
            listed.append(text.removeprefix("Legal moves: ").split(", ")[0])

    record = play_against(find_game("mosona"), {}, "greedy", 0, 1, ask, tell, max_plies=3)
    assert record.result == "*"
    assert [n.turn.text() for n in record.line.moves] == ["a4-b5", "c5xa4", "a5-b5"]
    assert told[-1] == "Game stopped unfinished after 3 plies (*)."
    assert told[-2].endswith("Black to move (White 11, Black 12)")
    assert sum("Game stopped" in t for t in told) == 1
    # the command plays with the cap of 1,000
    assert inspect.signature(play_against).parameters["max_plies"].default == 1000


def test_a_player_without_a_move_stops_the_game_saying_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # no engine leaves a player without a move in a game not over; should one, the
    # person is told why the game stopped
    import zrec.research.playing as playing

    def no_move(*_: object) -> None:
        return None

    monkeypatch.setattr(playing, "seat_players", lambda engine, names: (no_move,) * 2)
    told: list[str] = []
    record = play_against(find_game("mosona"), {}, "greedy", 1, 1, lambda p: "quit", told.append)
    assert record.result == "*"
    assert told[-1] == "Game stopped: greedy has no move for White (*)."


def test_help_at_the_prompt_lists_the_commands() -> None:
    result = runner.invoke(app, [*BENT, "--seat", "2"], input="help\nquit\n")
    assert result.exit_code == 0, result.output
    assert (
        f"{PROMPT}Type a move in the notation to play it (e.g. b6-b5, or a capture chain "
        "a4xb5xb4); ? lists the legal moves; help shows this; quit stops the game, "
        f"unfinished, and prints its record.\n{PROMPT}Game stopped, unfinished (*).\n"
    ) in result.stdout
    assert "Not played" not in result.stdout
