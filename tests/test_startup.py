"""Start-up: a command imports only what it uses, and Lark's analysis of the grammar is
made once, then read from Lark's own cache.

Each check runs in a fresh interpreter (``sys.modules`` and the caches start empty)
with its own cache directory (``XDG_CACHE_HOME``).  No timings here: they depend on
the machine; the modules a command imports and what Lark logs of its cache do not.
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

from zrec.notation import grammar
from zrec.resources import grammar_text

ROOT = Path(__file__).resolve().parents[1]
#: a file of common games only (tag pairs, plain numbered moves, results)
PLAIN = ROOT / "samples" / "tournament.zrec"
#: a game with comments and variations, which the grammar reads
SAMPLE = ROOT / "samples" / "culin-opening.zrec"

#: Never imported by the commands that read and write the text notation (the web
#: libraries: by zrec serve alone).
HEAVY = (
    "jsonschema", "psycopg", "tqdm", "zrec.archive",
    "fastapi", "starlette", "uvicorn", "jinja2", "zrec.serve",
    "distributed", "dask",  # zrec study --cluster alone
)

#: A game the fast path cannot take (a comment, a variation, a suffix): Lark reads it.
BRANCHY = '[Game "mosona"]\n1. b6-b5 {a comment} (1. b6-c5) b4xb6! *\n'

# Runs a command (or a piece of code) and writes, as JSON, the modules it imported, the
# Lark parsers it built and what Lark logged of its cache, to the file named by argv[1].
_PROBE = """
import json, logging, sys
report, code, args = sys.argv[1], sys.argv[2], sys.argv[3:]
built, logged = [], []
if {count}:
    import lark
    original = lark.Lark.__init__
    def counting(self, *a, **k):
        built.append(k.get("start"))
        original(self, *a, **k)
    lark.Lark.__init__ = counting
    class Keep(logging.Handler):
        def emit(self, record):
            logged.append(record.getMessage().split(":")[0])
    lark.logger.handlers[:] = [Keep()]
    lark.logger.setLevel(logging.DEBUG)
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
    json.dump({{"modules": sorted(sys.modules), "built": built, "logged": logged,
               "exit": exit_code}}, out)
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
    """A cache directory that already holds Lark's analysis of the grammar."""
    cache = tmp_path_factory.mktemp("cache")
    result = probe(
        tmp_path_factory.mktemp("warmup"),
        cache,
        code="from zrec.notation.grammar import parser; parser()",
    )
    assert result["stderr"] == ""
    assert list((cache / "zrec").glob("grammar-*.lark-cache"))
    return cache


def test_version_imports_no_library_a_command_needs(tmp_path: Path) -> None:
    result = probe(tmp_path, tmp_path / "cache", ["--version"])
    assert result["stdout"].startswith("zrec ") and result["exit"] == 0
    heavy = ("lark", "typer", "zrec.render.diagram", "zrec.rules.serpent.rules")
    assert imported(result, *HEAVY, *heavy) == []
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
        (["validate", str(PLAIN)], ("zrec.render.diagram", "zrec.render.replay_page")),
        (["fmt", str(PLAIN)], ("zrec.render.diagram", "zrec.check.validate")),
        (["convert", str(PLAIN), "--to", "json"], ("zrec.render.diagram",)),
        (["diagram", str(PLAIN), "-o", "out.svg"], ("zrec.render.replay_page",)),
        (["html", str(PLAIN), "-o", "out.html"], ()),
    ],
    ids=["validate", "fmt", "convert", "diagram", "html"],
)
def test_commands_on_common_games_import_neither_jsonschema_nor_lark(
    tmp_path: Path, args: list[str], unused: tuple[str, ...]
) -> None:
    result = probe(tmp_path, tmp_path / "cache", args)
    assert result["exit"] == 0, result["stderr"]
    # common games take the fast path: no Lark, and no cache is made
    assert imported(result, *HEAVY, "lark", *unused) == []
    assert not (tmp_path / "cache").exists()


