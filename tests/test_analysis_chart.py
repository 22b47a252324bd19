"""The evaluation chart of an analysed game: on the replay page (``zrec html``), the
archive's game page (``zrec serve``, in real headless Chromium) and the published site;
the marks in the move list; a click on the chart goes to that move."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from serving import served
from test_analysis import planted
from zrec.cli import app
from zrec.notation.reader import read_string
from zrec.notation.writer import write_game
from zrec.render.replay_page import replay_page

runner = CliRunner()
CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """The planted Mosona game analysed by ``zrec analyse`` (a file), and the ply of
    its blunder."""
    folder = tmp_path_factory.mktemp("chart")
    game, blunder = planted("mosona", {}, 1)
    source = folder / "game.zrec"
    source.write_text(write_game(game), encoding="utf-8")
    out = folder / "analysed.zrec"
    result = runner.invoke(app, ["analyse", str(source), "-q", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out, blunder


def _data(page: str) -> dict[str, Any]:
    found = re.search(r'<script id="zrec-data" type="application/json">(.*?)</script>', page,
                      re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_the_page_of_an_analysed_game_carries_its_chart(analysed: tuple[Path, int]) -> None:
    path, blunder = analysed
    [game] = [r.game for r in read_string(path.read_text(encoding="utf-8"), "a")]
    assert game is not None
    plies = len(game.line.moves)
    [data] = _data(replay_page([game]))["games"]
    chart = data["chart"]
    assert chart.startswith('<svg class="zrec-eval-chart"')
    columns = re.findall(r'<rect class="eval-ply" data-node="(\d+)" data-ply="(\d+)"', chart)
    assert [int(p) for _, p in columns] == list(range(plies + 1))
    # the best line after the blunder is a variation of 4 moves: the nodes after it skip
    nodes = [int(n) for n, _ in columns]
    assert nodes[:blunder + 1] == list(range(blunder + 1))
    assert nodes[blunder + 1:] == list(range(blunder + 5, plies + 5))
    assert chart.count('class="eval-mark eval-mark-blunder"') == 1
    assert chart.count("<circle ") == 1
    # no analysis, or an Evaluation tag that no longer fits the moves: no chart
    bare = replace(game, tags=tuple(t for t in game.tags if t[0] != "Evaluation"))
    assert "chart" not in _data(replay_page([bare]))["games"][0]
    cut = replace(game, line=replace(game.line, moves=game.line.moves[:-1]))
    assert "chart" not in _data(replay_page([cut]))["games"][0]


def test_zrec_html_and_the_published_site_show_the_chart(
    analysed: tuple[Path, int], tmp_path: Path
) -> None:
    path, _ = analysed
    out = tmp_path / "page.html"
    assert runner.invoke(app, ["html", str(path), "-o", str(out)]).exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert page.count('<div class="eval-chart" hidden="hidden" id="zrec-chart"></div>') == 1
    assert '"chart":"\\u003csvg class=\\"zrec-eval-chart\\"' in page
    # a club's round analysed, imported and published: each game's page has its chart
    club = tmp_path / "round1.zrec"
    result = runner.invoke(app, ["analyse", str(ROOT / "samples" / "club" / "round1.zrec"),
                                 "-q", "-o", str(club)])
    assert result.exit_code == 0, result.output
    db = tmp_path / "a.sqlite"
    assert runner.invoke(app, ["archive", "import", "--db", str(db), "-q", str(club)]
                         ).exit_code == 0
    site = tmp_path / "site"
    result = runner.invoke(app, ["archive", "publish", "Club Championship 2026", "--db",
                                 str(db), "-o", str(site)])
    assert result.exit_code == 0, result.output
    pages = [p.read_text(encoding="utf-8") for p in site.rglob("*.html")]
    assert sum('"chart":"\\u003csvg class=\\"zrec-eval-chart\\"' in p for p in pages) == 2


@pytest.fixture(scope="module")
def server(analysed: tuple[Path, int], tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("served")
    subprocess.run(
        [sys.executable, "-m", "zrec", "archive", "import", "--db", "a.sqlite", "-q",
         str(analysed[0])], cwd=folder, check=True, capture_output=True,
    )
    with served(folder, "a.sqlite") as url:
        yield url


@pytest.mark.skipif(not CHROMIUM.exists() and os.environ.get("CI") != "true",
                    reason="no Chromium at /usr/bin/chromium")
def test_the_game_page_shows_the_chart_and_a_click_on_it_goes_to_that_move(
    server: str, analysed: tuple[Path, int], browser: object, shots: Path
) -> None:
    _, blunder = analysed
    context = browser.new_context(viewport={"width": 1200, "height": 1000})  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/games/1")
    chart = page.locator("#zrec-chart svg.zrec-eval-chart")
    assert chart.is_visible()
    marked = page.locator("#zrec-moves button.move.blunder")
    assert marked.count() == 1 and marked.inner_text().endswith("??")
    cursor = page.locator("#zrec-chart .eval-cursor")
    start_x = cursor.get_attribute("x1")
    column = page.locator(f'#zrec-chart .eval-ply[data-ply="{blunder}"]')
    column.click()
    caption = page.locator("#zrec-caption").inner_text()
    move = marked.inner_text()[:-2]  # (the caption names the move without its mark)
    number = marked.evaluate("b => b.previousElementSibling.textContent")
    assert caption == f"after {number} {move}"
    assert "current" in (marked.get_attribute("class") or "")
    assert cursor.get_attribute("x1") == column.get_attribute("data-x") != start_x
    page.keyboard.press("ArrowRight")  # the next move of the main line: the next column
    assert cursor.get_attribute("x1") == page.locator(
        f'#zrec-chart .eval-ply[data-ply="{blunder + 1}"]').get_attribute("data-x")
    page.screenshot(path=shots / "analysed-game.png", full_page=True)
    page.keyboard.press("Home")
    assert cursor.get_attribute("x1") == start_x
    assert errors == []
    context.close()
