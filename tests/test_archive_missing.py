"""One rule for an archive that does not exist, and docs/archive.md states it: the
commands that store what they read (``import`` and ``roster``) make the archive; every
other command refuses, and leaves no file behind."""

from __future__ import annotations

import re
from pathlib import Path

import typer
from typer.testing import CliRunner

from zrec.cli import app

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = str(ROOT / "samples" / "tournament.zrec")
runner = CliRunner()


def commands(tmp: Path) -> dict[str, list[str]]:
    """Every archive command, with what it needs besides --db (a group: one of its
    commands)."""
    trf = tmp / "r.trf"
    trf.write_text(
        "012 T\n001    1      A                                                                  "
        "1.0    1  0000 - U\n",
        encoding="utf-8",
    )
    return {
        "import": [SAMPLE],
        "roster": [str(trf)],
        "show": ["1"],
        "stats": [],
        "check": [],
        "remove": ["1"],
        "standings": ["T"],
        "crosstable": ["T"],
        "bye": ["T", "1", "A", "--kind", "half"],
        "search": [],
        "export": ["-o", str(tmp / "out.zrec")],
        "players": [],
        "alias": ["A", "B"],
        "publish": ["T", "-o", str(tmp / "site")],
        "users": ["add", "ada"],
        "tree": [],
        "pair": ["T"],
        "schedule": ["T", "--round-robin"],
        "seat": ["T"],
        "ratings": [],
        "analyse": [],
    }


def test_only_import_and_roster_make_an_archive(tmp_path: Path) -> None:
    group = typer.main.get_command(app).commands["archive"]  # type: ignore[attr-defined]
    listed = set(group.commands)
    every = commands(tmp_path)
    assert set(every) == listed  # (a new command must be added here)
    made = set()
    for name, args in every.items():
        db = tmp_path / f"{name}.sqlite"
        result = runner.invoke(app, ["archive", name, *args, "--db", str(db)])
        if db.exists():
            assert result.exit_code == 0, (name, result.stdout, result.stderr)
            made.add(name)
        else:
            assert result.exit_code == 2, (name, result.stdout, result.stderr)
            assert result.stderr == (
                f"zrec: there is no archive at {db} (zrec archive import makes one; --db or "
                "ZREC_DB names another)\n"
            ), name
    assert made == {"import", "roster"}
    assert not (tmp_path / "site").exists() and not (tmp_path / "out.zrec").exists()


def test_the_guide_states_the_rule() -> None:
    text = " ".join((ROOT / "docs" / "archive.md").read_text(encoding="utf-8").split())
    found = re.search(r"([^.]*) make the archive when there is none", text)
    assert found is not None
    assert set(re.findall(r"`zrec archive (\w+)`", found.group(1))) == {"import", "roster"}
    assert "The other commands refuse an archive that does not exist" in text
