"""FIDE's Tournament Report File (TRF-16): an event written out, and a roster read in.

:func:`write_trf` gives the report of an event after its last round: the header
lines (012 name, 022 place, 042/052 dates, 062 players, 092 type, XXR rounds) and
one ``001`` line per player in the fixed columns of the format, with each round as
opponent, colour and result code, so that any FIDE-conformant checker can recompute
the tie-breaks.  :func:`read_trf` reads such a file back: the players with their
pairing numbers, and every round's pairing and result, checked for agreement (both
sides of a pairing must tell the same story).  docs/tournaments.md lists the columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from zrec.tournament.event import (
    BYES,
    CODES,
    MAX_ROUNDS,
    Entrant,
    EventError,
    Round,
    Tournament,
    digits,
)
from zrec.tournament.tiebreaks import Ranked

__all__ = ["Trf", "TrfError", "read_trf", "write_trf"]

#: the columns (0-based, end excluded) of a player line, before the rounds
_NUMBER, _SEX, _TITLE, _NAME = (4, 8), (9, 10), (10, 13), (14, 47)
_RATING, _FED, _FIDE, _BIRTH = (48, 52), (53, 56), (57, 68), (69, 79)
_POINTS, _RANK = (80, 84), (85, 89)
_ROUNDS = 91  # round r: opponent at 91+10(r-1)…, colour 5 later, result 7 later
_WIDTH = 10
#: the codes an opponent's line may hold against each code: a game played against a
#: game played (an arbiter may give 1-1, 1/2-0 or 0-0), a forfeit against a forfeit,
#: a game not played yet against the same
_MIRROR = {code: "1=0WDL" for code in "1=0WDL"} | {"+": "-", "-": "+-", " ": " "}


class TrfError(EventError):
    """A TRF file that cannot be read, with its line number."""


@dataclass(slots=True)
class Trf:
    """A TRF file's event: its header and its players, each an :class:`Entrant` (no
    archive id yet: ``player`` is 0) whose rounds are as the file gives them (a round
    paired and not finished has the code ``" "``)."""

    name: str = ""
    site: str = ""
    start: str = ""
    end: str = ""
    rounds: int = 0
    players: list[Entrant] = field(default_factory=list)
    #: ``w`` or ``b``: the top seed's colour in round 1 (``XXC white1``/``black1``)
    first_colour: str = ""
    #: groups of players never to be paired together (``XXP``)
    forbidden: list[tuple[int, ...]] = field(default_factory=list)


def _put(line: list[str], span: tuple[int, int], text: str, right: bool = False) -> None:
    width = span[1] - span[0]
    cell = text[:width].rjust(width) if right else text[:width].ljust(width)
    while len(line) < span[1]:
        line.append(" ")
    line[span[0] : span[1]] = list(cell)


def _points(value: Fraction) -> str:
    return f"{float(value):.1f}"


def _date(text: str) -> str:
    """An archive date (``2026-10-04``, ``2026.10.04``) as TRF writes it."""
    return text.replace("-", "/").replace(".", "/") if text and "?" not in text else ""


def write_trf(event: Tournament, lines: Sequence[Ranked], form: str) -> str:
    """The TRF-16 report of the event (two-player games only)."""
    if not event.two_player:
        raise TrfError(
            f"a TRF file holds two-player games, and {event.name!r} has games of "
            f"{event.seats} seats"
        )
    places = {line.entrant.number: line.rank for line in lines}
    out = [f"012 {event.name}"]
    if event.site and event.site != "?":
        out.append(f"022 {event.site}")
    for code, date in (("042", event.start), ("052", event.end)):
        if _date(date):
            out.append(f"{code} {_date(date)}")
    out.append(f"062 {len(event.entrants)}")
    kind = "Round-Robin" if form == "round robin" else "Swiss-System"
    out.append(f"092 Individual: {kind}")
    out.append(f"XXR {event.declared}")
    for e in event.entrants:
        line: list[str] = list("001")
        _put(line, _NUMBER, str(e.number), right=True)
        _put(line, _SEX, e.sex)
        _put(line, _TITLE, e.title, right=True)
        _put(line, _NAME, e.name)
        _put(line, _RATING, str(e.rating or ""), right=True)
        _put(line, _FED, e.federation)
        _put(line, _FIDE, e.fide_id, right=True)
        _put(line, _BIRTH, e.birth)
        _put(line, _POINTS, _points(e.points()), right=True)
        _put(line, _RANK, str(places[e.number]), right=True)
        for n in range(1, event.rounds + 1):
            start = _ROUNDS + _WIDTH * (n - 1)
            r = e.rounds.get(n)
            if r is None:  # paired, the game not finished: no result yet
                others, colour = event.pending.get((n, e.number), ((), ""))
                if len(others) == 1:
                    _put(line, (start, start + 8), f"{others[0]:4d} {colour or '-'}  ")
                continue
            opponent = f"{r.opponent:4d}" if r.opponent is not None else "0000"
            colour = r.colour if r.colour in ("w", "b") and r.opponent else "-"
            _put(line, (start, start + 8), f"{opponent} {colour} {r.code}")
        out.append("".join(line).rstrip())
    return "\n".join(out) + "\n"


def _cut(text: str, span: tuple[int, int]) -> str:
    return text[span[0] : span[1]].strip()


def read_trf(text: str, source: str = "TRF") -> Trf:
    """A TRF file's event; raises :class:`TrfError` naming the line at fault."""
    trf = Trf()
    declared: dict[int, Fraction] = {}  # the points each player's line gives
    xxr = 0  # the line of XXR
    lines: list[int] = []  # the line of each player
    heads = ("012", "022", "042", "052")
    for at, line in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        where = f"{source}, line {at}"
        code = line[:3]
        if code in heads:
            value = line[4:].strip()
            if code == "012":
                trf.name = value
            elif code == "022":
                trf.site = value
            elif code == "042":
                trf.start = value.replace("/", "-")
            else:
                trf.end = value.replace("/", "-")
        elif code == "XXR":
            value = line[3:].strip()
            rounds = digits(value)
            if rounds is None or not 1 <= rounds <= MAX_ROUNDS:
                raise TrfError(
                    f"{where}: XXR must give the number of rounds (1 to {MAX_ROUNDS}), not "
                    f"{value!r}"
                )
            trf.rounds, xxr = rounds, at
        elif code == "XXC":
            words = line[3:].split()
            trf.first_colour = "w" if "white1" in words else "b" if "black1" in words else ""
        elif code == "XXP":
            group = [digits(w) for w in line[3:].split()]
            if len(group) < 2 or any(not n for n in group):
                raise TrfError(
                    f"{where}: XXP must give two or more pairing numbers, not "
                    f"{line[3:].strip()!r}"
                )
            trf.forbidden.append(tuple(n for n in group if n))
        elif code == "001":
            player, points = _player(line, where)
            trf.players.append(player)
            lines.append(at)
            if points is not None:
                declared[player.number] = points
    if not trf.players:
        raise TrfError(f"{source} has no player line (001)")
    for player, at in zip(trf.players, lines, strict=True):
        past = max(player.rounds, default=0)
        if xxr and past > trf.rounds:
            raise TrfError(
                f"{source}, line {at}: round {past} is past the {trf.rounds} rounds that "
                f"XXR declares (line {xxr})"
            )
    _check(trf, declared, source)
    return trf


