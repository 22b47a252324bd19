"""The grammar's terminals and LALR(1) parse table as plain data, computed by Lark once.

``grammar/zrec.lark`` (shipped as ``zrec/_data/zrec.lark``) is the single source of
truth: the terminals' regular expressions and the parse table of the ``game`` rule are
what Lark makes of it.  Making them takes Lark a noticeable part of zrec's start-up, so
the result is kept, as JSON, in a per-user cache file (``$XDG_CACHE_HOME/zrec``, else
``~/.cache/zrec``) named by a hash of the grammar's text, of the version of Lark and of
this module's layout.  The file also holds all three, and is read only when they are
equal to the ones in use: a grammar edited, or another Lark, makes another file, and a
stale table is never read.  With the file in place a process reads it in about a
millisecond and does not import Lark at all.

A cache file that is missing, unreadable, corrupt or made for another key is ignored:
the tables are computed again (one Lark construction per process at most) and written
back when the directory can be written.  A cache directory that cannot be made or
written is no error; the tables then stay in memory only.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeAlias

#: The layout of the data below and of the cache file; part of the file's key: change
#: it whenever :func:`_compute` would give other data for the same grammar.
LAYOUT = 2

#: A shift (or, on a rule's name, a goto) to a state; or a reduction by a rule,
#: given as the rule's name and the names of the symbols it expands to.
Action: TypeAlias = "int | tuple[str, tuple[str, ...]]"


@dataclass(frozen=True)
class Tables:
    """The terminals and the LALR(1) table of the grammar's ``game`` rule."""

    terminals: dict[str, str]  # terminal name -> regular expression
    states: dict[int, dict[str, Action]]  # state -> symbol name -> action
    start: int  # the state a game starts in
    end: int  # the state that accepts a game at $END


@cache
def tables() -> Tables:
    """The grammar's tables: from the cache file when it holds them, else from Lark."""
    from zrec.resources import grammar_text  # importlib.resources: not for --version

    key = cache_key(grammar_text())
    path = cache_file(key)
    if path is not None:
        found = _load(path, key)
        if found is not None:
            return found
    data = _compute(grammar_text())
    found = _parse(data)
    assert found is not None, "Lark's tables did not read back"
    if path is not None:
        _store(path, {"key": key, **data})
    return found


def cache_key(grammar: str) -> list[Any]:
    """What the tables are made from: this module's layout, Lark's version and the
    grammar's text (a cache file holds it, and is used only when it is equal)."""
    return [LAYOUT, lark_version(), grammar]


def key_hash(key: list[Any]) -> str:
    """A hash of a key, for the cache file's name (64 bits: CRC-32 and Adler-32 of the
    key's JSON, which zlib computes without loading a cryptographic library)."""
    text = json.dumps(key).encode("utf-8")
    return f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}"


#: ``__version__ = "1.3.1"`` (or ``__version__: str = ...``) in a package's ``__init__.py``
_VERSION = r"""^__version__\s*(?::\s*str\s*)?=\s*["']([^"']+)["']"""


def lark_version() -> str:
    """The version of the Lark that ``import lark`` would load, read from its package
    without importing it (a checksum of its ``__init__.py`` if that names no version)."""
    spec = importlib.util.find_spec("lark")
    if spec is None or spec.origin is None:
        return "none"
    try:
        source = Path(spec.origin).read_bytes()
    except OSError:
        return "unreadable"
    found = re.search(_VERSION, source.decode("utf-8", "replace"), re.MULTILINE)
    return found.group(1) if found else f"crc32-{zlib.crc32(source):08x}-{len(source)}"


