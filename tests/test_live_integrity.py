"""Live play's changes whole or not at all, and its limits and seats as its users may
rely on them (zrec.archive.live, zrec.serve.live): each change that makes several
rows (a game and its study players' first moves, a seat taken and the moves after, a
broadcast and the moves it begins with, a round put online) is one transaction, so a
failure part-way leaves nothing behind; the games a user may play at once count the
seats they hold, not the boards an arbiter made for others; a seat named for another
user is only kept for them until they take it; and on PostgreSQL every change takes
its locks in one order.  On a real archive, SQLite and PostgreSQL (``ZREC_TEST_PG``);
a failure part-way is made by the database itself (a trigger refusing a row)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from test_live_api import bearer, error, make_users
from zrec.archive import Archive, live
from zrec.serve import create_app


def refuse(db: str, table: str, when: str) -> None:
    """Make the archive ``db`` refuse a new row of ``table`` where ``when`` holds of it
    (``NEW.``...): a trigger, so that a change fails part-way as a full disk or a
    broken connection would make it fail."""
    with Archive.open(db) as archive, archive.db.transaction():
        if archive.db.dialect == "sqlite":
            archive.db.execute(f"CREATE TRIGGER refuse_{table} BEFORE INSERT ON {table} "
                               f"WHEN {when} BEGIN SELECT RAISE(ABORT, 'refused by the "
                               "test'); END")
        else:
            archive.db.execute(f"CREATE FUNCTION refuse_{table}() RETURNS trigger "
                               "LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by "
                               "the test'; END $$")
            archive.db.execute(f"CREATE TRIGGER refuse_{table} BEFORE INSERT ON {table} "
                               f"FOR EACH ROW WHEN ({when}) EXECUTE FUNCTION "
                               f"refuse_{table}()")


def live_rows(db: str) -> tuple[int, int, int]:
    """The rows of live play's tables: games, seats, moves."""
    with Archive.open(db) as archive:
        return tuple(int(archive.db.value(f"SELECT count(*) FROM {table}"))  # type: ignore[return-value]
                     for table in ("live_games", "live_seats", "live_moves"))


def failed(answer: Any) -> bool:
    """Whether the answer is the archive's refusal of the row (the trigger's)."""
    status, code, message = error(answer)
    return (status, code) == (503, "archive-unavailable") and message.endswith(
        ": database error: refused by the test")


@pytest.fixture
def served(db_url: str) -> Iterator[tuple[TestClient, dict[str, str], str]]:
    tokens = make_users(db_url)
    with TestClient(create_app(db_url), raise_server_exceptions=False) as client:
        yield client, tokens, db_url


def test_a_game_whose_study_player_cannot_move_is_not_made(
        served: tuple[TestClient, dict[str, str], str]) -> None:
    """The game and its study player's first move are one change: the move refused,
    no game is left made (it was: a game whose first turn nobody would ever play)."""
    client, tokens, db = served
    refuse(db, "live_moves", "NEW.ply = 1")
    made = client.post("/api/live", json={"game": "mosona", "seats": {
        "White": "study:greedy", "Black": "Ada"}}, headers=bearer(tokens["Ada"]))
    assert failed(made)
    assert live_rows(db) == (0, 0, 0)
    assert client.get("/api/live").json() == []


def test_a_seat_taken_and_the_study_players_moves_after_are_one_change(
        served: tuple[TestClient, dict[str, str], str]) -> None:
    """The seat is not taken when the study player's move after it fails (it was
    taken, and the study player's turn was then never played)."""
    client, tokens, db = served
    gid = client.post("/api/live", json={"game": "mosona", "seats": {
        "White": "study:greedy", "Black": None}}, headers=bearer(tokens["Ada"])).json()["id"]
    refuse(db, "live_moves", "NEW.ply = 1")
    taken = client.post(f"/api/live/{gid}/seat", json={"seat": "Black"},
                        headers=bearer(tokens["Bob"]))
    assert failed(taken)
    assert client.get(f"/api/live/{gid}").json()["seats"] == {
        "White": "study:greedy", "Black": None}


def test_a_broadcast_whose_record_is_refused_leaves_no_game(
        served: tuple[TestClient, dict[str, str], str]) -> None:
    """A broadcast begun with a record whose third move is not legal is refused whole
    (its game was made, and left playing, before its moves were refused)."""
    client, tokens, db = served
    text = ('[Game "mosona"]\n[Event "Club"]\n[White "Gray, Gus"]\n[Black "Brown, Bea"]\n'
            '[Result "*"]\n\n1. a5-b5 c4xa5 2. a1-a2 *\n')
    assert error(client.post("/api/live/broadcast", json={"record": text},
                             headers=bearer(tokens["Ada"]))) == (
        400, "illegal-move", "move: a1-a2 is not legal at ply 3: a2 is not empty")
    assert live_rows(db) == (0, 0, 0)


