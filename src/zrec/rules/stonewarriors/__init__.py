"""Awithlaknakwe (Stone Warriors): its rules package.

- :mod:`.rules`: the engine, the moves and the game object (``STONE_WARRIORS``);
- :mod:`.board`: the cross board, positions and how games end.

This file only names the game, so that the registry (:mod:`zrec.rules`) can find it
without importing the rules.
"""

#: The games of this package, by their usual names: the name of each one's object in
#: :mod:`.rules`.
GAMES = (("stone-warriors", "STONE_WARRIORS"),)

#: Where this package's games come in the list of every game.
LISTED = 2
