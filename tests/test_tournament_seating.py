"""``zrec archive seat``: the tables of a game of three seats by score groups, the seats
rotated (docs/tournaments.md states the method); nine players over two rounds, each
table worked out by hand, on a real SQLite archive.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from test_tournament_pairing import invoke, refused, roster, run
from zrec.tournament.seating import seat_round, table_sizes

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
NINE = [f"Player {c}" for c in "ABCDEFGHI"]  # pairing numbers 1 … 9


def test_table_sizes() -> None:
    assert table_sizes(9, 3) == [3, 3, 3]
    assert table_sizes(10, 3) == [3, 3, 2, 2]  # the last tables one seat short
    assert table_sizes(11, 4) == [4, 4, 3]
    assert table_sizes(5, 4) == [3, 2]
    with pytest.raises(ValueError, match="2 players or more, not 1"):
        table_sizes(1, 3)


def test_seat_round_gives_each_player_a_seat_they_have_had_least() -> None:
    # two tables of three: A had seat 0 twice, so it gets 1 or 2; the rotation of
    # round 3 (position i → seat (i + 2) mod 3) decides among equally good ways
    had = {1: [0, 0], 2: [1, 2], 3: [2, 1]}
    players = [(1, Fraction(2)), (2, Fraction(1)), (3, Fraction(1))]
    assert seat_round(players, 3, 3, had) == [(2, 3, 1)]


def games(table: tuple[str, ...], number: int) -> str:
    """The three-seat sample game, played at ``table`` (seat order) in round ``number``:
    the Wolves (the third seat) win."""
    text = (SAMPLES / "awethi.zrec").read_text()
    text = text.replace('[Round "-"]', f'[Round "{number}"]')
    text = text.replace("zrec sample: two shepherd players, advanced points", "Nine")
    for seat, who in zip(("Naglani, A.", "Naglani, C.", "Naglani, B."), table, strict=True):
        text = text.replace(f'"{seat}"', f'"{who}"')
    assert '[Result "0-0-1"]' in text
    return text


def tables(db: str, *options: str) -> list[tuple[int, ...]]:
    rows = json.loads(run("seat", "--db", db, "Nine", "--format", "json", *options))
    return [tuple(s["number"] for s in r["seats"]) for r in rows]


def test_nine_players_at_three_seats_over_two_rounds(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    roster(tmp_path, db, NINE, 2, "Nine")
    assert refused("seat", "--db", db, "Nine") == (
        "zrec: 'Nine' has no game to take the seats from: give --seats K\n")
    # round 1: all on 0 points, by pairing number; the rotation of round 1 is the
    # table order
    first = tables(db, "--seats", "3")
    assert first == [(1, 2, 3), (4, 5, 6), (7, 8, 9)]
    played = "\n".join(games(tuple(NINE[n - 1] for n in t), 1) for t in first)
    (tmp_path / "round1.zrec").write_text(played)
    run("import", "--db", db, "-q", str(tmp_path / "round1.zrec"))
    # the Wolves won: 3, 6 and 9 lead.  Tables: 3 6 9 | 1 2 4 | 5 7 8.
    # 3 6 9 all had seat 2: one of them must have it again; the rotation of round 2
    # (position i → seat (i + 1) mod 3) gives 9 3 6.
    # 1 2 4 had seats 0 1 0: only 2 at seat 0 with 1 and 4 at 1 and 2 gives nobody a
    # seat again; of the two ways, 1 at seat 1 is its rotation seat: 2 1 4.
    # 5 7 8 had seats 1 0 1: 7 must take seat 1; 8 at seat 0 is its rotation seat: 8 7 5.
    assert tables(db) == [(9, 3, 6), (2, 1, 4), (8, 7, 5)]  # 3 seats: the game's own
    text = run("seat", "--db", db, "Nine", "--replace")
    assert text == (
        "Nine, round 2\n\n"
        "Table  Seat 1          Seat 2          Seat 3\n"
        "    1  Player I (9) 1  Player C (3) 1  Player F (6) 1\n"
        "    2  Player B (2) 0  Player A (1) 0  Player D (4) 0\n"
        "    3  Player H (8) 0  Player G (7) 0  Player E (5) 0\n"
    )
    assert refused("pair", "--db", db, "Nine") == (
        "zrec: 'Nine' has games of 3 seats: zrec archive seat seats its tables\n")
    result = invoke("seat", "--db", db, "Nine", "--round", "3")
    assert result.exit_code == 2
    assert result.stderr == (
        "zrec: 'Nine', round 2 is not finished: Player A has no result yet; round 3 is drawn "
        "once the rounds before it have their results\n")


def test_the_most_seats_are_those_of_the_events_rule_options(tmp_path: Path) -> None:
    """Stone Warriors has four more seats under Ruleset "ludii"; an event of its default
    rules still seats two a table at most."""
    db = str(tmp_path / "a.sqlite")
    roster(tmp_path, db, NINE, 2, "Nine")
    text = (SAMPLES / "stone-warriors.zrec").read_text()
    text = text.replace('[Event "Illustrative game"]', '[Event "Nine"]')
    (tmp_path / "sw.zrec").write_text(text)
    run("import", "--db", db, "-q", str(tmp_path / "sw.zrec"))
    assert refused("seat", "--db", db, "Nine", "--seats", "3") == (
        "zrec: 'Nine': its game has at most 2 seats, not 3\n")
