"""``zrec analyse``: a planted blunder is marked ``??`` and nothing else is, the
analysed record validates and is in canonical form, the same seed gives the same
analysis in one process or two, and the player and inputs are checked."""

from __future__ import annotations

import json
import math
import random
import statistics
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from zrec.cli import app
from zrec.moves import Turn
from zrec.notation.model import Game, Line, MoveNode
from zrec.notation.reader import read_string
from zrec.notation.writer import write_game
from zrec.play.replay import prepare, prepare_rules
from zrec.play.selfplay import random_games
from zrec.play.walk import positions, written_number
from zrec.research.alphabeta import alphabeta_move, position_value
from zrec.research.analysis import (
    MARKS,
    _Mcts,
    accuracy,
    analyse_game,
    mark_of,
    move_rng,
    win_probability,
)
from zrec.research.annotate import read_evaluation
from zrec.research.luck import every_roll, roll_luck
from zrec.rules import find_game
from zrec.rules.base import Chance

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]


def record(name: str, tags: dict[str, str], turns: list[tuple[Any, Turn]], result: str) -> Game:
    """A game of ``name`` with these (move number, turn) pairs, numbered as zrec writes."""
    nodes = []
    follows = False
    for number, turn in turns:
        written = written_number(number, follows)
        nodes.append(MoveNode(turn, written.number if written else None,
                              written.dots if written else 1))
        follows = number.turn
    header = {"Game": name, "Event": "planted blunder", "Site": "?", "Date": "????.??.??",
              "Round": "?", "White": "?", "Black": "?", "Result": result, **tags}
    return Game(tuple(header.items()), Line(tuple(nodes)), result)


def planted(name: str, tags: dict[str, str], seed: int, after: int = 6) -> tuple[Game, int]:
    """A game of two ``alphabeta:4`` players in which, from ply 8, the first move that
    gives away a sixth of a seat's start pieces (with the best play of both seats over
    the next three moves) while another move gives nothing away, by a seat not behind,
    is played
    instead of the player's; then ``after`` more plies.  The game and the blunder's
    ply (from 1)."""
    replay = prepare_rules(find_game(name), tags)
    engine, pos = replay.engine, replay.start
    start = engine.material(pos)
    give = math.ceil(sum(start) / len(start) / 6)
    rng = random.Random(seed)
    turns: list[tuple[Any, Turn]] = []
    blunder = 0
    while engine.outcome(pos) is None and (not blunder or len(turns) < blunder + after):
        me = engine.move_number(pos).seat
        move = None
        if not blunder and len(turns) >= 8:
            material = engine.material(pos)
            lead = material[me] - material[1 - me]
            scored = [(position_value(engine, engine.apply(pos, m)[0], me, 3), i, m)
                      for i, m in enumerate(engine.legal_moves(pos))]
            best, worst = max(scored)[0], min(scored)
            if lead >= 0 and best >= lead and worst[0] <= lead - give:
                move, blunder = worst[2], len(turns) + 1
        if move is None:
            move = alphabeta_move(engine, pos, None, rng, 4)
        turns.append((engine.move_number(pos), engine.spell(pos, move)))
        pos = engine.apply(pos, move)[0]
        assert len(turns) < 300
    assert blunder, "no position to plant a blunder in"
    outcome = engine.outcome(pos)
    return record(name, tags, turns, outcome.result if outcome else "*"), blunder


GAMES: list[tuple[str, dict[str, str], int]] = [
    ("mosona", {}, 1), ("kolowis", {}, 2), ("stone-warriors", {}, 3)]