def test_a_round_put_online_is_made_whole_or_not_at_all(db_url: str, tmp_path: Path
                                                        ) -> None:
    """The second board's game refused by the archive, the first board's is not left
    made (it was, and the round could then not be put online again whole)."""
    from test_serve_results import SWISS, swiss_round_5_begun
    from zrec.serve.accounts import add_user, new_token

    swiss_round_5_begun(db_url, tmp_path)
    with Archive.open(db_url) as archive:
        add_user(archive, "Eddie", "editor", "a good password 1")
        token = new_token(archive, "Eddie")
    refuse(db_url, "live_games", "NEW.round = '5.3'")
    with TestClient(create_app(db_url), raise_server_exceptions=False) as client:
        made = client.post(f"/api/events/{SWISS}/live", json={"round": 5},
                           headers=bearer(token))
        assert failed(made)
        assert live_rows(db_url) == (0, 0, 0)


def test_a_game_is_made_with_its_study_players_first_moves(db_url: str) -> None:
    """live.create plays the study players' first turns in its own transaction."""
    with Archive.open(db_url, create=True) as archive:
        gid = live.create(archive, "Ada", "mosona", {}, {"White": "study:greedy",
                                                         "Black": "Ada"})
        state = live.load(archive, gid)
        assert (len(state.moves), state.to_move(), state.version) == (1, "Black", 1)


