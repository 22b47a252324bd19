"""Ludii's trial files, read as data: the text that Ludii (the Digital Ludeme Project's
general game system) saves for a played game.

A trial file names its game (``game=``, the ``.lud`` file's path or name), lists the game
options it was played with, and then every move, one ``Move=[Move:...]`` line each:
first the placements that set up the start (``numInitialPlacementMoves`` of them), then
the moves played.  A move names its mover (0 for the placements), its ``from`` and ``to``
sites (Ludii's site indices) and its actions: ``Remove`` (a piece taken off a site),
``Add`` (a piece of a component placed on a site), ``Move`` (a piece moved) and others
(scores, for example) that are kept by kind only.  The file ends with the game's status:
``winner=`` (0 for none), ``endtype=`` (``NaturalEnd``, ``TurnLimit``, ...) and
``rankings=``.

This module reads that text into plain values and knows no game: mapping sites to a
game's points and moves to zrec's notation is the game's business
(:mod:`zrec.rules.ludii`).  A line that is not of a trial's form is an error naming the
file, the line and the reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from zrec.errors import ZrecError

__all__ = ["LudiiAction", "LudiiMove", "LudiiTrial", "LudiiTrialError", "read_trial"]


class LudiiTrialError(ZrecError, ValueError):
    """A text that cannot be read as a Ludii trial; the message names the file and line."""


@dataclass(frozen=True)
class LudiiAction:
    """One action of a move: its kind (``Remove``, ``Add``, ``Move``, ``SetScore``, ...)
    and its fields as written (``to``, ``what``, ``type``, ...)."""

    kind: str
    fields: tuple[tuple[str, str], ...]

    def get(self, key: str) -> str | None:
        """The value of a field, or None."""
        for k, v in self.fields:
            if k == key:
                return v
        return None


@dataclass(frozen=True)
class LudiiMove:
    """One ``Move=`` line: its line number, mover, sites and actions."""

    line: int
    mover: int
    source: int
    target: int
    actions: tuple[LudiiAction, ...]

    def sites(self, kind: str) -> tuple[int, ...]:
        """The ``to`` sites of the actions of one kind on the board (``Vertex`` or
        ``Cell`` sites that a ``type`` field names; a field-less site counts too)."""
        return tuple(int(a.get("to") or 0) for a in self.actions if a.kind == kind)

    @property
    def passes(self) -> bool:
        """Whether the move is a pass (a ``Pass`` action; it has no sites)."""
        return any(a.kind == "Pass" for a in self.actions)

    @property
    def removed(self) -> tuple[int, ...]:
        """The sites a piece is taken from (``Remove`` actions)."""
        return self.sites("Remove")


@dataclass(frozen=True)
class LudiiTrial:
    """A whole trial: the game's Ludii name, the placements, the moves and the end."""

    name: str  # the game's name: the game= line's file name without ".lud"
    options: tuple[str, ...]
    placements: tuple[LudiiMove, ...]
    moves: tuple[LudiiMove, ...]
    winner: int | None  # None when the trial does not say (it stopped before an end)
    endtype: str | None
    rankings: tuple[float, ...]  # each player's rank, from index 1 (index 0 unused)
    version: str | None
    game_line: int


_MOVE = re.compile(r"\[Move:mover=(-?\d+),(?:from=(-?\d+),to=(-?\d+),)?actions=(.*)\]")
_ACTION = re.compile(r"\[(\w+):([^\[\]]*)\]")
_FIELD = re.compile(r"(\w+)=([^,]*)")
_SIMPLE = (
    "RNG internal state=",
    "LEGAL MOVES LIST SIZE",
    "SANDBOX=",
)


