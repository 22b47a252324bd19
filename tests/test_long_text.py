"""A very long game read from text (:mod:`zrec.notation.longtext`): its plain lines kept
as text and its moves made as they are walked, never held whole, with the same game,
the same page and the same report, word for word, as when it is held whole."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zrec.check.validate import validate_record
from zrec.cli import app
from zrec.notation import longtext
from zrec.notation.json.values import game_json_text
from zrec.notation.model import Game, Line
from zrec.notation.reader import Record, read_records, read_string
from zrec.notation.writer import write_game
from zrec.play.selfplay import random_games
from zrec.rules import all_games

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
FILES = sorted(SAMPLES.glob("*.zrec")) + sorted((SAMPLES / "invalid").glob("*.zrec"))
runner = CliRunner()

#: the first 28 plies of a Mosona game, then a 4-ply cycle that can repeat for ever
_OPENING = (
    "a5-b5 c6xa5 b5-b6 a5xc6 b7-b6 c6xa5 a7-b7 c8xa7xc6 b9-c8 a5xa7 a8xa6 c5-b5 a4xc5 "
    "b4-b5 c5xa4 c7-b8 c8xa7 c6-c7 a7-a8 c4-b4 a3xc4 c3xc5 a2xc3 c2xc4 a1xc2 c1xc3"
)
OPENING = _OPENING.split(" ")
CYCLE = ["a4-a3", "b1-a1", "a3-a4", "a1-b1"]


def turns(plies: int) -> list[str]:
    out = list(OPENING)
    while len(out) < plies:
        out.extend(CYCLE)
    return out[:plies]


def movetext(moves: list[str]) -> str:
    return " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))


def long_text(plies: int = 20_000, result: str = "*", tags: str = "") -> str:
    """A valid Mosona game of ``plies`` plies, its moves on one line (200 KB: long)."""
    return f'[Game "mosona"]\n{tags}\n{movetext(turns(plies))} {result}\n'


@pytest.fixture
def whole(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every game held whole, as before: no line nor game is ever long."""
    monkeypatch.setattr(longtext, "LINE", 10**12)
    monkeypatch.setattr(longtext, "TOKENS", 10**12)
    yield


def _places(game: Game | None) -> object:
    if game is None:
        return None
    return game.tag_spans, [node.span for node in game.line.moves]


def _read(text: str) -> list[tuple[Record, object, str]]:
    """Each record, the places of its game, and the type of its main line."""
    return [
        (r, _places(r.game), type(r.game.line.moves).__name__ if r.game else "")
        for r in read_string(text, "t.zrec")
    ]


def _texts() -> list[str]:
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in FILES]
    texts.append(
        "".join(
            write_game(game)
            for spec in all_games()
            for game in random_games(spec, {}, 3, 5, max_plies=120)
        )
    )
    # the common game's edges, each kept as text and held alike: dice with no action,
    # a comma out of place, two numbers, a number or a comma at the end, a tag late
    head = '[Game "awethi"]\n[Seats "2"]\n\n'
    for movetext in [
        "1. 2413e: a1-b2, c3 2. 2: H *",
        "1. 2: a1-b2, c3\n2... 4: -- 1-0",
        "1. 2: *",
        "1. 2: a1-b2, *",
        "1. 2: a1-b2 , c3 0-1",
        "1. a1-b2, c3 *",
        "1. 2. a1-a2 *",
        "1. a1-a2 2. *",
        ", a1-a2 *",
        "1. 2: a1-a2, b1\n, c1 *",
        "1. 2: a1-a2 b1 2: c1 3. 4: d1,\n e2 *",
        "1. a1-a2\n\n  \n[Round \"1\"]\n1. b1 *",
        "1. a1-a2 b1-b2\n1-0",
    ]:
        texts.append(head + movetext + "\n")
    return texts


def test_every_sample_reads_the_same_when_every_line_is_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = _texts()
    monkeypatch.setattr(longtext, "LINE", 10**12)
    monkeypatch.setattr(longtext, "TOKENS", 10**12)
    held = [_read(t) for t in texts]
    monkeypatch.setattr(longtext, "LINE", 0)  # every plain line of every game kept as text
    monkeypatch.setattr(longtext, "TOKENS", 0)
    kept = [_read(t) for t in texts]
    for one, two in zip(held, kept, strict=True):
        assert [(r, p) for r, p, _ in one] == [(r, p) for r, p, _ in two]
    kinds = [kind for records in kept for _, _, kind in records]
    # both paths taken (a game held whole: its moves a tuple, or the fast path's line)
    assert kinds.count("LongMoves") > 40 and kinds.count("tuple") + kinds.count("PlainMoves") > 10
    held_kinds = {kind for records in held for _, _, kind in records if kind}
    assert held_kinds == {"tuple", "PlainMoves"}