def _player(line: str, where: str) -> tuple[Entrant, Fraction | None]:
    """A player line's entrant, and the points it declares (``None``: none)."""
    number = _cut(line, _NUMBER)
    if not digits(number):
        raise TrfError(
            f"{where}: columns 5-8 must hold the pairing number (from 1), not {number!r}"
        )
    name = _cut(line, _NAME)
    if not name:
        raise TrfError(f"{where}: player {number} has no name (columns 15-47)")
    rating = digits(_cut(line, _RATING))
    points = _cut(line, _POINTS)
    player = Entrant(
        int(number),
        0,
        name,
        {},
        rating or None,
        _cut(line, _FED),
        _cut(line, _FIDE),
        _cut(line, _TITLE),
        _cut(line, _SEX),
        _cut(line, _BIRTH),
    )
    try:
        declared = Fraction(points) if points else None
    except ValueError:
        raise TrfError(f"{where}: columns 81-84 must hold points, not {points!r}") from None
    n = 0
    while _ROUNDS + _WIDTH * n < len(line.rstrip()):
        start = _ROUNDS + _WIDTH * n
        n += 1
        block = line[start : start + 8].ljust(8)
        opponent, colour, code = block[0:4].strip(), block[5], block[7]
        if not opponent and colour == " " and code == " ":
            continue  # not paired, nothing known
        if n > MAX_ROUNDS:
            raise TrfError(f"{where}: more than {MAX_ROUNDS} rounds")
        if code not in CODES and code != " ":
            raise TrfError(f"{where}: round {n} has result code {code!r} (column {start + 8})")
        if colour not in "wb- ":
            raise TrfError(f"{where}: round {n} has colour {colour!r} (column {start + 6})")
        found = digits(opponent) if opponent else 0
        if found is None:
            raise TrfError(f"{where}: round {n} has opponent {opponent!r}")
        other = found or None
        if other == player.number:
            raise TrfError(f"{where}: round {n}: player {number} cannot play himself")
        if code == " " and other is None:
            raise TrfError(f"{where}: round {n} has no result code (column {start + 8})")
        # a bye has no opponent; a forfeit may have none (an unpaired absence)
        if (other is None) != (code in BYES) and not (other is None and code in "-+"):
            raise TrfError(
                f"{where}: round {n}: result {code!r} "
                + ("needs an opponent" if other is None else "cannot have an opponent")
            )
        opponents = () if other is None else (other,)
        player.rounds[n] = Round(n, code, opponents, colour if colour in "wb" else "")
    return player, declared


