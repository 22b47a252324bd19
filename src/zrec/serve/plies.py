"""A game's page's links to the explorer: the start and the position after each move
of its main line, under the game's rule options.

The explorer is asked for the moves so far (``moves=1. b6-b5 b4xb6``), or, for a game
that starts from a ``Setup`` tag, for the position itself (``position=``, the Setup
string of the position after the move), since the moves from the standard start do not
reach it.  Past :data:`BY_MOVES` plies a link gives the position too: the moves so far
would make the links of a long game grow with the square of its length (a 464-ply game:
1.4 MB of links), a position's stays the same size.  The links are worked out once for
a record's text (the last 32 kept).
"""

from __future__ import annotations

from functools import lru_cache

from zrec.serve.explorer import explorer_query

__all__ = ["BY_MOVES", "explore_links"]

#: the plies linked by their moves (after them, by the position reached)
BY_MOVES = 60


@lru_cache(maxsize=32)
def explore_links(text: str, game: str, options: str) -> tuple[tuple[str, str], ...]:
    """(label, address) for the start (``start``) and after each move (``1. b6-b5``) of
    the record ``text`` of ``game`` with stored ``options`` (``Tag=value;...``); none
    for a record that cannot be replayed."""
    from zrec.archive.store import split_options
    from zrec.errors import ZrecError
    from zrec.notation.reader import read_game
    from zrec.render.diagram import DiagramError, record_frames

    try:
        record = read_game(text, "game")
        replay, frames = record_frames(record)
    except (ZrecError, DiagramError):
        return ()
    chosen = split_options(options)
    setup = record.tag("Setup")
    links, sofar = [], ""
    for number, frame in enumerate(frames):
        label = frame.caption or "" if number else "start"
        if number:
            sofar = f"{sofar} {label}".strip()
        if setup is None and number <= BY_MOVES:
            query = explorer_query(game, chosen, sofar or None)
        else:
            query = explorer_query(game, chosen, None,
                                   position=replay.engine.setup_text(frame.position))
        links.append((label, "/explorer?" + query))
    return tuple(links)
