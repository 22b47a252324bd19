"""``import --jobs``: a file cut into pieces and read in worker processes gives the same
games, numbers, lines and diagnostics as the whole file read at once."""

from __future__ import annotations

import io
from pathlib import Path

from zrec.archive.store.facts import Facts, facts_of
from zrec.archive.store.jobs import cut, parallel_facts
from zrec.notation.reader import read_records
from zrec.notation.writer import write_game
from zrec.play.selfplay import random_games
from zrec.rules import find_game

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def _key(fact: Facts) -> tuple[object, ...]:
    return (
        fact.number,
        fact.line,
        fact.text,
        fact.ident,
        tuple(fact.keys),
        tuple(d.format() for d in fact.report.diagnostics),
        fact.report.plies,
    )


def _mixed(tmp_path: Path) -> Path:
    """Random games, every sample and every invalid sample, interleaved."""
    games = [write_game(g) for g in random_games(find_game("mosona"), {}, 120, 5)]
    parts: list[str] = []
    invalid = sorted((SAMPLES / "invalid").glob("*.zrec"))
    for i, path in enumerate([*sorted(SAMPLES.glob("*.zrec")), *invalid]):
        parts.extend(games[i * 3 : i * 3 + 3])
        parts.append(path.read_bytes().decode("utf-8", "replace"))
    parts.extend(games[-20:])
    path = tmp_path / "mixed.zrec"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def test_pieces_read_alone_give_the_same_facts(tmp_path: Path) -> None:
    path = _mixed(tmp_path)
    whole = [_key(facts_of(r, "m.zrec")) for r in read_records(path, "m.zrec")]
    with open(path, "rb") as stream:
        pieces = [_key(f) for f in parallel_facts(stream, "m.zrec", 0, 2)]
    assert len(whole) > 150
    assert pieces == whole


def test_games_already_done_are_left_out(tmp_path: Path) -> None:
    path = _mixed(tmp_path)
    with open(path, "rb") as stream:
        numbers = [f.number for f in parallel_facts(stream, "m.zrec", 40, 2)]
    total = sum(1 for _ in read_records(path))
    assert numbers == list(range(41, total + 1))


def test_the_cutter_cuts_only_between_games_and_keeps_every_byte() -> None:
    games = [write_game(g) for g in random_games(find_game("mosona"), {}, 30, 9)]
    text = "\n".join(games).encode()
    pieces = list(cut(io.BytesIO(text), games=4))
    assert b"".join(data for _, data in pieces) == text
    assert len(pieces) == 8  # 30 games, 4 a piece
    assert [data.count(b"[Game ") for _, data in pieces] == [4] * 7 + [2]
    lines = 1
    for first, data in pieces:
        assert first == lines
        assert data.startswith(b"[Game ")
        lines += data.count(b"\n")


def test_the_cutter_does_not_cut_inside_a_comment() -> None:
    game = write_game(next(iter(random_games(find_game("mosona"), {}, 1, 2))))
    trap = '1. b6-b5 { a note that runs on\n1-0\n\n[Event "not a game"]\n}  *\n'
    text = (game + "\n" + '[Game "mosona"]\n\n' + trap + "\n" + game).encode()
    pieces = list(cut(io.BytesIO(text), games=1))
    starts = [data.split(b"\n", 1)[0] for _, data in pieces]
    assert b'[Event "not a game"]' not in starts
    assert len(pieces) == 3


def test_comments_opened_on_a_tag_line_or_by_a_semicolon_are_not_cut(tmp_path: Path) -> None:
    games = [write_game(g) for g in random_games(find_game("mosona"), {}, 12, 1)]
    brace = (
        '[Game "mosona"]\n[Result "*"] {note starts here\nthis ends 1-0\n\n'
        '[Game "fake"]\n}\n1. a5-b5 c6xa5 2. b7-c6 *\n'
    )
    semicolon = (
        '[Game "mosona"]\n[Result "*"]\n\n1. a5-b5 ; a line comment 1-0\n\n'
        '[Game "mosona"]\n\nc6xa5 *\n'
    )
    path = tmp_path / "traps.zrec"
    path.write_text("\n".join([*games[:5], brace, *games[5:8], semicolon, *games[8:]]))
    whole = [_key(facts_of(r, "t")) for r in read_records(path, "t")]
    with open(path, "rb") as stream:
        pieces = [_key(f) for f in parallel_facts(stream, "t", 0, 2)]
    assert pieces == whole
    with open(path, "rb") as stream:
        starts = [data.split(b"\n", 1)[0] for _, data in cut(stream, games=1)]
    assert b'[Game "fake"]' not in starts