@pytest.mark.parametrize(("name", "tags", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_a_planted_blunder_gets_double_question_marks_and_nothing_else(
    name: str, tags: dict[str, str], seed: int
) -> None:
    game, blunder = planted(name, tags, seed)
    analysis = analyse_game(game, None, 0, 1)
    assert analysis.player == "alphabeta:4"
    marked = {j.ply: j.mark for j in analysis.moves if j.mark}
    assert marked == {blunder: "??"}
    judged = analysis.moves[blunder - 1]
    assert judged.loss >= 0.30 and judged.best is not None and judged.line
    assert judged.before[judged.seat] - judged.after[judged.seat] == judged.loss
    # every other move is the player's own: the search at the same depth finds no loss
    others = [j.loss for j in analysis.moves if j.ply != blunder]
    assert others == [0.0] * (len(game.line.moves) - 1)
    summary = analysis.summary[judged.seat]
    assert summary.marks == {"?!": 0, "?": 0, "??": 1}
    assert summary.moves == sum(1 for j in analysis.moves if j.seat == judged.seat)
    assert summary.accuracy == pytest.approx(
        (100.0 * (summary.moves - 1) + accuracy(judged.loss)) / summary.moves
    )


def planted_dice(seed: int, after: int = 6) -> tuple[Game, int]:
    """A one-shepherd game of Awéthi in which, the first time a turn has a move that wins
    the game at once and a move that does not, a move that does not is played (the
    wolves let the last animal go: the game given away while a winning move exists);
    then ``after`` more plies.  The other moves: the wolves eat where they can, else
    play as the default judge (``mcts:200``, the analysis's generator of the ply) would;
    the shepherds play a random move the judge finds no blunder (of three drawn, else
    the judge's), so that a ``??`` elsewhere could only come from the analysis being
    unlike itself.  (So the game shows that the blunder is found, and that the analysis
    is its judge's; not that a sound move is never marked: ``mcts:200`` is noisy in this
    game, see docs/analysis.md's limits.)  The game and the blunder's ply."""
    tags = {"Shepherd1": "A", "Wolves": "B", "Herd1": "bccwcw"}
    replay = prepare_rules(find_game("awethi"), tags)
    engine, pos = replay.engine, replay.start
    judge = _Mcts(engine, pos, 200, 20)
    rng = random.Random(seed)
    turns: list[tuple[Any, Turn]] = []
    blunder = 0

    def judged(pos: Any, roll: Any, move: Any, ply: int) -> tuple[float, Any]:
        me = engine.move_number(pos).seat
        d = judge.decide(engine, pos, roll, move, engine.apply(pos, move)[0],
                         move_rng(0, 1, ply))
        return (0.0 if d.best is move else d.before[me] - d.after[me]), d.best

    while engine.outcome(pos) is None and (not blunder or len(turns) < blunder + after):
        ply = len(turns) + 1
        chance = engine.chance(pos)
        roll = chance.roll(rng) if chance is not None else None
        me = engine.move_number(pos).seat
        moves = list(engine.legal_moves(pos, roll))
        wins = [m for m in moves if (o := engine.outcome(engine.apply(pos, m)[0])) is not None
                and o.scores[me] == 1]
        if len(moves) == 1:
            move = moves[0]
        elif wins and not blunder and len(wins) < len(moves):
            move, blunder = next(m for m in moves if m not in wins), ply
        elif wins:
            move = wins[0]
        else:
            tries = ([m for m in moves if engine.material(engine.apply(pos, m)[0])[1]
                      > engine.material(pos)[1]] if me == 1
                     else [engine.sample_move(pos, roll, rng) for _ in range(3)])
            move = judged(pos, roll, moves[0], ply)[1]
            for tried in tries:
                if judged(pos, roll, tried, ply)[0] < 0.30:
                    move = tried
                    break
        turns.append((engine.move_number(pos), engine.spell(pos, move)))
        pos = engine.apply(pos, move)[0]
        assert len(turns) < 300
    assert blunder, "no position to plant a blunder in"
    outcome = engine.outcome(pos)
    return record("awethi", tags, turns, outcome.result if outcome else "*"), blunder


def test_a_planted_blunder_in_the_dice_game_gets_double_question_marks_there_only(
    tmp_path: Path,
) -> None:
    """The wolves, who could eat the last animal and win, let it go (ply 99 of 105);
    the default judge, ``mcts:200``, marks it ``??`` and no other move ``??``; the
    analysed record validates and ``fmt`` leaves it as it is."""
    game, blunder = planted_dice(4)
    assert (blunder, len(game.line.moves)) == (99, 105)
    source = tmp_path / "dice.zrec"
    source.write_text(write_game(game), encoding="utf-8")
    out = tmp_path / "analysed.zrec"
    result = runner.invoke(app, ["analyse", str(source), "-q", "-o", str(out)])
    assert result.exit_code == 0, result.output
    checked = runner.invoke(app, ["validate", str(out)])
    assert checked.exit_code == 0 and ", 0 invalid, 0 warnings" in checked.output
    assert runner.invoke(app, ["fmt", "--check", str(out)]).exit_code == 0
    [analysed] = [r.game for r in read_string(out.read_text(encoding="utf-8"), "a")]
    assert analysed is not None and analysed.tag("Analysis") == "mcts:200, seed 0"
    nodes = list(analysed.line.moves)
    assert [i for i, n in enumerate(nodes, 1) if n.suffix == "??"] == [blunder]
    assert nodes[blunder - 1].turn.text().startswith(game.line.moves[blunder - 1].turn.text())
    assert nodes[blunder - 1].comments_after[-1].text.startswith("Blunder (loss ")


def test_the_record_validates_is_canonical_and_shows_the_marks(tmp_path: Path) -> None:
    game, blunder = planted("mosona", {}, 1)
    source = tmp_path / "game.zrec"
    source.write_text(write_game(game), encoding="utf-8")
    out = tmp_path / "analysed.zrec"
    result = runner.invoke(app, ["analyse", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert runner.invoke(app, ["validate", str(out)]).exit_code == 0
    assert runner.invoke(app, ["fmt", "--check", str(out)]).exit_code == 0
    [analysed] = [r.game for r in read_string(out.read_text(encoding="utf-8"), "a")]
    assert analysed is not None
    assert analysed.tag("Analysis") == "alphabeta:4, seed 0"
    nodes = list(analysed.line.moves)
    evaluation = read_evaluation(analysed, 2)  # the chart's values: White's, Black's
    assert evaluation is not None and len(evaluation) == len(nodes) + 1
    assert evaluation[0] == (0.5, 0.5) and evaluation[blunder][0] < evaluation[blunder - 1][0]
    assert [n.suffix for n in nodes] == [("??" if i == blunder else None)
                                         for i in range(1, len(nodes) + 1)]
    marked = nodes[blunder - 1]
    assert len(marked.variations) == 1 and len(marked.variations[0].moves) == 4
    assert marked.comments_after[-1].text.startswith("Blunder (loss ")
    assert "; best " in marked.comments_after[-1].text
    summary = nodes[0].comments_before[0].text
    assert summary.startswith("Analysis by alphabeta:4, seed 0 (loss of win probability: "
                              "?! from 0.10, ? from 0.20, ?? from 0.30). White: ")


def test_every_sample_analysed_validates_and_is_canonical(tmp_path: Path) -> None:
    """Every game of samples/ (the dice games' best lines carry rolls the search drew)."""
    samples = sorted(str(p) for p in (ROOT / "samples").glob("*.zrec"))
    out = tmp_path / "all.zrec"
    result = runner.invoke(app, ["analyse", *samples, "--player", "mcts:4", "-o", str(out)])
    assert result.exit_code == 0, result.output
    checked = runner.invoke(app, ["validate", str(out)])
    assert checked.exit_code == 0 and ", 0 invalid, 0 warnings" in checked.output
    assert runner.invoke(app, ["fmt", "--check", str(out)]).exit_code == 0
    games = [r.game for r in read_string(out.read_text(encoding="utf-8"), "all")]
    # a move after a comment of the record keeps its numbering ("1234e:" unnumbered)
    [dice] = [g for g in games if g and g.tag("Herd2") == "bwwccc"]
    assert [n.number for n in list(dice.line.moves)[:3]] == [1, None, 2]
    assert len(games) == 15 and all(g is not None and g.tag("Analysis") == "mcts:4, seed 0"
                                    for g in games)


def test_the_same_seed_gives_the_same_output_in_one_process_or_two(tmp_path: Path) -> None:
    files = []
    for i, (name, tags, seed) in enumerate(GAMES):
        game, _ = planted(name, tags, seed)
        path = tmp_path / f"{i}.zrec"
        path.write_text(write_game(game), encoding="utf-8")
        files.append(str(path))
    solo = str(ROOT / "samples" / "awethi-solo.zrec")
    args = ["analyse", *files, solo, "--player", "mcts:8", "--seed", "7", "--format", "json"]
    one = runner.invoke(app, args)
    assert one.exit_code == 0, one.output
    assert runner.invoke(app, [*args, "--jobs", "2"]).output == one.output
    text = ["analyse", *files, "--seed", "7", "-q"]  # the default players: alphabeta:4
    assert runner.invoke(app, [*text, "--jobs", "2"]).output == runner.invoke(app, text).output
    seeded = ["analyse", files[0], "--player", "mcts:8", "--seed"]
    assert runner.invoke(app, [*seeded, "7"]).output != runner.invoke(app, [*seeded, "8"]).output
    body = json.loads(one.output)
    assert [g["game"] for g in body] == [1, 1, 1, 1]
    assert [g["player"] for g in body] == ["mcts:8"] * 4
    assert body[0]["seats"] == ["White", "Black"]
    first = body[0]["moves"][0]
    assert set(first) == {"ply", "number", "seat", "move", "before", "after", "loss",
                          "mark", "best", "line"}
    dice = body[3]
    assert dice["seats"] == ["Shepherd1", "Wolves"]
    assert all("roll" in m and "luck" in m for m in dice["moves"])
    assert [set(s) for s in dice["summary"]] == [
        {"seat", "moves", "average_loss", "accuracy", "marks", "luck"}] * 2


def test_the_marks_and_values_follow_the_stated_thresholds() -> None:
    assert MARKS == (("??", 0.30), ("?", 0.20), ("?!", 0.10))
    assert [mark_of(x) for x in (0.0, 0.0999, 0.1, 0.1999, 0.2, 0.2999, 0.3, 1.0)] == [
        None, None, "?!", "?!", "?", "?", "??", "??"]
    assert win_probability(0, 12) == 0.5
    assert win_probability(2, 12) == pytest.approx(1 / (1 + math.exp(-1.5)))
    assert win_probability(9_999, 12) == 1.0 and win_probability(-9_998, 12) == 0.0
    assert accuracy(0.0) == 100.0 and accuracy(1.0) == 0.0
    assert accuracy(0.1) == pytest.approx(103.1668 * math.exp(-0.4354) - 3.1669)


@pytest.mark.parametrize(("args", "message"), [
    (["--player", "random"],
     "zrec: --player takes a search player, mcts[:playouts[:moves]] or alphabeta[:depth]; "
     "not 'random'\n"),
    (["--player", "mcts:0"],
     "zrec: --player mcts:0: the budget of mcts (playouts) is a whole number at least 1, "
     "not '0'\n"),
    (["--format", "text"], "zrec: --format is zrec or json, not 'text'\n"),
])
def test_a_bad_option_is_refused_before_any_work(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["analyse", str(ROOT / "samples" / "mosona-open.zrec"), *args])
    assert result.exit_code == 2
    assert result.output == message


def test_a_game_the_player_cannot_play_or_an_illegal_move_writes_nothing(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out.zrec"
    solo = ROOT / "samples" / "awethi-solo.zrec"
    result = runner.invoke(app, ["analyse", str(solo), "--player", "alphabeta", "-o", str(out)])
    assert result.exit_code == 1
    assert result.output == (
        f"zrec: {solo}: game 1: alphabeta plays games without dice only; Awéthi rolls dice\n"
        "zrec: nothing written: fix the games above first\n"
    )
    bad = tmp_path / "bad.zrec"
    bad.write_text('[Game "mosona"]\n\n1. b6-b5 b6-b5 *\n', encoding="utf-8")
    result = runner.invoke(app, ["analyse", str(bad), "-o", str(out)])
    assert result.exit_code == 1
    assert result.output.startswith(f"zrec: {bad}: game 1: ply 2, move 1 (Black): b6-b5 is ")
    assert not out.exists()


# -- luck ---------------------------------------------------------------------------------


def test_a_roll_better_than_every_other_has_positive_luck() -> None:
    values: dict[tuple[int, ...], float] = {(1,): 0.2, (2,): 0.4, (3,): 0.5, (4,): 0.9}
    chance = Chance((4,))
    value = values.__getitem__
    assert roll_luck(value, chance, (4,), random.Random(0)) == pytest.approx(0.9 - 0.5)
    assert roll_luck(value, chance, (1,), random.Random(0)) == pytest.approx(0.2 - 0.5)
    assert len(every_roll(Chance((4, 6)))) == 24 and len(every_roll(Chance((4,) * 4))) == 256


def test_in_a_real_game_the_best_roll_has_positive_luck() -> None:
    """The first wolves' turn of the solo sample, its 24 rolls valued as the analysis
    values them (``mcts:128``: 16 playouts a roll): made with the roll of the highest
    value, the turn has positive luck, that value less the average; with the lowest,
    negative."""
    [record] = read_string((ROOT / "samples" / "awethi-solo.zrec").read_text("utf-8"), "s")
    assert record.game is not None
    nodes = list(record.game.line.moves)
    # the first wolf turn (two dice) and the moves before it
    at = next(i for i, n in enumerate(nodes) if n.turn.dice and len(n.turn.dice.values) == 2)
    replay = prepare(record.game)
    pos = positions(replay, Line(tuple(nodes[:at])))[-1].after
    engine = replay.engine
    judge = _Mcts(engine, replay.start, 128, 20)
    chance = engine.chance(pos)
    assert chance is not None
    values = {r: judge.roll_value(engine, pos, r, move_rng(0, 1, at + 1, f"/roll/{r}"))
              for r in every_roll(chance)}
    best, worst = max(values, key=values.__getitem__), min(values, key=values.__getitem__)
    assert values[best] > values[worst]
    for roll, sign in ((best, 1), (worst, -1)):
        game = replace(record.game, line=Line((*nodes[:at], _wolves_move(engine, pos, roll))),
                       result="*")
        analysis = analyse_game(game, "mcts:128", 0, 1)
        judged = analysis.moves[at]
        assert judged.roll == roll and judged.luck is not None
        assert sign * judged.luck > 0
        assert judged.luck == pytest.approx(values[roll] - sum(values.values()) / 24)


def _wolves_move(engine: Any, pos: Any, roll: tuple[int, ...]) -> MoveNode:
    move = engine.legal_moves(pos, roll)[0]
    return MoveNode(engine.spell(pos, move))


def test_the_seats_luck_sums_to_about_zero_over_games_of_equal_players() -> None:
    """20 games of two random players (``zrec random``), cut off after 24 plies and
    analysed by ``mcts:8``: each seat's luck per game averages within 3 standard errors
    of 0 (a longer run: benchmarks/analyse_speed.py --luck)."""
    rules = find_game("awethi")
    totals: dict[str, list[float]] = {"Shepherd1": [], "Wolves": []}
    for i, game in enumerate(random_games(rules, {}, 20, 11, 24, seats=1)):
        analysis = analyse_game(game, "mcts:8", 0, i)
        for summary in analysis.summary:
            assert summary.luck is not None
            totals[summary.seat].append(summary.luck)
    for seat, lucks in totals.items():
        mean = statistics.fmean(lucks)
        error = statistics.stdev(lucks) / math.sqrt(len(lucks))
        assert abs(mean) < 3 * error, (seat, mean, error)
