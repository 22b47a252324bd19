"""Start-up: a command imports only what it uses, and the grammar's tables are made once.

Each check runs in a fresh interpreter (``sys.modules`` and the caches start empty)
with its own cache directory (``XDG_CACHE_HOME``).  No timings here: they depend on
the machine; the modules a command imports and the Lark parsers it builds do not.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from zrec.notation import tables as grammar_tables
from zrec.notation.syntax import TOKEN_ORDER
from zrec.resources import grammar_text

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "culin-opening.zrec"

#: Never imported by the commands that read and write the text notation.
HEAVY = ("jsonschema", "psycopg", "tqdm", "zrec.archive")

#: A game the direct path cannot take (a comment, a variation, a suffix): the LALR loop
#: reads it.
BRANCHY = '[Game "mosona"]\n1. b6-b5 {a comment} (1. b6-c5) b4xb6! *\n'

# Runs a command (or a piece of code) and writes, as JSON, the modules it imported and
# how many Lark parsers were built, to the file named by argv[1].
_PROBE = """
import json, sys
report, code, args = sys.argv[1], sys.argv[2], sys.argv[3:]
built = []
if {count}:
    import lark
    original = lark.Lark.__init__
    def counting(self, *a, **k):
        built.append(k.get("start"))
        original(self, *a, **k)
    lark.Lark.__init__ = counting
exit_code = 0
if code:
    exec(code)
else:
    from zrec.cli import main
    sys.argv = ["zrec", *args]
    try:
        main()
    except SystemExit as exc:
        exit_code = exc.code
with open(report, "w") as out:
    json.dump({{"modules": sorted(sys.modules), "built": built, "exit": exit_code}}, out)
"""


def probe(
    tmp_path: Path,
    cache: Path,
    args: Sequence[str] = (),
    code: str = "",
    count: bool = False,
) -> dict[str, Any]:
    """Run ``zrec ARGS`` (or ``code``) in a new interpreter with ``XDG_CACHE_HOME=cache``."""
    report = tmp_path / "report.json"
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE.format(count=count), str(report), code, *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    result["stdout"], result["stderr"] = done.stdout, done.stderr
    return result


def imported(result: dict[str, Any], *names: str) -> list[str]:
    """Which of ``names`` (packages included) the probed process imported."""
    modules: list[str] = result["modules"]
    return [n for n in names if any(m == n or m.startswith(n + ".") for m in modules)]


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache directory that already holds the grammar's tables."""
    cache = tmp_path_factory.mktemp("cache")
    result = probe(
        tmp_path_factory.mktemp("warmup"),
        cache,
        code="from zrec.notation.tables import tables; tables()",
    )
    assert result["stderr"] == ""
    assert list((cache / "zrec").glob("grammar-tables-*.json"))
    return cache


def test_version_imports_no_library_a_command_needs(tmp_path: Path) -> None:
    result = probe(tmp_path, tmp_path / "cache", ["--version"])
    assert result["stdout"].startswith("zrec ") and result["exit"] == 0
    assert imported(result, *HEAVY, "lark", "typer", "zrec.render.diagram", "zrec.rules") == []
    # --version needs no grammar: no cache is even made
    assert not (tmp_path / "cache").exists()


def test_importing_the_cli_imports_no_heavy_library(tmp_path: Path) -> None:
    result = probe(tmp_path, tmp_path / "cache", code="import zrec.cli")
    assert (
        imported(result, *HEAVY, "lark", "zrec.render.diagram", "zrec.render.replay_page") == []
    )


@pytest.mark.parametrize(
    ("args", "unused"),
    [
        (["validate", str(SAMPLE)], ("zrec.render.diagram", "zrec.render.replay_page")),
        (["fmt", str(SAMPLE)], ("zrec.render.diagram", "zrec.check.validate")),
        (["convert", str(SAMPLE), "--to", "json"], ("zrec.render.diagram",)),
        (["diagram", str(SAMPLE), "-o", "out.svg"], ("zrec.render.replay_page",)),
        (["html", str(SAMPLE), "-o", "out.html"], ()),
    ],
    ids=["validate", "fmt", "convert", "diagram", "html"],
)
def test_commands_on_text_import_neither_jsonschema_nor_lark(
    tmp_path: Path, warm: Path, args: list[str], unused: tuple[str, ...]
) -> None:
    result = probe(tmp_path, warm, args)
    assert result["exit"] == 0, result["stderr"]
    # with the tables cached, reading never builds a Lark parser, nor imports Lark
    assert imported(result, *HEAVY, "lark", *unused) == []


