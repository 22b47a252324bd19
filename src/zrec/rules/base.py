"""The engine protocol: the one interface every game provides and every output uses.

A rules module knows its board, its pieces and its rule options; it never sees record
text.  It receives written moves as :class:`zrec.moves.Turn` values and answers with
moves of its own type, positions of its own type and plain-language reasons.  Above
the rules, the play layer (:mod:`zrec.play`) and every output use only what is
declared here and in :mod:`zrec.rules.values`:

- :class:`GameRules`: a game zrec knows (names, rule options, setup inputs), which
  makes an :class:`Engine` for a record's tags;
- :class:`Engine`: the rules with the options fixed: seats and whose turn it is,
  chance (dice), legal moves, reading a written move, applying a move with its events,
  move numbers, the outcome with a score per seat, a position key, a view for
  drawing and the clicks that enter each move on a board (:mod:`zrec.rules.clicking`).

The model is OpenSpiel's game API (current player, chance, returns per player) and
python-chess's ``Outcome``; see ``docs/architecture.md``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Protocol, TypeVar

from zrec.moves import Turn
from zrec.rules.clicking import Choices, ClickTable
from zrec.rules.values import (
    REMOVED,
    AmbiguousMoveError,
    BoardSpec,
    Chance,
    Event,
    Finding,
    IllegalMoveError,
    InputError,
    InputSpec,
    MoveNumber,
    OptionError,
    OptionSpec,
    Outcome,
    Piece,
    Resolved,
    RulesError,
    Setting,
    SetupError,
    Severity,
    UnknownGameError,
    View,
    choose,
    parse_result,
    result_token,
)

P = TypeVar("P")  # a position of one game
M = TypeVar("M")  # a move of one game

__all__ = [
    "READING",
    "REMOVED",
    "AmbiguousMoveError",
    "BoardSpec",
    "Chance",
    "Choices",
    "ClickTable",
    "Engine",
    "Event",
    "Finding",
    "GameRules",
    "IllegalMoveError",
    "InputError",
    "InputSpec",
    "MoveNumber",
    "OptionConflict",
    "OptionError",
    "OptionSpec",
    "Outcome",
    "Piece",
    "Resolved",
    "RulesError",
    "Setting",
    "SetupError",
    "Severity",
    "UnknownGameError",
    "View",
    "check_options",
    "choose",
    "chosen_options",
    "configure",
    "named_reading",
    "parse_result",
    "readings_table",
    "result_token",
]


class Engine(Protocol[P, M]):
    """One game with all its rule options and setup inputs fixed: the rules engine.

    Positions and moves are values of the engine's own types; the callers never look
    inside them.
    """

    @property
    def title(self) -> str:
        """The game's name for people, as its sources spell it."""

    @property
    def options(self) -> Mapping[str, str]:
        """Every rule option of the game with the value this engine plays."""

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats of this record, in order ("White", "Black"; or the shepherd seats
        in play, then "Wolves")."""

    @property
    def teams(self) -> tuple[int, ...]:
        """Each seat's team, where the seats play in teams (empty: each seat alone):
        a game ended off the board, by resignation or time, is lost by the team."""

    # -- positions -------------------------------------------------------------

    def start(self) -> P:
        """The standard start position."""

    def setup(self, text: str) -> P:
        """The position a ``Setup`` tag describes; raises ``SetupError``."""

    def setup_text(self, pos: P) -> str:
        """The ``Setup`` string of a position (inverse of :meth:`setup`)."""

    def key(self, pos: P) -> bytes:
        """A canonical, compact key of the position: equal positions (the same pieces,
        the same seat to move, the same pending state) have equal keys, whatever the
        move number."""

    def view(self, pos: P) -> View:
        """What a drawing needs: the board (kind, cells, lines, terrain) and the pieces."""

    def render(self, pos: P) -> str:
        """The position drawn as text, for a person checking a record (not whether the
        game is over: whoever shows it says that once, from :meth:`outcome`)."""

    def standing(self, pos: P) -> str:
        """How the seats stand, in a few words ("White 9 pieces, Black 11"), for saying
        what the position was when a game ended by resignation, time, adjudication..."""

    def material(self, pos: P) -> tuple[int, ...]:
        """The pieces each seat has (seats in order), as a material search counts them:
        the pieces drawn for the seat (:meth:`view`), counted fast."""

    # -- turns -----------------------------------------------------------------

    def to_move(self, pos: P) -> int | None:
        """The seat (an index into :attr:`seats`) whose move it is, or ``None`` when
        the game is over."""

    def move_number(self, pos: P) -> MoveNumber:
        """The number of the move about to be played, as a player writes it."""

    def chance(self, pos: P) -> Chance | None:
        """The dice the next turn rolls, or ``None`` when it rolls none."""

    def legal_moves(self, pos: P, roll: Sequence[int] | None = None) -> Sequence[M]:
        """Every legal move of the position (for a turn with dice: given the ``roll``)."""

    def sample_move(self, pos: P, roll: Sequence[int] | None, rng: random.Random) -> M | None:
        """A legal move drawn at random (``None`` when there is none), for self-play.
        An engine picks uniformly among :meth:`legal_moves`, or leans towards moves that
        bring the end of the game nearer so that random games finish, or, where a turn
        has too many legal forms to list (several pieces each moving by a die), builds one
        step by step."""

    def resolve(self, pos: P, turn: Turn) -> Resolved[M]:
        """The legal move a written turn means; raises ``IllegalMoveError``."""

    def apply(self, pos: P, move: M) -> tuple[P, tuple[Event, ...]]:
        """The position after a legal move and the events the move caused (trusting:
        the move is not checked)."""

    def spell(self, pos: P, move: M) -> Turn:
        """The shortest unambiguous full written form of a legal move."""

    def routes(self, pos: P, move: M) -> tuple[tuple[str, ...], ...]:
        """The squares each moving piece visits, start first, for drawing the move (a
        placement: its one square; a pass: nothing)."""

    # -- the board -------------------------------------------------------------

    def click_table(self, pos: P, roll: Sequence[int] | None = None) -> ClickTable[M] | None:
        """Every legal move with the clicks that enter it on the recording board (for a
        turn with dice: given the ``roll``; none without it), or ``None`` for a turn
        with too many legal forms to list, which :meth:`choices` builds step by step
        (:mod:`zrec.rules.clicking`)."""

    def clicks(self, pos: P, roll: Sequence[int] | None, move: M) -> tuple[str, ...]:
        """The clicks that enter a legal move (made with ``roll``) on the board."""

    def choices(
        self, pos: P, roll: Sequence[int] | None, clicks: Sequence[str]
    ) -> Choices[M]:
        """What may be clicked after ``clicks`` (a partial move) and the legal move they
        make, if any; nothing to click and no move for clicks no legal move begins
        with."""

    # -- the end ---------------------------------------------------------------

    def outcome(self, pos: P) -> Outcome | None:
        """How the game ended by rule in this position, else ``None``."""

    def judge_end(self, pos: P, result: str, tags: Mapping[str, str]) -> list[Finding]:
        """Check a record's result (and result-related tags) against its last position."""


