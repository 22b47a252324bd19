"""Rules of Awéthi, exactly as docs/rules.md (Awéthi) reads the Awéthi rules text.

Shepherd players (Shepherd1 ... ShepherdN, N = 1-4) and the Wolves.  Play goes round
the seats in groups: the seat's herd turn (``3: H``), its shepherds' turn
(``2413e: a1-a2, ...``) and, once the wolves are awake, one wolf turn (``35: m13-...``
or ``26: --``).  The board is a map (``[Map "default"]`` or inline) and every herd's
hidden order is a ``HerdK`` tag.  This module holds the game object; the engine
(:mod:`.engine`, with ``place``) hands each part to a module: :mod:`.board` (board,
map, herd tags), :mod:`.position` (positions, moves, the herd's walks, catches),
:mod:`.turns` (the kind and dice of a written turn, the herd's turn),
:mod:`.shepherds` (the shepherds' turn applied and built) and :mod:`.paths` (read),
:mod:`.wolves` (the wolf turn), :mod:`.end` (outcome, scores) and :mod:`.view` (view,
text, key).

Diagnostic codes of a refused turn (``IllegalMoveError.code``), each with an example:

- ``game-over``: a turn after the game has ended ("the game is over: Shepherd2's herd
  is gone; ...").
- ``turn-order``: the kind of turn written is not the one due; a missing wolf turn is
  reported at the herd turn written in its place ("the wolves are awake: the wolf turn
  of move 4 is due after Shepherd1's shepherds' turn (...), not a herd turn").
- ``dice``: no dice, a die out of range, the wrong number of dice, an option letter
  missing, unknown or where none belongs ("a shepherds' turn rolls four dice, not 3
  (e.g. 2413e)").
- ``form``: actions without the shape of their turn: a herd turn is its die and ``H``
  alone, a wolf turn one path or ``--``, a shepherd's path joins squares with ``-`` or
  is a jump ``c3>a1`` to its own shelter, nothing is jumped ("path 2, c3>y25: a
  shepherd goes back only to its own shelter, a1").
- ``path-count``: not one path per shepherd ("Shepherd1 has 4 shepherds: write 4 paths,
  one for each, not 3").
- ``path-cost``: a path that does not cost its amount ("path 2, c3-c4-d5, costs 3 (a
  diagonal step costs 2) but its die is 4").
- ``path-blocked``: a square visited twice, off the board, the Lair, another seat's
  shelter, a square holding a piece, a step to a square not next to the last, no
  unmoved shepherd of the seat on the first square ("path 1, a1-b2-c3: c3 holds
  Shepherd1's calf").
- ``forced-move``: a stay or a jump back while a legal path exists, a stay in water, a
  path from water ending in water, a jump back from the own shelter ("path 3, a1: the
  shepherd on a1 can move 2 (e.g. a1-a2-a3), so it must").
- ``wolf-move``: any illegal wolf path: its distance, a step not along a rank or file,
  water, a shelter or a shepherd stepped on, not further in the rolled direction, an
  end next to a shepherd without eating, another wolf outside the Lair, ``x`` missing
  or wrongly written, a caught animal, no wolf on the first square ("the wolf must end
  at least one square further south than m13").
- ``wolf-pass``: ``--`` while a wolf can move ("a wolf can move (e.g. m13-m12-m11): --
  is written only when no wolf has a legal move").

Setup codes (``InputError.code``): ``bad-seats`` (no ``Shepherd`` tag, or a gap),
``missing-herd`` (a seat in play without its ``HerdK``), ``bad-herd``, ``bad-map``;
the result's code is ``wrong-result``.

Readings fixed here where docs/rules.md leaves a choice:

- **Herding points of a map**: each ``h`` square belongs to the corner shelter nearest
  to it in orthogonal steps; an ``h`` square as near to two shelters is an error, and
  each corner needs exactly six (they need not touch).  A shelter ``s`` stands only on
  a corner, ``L`` only on ``m13``; forest outside the centre district is allowed; the
  water counts per district are not checked (docs/rules.md gives them for the default
  map only).  ``[Map "default"]`` is read case-insensitively.
- **Herd tags**: a ``HerdK`` tag is checked whenever it is present (the tags are read
  before the seats); a valid one for a seat not in play is ignored.  ``Shepherd5`` and
  beyond are not seats and are ignored.
- **Completing catches** belongs to the shepherds' turn: after the herd turn the catch
  still shows as pending; the turn's events list completions and lapses first, then the
  wolves waking, then the new catches.
- **Herd turn of a herd whose animals are all caught**: nothing moves; it is still the
  seat's herd turn, written ``d: H``, and its first one still turns the herd face up.
- **Shepherds are alike**: a path belongs to any unmoved shepherd of the seat on its
  first square; a shepherd with no legal path outside water may stay or go back, as
  the player writes.
- **A wolf move is its path**: two paths to the same end are two moves (``legal_moves``
  lists every path); a wolf may end on an animal of any herd; the Lair counts as free
  for wolves (however many stand there), but not when a shepherd stands next to it.
- **A caught animal is a piece** until its catch completes: no shepherd enters its
  square, an animal passes over it but does not end there, a wolf passes over it but
  neither ends there nor eats it.
- **Eaten animals** are counted by herd (their owner's) for the text and the standing;
  under ``[Points "advanced"]`` every eaten animal scores for the Wolves.
- **Scores**: ``[Points "advanced"]`` with every side on 0 points is a tie of all sides
  (1/2 each); ``[Points "basic"]`` gives 1/2 to every seat sharing M ≥ 4, however many.
- **Which turn was written** (for ``turn-order``): ``H`` makes a herd turn; several
  actions or four dice a shepherds' turn; two dice or ``--`` a wolf turn; else an
  option letter a shepherds' turn; anything else is read as the turn that is due.
- **legal_moves of a shepherds' turn** does not list every turn (there are far too
  many): it returns two representatives, one per option (``e``, then ``s``), the
  shepherds in order of their squares, each taking the first legal path in search
  order (N, E, S, W, then the diagonals), else staying (in water: going back).  Without
  a roll ``legal_moves`` returns nothing: every Awéthi turn rolls dice.
- **The key** leaves out the move number and which herds are face up (neither affects
  play).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from zrec.rules import kernel
from zrec.rules.awethi.board import AwethiMap, default_map, parse_herd, parse_map
from zrec.rules.awethi.engine import TITLE, AwethiEngine
from zrec.rules.awethi.position import AwethiMove, AwethiPosition
from zrec.rules.base import InputError, InputSpec, OptionSpec, Setting, readings_table

__all__ = ["AWETHI", "Awethi", "AwethiEngine", "AwethiMap", "AwethiMove", "AwethiPosition"]


# -- the game ------------------------------------------------------------------------------

OPTIONS: Mapping[str, OptionSpec] = MappingProxyType(
    {
        "Points": OptionSpec(
            "basic",
            ("basic", "advanced"),
            "basic: the most animals in one shelter decides (M ≤ 2 the wolves win, M = 3 "
            "those seats draw with the wolves, M ≥ 4 the seats with M win); advanced: "
            "calf 1, cow 3, bull 5 points per animal sheltered (a seat) or eaten (the "
            "wolves), the most points win",
        ),
        "Catch": OptionSpec(
            "owner",
            ("owner", "catcher"),
            "owner: a completed catch goes to the shelter of the animal's owner; catcher: "
            "to the shelter of the seat that caught it, and counts for that seat",
        ),
    }
)

_HERD_DOC = (
    "the hidden order of Shepherd{k}'s herd: 3 c (calf), 2 w (cow), 1 b (bull) on the "
    "six squares of its herding point in map reading order"
)
INPUTS: Mapping[str, InputSpec] = MappingProxyType(
    {
        "Map": InputSpec(
            "the board: default, or a map string (25 rows from rank 25 down, joined by /; "
            "a number repeats the letter after it)",
            parse_map,
        ),
        **{f"Herd{k}": InputSpec(_HERD_DOC.format(k=k), parse_herd) for k in range(1, 5)},
    }
)
SEATS = ("Shepherd1", "Shepherd2", "Shepherd3", "Shepherd4", "Wolves")


class Awethi:
    """Awéthi: its names, seats, rule options, setup inputs and engines."""

    name: str = "awethi"
    aliases: tuple[str, ...] = ("awéthi", "awethi!")
    title: str = TITLE
    seats: tuple[str, ...] = SEATS
    options: Mapping[str, OptionSpec] = OPTIONS
    inputs: Mapping[str, InputSpec] = INPUTS
    #: The named readings (``[Reading "zrec"]``), each option at its value.
    readings: Mapping[str, Mapping[str, str]] = readings_table(OPTIONS, {})

    def random_tags(self, seats: int | None, rng: random.Random) -> dict[str, str]:
        n = 2 if seats is None else seats
        if not 1 <= n <= 4:
            raise InputError(
                f"{TITLE} is played by 1 to 4 shepherd players and the wolves, not {seats}",
                "seats",
                "bad-seats",
            )
        tags = {f"Shepherd{k}": "random" for k in range(1, n + 1)}
        tags["Wolves"] = "random"
        for k in range(1, n + 1):
            herd = list("cccwwb")
            rng.shuffle(herd)
            tags[f"Herd{k}"] = "".join(herd)
        return tags

    def engine_for(self, setting: Setting) -> AwethiEngine:
        tags, inputs = setting.tags, setting.inputs
        present = [k for k in range(1, 5) if f"Shepherd{k}" in tags]
        if not present:
            raise InputError(
                'the record names no shepherd player: write [Shepherd1 "..."] ... '
                '[ShepherdN "..."] for N = 1 to 4',
                "Shepherd1",
                "bad-seats",
            )
        n = max(present)
        missing = next((k for k in range(1, n + 1) if k not in present), 0)
        if missing:
            raise InputError(
                f"Shepherd{n} plays but Shepherd{missing} is missing: the shepherd seats go "
                "Shepherd1 ... ShepherdN with no gap",
                f"Shepherd{missing}",
                "bad-seats",
            )
        herds = []
        for k in range(1, n + 1):
            tag = f"Herd{k}"
            herd = inputs.get(tag)
            if herd is None and tag in tags:
                herd = _parsed(parse_herd, tags[tag], tag, "bad-herd")
            if herd is None:
                raise InputError(
                    f"Shepherd{k} plays, so the record states its herd's order, e.g. "
                    f'[{tag} "cwcbwc"]',
                    tag,
                    "missing-herd",
                )
            herds.append(str(herd))
        amap = inputs.get("Map")
        if amap is None:
            amap = _parsed(parse_map, tags["Map"], "Map", "bad-map") if "Map" in tags else None
        if not isinstance(amap, AwethiMap):
            amap = default_map()
        options = setting.options
        return _engine(
            amap,
            n,
            tuple(herds),
            options.get("Points", "basic"),
            options.get("Catch", "owner"),
            kernel.switched_on(),
        )


def _parsed(parse: object, text: str, tag: str, code: str) -> object:
    assert callable(parse)
    try:
        return parse(text)
    except InputError as exc:
        raise InputError(exc.reason, tag, code) from None


@lru_cache(maxsize=64)
def _engine(
    amap: AwethiMap, seats: int, herds: tuple[str, ...], points: str, catch: str, compiled: bool
) -> AwethiEngine:
    """One engine per map, seats, herds and options, made once (and once more with the
    kernel switched off: ``compiled`` is :func:`zrec.rules.kernel.switched_on`)."""
    return AwethiEngine(amap, seats, herds, points, catch)


AWETHI = Awethi()
