"""How Ludii's version of a game reads in zrec: data each game declares.

A game that Ludii (the Digital Ludeme Project's general game system) also plays declares
how Ludii's version of it reads in zrec, as data on the game object: a :class:`LudiiBoard`
named ``ludii`` with the game's name in Ludii (its ``.lud`` file's name, which a trial's
``game=`` line gives), the named reading that Ludii's rules are in zrec (``"ludii"``),
and the zrec point of each of Ludii's site indices.  Reading a trial file into a record
with this data is :mod:`zrec.play.ludii`'s work.
"""

from __future__ import annotations

from dataclasses import dataclass

from zrec.rules.base import GameRules

__all__ = ["LudiiBoard", "ludii_boards"]


@dataclass(frozen=True)
class LudiiBoard:
    """How a game's Ludii ``.lud`` reads in zrec: its name there, its named reading here,
    and the zrec point of each Ludii site (``points[i]`` is site ``i``'s point).

    Ludii's mover ``k`` is the record's ``k``-th seat (its first mover, ``1``, is the
    first seat).  A move is written ``from-to``, or ``fromxto`` when it takes a piece.
    """

    name: str
    points: tuple[str, ...]
    reading: str = "ludii"

    def point(self, site: int) -> str | None:
        """The zrec point of a Ludii site, or None when Ludii's board has no such site."""
        return self.points[site] if 0 <= site < len(self.points) else None

    def move_text(self, source: str, target: str, takes: bool) -> str:
        """One move in zrec's notation, from the points it goes from and to."""
        return f"{source}{'x' if takes else '-'}{target}"


def ludii_boards() -> list[tuple[GameRules, LudiiBoard]]:
    """Every game that declares its Ludii board, with the board, in listing order."""
    from zrec.rules import all_games

    found: list[tuple[GameRules, LudiiBoard]] = []
    for game in all_games():
        board = getattr(game, "ludii", None)
        if isinstance(board, LudiiBoard):
            found.append((game, board))
    return found