def test_reading_json_still_checks_it_against_the_schema(tmp_path: Path, warm: Path) -> None:
    (tmp_path / "game.json").write_text('{"tags": [], "moves": []}', encoding="utf-8")
    result = probe(tmp_path, warm, ["validate", "game.json"])
    assert result["exit"] == 1
    assert "is a required property" in result["stderr"] + result["stdout"]
    assert imported(result, "jsonschema") == ["jsonschema"]


_READ_ALL = f"""
import zrec
from zrec.notation.syntax import parse_turn_text, token_regex
from zrec.notation.tables import tables
assert tables() is tables()
token_regex()
parse_turn_text("2413e: a1-a3, b2-b4")
games = [r.game for r in zrec.read_text({BRANCHY!r} + '[Game "mosona"]\\n1. b6-b5 *\\n')]
assert all(games), games
assert games[0].line.moves[0].variations and games[0].line.moves[1].suffix == "!"
print(zrec.write_game(games[0]))
"""


def test_the_grammar_is_built_once_then_read_from_the_cache(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold = probe(tmp_path, cache, code=_READ_ALL, count=True)
    assert cold["built"] == ["game"]  # one Lark construction: tokens and table both
    (written,) = (cache / "zrec").glob("grammar-tables-*.json")

    warm = probe(tmp_path, cache, code=_READ_ALL)
    assert imported(warm, "lark") == []
    assert warm["stdout"] == cold["stdout"]
    assert list((cache / "zrec").iterdir()) == [written]  # nothing new, no temporary left


def test_the_cached_tables_are_lark_s_own(tmp_path: Path) -> None:
    data = grammar_tables._compute(grammar_text())
    fresh = grammar_tables._parse(data)
    assert fresh is not None
    assert grammar_tables._parse(json.loads(json.dumps(data))) == fresh
    assert set(TOKEN_ORDER) <= set(fresh.terminals)
    assert grammar_tables.tables() == fresh


def _damage(cache: Path, content: str) -> Path:
    """Put ``content`` where the tables of the grammar in use are cached."""
    name = f"grammar-tables-{grammar_tables.key_hash(grammar_tables.cache_key(grammar_text()))}"
    path = cache / "zrec" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "content",
    [
        "\x00garbage{",
        "[1, 2, 3]",
        '{"key": null}',
        # a table for another grammar: never used, even where this grammar's should be
        json.dumps(
            {
                "key": [grammar_tables.LAYOUT, grammar_tables.lark_version(), "file: game*"],
                "terminals": {},
                "states": {"0": {}},
                "start": 0,
                "end": 0,
            }
        ),
        # this grammar's key, but not a table
        json.dumps(
            {
                "key": grammar_tables.cache_key(grammar_text()),
                "terminals": {"ACTION": 1},
                "states": {"0": {"ACTION": "x"}},
                "start": 0,
                "end": 0,
            }
        ),
        # this grammar's key, and a table that shifts to a state it does not have
        json.dumps(
            {
                "key": grammar_tables.cache_key(grammar_text()),
                "terminals": {"ACTION": "[a-z]"},
                "states": {"0": {"ACTION": 7}},
                "start": 0,
                "end": 0,
            }
        ),
    ],
    ids=["garbage", "a list", "no key", "another grammar", "bad table", "dangling state"],
)
def test_a_damaged_or_stale_cache_file_is_ignored_and_replaced(
    tmp_path: Path, content: str
) -> None:
    cache = tmp_path / "cache"
    path = _damage(cache, content)
    result = probe(tmp_path, cache, code=_READ_ALL, count=True)
    assert result["built"] == ["game"] and result["stderr"] == ""
    assert json.loads(path.read_text(encoding="utf-8"))["key"] == grammar_tables.cache_key(
        grammar_text()
    )


