"""Awéthi, the dice game of shepherds and wolves for 2-5 players: its rules package.

- :mod:`.rules`: the game object (``AWETHI``) and the readings of the rules;
- :mod:`.engine`: the rules engine, with its map, seats, herds and options fixed;
- :mod:`.board`: the map, its terrain and districts (``default.map`` ships beside it);
- :mod:`.position`: positions, moves and the herd's turn;
- :mod:`.turns`, :mod:`.paths`, :mod:`.shepherds`, :mod:`.wolves`: reading, listing
  and applying each kind of turn;
- :mod:`.end`: how a game ends and what each side scores;
- :mod:`.view`: a position for people and drawings.

This file only names the game, so that the registry (:mod:`zrec.rules`) can find it
without importing the rules.
"""

#: The games of this package, by their usual names: the name of each one's object in
#: :mod:`.rules`.
GAMES = (("awethi", "AWETHI"),)

#: Where this package's games come in the list of every game.
LISTED = 3
