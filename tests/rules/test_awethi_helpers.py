"""Helpers for the Awéthi rules tests (docs/rules.md, Awéthi): engines, written turns, positions.

Also checks the helpers themselves and the engine against the protocol, with mypy."""

from __future__ import annotations

from typing import Any

import pytest

from zrec.moves import Turn
from zrec.notation.grammar import parse_turn_text
from zrec.rules.awethi.board import default_map
from zrec.rules.awethi.rules import AWETHI, AwethiEngine, AwethiMove, AwethiPosition
from zrec.rules.base import Engine, Event, GameRules, IllegalMoveError

HERD = "cwcbwc"  # on c4 d4 e4 / c3 d3 e3 (Shepherd1): calf, cow, calf / bull, cow, calf


def engine(
    seats: int = 2, points: str = "basic", catch: str = "owner", herd: str = HERD
) -> AwethiEngine:
    return AwethiEngine(default_map(), seats, (herd,) * seats, points, catch)


E1, E2, E4 = engine(1), engine(2), engine(4)


def turn(text: str) -> Turn:
    return parse_turn_text(text)


def move(e: AwethiEngine, pos: AwethiPosition, text: str) -> AwethiMove:
    return e.resolve(pos, turn(text)).move


def play(e: AwethiEngine, pos: AwethiPosition, *texts: str) -> AwethiPosition:
    for text in texts:
        pos, _ = e.apply(pos, move(e, pos, text))
    return pos


def events(e: AwethiEngine, pos: AwethiPosition, text: str) -> list[tuple[str, str]]:
    return [(x.code, x.message) for x in e.apply(pos, move(e, pos, text))[1]]


def after(
    e: AwethiEngine, pos: AwethiPosition, text: str
) -> tuple[AwethiPosition, tuple[Event, ...]]:
    return e.apply(pos, move(e, pos, text))


def refusal(e: AwethiEngine, pos: AwethiPosition, text: str | Turn) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as caught:
        e.resolve(pos, turn(text) if isinstance(text, str) else text)
    return caught.value


def pieces(e: AwethiEngine, pos: AwethiPosition) -> dict[str, str]:
    """Square -> the codes standing there (``"S1 S1"``, ``"W1"`` a caught cow, ``"X"``)."""
    found: dict[str, list[str]] = {}
    for p in e.view(pos).pieces:
        if p.kind in ("sheltered", "eaten"):
            continue
        code = p.code.upper() if p.state == "caught" else p.code
        found.setdefault(p.square, []).extend([code] * p.count)
    return {square: " ".join(codes) for square, codes in found.items()}


def _check(e: Engine[Any, Any]) -> None:
    """The engine as the protocol declares it (mypy checks the call below)."""
    assert e.seats[-1] == "Wolves" and e.title == "Awéthi"


def test_the_engine_and_the_game_meet_the_protocol() -> None:
    _check(E2)
    game: GameRules = AWETHI
    assert game.name == "awethi" and game.title == "Awéthi"


def test_helpers() -> None:
    pos = E2.place({"c5": "S1", "d5": "c1 ", "e5": "w2/1", "f5": "X"})
    assert pieces(E2, pos) == {
        "a1": "S1 S1 S1",
        "c5": "S1",
        "d5": "c1",
        "e5": "W2",
        "f5": "X",
        "m13": "X",
        "y25": "S2 S2 S2 S2",
    }
