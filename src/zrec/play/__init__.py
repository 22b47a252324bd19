"""The play layer: between the rules and every output.

- :mod:`zrec.play.replay`: a record's tags to its engine and start position
  (:func:`prepare`), with one error per bad tag;
- :mod:`zrec.play.walk`: the one walker over a record's main line and variations,
  shown to a visitor, and the rule for writing move numbers;
- :mod:`zrec.play.ludii`: a Ludii trial file's moves as a zrec record;
- :mod:`zrec.play.selfplay`: random legal games, rolling real dice where a game has
  them;
- :mod:`zrec.play.places`, :mod:`zrec.play.board` and :mod:`zrec.play.editing`: the
  recording board's view of a record (its moves numbered in file order; the state at
  one of them with the clicks of each legal move) and its edits.

Nothing here names a game: it uses only the engine protocol of
:mod:`zrec.rules.base`.
"""

from __future__ import annotations

from zrec.play.replay import GameSetupError, Replay, ReplayError, prepare
from zrec.play.walk import LineEnd, Step, Visitor, path_to, positions, walk, written_number

__all__ = [
    "GameSetupError",
    "LineEnd",
    "Replay",
    "ReplayError",
    "Step",
    "Visitor",
    "path_to",
    "positions",
    "prepare",
    "walk",
    "written_number",
]