def _move(text: str, line: int, where: str) -> LudiiMove:
    match = _MOVE.fullmatch(text)
    if match is None:
        raise LudiiTrialError(f"{where}: not a Ludii move: {_short(text)}")
    actions = []
    rest = match.group(4)
    position = 0
    for found in _ACTION.finditer(rest):
        between = rest[position : found.start()]
        if between.strip(","):
            raise LudiiTrialError(f"{where}: not a Ludii action: {_short(between)}")
        position = found.end()
        fields = tuple((k, v) for k, v in _FIELD.findall(found.group(2)))
        actions.append(LudiiAction(found.group(1), fields))
    if rest[position:].strip(","):
        raise LudiiTrialError(f"{where}: not a Ludii action: {_short(rest[position:])}")
    for action in actions:
        for key in ("to", "from", "what"):
            value = action.get(key)
            if value is not None and not re.fullmatch(r"-?\d+", value):
                raise LudiiTrialError(f"{where}: {action.kind}'s {key} is not a number: {value!r}")
    mover, source, target = (int(match.group(i) or -1) for i in (1, 2, 3))
    return LudiiMove(line, mover, source, target, tuple(actions))


def _short(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def read_trial(text: str, name: str = "<input>") -> LudiiTrial:
    """Read a Ludii trial file's text; ``name`` is the file's name for messages.

    Raises :class:`LudiiTrialError` naming the line for a line that is not of a trial's
    form, a number that is not one, a missing ``game=`` line or no ``Move=`` line."""
    game: str | None = None
    game_line = 0
    options: list[str] = []
    in_options = False
    in_legal = False
    moves: list[LudiiMove] = []
    placements_count: int | None = None
    winner: int | None = None
    endtype: str | None = None
    rankings: tuple[float, ...] = ()
    version: str | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"{name}:{number}"
        if not line:
            continue
        if in_options:
            if line == "END GAME OPTIONS":
                in_options = False
            else:
                options.append(line)
            continue
        if in_legal:  # the legal moves Ludii stored with the trial: not moves played
            in_legal = line != "END LEGAL MOVES LIST"
            continue
        key, sep, value = line.partition("=")
        if line.startswith("Move="):
            moves.append(_move(line[len("Move=") :], number, where))
        elif line == "START GAME OPTIONS":
            in_options = True
        elif line == "NEW LEGAL MOVES LIST":
            in_legal = True
        elif sep and key == "game":
            if game is not None:
                raise LudiiTrialError(f"{where}: a second game= line")
            game = re.sub(r"\.lud$", "", value.strip().replace("\\", "/").rsplit("/", 1)[-1])
            game_line = number
        elif sep and key in ("numInitialPlacementMoves", "winner"):
            if not re.fullmatch(r"-?\d+", value.strip()):
                raise LudiiTrialError(f"{where}: {key} is not a number: {value.strip()!r}")
            if key == "winner":
                winner = int(value)
            else:
                placements_count = int(value)
        elif sep and key == "rankings":
            try:
                rankings = tuple(float(r) for r in value.split(","))
            except ValueError:
                why = f"rankings are not numbers: {_short(value)}"
                raise LudiiTrialError(f"{where}: {why}") from None
        elif sep and key == "endtype":
            endtype = value.strip()
        elif sep and key == "LUDII_VERSION":
            version = value.strip()
        elif line.startswith(_SIMPLE):
            continue
        else:
            raise LudiiTrialError(f"{where}: not a line of a Ludii trial: {_short(line)}")
    if in_options:
        raise LudiiTrialError(f"{name}: START GAME OPTIONS has no END GAME OPTIONS")
    if game is None:
        raise LudiiTrialError(f"{name}: no game= line: this is not a Ludii trial")
    if placements_count is None:  # older trials: the placements are the mover-0 moves
        placements_count = 0
        while placements_count < len(moves) and moves[placements_count].mover == 0:
            placements_count += 1
    if placements_count > len(moves):
        raise LudiiTrialError(
            f"{name}: numInitialPlacementMoves={placements_count}, but the trial has "
            f"{len(moves)} moves"
        )
    return LudiiTrial(
        game,
        tuple(options),
        tuple(moves[:placements_count]),
        tuple(moves[placements_count:]),
        winner,
        endtype,
        rankings,
        version,
        game_line,
    )
