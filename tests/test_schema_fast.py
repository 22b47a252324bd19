"""The schema check's short way (:func:`zrec.notation.json.schema._surely_valid`: the game without
its moves, then each move and each tag pair, each checked once) says exactly what the
whole check says, on valid games and on games broken in every place; and a broken game
still gets the whole check's error."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import games
from zrec import resources
from zrec.notation.json import schema
from zrec.notation.json.values import game_to_json
from zrec.notation.model import Game

#: values put in place of a part of a game: right and wrong types, edge numbers, parts
#: of other places
ODD = [
    None,
    True,
    False,
    0,
    1,
    3,
    1.0,
    2.5,
    -1,
    999_999,
    1_000_000,
    "",
    "x",
    "Game",
    "b4-b5",
    "1-0",
    [],
    {},
    ["Game"],
    ["Game", ""],
    ["Game", "mosona"],
    ["Event", "x\ny"],
    ["1bad", "x"],
    {"move": "b4-b5"},
    {"move": ""},
    {"move": "b4-b5", "number": 7},
    {"move": "b4-b5", "dots": 3},
    {"move": "b4-b5", "number": 7.0},
    {"move": "b4-b5", "number": True},
    {"text": "c"},
]


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON value, the value itself first."""
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _places(item, (*path, index))
    return out


def _broken(value: Any, place: tuple[Any, ...], how: str, odd: Any) -> Any:
    """``value`` with the part at ``place`` replaced, removed, or given an extra key."""
    value = copy.deepcopy(value)
    if not place:
        return odd if how == "replace" else value
    parent = value
    for step in place[:-1]:
        parent = parent[step]
    last = place[-1]
    if how == "replace":
        parent[last] = odd
    elif how == "remove":
        del parent[last]
    elif isinstance(parent[last], dict):
        parent[last]["extra"] = odd
    else:
        parent[last] = [parent[last], odd]
    return value


def _same_answer(value: Any) -> bool:
    whole = schema.validator().is_valid(value)
    assert schema._surely_valid(value) == whole
    return whole


@settings(max_examples=300, deadline=None)
@given(games, st.data())
def test_the_short_way_agrees_with_the_whole_check(game: Game, data: st.DataObject) -> None:
    value = game_to_json(game)
    assert _same_answer(value)
    places = _places(value)
    for _ in range(3):
        place = data.draw(st.sampled_from(places))
        how = data.draw(st.sampled_from(["replace", "remove", "extra"]))
        odd = data.draw(st.sampled_from(ODD))
        _same_answer(_broken(value, place, how, odd))


def test_numbers_the_schema_refuses_are_not_taken_for_1() -> None:
    good: dict[str, Any] = {
        "tags": [["Game", "mosona"]],
        "moves": [{"move": "b4-b5", "number": 1}],
        "result": "*",
    }
    assert _same_answer(good)
    for number in (0, 1_000_000, 2.5, True, "1", None):
        bad = copy.deepcopy(good)
        bad["moves"][0]["number"] = number
        assert not _same_answer(bad), number
    # an integral float is an integer to the schema
    whole = copy.deepcopy(good)
    whole["moves"][0]["number"] = 7.0
    assert _same_answer(whole)


@pytest.mark.parametrize(
    ("value", "path", "message"),
    [
        (
            {"tags": [["Event", "x"]], "moves": [], "result": "*"},
            "$.tags",
            'every game needs a ["Game", "..."] tag naming what game it records',
        ),
        (
            {"tags": [["Game", "mosona"]], "moves": [{"move": "b4-b5", "dots": 3}], "result": "*"},
            "$.moves[0]",
            '"dots" is only allowed with "number"',
        ),
    ],
)
def test_a_broken_game_gets_the_whole_checks_error(value: Any, path: str, message: str) -> None:
    schema._surely_valid({"tags": [["Game", "mosona"]], "moves": [], "result": "*"})  # cached
    with pytest.raises(schema.SchemaError) as info:
        schema.check_game(value)
    assert (info.value.path, info.value.message) == (path, message)


def test_a_tuple_is_not_taken_for_the_list_seen_before() -> None:
    """The parts seen are kept by an exact, type-tagged form: a tuple (not an array to the
    schema) or a surrogate pair does not pass as the list or the character checked before."""
    good = {"tags": [["Game", "mosona"], ["Event", "e"]], "moves": [], "result": "*"}
    assert _same_answer(good)
    assert not _same_answer({**good, "tags": [["Game", "mosona"], ("Event", "e")]})
    assert not _same_answer({**good, "moves": [("move", "b4-b5")]})
    moves = [{"move": "b4-b5", "comments_after": [{"text": "\U0001f600"}]}]
    assert _same_answer({**good, "moves": moves})
    pair = [{"move": "b4-b5", "comments_after": [{"text": "\ud83d\ude00"}]}]
    assert _same_answer({**good, "moves": pair}) == schema.validator().is_valid(
        {**good, "moves": pair}
    )


def test_the_schema_uses_only_the_keywords_the_short_way_handles() -> None:
    """The short way checks the moves and the tag pairs one by one: right only while
    the schema reaches them through ``items`` (and the Game tag through ``contains``),
    and while nothing in a move but its number's range depends on the number."""
    loaded = resources.schema()
    defs = loaded["$defs"]
    assert set(loaded) - {"$defs"} <= schema.GAME_KEYWORDS
    tags = loaded["properties"]["tags"]
    assert set(tags) <= schema.TAGS_KEYWORDS
    assert tags["items"] == {"$ref": "#/$defs/tag"}
    assert loaded["properties"]["moves"] == {"$ref": "#/$defs/moves"}
    assert set(defs["moves"]) <= schema.MOVES_KEYWORDS
    assert defs["moves"]["items"] == {"$ref": "#/$defs/node"}
    number = defs["node"]["properties"]["number"]
    assert {k: v for k, v in number.items() if k != "description"} == {
        "type": "integer",
        "minimum": 1,
        "maximum": 999_999,
    }
    assert "number" not in json.dumps({k: v for k, v in defs["node"].items() if k != "properties"}
                                      ).replace('"dots": ["number"]', "")


def test_the_guard_fails_when_the_schema_grows_a_keyword(monkeypatch: pytest.MonkeyPatch) -> None:
    grown = copy.deepcopy(resources.schema())
    grown["properties"]["tags"]["maxItems"] = 3
    monkeypatch.setattr(resources, "schema", lambda: grown)
    with pytest.raises(AssertionError):
        test_the_schema_uses_only_the_keywords_the_short_way_handles()
