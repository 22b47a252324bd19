"""What the archive stores of one record, found in one walk: validation and indexing.

:func:`facts_of` validates a record exactly as ``zrec validate`` does and, in the same
walk of the replay walker, notes the position after every ply of the main line:

- its **key**: a 64-bit hash (BLAKE2b) of the engine's position key, for the position
  index (a hit is confirmed by replay before it is shown);
- its **path**: a hash over the game's start (game, options, setup) and every
  position so far, so that two games share the path at ply n exactly when they share
  their first n plies (kept for the first plies, for move-prefix search); the path at
  the last ply is the game's identity (``ident``):
  the same game (game, options, setup, moves) has the same ident however it is written;
- its **material**: the pieces each seat has, noted whenever a move removes pieces.

Nothing here knows any game: the engine gives the keys and the pieces.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from hashlib import blake2b
from typing import TYPE_CHECKING, Any

from zrec.archive.store.dates import DateError, date_range
from zrec.archive.store.schema import OPENING_PLIES
from zrec.notation.reader import Record
from zrec.notation.writer import write_game
from zrec.play import Replay, Visitor
from zrec.play.walk import Played
from zrec.rules.base import REMOVED, Engine, OptionSpec

if TYPE_CHECKING:  # searches need no validator (start-up): facts_of imports it
    from zrec.check.diagnostics import GameReport
    from zrec.notation.json.convert import JsonRecord

__all__ = ["Facts", "Indexer", "facts_of", "hash64", "material_of", "start_path"]


def hash64(data: bytes) -> int:
    """A signed 64-bit hash (it fits a BIGINT column)."""
    return int.from_bytes(blake2b(data, digest_size=8).digest(), "big", signed=True)


def start_path(game: str, options: str, setup: str) -> bytes:
    """The path at ply 0: the game, its options and its start."""
    return blake2b(f"{game}\x00{options}\x00{setup}".encode(), digest_size=8).digest()


def material_of(engine: Engine[Any, Any], pos: Any) -> str:
    """The pieces each seat has, ``12:11`` (seats in order)."""
    return ":".join(map(str, engine.material(pos)))


def options_text(options: dict[str, str], specs: Mapping[str, OptionSpec]) -> str:
    """Rule options as stored: ``Tag=value`` joined by ``;``, in the game's order; an
    option whose spec does not store its default is left out at its default."""
    return ";".join(
        f"{k}={v}"
        for k, v in options.items()
        if k not in specs or specs[k].stored_default or v != specs[k].default
    )


class Indexer(Visitor):
    """Notes key and material after every ply of the main line (up to its first
    illegal move), and the path at each of the first ``paths`` plies and at the last.

    The walker hands it the main line's moves in batches (``batches``): their keys
    are hashed in one loop and the path chain after the opening plies takes the
    batch's keys in one update, rather than a step, a call and a digest a ply."""

    every_step = False
    batches = True

    def __init__(
        self,
        replay: Replay,
        setup: str,
        raw: bool = False,
        paths: int = OPENING_PLIES,
        codes: bool = False,
        keyed: bool = False,
    ) -> None:
        self.replay = replay
        self.engine = replay.engine
        self.options = options_text(dict(replay.setting.options), replay.rules.options)
        self.setup = setup
        self.upto = paths
        start = self.engine.key(replay.start)
        seed = start_path(replay.rules.name, self.options, setup)
        self.hasher = blake2b(start, digest_size=8, key=seed)
        #: the engine's own keys, when asked for (to confirm a hit of the index)
        self.raw: list[bytes] | None = [start] if raw else None
        self.keys = [hash64(start)]
        self.paths = [_signed(self.hasher.digest())]
        self.material = [(material_of(self.engine, replay.start), 0)]
        self.seen = {self.engine.material(replay.start)}  # as counts: written when new
        #: a game with dice: the same positions may come from other rolls, so the path
        #: also holds each move as the engine spells it (its roll included)
        self.spell = self.engine.chance(replay.start) is not None
        #: with ``codes`` (and no dice): for each of the first moves, the last byte of
        #: the hash of the position it makes (:mod:`zrec.archive.store.lines`)
        self.codes: bytearray | None = bytearray() if codes and not self.spell else None
        #: with ``keyed`` (and no dice): a line the rules play in one call comes as its
        #: keys (:meth:`main_keys`), not as moves
        self.keyed = keyed and not self.spell

    @property
    def path(self) -> int:
        """The path at the last ply walked."""
        return _signed(self.hasher.digest())

    def main_moves(self, moves: list[Played]) -> None:
        keys = self.keys
        first = len(keys)  # the ply of the first move, if it is a turn
        if self.spell or moves[-1][0] - first + 1 != len(moves):
            # dice, or a move that is not a turn (it keeps the ply of the turn before)
            for move in moves:
                self._one(move)
            return
        key = self.engine.key
        self._keys([key(after) for _, _, _, after, _ in moves])
        for ply, _, _, after, events in moves:
            if events and any(event.code == REMOVED for event in events):
                self._material(after, ply)

    def main_keys(
        self, keys: list[bytes], removals: list[tuple[int, tuple[int, ...]]]
    ) -> None:
        self._keys(keys)
        for ply, counts in removals:
            self._counts(counts, ply)

    def _keys(self, raws: list[bytes]) -> None:
        """The keys of the next positions of the main line, each a ply on."""
        keys = self.keys
        first = len(keys)
        keys += [_from_bytes(_hash(r, digest_size=8).digest(), "big", signed=True) for r in raws]
        codes = self.codes
        if codes is not None and len(codes) < OPENING_PLIES:
            codes += bytes(k & 0xFF for k in keys[first : first + OPENING_PLIES - len(codes)])
        if self.raw is not None:
            self.raw += raws
        hasher = self.hasher
        opening = max(0, min(len(raws), self.upto + 1 - first))
        for raw in raws[:opening]:
            hasher.update(raw)
            self.paths.append(_signed(hasher.digest()))
        if opening < len(raws):
            hasher.update(b"".join(raws[opening:]))

    def _one(self, played: Played) -> None:
        ply, before, move, after, events = played
        raw = self.engine.key(after)
        if self.spell:
            self.hasher.update(self.engine.spell(before, move).text().encode())
        self.hasher.update(raw)
        keys = self.keys
        hashed = hash64(raw)
        if self.codes is not None and len(self.codes) < OPENING_PLIES:
            self.codes.append(hashed & 0xFF)
        if ply < len(keys):  # a move that is not a turn: same ply
            keys[ply] = hashed
            if ply <= self.upto:
                self.paths[ply] = _signed(self.hasher.digest())
            if self.raw is not None:
                self.raw[ply] = raw
        else:
            keys.append(hashed)
            if ply <= self.upto:
                self.paths.append(_signed(self.hasher.digest()))
            if self.raw is not None:
                self.raw.append(raw)
        if events and any(event.code == REMOVED for event in events):
            self._material(after, ply)

    def _material(self, after: Any, ply: int) -> None:
        self._counts(self.engine.material(after), ply)

    def _counts(self, counts: tuple[int, ...], ply: int) -> None:
        if counts not in self.seen:
            self.seen.add(counts)
            self.material.append((":".join(map(str, counts)), ply))