def cache_dir() -> Path | None:
    """zrec's per-user cache directory (it may not exist); ``None`` without a home."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG rule: a relative path is ignored
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return Path(base) / "zrec"


def cache_file(key: list[Any]) -> Path | None:
    """Where the tables made from this key are kept."""
    directory = cache_dir()
    return None if directory is None else directory / f"grammar-tables-{key_hash(key)}.json"


def _load(path: Path, key: list[Any]) -> Tables | None:
    try:
        with open(path, encoding="utf-8") as stream:
            data = json.load(stream)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    return _parse(data)


def _store(path: Path, data: dict[str, Any]) -> None:
    """Write the file whole or not at all (readers never see half of it); give up
    quietly where the directory cannot be written."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with open(temporary, "x", encoding="utf-8") as stream:
                json.dump(data, stream, separators=(",", ":"))
            os.replace(temporary, path)
        finally:
            if temporary.exists():
                temporary.unlink()
    except OSError:
        pass


def _compute(grammar: str) -> dict[str, Any]:
    """The tables, from Lark (the one place zrec builds a Lark parser to read with)."""
    from lark import Lark

    lark = Lark(grammar, parser="lalr", lexer="basic", start="game", maybe_placeholders=False)
    table = lark.parser.parser.parser.parse_table
    rows: dict[int, dict[str, Any]] = {}
    for state, actions in table.states.items():
        row: dict[str, Any] = {}
        for symbol, (action, arg) in actions.items():
            name = str(symbol)  # plain str keys: Lark's Token keys compare slowly
            if action.name == "Shift":
                row[name] = int(arg)
            else:
                row[name] = [str(arg.origin.name), [str(sym.name) for sym in arg.expansion]]
        rows[state] = row
    start, end = table.start_states["game"], table.end_states["game"]
    # Lark numbers the states in an order that changes from run to run (it walks sets
    # of strings); number them in the order they are reached from the start, symbols
    # in sorted order, so that the same grammar always gives the same data
    order = [start]
    number = {start: 0}
    for state in order:
        for name in sorted(rows[state]):
            target = rows[state][name]
            if isinstance(target, int) and target not in number:
                number[target] = len(order)
                order.append(target)
    for state in rows:  # none, in an LR automaton; kept all the same
        if state not in number:
            number[state] = len(order)
            order.append(state)
    states = {
        str(number[state]): {
            name: number[action] if isinstance(action, int) else action
            for name, action in sorted(rows[state].items())
        }
        for state in order
    }
    return {
        "terminals": {t.name: t.pattern.to_regexp() for t in lark.terminals},
        "states": states,
        "start": number[start],
        "end": number[end],
    }


def _parse(data: dict[str, Any]) -> Tables | None:
    """The tables in ``data`` (as :func:`_compute` makes them, maybe read back from
    JSON); ``None`` if anything in it is not of that shape."""
    terminals = data.get("terminals")
    states = data.get("states")
    start, end = data.get("start"), data.get("end")
    if not (
        isinstance(terminals, dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in terminals.items())
        and isinstance(states, dict)
        and type(start) is int
        and type(end) is int
    ):
        return None
    table: dict[int, dict[str, Action]] = {}
    for state, row in states.items():
        if not (isinstance(state, str) and state.isascii() and state.isdigit()):
            return None
        if not isinstance(row, dict):
            return None
        parsed: dict[str, Action] = {}
        for name, action in row.items():
            if type(action) is int:
                parsed[name] = action
            elif (
                isinstance(action, list)
                and len(action) == 2
                and isinstance(action[0], str)
                and isinstance(action[1], list)
                and all(isinstance(symbol, str) for symbol in action[1])
            ):
                parsed[name] = (action[0], tuple(action[1]))
            else:
                return None
        table[int(state)] = parsed
    targets = {a for row in table.values() for a in row.values() if isinstance(a, int)}
    if not {start, end, *targets} <= table.keys():
        return None
    return Tables(dict(terminals), table, start, end)


__all__ = [
    "LAYOUT",
    "Action",
    "Tables",
    "cache_dir",
    "cache_file",
    "cache_key",
    "key_hash",
    "lark_version",
    "tables",
]
