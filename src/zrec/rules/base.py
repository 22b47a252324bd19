"""The small interface every game's rules module provides, and its error types.

A rules module knows its board, its pieces and its rule options; it never sees
record text.  It receives written moves as :class:`zrec.moves.Turn` values and
answers with moves of its own type, positions of its own type and plain-language
reasons.  The validator, the diagrams and the CLI use only what is declared here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, Protocol, TypeVar

from zrec.moves import Turn

P = TypeVar("P")  # a position of one game
M = TypeVar("M")  # a move of one game

Severity = Literal["error", "warning"]


class RulesError(ValueError):
    """Base of every error a rules module raises for a user's input."""


class IllegalMove(RulesError):
    """A written move that is not legal in the position.

    ``reason`` is a phrase a player understands ("a capture is compulsory here");
    ``legal`` lists the legal moves of the position in the notation, where that helps.
    """

    def __init__(self, reason: str, legal: Sequence[str] = (), code: str = "illegal-move"):
        super().__init__(reason)
        self.reason = reason
        self.legal = tuple(legal)
        self.code = code


class AmbiguousMove(IllegalMove):
    """A short written move that fits more than one legal move."""

    def __init__(self, reason: str, legal: Sequence[str] = ()):
        super().__init__(reason, legal, code="ambiguous-move")


class SetupError(RulesError):
    """A ``Setup`` position string that is malformed or impossible."""


class OptionError(RulesError):
    """A rule-option tag with a value the game does not accept."""

    def __init__(self, tag: str, value: str, accepted: Sequence[str]):
        self.tag = tag
        self.value = value
        self.accepted = tuple(accepted)
        choices = ", ".join(f'"{v}"' for v in self.accepted)
        super().__init__(f'[{tag} "{value}"] is not a known value; accepted: {choices}')


@dataclass(frozen=True, slots=True)
class Finding:
    """Something a rules module has to say about a record (a style note, a wrong result)."""

    code: str
    severity: Severity
    message: str


@dataclass(frozen=True, slots=True)
class Resolved(Generic[M]):
    """A written move matched to exactly one legal move, with any style notes."""

    move: M
    notes: tuple[Finding, ...] = ()


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A rule-option tag: its default value, the accepted values and what it means."""

    default: str
    values: tuple[str, ...]
    doc: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended by rule: the result token and why, in words."""

    result: str
    reason: str


class Variant(Protocol[P, M]):
    """One game with all its rule options fixed: the rules engine proper."""

    @property
    def options(self) -> Mapping[str, str]: ...

    def start(self) -> P:
        """The standard start position."""

    def setup(self, text: str) -> P:
        """The position a ``Setup`` tag describes; raises :class:`SetupError`."""

    def setup_text(self, pos: P) -> str:
        """The ``Setup`` string of a position (inverse of :meth:`setup`)."""

    def turn_label(self, pos: P) -> tuple[int, str]:
        """Move number and side name of the move about to be played ("4", "Black")."""

    def legal_moves(self, pos: P) -> Sequence[M]:
        """Every legal move of the position (whole capture chains, entries, passes)."""

    def resolve(self, pos: P, turn: Turn) -> Resolved[M]:
        """The legal move a written turn means; raises :class:`IllegalMove`."""

    def apply(self, pos: P, move: M) -> P:
        """The position after a legal move (trusting: the move is not checked)."""

    def spell(self, pos: P, move: M) -> Turn:
        """The shortest unambiguous full written form of a legal move."""

    def outcome(self, pos: P) -> Outcome | None:
        """The result when the rules end the game in this position, else ``None``."""

    def judge_end(self, pos: P, result: str, tags: Mapping[str, str]) -> list[Finding]:
        """Check a record's result (and result-related tags) against its last position."""

    def render(self, pos: P) -> str:
        """The position drawn as text, for a person checking a record."""

    def pieces(self, pos: P) -> dict[str, str]:
        """Occupied squares: square name -> piece code (``W``, ``B``, ``WP``, ``BP``...)."""


class GameRules(Protocol):
    """A game zrec knows: its names, sides, rule options and its engine."""

    name: str
    aliases: tuple[str, ...]
    title: str
    sides: tuple[str, ...]
    options: Mapping[str, OptionSpec]

    def variant(self, options: Mapping[str, str]) -> Variant[object, object] | None:
        """The engine for these option values (already checked), or ``None`` when zrec
        reads and writes this game's notation but has no rules engine for it yet."""


def check_options(specs: Mapping[str, OptionSpec], tags: Mapping[str, str]) -> dict[str, str]:
    """The option values a record's tags choose, defaults filled in.

    Tag names match case-sensitively; values match case-insensitively and are
    returned in the spelling of the spec.  Raises :class:`OptionError`.
    """
    chosen: dict[str, str] = {}
    for tag, spec in specs.items():
        if tag not in tags:
            chosen[tag] = spec.default
            continue
        value = tags[tag].strip()
        for accepted in spec.values:
            if accepted.lower() == value.lower():
                chosen[tag] = accepted
                break
        else:
            raise OptionError(tag, tags[tag], spec.values)
    return chosen
