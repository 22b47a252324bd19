"""Hypothesis strategies that build any valid record of the notation."""

from __future__ import annotations

import re

from hypothesis import strategies as st

from zrec.moves import Action, Dice, Turn
from zrec.notation.model import Comment, Game, Line, MoveNode

_SPACE = re.compile(r"\s")

squares = st.builds(
    lambda f, r: f"{f}{r}", st.sampled_from("abcdefghijklmnopqrstuvwxyz"), st.integers(1, 99)
)


@st.composite
def paths(draw: st.DrawFn) -> Action:
    squares_ = draw(st.lists(squares, min_size=1, max_size=5))
    n = len(squares_) - 1
    seps = draw(st.lists(st.sampled_from("-x>"), min_size=n, max_size=n))
    vias = draw(st.lists(st.none() | squares, min_size=n, max_size=n))
    return Action("path", tuple(squares_), tuple(seps), tuple(vias))


actions = st.one_of(
    paths(),
    st.builds(lambda p, s: Action("drop", (s,), piece=p), st.sampled_from("PQHZ"), squares),
    st.just(Action("pass")),
    st.just(Action("herd")),
)

dice = st.builds(
    lambda v, o: Dice(tuple(v), o),
    st.lists(st.integers(1, 6), min_size=1, max_size=5),
    st.none() | st.sampled_from("es"),
)

turns = st.one_of(
    st.builds(lambda a: Turn((a,)), actions),
    st.builds(lambda d, a: Turn(tuple(a), d), dice, st.lists(actions, min_size=1, max_size=4)),
)

# typographic characters that are read as ASCII outside comments and tag values
_TYPOGRAPHIC = "\u2013\u2014\u2212\u00d7\u201c\u201d\u201e\u2033\u00a0"
_word_chars = st.one_of(
    st.characters(exclude_categories=["Cs"], exclude_characters="}\r\n"),
    st.sampled_from(_TYPOGRAPHIC + '{;[]"\\'),
).filter(lambda c: not _SPACE.match(c))
words = st.text(_word_chars, min_size=1, max_size=8)
comments = st.builds(
    lambda w, k: Comment(" ".join(w), k),
    st.lists(words, max_size=6),
    st.sampled_from(["brace", "line"]),
)


def lines(depth: int, most: int = 8) -> st.SearchStrategy[Line]:
    """Lines of up to ``most`` moves; variations nest ``depth`` deep, shorter each level."""
    variations = st.lists(lines(depth - 1, 3), max_size=1) if depth > 0 else st.just([])

    @st.composite
    def build(draw: st.DrawFn) -> Line:
        count = draw(st.integers(0, most))
        if count == 0:
            return Line((), tuple(draw(st.lists(comments, max_size=2))))
        nodes = []
        for i in range(count):
            number = draw(st.none() | st.integers(1, 300))
            before = draw(st.lists(comments, max_size=2)) if (i == 0 or number) else []
            nodes.append(
                MoveNode(
                    draw(turns),
                    number,
                    draw(st.sampled_from([1, 3])) if number else 1,
                    draw(st.none() | st.sampled_from(["!", "?", "!!", "??", "!?", "?!"])),
                    tuple(draw(st.lists(st.integers(0, 999), max_size=2))),
                    tuple(before),
                    tuple(draw(st.lists(comments, max_size=2))),
                    tuple(draw(variations)) if draw(st.integers(0, 3)) == 0 else (),
                )
            )
        return Line(tuple(nodes))

    return build()


tag_names = st.from_regex(r"\A[A-Za-z][A-Za-z0-9_]{0,10}\Z")
tag_values = st.text(
    st.one_of(
        st.characters(exclude_categories=["Cs"], exclude_characters="\r\n"),
        st.sampled_from(_TYPOGRAPHIC + '{};"\\'),
    ),
    max_size=20,
)
results = st.sampled_from(["1-0", "0-1", "1/2-1/2", "*", "0-1-0", "1/2-1/2-0"])

games = st.builds(
    lambda game, tags, line, result: Game((("Game", game), *tags), line, result),
    st.sampled_from(["mosona", "kolowis", "stone-warriors", "awethi"]),
    st.lists(st.tuples(tag_names, tag_values), max_size=4),
    lines(2),
    results,
)
