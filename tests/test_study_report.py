"""``zrec study --report DIR``: one offline page, looked at in Chromium: the metrics'
table with their intervals (the same numbers as ``--format json``), one chart per
metric with a row per reading, the ranking, the study's chart, and no script."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser
from typer.testing import CliRunner

from zrec.cli import app

runner = CliRunner()
STUDY = ["study", "--game", "mosona", "-O", "Jumps=line", "-O", "Jumps=bent", "--games",
         "60", "--seed", "5", "--metrics", "DurationTurns,Balance,BranchingFactor",
         "--rank", "-q"]


def test_the_report_shows_the_study_s_numbers(tmp_path: Path, browser: Browser) -> None:
    folder = tmp_path / "report"
    made = runner.invoke(app, [*STUDY, "--report", str(folder), "--format", "json"])
    assert made.exit_code == 0, made.stderr
    data = json.loads(made.stdout)
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto((folder / "index.html").as_uri())
    assert page.title() == "Awithlaknannai Mosona: self-play study"
    assert page.locator("script").count() == 0
    rows = page.locator("table").first.locator("tr")
    assert rows.nth(0).inner_text().split("\t") == ["Metric", "Jumps=line", "Jumps=bent"]
    shown = {r.split("\t")[0].splitlines()[0]: r.split("\t")[1:]
             for r in (rows.nth(i).inner_text() for i in range(1, rows.count()))}
    assert list(shown) == list(data[0]["metrics"])
    # each metric says what it measures and which way it points, on the page itself
    about = dict(zip(shown, (rows.nth(i).locator("th .about").inner_text()
                             for i in range(1, rows.count())), strict=True))
    assert about["DurationTurns"] == "mean plies per game; higher: longer games"
    assert about["Balance"] == (
        "1 minus the largest gap between two seats' shares of games won; higher: fairer "
        "between the seats (1: even)")
    assert all("; higher: " in text for text in about.values()), about
    assert page.locator(".chart .about").first.inner_text() == "higher: longer games"
    assert "docs/" not in page.content()  # an install has no docs folder
    # one precision a metric: plies (some value 10 or more) with one decimal
    for i, reading in enumerate(data):
        found = reading["metrics"]["DurationTurns"]
        assert shown["DurationTurns"][i] == (
            f"{found['value']:.1f} [{found['low']:.1f}, {found['high']:.1f}]")
    for i, reading in enumerate(data):
        found = reading["metrics"]["Balance"]
        assert shown["Balance"][i] == (
            f"{found['value']:.3f} [{found['low']:.3f}, {found['high']:.3f}]")
    charts = page.locator(".chart")
    assert charts.count() == len(shown)
    assert charts.nth(0).locator("circle").count() == 2  # a dot per reading
    ranked = page.locator("table").nth(1).locator("tr")
    best = min(data, key=lambda r: r["ranking"]["rank"])
    assert ranked.nth(1).inner_text().split("\t") == [
        "1", f"Jumps={best['options']['Jumps']}", f"score {best['ranking']['score']:.3f}"]
    assert page.locator("svg").count() == len(shown) + 1  # and the study's chart
    page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    assert errors == []
    page.close()


def test_a_report_folder_that_cannot_be_made_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    result = runner.invoke(app, [*STUDY, "--report", str(blocker / "sub")])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"zrec: {blocker / 'sub'}: cannot make the folder")


def test_a_metric_s_row_has_one_precision_for_every_reading() -> None:
    """PieceNumber is 12.8 under line jumps and under 10 under bent ones: the row
    gives both with one decimal, not 12.8 beside 8.886."""
    result = runner.invoke(app, ["study", "--game", "mosona", "-O", "Jumps=line", "-O",
                                 "Jumps=bent", "--games", "100", "--metrics",
                                 "PieceNumber,Balance", "-q"])
    assert result.exit_code == 0, result.stderr
    rows = {line.split()[0]: line for line in result.stdout.splitlines()}
    assert rows["PieceNumber"].split() == [
        "PieceNumber", "12.8", "[12.2,", "13.3]", "8.9", "[8.3,", "9.5]"]
    assert rows["Balance"].split()[1::3] == ["0.900", "1.000"]


def test_every_metric_has_a_meaning_and_a_direction() -> None:
    from zrec.research.metrics import NAMES
    from zrec.research.metrics_shown import digits, meaning

    for name in (*NAMES, "Advantage:Wolves", "Balance:Shepherd2"):
        what, higher = meaning(name)
        assert what and higher, name
    assert meaning("Advantage:Wolves") == ("share of all games Wolves wins", "Wolves favoured")
    assert digits([{"value": 9.144, "low": 8.0, "high": 9.9}, None]) == 3
    assert digits([{"value": 9.144, "low": 8.0, "high": 9.9},
                   {"value": 12.8, "low": 12.2, "high": 13.3}]) == 1
