"""The Zuni serpent games, Awithlaknannai Mosona and Kolowis Awithlaknannai: one rules
package for both, on the three-row lattice.

- :mod:`.rules`: the two games (``MOSONA``, ``KOLOWIS``) and their rule options;
- :mod:`.engine`: the rules engine with one choice of options fixed (positions and
  moves as values, and reading and writing moves, included);
- :mod:`.draws`: the engine of the draw rules, which keeps a history;
- :mod:`.lattice`: the board's geometry, bit masks and ``Setup`` text.

This file only names the games, so that the registry (:mod:`zrec.rules`) can find one
without importing the rules.
"""

#: The games of this package, by their usual names: the name of each one's object in
#: :mod:`.rules`, in the order the documentation lists them.
GAMES = (("mosona", "MOSONA"), ("kolowis", "KOLOWIS"))

#: Where this package's games come in the list of every game.
LISTED = 1
