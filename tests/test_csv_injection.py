"""CSV that a spreadsheet opens: a cell that starts with ``= + - @``, a tab or a
carriage return is a formula there (formula injection), so zrec writes it with a
leading ``'`` (OWASP, "CSV Injection"), in every CSV it writes.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from typer.testing import CliRunner

from zrec.cli import app

SRC = Path(__file__).resolve().parent.parent / "src" / "zrec"
runner = CliRunner()

NAMES = ["=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1)", "Plain, Pat"]
OPENINGS = [
    "1. a5-b5 c6xa5 ",
    "1. a5-b5 c6xa5 2. b7-c6 b4xb6 ",
    "1. a5-b5 c6xa5 2. b7-b6 a5xc6 ",
    "1. a5-b5 c6xa5 2. b7-c6 b4xb6 3. a4-b4 c3xa4 ",
    "1. a5-b5 c6xa5 2. b7-b6 a5xc6 3. a7-b7 b4xb6 ",
]


def test_standings_csv_cells_are_inert(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    games = [
        f'[Game "mosona"]\n[Event "E"]\n[Round "1"]\n[White "{name}"]\n'
        f'[Black "Opponent {i}"]\n[Result "1-0"]\n[Termination "resignation"]\n\n'
        f"{OPENINGS[i]}1-0\n"
        for i, name in enumerate(NAMES)
    ]
    (tmp_path / "e.zrec").write_text("\n".join(games))
    imported = runner.invoke(
        app, ["archive", "import", "--db", db, "-q", str(tmp_path / "e.zrec")])
    assert imported.exit_code == 0, imported.stdout
    result = runner.invoke(
        app, ["archive", "standings", "--db", db, "E", "--format", "csv", "--tiebreaks", "WIN"])
    assert result.exit_code == 0, result.stderr
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == ["Rank", "No", "Player", "Pts", "Games", "WIN"]
    players = [row[2] for row in rows[1:] if not row[2].startswith("Opponent")]
    assert sorted(players) == sorted(
        ["'=cmd|' /C calc'!A0", "'+1+1", "'-2+3", "'@SUM(A1)", "Plain, Pat"])
    assert rows[1] == ["1", "1", "'+1+1", "1", "1", "1"]  # numbers are written as they are


def test_tab_and_carriage_return_cells_are_inert() -> None:
    from zrec.tournament.csvtext import csv_text

    rows = [["\tTab", "\rReturn", "=1", "a=1", "2.5", ""], ['say "hi", Al', "x\ny"]]
    text = csv_text(rows)
    assert list(csv.reader(io.StringIO(text, newline=""))) == [
        ["'\tTab", "'\rReturn", "'=1", "a=1", "2.5", ""], ['say "hi", Al', "x\ny"]]
    assert text.count("\n") == 3  # (the one inside a quoted cell, and two line ends)


def test_every_csv_goes_through_one_writer() -> None:
    """No module imports csv: every CSV is written by csvtext, so none escapes the
    inert cells."""
    users = sorted(
        str(path.relative_to(SRC))
        for path in SRC.rglob("*.py")
        if re.search(r"^\s*(import csv|from csv import)", path.read_text(), re.M)
    )
    assert users == []
