"""The replay page at size: the exact picture at every node, tables that stop growing,
output and memory flat in the number of moves, and a season as a folder in Chromium."""

from __future__ import annotations

import io
import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from page_decode import build, page_data, page_json
from test_replay_page import ROOT, dump_dom, positions, read_log
from zrec import Game, read_game, read_games
from zrec.cli import app
from zrec.notation.model import MoveNode
from zrec.play import LineEnd, Step, Visitor, prepare, walk
from zrec.render.boards import board_for
from zrec.render.layers import mark_move, position_layer
from zrec.render.page_data import GameData, Tables
from zrec.render.replay_page import replay_page, write_page

runner = CliRunner()
OPENING = (
    "a5-b5 c6xa5 b5-b6 a5xc6 b7-b6 c6xa5 a7-b7 c8xa7xc6 b9-c8 a5xa7 a8xa6 c5-b5 a4xc5 "
    "b4-b5 c5xa4 c7-b8 c8xa7 c6-c7 a7-a8 c4-b4 a3xc4 c3xc5 a2xc3 c2xc4 a1xc2 c1xc3"
)


def long_game(plies: int) -> str:
    """A valid Mosona game of ``plies`` plies (an opening, then a 4-ply cycle)."""
    turns = OPENING.split()
    while len(turns) < plies:
        turns.extend(["a4-a3", "b1-a1", "a3-a4", "a1-b1"])
    moves = " ".join(
        f"{i // 2 + 1}. {t}" if i % 2 == 0 else t for i, t in enumerate(turns[:plies])
    )
    return f'[Game "mosona"]\n\n{moves} *\n'


def shapes(elements: Any) -> list[list[Any]]:
    return [
        [e.tag, dict(sorted(e.attrib.items())), *([e.text] if e.text else [])] for e in elements
    ]


class Layers(Visitor):
    """The picture layer after every move, in the page's node order."""

    def __init__(self, game: Game) -> None:
        self.replay = prepare(game)
        engine = self.engine = self.replay.engine
        start = engine.view(self.replay.start)
        self.board = board_for(start.board, legend=start)
        self.layers = [shapes(position_layer(self.board, start, None))]

    def step(self, step: Step) -> None:
        mark = mark_move(self.engine, step.before, step.move, step.events)
        view = self.engine.view(step.after)
        self.layers.append(shapes(position_layer(self.board, view, mark)))

    def begin_variation(self, node: MoveNode, before: Any, ply: int, depth: int) -> None:
        pass

    def end_variation(self, node: MoveNode, end: LineEnd, depth: int) -> None:
        pass


@pytest.mark.parametrize("path", sorted((ROOT / "samples").glob("*.zrec")), ids=lambda p: p.name)
def test_every_node_draws_exactly_the_layer_of_its_position(path: Path) -> None:
    games = list(read_games(path))
    shown = page_data(replay_page(games))["games"]
    for game, page in zip(games, shown, strict=True):
        expected = Layers(game)
        walk(expected.replay, game.line, expected)
        assert [node["layer"] for node in page["nodes"]] == expected.layers


def test_shapes_and_changes_are_written_out_once_the_tables_are_full() -> None:
    games = list(read_games(ROOT / "samples" / "awethi.zrec"))[:2]
    for limit in (0, 7):
        tables, out = Tables(limit), io.StringIO()
        for i, game in enumerate(games):
            out.write("," if i else "")
            GameData(game, i + 1, tables).write(out, 0)
        assert len(tables.shapes) == len(tables.changes) == limit
        tables_text = io.StringIO()
        tables.write(tables_text)
        data = page_json(
            '<script id="zrec-data" type="application/json">'
            f'{{"games":[{out.getvalue()}],"tables":{tables_text.getvalue()}}}</script>'
        )
        full = page_data(replay_page(games))["games"]
        for raw, whole in zip(data["games"], full, strict=True):
            nodes = build(raw, data["tables"])["nodes"]
            assert [{**n, "c": 0} for n in nodes] == [{**n, "c": 0} for n in whole["nodes"]]


class _Sink(io.StringIO):
    """An output that keeps only how many UTF-8 bytes were written to it, so that the
    page's own text (which a real run writes to a file) is not counted as memory."""

    size = 0

    def write(self, text: str) -> int:
        self.size += len(text.encode("utf-8"))
        return len(text)