def test_a_game_with_comments_is_read_with_lark_from_its_cache(
    tmp_path: Path, warm: Path
) -> None:
    result = probe(tmp_path, warm, ["validate", str(SAMPLE)], count=True)
    assert result["exit"] == 0, result["stderr"]
    assert imported(result, *HEAVY, "zrec.render.diagram") == []
    assert result["built"] == ["game"]
    assert "Loading grammar from cache" in result["logged"]
    assert "Saving grammar to cache" not in result["logged"]


def test_reading_json_still_checks_it_against_the_schema(tmp_path: Path, warm: Path) -> None:
    (tmp_path / "game.json").write_text('{"tags": [], "moves": []}', encoding="utf-8")
    result = probe(tmp_path, warm, ["validate", "game.json"])
    assert result["exit"] == 1
    assert "is a required property" in result["stderr"] + result["stdout"]
    assert imported(result, "jsonschema") == ["jsonschema"]


_READ_ALL = f"""
import zrec
from zrec.notation.grammar import parse_turn_text
from zrec.notation.grammar import parser, token_regex
assert parser() is parser()
token_regex()
parse_turn_text("2413e: a1-a3, b2-b4")
games = [r.game for r in zrec.read_string({BRANCHY!r} + '[Game "mosona"]\\n1. b6-b5 *\\n')]
assert all(games), games
assert games[0].line.moves[0].variations and games[0].line.moves[1].suffix == "!"
print(zrec.write_game(games[0]))
"""


