"""The plausibility metrics as people read them: what each measures, which way it
points, and its numbers at one precision.

A study's table (``zrec study``) and its offline report (``zrec study --report``)
show Ludii's metric names (:mod:`zrec.research.metrics`); a reader who has not read
docs/study.md needs each one's meaning and direction on the spot, so :func:`meaning`
gives them in one line.  :func:`digits` chooses one number of decimals for a metric's
row, for every reading alike: three, or one where some value of the row reaches 10
(a count of plies or of pieces), so that a row never mixes ``12.8`` with ``9.144``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["ABOUT", "digits", "interval", "meaning"]

#: each metric: what it measures, and what a higher value means
ABOUT: dict[str, tuple[str, str]] = {
    "DurationTurns": ("mean plies per game", "longer games"),
    "DecisionMoves": ("share of the positions played with more than one legal move",
                      "more real choices"),
    "BoardCoverageDefault": ("share of the board's points that ever held a piece, mean "
                             "over games", "more of the board used"),
    "AdvantageP1": ("share of all games the first seat to move wins",
                    "the first player favoured"),
    "Balance": ("1 minus the largest gap between two seats' shares of games won",
                "fairer between the seats (1: even)"),
    "Completion": ("share of all games that have a winner", "more games decided"),
    "Drawishness": ("share of all games drawn", "more draws"),
    "OutcomeUniformity": ("1 minus the mean over seats of the variance of a seat's "
                          "outcome (-1 loss, 0 draw, +1 win)",
                          "each seat's results more alike from game to game"),
    "PieceNumber": ("mean pieces on the board over a game's positions, mean over games",
                    "a fuller board"),
    "BoardSitesOccupied": ("mean share of the board's points holding a piece, mean over "
                           "games", "a fuller board"),
    "BranchingFactor": ("mean legal moves over all the positions played",
                        "more moves to choose from"),
    "MoveDistance": ("mean steps a move's pieces walk (a jump or a chain link: one)",
                     "longer moves"),
    "Timeouts": ("share of all games cut off at --max-plies (or stalled)",
                 "more games that do not end"),
    "SituationalRepetition": ("share of a game's positions that repeat an earlier one, "
                              "mean over games", "more repetition"),
    "Decisiveness": ("games with a winner: share of the game played before the winner's "
                     "material lead can no longer be matched", "decided later"),
    "LeadChange": ("how often the material leader changes, per step, mean over games",
                   "more swings of the lead"),
    "Stability": ("variance of each seat's material share over a game, summed over the "
                  "seats, mean over games", "less steady"),
    "Drama": ("games with a winner: mean amount by which the winner trailed in material, "
              "where it trailed", "winners come from further behind"),
}

#: the metrics given seat by seat in games of more than two seats (``Advantage:Wolves``)
_PER_SEAT = {
    "Advantage": ("share of all games SEAT wins", "SEAT favoured"),
    "Balance": ("1 minus the largest gap between SEAT's share of games won and another "
                "seat's", "SEAT's chances more even with the others'"),
}


def meaning(name: str) -> tuple[str, str]:
    """A metric's definition and what a higher value means, each a short phrase;
    ``("", "")`` for a name zrec does not know."""
    if name in ABOUT:
        return ABOUT[name]
    kind, _, seat = name.partition(":")
    if seat and kind in _PER_SEAT:
        what, higher = _PER_SEAT[kind]
        return what.replace("SEAT", seat), higher.replace("SEAT", seat)
    return "", ""


def digits(readings: Iterable[Mapping[str, Any] | None]) -> int:
    """The decimals of one metric's row: 3, or 1 when a value or a bound of any
    reading reaches 10 (``readings``: each reading's ``{"value", "low", "high"}``)."""
    numbers = [abs(r[key]) for r in readings if r for key in ("value", "low", "high")
               if r.get(key) is not None]
    return 1 if any(x >= 10 for x in numbers) else 3


def interval(reading: Mapping[str, Any] | None, places: int) -> str:
    """``0.412 [0.398, 0.427]`` with ``places`` decimals; ``-`` for a metric
    undefined or not measured."""
    if reading is None or reading.get("value") is None:
        return "-"
    value, low, high = reading["value"], reading.get("low"), reading.get("high")
    bounds = "" if low is None or high is None else f" [{low:.{places}f}, {high:.{places}f}]"
    return f"{value:.{places}f}{bounds}"
