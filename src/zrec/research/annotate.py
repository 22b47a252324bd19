"""A record with its analysis written in: marks, comments, best lines and a summary.

:func:`annotated` writes an :class:`~zrec.research.analysis.Analysis` into its game, in
the notation's own places (docs/notation.md), so that the result is a record that
validates and that ``zrec fmt`` leaves as it is:

- a marked move gets its mark as its suffix (``?!``, ``?``, ``??``; where the record
  has a suffix of its own, the mark's NAG after it: ``$6``, ``$2``, ``$4``) and a
  comment with the values: the mover's value before and after (every seat's where the
  game has more than two), the loss and the best move found; the best line found is
  added as a variation;
- a roll whose luck is at least :data:`LUCKY` either way is said in the move's comment;
- the summary of each seat is a comment before the first move, and the tag
  ``Analysis`` names the player, its budget and the seed;
- the tag ``Evaluation`` holds the values the evaluation chart draws
  (:func:`evaluation_text`, read back by :func:`read_evaluation`): the position's value
  at the start and after each move of the main line, two decimals; in a game of two
  seats the first seat's value, else every seat's joined by ``/``.

A move that now follows a comment or a variation of the analysis gets its number where
the notation needs one there (:func:`zrec.play.walk.written_number`); the record's own
numbering is kept everywhere else.
"""

from __future__ import annotations

from dataclasses import replace

from zrec.notation.model import Comment, Game, Line, MoveNode
from zrec.play.walk import written_number
from zrec.research.analysis import ANALYSIS_TAG, MARKS, Analysis, Judged

__all__ = [
    "EVALUATION_TAG",
    "LUCKY",
    "NAGS",
    "TAG",
    "annotated",
    "evaluation_text",
    "read_evaluation",
    "summary_text",
]

#: the tag naming the analysis's player and seed
TAG = ANALYSIS_TAG
#: the tag of the values of the evaluation chart
EVALUATION_TAG = "Evaluation"
#: the NAG of each mark, where a move has a suffix of its own
NAGS = {"?!": 6, "?": 2, "??": 4}
#: a roll's luck said in the comments from this much either way
LUCKY = 0.10
_WORDS = {"?!": "Inaccuracy", "?": "Mistake", "??": "Blunder"}


def _values(analysis: Analysis, judged: Judged) -> str:
    seats = analysis.seats
    if len(seats) == 2:
        me = judged.seat
        return f"{seats[me]} {judged.before[me]:.2f} before, {judged.after[me]:.2f} after"
    before = ", ".join(f"{s} {v:.2f}" for s, v in zip(seats, judged.before, strict=True))
    after = ", ".join(f"{s} {v:.2f}" for s, v in zip(seats, judged.after, strict=True))
    return f"before {before}; after {after}"


def _comment(analysis: Analysis, judged: Judged) -> str | None:
    parts = []
    if judged.mark is not None:
        parts.append(
            f"{_WORDS[judged.mark]} (loss {judged.loss:.2f}): {_values(analysis, judged)}; "
            f"best {judged.best}."
        )
    if judged.luck is not None and judged.roll is not None and abs(judged.luck) >= LUCKY:
        rolled = "".join(str(d) for d in judged.roll)
        parts.append(f"Roll {rolled}: luck {judged.luck:+.2f}.")
    return " ".join(parts) or None


def summary_text(analysis: Analysis) -> str:
    """The summary comment: the player, the thresholds and each seat's figures."""
    marks = ", ".join(f"{m} from {t:.2f}" for m, t in reversed(MARKS))
    seats = []
    for s in analysis.summary:
        counts = ", ".join(f"{m} {n}" for m, n in s.marks.items())
        luck = f", luck {s.luck:+.2f}" if s.luck is not None else ""
        seats.append(
            f"{s.seat}: {s.moves} moves, average loss {s.average_loss:.3f}, "
            f"accuracy {s.accuracy:.1f}%, {counts}{luck}."
        )
    return (
        f"Analysis by {analysis.player}, seed {analysis.seed} (loss of win probability: "
        f"{marks}). {' '.join(seats)}"
    )


def evaluation_text(analysis: Analysis) -> str:
    """The ``Evaluation`` tag's value: the value at the start (before the first move,
    with the best move found) and after each move of the main line."""
    if not analysis.moves:
        return ""
    series = [analysis.moves[0].before, *(j.after for j in analysis.moves)]
    if len(analysis.seats) == 2:
        return " ".join(f"{v[0]:.2f}" for v in series)
    return " ".join("/".join(f"{x:.2f}" for x in v) for v in series)


def read_evaluation(game: Game, seats: int) -> list[tuple[float, ...]] | None:
    """The values of a game's ``Evaluation`` tag, each seat's at the start and after
    each move of the main line (``seats``: how many the game has); ``None`` where the
    tag is missing, malformed (a value not a number from 0 to 1) or not one value more
    than the main line has moves (the record was changed after its analysis)."""
    text = game.tag(EVALUATION_TAG)
    if not text:
        return None
    series: list[tuple[float, ...]] = []
    for entry in text.split():
        parts = entry.split("/")
        try:
            values = tuple(float(x) for x in parts)
        except ValueError:
            return None
        if not all(0.0 <= v <= 1.0 for v in values):
            return None
        if seats == 2 and len(values) == 1:
            values = (values[0], round(1.0 - values[0], 2))
        if len(values) != seats:
            return None
        series.append(values)
    if len(series) != len(game.line.moves) + 1:
        return None
    return series


def _variation(judged: Judged) -> Line:
    nodes = []
    follows_turn = False
    for number, turn in judged.line:
        written = written_number(number, follows_turn)
        nodes.append(
            MoveNode(turn, written.number if written else None, written.dots if written else 1)
        )
        follows_turn = number.turn
    return Line(tuple(nodes))


def annotated(game: Game, analysis: Analysis) -> Game:
    """``game`` with ``analysis`` (of its main line) written in."""
    nodes = list(game.line.moves)
    assert len(nodes) == len(analysis.moves)
    out: list[MoveNode] = []
    follows_turn = True  # (the first move keeps its number as written)
    for node, judged in zip(nodes, analysis.moves, strict=True):
        added = False
        mark = judged.mark
        if mark is not None:
            if node.suffix is None:
                node = replace(node, suffix=mark)
            elif node.suffix != mark and NAGS[mark] not in node.nags:
                node = replace(node, nags=(*node.nags, NAGS[mark]))
        if node.number is None:
            written = written_number(judged.number, follows_turn)
            if written is not None:
                node = replace(node, number=written.number, dots=written.dots)
        text = _comment(analysis, judged)
        if text is not None:
            node = replace(node, comments_after=(*node.comments_after, Comment(text)))
            added = True
        if judged.line:
            node = replace(node, variations=(*node.variations, _variation(judged)))
            added = True
        out.append(node)
        follows_turn = not added
    summary = Comment(summary_text(analysis))
    if out:
        out[0] = replace(out[0], comments_before=(summary, *out[0].comments_before))
        line = Line(tuple(out), game.line.comments)
    else:
        line = Line((), (summary, *game.line.comments))
    tag = f"{analysis.player}, seed {analysis.seed}"
    tags = [(k, v) for k, v in game.tags if k not in (TAG, EVALUATION_TAG)]
    tags.append((TAG, tag))
    if analysis.moves:
        tags.append((EVALUATION_TAG, evaluation_text(analysis)))
    return Game(tuple(tags), line, game.result)
