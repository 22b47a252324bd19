"""``zrec archive search``'s table fits the terminal's width (``COLUMNS``) and marks
what it cuts with ``…``: the event's year is kept when it fits."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from zrec.cli import app
from zrec.cli._table import fit, shown_width

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
EVENT = "Zuni Club Championship 2026"
runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("table") / "a.sqlite")
    files = [str(p) for p in sorted(SAMPLES.glob("*.zrec"))]
    result = runner.invoke(app, ["archive", "import", "--db", path, "-q", *files])
    assert result.exit_code == 0, result.stdout
    return path


def search(db: str, columns: int) -> list[str]:
    result = runner.invoke(
        app, ["archive", "search", "--db", db, "--player", "ada lovelace"],
        env={"COLUMNS": str(columns)},
    )
    assert result.exit_code == 0, result.stderr
    return str(result.stdout).splitlines()


def test_the_year_is_kept_when_it_fits(db: str) -> None:
    lines = search(db, 100)
    assert lines == [
        "     id  game           date        event                       round result plies  "
        "players",
        f"     11  mosona         2026.10.04  {EVENT} 1     0-1       18  Lovelace, Ada -…",
        f"     14  stone-warriors 2026.10.05  {EVENT} 2     1-0       24  Turing, Alan -…",
        f"     15  mosona         2026.10.06  {EVENT} 3     1-0        0  Lovelace, Ada -…",
    ]
    assert all(len(line) <= 100 for line in lines)
    wide = search(db, 140)  # room for everything: nothing is cut
    assert not any("…" in line for line in wide)
    assert wide[1].endswith(f"{EVENT} 1     0-1       18  Lovelace, Ada - Kilburn, Tom")


def test_what_is_cut_ends_in_an_ellipsis(db: str) -> None:
    lines = search(db, 70)
    assert all(len(line) <= 70 for line in lines), lines
    assert lines[1] == "     11  mosona         2026.10.04  Zuni…  1     0-1       18  Lovela…"


def test_wide_characters_count_twice_and_no_terminal_cuts_nothing() -> None:
    event = "春季公開賽 2026 決勝"  # 20 columns in a terminal
    row = ["1", "mosona", "2026.10.04", event, "1", "1-0", "10", "甲 - 乙"]
    lines = list(fit([row], 80))
    assert [shown_width(line) for line in lines] == [76, 76]
    assert f"{event} 1     1-0" in lines[1]
    narrow = list(fit([row], 62))
    assert [shown_width(line) for line in narrow] == [62, 62]
    assert "2026.10.04  春季…  1     1-0" in narrow[1]
    assert list(fit([row], 0))[1].endswith(f"{event} 1     1-0       10  甲 - 乙")
