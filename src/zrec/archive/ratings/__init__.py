"""Ratings of the archive's players: Glicko-2 for games of two seats, Plackett-Luce
(Weng and Lin, through openskill) for games of more (docs/tournaments.md, "Ratings").

- :mod:`zrec.archive.ratings.glicko2`: the Glicko-2 system, step by step;
- :mod:`zrec.archive.ratings.plackett`: a game of several seats rated by openskill;
- :mod:`zrec.archive.ratings.games`: the rated games, their pools and rating periods;
- :mod:`zrec.archive.ratings.compute`: every pool rated, with each player's history;
- :mod:`zrec.archive.ratings.shown`: the ratings as JSON and text.
"""
