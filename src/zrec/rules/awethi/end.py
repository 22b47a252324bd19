"""How an Awéthi game ends and what each side scores (docs/rules.md, Awéthi: the end and
the result).

The game ends after any turn that leaves some seat in play with no animal of its own
herd on the board (sheltered anywhere, or eaten), also under ``[Catch "catcher"]``.
``[Points "basic"]`` looks at the most animals M in one shelter: M ≤ 2 the wolves win,
M = 3 the seats with 3 draw with the wolves, M ≥ 4 the seats with M win or share.
``[Points "advanced"]`` scores calf 1, cow 3, bull 5 per animal sheltered (a seat) or
eaten (the wolves); the most points win, ties share.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from zrec.rules.awethi.board import KIND_PLURALS, KIND_WORDS
from zrec.rules.awethi.position import AwethiPosition, Counts, Table
from zrec.rules.base import Finding, Outcome

__all__ = ["count_words", "judge_end", "outcome", "points", "standing"]

ONE, HALF, NIL = Fraction(1), Fraction(1, 2), Fraction(0)
VALUES = (1, 3, 5)  # calf, cow, bull under [Points "advanced"]


def points(counts: Counts) -> int:
    return sum(n * v for n, v in zip(counts, VALUES, strict=True))


def names_text(names: Sequence[str]) -> str:
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} and {names[-1]}"


def count_words(counts: Counts) -> str:
    """``"3 (1 calf, 2 cows)"``."""
    total = sum(counts)
    if not total:
        return "0"
    parts = [
        f"{n} {KIND_WORDS[k] if n == 1 else KIND_PLURALS[k]}" for k, n in enumerate(counts) if n
    ]
    return f"{total} ({', '.join(parts)})"


def gone_seats(t: Table, pos: AwethiPosition) -> list[int]:
    """The seats with no animal of their own herd left on the board."""
    if len({a[1] for a in pos.animals}) == t.n:  # the common case: every herd is there
        return []
    left = [0] * t.n
    for a in pos.animals:
        left[a[1]] += 1
    return [k for k in range(t.n) if not left[k]]


def outcome(t: Table, pos: AwethiPosition) -> Outcome | None:
    gone = gone_seats(t, pos)
    if not gone:
        return None
    names = [t.names[k] for k in gone]
    if len(names) == 1:
        why = f"{names[0]}'s herd is gone"
    else:
        why = f"the herds of {names_text(names)} are gone"
    n = t.n
    if t.points == "advanced":
        score = [points(c) for c in pos.sheltered]
        score.append(sum(points(c) for c in pos.eaten))
        best = max(score)
        top = [k for k, p in enumerate(score) if p == best]
        scores = tuple((ONE if len(top) == 1 else HALF) if k in top else NIL for k in range(n + 1))
        listing = ", ".join(f"{t.names[k]} {p}" for k, p in enumerate(score))
        winners = names_text([t.names[k] for k in top])
        verdict = f"{winners} wins" if len(top) == 1 else f"{winners} share first place"
        return Outcome("herd-gone", scores, f"{why}; points: {listing}, so {verdict}")
    counts = [sum(c) for c in pos.sheltered]
    most = max(counts)
    top = [k for k, c in enumerate(counts) if c == most]
    winners = names_text([t.names[k] for k in top])
    if most <= 2:
        scores = (*(NIL,) * n, ONE)
        verdict = f"no shelter holds 3 animals or more (the most is {most}), so the Wolves win"
    elif most == 3:
        scores = (*(HALF if k in top else NIL for k in range(n)), HALF)
        verdict = (
            f"the most animals in a shelter is 3 ({winners}), so {winners} and the Wolves draw"
        )
    elif len(top) == 1:
        scores = (*(ONE if k in top else NIL for k in range(n)), NIL)
        verdict = f"{winners} has the most animals in its shelter ({most}) and wins"
    else:
        scores = (*(HALF if k in top else NIL for k in range(n)), NIL)
        verdict = (
            f"{winners} have the most animals in their shelters ({most}) and share first place"
        )
    return Outcome("herd-gone", scores, f"{why}; {verdict}")


def standing(t: Table, pos: AwethiPosition) -> str:
    sheltered = ", ".join(f"{t.names[k]} {sum(c)}" for k, c in enumerate(pos.sheltered))
    eaten = sum(sum(c) for c in pos.eaten)
    return f"sheltered: {sheltered}; eaten: {eaten}"


def judge_end(
    t: Table, pos: AwethiPosition, result: str, tags: Mapping[str, str]
) -> list[Finding]:
    end = outcome(t, pos)
    if end is not None:
        if result != end.result:
            message = (
                f"the game is over ({end.reason}), so the result is {end.result}, not {result}"
            )
            return [Finding("wrong-result", "error", message)]
        return []
    if result != "*":
        message = (
            f"the game has not ended by rule ({standing(t, pos)}): its result is *, not {result}"
        )
        return [Finding("wrong-result", "error", message)]
    return []
