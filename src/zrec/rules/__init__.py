"""The registry of games: every rules package of this package, and one lookup by name.

Each game (or family of games sharing rules) is a subpackage here: its ``__init__``
names its games (``GAMES``: usual name and the name of the game's object in its
``rules`` module) and its place in listings (``LISTED``); its ``rules`` module holds
the engines behind the protocol of :mod:`zrec.rules.base`.  Adding a game is adding
one package and its samples: the registry finds the packages itself, and nothing
outside a game's package names the game.  Looking a game up by its usual name imports
that game's rules only.
"""

from __future__ import annotations

import importlib
import pkgutil
import unicodedata
from functools import cache

from zrec.rules.base import GameRules, UnknownGameError

__all__ = ["UnknownGameError", "all_games", "find_game", "usual_names"]


@cache
def usual_names() -> dict[str, tuple[str, str]]:
    """Each game's usual name -> its package and the name of its object, in listing order
    (only the packages' ``__init__`` files are imported)."""
    found: list[tuple[int, str, str, str]] = []
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        package = importlib.import_module(f"{__name__}.{info.name}")
        for order, (name, attribute) in enumerate(package.GAMES):
            found.append((package.LISTED * 100 + order, name, package.__name__, attribute))
    return {name: (package, attribute) for _, name, package, attribute in sorted(found)}


@cache
def _load(name: str) -> GameRules:
    package, attribute = usual_names()[name]
    rules: GameRules = getattr(importlib.import_module(f"{package}.rules"), attribute)
    return rules


@cache
def all_games() -> tuple[GameRules, ...]:
    """Every game zrec knows, in the order the documentation lists them."""
    return tuple(_load(name) for name in usual_names())


def _key(name: str) -> str:
    """Fold case, accents, spaces and underscores so that a name spelled with an accent
    or capitals finds the game's usual name."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return plain.strip().lower().replace("_", "-").replace(" ", "-")


@cache
def _names() -> dict[str, GameRules]:
    table: dict[str, GameRules] = {}
    for game in all_games():
        for name in (game.name, *game.aliases):
            table[_key(name)] = game
    return table


def find_game(name: str) -> GameRules:
    """The game a ``Game`` tag names (name or alias); raises :class:`UnknownGameError`."""
    if name in usual_names():
        return _load(name)
    names = _names()
    found = names.get(name)  # the canonical spelling needs no folding
    if found is not None:
        return found
    try:
        return names[_key(name)]
    except KeyError:
        raise UnknownGameError(name, sorted(g.name for g in all_games())) from None
