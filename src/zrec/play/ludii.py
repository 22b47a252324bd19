"""Ludii's trials as zrec records: a trial file's moves written in zrec's notation.

:func:`trial_text` finds the game a Ludii trial (read by :mod:`zrec.notation.ludii`) is
of, through the :class:`~zrec.rules.ludii.LudiiBoard` each game declares, and writes the
trial as a zrec record: its ``Game`` and ``Reading`` tags, the moves in zrec's notation
(Ludii's site indices mapped to the game's points), and the result the trial ends with
(``*`` when it was cut off at Ludii's turn or move limit, or says no end).

The record is not checked here: it is then read and validated as any record, so a trial
that breaks its reading gets the usual diagnostics.
"""

from __future__ import annotations

from zrec.notation.ludii import LudiiMove, LudiiTrial, LudiiTrialError
from zrec.rules.base import GameRules
from zrec.rules.ludii import LudiiBoard, ludii_boards

__all__ = ["find_ludii_game", "trial_text"]


def _point(board: LudiiBoard, site: int, move: LudiiMove, where: str) -> str:
    point = board.point(site)
    if point is None:
        raise LudiiTrialError(
            f"{where}:{move.line}: site {site} is not on Ludii's board of {board.name} "
            f"(sites 0 to {len(board.points) - 1})"
        )
    return point


def _move_text(board: LudiiBoard, move: LudiiMove, where: str) -> str:
    if move.passes:
        if board.passing is None:
            raise LudiiTrialError(f"{where}:{move.line}: a pass, and {board.name} has none")
        return board.passing
    source = _point(board, move.source, move, where)
    target = _point(board, move.target, move, where)
    taken = tuple(_point(board, site, move, where) for site in move.removed)
    return board.move_text(source, target, taken)


def _fold(name: str) -> str:
    return " ".join(name.lower().split())


def find_ludii_game(name: str, where: str = "<input>") -> tuple[GameRules, LudiiBoard]:
    """The game whose Ludii name is ``name`` (case and spaces aside), and its Ludii
    board; raises :class:`LudiiTrialError` (its message headed by ``where``) naming
    the games zrec reads Ludii trials of."""
    boards = ludii_boards()
    for game, board in boards:
        if _fold(board.name) == _fold(name):
            return game, board
    known = ", ".join(repr(board.name) for _, board in boards)
    raise LudiiTrialError(
        f"{where}: Ludii's game {name!r} is none that zrec reads Ludii trials of ({known})"
    )


def _result(trial: LudiiTrial, board: LudiiBoard) -> str:
    """The record's result: each seat's score from Ludii's ranking (rank 1 wins; all
    ranked alike is a draw), or from its winner; ``*`` for no end, or for the end at a
    limit of Ludii's that the game's reading in zrec does not have."""
    seats = board.seats
    if trial.endtype is None:
        return "*"
    if trial.endtype in ("TurnLimit", "MoveLimit") and not board.limit_ends:
        return "*"
    ranks = trial.rankings[1:]
    if len(ranks) == seats:
        if len(set(ranks)) == 1:
            return "-".join(["1/2"] * seats)
        return "-".join("1" if rank == min(ranks) else "0" for rank in ranks)
    if trial.winner is None or not 0 <= trial.winner <= seats:
        return "*"
    if trial.winner == 0:
        return "-".join(["1/2"] * seats)
    return "-".join("1" if seat == trial.winner else "0" for seat in range(1, seats + 1))


def trial_text(trial: LudiiTrial, where: str) -> str:
    """The zrec text of a Ludii trial (``where``: the file's name, for messages).
    Raises :class:`LudiiTrialError` naming the line for a trial that no record can
    hold: a game zrec does not read Ludii trials of, game options, a site off the
    board, a mover out of turn."""
    game, board = find_ludii_game(trial.name, f"{where}:{trial.game_line}")
    if trial.options:
        raise LudiiTrialError(
            f"{where}: the trial was played with Ludii game options "
            f"({', '.join(trial.options)}); zrec reads trials of Ludii's default rules only"
        )
    seats = board.seats
    plies: list[str] = []
    for index, move in enumerate(trial.moves):
        expected = index % seats + 1
        if move.mover != expected:
            raise LudiiTrialError(
                f"{where}:{move.line}: mover {move.mover} moves where mover {expected} "
                f"should: a record's sides alternate"
            )
        plies.append(_move_text(board, move, where))
    result = _result(trial, board)
    lines = [
        f'[Game "{game.name}"]',
        f'[Reading "{board.reading}"]',
        f'[Result "{result}"]',
        "",
    ]
    words: list[str] = []
    for index, ply in enumerate(plies):
        if index % seats == 0:
            words.append(f"{index // seats + 1}.")
        words.append(ply)
    words.append(result)
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > 79:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines) + "\n"
