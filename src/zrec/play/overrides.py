"""Reading a record under other rule options: ``-O Tag=value`` overrides of its tags.

A record states its rule options in its tags (``[Jumps "bent"]``); a tag it leaves out
takes the option's default.  An override replaces a tag's value, or adds the tag, so
that every output (validate, show, diagrams, the replay page, perft, readings) can
read the same moves under another reading of the rules, and say so:

- :func:`parse_assignments` turns ``Tag=value`` items (as the command line gives them)
  into a mapping;
- :func:`check_overrides` checks the names and values against the game's rule options
  (:attr:`GameRules.options`) and its setup tags (:attr:`GameRules.inputs`), with one
  clear error each (:class:`OverrideError`), and returns the values spelled as the game
  spells them;
- :func:`check_for_any` checks them before any record is read, against every game
  that has each tag (a command reads games of any kind): a tag no game has, or a
  value none of them takes, is an error of the command line;
- :func:`override` returns the record with its tags overridden, :func:`changes` what
  that changes, and :func:`describe` says it in one line.

``Reading`` (a named reading of the rules as a whole, ``-O Reading=ludii``) overrides
the record's own option tags and ``Reading`` tag; an option overridden on its own in a
record that names a reading keeps the rest of that reading (the record's ``Reading``
tag is replaced by the reading's other values, spelled out where they are not the
defaults).

Nothing here names a game: the options come from the rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from zrec.errors import ZrecError
from zrec.notation.model import Game
from zrec.rules import find_game
from zrec.rules.base import (
    READING,
    GameRules,
    InputError,
    OptionError,
    UnknownGameError,
    check_options,
    chosen_options,
    named_reading,
)

__all__ = [
    "Change",
    "OverrideError",
    "changes",
    "check_for_any",
    "check_overrides",
    "describe",
    "expand_reading",
    "override",
    "parse_assignments",
    "with_tags",
]


class OverrideError(ZrecError, ValueError):
    """An override that cannot apply: not ``Tag=value``, a tag that is not an option of
    the game, or a value the option does not take."""


@dataclass(frozen=True, slots=True)
class Change:
    """One tag an override changes: the value it reads now, the record's own value
    (``None`` when the record has no such tag) and the value the record's reading had
    (its own value, or the option's default when it has none)."""

    tag: str
    value: str
    was: str | None
    before: str | None
    reading: str | None = None  # the record's named reading, where it gave ``before``

    def text(self) -> str:
        """``Jumps "bent" (the record says "line")``."""
        if self.was is not None:
            return f'{self.tag} "{self.value}" (the record says "{self.was}")'
        if self.reading is not None and self.before is not None:
            return (
                f'{self.tag} "{self.value}" (the record\'s reading "{self.reading}" says '
                f'"{self.before}")'
            )
        if self.before is not None:
            by_default = f'"{self.before}" by default'
            return f'{self.tag} "{self.value}" (the record has no {self.tag} tag: {by_default})'
        return f'{self.tag} "{self.value}" (the record has no {self.tag} tag)'


def parse_assignments(items: Iterable[str]) -> dict[str, str]:
    """``["Jumps=bent", "Board=open"]`` as ``{"Jumps": "bent", "Board": "open"}`` (a
    later item for the same tag wins); raises :class:`OverrideError`."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise OverrideError(
                f"an override is written Tag=value (e.g. Jumps=bent), not {item!r}"
            )
        out[name] = value.strip()
    return out


def _names(rules: GameRules) -> str:
    names = f"its options are {', '.join(rules.options) or 'none'}"
    if rules.inputs:
        names += f"; its setup tags are {', '.join(rules.inputs)}"
    return names


def check_overrides(rules: GameRules, values: Mapping[str, str]) -> dict[str, str]:
    """``values`` checked against the rule options and setup tags of ``rules``: option
    values spelled as the game spells them (they match case-insensitively), setup tags
    parsed once to check them.  Raises :class:`OverrideError`."""
    checked: dict[str, str] = {}
    for tag, value in values.items():
        if tag == READING:
            try:
                checked[tag] = named_reading(rules, value)[0]
            except OptionError:
                raise OverrideError(
                    f"{value!r} is not a reading of {rules.title}: its readings are "
                    f"{', '.join(rules.readings)}"
                ) from None
            continue
        spec = rules.options.get(tag)
        if spec is not None:
            found = [v for v in spec.values if v.lower() == value.strip().lower()]
            if not found:
                raise OverrideError(
                    f"{value!r} is not a value of {tag} for {rules.title}: "
                    f"its values are {', '.join(spec.values)}"
                )
            checked[tag] = found[0]
            continue
        given = rules.inputs.get(tag)
        if given is None:
            raise OverrideError(f"unknown option {tag!r} for {rules.title}: {_names(rules)}")
        try:
            given.parse(value)
        except InputError as exc:
            raise OverrideError(f"bad {tag} for {rules.title}: {exc.reason}") from None
        checked[tag] = value
    if READING in checked:
        try:
            chosen_options(rules, checked)
        except OptionError as exc:
            raise OverrideError(f"{READING}={checked[READING]} and an option: {exc}") from None
    return checked


def check_for_any(values: Mapping[str, str], games: Iterable[GameRules]) -> None:
    """Raise :class:`OverrideError` unless each tag of ``values`` is a rule option or
    setup tag of some game of ``games`` and one of them takes its value."""
    games = tuple(games)
    for tag, value in values.items():
        having = [
            g
            for g in games
            if tag in g.options or tag in g.inputs or (tag == READING and g.readings)
        ]
        if not having:
            raise OverrideError(f"unknown option {tag!r}: no game zrec knows has it")
        refusals: list[str] = []
        for rules in having:
            try:
                check_overrides(rules, {tag: value})
            except OverrideError as exc:
                refusals.append(str(exc))
            else:
                break
        else:
            if len(refusals) == 1:
                raise OverrideError(refusals[0])
            takes = "; ".join(
                f"{g.title} takes {', '.join(g.options[tag].values)}"
                if tag in g.options
                else f"{g.title} takes {', '.join(g.readings)}"
                if tag == READING
                else f"{g.title} takes a setup {tag}"
                for g in having
            )
            raise OverrideError(f"{value!r} is not a value of {tag} for any game: {takes}")


def expand_reading(values: Mapping[str, str], games: Iterable[GameRules]) -> dict[str, str]:
    """``values`` with a ``Reading`` replaced by the option values it stands for, for a
    search of stored games (which keeps each game's options, not the name of its
    reading): ``games`` must be one game, the game searched.  Raises
    :class:`OverrideError` for a reading without one game, an unknown reading, or an
    option that says otherwise than the reading."""
    if READING not in values:
        return dict(values)
    games = tuple(games)
    if len(games) != 1:
        raise OverrideError(
            f"{READING}={values[READING]} names a reading of one game: give the game too"
        )
    rules = games[0]
    checked = check_overrides(rules, values)
    reading = dict(rules.readings[checked.pop(READING)])
    return {**reading, **{t: v for t, v in values.items() if t != READING}}


def with_tags(game: Game, values: Mapping[str, str]) -> Game:
    """The record with these tag values, unchecked: a tag it has takes the new value in
    its place (every copy of a repeated tag), a tag it lacks is added after its tags.
    A ``Reading`` among the values replaces the record's option tags (of a game zrec
    knows); options overridden in a record that names a reading keep the rest of it."""
    tags = _reading_spelled(game, values)
    tags = [(key, values.get(key, value)) for key, value in tags]
    present = {key for key, _ in tags}
    tags += [(key, value) for key, value in values.items() if key not in present]
    return replace(game, tags=tuple(tags))


def _reading_spelled(game: Game, values: Mapping[str, str]) -> list[tuple[str, str]]:
    """The record's tags made ready for ``values``: without its option tags and its own
    ``Reading`` when ``values`` name a reading; with its ``Reading`` spelled out as
    option tags (where not the defaults) when ``values`` override some of the options
    of the reading it names; else as they are."""
    tags = list(game.tags)
    own = next((value for key, value in tags if key == READING), None)
    if READING not in values and own is None:
        return tags
    try:
        rules = find_game(game.game_type)
    except UnknownGameError:
        return tags
    if READING in values:
        return [(k, v) for k, v in tags if k != READING and k not in rules.options]
    if own is None or not any(tag in rules.options for tag in values):
        return tags
    try:
        reading = named_reading(rules, own)[1]
    except OptionError:  # an unknown reading: the record is read as it is, and says so
        return tags
    present = {key for key, _ in tags}
    spelled = [
        (tag, value)
        for tag, value in reading.items()
        if tag not in values and tag not in present and value != rules.options[tag].default
    ]
    return [(k, v) for k, v in tags if k != READING] + spelled


def _own_options(rules: GameRules, tags: Mapping[str, str]) -> dict[str, str]:
    """The options a record's tags choose, as far as they can be known: each option's
    value under the record's reading, else its own tag, else the default."""
    try:
        return chosen_options(rules, tags)
    except OptionError:
        own: dict[str, str] = {}
        for tag, spec in rules.options.items():
            try:
                own[tag] = check_options({tag: spec}, tags)[tag]
            except OptionError:
                own[tag] = tags[tag]
        return own


