"""Written moves and move labels for the rules tests, as the notation and the play
layer would hand them over and ask for them."""

from __future__ import annotations

import re
from typing import Any, TypeVar

from zrec.moves import PASS, Action, Turn
from zrec.rules.base import Engine

P = TypeVar("P")


def turn(text: str) -> Turn:
    """A written move: ``f5-f6xf7``, ``P@g14``, ``--``."""
    if text == "--":
        return Turn((PASS,))
    if text.startswith("P@"):
        return Turn((Action("drop", (text[2:],), piece="P"),))
    squares = re.split(r"[-x]", text)
    seps = tuple(re.findall(r"[-x]", text))
    return Turn((Action("path", tuple(squares), seps, (None,) * len(seps)),))


def label(engine: Engine[P, Any], pos: P) -> tuple[int, str]:
    """The number of the next move and whose it is: ``(4, "Black")``."""
    number = engine.move_number(pos)
    return number.number, engine.seats[number.seat]
