"""``zrec study``: readings side by side, the players, the statistics, the chart."""

from __future__ import annotations

import json
import random
import statistics
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

from zrec.cli import app
from zrec.play.replay import prepare_rules
from zrec.play.selfplay import play_random
from zrec.research.study import (
    MAX_PLIES,
    Reading,
    StudyError,
    game_rng,
    greedy_move,
    removed,
    study_readings,
)
from zrec.research.study_runs import GAMES_PER_PIECE, run_study
from zrec.rules import find_game
from zrec.rules.base import REMOVED, Event, parse_result

runner = CliRunner()
SVG = "{http://www.w3.org/2000/svg}"


def study(*args: str) -> Any:
    return runner.invoke(app, ["study", "--quiet", *args])


def study_json(*args: str) -> list[dict[str, Any]]:
    result = study(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    data: list[dict[str, Any]] = json.loads(result.stdout)
    return data


# -- readings ------------------------------------------------------------------------------


def test_a_tag_given_twice_makes_two_readings_and_tags_combine_in_order() -> None:
    given = [("Jumps", "line"), ("Board", "lined"), ("Jumps", "bent"), ("Board", "open")]
    assert [r.tags for r in study_readings(given)] == [
        (("Jumps", "line"), ("Board", "lined")),
        (("Jumps", "line"), ("Board", "open")),
        (("Jumps", "bent"), ("Board", "lined")),
        (("Jumps", "bent"), ("Board", "open")),
    ]
    # a value repeated counts once; player sets vary fastest
    both = study_readings([("Jumps", "line"), ("Jumps", "line")], ["random", "greedy,random"])
    assert [(r.tags, r.players) for r in both] == [
        ((("Jumps", "line"),), ("random",)),
        ((("Jumps", "line"),), ("greedy", "random")),
    ]
    assert study_readings([]) == [Reading((), ("random",))]


def test_the_cli_gives_one_entry_per_combination_in_order() -> None:
    data = study_json(
        "--game", "mosona", "-O", "Jumps=line", "-O", "EndRule=draw", "-O", "Jumps=BENT",
        "-O", "EndRule=majority", "--games", "3",
    )  # fmt: skip
    assert [d["options"] for d in data] == [
        {"Jumps": "line", "EndRule": "draw"},
        {"Jumps": "line", "EndRule": "majority"},
        {"Jumps": "bent", "EndRule": "draw"},  # spelt as the game spells it
        {"Jumps": "bent", "EndRule": "majority"},
    ]
    assert [d["rules"]["Jumps"] for d in data] == ["line", "line", "bent", "bent"]
    assert all(d["rules"]["Board"] == "lined" for d in data)  # defaults filled in


# -- determinism ---------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_numbers_whatever_the_jobs(tmp_path: Any) -> None:
    args = ["--game", "mosona", "-O", "Jumps=line", "-O", "Jumps=bent", "--seed", "5"]
    # several pieces of work, the last cut short
    args += ["--games", str(2 * GAMES_PER_PIECE + 17)]
    outputs = []
    for jobs in ("1", "2"):
        for fmt in ("json", "table"):
            result = study(*args, "--jobs", jobs, "--format", fmt)
            assert result.exit_code == 0, result.output
            outputs.append(result.stdout)
        chart = tmp_path / f"chart{jobs}.svg"
        assert study(*args, "--jobs", jobs, "--chart", str(chart)).exit_code == 0
        outputs.append(chart.read_text())
    assert outputs[:3] == outputs[3:]
    again = study(*args, "--format", "json")
    assert again.stdout == outputs[0]
    other = study(*[a if a != "5" else "6" for a in args], "--format", "json")
    assert other.stdout != outputs[0]


# -- the statistics ------------------------------------------------------------------------


def test_the_statistics_agree_with_the_games_replayed_independently() -> None:
    """Each game of a study is the game ``zrec random``'s player plays with that game's
    generator; the pieces taken are counted here from the material, not the events."""
    rules = find_game("mosona")
    games, seed, cap = 150, 11, 40
    [entry] = study_json(
        "--game", "mosona", "-O", "EndRule=draw", "--games", str(games), "--seed", str(seed),
        "--max-plies", str(cap),
    )  # fmt: skip
    replay = prepare_rules(rules, {"EndRule": "draw"})
    engine = replay.engine
    lengths, results, taken = [], [], 0
    for i in range(games):
        played = play_random(replay, game_rng(seed, i), cap)
        lengths.append(len(played.nodes))
        results.append(played.result)
        rng, pos = game_rng(seed, i), replay.start
        for _ in range(len(played.nodes)):
            pos, _ = engine.apply(pos, engine.sample_move(pos, None, rng))
        taken += sum(engine.material(replay.start)) - sum(engine.material(pos))
    scores = [parse_result(r, 2) for r in results]
    finished = [s for s in scores if s is not None]
    assert entry["games"] == games
    assert entry["length"] == {
        "mean": round(sum(lengths) / games, 4),
        "median": round(float(statistics.median(lengths)), 4),
        "min": min(lengths),
        "max": max(lengths),
    }
    assert entry["results"] == {
        "decisive": sum(1 for s in finished if s[0] != s[1]),
        "drawn": sum(1 for s in finished if s[0] == s[1]),
        "unfinished": results.count("*"),
    }
    assert entry["results"]["unfinished"] == entry["terminations"][MAX_PLIES] > 0
    assert entry["results"]["decisive"] > 0
    white = sum((s[0] for s in finished), Fraction(0)) / len(finished)
    assert entry["first_seat"] == "White"
    assert entry["first_player_score"] == entry["scores"]["White"] == round(float(white), 4)
    assert entry["captures"]["per_game"] == round(taken / games, 4)


def test_the_shares_add_up_and_lengths_stay_under_the_cap() -> None:
    cap = 200
    [entry] = study_json(
        "--game", "stone-warriors", "--games", "30", "--seed", "2", "--max-plies", str(cap),
    )  # fmt: skip
    counts, shares = entry["results"], entry["shares"]
    assert sum(counts.values()) == sum(entry["terminations"].values()) == 30
    assert min(counts.values()) > 0  # decisive, drawn and unfinished games all occur
    assert sum(shares.values()) == pytest.approx(1, abs=1e-3)
    assert 0 < entry["length"]["min"] <= entry["length"]["median"] <= entry["length"]["max"]
    assert entry["length"]["max"] == cap
    assert sum(entry["scores"].values()) == pytest.approx(1, abs=1e-3)  # zero-sum
    by_seat = entry["captures"]["by_seat"]
    assert sum(by_seat.values()) == pytest.approx(entry["captures"]["per_game"], abs=1e-3)


def test_the_first_seat_follows_the_first_tag() -> None:
    data = study_json("--game", "mosona", "-O", "First=Black", "--games", "5")
    assert data[0]["first_seat"] == "Black"
    assert data[0]["first_player_score"] == data[0]["scores"]["Black"]


def test_a_game_of_more_seats_gives_each_seat_its_score() -> None:
    [entry] = study_json("--game", "awethi", "--seats", "1", "--games", "2", "--max-plies", "30")
    assert list(entry["scores"]) == ["Shepherd1", "Wolves"]
    assert entry["players"] == {"Shepherd1": "random", "Wolves": "random"}


# -- the players ---------------------------------------------------------------------------


class Toy:
    """An engine of three moves: ``a`` takes nothing, ``b`` two pieces, ``c`` one."""

    seats = ("North", "South")

    def __init__(self) -> None:
        self.taken = {"a": 0, "b": 2, "c": 1}

    def legal_moves(self, pos: object, roll: Sequence[int] | None = None) -> list[str]:
        return list(self.taken)

    def apply(self, pos: object, move: str) -> tuple[object, tuple[Event, ...]]:
        squares = tuple(f"x{i}" for i in range(self.taken[move]))
        return pos, (Event(REMOVED, "gone", squares),) if squares else ()

    def sample_move(self, pos: object, roll: Sequence[int] | None, rng: random.Random) -> str:
        return "a"


def test_greedy_takes_the_most_pieces_and_else_plays_the_random_move() -> None:
    toy = Toy()
    assert {greedy_move(toy, None, None, random.Random(i)) for i in range(20)} == {"b"}
    toy.taken = {"a": 0, "b": 1, "c": 1}
    assert {greedy_move(toy, None, None, random.Random(i)) for i in range(20)} == {"b", "c"}
    toy.taken = {"a": 0, "b": 0}
    assert greedy_move(toy, None, None, random.Random(0)) == "a"  # the engine's own


def test_greedy_prefers_the_longest_chain_in_a_real_game() -> None:
    """Positions of random games where the captures open take different numbers of
    pieces: the greedy player always takes the most."""
    replay = prepare_rules(find_game("mosona"), {"Jumps": "bent"})
    engine = replay.engine
    found = 0
    for i in range(40):
        rng, pos = game_rng(0, i), replay.start
        while engine.outcome(pos) is None:
            sizes = {m: removed(engine.apply(pos, m)[1]) for m in engine.legal_moves(pos)}
            if len(set(sizes.values())) > 1:
                found += 1
                for k in range(8):
                    move = greedy_move(engine, pos, None, random.Random(k))
                    assert sizes[move] == max(sizes.values())
            pos, _ = engine.apply(pos, engine.sample_move(pos, None, rng))
    assert found > 5


def test_players_seat_by_seat_and_side_by_side() -> None:
    data = study_json(
        "--game", "mosona", "--player", "greedy,random", "--player", "greedy", "--games", "4",
    )  # fmt: skip
    assert [d["players"] for d in data] == [
        {"White": "greedy", "Black": "random"},
        {"White": "greedy", "Black": "greedy"},
    ]


def test_run_study_as_a_library() -> None:
    rules = find_game("mosona")
    [summary] = run_study(rules, study_readings([("Jumps", "bent")], ["greedy"]), 5, seed=1)
    assert len(summary.results) == 5 and summary.seats == ("White", "Black")
    assert sum(summary.lengths.values()) == 5
    with pytest.raises(StudyError):
        run_study(rules, study_readings([]), 0, seed=1)


# -- the chart -----------------------------------------------------------------------------


def test_the_chart_is_svg_with_one_series_per_reading(tmp_path: Any) -> None:
    chart = tmp_path / "s.svg"
    args = ["--game", "mosona", "-O", "Jumps=line", "-O", "Jumps=bent", "-O", "Board=lined"]
    args += ["-O", "Board=open", "--games", "20", "--chart", str(chart)]
    assert study(*args).exit_code == 0
    root = ET.parse(chart).getroot()
    assert root.tag == SVG + "svg"
    series = [g for g in root.iter(SVG + "g") if "series" in g.get("class", "").split()]
    assert [g.get("data-reading") for g in series] == [
        "Jumps=line Board=lined",
        "Jumps=line Board=open",
        "Jumps=bent Board=lined",
        "Jumps=bent Board=open",
    ]
    for g in series:  # each draws its bars in the four panels and its line of lengths
        assert len(g.findall(f"{SVG}g")) == 5
        assert len(g.findall(f".//{SVG}path")) == 1
    text = " ".join(t.text or "" for t in root.iter(SVG + "text"))
    for words in ("Game length", "How games ended", "First player's score", "Pieces taken"):
        assert words in text
    assert "4  Jumps=bent Board=open" in text  # the legend


# -- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "chess"], "names no game zrec knows"),
        (["--game", "mosona", "-O", "Jumps=diagonal"], "'diagonal' is not a value of Jumps"),
        (["--game", "mosona", "-O", "Jumps"], "--option takes Tag=value"),
        (["--game", "mosona", "-O", "jumps=bent"], "jumps is not a rule option"),
        (["--game", "mosona", "--games", "0"], "--games must be at least 1"),
        (["--game", "mosona", "--player", "minimax"], "--player takes random or greedy"),
        (["--game", "mosona", "--player", "greedy,random,random"], "names 3 players"),
        (["--game", "mosona", "--seats", "3"], "played by 2 sides"),
        (["--game", "mosona", "-O", "Setup=zz"], "is not a position"),
    ],
)
def test_errors_exit_2_with_a_message(args: list[str], message: str) -> None:
    result = study(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith("zrec: ")
    assert message in result.stderr
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
