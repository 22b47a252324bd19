"""Written moves for the rules tests, built as the notation would hand them over."""

from __future__ import annotations

import re

from zrec.moves import PASS, Action, Turn


def turn(text: str) -> Turn:
    """A written move: ``f5-f6xf7``, ``P@g14``, ``--``."""
    if text == "--":
        return Turn((PASS,))
    if text.startswith("P@"):
        return Turn((Action("drop", (text[2:],), piece="P"),))
    squares = re.split(r"[-x]", text)
    seps = tuple(re.findall(r"[-x]", text))
    return Turn((Action("path", tuple(squares), seps, (None,) * len(seps)),))