class GameRules(Protocol):
    """A game zrec knows: its names, its seats, its rule options and setup inputs."""

    @property
    def name(self) -> str:
        """The canonical ``Game`` tag value."""

    @property
    def aliases(self) -> tuple[str, ...]:
        """Other names the ``Game`` tag may use."""

    @property
    def title(self) -> str:
        """The game's name for people."""

    @property
    def seats(self) -> tuple[str, ...]:
        """Every seat the game can have (a record may play with fewer)."""

    @property
    def options(self) -> Mapping[str, OptionSpec]:
        """The rule-option tags, with their values and defaults."""

    @property
    def inputs(self) -> Mapping[str, InputSpec]:
        """Setup tags beyond ``Setup`` and the options, each with its parser."""

    @property
    def readings(self) -> Mapping[str, Mapping[str, str]]:
        """The named readings of the rules (docs/rules.md): a published reading's name
        -> the value of every option under it; ``"zrec"`` is the defaults.  The tag
        ``Reading`` chooses one (:func:`chosen_options`)."""

    def random_tags(self, seats: int | None, rng: random.Random) -> dict[str, str]:
        """The tags a random game of ``seats`` seats needs beyond the rule options (seat
        names, a hidden setup drawn at random), ``seats`` ``None`` for the usual number;
        raises ``InputError`` for a number of seats the game cannot have."""

    def engine_for(self, setting: Setting) -> Engine[Any, Any] | None:
        """The engine for a record's setting, or ``None`` when zrec reads and writes
        this game's notation but has no rules engine for it yet.  Raises
        ``InputError`` for tags the engine cannot play with."""


