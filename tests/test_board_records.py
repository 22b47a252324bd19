"""The records the recording board sends (:mod:`zrec.serve.board_records`): prepared once
a request, kept within bounds (records, and nodes of each record), and shared safely by
requests answered in threads at once.  Real records of samples/, the real validator,
engines and drawing; the answers compared with those of a record prepared afresh.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from zrec.notation.reader import read_string
from zrec.play.board import BoardError, BoardRecord, board_at
from zrec.play.places import count_moves
from zrec.serve import board_records
from zrec.serve.board import position_json
from zrec.serve.board_records import KEPT_NODES, KEPT_RECORDS, RECORDS, KeptRecord, checked
from zrec.serve.problems import ApiError

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
#: a record of 154 moves (more than a kept record keeps nodes of)
LONG = (SAMPLES / "stone-warriors.zrec").read_text(encoding="utf-8")
SHORT = (SAMPLES / "mosona-open.zrec").read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    RECORDS.clear()
    yield
    RECORDS.clear()


def expected(text: str, at: int) -> dict[str, Any]:
    """The board's state at ``at`` of a record prepared afresh (nothing kept)."""
    game = next(r.game for r in read_string(text) if r.game is not None)
    return board_at(BoardRecord(game), at).to_json()


def test_a_position_is_prepared_once_a_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """``POST /api/position`` replays its record once: the drawing is made from the step
    the board found (``diagram_for_node`` replayed the record a second time)."""
    import zrec.play.board
    import zrec.render.diagram
    from zrec.play.replay import prepare

    made: list[str] = []

    def counted(game: Any) -> Any:
        made.append(game.tag_map().get("Game", "?"))
        return prepare(game)

    monkeypatch.setattr(zrec.play.board, "prepare", counted)
    monkeypatch.setattr(zrec.render.diagram, "prepare", counted)
    answer = position_json(SHORT.encode(), 7, None, None)
    assert made == ["mosona"]
    assert answer["at"] == 7 and answer["view"].startswith("<svg")
    # the same record again (the board's next click): kept, not prepared again
    again = position_json(SHORT.encode(), 8, None, None)
    assert made == ["mosona"] and again["at"] == 8


def test_the_drawing_is_the_one_zrec_diagram_node_draws() -> None:
    from zrec.render.diagram import diagram_for_node

    game = next(r.game for r in read_string(LONG) if r.game is not None)
    for at in (0, 1, 60, 154):
        assert position_json(LONG.encode(), at, None, None)["view"] == diagram_for_node(game, at)


def test_the_kept_records_are_bounded_in_records_and_in_nodes() -> None:
    total = count_moves(next(r.game for r in read_string(LONG) if r.game is not None).line)
    assert total == 154 > KEPT_NODES
    for at in range(total + 1):
        answer = position_json(LONG.encode(), at, None, None, drawn=False)
        assert {k: v for k, v in answer.items() if k != "view"} == expected(LONG, at)
    record = checked(LONG.encode())
    assert record.kept == KEPT_NODES  # (not 155 positions)
    assert (RECORDS.made, len(RECORDS)) == (1, 1)
    bodies = [SHORT.replace('[Round "?"]', f'[Round "{n}"]').encode() for n in range(40)]
    assert len(set(bodies)) == 40
    for body in bodies:
        checked(body)
    assert len(RECORDS) == KEPT_RECORDS
    assert RECORDS.made == 41
    checked(bodies[-1])  # the newest is kept; the oldest went first
    assert RECORDS.made == 41
    checked(LONG.encode())
    assert RECORDS.made == 42


def test_one_node_range_check_words_it_for_the_board() -> None:
    with pytest.raises(ApiError) as caught:
        position_json(SHORT.encode(), 37, None, None)
    assert (caught.value.status, caught.value.code, caught.value.message) == (
        400, "bad-node", "the record has 36 moves, variations included: the node must be 0 "
        "to 36, not 37")
    record = checked(SHORT.encode())
    with pytest.raises(BoardError, match="the node must be 0 to 36, not 37"):
        record.step(37)
    assert record.kept == 0  # (nothing kept for a node the record does not have)


def test_threads_asking_at_once_share_the_kept_records_safely() -> None:
    """Eight threads ask about random nodes of three records at once, with a record
    keeping 8 nodes (so that nodes are kept and dropped all the time): every answer is
    the one a record prepared afresh gives, and the bounds hold throughout."""
    texts = [LONG, SHORT, (SAMPLES / "mosona-bent.zrec").read_text(encoding="utf-8")]
    totals = [count_moves(next(r.game for r in read_string(t) if r.game).line) for t in texts]
    truth = {(i, at): expected(t, at) for i, t in enumerate(texts)
             for at in range(totals[i] + 1)}
    records = [KeptRecord(next(r.game for r in read_string(t) if r.game), most=8)
               for t in texts]
    wrong: list[str] = []
    seen_most = [0]
    start = threading.Barrier(8)

    def ask(seed: int) -> None:
        rng = random.Random(seed)
        start.wait()
        for _ in range(150):
            i = rng.randrange(len(texts))
            at = rng.randrange(totals[i] + 1)
            got = board_at(records[i], at).to_json()
            if got != truth[i, at]:
                wrong.append(f"record {i} node {at}")
            seen_most[0] = max(seen_most[0], records[i].kept)

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []
    assert seen_most[0] <= 8
    assert [r.kept for r in records] == [8, 8, 8]


def test_threads_asking_for_many_bodies_at_once_keep_at_most_the_bound() -> None:
    bodies = [SHORT.replace('[Round "?"]', f'[Round "{n}"]').encode() for n in range(60)]
    errors: list[BaseException] = []
    start = threading.Barrier(6)

    def ask(seed: int) -> None:
        rng = random.Random(seed)
        start.wait()
        try:
            for _ in range(40):
                body = rng.choice(bodies)
                assert position_json(body, 5, None, None, drawn=False)["at"] == 5
                assert len(RECORDS) <= KEPT_RECORDS
        except BaseException as exc:  # (reported by the test's thread)
            errors.append(exc)

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(RECORDS) == KEPT_RECORDS
    assert board_records.RECORDS is RECORDS
