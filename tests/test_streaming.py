"""``fmt``, ``convert`` and ``validate --format json`` write as they read: the text comes
out in pieces that join to exactly what the whole would have been, JSON documents are
read a value at a time (exactly as :func:`json.loads` reads them whole), and memory
stays flat however large the input is."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from strategies import games
from zrec.check.diagnostics import Diagnostic, ReportWriter, Totals
from zrec.cli import app
from zrec.notation.json import convert
from zrec.notation.json import stream as jsonstream
from zrec.notation.json.convert import JsonRecord, read_json_records
from zrec.notation.json.values import game_json_text, game_to_json
from zrec.notation.model import MAX_VARIATION_DEPTH, Comment, Game, Line
from zrec.notation.reader import read_records, read_string
from zrec.notation.writer import game_text, games_text, write_game, write_games
from zrec.play.selfplay import random_games
from zrec.rules import find_game

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
runner = CliRunner()


def invoke(*args: str, stdin: str | bytes | None = None) -> Result:
    return runner.invoke(app, list(args), input=stdin)


def _random(count: int, seed: int = 3) -> list[Game]:
    return list(random_games(find_game("mosona"), {}, count, seed))


# -- 1. text and JSON written in pieces ------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(games, st.integers(1, 200))
def test_a_game_written_in_pieces_is_its_text(game: Game, size: int) -> None:
    pieces = list(game_text(game, size))
    assert "".join(pieces) == write_game(game)
    assert all(p.endswith("\n") for p in pieces)  # whole lines only


@settings(max_examples=30, deadline=None)
@given(games, st.integers(1, 4))
def test_a_game_written_in_json_pieces_is_its_json(game: Game, moves: int) -> None:
    whole = json.dumps(game_to_json(game), ensure_ascii=False)
    assert "".join(game_json_text(game, moves)) == whole


def test_a_long_game_goes_out_in_many_pieces() -> None:
    game = _random(1, 7)[0]
    long = Game(game.tags, Line(tuple(game.line.moves) * 40, (Comment("c", "brace"),)), "*")
    assert "".join(game_json_text(long, 16)) == json.dumps(game_to_json(long), ensure_ascii=False)
    assert len(list(game_json_text(long, 16))) > 10
    assert "".join(game_text(long, 200)) == write_game(long)
    several = [long, game, long]
    assert "".join(games_text(several, 300)) == "".join(write_games(several))


# -- 2. JSON read a value at a time ----------------------------------------------------


def _whole(data: bytes, name: str, monkeypatch: pytest.MonkeyPatch) -> list[JsonRecord]:
    """The records as the whole document read at once gives them."""
    with monkeypatch.context() as patch:
        patch.setattr(convert, "read_document", lambda stream: stream.read())
        return list(read_json_records(io.BytesIO(data), name))


def _documents() -> Iterator[tuple[str, bytes]]:
    games = _random(3)
    values = [game_to_json(g) for g in games]
    array = json.dumps(values, ensure_ascii=False, indent=2)
    lines = "".join(json.dumps(v) + "\n" for v in values)
    yield "array", array.encode()
    yield "compact", json.dumps(values, separators=(",", ":")).encode()
    yield "empty", b" [ \n ]\n"
    yield "one", json.dumps(values[0], indent=1).encode()
    yield "sequence", lines.encode()
    yield "spread", "\n\n".join(json.dumps(v, indent=3) for v in values).encode()
    yield "sequence with marks", lines.replace("\n{", "\n\ufeff{", 2).encode()
    yield "bom", b"\xef\xbb\xbf" + array.encode()
    yield "utf-16", array.encode("utf-16")
    yield "numbers", b"[1, 22, 333, 4444.5e1, -0, NaN, -Infinity, true, null]"
    yield "schema errors", json.dumps([values[0], {"format": 1}, 7, values[1]]).encode()
    yield "long games with problems", json.dumps([values[0], *_broken(values[1])]).encode()
    yield "one long game with a problem", json.dumps(_broken(values[2])[2]).encode()
    # the last member of a name counts, as json.loads has it
    yield "moves twice", array.replace('"moves"', '"moves": [{"move": 5}], "moves"', 1).encode()
    # malformed: read whole, as before, whatever was read first
    yield "truncated", array[: len(array) // 2].encode()
    yield "trailing comma", (array[:-1] + ",]").encode()
    yield "extra", (array + "[]").encode()
    yield "bad sequence", (lines + '{"format": [}\n' + lines).encode()
    yield "not utf-8", array.encode()[:-5] + b"\xff" + array.encode()[-5:]
    yield "two marks", b"\xef\xbb\xbf\xef\xbb\xbf" + array.encode()
    yield "a number", b"5"
    yield "nothing", b""
    yield "too deep", b"[" * 5000 + b"]" * 5000


def _broken(good: dict[str, Any]) -> list[dict[str, Any]]:
    """The game, its members in another order, then the game broken in each way its
    moves can be (each a game too long for a small buffer, read a move at a time)."""
    out = [good, {"moves": good["moves"], **{k: v for k, v in good.items() if k != "moves"}}]

    def broken(change: Callable[[dict[str, Any]], None]) -> None:
        game = json.loads(json.dumps(good))
        change(game)
        out.append(game)

    broken(lambda g: g["moves"][5].update(move=5))  # not of the schema
    broken(lambda g: g["moves"][6].update(move="zz"))  # not a move
    broken(lambda g: g["moves"][7]["actions"][0]["squares"].reverse())  # disagree
    broken(lambda g: g["moves"][3].update(comments_before=[{"text": "c"}]))
    broken(lambda g: g.update(comments=[{"text": "c"}]))  # comments of a line with moves
    broken(lambda g: g["tags"].append(["Event"]))  # a tag pair of one string
    broken(lambda g: g.pop("result"))
    broken(lambda g: g.update(moves={"move": "b4-b5"}))
    deep: dict[str, Any] = {"move": "b4-b5"}
    for _ in range(MAX_VARIATION_DEPTH + 1):
        deep = {"move": "b4-b5", "variations": [{"moves": [deep]}]}
    broken(lambda g: g["moves"].insert(9, deep))  # variations nested too deep
    return out


@pytest.mark.parametrize("chunk", [1, 50, 1 << 20])
def test_json_read_a_value_at_a_time_gives_the_records_read_whole(
    chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jsonstream, "CHUNK", chunk)
    for label, data in _documents():
        expected = _whole(data, "d.json", monkeypatch)
        assert list(read_json_records(io.BytesIO(data), "d.json")) == expected, label
        piped = io.BufferedReader(io.BytesIO(data))
        piped.seekable = lambda: False  # type: ignore[method-assign]
        assert list(read_json_records(piped, "d.json")) == expected, label


def test_a_well_formed_array_is_handed_out_a_value_at_a_time() -> None:
    data = json.dumps([{"n": i} for i in range(5)]).encode()
    document = jsonstream.read_document(io.BytesIO(data))
    assert isinstance(document, jsonstream.Values)
    assert document.kind == "array"
    assert [value["n"] for _, value in document.items] == list(range(5))
    malformed = jsonstream.read_document(io.BytesIO(data[:-1]))
    assert malformed == data[:-1]  # given back whole, for the error json.loads gives


# -- 3. the JSON report written as it goes --------------------------------------------

ODD = 'a "quoted"\nline, \\ tab\t\u00e9 \u2028 \x1b[0m "game": 0,\n'


@pytest.mark.parametrize("count", [0, 1, 3])
def test_the_json_report_written_as_it_goes_is_the_whole_document(count: int) -> None:
    found = [
        Diagnostic("syntax", "error", ODD, 5 + i, 7, 2, ODD, None if i % 2 else i, ODD, "ex")
        for i in range(count)
    ]
    summary = Totals(games=9, valid=2, invalid=count, errors=count, plies=123)
    out = io.StringIO()
    writer = ReportWriter(out.write, True)
    shown = [(d.game - 4, *d.json_parts()) for d in found]
    writer.problems([], 4)  # writes nothing
    writer.problems(shown[:1], 4)  # a game's problems, then the next game's
    writer.problems(shown[1:], 4)
    writer.end(summary)
    document = {"diagnostics": [d.to_json() for d in found], "summary": summary.to_json()}
    assert out.getvalue() == json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def test_the_human_report_is_one_line_a_problem_then_the_summary() -> None:
    found = [Diagnostic("syntax", "error", "f", 3 + i, 7, 2, ODD, i, None, "ex") for i in range(3)]
    out = io.StringIO()
    writer = ReportWriter(out.write, False)
    writer.problems([(d.game, *d.format_parts()) for d in found])
    writer.end(Totals(games=3, invalid=3, errors=3))
    lines = [d.format() for d in found] + [Totals(games=3, invalid=3, errors=3).line()]
    assert out.getvalue() == "\n".join(lines) + "\n"


def test_a_diagnostic_cut_around_its_game_number_is_itself() -> None:
    d = Diagnostic("illegal-move", "error", "f 1", 12, 3, 4, "game 12, ply 3", 3, "b4", "x\ny")
    before, after = d.format_parts()
    assert before + "12" + after == d.format()
    assert set(d.to_json()) == {"code", "severity", "file", "game", "line", "column"} | {
        "message",
        "ply",
        "move",
    }


# -- 4. fmt --check compares as it reads -----------------------------------------------


def test_fmt_check_compares_the_canonical_text_as_it_reads(tmp_path: Path) -> None:
    text = "\n".join(write_game(g) for g in _random(40, 5))
    cases = {
        "same": (text, 0),
        "space at the end": (text + "\n", 1),
        "no newline at the end": (text[:-1], 1),
        "a change in the middle": (text.replace("\n\n[Game", "\n[Game", 1), 1),
        "a byte order mark": ("\ufeff" + text, 1),
        "a broken game": (text + '\n[Game "mosona"]\n\n1. zz9 *\n', 1),
    }
    for label, (content, code) in cases.items():
        path = tmp_path / "g.zrec"
        path.write_text(content, encoding="utf-8")
        result = invoke("fmt", "--check", str(path))
        assert result.exit_code == code, label
        if code and label != "a broken game":
            assert "not in canonical form" in result.stderr, label
    assert invoke("fmt", "--check", "-", stdin=text).exit_code == 0
    assert invoke("fmt", "--check", "-", stdin=text + " ").exit_code == 1


def test_fmt_of_several_files_is_their_games_in_order(tmp_path: Path) -> None:
    games = _random(9, 6)
    paths = []
    for i in range(3):
        path = tmp_path / f"{i}.zrec"
        path.write_text("\n".join(write_game(g) for g in games[i * 3 : i * 3 + 3]))
        paths.append(str(path))
    empty = tmp_path / "empty.zrec"
    empty.write_text("")
    result = invoke("fmt", paths[0], str(empty), *paths[1:])
    assert result.exit_code == 0
    assert result.stdout == "".join(write_games(games))


def test_fmt_writes_nothing_when_a_later_game_is_broken(tmp_path: Path) -> None:
    good = "\n".join(write_game(g) for g in _random(30, 8))
    path = tmp_path / "g.zrec"
    path.write_text(good + '\n[Game "mosona"]\n\n1. zz9 *\n')
    out = tmp_path / "out.zrec"
    out.write_text("before")
    result = invoke("fmt", str(path), "-o", str(out))
    assert result.exit_code == 1
    assert out.read_text() == "before"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.zrec", "out.zrec"]
    again = invoke("fmt", "-i", str(path))
    assert again.exit_code == 1
    assert path.read_text().startswith(good)


# -- 5. memory stays flat --------------------------------------------------------------

MEASURE = textwrap.dedent(
    """
    import resource, subprocess, sys
    done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    """
)


def _peak_kb(*args: str) -> int:
    """The peak resident memory of ``zrec ARGS`` in a process of its own, in KB."""
    command = [sys.executable, "-c", "from zrec.cli import main; main()", *args]
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, *command],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    code, peak = done.stdout.split()
    assert code in ("0", "1"), done
    return int(peak)


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in KB on Linux")
def test_memory_stays_flat_on_a_large_file(tmp_path: Path) -> None:
    """Each command on a 7.5 MB file peaks within a few MB of the same command on a
    2.5 MB one (holding the whole output, or every diagnostic, of the 5 MB more would
    cost 10 MB and more).  The 2.5 MB file, not a tiny one, is the base: a command's
    bounded caches (the words and moves it has learnt) fill on it, which costs 3.5 to
    3.9 MB more than on 40 games whatever the size beyond (2.5 and 10 MB: the same
    peak), and left too little room under 4 MB on Python 3.10."""
    games = "\n".join(write_game(g) for g in _random(40, 2))
    big, bigger = tmp_path / "big.zrec", tmp_path / "bigger.zrec"
    for path, size in ((big, 2_500_000), (bigger, 7_500_000)):
        with path.open("w", encoding="utf-8") as stream:
            while stream.tell() < size:
                stream.write(games + "\n")
    out = str(tmp_path / "out")
    for args in (["fmt", "{}", "-o", out], ["convert", "--to", "json", "{}"]):
        base = _peak_kb(*(a.replace("{}", str(big)) for a in args))
        peak = _peak_kb(*(a.replace("{}", str(bigger)) for a in args))
        assert peak - base < 4_000, (args, base, peak)
    # every game of this one is reported: an unknown game, cheap to check (beside a
    # file of ten such games: the same modules are loaded for both)
    unknown, few = tmp_path / "unknown.zrec", tmp_path / "few.zrec"
    for path, count in ((unknown, 20_000), (few, 10)):
        path.write_text(
            "".join(f'[Game "none"]\n[Round "{i}"]\n\n1. a1-a2 *\n\n' for i in range(count))
        )
    base = _peak_kb("validate", "--format", "json", str(few))
    peak = _peak_kb("validate", "--format", "json", str(unknown))
    assert peak - base < 4_000, (base, peak)


def test_records_of_a_piece_are_numbered_as_in_the_file() -> None:
    text = "".join(write_game(g) + "\n" for g in _random(3, 4))
    whole = list(read_string(text))
    lines = text.split("\n")
    second = whole[1].line
    piece = "\n".join(lines[second - 1 :]).encode()
    alone = list(read_records(io.BytesIO(piece), "<input>", second))
    assert [(r.line, r.game) for r in alone] == [(r.line, r.game) for r in whole[1:]]
