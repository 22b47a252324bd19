"""A :class:`~zrec.tournament.trf.Trf` written back out as a TRF-16 file.

:func:`trf_text` is the inverse of :func:`~zrec.tournament.trf.read_trf`:
the header lines (012 name, 022 site, 042/052 dates, 062 players, XXR rounds, XXC
first colour, XXP forbidden groups) and one ``001`` line per player in the fixed
columns (pairing number 5-8, name 15-47, rating 49-52, points 81-84, rank 86-89, and
from column 92 a block of 10 columns per round: opponent, colour, result code).  The
points are the sum of the rounds written, and the rank orders the players by points,
then pairing number, so that the file reads back as it was.  Pairing programs
(bbpPairings, JaVaFo) read what this writes; the pairing tools of ``zrec pair`` write
their truncated and random tournaments with it.
"""

from __future__ import annotations

from fractions import Fraction

from zrec.tournament.event import Entrant, Round
from zrec.tournament.trf import Trf

__all__ = ["player_line", "trf_text"]

#: the columns (0-based, end excluded) of a player line's fields
_FIELDS = {
    "number": (4, 8, True), "sex": (9, 10, False), "title": (10, 13, True),
    "name": (14, 47, False), "rating": (48, 52, True), "federation": (53, 56, False),
    "fide_id": (57, 68, True), "birth": (69, 79, False), "points": (80, 84, True),
    "rank": (85, 89, True),
}  # fmt: skip
_ROUNDS, _WIDTH = 91, 10


def _date(text: str) -> str:
    return text.replace("-", "/")


def _points(entrant: Entrant) -> Fraction:
    return sum((r.points for r in entrant.rounds.values() if r.code != " "), Fraction(0))


def _block(r: Round) -> str:
    """One round's 8 columns: ``  12 w 1``, ``0000 - H``, ``  12 b  `` (no result yet)."""
    opponent = f"{r.opponent:4d}" if r.opponent is not None else "0000"
    colour = r.colour if r.colour in ("w", "b") else "-"
    return f"{opponent} {colour} {r.code}"


def player_line(entrant: Entrant, rank: int) -> str:
    """The ``001`` line of one player (trailing blanks cut)."""
    line = [" "] * (_ROUNDS + _WIDTH * max(entrant.rounds, default=0))
    line[0:3] = list("001")
    values = {
        "number": str(entrant.number), "sex": entrant.sex, "title": entrant.title,
        "name": entrant.name, "rating": str(entrant.rating or ""),
        "federation": entrant.federation, "fide_id": entrant.fide_id, "birth": entrant.birth,
        "points": f"{float(_points(entrant)):.1f}", "rank": str(rank),
    }  # fmt: skip
    for key, (start, end, right) in _FIELDS.items():
        width = end - start
        text = values[key][:width]
        line[start:end] = list(text.rjust(width) if right else text.ljust(width))
    for n, r in entrant.rounds.items():
        start = _ROUNDS + _WIDTH * (n - 1)
        line[start : start + 8] = list(_block(r))
    return "".join(line).rstrip()


def trf_text(trf: Trf) -> str:
    """The TRF-16 text of ``trf``, lines ending in LF."""
    out = [f"012 {trf.name}"]
    if trf.site:
        out.append(f"022 {trf.site}")
    for code, date in (("042", trf.start), ("052", trf.end)):
        if date:
            out.append(f"{code} {_date(date)}")
    out.append(f"062 {len(trf.players)}")
    if trf.rounds:
        out.append(f"XXR {trf.rounds}")
    if trf.first_colour in ("w", "b"):
        out.append("XXC " + ("white1" if trf.first_colour == "w" else "black1"))
    for group in trf.forbidden:
        out.append("XXP " + " ".join(str(n) for n in group))
    order = sorted(trf.players, key=lambda e: (-_points(e), e.number))
    ranks = {e.number: place for place, e in enumerate(order, 1)}
    out.extend(player_line(e, ranks[e.number]) for e in trf.players)
    return "\n".join(out) + "\n"