def _rules_of(game: Game) -> GameRules:
    try:
        return find_game(game.game_type)
    except UnknownGameError as exc:
        raise OverrideError(f"cannot read the record under other options: {exc}") from None


def override(game: Game, values: Mapping[str, str]) -> Game:
    """The record read under ``values`` (``{"Jumps": "bent"}``): its tags overridden,
    each checked against the options of the game its ``Game`` tag names.  Raises
    :class:`OverrideError`."""
    if not values:
        return game
    return with_tags(game, check_overrides(_rules_of(game), values))


def changes(game: Game, values: Mapping[str, str]) -> tuple[Change, ...]:
    """What overriding the record with ``values`` changes: one :class:`Change` for each
    tag whose reading differs from the record's own (a value equal to it, or to the
    default of an option the record leaves out, changes nothing).  Raises
    :class:`OverrideError`."""
    if not values:
        return ()
    rules = _rules_of(game)
    own = game.tag_map()
    chosen = _own_options(rules, own)
    try:
        reading = named_reading(rules, own[READING])[0] if READING in own else None
    except OptionError:  # an unknown reading gives no option its value
        reading = None
    found: list[Change] = []
    for tag, value in check_overrides(rules, values).items():
        was = own.get(tag)
        spec = rules.options.get(tag)
        before = chosen[tag] if spec is not None else was
        if tag == READING:  # a reading that gives the options the record has changes nothing
            same = chosen == dict(rules.readings[value])
        else:
            same = before is not None and (
                before.strip().lower() == value.lower() if spec is not None else before == value
            )
        if not same:
            named = reading if spec is not None and was is None else None
            found.append(Change(tag, value, was, before, named))
    return tuple(found)


def describe(found: Iterable[Change]) -> str:
    """One line saying how a record is read: ``read with Jumps "bent" (the record says
    "line")``; empty when nothing changes."""
    texts = [change.text() for change in found]
    return f"read with {'; '.join(texts)}" if texts else ""