def test_the_grammar_is_analysed_once_then_read_from_the_cache(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    old_reader = cache / "zrec" / "grammar-tables-0123456789abcdef.json"
    old_reader.parent.mkdir(parents=True)
    old_reader.write_text("{}", encoding="utf-8")
    cold = probe(tmp_path, cache, code=_READ_ALL, count=True)
    assert not old_reader.exists()  # the reader before Lark's cache left these
    assert cold["built"] == ["game"]  # one Lark construction: lexer and parser both
    assert "Saving grammar to cache" in cold["logged"]
    (written,) = (cache / "zrec").glob("*.lark-cache")
    path = grammar.cache_path(grammar_text())
    assert path is not None and written.name == path.name
    kept = sorted((cache / "zrec").iterdir())  # the cache and its lock file

    warm = probe(tmp_path, cache, code=_READ_ALL, count=True)
    assert warm["built"] == ["game"]
    assert "Loading grammar from cache" in warm["logged"]
    assert "Saving grammar to cache" not in warm["logged"]
    assert warm["stdout"] == cold["stdout"]
    assert sorted((cache / "zrec").iterdir()) == kept  # nothing new
    assert written.stat().st_size > 0


@pytest.mark.parametrize(
    "content",
    [b"\x00garbage{", b"", b"0" * 64 + b"\n\x80\x04garbage"],
    ids=["garbage", "empty", "another grammar"],
)
def test_a_damaged_or_stale_cache_file_is_ignored_and_replaced(
    tmp_path: Path, content: bytes
) -> None:
    cache = tmp_path / "cache"
    path = grammar.cache_path(grammar_text())
    assert path is not None
    damaged = cache / "zrec" / path.name
    damaged.parent.mkdir(parents=True)
    damaged.write_bytes(content)
    old_reader = cache / "zrec" / "grammar-tables-0123456789abcdef.json"
    old_reader.write_text("{}", encoding="utf-8")
    expected = probe(tmp_path, tmp_path / "fine", code=_READ_ALL)["stdout"]
    result = probe(tmp_path, cache, code=_READ_ALL, count=True)
    assert result["stdout"] == expected and result["stderr"] == ""
    assert "Saving grammar to cache" in result["logged"]
    again = probe(tmp_path, cache, code=_READ_ALL, count=True)
    assert "Loading grammar from cache" in again["logged"]
    assert old_reader.exists()  # only a cache made anew clears the old reader's files


def test_processes_started_at_once_share_one_whole_cache(tmp_path: Path) -> None:
    """Lark writes its cache in place: a lock keeps a second process from reading half
    of it while the first writes it."""
    cache = tmp_path / "cache"
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    started = [
        subprocess.Popen(
            [sys.executable, "-m", "zrec", "validate", str(SAMPLE)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(6)
    ]
    for process in started:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0 and err == b"", err
        assert out.endswith(b"1 game read, 1 valid, 0 invalid, 0 warnings\n")
    again = probe(tmp_path, cache, code=_READ_ALL, count=True)
    assert "Loading grammar from cache" in again["logged"]
    assert "Saving grammar to cache" not in again["logged"]


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
                if unwritable:  # analysed again each time, in memory
                    assert "Loading grammar from cache" not in result["logged"]
                result = probe(tmp_path, cache, ["validate", str(SAMPLE)])
                assert result["exit"] == 0 and result["stderr"] == ""
            if cache == read_only and unwritable:
                assert list(read_only.iterdir()) == []
    finally:
        read_only.chmod(stat.S_IRWXU)


def test_the_cache_directory_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert grammar.cache_dir() == tmp_path / "zrec"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for value in ("", "relative/path"):  # a relative path is ignored, as XDG says
        monkeypatch.setenv("XDG_CACHE_HOME", value)
        assert grammar.cache_dir() == tmp_path / "home" / ".cache" / "zrec"
    # another grammar, another file
    assert grammar.cache_path(grammar_text()) != grammar.cache_path(grammar_text() + "\n")


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


def test_an_archive_command_alone_is_built_from_its_own_module() -> None:
    """``zrec archive SUB`` builds the archive group with SUB alone, from the module
    ``ARCHIVE_COMMANDS`` names (and ``archive``, which holds the group); the table has
    every archive command of the whole application.  A group of commands (``users``)
    is kept alone too, with all of its own commands."""
    code = (
        "import json, sys, typer.main, zrec.cli as c\n"
        "app = c.application() if sys.argv[1] == '*' else c._command_app('archive', sys.argv[1])\n"
        "group = typer.main.get_command(app).commands['archive']\n"
        "inner = {n: sorted(getattr(g, 'commands', {})) for n, g in group.commands.items()}\n"
        "print(json.dumps([sorted(group.commands), sorted(m for m in sys.modules "
        "if m.startswith('zrec.cli.') and not m.startswith('zrec.cli._')), inner]))\n"
    )

    def probe_command(name: str) -> tuple[list[str], list[str], dict[str, list[str]]]:
        done = subprocess.run(
            [sys.executable, "-c", code, name], capture_output=True, text=True, check=True
        )
        commands, loaded, inner = json.loads(done.stdout)
        return commands, loaded, inner

    import zrec.cli

    everything, _, groups = probe_command("*")
    assert everything == sorted(zrec.cli.ARCHIVE_COMMANDS)
    assert groups["users"] == ["add", "list", "password", "remove", "token"]
    for name, module in zrec.cli.ARCHIVE_COMMANDS.items():
        commands, loaded, inner = probe_command(name)
        assert commands == [name]
        assert inner[name] == groups[name], name  # a group keeps all its commands
        assert loaded == sorted({"zrec.cli.archive", f"zrec.cli.{module}"}), name


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


def test_the_public_names_are_loaded_when_first_asked_for() -> None:
    """``import zrec`` loads no reader; each public name is there when asked for, and
    ``__all__`` lists exactly those names and the version."""
    code = (
        "import json, sys, zrec\n"
        "before = sorted(m for m in sys.modules if m.startswith('zrec.'))\n"
        "names = {n: type(getattr(zrec, n)).__name__ for n in zrec.__all__}\n"
        "from zrec import read_game, Game\n"
        "print(json.dumps([before, names, read_game.__module__, Game.__module__]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, names, reader, model = json.loads(done.stdout)
    assert before == []
    assert names["read_game"] == "function" and names["Game"] == "type"
    assert names["__version__"] == "str" and len(names) == 15
    assert (reader, model) == ("zrec.notation.reader", "zrec.notation.model")
    import zrec

    assert sorted(zrec.__all__) == sorted([*zrec._PUBLIC, "__version__"])
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        zrec.nope  # noqa: B018