_hash = blake2b
_from_bytes = int.from_bytes


def _signed(digest: bytes) -> int:
    return int.from_bytes(digest, "big", signed=True)


@dataclass(slots=True)
class Facts:
    """One record as the archive sees it."""

    number: int
    line: int
    report: GameReport
    tags: tuple[tuple[str, str], ...] = ()
    result: str = ""
    text: str = ""
    name: str = ""
    options: str = ""
    setup: str = ""
    keys: list[int] = field(default_factory=list)  # ply 0 .. plies
    paths: list[int] = field(default_factory=list)  # ply 0 .. min(plies, OPENING_PLIES)
    material: list[tuple[str, int]] = field(default_factory=list)
    #: the first moves as codes (:mod:`zrec.archive.store.lines`); ``None``: dice
    codes: bytes | None = None
    seats: list[tuple[str, str]] = field(default_factory=list)  # (seat tag, name)
    ident: int = 0
    date_lo: str | None = None
    date_hi: str | None = None
    seats_key: str | None = None  # the seats' normal names, once worked out

    @property
    def valid(self) -> bool:
        return self.report.valid

    @property
    def indexed(self) -> bool:
        """Valid and checked by an engine: its positions go into the index."""
        return self.report.valid and self.report.checked and bool(self.keys)

    @property
    def extendable(self) -> bool:
        """Indexed, with moves, and not ended by rule: a stored game may go on from
        where it stops (a game the rules have ended is the start of no longer game, so
        the import looks for none)."""
        return self.indexed and self.plies > 0 and not self.report.over

    @property
    def lined(self) -> bool:
        """Indexed, with moves and no dice: its first moves go into ``tree_lines``."""
        return self.indexed and self.codes is not None and self.plies > 0

    @property
    def plies(self) -> int:
        return self.report.plies

    @property
    def problem(self) -> str | None:
        """The first error, in ``zrec validate``'s words."""
        for diagnostic in self.report.diagnostics:
            if diagnostic.severity == "error":
                return diagnostic.format()
        return None

    @property
    def readable(self) -> bool:
        """The record could be read (it has a text to store)."""
        return bool(self.text)

    def tag(self, name: str) -> str | None:
        for key, value in self.tags:
            if key == name:
                return value
        return None


