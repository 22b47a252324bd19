"""Drawing records for people: SVG diagrams, the replay page and positions as text.

- :mod:`zrec.render.diagram`: one position, or a strip of every position, as SVG;
- :mod:`zrec.render.board_base`, :mod:`zrec.render.boards`, :mod:`zrec.render.layers`,
  :mod:`zrec.render.pieces`, :mod:`zrec.render.legend`, :mod:`zrec.render.routes`,
  :mod:`zrec.render.text`, :mod:`zrec.render.svg`: the parts of a picture;
- :mod:`zrec.render.replay_page`: one self-contained HTML page to play through games;
- :mod:`zrec.render.positions`: a position as text (``zrec show``).

Every picture comes from an engine's ``view``: nothing here knows a game.
"""
