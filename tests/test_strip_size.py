"""A long strip: the empty board drawn once, each position costing only its pieces, and
a strip of more positions than one picture draws refused with what to do instead."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from test_replay_scale import long_game
from zrec import read_game
from zrec.cli import app
from zrec.render.strip import STRIP_LIMIT, strip_for_record

SVG = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


def test_a_strip_draws_the_empty_board_once() -> None:
    game = read_game(long_game(400))
    ten, hundred = strip_for_record(game, last=10), strip_for_record(game, last=100)
    root = ET.fromstring(hundred)
    boards = [g for g in root.iter(f"{SVG}g") if g.get("class") == "board"]
    assert len(boards) == 101 and len(root.findall(f"{SVG}defs/{SVG}g")) == 1
    assert len([e for e in root.iter() if e.get("class") == "line"]) == len(
        [e for e in ET.fromstring(ten).iter() if e.get("class") == "line"]
    )
    per_board = (len(hundred) - len(ten)) / 90
    assert per_board < 6_000, per_board  # the pieces, the marks, a caption, a description


def test_a_strip_past_the_limit_is_refused_with_what_to_do(tmp_path: Path) -> None:
    record = tmp_path / "long.zrec"
    record.write_text(long_game(STRIP_LIMIT + 500), encoding="utf-8")
    out = tmp_path / "strip.svg"
    result = runner.invoke(app, ["diagram", str(record), "--strip", "-o", str(out)])
    assert result.exit_code == 2 and not out.exists()
    assert result.stderr == (
        "zrec: a strip draws at most 1,000 positions, and this one would have 1,501: "
        "choose a range of plies (--from, --to), such as 0 to 999\n"
    )
    result = runner.invoke(
        app, ["diagram", str(record), "--strip", "--from", "100", "-o", str(out)]
    )
    assert (
        result.exit_code == 2
        and "would have 1,401: choose a range of plies (--from, --to), such as 100 to 1099"
        in result.stderr
    )
    result = runner.invoke(
        app, ["diagram", str(record), "--strip", "--from", "500", "--to", "1499", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    captions = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "caption"]
    assert len(captions) == STRIP_LIMIT  # each position's (the title's class is another)
    assert (captions[0], captions[-1]) == ("250... b1-a1", "750. a4-a3")
