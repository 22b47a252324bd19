"""From a record's tags to an engine and a start position, once, for every output.

:func:`prepare` finds the game the ``Game`` tag names, checks the rule options, parses
the declared setup inputs, makes the engine and reads the ``Setup``.  Each problem is a
:class:`GameSetupError` with a stable diagnostic code (``unknown-game``,
``bad-option``, ``option-conflict``, ``bad-input``, ``bad-setup``, ``not-checked``) and
the tag it concerns, so the validator reports it and the other outputs refuse the
record in the same words.

What :func:`prepare` makes is a :class:`Replay`: the game's rules, engine, start and
setting, no moves.  The recording board keeps a record with its replay and the
positions it reached as a :class:`~zrec.play.board.BoardRecord`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from zrec.errors import ZrecError
from zrec.notation.model import Game
from zrec.rules import find_game
from zrec.rules.base import (
    Engine,
    GameRules,
    IllegalMoveError,
    InputError,
    OptionConflict,
    OptionError,
    Setting,
    SetupError,
    Severity,
    UnknownGameError,
    configure,
)

__all__ = ["GameSetupError", "Replay", "ReplayError", "prepare", "prepare_rules"]


class GameSetupError(ZrecError, ValueError):
    """A record whose tags do not give a game zrec can replay.

    ``code`` is the diagnostic code, ``message`` the sentence a diagnostic shows,
    ``severity`` is ``warning`` for a game zrec reads but has no engine for
    (``not-checked``), and ``tag`` names the tag at fault, where there is one.  As a
    string the error is the short form, for messages that go on ("...: cannot draw").
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        tag: str | None = None,
        severity: Severity = "error",
        brief: str | None = None,
    ) -> None:
        super().__init__(brief or message)
        self.code = code
        self.message = message
        self.tag = tag
        self.severity = severity


class ReplayError(ZrecError, ValueError):
    """A record whose moves cannot be replayed: an illegal move at ``ply``.

    ``error`` is the rules' own error, with its code, reason and legal moves; ``label``
    says whose move it was ("move 1 (Black)"); ``move`` is the move as written.
    """

    def __init__(
        self, ply: int, label: str, move: str, error: IllegalMoveError, variation: bool = False
    ) -> None:
        super().__init__(f"ply {ply}, {label}: {move} is illegal: {error.reason}")
        self.ply = ply
        self.label = label
        self.move = move
        self.error = error
        self.variation = variation

    @property
    def code(self) -> str:
        return self.error.code

    @property
    def legal(self) -> tuple[str, ...]:
        return self.error.legal


@dataclass(frozen=True)
class Replay:
    """A record's game, its engine and its start position."""

    rules: GameRules
    engine: Engine[Any, Any]
    start: Any
    setting: Setting

    @property
    def title(self) -> str:
        return self.rules.title

    def label(self, pos: Any) -> str:
        """Whose move it is in words: ``move 4 (Black)``."""
        number = self.engine.move_number(pos)
        return f"move {number.number} ({self.engine.seats[number.seat]})"


def prepare(game: Game, tags: Mapping[str, str] | None = None) -> Replay:
    """The engine and start position of a record (``tags``: its tags as a mapping, when
    the caller has them already); raises :class:`GameSetupError`."""
    tags = game.tag_map() if tags is None else tags
    try:
        rules = find_game(tags.get("Game", ""))
    except UnknownGameError as exc:
        raise GameSetupError("unknown-game", str(exc), tag="Game") from None
    return prepare_rules(rules, tags)


def prepare_rules(rules: GameRules, tags: Mapping[str, str]) -> Replay:
    """The engine and start position of ``rules`` under these tags (options, setup
    inputs, ``Setup``); raises :class:`GameSetupError`."""
    try:
        setting = configure(rules, tags)
        engine = rules.engine_for(setting)
    except OptionConflict as exc:
        raise GameSetupError("option-conflict", str(exc), tag=exc.tag) from None
    except OptionError as exc:
        raise GameSetupError("bad-option", str(exc), tag=exc.tag) from None
    except InputError as exc:
        raise GameSetupError(exc.code, str(exc), tag=exc.tag or None) from None
    if engine is None:
        raise GameSetupError(
            "not-checked",
            f"zrec reads and writes {rules.title} records but has no rules engine for "
            "this game yet: its moves were not checked",
            severity="warning",
            brief=f"zrec has no rules engine for {rules.title} yet",
        )
    setup = tags.get("Setup")
    if setup is None:
        return Replay(rules, engine, engine.start(), setting)
    try:
        start = engine.setup(setup)
    except SetupError as exc:
        raise GameSetupError(
            "bad-setup",
            f'[Setup "{setup}"] is not a position of {rules.title}: {exc}',
            tag="Setup",
        ) from None
    return Replay(rules, engine, start, setting)