def _page(text: str) -> tuple[int, int]:
    """The size of the page of one game, and the peak memory of writing it."""
    game = read_game(text)
    out = _Sink()
    tracemalloc.start()
    write_page([(game, 1, None)], out)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return out.size, peak


def test_a_long_game_costs_about_its_record_and_memory_stays_flat() -> None:
    short, long = long_game(1_000), long_game(5_000)
    # one untimed page first, so that what this process did before (other tests, in a
    # shared worker) does not decide how full the bounded caches are when measuring
    _page(long)
    (small, small_peak), (big, big_peak) = _page(short), _page(long)
    per_ply = (big - small) / 4_000
    record_per_ply = (len(long) - len(short)) / 4_000
    assert per_ply < 3 * record_per_ply, (per_ply, record_per_ply)
    # the page machinery keeps nothing a ply: what grows here is bounded caches that
    # fill up over these plies (the engines' 8,192 move numbers); 400 bytes a ply are
    # allowed, where a whole picture a ply, as before, was about 23 KB
    assert big_peak < small_peak + 4_000 * 400, (small_peak, big_peak)


def test_a_season_as_a_folder_in_chromium(tmp_path: Path) -> None:
    culin, kolowis = ROOT / "samples" / "culin-opening.zrec", ROOT / "samples" / "kolowis.zrec"
    folder = tmp_path / "season"
    result = runner.invoke(app, ["html", str(culin), str(kolowis), "-o", f"{folder}/"])
    assert result.exit_code == 0, result.output
    games = [*read_games(culin), *read_games(kolowis)]
    names = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    files = [f"games/game-{i}.js" for i in range(1, len(games) + 1)]
    assert names == sorted(["index.html", *files])
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert index.count('class="view"') == 4  # two boards, each as either side sees it
    data = page_json(index)
    assert data["files"] == files
    assert data["labels"][1].startswith(f"{kolowis}, game 1: Kolowis")
    second = (folder / "games" / "game-2.js").read_text(encoding="utf-8")
    assert second.startswith("zrecGame(1,{") and second.endswith("});\n")
    steps = read_log(dump_dom(folder / "index.html", "#autotest=ArrowRight,game:2,End,game:1,End"))
    ends = []
    for game in games[:2]:
        found = {tuple(path): pieces for path, pieces in positions(game)}
        ends.append((found[()], found[tuple(n.turn.text() for n in game.line.moves)]))
    assert [(key, node) for key, node, _ in steps] == [
        ("start", 0),
        ("ArrowRight", 1),
        ("game:2", 0),
        ("End", len(data_nodes(folder, 2)) - 1),
        ("game:1", 0),
        ("End", 7),
    ]
    assert [steps[0][2], steps[5][2]] == list(ends[0])
    assert [steps[2][2], steps[3][2]] == list(ends[1])


def data_nodes(folder: Path, number: int) -> list[dict[str, Any]]:
    """The nodes of the main line of game ``number`` of a folder."""
    index = page_json((folder / "index.html").read_text(encoding="utf-8"))
    text = (folder / "games" / f"game-{number}.js").read_text(encoding="utf-8")
    game = build(json.loads(text[text.index(",") + 1 : -3]), index["tables"])
    return [game["nodes"][0], *(game["nodes"][i] for i in game["line"]["moves"])]


def test_a_bad_game_anywhere_means_nothing_written(tmp_path: Path) -> None:
    good = (ROOT / "samples" / "culin-opening.zrec").read_text(encoding="utf-8")
    broken = tmp_path / "broken.zrec"
    broken.write_text(good + '\n[Game "mosona"]\n\n1. b6-b5 ((( *\n', encoding="utf-8")
    illegal = tmp_path / "illegal.zrec"
    illegal.write_text(good + '\n[Game "mosona"]\n\n1. b6-b4 *\n', encoding="utf-8")
    for path, said in (
        (broken, "nothing written: fix the games above first"),
        (illegal, "game 2: move 1 (White) b6-b4 in the main line is illegal"),
    ):
        for out in (tmp_path / "page.html", tmp_path / "folder"):
            target = f"{out}/" if out.suffix == "" else str(out)
            result = runner.invoke(app, ["html", str(path), "-o", target])
            assert result.exit_code == 1, result.output
            assert said in result.stderr
            assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]
