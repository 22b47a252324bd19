"""``zrec perft`` and :func:`zrec.research.perft.perft`: the reference counts of
docs/perft.md (tests/data/perft-serpent.json) from the command line and the library.

Each table is checked at the depths whose counts stay under a budget, so the whole
file runs in a few seconds; ``benchmarks/perft.py`` checks the tables whole.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zrec.cli import app
from zrec.research.perft import Divided, PerftError, perft
from zrec.rules import find_game

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "perft-serpent.json"
DOC = ROOT / "docs" / "perft.md"
BUDGET = 40_000  # the largest count checked here

runner = CliRunner()


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


def tables() -> list[tuple[str, str, str, list[int]]]:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    return [(t["game"], t["board"], t["jumps"], t["counts"]) for t in data["tables"]]


def doc_tables() -> dict[tuple[str, str, str], list[int]]:
    """The two tables of docs/perft.md, read from the Markdown."""
    text = DOC.read_text(encoding="utf-8")
    columns = [("lined", "line"), ("open", "line"), ("lined", "bent"), ("open", "bent")]
    out: dict[tuple[str, str, str], list[int]] = {}
    for game, heading in (("mosona", "## Awithlaknannai Mosona"), ("kolowis", "## Kolowis")):
        section = text[text.index(heading) :].split("\n## ", 2)[0]
        for row in re.findall(r"^\| (\d+) \|(.*)\|$", section, re.M):
            cells = [c.strip().replace(",", "") for c in row[1].split("|")]
            for (board, jumps), cell in zip(columns, cells, strict=True):
                if cell:
                    out.setdefault((game, board, jumps), []).append(int(cell))
    return out


def test_the_documented_tables_are_the_data_file() -> None:
    assert doc_tables() == {(g, b, j): c for g, b, j, c in tables()}


@pytest.mark.parametrize(
    ("game", "board", "jumps", "counts"), tables(), ids=[f"{g}-{b}-{j}" for g, b, j, _ in tables()]
)
def test_zrec_perft_reproduces_the_tables(
    game: str, board: str, jumps: str, counts: list[int]
) -> None:
    depth = max(d for d in range(1, len(counts) + 1) if counts[d - 1] <= BUDGET)
    args = ["perft", "--game", game, "-O", f"Board={board}", "-O", f"Jumps={jumps}"]
    result = invoke(*args, "--depth", str(depth), "--format", "json")
    assert (result.exit_code, result.stderr) == (0, "")
    assert json.loads(result.stdout) == counts[:depth]


def test_the_text_table() -> None:
    result = invoke("perft", "--game", "mosona", "--depth", "9")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        "depth  count\n"
        "    1      3\n"
        "    2      4\n"
        "    3      9\n"
        "    4     23\n"
        "    5     76\n"
        "    6    233\n"
        "    7    636\n"
        "    8  2,177\n"
        "    9  7,943\n"
    )


def test_divide_splits_the_last_count_by_first_move() -> None:
    result = invoke("perft", "--game", "mosona", "--depth", "3", "--divide")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == "a4-b5  3\na5-b5  5\nb6-b5  1\n\ntotal  9\n"
    result = invoke(
        "perft", "--game", "kolowis", "-O", "Jumps=BENT", "--depth", "4", "--divide",
        "--format", "json",
    )  # fmt: skip
    assert (result.exit_code, result.stderr) == (0, "")
    document = json.loads(result.stdout)
    assert list(document) == ["depth", "total", "moves"]
    assert (document["depth"], document["total"]) == (4, 39331)
    assert sum(document["moves"].values()) == 39331
    assert list(document["moves"]) == sorted(document["moves"])
    assert len(document["moves"]) == 4 and document["moves"]["a7xb9xb8xa7"] == 19643


def test_the_library() -> None:
    mosona = find_game("mosona")
    assert perft(mosona, {}, 9) == [3, 4, 9, 23, 76, 233, 636, 2177, 7943]
    assert perft(mosona, {"Board": "OPEN"}, 4) == [3, 4, 9, 27]
    divided = perft(mosona, {}, 2, divide=True)
    assert divided == Divided([3, 4], [("a4-b5", 1), ("a5-b5", 2), ("b6-b5", 1)])
    assert perft(mosona, {}, 1, divide=True).moves == [("a4-b5", 1), ("a5-b5", 1), ("b6-b5", 1)]
    seen: list[tuple[int, int, str, int]] = []
    perft(mosona, {}, 3, progress=lambda *args: seen.append(args))
    assert seen == [(1, 3, "a4-b5", 3), (2, 3, "a5-b5", 5), (3, 3, "b6-b5", 1)]
    # Kolowis with 23 pieces: the first move must go to the centre
    kolowis = perft(find_game("kolowis"), {"Pieces": "23"}, 3, divide=True)
    assert kolowis == Divided([3, 4, 15], [("a8-b9", 6), ("a9-b9", 8), ("b10-b9", 1)])
    for depth in (0, -1):
        with pytest.raises(PerftError, match="depth"):
            perft(mosona, {}, depth)


def test_a_game_over_adds_nothing_deeper() -> None:
    """A game without dice that ends: every count stays a count of live sequences."""
    counts = perft(find_game("stone-warriors"), {}, 3)
    assert counts == [6, 36, 348]


def test_the_python_example_of_the_doc_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)\n```", DOC.read_text(encoding="utf-8"), re.S)
    assert blocks
    namespace: dict[str, object] = {"__name__": "perft_example"}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "chess", "--depth", "2"], 'zrec: [Game "chess"] names no game zrec knows'),
        (
            ["--game", "mosona", "-O", "Jumpz=bent", "--depth", "2"],
            "zrec: unknown option 'Jumpz' for Awithlaknannai Mosona: its options are Board, "
            "Jumps, Middle, EndRule, First, Captures, Chains, Blocked, NoCapture, "
            "Repetition\n",
        ),
        (
            ["--game", "mosona", "-O", "Jumps=zigzag", "--depth", "2"],
            "zrec: 'zigzag' is not a value of Jumps for Awithlaknannai Mosona: its values "
            "are line, bent\n",
        ),
        (["--game", "mosona", "-O", "Jumps", "--depth", "2"], "zrec: an override is written"),
        (["--game", "mosona", "-O", "jumps=bent", "--depth", "2"], "zrec: unknown option 'jumps'"),
        (["--game", "mosona", "--depth", "0"], "zrec: --depth takes a whole number from 1 up"),
        (["--game", "mosona", "--depth", "-3"], "zrec: --depth takes a whole number from 1 up"),
        (["--game", "mosona", "--depth", "two"], "zrec: --depth takes a whole number from 1 up"),
        (["--game", "awethi", "--depth", "2"], "zrec: Awéthi rolls dice (d4 on the first turn)"),
    ],
)
def test_errors_exit_2_with_a_message(args: list[str], message: str) -> None:
    result = invoke("perft", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message)
    assert "Traceback" not in result.stderr


def test_the_examples_of_the_doc_are_real_output() -> None:
    """Every ``$ zrec perft ...`` block of docs/perft.md shows what the command prints."""
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```text\n\$ (zrec perft [^\n]*)\n(.*?)\n```", text, re.S)
    assert len(blocks) == 4
    for command, shown in blocks:
        result = invoke(*command.split()[1:])
        assert (result.exit_code, result.stderr) == (0, ""), command
        assert result.stdout == shown + "\n", command
