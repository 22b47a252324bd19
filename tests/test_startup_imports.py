"""The modules each common command imports, pinned: a heavy module that a command does
not use must not be imported by it (start-up; ``benchmarks/startup.py`` times it).

Each command runs in a new interpreter, which then writes the names in ``sys.modules``.
A new eager import of one of these modules makes a test here fail; a command that comes
to need one moves it from the list of what it must not import, with a reason.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: one game of plain moves (the reader's fast path)
PLAIN = '[Game "mosona"]\n[White "Ada"]\n[Black "Tom"]\n\n1. b6-b5 b4xb6 *\n'
#: one game with comments and variations: read with Lark
BRANCHY = ROOT / "samples" / "culin-opening.zrec"

#: what none of these commands needs: typer's value checks through pydantic (zrec checks
#: plain values itself, zrec.cli._coerce), the JSON Schema, PostgreSQL, XML, the
#: progress bar, worker processes (``--jobs 1``), drawings
NEVER = (
    "pydantic", "pydantic_core", "jsonschema", "psycopg", "xml", "tqdm", "multiprocessing",
    "zrec.render", "fastapi", "starlette", "uvicorn", "jinja2", "zrec.serve",
)
#: the rules of the games a Mosona file does not hold
OTHER_GAMES = ("zrec.rules.awethi.rules", "zrec.rules.stonewarriors.rules")

_PROBE = """
import json, sys
from zrec.cli import main
report = sys.argv[1]
sys.argv = ["zrec", *sys.argv[2:]]
code = 0
try:
    main()
except SystemExit as exc:
    code = exc.code
with open(report, "w") as out:
    json.dump({"modules": sorted(sys.modules), "exit": code}, out)
"""


def modules_of(tmp_path: Path, *args: str) -> set[str]:
    """The modules ``zrec ARGS`` imported (it must succeed)."""
    report = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(report), *args],
        cwd=tmp_path,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(report.read_text(encoding="utf-8"))
    assert result["exit"] in (0, None), done.stderr
    found: set[str] = set(result["modules"])
    return found


def imported(modules: set[str], *names: str) -> list[str]:
    """Which of ``names`` (a package with any of its modules) are in ``modules``."""
    return [n for n in names if any(m == n or m.startswith(n + ".") for m in modules)]


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    path = tmp_path / "one.zrec"
    path.write_text(PLAIN, encoding="utf-8")
    return path


def test_validate_of_one_plain_game(tmp_path: Path, plain: Path) -> None:
    modules = modules_of(tmp_path, "validate", str(plain))
    assert imported(modules, "zrec.check.validate", "zrec.rules.serpent.rules") == [
        "zrec.check.validate",
        "zrec.rules.serpent.rules",
    ]
    unused = ("lark", "sqlite3", "rich", "zrec.archive", "zrec.notation.json", *OTHER_GAMES)
    assert imported(modules, *NEVER, *unused) == []


def test_validate_of_a_game_lark_reads(tmp_path: Path) -> None:
    modules = modules_of(tmp_path, "validate", str(BRANCHY))
    assert imported(modules, "lark") == ["lark"]
    unused = ("sqlite3", "rich", "zrec.archive", "zrec.notation.json", *OTHER_GAMES)
    assert imported(modules, *NEVER, *unused) == []


def test_archive_search_by_player(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    done = subprocess.run(
        [sys.executable, "-m", "zrec", "archive", "import", "--db", str(db), "-q",
         str(ROOT / "samples" / "tournament.zrec")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    modules = modules_of(tmp_path, "archive", "search", "--db", str(db), "--player", "Ada")
    assert imported(modules, "sqlite3", "zrec.archive.store.search") == [
        "sqlite3",
        "zrec.archive.store.search",
    ]
    # a search by player replays nothing and validates nothing: no rules, no replay, no
    # JSON (zrec.archive.store.search imports them when moves or a position are asked for)
    unused = (
        "lark", "rich", "zrec.check", "zrec.notation.json", "zrec.rules", "zrec.play",
        "zrec.archive.store.facts", "zrec.archive.store.verify", *OTHER_GAMES,
    )
    assert imported(modules, *NEVER, *unused) == []


@pytest.mark.parametrize("args", [["--help"], ["validate", "--help"]], ids=["zrec", "validate"])
def test_help(tmp_path: Path, args: list[str]) -> None:
    modules = modules_of(tmp_path, *args)
    assert imported(modules, "rich") == ["rich"]  # typer draws help with rich
    unused = ("lark", "sqlite3", "zrec.archive", "zrec.check", "zrec.notation.json.convert")
    assert imported(modules, *NEVER, *unused, "zrec.rules.serpent") == []


def test_fmt(tmp_path: Path, plain: Path) -> None:
    modules = modules_of(tmp_path, "fmt", str(plain))
    unused = ("lark", "sqlite3", "rich", "zrec.archive", "zrec.check", "zrec.notation.json")
    assert imported(modules, *NEVER, *unused, "zrec.rules.serpent") == []


def test_version(tmp_path: Path) -> None:
    modules = modules_of(tmp_path, "--version")
    # it names the rules kernel in use: it loads the kernels, not the engines
    unused = ("typer", "lark", "sqlite3", "zrec.notation", "zrec.play", *OTHER_GAMES)
    assert imported(modules, *NEVER, *unused, "zrec.rules.serpent.rules") == []


def test_pair_of_a_trf_file_opens_no_archive(tmp_path: Path) -> None:
    """``zrec pair FILE.trf`` works on the file alone: the tournament layer pairs it, and
    no module of the archive (nor SQLite) is imported, for a round paired, a file
    checked or a random event written."""
    trf = ROOT / "samples" / "tournaments" / "swiss-r3.trf"
    for args in (["pair", str(trf)], ["pair", "--check", str(trf)],
                 ["pair", "--random-tournament", "--players", "6", "--rounds", "2"]):
        modules = modules_of(tmp_path, *args)
        assert imported(modules, "zrec.tournament.swiss", "zrec.tournament.trf") == [
            "zrec.tournament.swiss",
            "zrec.tournament.trf",
        ], args
        unused = ("zrec.archive", "sqlite3", "psycopg", "zrec.publish", "zrec.serve")
        assert imported(modules, *unused) == [], args
