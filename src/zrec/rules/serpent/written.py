"""The serpent games' positions and moves as values, and the reading and writing of moves.

:class:`SerpentPosition` and :class:`SerpentMove` are a position and a move as the
engine keeps them (lattice bits); a move knows its written form.  :class:`WrittenMoves`
is the part of the engine (:class:`zrec.rules.serpent.engine.SerpentEngine`) that reads a
written move (``resolve``: a fast path for a well-formed legal step or chain, then a
checked path that says what is wrong, reads short chains and asks for a jumped point
where one is needed) and writes one (``spell``: the shortest unambiguous full form).
The engine supplies the tables and the move generator that the mixin declares.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple

from zrec.moves import Action, Turn
from zrec.rules.base import AmbiguousMoveError, Finding, IllegalMoveError, Resolved
from zrec.rules.serpent.lattice import Lattice, point_index, point_name

SIDES = ("White", "Black")
_BIT = tuple(1 << i for i in range(64))


class SerpentPosition(NamedTuple):
    """A position: bitmasks of the White and Black pieces, side to move (0 White,
    1 Black), the number of moves played since the start or the Setup (a huff is not
    a move: it does not count), and under ``Captures "huff"`` the pieces of the side
    that has just moved that the side to move may huff (0: no huff is due)."""

    white: int
    black: int
    turn: int
    ply: int
    huff: int = 0


class SerpentMove(NamedTuple):
    """A move: the landing path (a step has two points) and the jumped points, sorted.
    A huff (``Captures "huff"``) is the one point of the huffed piece, as path and as
    captured point.

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


