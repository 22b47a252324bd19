"""How a game ended: the ``Termination`` tag, the same for every game.

A record ends by rule (the engine's :meth:`outcome`), by the players' agreement, or
off the board: a resignation, a loss on time, an adjudication, a forfeit.  Without a
``Termination`` tag, or with ``normal``, the engine judges the result against the
last position (:meth:`judge_end`), as it always did.  With any other value the
result is the players' or the arbiter's word: any well-formed result is accepted for
a legal record, and the validator says what the position was when the game ended.
A game the rules had already ended cannot have ended any other way.

The values are PGN's where they fit (``normal``, ``resignation``, ``time forfeit``,
``abandoned``, ``adjudication``, ``rules infraction``), and zrec adds ``agreement``
and ``forfeit`` (a game not played, often with no moves at all).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from zrec.rules.base import Engine, Finding, parse_result

__all__ = ["TERMINATIONS", "judge_ending", "termination_of"]

#: Every value of the ``Termination`` tag, and how a sentence says it of the seats
#: that lost (``{who}``) or of the game.
TERMINATIONS: Mapping[str, str] = {
    "normal": "",
    "resignation": "{who} resigned",
    "time forfeit": "{who} lost on time",
    "abandoned": "the game was abandoned",
    "adjudication": "the game was adjudicated {result}",
    "rules infraction": "{who} lost by a rules infraction",
    "agreement": "the players agreed on {result}",
    "forfeit": "{who} forfeited the game",
}


def termination_of(tags: Mapping[str, str]) -> str | None:
    """The record's termination in the spelling of :data:`TERMINATIONS` (``normal``
    without the tag), or ``None`` for a value zrec does not know."""
    written = " ".join(tags.get("Termination", "normal").split()).lower()
    return written if written in TERMINATIONS else None


def _losers(seats: Sequence[str], scores: Sequence[Fraction]) -> str:
    low = min(scores)
    losing = [seat for seat, score in zip(seats, scores, strict=True) if score == low]
    if len(losing) == len(seats):
        return "every side"
    return " and ".join(losing)


def judge_ending(
    engine: Engine[Any, Any], pos: Any, result: str, tags: Mapping[str, str]
) -> list[Finding]:
    """What to say about how a record ended, in its last position ``pos``."""
    termination = termination_of(tags)
    if termination is None:
        accepted = ", ".join(f'"{t}"' for t in TERMINATIONS)
        message = f'[Termination "{tags["Termination"]}"] is not known; accepted: {accepted}'
        return [Finding("bad-termination", "error", message, "Termination")]
    if termination == "normal":
        return engine.judge_end(pos, result, tags)
    end = engine.outcome(pos)
    if end is not None:
        message = (
            f'[Termination "{termination}"] does not fit: the game had already ended by '
            f"rule ({end.reason})"
        )
        return [Finding("wrong-termination", "error", message, "Termination")]
    seats = engine.seats
    scores = parse_result(result, len(seats))
    if scores is None and not (result == "*" and termination == "abandoned"):
        message = (
            f"the result {result} is not a result of {len(seats)} sides for a game that "
            f'ended by "{termination}"'
        )
        return [Finding("wrong-result", "error", message)]
    who = _losers(seats, scores) if scores is not None else ""
    what = TERMINATIONS[termination].format(who=who, result=result)
    return [Finding("termination", "info", f"{what} ({engine.standing(pos)})")]
