"""The registry of games: the list of games zrec knows, and one lookup by name or alias.

Adding a game is writing one module in this package (behind the protocol of
:mod:`zrec.rules.base`), adding it to :func:`all_games`, and adding samples; nothing
outside this package names a game.  The game modules are imported on the first lookup.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from zrec.rules.base import GameRules, UnknownGameError

__all__ = ["UnknownGameError", "all_games", "find_game"]


@cache
def all_games() -> tuple[GameRules, ...]:
    """Every game zrec knows, in the order the documentation lists them."""
    from zrec.rules.awethi import AWETHI
    from zrec.rules.serpent import KOLOWIS, MOSONA
    from zrec.rules.stonewarriors import STONE_WARRIORS

    return (MOSONA, KOLOWIS, STONE_WARRIORS, AWETHI)


def _key(name: str) -> str:
    """Fold case, accents, spaces and underscores so ``Awéthi`` finds ``awethi``."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return plain.strip().lower().replace("_", "-").replace(" ", "-")


@cache
def _names() -> dict[str, GameRules]:
    table: dict[str, GameRules] = {}
    for game in all_games():
        for name in (game.name, *game.aliases):
            table[_key(name)] = game
    return table


#: a game's usual name -> its module and object, so that the usual spelling imports
#: one game module, not all of them (tests/rules check it against :func:`all_games`)
_MODULES = {
    "mosona": ("serpent", "MOSONA"),
    "kolowis": ("serpent", "KOLOWIS"),
    "stone-warriors": ("stonewarriors", "STONE_WARRIORS"),
    "awethi": ("awethi", "AWETHI"),
}


#: the games found by their usual names so far (a file names its game in every record)
_FOUND: dict[str, GameRules] = {}


def find_game(name: str) -> GameRules:
    """The game a ``Game`` tag names (name or alias); raises :class:`UnknownGameError`."""
    found_rules = _FOUND.get(name)
    if found_rules is not None:
        return found_rules
    where = _MODULES.get(name)
    if where is not None:
        import importlib

        rules: GameRules = importlib.import_module(f"zrec.rules.{where[0]}").__dict__[where[1]]
        _FOUND[name] = rules
        return rules
    names = _names()
    found = names.get(name)  # the canonical spelling needs no folding
    if found is not None:
        return found
    try:
        return names[_key(name)]
    except KeyError:
        raise UnknownGameError(name, sorted(g.name for g in all_games())) from None
