"""``zrec archive ratings`` on real archives: the club sample (Glicko-2, an event's
rounds as periods) and random three-seat games whose seats are named by their result
(Plackett-Luce); ``--as-of``, ``--player``, ``--game`` and the errors."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from zrec.cli import app
from zrec.notation.writer import write_game
from zrec.play.selfplay import random_games
from zrec.rules import find_game
from zrec.rules.values import parse_result
from zrec.tournament.ratings import glicko2

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def run(*args: str) -> str:
    result = runner.invoke(app, ["archive", *args])
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return str(result.stdout)


def as_json(*args: str) -> Any:
    return json.loads(run(*args, "--format", "json"))


@pytest.fixture
def club(tmp_path: Path) -> str:
    db = str(tmp_path / "club.sqlite")
    files = [str(SAMPLES / "club" / f"round{n}.zrec") for n in (1, 2, 3)]
    run("import", "--db", db, "-q", *files)
    return db


def test_club_ratings_follow_the_rounds(club: str) -> None:
    (pool,) = as_json("ratings", "--db", club)
    assert pool["system"] == "glicko2" and pool["periods"] == 3
    names = [p["name"] for p in pool["players"]]
    assert names == ["Adams, Ada", "Evans, Eli", "Clark, Cal", "Dunn, Dov", "Brown, Bea"]
    # round 1: Adams beat Brown, both new: Glicko-2's period update from 1500/350
    new = glicko2.DEFAULT
    after = glicko2.update(new, [(new, 1.0)])
    (first, *_) = as_json("ratings", "--db", club, "--player", "Adams, Ada")[0]["history"]
    assert first["period"] == "Club Championship 2026, round 1"
    assert (first["rating"], first["rd"]) == (round(after.rating, 2), round(after.rd, 2))
    # the forfeit of round 2 is not rated, and says so
    result = runner.invoke(app, ["archive", "ratings", "--db", club])
    assert result.stderr == "zrec: 1 game not rated: forfeit\n"


def test_as_of_counts_only_the_games_played_by_then(club: str) -> None:
    (pool,) = as_json("ratings", "--db", club, "--as-of", "2026.09.01")
    assert pool["periods"] == 1
    assert {p["name"]: p["games"] for p in pool["players"]} == {
        "Adams, Ada": 1, "Clark, Cal": 1, "Brown, Bea": 1, "Dunn, Dov": 1}
    assert as_json("ratings", "--db", club, "--as-of", "2025") == []
    text = run("ratings", "--db", club, "--as-of", "2025")
    assert text == "no rated game\n"


def test_the_table_and_a_player_s_history(club: str) -> None:
    lines = run("ratings", "--db", club).splitlines()
    assert lines[0].endswith("(Glicko-2, 3 rating periods)")
    assert lines[2].split() == ["Rank", "Player", "Rating", "RD", "Vol", "Games"]
    assert lines[3].split()[:3] == ["1", "Adams,", "Ada"]
    history = run("ratings", "--db", club, "--player", "ada adams").splitlines()
    assert history[0].startswith("Adams, Ada: ")
    assert [line.split(",")[0] for line in history[3:]] == ["Club Championship 2026"] * 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--as-of", "2026.13.01"], "zrec: --as-of: '2026.13.01' is not a date: there is no "
                                    "month 13\n"),
        (["--as-of", "????"], "zrec: --as-of: '????' has no year: give a day, YYYY.MM.DD\n"),
        (["--player", "Nobody"], "zrec: --player: there is no player 'Nobody' in "),
        (["--format", "csv"], "zrec: --format is text or json, not 'csv'\n"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(club: str, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["archive", "ratings", "--db", club, *args])
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


def test_an_unknown_game_is_refused(club: str) -> None:
    result = runner.invoke(app, ["archive", "ratings", "--db", club, "--game", "chess"])
    assert result.exit_code == 2 and "--game: " in result.stderr


def three_seat_archive(tmp_path: Path) -> str:
    """Random legal three-seat games, each seat named by the game's result: A takes
    the best place, B the next, C the last (a win alone, a shared first place or a
    shared last place)."""
    rules = find_game("awethi")
    wanted = {"1-0-0": 2, "0-0-1": 2, "0-1/2-1/2": 2, "1/2-0-1/2": 1}
    texts: list[str] = []
    for game in random_games(rules, {}, 40, 7, seats=2):
        if wanted.get(game.result, 0) == 0:
            continue
        wanted[game.result] -= 1
        scores = parse_result(game.result, 3)
        assert scores is not None
        # the seats by place, best first (ties in seat order): A, B, C
        seats = sorted(range(3), key=lambda i: (-scores[i], i))
        names = dict(zip(seats, "ABC", strict=True))
        roles = [k for k, _ in game.tags if k in rules.seats]  # the seats played
        tags = [(k, names[roles.index(k)] if k in roles else v) for k, v in game.tags]
        tags = [(k, "2026.05.0" + str(len(texts) + 1) if k == "Date" else v) for k, v in tags]
        texts.append(write_game(replace(game, tags=tuple(tags))))
    assert sum(wanted.values()) == 0 and len(texts) == 7
    file = tmp_path / "seats.zrec"
    file.write_text("\n".join(texts), encoding="utf-8")
    db = str(tmp_path / "seats.sqlite")
    run("import", "--db", db, "-q", str(file))
    return db


def test_three_seat_games_are_rated_by_plackett_luce(tmp_path: Path) -> None:
    db = three_seat_archive(tmp_path)
    (pool,) = as_json("ratings", "--db", db, "--game", "Awéthi")
    assert pool["system"] == "plackett-luce" and pool["periods"] == 7
    # A is never behind anybody and B never behind C: A > B > C
    assert [p["name"] for p in pool["players"]] == ["A", "B", "C"]
    for player in pool["players"]:
        assert player["rating"] == round(player["mu"] - 3 * player["sigma"], 2)
        assert player["games"] == 7
    assert as_json("ratings", "--db", db, "--game", "mosona") == []


def test_a_result_recorded_without_moves_is_rated(tmp_path: Path) -> None:
    db = str(tmp_path / "results.sqlite")
    record = tmp_path / "r.zrec"
    record.write_text(
        '[Game "Mosona"]\n[Event "Results only"]\n[Date "2026.11.01"]\n[Round "1"]\n'
        '[White "Ames, Al"]\n[Black "Bell, Bo"]\n[Result "1-0"]\n'
        '[Termination "adjudication"]\n\n1-0\n',
        encoding="utf-8",
    )
    run("import", "--db", db, "-q", str(record))
    (pool,) = as_json("ratings", "--db", db)
    after = glicko2.update(glicko2.DEFAULT, [(glicko2.DEFAULT, 1.0)])
    assert [(p["name"], p["rating"], p["games"]) for p in pool["players"]] == [
        ("Ames, Al", round(after.rating, 2), 1),
        ("Bell, Bo", round(3000 - after.rating, 2), 1),
    ]


def test_a_list_is_headed_by_the_game_s_name_and_the_options_not_its_defaults(
    club: str, tmp_path: Path
) -> None:
    heading = run("ratings", "--db", club).splitlines()[0]
    assert heading == "Awithlaknannai Mosona (Glicko-2, 3 rating periods)"
    bent = tmp_path / "bent.zrec"
    bent.write_text('[Game "mosona"]\n[White "Ann"]\n[Black "Bob"]\n[Result "0-1"]\n'
                    '[Jumps "bent"]\n[Date "2026.01.02"]\n[Termination "resignation"]\n\n0-1\n')
    run("import", "--db", club, "-q", str(bent))
    headings = [line for line in run("ratings", "--db", club).splitlines()
                if "rating period" in line]
    assert headings == ["Awithlaknannai Mosona, Jumps=bent (Glicko-2, 1 rating period)",
                        "Awithlaknannai Mosona (Glicko-2, 3 rating periods)"]
    # the JSON keeps the stored name and every option
    options = [p["options"] for p in as_json("ratings", "--db", club)]
    assert options[0] == "Board=lined;Jumps=bent;Middle=right;EndRule=majority;First=White"


def test_a_roster_s_ratings_are_the_players_starting_ratings(tmp_path: Path) -> None:
    db = str(tmp_path / "spring.sqlite")
    run("roster", "--db", db, str(SAMPLES / "club" / "spring.trf"))
    run("import", "--db", db, "-q", str(SAMPLES / "club" / "spring-round1.zrec"))
    # round 1: Adams (1990 in the TRF) beat Evans (1950), both from the roster's rating
    adams, evans = glicko2.Glicko(rating=1990.0), glicko2.Glicko(rating=1950.0)
    after = glicko2.update(adams, [(evans, 1.0)])
    (step,) = as_json("ratings", "--db", db, "--player", "Adams, Ada")[0]["history"]
    assert (step["rating"], step["rd"]) == (round(after.rating, 2), round(after.rd, 2))
    assert step["rating"] > 1990
    heading = run("ratings", "--db", db).splitlines()[0]
    assert heading == ("Awithlaknannai Mosona (Glicko-2, 1 rating period; 8 players started "
                       "from a roster's rating)")


def test_the_site_and_the_server_say_who_started_from_a_roster(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from zrec.serve.app import create_app

    db = str(tmp_path / "spring.sqlite")
    run("roster", "--db", db, str(SAMPLES / "club" / "spring.trf"))
    run("import", "--db", db, "-q", str(SAMPLES / "club" / "spring-round1.zrec"))
    site = tmp_path / "site"
    run("publish", "--db", db, "Spring Swiss 2026", "--ratings", "-o", str(site))
    listed = (site / "ratings" / "pool-1.html").read_text(encoding="utf-8")
    assert ("<title>Awithlaknannai Mosona</title>" in listed
            and "Glicko-2 · 1 rating period · 8 players · 8 players started from a roster's "
            "rating" in listed)
    with TestClient(create_app(db)) as client:
        page = client.get("/ratings").text
    assert "<h2>Awithlaknannai Mosona (Glicko-2)</h2>" in page
    assert "<p>1 rating period; 8 players started from a roster's rating</p>" in page