def test_a_long_game_is_the_same_game_and_its_moves_a_sequence() -> None:
    text = long_text(8_000)  # 75 KB on one line
    (record,) = read_string(text)
    assert record.game is not None
    moves = record.game.line.moves
    assert type(moves) is longtext.LongMoves
    every = tuple(moves)
    assert len(moves) == len(every) == 8_000
    assert moves[0] == every[0] and moves[-1] == every[-1] and moves[2_345] == every[2_345]
    assert moves[-1].span == every[-1].span and moves[-1].span is not None
    assert moves[10:20] == every[10:20] and moves[::-700] == every[::-700]
    assert moves[7_990:] == every[7_990:]
    with pytest.raises(IndexError):
        moves[8_000]
    assert moves == every and every == moves and hash(moves) == hash(every)
    assert record.game == Game(record.game.tags, Line(every), "*")
    assert repr(moves) == "LongMoves(<8000 moves>)"
    assert "".join(game_json_text(record.game)) == "".join(
        game_json_text(Game(record.game.tags, Line(every), "*"))
    )


def _traced(path: Path) -> tuple[str, int]:
    """The validator's report of the file's one game, and the peak traced memory."""
    tracemalloc.start()
    (record,) = read_records(path)
    report = validate_record(record, str(path))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return repr(report), peak


def test_a_long_game_is_not_held_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "long.zrec"
    path.write_text(long_text(40_000), encoding="utf-8")
    kept, kept_peak = _traced(path)
    monkeypatch.setattr(longtext, "LINE", 10**12)
    monkeypatch.setattr(longtext, "TOKENS", 10**12)
    held, held_peak = _traced(path)
    assert kept == held
    assert "plies=40000" in kept
    # held whole: a token for each ply and the line's lists of turns, numbers and
    # places (about 14 MB; 19 MB when a move node was made for each ply as it was
    # read); kept: the line's text (about 6.5 MB, most of it the same for a game of
    # any length)
    assert kept_peak < held_peak / 2, (kept_peak, held_peak)


def _cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _both(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    """The command's outcome with long games kept as text, which is the same as with
    every game held whole."""
    kept = _cli(*args)
    with monkeypatch.context() as m:
        m.setattr(longtext, "LINE", 10**12)
        m.setattr(longtext, "TOKENS", 10**12)
        held = _cli(*args)
    assert kept == held
    return kept


def test_the_page_of_a_long_game_is_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "long.zrec"
    path.write_text(long_text(3_001, "1-0", '[White "A"]\n'), encoding="utf-8")
    kept, held = tmp_path / "kept.html", tmp_path / "held.html"
    assert _cli("html", str(path), "-o", str(kept)) == (0, "", "")
    monkeypatch.setattr(longtext, "LINE", 10**12)
    monkeypatch.setattr(longtext, "TOKENS", 10**12)
    assert _cli("html", str(path), "-o", str(held)) == (0, "", "")
    assert kept.read_bytes() == held.read_bytes()
    assert len(kept.read_bytes()) > 20_000


def _broken(tmp_path: Path, plies: int, at: int, word: str, result: str = "*") -> Path:
    """A long game whose ``at``-th ply is ``word`` (``{m}`` in it: the move that was
    there), and the next game after it."""
    moves = turns(plies)
    moves[at - 1] = word.format(m=moves[at - 1])
    path = tmp_path / "broken.zrec"
    next_game = '[Game "mosona"]\n\n1. a5-b5 *\n'
    path.write_text(
        f'[Game "mosona"]\n\n{movetext(moves)} {result}\n\n{next_game}', encoding="utf-8"
    )
    return path


@pytest.mark.parametrize(
    ("word", "result", "expected"),
    [
        ("b1-a2", "*", ":3:133891: error[illegal-move] game 1, ply 15000: move 7500 (Black)"),
        ("{m}@", "*", ":3:133891: error[syntax] game 1:"),  # a bad token
        ("{m}!", "*", "2 games read, 2 valid"),  # a suffix: read by the grammar
        ("{m} {{x}}", "*", "2 games read, 2 valid"),  # a comment: read by the grammar
        ("{m}", "1-0", ":3:178892: error[wrong-result] game 1, ply 20000:"),  # at the end
        ("{m} 2.", "*", "error[syntax] game 1:"),  # a move number with no move
        ("{m} 1-0", "*", "error[missing-tag] game 2:"),  # a result in the middle
    ],
)
def test_a_broken_long_game_is_reported_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, word: str, result: str, expected: str
) -> None:
    path = _broken(tmp_path, 20_000, 15_000, word, result)
    _, out, _ = _both(monkeypatch, "validate", str(path))
    assert expected in out, out


def test_a_long_game_over_many_lines_and_a_broken_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    moves = movetext(turns(40_000)).split(" ")
    lines = [" ".join(moves[i : i + 12]) for i in range(0, len(moves), 12)]
    path = tmp_path / "lines.zrec"
    path.write_text('[Game "mosona"]\n\n' + "\n".join(lines) + " *\n", encoding="utf-8")
    code, out, _ = _both(monkeypatch, "validate", str(path))
    assert (code, out.splitlines()[-1]) == (0, "1 game read, 1 valid, 0 invalid, 0 warnings")
    (record,) = read_records(path)
    assert record.game is not None and type(record.game.line.moves) is longtext.LongMoves
    lines[4_000] = lines[4_000] + " \xe9"
    path.write_bytes(
        b'[Game "mosona"]\n\n'
        + "\n".join(lines).encode("latin-1")
        + b" *\n"
        + b'[Game "mosona"]\n\n1. a5-b5\n'  # then a game with no result
    )
    code, out, _ = _both(monkeypatch, "validate", str(path))
    assert code == 1 and "error[encoding] game 1:" in out and "error[truncated] game 2" in out, out
    assert "2 games read" in out
