"""An event's games checked against their rounds' pairings (the boards of
:mod:`zrec.tournament.boards`).

- :func:`mismatches` lists, in words, each game of a paired round that is not what
  the pairings say (other players, or colours the other way round);
- :func:`game_mismatches` does so each with the stored game it is about
  (:func:`zrec.archive.events.loading.archive_mismatches` runs it on every event of an
  archive with stored pairings: what ``zrec archive import`` warns of, naming the file
  and the game that was read).
"""

from __future__ import annotations

from collections.abc import Iterable

from zrec.tournament.boards import Board
from zrec.tournament.event import Tournament

__all__ = ["game_mismatches", "mismatches"]


def _who(event: Tournament, number: int) -> str:
    return f"{event.entrant(number).name} ({number})"


def _board_words(event: Tournament, board: tuple[int, ...], code: str = "") -> str:
    if len(board) == 1:
        return f"{_who(event, board[0])} {'the bye' if code == 'U' else 'a round off'}"
    return " – ".join(_who(event, n) for n in board)


def mismatches(event: Tournament, boards: Iterable[Board]) -> list[str]:
    """Each stored game of a paired round that the round's pairings do not have: its
    players not paired together, or (two players) the colours the other way round."""
    return [said for _, said in game_mismatches(event, boards)]


def game_mismatches(event: Tournament, boards: Iterable[Board]) -> list[tuple[int, str]]:
    """:func:`mismatches`, each with the id of the stored game it is about."""
    by_player = {e.player: e.number for e in event.entrants}
    paired: dict[int, dict[int, tuple[tuple[int, ...], str]]] = {}
    for board in boards:
        numbers = tuple(by_player[p] for p in board.players if p in by_player)
        for number in numbers:
            paired.setdefault(board.round, {})[number] = (numbers, board.code)
    found: list[tuple[int, str]] = []
    for number in sorted(paired):
        seen: set[int] = set()
        table = paired[number]
        for entrant in event.entrants:
            held = entrant.rounds.get(number)
            if held is None or held.game is None or held.game in seen:
                continue
            seen.add(held.game)
            game: tuple[int, ...]
            if held.colour == "b" and len(held.opponents) == 1:
                game = (held.opponents[0], entrant.number)
            else:
                game = (entrant.number, *held.opponents)
            where = {n: table.get(n) for n in game}
            boards_of = {b for b in where.values() if b is not None}
            if len(boards_of) == 1:
                (at, _) = next(iter(boards_of))
                if at == game or (len(game) > 2 and sorted(at) == sorted(game)):
                    continue
                if len(game) == 2 and at == game[::-1]:
                    found.append((
                        held.game,
                        f"{event.name!r}, round {number}: game #{held.game} has "
                        f"{_who(event, game[0])} with White, but the pairings give White to "
                        f"{_who(event, at[0])}",
                    ))
                    continue
            said = "; ".join(
                "not paired" if b is None else _board_words(event, *b)
                for b in dict.fromkeys(where[n] for n in game)
            )
            found.append((
                held.game,
                f"{event.name!r}, round {number}: game #{held.game} "
                f"({' – '.join(_who(event, n) for n in game)}) is not in the round's "
                f"pairings ({said})",
            ))
    return found