def test_a_cache_that_cannot_be_written_is_no_error(tmp_path: Path) -> None:
    expected = probe(tmp_path, tmp_path / "fine", code=_READ_ALL)["stdout"]
    a_file = tmp_path / "a-file"
    a_file.write_text("not a directory", encoding="utf-8")
    (tmp_path / "zrec-is-a-file").mkdir()
    (tmp_path / "zrec-is-a-file" / "zrec").write_text("", encoding="utf-8")
    read_only = tmp_path / "read-only"
    read_only.mkdir()
    read_only.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        for cache in (a_file, tmp_path / "zrec-is-a-file", read_only):
            unwritable = cache != read_only or os.geteuid() != 0  # root writes anywhere
            for _ in range(2):
                result = probe(tmp_path, cache, code=_READ_ALL, count=True)
                assert result["stdout"] == expected and result["stderr"] == ""
                if unwritable:  # built again each time, in memory
                    assert result["built"] == ["game"]
                result = probe(tmp_path, cache, ["validate", str(SAMPLE)])
                assert result["exit"] == 0 and result["stderr"] == ""
            if cache == read_only and unwritable:
                assert list(read_only.iterdir()) == []
    finally:
        read_only.chmod(stat.S_IRWXU)


def test_the_cache_directory_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert grammar_tables.cache_dir() == tmp_path / "zrec"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for value in ("", "relative/path"):  # a relative path is ignored, as XDG says
        monkeypatch.setenv("XDG_CACHE_HOME", value)
        assert grammar_tables.cache_dir() == tmp_path / "home" / ".cache" / "zrec"
    key = grammar_tables.cache_key(grammar_text())
    changed = grammar_tables.cache_key(grammar_text() + "\n")
    assert grammar_tables.key_hash(key) != grammar_tables.key_hash(changed)


def test_the_application_has_every_command_module() -> None:
    """:func:`zrec.cli.application` imports each command module (that registers it)."""
    import zrec.cli

    zrec.cli.application()
    folder = ROOT / "src" / "zrec" / "cli"
    names = sorted(p.stem for p in folder.glob("*.py") if not p.stem.startswith("_"))
    assert names and [n for n in names if f"zrec.cli.{n}" not in sys.modules] == []


def test_each_command_is_found_in_the_modules_the_table_names() -> None:
    """``zrec CMD`` loads only the modules ``COMMANDS`` names for it: each command the
    application has is in the table, registered by exactly those modules."""
    code = (
        "import json, sys, typer.main, zrec.cli as c\n"
        "app = c.application() if sys.argv[1] == '*' else c._command_app(sys.argv[1])\n"
        "group = typer.main.get_command(app)\n"
        "print(json.dumps([sorted(group.commands), sorted(m for m in sys.modules "
        "if m.startswith('zrec.cli.') and not m.startswith('zrec.cli._'))]))\n"
    )

    def probe_command(name: str) -> list[list[str]]:
        done = subprocess.run(
            [sys.executable, "-c", code, name], capture_output=True, text=True, check=True
        )
        found: list[list[str]] = json.loads(done.stdout)
        return found

    import zrec.cli

    everything, _ = probe_command("*")
    assert everything == sorted(zrec.cli.COMMANDS)
    for name, modules in zrec.cli.COMMANDS.items():
        commands, loaded = probe_command(name)
        assert name in commands, name
        assert loaded == sorted(f"zrec.cli.{m}" for m in modules), name


def test_python_dash_m_zrec_is_the_zrec_command() -> None:
    sample = Path(__file__).resolve().parents[1] / "samples" / "culin-opening.zrec"
    done = subprocess.run(
        [sys.executable, "-m", "zrec", "validate", str(sample)],
        capture_output=True,
        text=True,
    )
    assert (done.returncode, done.stdout) == (0, "1 game read, 1 valid, 0 invalid, 0 warnings\n")
    usage = subprocess.run([sys.executable, "-m", "zrec", "nope"], capture_output=True, text=True)
    assert usage.returncode == 2 and "Usage: zrec" in usage.stderr
