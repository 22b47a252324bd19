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

    Ludii's mover ``k`` is the record's ``k``-th seat of ``seats`` (its first mover,
    ``1``, is the first seat).  A move is written ``from-to``; one that takes pieces is
    written ``fromxto`` (``captures`` ``"jump"``) or ``from-to`` followed by ``x`` and
    each point taken (``"listed"``).  ``passing`` is how a pass is written, ``None``
    when the game has none.  ``limit_ends``: whether zrec's reading also ends the game
    at Ludii's turn limit (then a trial cut there has Ludii's result; else ``*``).
    """

    name: str
    points: tuple[str, ...]
    reading: str = "ludii"
    seats: int = 2
    captures: str = "jump"
    passing: str | None = None
    limit_ends: bool = False

    def point(self, site: int) -> str | None:
        """The zrec point of a Ludii site, or None when Ludii's board has no such site."""
        return self.points[site] if 0 <= site < len(self.points) else None

    def move_text(self, source: str, target: str, taken: tuple[str, ...]) -> str:
        """One move in zrec's notation, from the points it goes from and to and the
        points of the pieces it takes."""
        if self.captures == "listed":
            return f"{source}-{target}" + "".join(f"x{p}" for p in taken)
        return f"{source}{'x' if taken else '-'}{target}"


def ludii_boards() -> list[tuple[GameRules, LudiiBoard]]:
    """Every game that declares its Ludii board, with the board, in listing order."""
    from zrec.rules import all_games

    found: list[tuple[GameRules, LudiiBoard]] = []
    for game in all_games():
        board = getattr(game, "ludii", None)
        if isinstance(board, LudiiBoard):
            found.append((game, board))
    return found
