"""Round trips: text -> model -> text, and model -> JSON -> model, for any record."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings

from strategies import games
from zrec import read_game, read_string, write_game
from zrec.notation.json.schema import check_game
from zrec.notation.json.values import game_from_json, game_to_json
from zrec.notation.model import Game
from zrec.notation.writer import WIDTH

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(games)
def test_reading_what_the_writer_wrote_gives_the_same_game(game: Game) -> None:
    text = write_game(game)
    assert read_game(text) == game
    assert write_game(read_game(text)) == text
    # typographic characters in comments and tag values are content, never read as ASCII
    assert [record.notes for record in read_string(text)] == [()]


@SETTINGS
@given(games)
def test_writer_keeps_lines_under_80_columns_unless_one_token_is_longer(game: Game) -> None:
    text = write_game(game)
    body = text.split("\n\n", 1)[1]
    for line in body.splitlines():
        if len(line) > WIDTH:
            assert " " not in line or line.startswith(";") or "; " in line


@SETTINGS
@given(games)
def test_json_round_trip_is_lossless_and_schema_valid(game: Game) -> None:
    value = game_to_json(game)
    check_game(value)
    again = json.loads(json.dumps(value))
    assert game_from_json(again) == game
