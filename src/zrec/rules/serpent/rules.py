"""Rules of the Zuni serpent games, Awithlaknannai Mosona and Kolowis Awithlaknannai.

The readings are those of docs/rules.md (Awithlaknannai Mosona; Kolowis Awithlaknannai):
pieces step along the lines of a three-row lattice or jump an adjacent enemy piece;
by default capturing is compulsory and a capturing piece jumps on while it can (the
whole chain is one move); a side with no pieces loses, a side to move with no legal
move ends the game by the end rule.  This module holds the two games and their rule
options; the engine (the position and move values, move generation, events, the
reading and writing of moves, the end, keys and the view) is in :mod:`.engine`, the
board itself (points, lines, jumps and the bitmask tests) in :mod:`.lattice`.

Rule options (record tags): ``Board`` lined|open, ``Jumps`` line|bent, ``Middle``
right|left, ``EndRule`` majority|draw, ``First`` White|Black, ``Captures``
compulsory|optional|huff, ``Chains`` whole|one|stop and, Kolowis only, ``Pieces``
24|23.  ``Captures "huff"`` cannot go with ``Chains "one"`` (building that engine
raises :class:`~zrec.rules.base.OptionConflict`).  Under ``Pieces "23"`` the first
move of the game from the standard start is a step into the centre ``b9``; capturing
does not apply to that one move (it matters only under bent jumps, where a capture
would otherwise be open at once), and under huffing it leaves no huff due.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from zrec.rules import kernel
from zrec.rules.base import (
    InputError,
    InputSpec,
    OptionConflict,
    OptionSpec,
    Setting,
    check_options,
    readings_table,
)
from zrec.rules.serpent.draws import DrawRulesEngine
from zrec.rules.serpent.engine import SIDES, SerpentEngine, SerpentMove, SerpentPosition
from zrec.rules.serpent.ludii import LUDII_BOARDS

__all__ = [
    "KOLOWIS",
    "MOSONA",
    "SerpentEngine",
    "SerpentGame",
    "SerpentMove",
    "SerpentPosition",
]


_OPTIONS: dict[str, OptionSpec] = {
    "Board": OptionSpec(
        "lined", ("lined", "open"), "lined: the outer rows are lines too; open: they are not"
    ),
    "Jumps": OptionSpec(
        "line",
        ("line", "bent"),
        "line: a jump follows one line of the drawing (the curved ends included); "
        "bent: a jump may turn at the jumped point onto any line",
    ),
    "Middle": OptionSpec(
        "right",
        ("right", "left"),
        "right: each side fills the middle points on its own right; left: on its left",
    ),
    "EndRule": OptionSpec(
        "majority",
        ("majority", "draw"),
        "how a blocked or agreed ending is scored: more pieces wins, or always a draw",
    ),
    "First": OptionSpec("White", ("White", "Black"), "the side that moves first"),
    "Captures": OptionSpec(
        "compulsory",
        ("compulsory", "optional", "huff"),
        "compulsory: a side that can capture must; optional: it may step instead; "
        "huff: it may, but the other side then removes a piece that could have jumped "
        "and did not (or stopped a chain that could go on) before its own move",
        stored_default=False,
    ),
    "Chains": OptionSpec(
        "whole",
        ("whole", "one", "stop"),
        "whole: a capturing piece jumps on while it can, the whole chain one move; "
        "one: a capture is a single jump; stop: a chain may stop after any jump",
        stored_default=False,
    ),
    "Blocked": OptionSpec(
        "endrule",
        ("endrule", "loses"),
        "a side to move with no legal move: endrule: the end rule scores the game; "
        "loses: that side loses",
        stored_default=False,
    ),
    "NoCapture": OptionSpec(
        "off",
        ("off", "50"),
        "50: the game is drawn after 50 plies in a row without a capture",
        stored_default=False,
    ),
    "Repetition": OptionSpec(
        "off",
        ("off", "3"),
        "3: the game is drawn when a position (the pieces and the side to move) occurs "
        "for the third time",
        stored_default=False,
    ),
}
_LATTICE = OptionSpec(
    "49",
    ("49", "48"),
    "49: zrec's Kolowis board; 48: Ludii's, without the east end point b17, no jump "
    "round an end, 23 pieces a side (b1 and the centre empty)",
    stored_default=False,
)
_PIECES = OptionSpec(
    "24",
    ("24", "23"),
    "24: only the centre starts empty; 23: the ends of the middle row too, and the "
    "first move is a step into the centre",
)


class SerpentGame:
    """A serpent game zrec knows: names, seats, rule options and its engines."""

    seats: tuple[str, ...] = SIDES
    #: No setup tags beyond ``Setup`` and the options.
    inputs: Mapping[str, InputSpec] = MappingProxyType({})

    def __init__(
        self,
        name: str,
        aliases: tuple[str, ...],
        title: str,
        n: int,
        readings: Mapping[str, Mapping[str, str]],
    ):
        self.name = name
        self.aliases = aliases
        self.title = title
        self.n = n
        specs = dict(_OPTIONS)
        if n == 16:
            specs["Pieces"] = _PIECES
            specs["Lattice"] = _LATTICE
        self.options: Mapping[str, OptionSpec] = MappingProxyType(specs)
        #: The named readings (``[Reading "piecepack"]``), each option at its value.
        self.readings = readings_table(self.options, readings)
        #: How Ludii's .lud of the game reads in zrec (zrec.rules.ludii).
        self.ludii = LUDII_BOARDS[n]

    def engine(self, **options: str) -> SerpentEngine:
        """The engine with these rule options (defaults for the rest; other tags are
        ignored), typed for callers: ``MOSONA.engine(Board="open")``.  Built once per
        choice of options.  Raises :class:`OptionError` for a value the game does not know,
        :class:`OptionConflict` for values that cannot go together.
        """
        chosen = check_options(self.options, options)
        _check_conflicts(chosen)
        return _engine(self.title, self.n, tuple(chosen.items()), kernel.switched_on())

    def random_tags(self, seats: int | None, rng: random.Random) -> dict[str, str]:
        if seats not in (None, 2):
            raise InputError(f"{self.title} is played by 2 sides, not {seats}", code="bad-seats")
        return {}

    def engine_for(self, setting: Setting) -> SerpentEngine:
        # the setting's options are checked already, every option present
        _check_conflicts(setting.options)
        return _engine(
            self.title, self.n, tuple(setting.options.items()), kernel.switched_on()
        )


def _check_conflicts(chosen: Mapping[str, str]) -> None:
    """Raise :class:`OptionConflict` for options that cannot go together.

    The one conflict: ``Pieces "23"`` on the 48-point board, which sets the pieces
    itself.  ``Pieces "24"``, the default, is accepted there and means nothing: the
    archive, ``zrec readings`` and the other tools write every option of a reading
    back as tags, so a default must never be refused.
    """
    if chosen.get("Lattice") == "48" and chosen.get("Pieces") == "23":
        raise OptionConflict(
            "Pieces",
            "23",
            "Lattice",
            "48",
            "the 48-point board sets the pieces itself (23 a side, b1 and the centre "
            "empty, no first-move rule); leave out the Pieces tag",
        )


@cache
def _engine(
    name: str, n: int, options: tuple[tuple[str, str], ...], compiled: bool
) -> SerpentEngine:
    """The engine of these options, made once (and once more with the kernel switched
    off: ``compiled`` is :func:`zrec.rules.kernel.switched_on` when it is made)."""
    chosen = dict(options)
    if chosen["NoCapture"] != "off" or chosen["Repetition"] != "off":
        return DrawRulesEngine(name, n, chosen)
    return SerpentEngine(name, n, chosen)


#: The named readings of each game beyond "zrec" (the defaults): what each published
#: reading sets where it differs from the defaults (docs/rules.md, the tables of sources).
MOSONA_READINGS: dict[str, dict[str, str]] = {
    # the ppgames piecepack rules: lined network, jumps along a line, compulsory
    # captures, whole chains, majority at the end, each side's middle points on its left
    "piecepack": {"Middle": "left"},
    # the same with the ppgames variant "huffing"
    "piecepack-huff": {"Middle": "left", "Captures": "huff"},
    # Ludii's Awithlaknan Mosona.lud: optional single hops, the blocked side loses
    "ludii": {"Middle": "left", "Captures": "optional", "Chains": "one", "Blocked": "loses"},
}
KOLOWIS_READINGS: dict[str, dict[str, str]] = {
    # Ludii's Kolowis Awithlaknannai.lud: the same on its 48-point board
    "ludii": {
        "Middle": "left",
        "Captures": "optional",
        "Chains": "one",
        "Blocked": "loses",
        "Lattice": "48",
    },
}

MOSONA = SerpentGame(
    "mosona",
    ("awithlaknannai mosona", "awithlaknan mosona"),
    "Awithlaknannai Mosona",
    8,
    MOSONA_READINGS,
)
KOLOWIS = SerpentGame(
    "kolowis",
    ("kolowis awithlaknannai", "fighting serpents", "awithlaknannai kolowis"),
    "Kolowis Awithlaknannai",
    16,
    KOLOWIS_READINGS,
)
