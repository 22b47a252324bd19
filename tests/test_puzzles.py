"""``zrec puzzles``: positions of played games where one move is clearly best (it wins
material or the game and no other move does), each a record with the solution as its
main line, from record files or from an archive's analysed games."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from zrec.cli import app
from zrec.notation.reader import read_string
from zrec.play.replay import prepare
from zrec.research import alphabeta

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
FIRST = """[Game "kolowis"]
[Event "zrec sample"]
[Date "????.??.??"]
[White "?"]
[Black "?"]
[Pieces "23"]
[Setup "BBBBBBBB1BBBBBBB/1BBBBBBBW1WWWWWW1/WWWWWWWBWWWWWWWW b"]
[Result "*"]

{Black to play: one move wins material (a lead 1 piece more), and no other
does. From samples/kolowis-23.zrec, game 1, before ply 4 (played: b8xb10).}
1... a8xc9 2. a1-b1 c1xa1 3. a2xc1 *
"""


def test_the_puzzles_of_a_game_validate_and_one_move_wins_in_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "puzzles.zrec"
    monkeypatch.chdir(ROOT)  # (the source is named as given: samples/...)
    result = runner.invoke(app, ["puzzles", "samples/kolowis-23.zrec", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output == "7 puzzles from 1 game\n"
    text = out.read_text(encoding="utf-8")
    assert text.startswith(FIRST + "\n[Game")
    checked = runner.invoke(app, ["validate", str(out)])
    assert checked.exit_code == 0 and "7 games read, 7 valid, 0 invalid" in checked.output
    assert runner.invoke(app, ["fmt", "--check", str(out)]).exit_code == 0
    # each puzzle, searched again from its Setup: its first move wins material, and
    # every other legal move keeps at most the lead the mover has
    for record in read_string(text, "p"):
        game = record.game
        assert game is not None
        replay = prepare(game)
        engine, pos = replay.engine, replay.start
        me = engine.move_number(pos).seat
        lead = engine.material(pos)[me] - engine.material(pos)[1 - me]
        first = game.line.moves[0].turn.text()
        values = {engine.spell(pos, m).text():
                  alphabeta.position_value(engine, engine.apply(pos, m)[0], me, 3)
                  for m in engine.legal_moves(pos)}
        assert values.pop(first) > lead
        assert values and max(values.values()) <= lead


def test_dice_games_give_none_and_an_archive_gives_its_analysed_games(tmp_path: Path) -> None:
    solo = str(ROOT / "samples" / "awethi-solo.zrec")
    result = runner.invoke(app, ["puzzles", solo])
    assert result.exit_code == 0
    assert result.output == "0 puzzles from 1 game (1 left out: alphabeta does not play them)\n"
    club = [str(p) for p in sorted((ROOT / "samples" / "club").glob("round*.zrec"))]
    from_files = runner.invoke(app, ["puzzles", *club])
    assert from_files.output.endswith(
        "1 puzzle from 6 games (4 more the same as one before)\n")
    db = str(tmp_path / "a.sqlite")
    assert runner.invoke(app, ["archive", "import", "--db", db, "-q", *club]).exit_code == 0
    none = runner.invoke(app, ["puzzles", db])  # nothing analysed yet
    assert none.exit_code == 2 and none.output == "zrec: no game to take puzzles from\n"
    assert runner.invoke(app, ["archive", "analyse", "--db", db, "-q"]).exit_code == 0
    from_archive = runner.invoke(app, ["puzzles", db])
    assert from_archive.output.endswith(
        "1 puzzle from 6 games (4 more the same as one before)\n")
    # the same puzzle, named by its game's archive id rather than its file
    assert from_archive.output.replace("\n", " ").count("From game #1, before ply 2") == 1


def test_a_record_that_cannot_be_read_or_replayed_is_said(tmp_path: Path) -> None:
    """Each is named with its place and reason on standard error, the other games give
    their puzzles, and the exit code is 1."""
    club = (ROOT / "samples" / "club" / "round1.zrec").read_text(encoding="utf-8")
    bad = tmp_path / "bad.zrec"
    bad.write_text('[Game "mosona"]\n\n1. a1-a9 *\n\n[Game "mosona"\n\n*\n\n' + club,
                   encoding="utf-8")
    result = runner.invoke(app, ["puzzles", str(bad)])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0] == (f"zrec: {bad}, game 1: ply 1, move 1 (White): a1-a9 is illegal: a9 "
                        "is not a point of this board")
    assert lines[1].startswith(f"{bad}:5:1: found '[Game', which is not a well-formed tag pair")
    assert lines[4] == "  (game 2)"
    assert lines[5] == ("1 puzzle from 3 games (1 more the same as one before) (2 that cannot "
                        "be read or replayed, said above)")