class OptionConflict(OptionError):
    """Two rule options whose values make no sense together: raised when the engine
    is built.  ``tag`` and ``value`` name the first option, ``other`` and
    ``other_value`` the second; the message names both and says why."""

    def __init__(self, tag: str, value: str, other: str, other_value: str, why: str):
        RulesError.__init__(
            self, f'{tag} "{value}" cannot go with {other} "{other_value}": {why}'
        )
        self.tag = tag
        self.value = value
        self.accepted = ()
        self.other = other
        self.other_value = other_value


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
        value = tags[tag]
        if value in spec.values:  # written as the spec spells it
            chosen[tag] = value
            continue
        value = value.strip()
        for accepted in spec.values:
            if accepted.lower() == value.lower():
                chosen[tag] = accepted
                break
        else:
            raise OptionError(tag, tags[tag], spec.values)
    return chosen


#: The tag that chooses a named reading of the rules as a whole (``[Reading "ludii"]``).
READING = "Reading"


def readings_table(
    specs: Mapping[str, OptionSpec], named: Mapping[str, Mapping[str, str]]
) -> Mapping[str, Mapping[str, str]]:
    """A game's named readings from what each changes: ``"zrec"`` (the defaults) first,
    then each of ``named`` with every option it leaves out at its default.  The values
    must be the specs' own (a mistake here is the rules package's, not a record's)."""
    table: dict[str, Mapping[str, str]] = {}
    for name, changes in {"zrec": {}, **named}.items():
        for tag, value in changes.items():
            assert tag in specs and value in specs[tag].values, (name, tag, value)
        values = {tag: changes.get(tag, spec.default) for tag, spec in specs.items()}
        table[name] = MappingProxyType(values)
    return MappingProxyType(table)


def named_reading(rules: GameRules, name: str) -> tuple[str, Mapping[str, str]]:
    """The named reading ``name`` of ``rules`` (matched without regard to case and to
    white space at either end) as its spelling and its options; raises
    :class:`OptionError` naming the known readings."""
    found = rules.readings.get(name)
    if found is not None:
        return name, found
    for known, values in rules.readings.items():
        if known.lower() == name.strip().lower():
            return known, values
    raise OptionError(READING, name, tuple(rules.readings))


def chosen_options(rules: GameRules, tags: Mapping[str, str]) -> dict[str, str]:
    """The option values a record's tags choose, defaults filled in, as
    :func:`check_options`; a ``Reading`` tag fills in its reading's values, and an
    option tag that reads otherwise is refused (:class:`OptionConflict`, naming the
    reading, the tag and both values).  Raises :class:`OptionError`."""
    name = tags.get(READING)
    if name is None:
        return check_options(rules.options, tags)
    known, values = named_reading(rules, name)
    written = check_options({t: s for t, s in rules.options.items() if t in tags}, tags)
    for tag, value in written.items():
        if values[tag] != value:
            raise OptionConflict(
                READING, known, tag, tags[tag],
                f'the reading "{known}" reads {tag} "{values[tag]}"',
            )
    return dict(values)


def configure(rules: GameRules, tags: Mapping[str, str]) -> Setting:
    """A record's setting: its options checked (defaults filled in, or those of its
    named reading) and its declared setup inputs parsed.  Raises :class:`OptionError`
    (:class:`OptionConflict` among them) or :class:`InputError`."""
    options = chosen_options(rules, tags)
    inputs: dict[str, object] = {}
    for tag, spec in rules.inputs.items():
        if tag in tags:
            try:
                inputs[tag] = spec.parse(tags[tag])
            except InputError as exc:
                raise InputError(exc.reason, tag, exc.code) from None
    return Setting(options, inputs, tags)