class WrittenMoves:
    """The reading and writing of moves, mixed into the serpent engine."""

    # Set by the engine:
    title: str
    lattice: Lattice
    centre: str  # the name of the centre point
    _start: SerpentPosition
    _first_to_centre: bool  # the Pieces-23 rule
    _compulsory: bool  # Captures "compulsory": a step is illegal while a capture is open
    _huffing: bool  # Captures "huff"
    _one_hop: bool  # Chains "one": a capture is a single jump
    _must_end: bool  # a chain must go on while it can (Chains "whole", not huffing)
    _index: Mapping[str, int]
    _over: Mapping[tuple[int, int], tuple[int, ...]]
    _jumps_from: tuple[tuple[tuple[int, int], ...], ...]
    _capture_test: Callable[[int, int], bool]
    #: from -> {to name: the resolved step}; shared, immutable answers of resolve().
    _steps: tuple[dict[str, Resolved[SerpentMove]], ...]

    def legal_moves(
        self, pos: SerpentPosition, roll: Sequence[int] | None = None
    ) -> list[SerpentMove]:
        raise NotImplementedError  # the engine's move generator

    def _sides(self, pos: SerpentPosition) -> tuple[int, int]:
        """The pieces of the side to move and of the other side."""
        return (pos.white, pos.black) if pos.turn == 0 else (pos.black, pos.white)

    def _first_rule(self, pos: SerpentPosition) -> bool:
        """Whether the Pieces-23 rule (first move into the centre) governs this move."""
        s = self._start
        return (
            self._first_to_centre
            and pos.ply == 0
            and (pos.white, pos.black, pos.turn) == (s.white, s.black, s.turn)
        )

    def _illegal(self, pos: SerpentPosition, reason: str) -> IllegalMoveError:
        return IllegalMoveError(reason, self._legal_texts(pos))

    def _legal_texts(self, pos: SerpentPosition) -> list[str]:
        return sorted(self.spell(pos, m).actions[0].text() for m in self.legal_moves(pos))

    # -- reading ---------------------------------------------------------------

    def resolve(self, pos: SerpentPosition, turn: Turn) -> Resolved[SerpentMove]:
        # The fast path: a well-formed legal step or a chain of unambiguous jumps is
        # checked with the tables and bitmasks alone.  Anything else goes to
        # _resolve_checked, which checks again in order and says what is wrong.
        actions = turn.actions
        if turn.dice is None and len(actions) == 1 and actions[0].kind == "path":
            action = actions[0]
            squares = action.squares
            index = self._index
            white, black, side, ply, huff = pos
            own, enemy = (black, white) if side else (white, black)
            # not the Pieces-23 first move, and no huff due
            usual = (ply or not self._first_to_centre) and not huff
            if action.seps == ("-",):
                frm = index.get(squares[0], -1)
                if frm >= 0 and own >> frm & 1 and action.vias[0] is None:
                    done = self._steps[frm].get(squares[1])
                    if (
                        done is not None
                        and not (own | enemy) >> done.move.path[1] & 1
                        and usual
                        and not (self._compulsory and self._capture_test(own, enemy))
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
        names) and the chain is whole (where it must be), and one hop under Chains
        "one"; else None."""
        if self._one_hop and len(vias) > 1:
            return None
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
        if self._must_end:
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
        if pos.huff or (self._huffing and len(path) == 1):
            return Resolved(self._resolve_huff(pos, path))
        own, enemy = self._sides(pos)
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
        text = action.text()
        if self._one_hop and len(path) > 2:
            reason = f'a capture is a single jump under Chains "one"; {text} makes {len(path) - 1}'
            raise self._illegal(pos, reason)
        fits, reason = self._hops(pos, path, vias)
        if not fits:
            if len(path) == 2 and vias[0] is None:
                return self._resolve_short(pos, text, frm, path[1], reason)
            raise self._illegal(pos, reason)
        moves = sorted({SerpentMove(tuple(path), tuple(sorted(c))) for c in fits})
        if len(moves) > 1:
            options = ", ".join(self.spell(pos, m).actions[0].text() for m in moves)
            raise AmbiguousMoveError(
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
        elif self._compulsory and self._capture_test(own, enemy):
            raise self._illegal(pos, "a capture is compulsory here")
        return SerpentMove((frm, to))

    def _resolve_huff(self, pos: SerpentPosition, path: Sequence[int]) -> SerpentMove:
        """A huff written as the point of the huffed piece alone, when one is due."""
        side, other = SIDES[pos.turn], SIDES[1 - pos.turn]
        if not pos.huff:
            reason = "no huff is due here (a huff follows a move that did not jump when it could)"
            raise self._illegal(pos, reason)
        names = self._huff_names(pos.huff)
        if len(path) != 1:
            which = (
                f"the {other} piece that could have jumped and did not ({names[0]})"
                if len(names) == 1
                else f"one of the {other} pieces that could have jumped and did not "
                f"({' or '.join(names)})"
            )
            reason = f"{side} must first huff {which}, written as its point alone"
            raise self._illegal(pos, reason)
        p = path[0]
        if not pos.huff >> p & 1:
            reason = (
                f"the {other} piece on {point_name(p)} cannot be huffed"
                if self._sides(pos)[1] >> p & 1
                else f"there is no {other} piece on {point_name(p)}"
            )
            due = (
                f"the piece that may be huffed is {names[0]}"
                if len(names) == 1
                else f"the pieces that may be huffed are {' and '.join(names)}"
            )
            raise self._illegal(pos, f"{reason}: {due}")
        return SerpentMove((p,), (p,))

    def _huff_names(self, mask: int) -> list[str]:
        """The names of the points of ``mask``, in board order (rows a, b, c)."""
        names = [point_name(i) for i in range(mask.bit_length()) if mask >> i & 1]
        return sorted(names, key=lambda p: (p[0], int(p[1:])))

    def _resolve_short(
        self, pos: SerpentPosition, text: str, frm: int, to: int, reason: str
    ) -> Resolved[SerpentMove]:
        fits = [m for m in self.legal_moves(pos) if m.path[0] == frm and m.path[-1] == to]
        if fits and not fits[0].captured:
            # "x" claims a capture: a step written with it is wrong, not a short chain
            step = self.spell(pos, fits[0]).actions[0].text()
            why = f"its x claims a capture, but it captures nothing (write {step})"
            raise self._illegal(pos, why)
        if not fits:
            raise self._illegal(pos, reason)
        spelled = sorted(self.spell(pos, m).actions[0].text() for m in fits)
        if len(fits) > 1:
            raise AmbiguousMoveError(
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

    def _hops(
        self, pos: SerpentPosition, path: Sequence[int], vias: Sequence[int | None]
    ) -> tuple[list[tuple[int, ...]], str]:
        """Every way to jump along ``path`` (``vias`` fixes some jumped points) that ends
        the chain (where a chain must go on while it can), as the jumped points in order;
        else the first reason it fails."""
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
        if not self._must_end:
            return [caps for en, caps in states], ""
        last = path[-1]
        done = [caps for en, caps in states if not lat.can_jump_from(last, friends | en, en)]
        if not done:
            return [], f"the chain must go on: the piece on {point_name(last)} can still jump"
        return done, ""

    # -- writing ---------------------------------------------------------------

    def spell(self, pos: SerpentPosition, move: SerpentMove) -> Turn:
        names = tuple(point_name(p) for p in move.path)
        k = len(names) - 1
        if not move.captured:
            return Turn((Action("path", names, ("-",), (None,)),))
        if not k:  # a huff: the point alone
            return Turn((Action("path", names),))
        own, enemy = self._sides(pos)
        if self._must_end:
            found = _chains_from(self.lattice, move.path[0], own, enemy)
        else:  # the chains that may stop, or single hops: as the moves list them
            found = tuple((m.path, m.captured) for m in self.legal_moves(pos) if m.captured)
        rivals = {tuple(sorted(caps)) for path, caps in found if path == move.path}
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


@lru_cache(maxsize=1024)
def _chains_from(
    lat: Lattice, p: int, own: int, enemy: int
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every whole capture chain of the piece on ``p``, found once for a board and its
    pieces: the legal moves of a position are spelled one by one (for the list of legal
    moves an error gives), each capture asking for the chains of its piece, and the
    readings of a record ask again under every combination of options on that board."""
    return tuple(lat.chains_from(p, own, enemy))
