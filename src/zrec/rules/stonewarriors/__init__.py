"""Awithlaknakwe (Stone Warriors): its rules package.

- :mod:`.rules`: the engine (its moves made, read and written) and the game object
  (``STONE_WARRIORS``);
- :mod:`.board`: the cross board, its squares, neighbours and board text;
- :mod:`.position`: positions and moves as values, and a position's key;
- :mod:`.setup`: the start position and the ``Setup`` string;
- :mod:`.tables`: how pieces move under a rule set, as lookup tables;
- :mod:`.end`: capture events, the score and the end of the game;
- :mod:`.view`: the pieces for drawing and the text board.

This file only names the game, so that the registry (:mod:`zrec.rules`) can find it
without importing the rules.
"""

#: The games of this package, by their usual names: the name of each one's object in
#: :mod:`.rules`.
GAMES = (("stone-warriors", "STONE_WARRIORS"),)

#: Where this package's games come in the list of every game.
LISTED = 2
