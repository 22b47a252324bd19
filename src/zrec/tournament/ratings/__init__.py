"""Ratings of players: Glicko-2 for games of two seats, Plackett-Luce (Weng and Lin,
through openskill) for games of more (docs/tournaments.md, "Ratings").

- :mod:`zrec.tournament.ratings.glicko2`: the Glicko-2 system, step by step;
- :mod:`zrec.tournament.ratings.plackett`: a game of several seats rated by openskill;
- :mod:`zrec.tournament.ratings.games`: the rated games, their pools and rating periods;
- :mod:`zrec.tournament.ratings.compute`: a pool rated, with each player's history;
- :mod:`zrec.tournament.ratings.shown`: the ratings as JSON and text.

The archive's games are read and rated by :mod:`zrec.archive.rated`.
"""
