"""An open archive: its database, and the lookups every command shares.

:meth:`Archive.open` connects (a SQLite path or a ``postgresql://`` URL), makes the
tables of a new archive or migrates an older one, and refuses anything else with a
clear message; a command that only reads opens the archive read-only.  The lookups
here read stored games back: their canonical text, their tags in order, their seats
and where they came from.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from zrec.archive.people.names import normal_name
from zrec.archive.store.db import (
    WAIT,
    ArchiveError,
    ArchiveFullError,
    DamagedArchiveError,
    Database,
    connect,
)
from zrec.archive.store.packing import Texts, tags_of_text
from zrec.archive.store.schema import VERSION, migrate, refuse_newer, schema_version

__all__ = [
    "Archive",
    "ArchiveError",
    "ArchiveFullError",
    "DamagedArchiveError",
    "StoredGame",
    "split_options",
    "stored_options",
]

#: ids asked for in one statement
CHUNK = 500


def split_options(options: str) -> dict[str, str]:
    """Stored options (``Tag=value;...``) as a mapping."""
    out: dict[str, str] = {}
    for part in options.split(";"):
        tag, sep, value = part.partition("=")
        if sep:
            out[tag] = value
    return out


def stored_options(game: str, options: str) -> dict[str, str]:
    """Stored options of a game of ``game`` with every option the store leaves out at
    its default (:attr:`OptionSpec.stored_default`) filled in: what the game was played
    under, as a search compares it."""
    from zrec.rules import find_game
    from zrec.rules.base import UnknownGameError

    out = split_options(options)
    try:
        specs = find_game(game).options
    except UnknownGameError:
        return out
    for tag, spec in specs.items():
        if not spec.stored_default:
            out.setdefault(tag, spec.default)
    return out


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One stored game with its tags (in order), as search and show give it."""

    id: int
    game: str
    options: str
    result: str
    plies: int
    valid: bool
    problem: str | None
    tags: tuple[tuple[str, str], ...]
    text: str
    #: (seat tag, the player's name as the archive keeps it), seats in order
    players: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The game as search's JSON shows it: id, game, options, tags, result, plies,
        valid (and the problem of an invalid game), players."""
        out: dict[str, Any] = {
            "id": self.id,
            "game": self.game,
            "options": split_options(self.options),
            "tags": dict(self.tags),
            "result": self.result,
            "plies": self.plies,
            "valid": self.valid,
            "players": [{"seat": seat, "name": name} for seat, name in self.players],
        }
        if not self.valid:
            out["problem"] = self.problem
        return out

    def tag(self, name: str, default: str = "") -> str:
        for key, value in self.tags:
            if key == name:
                return value
        return default


def _rebuild(db: Database) -> None:
    """The indexes of schema 4 built from the stored games (by a migration)."""
    from zrec.archive.store.posindex import rebuild

    rebuild(db)


def _lines(db: Database) -> None:
    """The opening lines of schema 5 built from the stored games (by a migration)."""
    from zrec.archive.store.lines import rebuild

    rebuild(db)


class Archive:
    """An archive open on one database connection."""

    def __init__(self, db: Database) -> None:
        self.db = db
        #: the games' texts as stored (packed) and back
        self.texts = Texts(db)

    @classmethod
    def open(cls, target: str, create: bool = False, read_only: bool = False,
             wait: float = WAIT) -> Archive:
        """Open the archive at ``target``; ``create``: make it when it does not exist;
        ``read_only``: for a command that only reads (an archive of an older schema is
        brought up to date first, which needs to write); ``wait``: seconds a write waits
        for another writer (:func:`zrec.archive.store.db.connect`)."""
        db = connect(target, create, read_only, wait)
        try:
            # an empty database (a PostgreSQL database, an empty SQLite file) is not an
            # archive yet: only ``create`` makes it one
            version = schema_version(db)
            if version is None and (read_only or not create):
                raise ArchiveError(
                    f"there is no archive at {db.target} (zrec archive import makes one; "
                    "--db or ZREC_DB names another)"
                )
            if not read_only:
                migrate(db, _rebuild, _lines)
            elif version != VERSION:
                refuse_newer(db, version)
                db.close()
                db = cls._brought_up_to_date(target, version)
        except BaseException:
            db.close()
            raise
        return cls(db)

    @staticmethod
    def _brought_up_to_date(target: str, version: int | None) -> Database:
        """Migrate an archive of an older schema, then open it read-only again."""
        try:
            with Archive.open(target):
                pass
        except ArchiveError as exc:
            if isinstance(exc, (DamagedArchiveError, ArchiveFullError)):
                raise
            raise ArchiveError(
                f"{target} has archive schema {version}, and this zrec must bring it up to "
                f"date (schema {VERSION}) to read it, but cannot: {exc}"
            ) from None
        return connect(target, False, True)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    # -- lookups -----------------------------------------------------------------

    def count(self) -> int:
        return int(self.db.value("SELECT count(*) FROM games"))

    def games(self, ids: Sequence[int]) -> Iterator[StoredGame]:
        """The stored games with these ids, in the order given (unknown ids are left
        out)."""
        for start in range(0, len(ids), CHUNK):
            part = list(ids[start : start + CHUNK])
            marks = ",".join("?" * len(part))
            rows = self.db.rows(
                "SELECT g.id, g.game, o.options, g.result, g.plies, g.valid, g.problem, g.text "
                "FROM games g LEFT JOIN rule_options o ON o.id = g.options_id "
                f"WHERE g.id IN ({marks})",
                part,
            )
            # a game's tags are its text's, unless game_tags keeps them
            tags: dict[int, list[tuple[str, str]]] = {}
            for game, name, value in self.db.rows(
                f"SELECT game, name, value FROM game_tags WHERE game IN ({marks}) "
                "ORDER BY game, idx",
                part,
            ):
                tags.setdefault(int(game), []).append((str(name), str(value)))
            players: dict[int, list[tuple[str, str]]] = {}
            for game, role, name in self.db.rows(
                "SELECT gp.game, gp.role, p.name FROM game_players gp JOIN players p "
                f"ON p.id = gp.player WHERE gp.game IN ({marks}) ORDER BY gp.game, gp.seat",
                part,
            ):
                players.setdefault(int(game), []).append((str(role), str(name)))
            found = {int(r[0]): r for r in rows}
            for gid in part:
                row = found.get(gid)
                if row is None:
                    continue
                text = self.texts.unpack(row[7])
                if row[2] is None:
                    raise DamagedArchiveError(self.db.target, "a game's rule options are missing")
                held = tags.get(gid)
                yield StoredGame(
                    gid,
                    str(row[1]),
                    str(row[2]),
                    str(row[3]),
                    int(row[4]),
                    bool(row[5]),
                    row[6],
                    tuple(held) if held is not None else tags_of_text(text),
                    text,
                    tuple(players.get(gid, ())),
                )

    def game(self, gid: int) -> StoredGame:
        for found in self.games([gid]):
            return found
        raise ArchiveError(f"there is no game #{gid} in {self.db.target}")

    def text_of(self, gid: int) -> str | None:
        """A stored game's canonical text (``None``: no such game)."""
        stored = self.db.value("SELECT text FROM games WHERE id = ?", (gid,))
        return None if stored is None else self.texts.unpack(stored)

    def sources_of(self, gid: int) -> list[tuple[str, int, int]]:
        """Where a game was found: (file, game number, line), first import first."""
        rows = self.db.rows(
            "SELECT s.path, gs.number, gs.line FROM game_sources gs JOIN sources s "
            "ON s.id = gs.source WHERE gs.game = ? ORDER BY s.id, gs.number",
            (gid,),
        )
        return [(str(p), int(n), int(line)) for p, n, line in rows]

    def player_ids(self, name: str) -> list[int]:
        """The players a name means: its normal form, through the aliases."""
        norm = normal_name(name)
        alias = self.db.value("SELECT player FROM aliases WHERE norm = ?", (norm,))
        if alias is not None:
            return [int(alias)]
        return [int(r[0]) for r in self.db.rows("SELECT id FROM players WHERE norm = ?", (norm,))]

    def player_names(self, ids: Iterable[int]) -> dict[int, str]:
        """The names of the players with these ids (unknown ids are left out)."""
        out: dict[int, str] = {}
        wanted = sorted(set(ids))
        for start in range(0, len(wanted), CHUNK):
            part = wanted[start : start + CHUNK]
            marks = ",".join("?" * len(part))
            for pid, name in self.db.rows(
                f"SELECT id, name FROM players WHERE id IN ({marks})", part
            ):
                out[int(pid)] = str(name)
        return out

    def add_player(self, name: str) -> int:
        """Store a new player (white space in the name folded); its id."""
        name = " ".join(name.split())
        return self.db.insert(
            "INSERT INTO players (name, norm) VALUES (?, ?) RETURNING id",
            (name, normal_name(name)),
        )

    def all_ids(self) -> Iterable[int]:
        return [int(r[0]) for r in self.db.rows("SELECT id FROM games ORDER BY id")]