def facts_of(record: Record | JsonRecord, file: str) -> Facts:
    """Validate one record and index it (see the module's docstring)."""
    from zrec.check.validate import validate_record

    found: list[Indexer] = []

    def observe(replay: Replay) -> Visitor:
        tags = record.game.tag_map() if record.game is not None else {}
        setup = replay.engine.setup_text(replay.start) if "Setup" in tags else ""
        indexer = Indexer(replay, setup, codes=True, keyed=True)
        found.append(indexer)
        return indexer

    report = validate_record(record, file, observe)
    last = 0
    facts = Facts(record.number, record.line, report)
    game = record.game
    if game is None:
        return facts
    facts.tags, facts.result = game.tags, game.result
    facts.text = write_game(game)
    tags = game.tag_map()
    facts.name = tags.get("Game", "")
    try:
        span = date_range(tags.get("Date", "????.??.??"))
    except DateError:
        span = None
    if span is not None:
        facts.date_lo, facts.date_hi = span
    if found:
        indexer = found[0]
        facts.name = indexer.replay.rules.name
        facts.options = indexer.options
        facts.setup = indexer.setup
        facts.keys, facts.paths, facts.material = indexer.keys, indexer.paths, indexer.material
        facts.codes = None if indexer.codes is None else bytes(indexer.codes)
        last = indexer.path
        seats = indexer.engine.seats
        facts.seats = [(seat, tags.get(seat, "?")) for seat in seats]
    if facts.indexed and facts.plies and len(facts.keys) == facts.plies + 1:
        facts.ident = last
    elif facts.indexed and len(facts.keys) == 1:
        # no moves (a forfeit, a bye): the same game only with the same tags
        written = "\x00".join(f"{k}\x01{v}" for k, v in game.tags)
        facts.ident = hash64(
            b"empty\x00" + written.encode() + facts.paths[0].to_bytes(8, "big", signed=True)
        )
    else:
        facts.keys, facts.paths, facts.material, facts.codes = [], [], [], None
        facts.ident = hash64(b"text\x00" + facts.text.encode())
    return facts
