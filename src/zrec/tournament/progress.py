"""How far an event's paired rounds have got: each stored board's result, or none yet
(pending), and per round how many of its boards have their results.

- :func:`board_result` gives a stored board's result as its players' points in seat
  order (``1–0``, ``½–½``, ``1–0–0``), the stored game that gave it, and whether a
  seat was not played (a forfeit), or ``None`` while the board has no result;
- :func:`round_progress` counts, for each paired round, its boards (byes and rounds
  off are not boards) and those with a result;
- :func:`progress_words` says it for a reader: ``1 of 4 games in; 3 pending``, and
  :func:`standings_title` heads a table of standings with it
  (``After round 5 (1 of 4 games in; 3 pending)``).

The standings of an event count every result stored; these words say which rounds
are not complete yet, so that a reader knows a table counts part of a round.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from zrec.tournament.boards import Board
from zrec.tournament.event import Round, Tournament

__all__ = [
    "BoardResult",
    "Progress",
    "board_result",
    "mark",
    "progress_words",
    "round_progress",
    "standings_title",
]


@dataclass(frozen=True, slots=True)
class BoardResult:
    """A board's result: the points of its seats in order, as text; its stored game
    (``None``: a result without a record, such as a roster's); a seat not played."""

    text: str
    game: int | None
    forfeit: bool


@dataclass(frozen=True, slots=True)
class Progress:
    """A paired round: its boards, and how many have their results."""

    boards: int
    done: int

    @property
    def pending(self) -> int:
        return self.boards - self.done


def mark(points: Fraction) -> str:
    """Points as a result shows them: ``1``, ``0``, ``½``, ``1.5``."""
    if points == Fraction(1, 2):
        return "½"
    if points.denominator == 1:
        return str(int(points))
    return f"{float(points):.2f}".rstrip("0")


def board_result(event: Tournament, board: Board) -> BoardResult | None:
    """The result of a stored board of two or more players, ``None`` while it has none
    (or while its players' results of the round are not against each other)."""
    by_player = {e.player: e for e in event.entrants}
    seated = [by_player[p] for p in board.players if p in by_player]
    if len(seated) < 2 or len(seated) != len(board.players):
        return None
    numbers = {e.number for e in seated}
    held: list[Round] = []
    for entrant in seated:
        found = entrant.rounds.get(board.round)
        if found is None or set(found.opponents) != numbers - {entrant.number}:
            return None
        held.append(found)
    games = {r.game for r in held}
    game = games.pop() if len(games) == 1 else None
    return BoardResult("–".join(mark(r.points) for r in held), game,
                       any(not r.played for r in held))


def round_progress(event: Tournament, boards: Iterable[Board]) -> dict[int, Progress]:
    """Each paired round's boards and how many have their results, by round."""
    counts: dict[int, list[int]] = {}
    for board in boards:
        if board.bye:
            continue
        count = counts.setdefault(board.round, [0, 0])
        count[0] += 1
        count[1] += board_result(event, board) is not None
    return {n: Progress(total, done) for n, (total, done) in sorted(counts.items())}


def progress_words(progress: Progress) -> str:
    """``1 of 4 games in; 3 pending`` (``all 4 games in`` once complete)."""
    if not progress.pending:
        return f"all {progress.boards} game{'s' * (progress.boards != 1)} in"
    return f"{progress.done} of {progress.boards} games in; {progress.pending} pending"


def standings_title(last: int, progress: Mapping[int, Progress]) -> str:
    """``After round 5``, and the rounds up to it that still have boards without a
    result: ``After round 5 (1 of 4 games in; 3 pending)``, or with several such
    rounds ``After round 5 (round 4: 3 of 4 games in; 1 pending; round 5: …)``."""
    open_rounds = [n for n, p in progress.items() if n <= last and p.pending]
    if not open_rounds:
        return f"After round {last}"
    if open_rounds == [last]:
        return f"After round {last} ({progress_words(progress[last])})"
    said = "; ".join(f"round {n}: {progress_words(progress[n])}" for n in open_rounds)
    return f"After round {last} ({said})"
