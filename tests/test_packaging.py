"""An installed wheel carries the grammar, the schema and the replay page's files and
finds them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _source(tmp_path: Path) -> Path:
    """A clean copy of what a wheel is built from: a build never reuses what an earlier
    build left in the checkout's ``build/`` (or a kernel compiled in place)."""
    copy = tmp_path / "source"
    ignore = shutil.ignore_patterns("*.so", "__pycache__", "*.egg-info")
    for name in ("src", "grammar", "schemas"):
        shutil.copytree(ROOT / name, copy / name, symlinks=True, ignore=ignore)
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy(ROOT / name, copy / name)
    return copy


def test_installed_wheel_finds_grammar_and_schema(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(dist),
            str(_source(tmp_path)),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = dist.glob("zrec-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        grammar = archive.read("zrec/_data/zrec.lark").decode()
        schema = archive.read("zrec/_data/zrec-game.schema.json").decode()
        page = [archive.read(f"zrec/_data/replay.{ext}").decode() for ext in ("css", "js")]
        default_map = archive.read("zrec/rules/awethi/default.map").decode()
    data = ROOT / "src" / "zrec" / "_data"
    assert page == [(data / f"replay.{ext}").read_text(encoding="utf-8") for ext in ("css", "js")]
    assert grammar == (ROOT / "grammar" / "zrec.lark").read_text(encoding="utf-8")
    map_file = ROOT / "src" / "zrec" / "rules" / "awethi" / "default.map"
    assert default_map == map_file.read_text(encoding="utf-8")
    assert schema == (ROOT / "schemas" / "zrec-game.schema.json").read_text(encoding="utf-8")

    site = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(site),
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    script = (
        "import zrec, zrec.resources, zrec.notation.json.schema\n"
        "print(zrec.__file__)\n"
        "game = zrec.read_game('[Game \"mosona\"]\\n1. b6-b5 b4xb6 *')\n"
        "from zrec.notation.json.values import game_to_json\n"
        "zrec.notation.json.schema.check_game(game_to_json(game))\n"
        "print(len(zrec.resources.grammar_text()), len(game.line.moves))\n"
        "from zrec.render.replay_page import replay_page\n"
        "page = replay_page([game])\n"
        "print('zrec-data' in page, 'function go(id)' in page)\n"
        "import zrec.serve.assets as pages, zrec.serve.templating as t\n"
        "print(pages.__file__.startswith(sys.argv[1]), 'base.html' in t.environment()"
        ".list_templates(), sorted(pages._static()))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-c", "import sys\n" + script, str(site)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    where, sizes, page_ok, served = done.stdout.splitlines()
    # zrec serve's templates and stylesheet are in the wheel, found from where it is
    assert served == (
        "True True ['board-analyse.js', 'board-broadcast.js', 'board-player.js', "
        "'board-puzzle.js', 'board-record.js', 'board.css', 'board.js', "
        "'diagram.css', 'event-result.js', 'live.js', 'site.css', 'zrec-replay.css', "
        "'zrec-replay.js']")
    assert where.startswith(str(site))
    assert sizes == f"{len(grammar)} 2"
    assert page_ok == "True True"


def test_without_a_c_compiler_zrec_installs_and_runs_on_its_python_engines(
    tmp_path: Path,
) -> None:
    # CC=false: every compile fails, as on a machine without a compiler
    dist = tmp_path / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation",
         "-w", str(dist), str(_source(tmp_path))],
        env={**os.environ, "CC": "false"},
        capture_output=True,
        text=True,
        check=True,
    )
    said = built.stdout + built.stderr
    assert "zrec: zrec.rules.serpent._kernel not built (CompileError" in said
    (wheel,) = dist.glob("zrec-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert not [n for n in names if n.endswith((".so", ".c", ".h"))]
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site),
         str(wheel)],
        check=True,
        capture_output=True,
    )
    env = {**os.environ, "PYTHONPATH": str(site), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("ZREC_KERNEL", None)
    run = [sys.executable, "-c", "from zrec.cli import main; main()"]
    version = subprocess.run(
        [*run, "--version"], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert version.stdout.endswith(
        "(rules kernel: none built (no C compiler at install), the Python engines)\n"
    )
    assert version.stderr == ""
    sample = str(ROOT / "samples" / "mosona-lined.zrec")
    told = []
    for _ in range(2):
        done = subprocess.run(
            [*run, "validate", sample], env=env, cwd=tmp_path, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        told.append(done.stderr)
    # said once, the first time
    assert told[0].count("has no compiled rules kernel") == 1
    assert "zrec runs on its Python engines" in told[0]
    assert told[1] == ""
