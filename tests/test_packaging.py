"""An installed wheel carries the grammar, the schema and the replay page's files and
finds them."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
            str(ROOT),
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
        "import zrec.serve.pages as pages, zrec.serve.templating as t\n"
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
        "True True ['board-player.js', 'board-record.js', 'board.css', 'board.js', "
        "'diagram.css', 'event-result.js', 'site.css', 'zrec-replay.css', 'zrec-replay.js']")
    assert where.startswith(str(site))
    assert sizes == f"{len(grammar)} 2"
    assert page_ok == "True True"
