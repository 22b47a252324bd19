"""Rules of the Zuni serpent games, Awithlaknannai Mosona and Kolowis Awithlaknannai.

The readings follow RULINGS §1: pieces step along the lines of a three-row lattice or
jump an adjacent enemy piece; capturing is compulsory and a capturing piece jumps on
while it can (the whole chain is one move); a side with no pieces loses, a side to move
with no legal move ends the game by the end rule.  The board itself (points, lines,
jumps and the bitmask tests) lives in :mod:`zrec.rules._lattice`.

Rule options (record tags): ``Board`` lined|open, ``Jumps`` line|bent, ``Middle``
right|left, ``EndRule`` majority|draw, ``First`` White|Black and, Kolowis only,
``Pieces`` 24|23.  Under ``Pieces "23"`` the first move of the game from the standard
start is a step into the centre ``b9``; capturing does not apply to that one move (it
matters only under bent jumps, where a capture would otherwise be open at once).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from types import MappingProxyType
from typing import NamedTuple, cast

from zrec.moves import Action, Turn
from zrec.rules._lattice import (
    Lattice,
    coordinates,
    drawing,
    lattice,
    point_index,
    point_name,
    read_setup,
    setup_string,
)
from zrec.rules.base import (
    AmbiguousMove,
    Finding,
    IllegalMove,
    OptionSpec,
    Outcome,
    Resolved,
    Variant,
    check_options,
)

SIDES = ("White", "Black")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_BIT = tuple(1 << i for i in range(64))


class SerpentPosition(NamedTuple):
    """A position: bitmasks of the White and Black pieces, side to move (0 White,
    1 Black) and the number of moves played since the start or the Setup."""

    white: int
    black: int
    turn: int
    ply: int


class SerpentMove(NamedTuple):
    """A move: the landing path (a step has two points) and the jumped points, sorted.

    Points are lattice bits (``b_i`` = 3(i-1), ``a_i`` = 3(i-1)+1, ``c_i`` = 3(i-1)+2).
    """

    path: tuple[int, ...]
    captured: tuple[int, ...] = ()

    @classmethod
    def named(cls, path: str, captured: str = "") -> SerpentMove:
        """A move from point names: ``named("b6-b5")``, ``named("b4xb6", "b5")``."""
        points = tuple(point_index(p) for p in re.split(r"[-x]", path))
        return cls(points, tuple(sorted(point_index(c) for c in captured.split())))

    def text(self) -> str:
        """The landing path written out, e.g. ``b6-b5`` or ``b4xb6xa5``."""
        return ("x" if self.captured else "-").join(point_name(p) for p in self.path)

    def __repr__(self) -> str:
        if not self.captured:
            return f"SerpentMove.named({self.text()!r})"
        caps = " ".join(point_name(c) for c in self.captured)
        return f"SerpentMove.named({self.text()!r}, {caps!r})"

    def __str__(self) -> str:
        return self.text()


_new_position = tuple.__new__  # SerpentPosition without its Python-level __new__


def _plural(k: int) -> str:
    return f"{k} piece" if k == 1 else f"{k} pieces"


class SerpentVariant:
    """One serpent game with its rule options fixed: the rules engine."""

    def __init__(self, title: str, n: int, options: Mapping[str, str]):
        self.title = title
        self.options: Mapping[str, str] = MappingProxyType(dict(options))
        lat = lattice(n, options["Board"] == "lined", options["Jumps"] == "bent")
        self.lattice: Lattice = lat
        self.max_pieces = 3 * n // 2
        self.end_rule = options["EndRule"]
        self.centre = point_name(lat.centre)
        #: Every point name, rows a, b, c, west to east.
        self.points: tuple[str, ...] = tuple(point_name(i) for i in lat.points)
        order = {p: k for k, p in enumerate(lat.points)}
        lines = [(x, y) if order[x] < order[y] else (y, x) for x, y in lat.lines]
        lines.sort(key=lambda line: (order[line[0]], order[line[1]]))
        #: Every line as a pair of point names, in the order of ``points``.
        self.lines: tuple[tuple[str, str], ...] = tuple(
            (point_name(x), point_name(y)) for x, y in lines
        )
        jumps = sorted(lat.jumps, key=lambda j: (order[j[0]], order[j[1]], order[j[2]]))
        #: Every jump as (from, over, to) point names, both directions.
        self.jumps: tuple[tuple[str, str, str], ...] = tuple(
            (point_name(p), point_name(q), point_name(r)) for p, q, r in jumps
        )
        #: Drawing coordinates (x east, y north): b_k (2k-2, 0), a_k (2k-1, -1), c_k (2k-1, 1).
        self.coordinates: Mapping[str, tuple[int, int]] = MappingProxyType(
            {point_name(i): coordinates(i) for i in lat.points}
        )
        half = range(0, 3 * (n // 2), 3)  # b1 .. b(n/2), west of the centre
        west = sum(_BIT[i] for i in half)
        east = sum(_BIT[lat.size - 1 - i] for i in half)
        a_row = sum(_BIT[i] for i in range(1, lat.size, 3))
        c_row = sum(_BIT[i] for i in range(2, lat.size, 3))
        if options["Middle"] == "left":
            west, east = east, west
        white, black = a_row | east, c_row | west
        self._first_to_centre = options.get("Pieces") == "23"
        if self._first_to_centre:
            ends = _BIT[0] | _BIT[lat.size - 1]
            white, black = white & ~ends, black & ~ends
        turn = 1 if options["First"] == "Black" else 0
        self._start = SerpentPosition(white, black, turn, 0)
        self._index = lat.index
        self._capture_test = lat.capture_test
        self._over = dict(lat.over)
        self._jumps_from = lat.jumps_from
        #: from -> {to name: the resolved step}; shared, immutable answers of resolve().
        self._steps: tuple[dict[str, Resolved[SerpentMove]], ...] = tuple(
            {point_name(r): Resolved(SerpentMove((p, r))) for r in lat.neighbours[p]}
            for p in range(lat.size)
        )

    # -- positions -------------------------------------------------------------

    def start(self) -> SerpentPosition:
        return self._start

    def _first_rule(self, pos: SerpentPosition) -> bool:
        """Whether the Pieces-23 rule (first move into the centre) governs this move."""
        s = self._start
        return (
            self._first_to_centre
            and pos.ply == 0
            and (pos.white, pos.black, pos.turn) == (s.white, s.black, s.turn)
        )

    def setup(self, text: str) -> SerpentPosition:
        white, black, turn = read_setup(self.lattice, text, self.title, self.max_pieces)
        # Numbering as in PGN: when the side that moves second is to move, the
        # record starts with "1..." and the next move is number 2.
        return SerpentPosition(white, black, turn, 0 if turn == self._start.turn else 1)

    def setup_text(self, pos: SerpentPosition) -> str:
        return setup_string(self.lattice, pos.white, pos.black, pos.turn)

    def turn_label(self, pos: SerpentPosition) -> tuple[int, str]:
        return pos.ply // 2 + 1, SIDES[pos.turn]

    def pieces(self, pos: SerpentPosition) -> dict[str, str]:
        out: dict[str, str] = {}
        for i in self.lattice.points:
            if pos.white >> i & 1:
                out[point_name(i)] = "W"
            elif pos.black >> i & 1:
                out[point_name(i)] = "B"
        return out

    def render(self, pos: SerpentPosition) -> str:
        w, b = pos.white.bit_count(), pos.black.bit_count()
        status = f"{SIDES[pos.turn]} to move (White {w}, Black {b})"
        return drawing(self.lattice, pos.white, pos.black) + "\n" + status

    # -- moves -----------------------------------------------------------------

    def _sides(self, pos: SerpentPosition) -> tuple[int, int]:
        return (pos.white, pos.black) if pos.turn == 0 else (pos.black, pos.white)

    def legal_moves(self, pos: SerpentPosition) -> list[SerpentMove]:
        lat = self.lattice
        own, enemy = self._sides(pos)
        if self._first_rule(pos):
            c = lat.centre
            return [SerpentMove((p, c)) for p in lat.neighbours[c] if own >> p & 1]
        seen: dict[tuple[tuple[int, ...], tuple[int, ...]], None] = {}
        for path, caps in lat.chains(own, enemy):
            seen.setdefault((path, tuple(sorted(caps))), None)
        if seen:
            return [SerpentMove(path, caps) for path, caps in seen]
        empty = lat.full & ~(own | enemy)
        moves = []
        rest = own
        while rest:
            low = rest & -rest
            rest ^= low
            p = low.bit_length() - 1
            moves += [SerpentMove((p, r)) for r in lat.neighbours[p] if empty >> r & 1]
        return moves

    def apply(self, pos: SerpentPosition, move: SerpentMove) -> SerpentPosition:
        white, black, turn, ply = pos
        path, caps = move
        moved = _BIT[path[0]]
        landed = _BIT[path[-1]]
        gone = 0
        for c in caps:
            gone |= _BIT[c]
        if turn:
            white &= ~gone
            black = (black & ~moved) | landed
        else:
            white = (white & ~moved) | landed
            black &= ~gone
        return _new_position(SerpentPosition, (white, black, 1 - turn, ply + 1))

    def _hops(
        self, pos: SerpentPosition, path: Sequence[int], vias: Sequence[int | None]
    ) -> tuple[list[tuple[int, ...]], str]:
        """Every way to jump along ``path`` (``vias`` fixes some jumped points) that ends
        the chain, as the jumped points in order; else the first reason it fails."""
        lat = self.lattice
        own, enemy = self._sides(pos)
        friends = own & ~_BIT[path[0]]
        states: list[tuple[int, tuple[int, ...]]] = [(enemy, ())]
        for i in range(1, len(path)):
            p, r, via = path[i - 1], path[i], vias[i - 1]
            p_name, r_name = point_name(p), point_name(r)
            qs = lat.over.get((p, r), ())
            if not qs:
                return [], f"there is no jump from {p_name} to {r_name}"
            if via is not None:
                if via not in qs:
                    over = " or ".join(point_name(q) for q in qs)
                    return [], (
                        f"a jump from {p_name} to {r_name} passes over {over}, "
                        f"not {point_name(via)}"
                    )
                qs = (via,)
            following: list[tuple[int, tuple[int, ...]]] = []
            reason = f"there is no enemy piece to jump between {p_name} and {r_name}"
            for en, caps in states:
                if (friends | en) >> r & 1:
                    reason = f"{r_name} is not empty"
                    continue
                following += [(en & ~_BIT[q], (*caps, q)) for q in qs if en >> q & 1]
            if not following:
                return [], reason
            states = following
        last = path[-1]
        done = [caps for en, caps in states if not lat.can_jump_from(last, friends | en, en)]
        if not done:
            return [], f"the chain must go on: the piece on {point_name(last)} can still jump"
        return done, ""

    def _illegal(self, pos: SerpentPosition, reason: str) -> IllegalMove:
        return IllegalMove(reason, self._legal_texts(pos))

    def _legal_texts(self, pos: SerpentPosition) -> list[str]:
        return sorted(self.spell(pos, m).actions[0].text() for m in self.legal_moves(pos))

    def resolve(self, pos: SerpentPosition, turn: Turn) -> Resolved[SerpentMove]:
        # The fast path: a well-formed legal step or a chain of unambiguous jumps is
        # checked with the tables and bitmasks alone.  Anything else goes to
        # _resolve_checked, which checks again in order and says what is wrong.
        actions = turn.actions
        if turn.dice is None and len(actions) == 1 and actions[0].kind == "path":
            action = actions[0]
            squares = action.squares
            index = self._index
            white, black, side, ply = pos
            own, enemy = (black, white) if side else (white, black)
            usual = ply or not self._first_to_centre  # not the Pieces-23 first move
            if action.seps == ("-",):
                frm = index.get(squares[0], -1)
                if frm >= 0 and own >> frm & 1 and action.vias[0] is None:
                    done = self._steps[frm].get(squares[1])
                    if (
                        done is not None
                        and not (own | enemy) >> done.move.path[1] & 1
                        and usual
                        and not self._capture_test(own, enemy)
                    ):
                        return done
            elif usual and 1 < len(squares) == action.seps.count("x") + 1 == len(action.vias) + 1:
                move = self._fast_chain(own, enemy, squares, action.vias)
                if move is not None:
                    return Resolved(move)
        return self._resolve_checked(pos, turn)

    def _fast_chain(
        self, own: int, enemy: int, squares: Sequence[str], vias: Sequence[str | None]
    ) -> SerpentMove | None:
        """The chain when each hop jumps exactly one enemy piece (or the one its via
        names) and the chain is whole; else None."""
        index, over = self._index, self._over
        p = index.get(squares[0], -1)
        if p < 0 or not own >> p & 1:
            return None
        path = [p]
        friends = own & ~_BIT[p]
        caps = []
        for i in range(len(vias)):
            r = index.get(squares[i + 1], -1)
            qs = over.get((p, r))
            if qs is None or (friends | enemy) >> r & 1:
                return None
            via = vias[i]
            if via is not None:
                q = index.get(via, -1)
                if q not in qs or not enemy >> q & 1:
                    return None
            elif len(qs) == 1:
                q = qs[0]
                if not enemy >> q & 1:
                    return None
            else:
                jumped = [q for q in qs if enemy >> q & 1]
                if len(jumped) != 1:
                    return None
                q = jumped[0]
            enemy &= ~_BIT[q]
            caps.append(q)
            path.append(r)
            p = r
        occupied = friends | enemy
        for q, r in self._jumps_from[p]:
            if enemy >> q & 1 and not occupied >> r & 1:
                return None
        caps.sort()
        return SerpentMove(tuple(path), tuple(caps))

    def _resolve_checked(self, pos: SerpentPosition, turn: Turn) -> Resolved[SerpentMove]:
        if turn.dice is not None:
            raise self._illegal(pos, f"{self.title} uses no dice")
        if len(turn.actions) != 1:
            raise self._illegal(pos, f"a turn is one move, not {len(turn.actions)}")
        action = turn.actions[0]
        if action.kind != "path":
            raise self._illegal(pos, f"{action.text()} is not a move of {self.title}")
        index = self._index
        try:
            path = [index[s] for s in action.squares]
            vias = [None if v is None else index[v] for v in action.vias]
        except KeyError:
            bad = [s for s in (*action.squares, *action.vias) if s is not None and s not in index]
            raise self._illegal(pos, f"{bad[0]} is not a point of this board") from None
        own, enemy = (pos.white, pos.black) if pos.turn == 0 else (pos.black, pos.white)
        frm = path[0]
        if not own >> frm & 1:
            side = SIDES[pos.turn]
            raise self._illegal(pos, f"there is no {side} piece on {action.squares[0]}")
        if len(path) < 2:
            raise self._illegal(pos, "a move names at least two points")
        seps = action.seps
        if seps == ("-",):
            return Resolved(self._resolve_step(pos, own, enemy, frm, path[1], vias[0]))
        if any(s != "x" for s in seps):
            if all(s == "-" for s in seps):
                raise self._illegal(pos, "a step goes from one point to the next only")
            raise self._illegal(pos, "a move is either a step (with -) or a chain (with x)")
        if self._first_rule(pos):
            reason = f"the first move must be a step to the centre ({self.centre})"
            raise self._illegal(pos, reason)
        fits, reason = self._hops(pos, path, vias)
        text = action.text()
        if not fits:
            if len(path) == 2 and vias[0] is None:
                return self._resolve_short(pos, text, frm, path[1], reason)
            raise self._illegal(pos, reason)
        moves = sorted({SerpentMove(tuple(path), tuple(sorted(c))) for c in fits})
        if len(moves) > 1:
            options = ", ".join(self.spell(pos, m).actions[0].text() for m in moves)
            raise AmbiguousMove(
                f"{text} fits several chains: {options}; write the jumped point in parentheses",
                self._legal_texts(pos),
            )
        return Resolved(moves[0])

    def _resolve_step(
        self, pos: SerpentPosition, own: int, enemy: int, frm: int, to: int, via: int | None
    ) -> SerpentMove:
        lat = self.lattice
        if not lat.adjacent[frm] >> to & 1:
            reason = f"{point_name(frm)} and {point_name(to)} are not joined by a line"
            raise self._illegal(pos, reason)
        if (own | enemy) >> to & 1:
            raise self._illegal(pos, f"{point_name(to)} is not empty")
        if via is not None:
            raise self._illegal(pos, "a step jumps over no point")
        if self._first_rule(pos):
            if to != lat.centre:
                raise self._illegal(pos, f"the first move must go to the centre ({self.centre})")
        elif self._capture_test(own, enemy):
            raise self._illegal(pos, "a capture is compulsory here")
        return SerpentMove((frm, to))

    def _resolve_short(
        self, pos: SerpentPosition, text: str, frm: int, to: int, reason: str
    ) -> Resolved[SerpentMove]:
        fits = [m for m in self.legal_moves(pos) if m.path[0] == frm and m.path[-1] == to]
        if not fits:
            raise self._illegal(pos, reason)
        spelled = sorted(self.spell(pos, m).actions[0].text() for m in fits)
        if len(fits) > 1:
            raise AmbiguousMove(
                f"{text} gives only the start and the last landing point, and several "
                f"chains fit it: {', '.join(spelled)}",
                self._legal_texts(pos),
            )
        note = Finding(
            "short-chain",
            "warning",
            f"{text} gives only the start and the last landing point; "
            f"the full chain is {spelled[0]}",
        )
        return Resolved(fits[0], (note,))

    def spell(self, pos: SerpentPosition, move: SerpentMove) -> Turn:
        names = tuple(point_name(p) for p in move.path)
        k = len(names) - 1
        if not move.captured:
            return Turn((Action("path", names, ("-",), (None,)),))
        own, enemy = self._sides(pos)
        rivals = {
            tuple(sorted(caps))
            for path, caps in self.lattice.chains_from(move.path[0], own, enemy)
            if path == move.path
        }
        rivals.discard(move.captured)
        vias: list[int | None] = [None] * k
        if rivals:
            # Name the jumped point at the first hop that tells a rival apart, until
            # no rival fits the written vias.
            ways = self._hops(pos, move.path, vias)[0]
            mine = next(c for c in ways if tuple(sorted(c)) == move.captured)
            others = [c for c in ways if tuple(sorted(c)) in rivals]
            while others:
                hop = next(i for i in range(k) if others[0][i] != mine[i])
                vias[hop] = mine[hop]
                others = [c for c in others if c[hop] == mine[hop]]
        via_names = tuple(None if v is None else point_name(v) for v in vias)
        return Turn((Action("path", names, ("x",) * k, via_names),))

    # -- the end ---------------------------------------------------------------

    def outcome(self, pos: SerpentPosition) -> Outcome | None:
        w, b = pos.white.bit_count(), pos.black.bit_count()
        if not w or not b:
            if not w and not b:
                return Outcome("1/2-1/2", "neither side has a piece left")
            loser, winner = ("White", "Black") if not w else ("Black", "White")
            result = "0-1" if not w else "1-0"
            return Outcome(result, f"{loser} has no pieces left, so {winner} wins ({result})")
        own, enemy = self._sides(pos)
        lat = self.lattice
        if lat.can_step(own, enemy) or lat.can_capture(own, enemy):
            return None
        result = self._rule_result(w, b)
        return Outcome(
            result,
            f'{SIDES[pos.turn]} has no legal move and the end rule "{self.end_rule}" '
            f"gives {result} (White {_plural(w)}, Black {b})",
        )

    def _rule_result(self, w: int, b: int) -> str:
        if self.end_rule == "draw" or w == b:
            return "1/2-1/2"
        return "1-0" if w > b else "0-1"

    def judge_end(
        self, pos: SerpentPosition, result: str, tags: Mapping[str, str]
    ) -> list[Finding]:
        if result not in RESULTS:
            return [Finding("wrong-result", "error", f'"{result}" is not a result')]
        end = self.outcome(pos)
        if end is not None:
            if result == end.result:
                return []
            return [Finding("wrong-result", "error", f"the result is {result} but {end.reason}")]
        if result == "*":
            return []
        findings = []
        w, b = pos.white.bit_count(), pos.black.bit_count()
        expected = self._rule_result(w, b)
        if result != expected:
            if self.end_rule == "draw":
                why = 'the end rule "draw" makes it 1/2-1/2'
            else:
                why = f'the end rule "majority" gives {expected} (White {_plural(w)}, Black {b})'
            message = f"the result is {result} but the game ends by agreement and {why}"
            findings.append(Finding("wrong-result", "error", message))
        own, enemy = self._sides(pos)
        if self.lattice.can_capture(own, enemy) and not self._first_rule(pos):
            caps = self._legal_texts(pos)
            noun = "a capture" if len(caps) == 1 else "captures"
            findings.append(
                Finding(
                    "capture-open",
                    "warning",
                    f"the game ends by agreement while {SIDES[pos.turn]} still has "
                    f"{noun}: {', '.join(caps)}",
                )
            )
        return findings


_OPTIONS: dict[str, OptionSpec] = {
    "Board": OptionSpec(
        "lined", ("lined", "open"), "lined: the outer rows are lines too; open: they are not"
    ),
    "Jumps": OptionSpec(
        "line",
        ("line", "bent"),
        "line: a jump follows one line of the drawing (the curved ends included); "
        "bent: a jump may turn at the jumped point onto any line",
    ),
    "Middle": OptionSpec(
        "right",
        ("right", "left"),
        "right: each side fills the middle points on its own right; left: on its left",
    ),
    "EndRule": OptionSpec(
        "majority",
        ("majority", "draw"),
        "how a blocked or agreed ending is scored: more pieces wins, or always a draw",
    ),
    "First": OptionSpec("White", ("White", "Black"), "the side that moves first"),
}
_PIECES = OptionSpec(
    "24",
    ("24", "23"),
    "24: only the centre starts empty; 23: the ends of the middle row too, and the "
    "first move is a step into the centre",
)


class SerpentGame:
    """A serpent game zrec knows: names, sides, rule options and its engines."""

    sides: tuple[str, ...] = SIDES

    def __init__(self, name: str, aliases: tuple[str, ...], title: str, n: int):
        self.name = name
        self.aliases = aliases
        self.title = title
        self.n = n
        specs = dict(_OPTIONS)
        if n == 16:
            specs["Pieces"] = _PIECES
        self.options: Mapping[str, OptionSpec] = MappingProxyType(specs)

    def engine(self, **options: str) -> SerpentVariant:
        """The engine with these rule options (defaults for the rest; other tags are
        ignored), typed for callers: ``MOSONA.engine(Board="open")``.  Built once per
        choice of options.  Raises :class:`OptionError` for a value the game does not know.
        """
        chosen = check_options(self.options, options)
        return _variant(self.title, self.n, tuple(chosen.items()))

    def variant(self, options: Mapping[str, str]) -> Variant[object, object] | None:
        return cast("Variant[object, object]", self.engine(**options))


@cache
def _variant(name: str, n: int, options: tuple[tuple[str, str], ...]) -> SerpentVariant:
    return SerpentVariant(name, n, dict(options))


MOSONA = SerpentGame(
    "mosona", ("awithlaknannai mosona", "awithlaknan mosona"), "Awithlaknannai Mosona", 8
)
KOLOWIS = SerpentGame(
    "kolowis",
    ("kolowis awithlaknannai", "fighting serpents", "awithlaknannai kolowis"),
    "Kolowis Awithlaknannai",
    16,
)
GAMES = (MOSONA, KOLOWIS)