def _check(trf: Trf, declared: dict[int, Fraction], source: str) -> None:
    numbers = {p.number: p for p in trf.players}
    if len(numbers) != len(trf.players):
        raise TrfError(f"{source}: two players have the same pairing number")
    trf.rounds = max([trf.rounds, *(n for p in trf.players for n in p.rounds)])
    paired = _paired(trf)
    for p in trf.players:
        for r in p.rounds.values():
            if r.opponent is None:
                continue
            other = numbers.get(r.opponent)
            if other is None:
                raise TrfError(
                    f"{source}: player {p.number}, round {r.number}: there is no player "
                    f"{r.opponent}"
                )
            back = other.rounds.get(r.number)
            if back is None or back.opponent != p.number or back.code not in _MIRROR[r.code]:
                raise TrfError(
                    f"{source}: round {r.number}: player {p.number} has {r.code!r} against "
                    f"{r.opponent}, who does not have the opposite result against "
                    f"{p.number}"
                )
            if r.colour and r.colour == back.colour:
                raise TrfError(
                    f"{source}: round {r.number}: players {p.number} and {r.opponent} both "
                    f"have {r.colour!r}"
                )
        points = declared.get(p.number)
        if points is not None:
            _check_points(p, points, paired, source)


def _paired(trf: Trf) -> int:
    """The last round anybody was paired in (a game, a forfeit against an opponent or
    the pairing-allocated bye; 0: none): the next round is the one to be paired."""
    return max(
        (n for p in trf.players for n, r in p.rounds.items()
         if r.opponent is not None or r.code == "U"),
        default=0,
    )


def _check_points(player: Entrant, points: Fraction, paired: int, source: str) -> None:
    """The points a player's line declares must be those of their rounds: of every
    round the line holds, or (as bbpPairings and JaVaFo read them) of the rounds paired
    so far, with or without the byes and absences entered for the round to be paired."""

    def through(last: int) -> Fraction:
        return sum(
            (CODES[r.code][0] for n, r in player.rounds.items() if r.code != " " and n <= last),
            Fraction(0),
        )

    total = through(MAX_ROUNDS)
    if points in (total, through(paired), through(paired + 1)):
        return
    message = (
        f"{source}: player {player.number} ({player.name}) has {_points(points)} points, "
        f"but the rounds give {_points(total)}"
    )
    if through(paired) != total:
        message += (
            f" ({_points(through(paired))} without the rounds not paired yet, from round "
            f"{paired + 1})"
        )
    raise TrfError(message)