def test_a_round_of_more_boards_than_a_user_plays_goes_online(
        db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The boards an arbiter puts online count for their players, not for the arbiter:
    a round of more boards than MAX_LIVE goes online whole (its last boards were
    refused, 429), and the arbiter may still make a game of their own."""
    from test_serve_results import SWISS, swiss_round_5_begun
    from zrec.serve.accounts import add_user, new_token

    monkeypatch.setattr(live, "MAX_LIVE", 2)  # (round 5 has 3 boards without a result)
    swiss_round_5_begun(db_url, tmp_path)
    with Archive.open(db_url) as archive:
        for name in ("Eddie", "Brown, Bea"):
            add_user(archive, name, "editor", "a good password 1")
        tokens = {name: new_token(archive, name) for name in ("Eddie", "Brown, Bea")}
    with TestClient(create_app(db_url)) as client:
        made = client.post(f"/api/events/{SWISS}/live", json={"round": 5},
                           headers=bearer(tokens["Eddie"]))
        assert made.status_code == 201, made.text
        assert [g["board"] for g in made.json()["games"]] == [2, 3, 4]
        for _ in range(2):
            mine = client.post("/api/live", json={"game": "mosona", "seats": {
                "White": "Eddie", "Black": None}}, headers=bearer(tokens["Eddie"]))
            assert mine.status_code == 201, mine.text
        assert error(client.post("/api/live", json={"game": "mosona", "seats": {
            "White": "Eddie", "Black": None}}, headers=bearer(tokens["Eddie"]))) == (
            429, "too-many-games", "Eddie already plays or made 2 live games that are not "
            "over: finish one first")
        # Brown, Bea plays board 2: it counts for her
        client.post("/api/live", json={"game": "mosona", "seats": {
            "White": "Brown, Bea", "Black": None}}, headers=bearer(tokens["Brown, Bea"]))
        assert error(client.post("/api/live", json={"game": "mosona", "seats": {
            "White": "Brown, Bea", "Black": None}}, headers=bearer(tokens["Brown, Bea"]))
        ) == (429, "too-many-games", "Brown, Bea already plays or made 2 live games that "
              "are not over: finish one first")


def test_a_seat_named_for_another_user_is_kept_for_them_until_they_take_it(
        served: tuple[TestClient, dict[str, str], str]) -> None:
    """Ada names Bob for Black: the seat is kept for Bob (anybody could be seated
    without being asked, and played for); the game begins once he takes it; the
    answer keeps its shape."""
    client, tokens, _ = served
    made = client.post("/api/live", json={"game": "mosona", "options": {}, "seats": {
        "White": "Ada", "Black": "Bob"}, "clock": None}, headers=bearer(tokens["Ada"]))
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    assert made.json() == {"id": gid, "seats": {
        "White": f"http://testserver/live/{gid}?seat=White",
        "Black": f"http://testserver/live/{gid}?seat=Black"}}
    now = client.get(f"/api/live/{gid}").json()
    assert (now["seats"], now["names"]) == ({"White": "Ada", "Black": None},
                                            {"White": "Ada", "Black": "Bob"})
    assert '<td class="live-player">open, kept for Bob</td>' in client.get(
        f"/live/{gid}?seat=Black").text
    assert error(client.post(f"/api/live/{gid}/move", json={"move": "a5-b5"},
                             headers=bearer(tokens["Ada"]))) == (
        409, "seats-open", f"live game #{gid} waits for players in the seats Black: no "
        "move before they are taken")
    assert error(client.post(f"/api/live/{gid}/move", json={"action": "resign"},
                             headers=bearer(tokens["Bob"]))) == (
        403, "not-your-seat", f"Bob plays no seat of live game #{gid}: only its players "
        "resign")
    assert error(client.post(f"/api/live/{gid}/seat", json={"seat": "Black"},
                             headers=bearer(tokens["Cy"]))) == (
        403, "not-your-seat", f"seat Black of live game #{gid} is kept for Bob")
    taken = client.post(f"/api/live/{gid}/seat", json={"seat": "Black"},
                        headers=bearer(tokens["Bob"]))
    assert taken.json()["seats"] == {"White": "Ada", "Black": "Bob"}
    played = client.post(f"/api/live/{gid}/move", json={"move": "a5-b5"},
                         headers=bearer(tokens["Ada"]))
    assert played.status_code == 200 and played.json()["ply"] == 1
    # Bob's own seat, named by himself, is his at once
    mine = client.post("/api/live", json={"game": "mosona", "seats": {
        "White": "Cy", "Black": "bob"}}, headers=bearer(tokens["Bob"])).json()["id"]
    assert client.get(f"/api/live/{mine}").json()["seats"] == {"White": None, "Black": "Bob"}
    page = client.get(f"/live/{gid}?seat=Black").text
    assert '<td class="live-player">Bob</td>' in page
    # a game Ada made for two others, that nobody began: hers to abort, and only hers
    others = client.post("/api/live", json={"game": "mosona", "seats": {
        "White": "Bob", "Black": "Cy"}}, headers=bearer(tokens["Ada"])).json()["id"]
    assert error(client.post(f"/api/live/{others}/move", json={"action": "abort"},
                             headers=bearer(tokens["Bob"]))) == (
        403, "not-your-seat", f"Bob plays no seat of live game #{others}: only its "
        "players abort")
    aborted = client.post(f"/api/live/{others}/move", json={"action": "abort"},
                          headers=bearer(tokens["Ada"]))
    assert (aborted.json()["status"], aborted.json()["termination"]) == ("over", "abandoned")


def test_a_seat_asked_for_and_a_game_ended_at_once_do_not_deadlock(pg_url: str) -> None:
    """PostgreSQL: Bob asks for his seat again (his page, opened twice) while Ada
    resigns, which stores the game under the import's lock.  The seat took the import's
    lock and then waited for the game's row, which the resignation held while it
    waited for the import's lock: a deadlock, one of the two failed ("deadlock
    detected").  Both now lock the row first.  An import holds the lock while the
    seat, then the resignation, queue for it, so that the order is the one that
    deadlocked."""
    import threading
    import time

    import psycopg

    with Archive.open(pg_url, create=True) as archive:
        gid = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": "Bob"},
                          seat_others=True)
        live.move(archive, gid, "Ada", "a5-b5")
    seat_archive, move_archive = Archive.open(pg_url), Archive.open(pg_url)
    failed: list[str] = []

    def run(change: Any, *args: Any) -> None:
        try:
            change(*args)
        except Exception as exc:  # (any failure is what the test looks for)
            failed.append(f"{type(exc).__name__}: {exc}")

    importing = psycopg.connect(pg_url)
    try:
        importing.execute("SELECT pg_advisory_xact_lock(7317)")
        seat = threading.Thread(target=run, args=(
            live.take_seat, seat_archive, gid, "Black", "Bob"))
        seat.start()
        time.sleep(0.5)
        resign = threading.Thread(target=run, args=(
            live.act, move_archive, gid, "Bob", "resign"))
        resign.start()
        time.sleep(0.5)
        importing.commit()  # (the import is done: the two queued go on)
        seat.join(30)
        resign.join(30)
    finally:
        importing.close()
        seat_archive.close()
        move_archive.close()
    assert failed == []
    with Archive.open(pg_url) as archive:
        state = live.load(archive, gid)
        assert (state.status, state.result, state.termination) == (
            "over", "1-0", "resignation")
        assert state.seats == {"White": "Ada", "Black": "Bob"} and state.stored is not None
