"""The registry of games: finds a game's rules by name or alias.

Every module in this package that defines ``GAMES`` (a tuple of
:class:`~zrec.rules.base.GameRules`) is registered.  Adding a game is adding one
module here; nothing else in zrec names a game.
"""

from __future__ import annotations

import importlib
import pkgutil
import unicodedata
from functools import cache

from zrec.rules.base import GameRules


class UnknownGame(LookupError):
    """A ``Game`` tag naming no game zrec knows."""

    def __init__(self, name: str, known: tuple[str, ...]):
        self.name = name
        self.known = known
        super().__init__(
            f'[Game "{name}"] names no game zrec knows; known games: {", ".join(known)}'
        )


def _key(name: str) -> str:
    """Fold case, accents, spaces and underscores so ``Awéthi`` finds ``awethi``."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return plain.strip().lower().replace("_", "-").replace(" ", "-")


@cache
def _registry() -> dict[str, GameRules]:
    table: dict[str, GameRules] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_") or info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for game in getattr(module, "GAMES", ()):
            for name in (game.name, *game.aliases):
                table[_key(name)] = game
    return table


def all_games() -> tuple[GameRules, ...]:
    """Every registered game, each once, by name."""
    seen = {id(g): g for g in _registry().values()}
    return tuple(sorted(seen.values(), key=lambda g: g.name))


def find_game(name: str) -> GameRules:
    """The game a ``Game`` tag names (name or alias); raises :class:`UnknownGame`."""
    try:
        return _registry()[_key(name)]
    except KeyError:
        raise UnknownGame(name, tuple(g.name for g in all_games())) from None
