"""The Dutch system's quality criteria as the weight of one pairing (FIDE C.04.3).

The Dutch system ranks candidate pairings of a bracket by a list of criteria, each
mattering only where all the earlier ones tie: absolute criteria first (never the same
opponent twice, no forbidden pair, no third colour in a row or colour difference past
two outside the last round's topscorers), then completion of the round, the
pairing-allocated bye, the number and scores of players paired in the bracket and the
next, colour preferences met, and floats repeated from one and two rounds before.

:func:`edge_weight` writes those criteria for one pair as one integer, most important
criterion in the highest bits: each criterion gets a field wide enough that no sum of
lower fields over a matching can reach it, so a maximum-weight matching of the bracket
is the pairing the criteria prefer.  This is how the FIDE-endorsed program bbpPairings
computes its pairings; :mod:`dutch` chooses between equal pairings.  :class:`Standing`
is what the criteria read of a player: score, colour history and preference, floats.

Scores are counted in half points (a win 2, a draw 1).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["DOWN", "UP", "Context", "Standing", "edge_weight"]

#: float directions
DOWN, UP, NONE = "down", "up", ""
WHITE, BLACK = "w", "b"


def invert(colour: str) -> str:
    return {WHITE: BLACK, BLACK: WHITE}.get(colour, "")


@dataclass(slots=True)
class Standing:
    """One player as the pairing of the next round sees them.

    ``played``: colour per round for games played over the board, else ``""``;
    ``gains``: points (half points) per round; ``opponents``: the opponent per round
    of a game played (else 0).  ``rank`` is the player's place in pairing-number order
    among the players in the round (its parity decides colours in round 1).
    """

    number: int
    rank: int
    played: list[str]
    gains: list[int]
    opponents: list[int]
    bye_eligible: bool
    score: int = 0
    games: int = 0
    imbalance: int = 0
    preference: str = ""
    repeated: str = ""
    strong: bool = False
    met: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.score = sum(self.gains)
        colours = [c for c in self.played if c]
        self.games = len(colours)
        whites = colours.count(WHITE)
        blacks = self.games - whites
        lower = BLACK if whites > blacks else WHITE
        self.imbalance = abs(whites - blacks)
        run = 0
        for c in reversed(colours):
            if c != colours[-1]:
                break
            run += 1
        last = colours[-1] if colours else ""
        if self.imbalance > 1:
            self.preference = lower
        elif run > 1:
            self.preference = invert(last)
        elif self.imbalance > 0:
            self.preference = lower
        else:
            self.preference = invert(last)
        self.repeated = last if run > 1 else ""
        self.strong = not self.absolute and self.imbalance > 0
        self.met = {o for o in self.opponents if o}

    @property
    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1

    @property
    def absolute(self) -> bool:
        """An absolute colour preference: a difference of two, or two in a row."""
        return self.imbalance > 1 or self.repeated != ""

    def score_before(self, back: int) -> int:
        """The score before the round ``back`` rounds ago (0: now)."""
        return self.score - sum(self.gains[len(self.gains) - back :]) if back else self.score


@dataclass(slots=True)
class Context:
    """What every weight of one round reads: the players by number, the rounds played
    and declared, the forbidden pairs, and the bits each field takes."""

    players: dict[int, Standing]
    played: int
    rounds: int
    forbidden: dict[int, set[int]]
    size_bits: int = 1
    groups_shift: int = 0
    shifts: dict[int, int] = field(default_factory=dict)

    def float_of(self, p: Standing, back: int) -> str:
        """The player's float ``back`` rounds ago (1: the last round)."""
        at = self.played - back
        if not p.played[at]:
            return DOWN if p.gains[at] > 0 else NONE
        mine = p.score_before(back)
        theirs = self.players[p.opponents[at]].score_before(back)
        return DOWN if mine > theirs else UP if mine < theirs else NONE

    def compatible(self, a: Standing, b: Standing) -> bool:
        """The absolute criteria: not met before, not forbidden, and no two players
        who must both have the same colour (except topscorers in the last round)."""
        if b.number in a.met or b.number in self.forbidden.get(a.number, ()):
            return False
        if not (a.absolute and b.absolute and a.preference == b.preference):
            return True
        top = self.played  # half points: above half the maximum
        return self.played >= self.rounds - 1 and (a.score > top or b.score > top)


def _colour_fields(w: int, p: Standing, o: Standing, on: bool, bits: int) -> int:
    """The four colour criteria for ``p`` (the lower player) against ``o``."""
    same = p.preference == o.preference
    w = (w << bits) | int(on and (not p.absolute_imbalance or not o.absolute_imbalance
                                  or not same))
    if p.imbalance == o.imbalance:
        tie = p.repeated == "" or p.repeated != o.repeated
    else:
        tie = (o if p.imbalance > o.imbalance else p).repeated != invert(p.preference)
    w = (w << bits) | int(on and (not p.absolute or not o.absolute or not same or tie))
    fits = not same or p.preference == "" or o.preference == ""
    w = (w << bits) | int(on and fits)
    strong = ((not p.strong and not p.absolute) or (not o.strong and not o.absolute)
              or (p.absolute and o.absolute) or not same)
    return (w << bits) | int(on and strong)


def edge_weight(
    ctx: Context,
    hi: Standing,
    lo: Standing,
    current: bool,
    following: bool,
    bye_score: int,
    single_bye: bool,
    ranks: dict[int, int],
) -> int:
    """The weight of pairing ``hi`` with ``lo`` (``lo`` later in the order), where ``lo``
    is in the bracket being paired (``current``) or in the next one (``following``);
    0 where the absolute criteria forbid the pair."""
    if not ctx.compatible(hi, lo):
        return 0
    bits, groups, shift = ctx.size_bits, ctx.groups_shift, ctx.shifts

    def candidate(p: Standing) -> bool:
        return p.bye_eligible and p.score <= bye_score

    w = 1 + (not candidate(hi)) + (not candidate(lo))
    w = (w << bits) | int(current)  # pairs in this bracket
    w <<= groups  # the scores paired in this bracket
    if current:
        w |= 1 << shift[hi.score]
    w = (w << bits) | int(following)  # pairs in the next bracket
    w <<= groups
    if following:
        w |= 1 << shift[hi.score]
    w <<= 2 * bits  # the bye to a player with the fewest games played
    if single_bye:
        if hi.score == bye_score:
            w |= ranks[hi.games]
        if lo.score == bye_score:
            w += ranks[lo.games]
    w = _colour_fields(w, lo, hi, current, bits)
    f = ctx.float_of
    for back in (1, 2):  # floats repeated from one and two rounds before
        if ctx.played >= back:
            w <<= bits
            if current:
                w |= int(f(lo, back) == DOWN)
                w += int(hi.score <= lo.score and f(hi, back) == DOWN)
            w <<= bits
            if current:
                w |= int(not (hi.score > lo.score and f(lo, back) == UP))
    for back in (1, 2):  # and their scores
        if ctx.played >= back:
            w <<= groups
            if current:
                w += int(f(lo, back) == DOWN) << shift[lo.score]
                w += int(f(hi, back) == DOWN) << shift[hi.score]
            w <<= groups
            if current and not (f(lo, back) == UP and hi.score > lo.score):
                w |= 1 << shift[hi.score]
    # room for the choices between equal pairings (exchanges, transpositions)
    return w << (3 * bits + 1)
