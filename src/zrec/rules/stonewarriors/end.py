"""How a game of Stone Warriors scores and ends: capture events, score, outcome, result.

The score of a side is its pieces on the enemy home arm plus the enemy pieces it has
taken; the game ends after two passes in a row or when every piece a side has on the
board stands on the enemy home arm (:meth:`.position.StonePosition.over`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache

from zrec.rules.base import REMOVED, Event, Finding, Outcome
from zrec.rules.stonewarriors.board import ARMS, HOME, NAME, SIDES, arm_text, listing
from zrec.rules.stonewarriors.position import StonePosition

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_ONE, _NIL, _HALF = Fraction(1), Fraction(0), Fraction(1, 2)
_SCORES = {"1-0": (_ONE, _NIL), "0-1": (_NIL, _ONE), "1/2-1/2": (_HALF, _HALF)}
_SCORE = re.compile(r"(\d+)-(\d+)")


def capture_events(pos: StonePosition, captures: Sequence[int]) -> tuple[Event, ...]:
    """The events of a step by the side to move of ``pos`` (the position before it)
    that removes ``captures``: the removal, and the priest due after a first loss."""
    victim = 1 - pos.to_move
    first = pos.priests_off[victim] and pos.lost(victim) == 0
    return _capture_events(victim, tuple(captures), first)


@lru_cache(maxsize=4096)
def _capture_events(victim: int, captures: tuple[int, ...], first: bool) -> tuple[Event, ...]:
    """The events of a capture (made once: replaying an archive makes the same captures
    again and again); ``first``: the victim's first loss, with its priest off the board."""
    squares = tuple(sorted((NAME[c] for c in captures), key=lambda s: (s[0], int(s[1:]))))
    events = [Event(REMOVED, f"{SIDES[victim]} loses {listing(squares)}", squares)]
    if first:
        home = HOME[victim]
        words = f"{SIDES[victim]}'s priest must enter on {arm_text(home)}"
        events.append(Event("priest-due", words, tuple(NAME[i] for i in ARMS[home])))
    return tuple(events)


def score(pos: StonePosition) -> tuple[int, int]:
    """Points of White and Black: own pieces on the enemy home arm + enemy pieces taken."""
    return pos.across(0) + pos.lost(1), pos.across(1) + pos.lost(0)


def score_words(pos: StonePosition) -> str:
    """The score and how it is made up, in words."""
    parts = []
    for side, name in enumerate(SIDES):
        there, taken = pos.across(side), pos.lost(1 - side)
        words = [f"{there} on {SIDES[1 - side]}'s home arm"] if there else []
        words += [f"{taken} captured"] if taken else []
        parts.append(f"{name}: {' + '.join(words) or '0'}")
    white, black = score(pos)
    return f"the score is {white}-{black} ({'; '.join(parts)})"


def outcome(pos: StonePosition) -> Outcome | None:
    """The result when the game is over in this position, else ``None``."""
    if not pos.over():
        return None
    if pos.passes >= 2:
        termination, why = "both-passed", "both sides had to pass, one after the other"
    else:
        termination = "crossed"
        done = [s for s in (0, 1) if pos.crossed(s)]
        why = " and ".join(
            f"{SIDES[s]} has no piece left on the board"
            if pos.on_board(s) == 0
            else f"every {SIDES[s]} piece on the board stands on {SIDES[1 - s]}'s home arm"
            for s in done
        )
    white, black = score(pos)
    result = "1-0" if white > black else "0-1" if black > white else "1/2-1/2"
    return Outcome(termination, _SCORES[result], f"{why}; the score is {white}-{black}")


def judge_end(pos: StonePosition, result: str, tags: Mapping[str, str]) -> list[Finding]:
    """Check a record's result and ``Score`` tag against its last position."""
    found: list[Finding] = []
    end = outcome(pos)
    if result not in RESULTS:
        message = f"{result!r} is not a result: write 1-0, 0-1, 1/2-1/2 or *"
        found.append(Finding("wrong-result", "error", message))
    elif end is not None and result != end.result:
        message = f"the game is over ({end.reason}), so the result is {end.result}, not {result}"
        found.append(Finding("wrong-result", "error", message))
    elif end is None and result != "*":
        message = (
            f"the game is not over by rule ({SIDES[pos.to_move]} is to move; "
            f"{score_words(pos)}): the result {result} records a game ended by agreement "
            "or abandoned"
        )
        found.append(Finding("ended-early", "warning", message))
    if "Score" in tags:
        written = tags["Score"].strip()
        match = _SCORE.fullmatch(written)
        if match is None:
            message = (
                f'[Score "{tags["Score"]}"] is not a score: write the points of White and '
                'Black, e.g. [Score "4-2"]'
            )
            found.append(Finding("bad-score", "error", message, "Score"))
        elif (int(match[1]), int(match[2])) != score(pos):
            message = f'[Score "{written}"] is wrong: {score_words(pos)}'
            found.append(Finding("wrong-score", "error", message, "Score"))
    return found
