"""The API of live play (zrec.serve.live): POST /api/live, its moves and actions, the
game's state, its stream, and the limits.  Against the real application on a real
archive (SQLite and PostgreSQL when ``ZREC_TEST_PG`` names a server), and against a
real ``zrec serve`` process for the stream."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from test_live_archive import CHAIN_GAME
from test_serve_auth import csrf_of, log_in
from zrec.archive import Archive
from zrec.serve import create_app
from zrec.serve.accounts import add_user, new_token

PASSWORD = "a good password 1"


def make_users(db: str) -> dict[str, str]:
    """Ada, Bob and Cy (editors), with an API token each."""
    with Archive.open(db, create=True) as archive:
        tokens = {}
        for name in ("Ada", "Bob", "Cy"):
            add_user(archive, name, "editor", PASSWORD)
            tokens[name] = new_token(archive, name)
    return tokens


@pytest.fixture
def served(db_url: str) -> Iterator[tuple[TestClient, dict[str, str]]]:
    tokens = make_users(db_url)
    with TestClient(create_app(db_url)) as client:
        yield client, tokens


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def error(answer: Any) -> tuple[int, str, str]:
    found = answer.json()["error"]
    return answer.status_code, found["code"], found["message"]


NEW = {"game": "mosona", "options": {}, "seats": {"White": "Ada", "Black": "Bob"},
       "clock": "300+2", "event": "Live Cup", "round": "1"}


def take(client: TestClient, tokens: dict[str, str], gid: int, seat: str = "Black",
         who: str = "Bob") -> None:
    """``who`` takes the seat kept for them (a seat named for a user other than the
    game's maker is theirs once they open its link)."""
    taken = client.post(f"/api/live/{gid}/seat", json={"seat": seat},
                        headers=bearer(tokens[who]))
    assert taken.status_code == 200, taken.text


def test_two_players_play_a_game_to_its_end_and_it_is_archived(
        served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    made = client.post("/api/live", json=NEW, headers=bearer(tokens["Ada"]))
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    assert made.json()["seats"] == {
        "White": f"http://testserver/live/{gid}?seat=White",
        "Black": f"http://testserver/live/{gid}?seat=Black"}
    take(client, tokens, gid)
    now = client.get(f"/api/live/{gid}").json()
    assert (now["to_move"], now["status"], now["result"]) == ("White", "playing", "*")
    for ply, move in enumerate(CHAIN_GAME):
        who = "Ada" if ply % 2 == 0 else "Bob"
        answer = client.post(f"/api/live/{gid}/move", json={"move": move},
                             headers=bearer(tokens[who]))
        assert answer.status_code == 200, answer.text
        time.sleep(0.12)  # (each user: 5 moves a second at most)
    over = client.get(f"/api/live/{gid}").json()
    assert (over["to_move"], over["status"], over["result"]) == (None, "over", "0-1")
    assert over["record"].endswith("8. a8-b8 c7xa8xc8 0-1\n")
    tags = dict(client.get(f"/api/games/{over['game_id']}").json()["tags"])
    assert (tags["Event"], tags["Round"], tags["White"], tags["Black"]) == (
        "Live Cup", "1", "Ada", "Bob")
    assert tags["TimeControl"] == "300+2" and tags["Date"] == time.strftime("%Y.%m.%d")
    standings = client.get("/api/events/Live%20Cup/standings").json()
    assert [(row["player"], row["points"]) for row in standings] == [("Bob", 1), ("Ada", 0)]
    assert error(client.post(f"/api/live/{gid}/move", json={"move": "a1-a2"},
                             headers=bearer(tokens["Ada"]))) == (
        409, "game-over", f"live game #{gid} is over (0-1, normal): no move is taken")


def test_who_may_move(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    gid = client.post("/api/live", json=NEW, headers=bearer(tokens["Ada"])).json()["id"]
    take(client, tokens, gid)
    assert error(client.post(f"/api/live/{gid}/move", json={"move": "a5-b5"})) == (
        401, "login-needed", "log in to play: anonymous visitors only read")
    assert error(client.post(f"/api/live/{gid}/move", json={"move": "a5-b5"},
                             headers=bearer(tokens["Cy"]))) == (
        403, "not-your-seat", f"Cy plays no seat of live game #{gid}: only its players move")
    assert error(client.post(f"/api/live/{gid}/move", json={"move": "a5-b5"},
                             headers=bearer(tokens["Bob"]))) == (
        409, "not-your-turn", f"it is White's turn in live game #{gid}, not Black's")
    assert error(client.post(f"/api/live/{gid}/move", json={"move": "a1-a2"},
                             headers=bearer(tokens["Ada"]))) == (
        400, "illegal-move", "move: a1-a2 is not legal at ply 1: a2 is not empty")
    assert error(client.post(f"/api/live/{gid}/move", json={"move": "a5-b5", "action": "x"},
                             headers=bearer(tokens["Ada"])))[:2] == (400, "bad-request")
    assert error(client.post("/api/live/99/move", json={"action": "resign"},
                             headers=bearer(tokens["Ada"]))) == (
        404, "not-found", "there is no live game #99")


def test_a_logged_in_user_needs_the_csrf_token(served: tuple[TestClient, dict[str, str]]
                                               ) -> None:
    client, _ = served
    assert log_in(client, "Ada", PASSWORD) == 303
    assert error(client.post("/api/live", json=NEW)) == (
        403, "csrf", "the form's CSRF token is missing or wrong: load the page again and "
        "send it again")
    token = csrf_of(client.get("/live").text)
    made = client.post("/api/live", json=NEW, headers={"X-CSRF-Token": token})
    assert made.status_code == 201
    gid = made.json()["id"]
    page = client.get(f"/live/{gid}?seat=White").text
    assert 'data-user="Ada"' in page and "Resign" in page


def test_open_seats_are_taken_by_whoever_opens_their_link(
        served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    gid = client.post("/api/live", json={**NEW, "seats": {"White": "Ada", "Black": None}},
                      headers=bearer(tokens["Ada"])).json()["id"]
    assert error(client.post(f"/api/live/{gid}/seat", json={"seat": "Black"})) [:2] == (
        401, "login-needed")
    taken = client.post(f"/api/live/{gid}/seat", json={"seat": "Black"},
                        headers=bearer(tokens["Cy"]))
    assert taken.json()["seats"] == {"White": "Ada", "Black": "Cy"}
    assert error(client.post(f"/api/live/{gid}/seat", json={"seat": "Black"},
                             headers=bearer(tokens["Bob"]))) == (
        409, "seat-taken", f"seat Black of live game #{gid} is taken by Cy")


def test_a_study_player_takes_a_seat(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    made = client.post("/api/live", json={**NEW, "seats": {
        "White": "study:greedy", "Black": "Ada"}}, headers=bearer(tokens["Ada"]))
    gid = made.json()["id"]
    now = client.get(f"/api/live/{gid}").json()
    assert now["ply"] == 1 and now["to_move"] == "Black"  # (the study player moved)
    assert now["seats"] == {"White": "study:greedy", "Black": "Ada"}
    assert error(client.post("/api/live", json={**NEW, "seats": {
        "White": "study:mcts:5000", "Black": "Ada"}}, headers=bearer(tokens["Ada"]))) == (
        400, "bad-seats", "seats.White: player mcts:5000: over the web, mcts searches with a "
        "budget of at most 1000 (playouts); zrec play takes more")
    # study players alone would play the whole game in the request, under the archive's
    # write lock (with free captures, a random game may never end): refused, no game made
    before = client.get("/api/live").json()
    assert error(client.post("/api/live", json={**NEW, "seats": {
        "White": "study:random", "Black": "study:greedy"}}, headers=bearer(tokens["Ada"]))) == (
        400, "bad-seats", "seats: a live game needs a person's seat (a user, or an open "
        "seat): study players alone play with zrec study")
    assert client.get("/api/live").json() == before


def test_bad_games_are_refused_in_words(served: tuple[TestClient, dict[str, str]]) -> None:
    client, tokens = served
    ada = bearer(tokens["Ada"])
    assert error(client.post("/api/live", json={**NEW, "seats": {"White": "Nobody",
                                                                 "Black": None}},
                             headers=ada)) == (
        400, "bad-seats", "seats.White: there is no user 'Nobody' on this server")
    assert error(client.post("/api/live", json={**NEW, "clock": "soon"}, headers=ada)) == (
        400, "bad-clock", "clock: 'soon' is not a time control written SECONDS or "
        "SECONDS+INCREMENT (as 300+5)")
    assert error(client.post("/api/live", json={"game": "mosona"}, headers=ada)) == (
        400, "bad-request", "body.seats: Field required")
    big = {**NEW, "event": "x" * 150, "round": "1", "options": {f"T{i}": "v" * 200
                                                               for i in range(20)}}
    assert error(client.post("/api/live", json=big, headers=ada))[:2] == (413, "too-large")


def test_moves_per_second_are_bounded(served: tuple[TestClient, dict[str, str]],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from zrec.serve import live

    client, tokens = served
    monkeypatch.setattr(live, "MOVES_PER_SECOND", 2)
    gid = client.post("/api/live", json=NEW, headers=bearer(tokens["Ada"])).json()["id"]
    codes = [client.post(f"/api/live/{gid}/move", json={"action": "draw-offer"},
                         headers=bearer(tokens["Ada"])).status_code for _ in range(3)]
    assert codes == [200, 200, 429]


def read_events(url: str, count: int, found: list[tuple[float, str, str, dict[str, Any]]],
                last: str | None = None) -> None:
    """The first ``count`` events of a stream, each with when it came."""
    request = urllib.request.Request(url, headers={"Last-Event-ID": last} if last else {})
    with urllib.request.urlopen(request, timeout=20) as answer:
        ident, kind = "", ""
        for raw in answer:
            line = raw.decode().rstrip("\n")
            if line.startswith("id: "):
                ident = line[4:]
            elif line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                found.append((time.monotonic(), kind, ident, json.loads(line[6:])))
                if len(found) >= count:
                    return


def test_the_stream_pushes_each_move_and_resumes_after_the_last_event_id(
        tmp_path: Path) -> None:
    from serving import served as serving

    db = str(tmp_path / "archive.sqlite")
    tokens = make_users(db)
    with serving(tmp_path, db) as url:
        def post(path: str, body: dict[str, Any], who: str) -> Any:
            request = urllib.request.Request(url + path, json.dumps(body).encode(), {
                "Content-Type": "application/json", **bearer(tokens[who])})
            with urllib.request.urlopen(request, timeout=20) as answer:
                return json.loads(answer.read())

        gid = post("/api/live", NEW, "Ada")["id"]
        post(f"/api/live/{gid}/seat", {"seat": "Black"}, "Bob")
        found: list[tuple[float, str, str, dict[str, Any]]] = []
        # the first state, then for each of 4 moves: the move and the state after
        reader = threading.Thread(target=read_events,
                                  args=(f"{url}/api/live/{gid}/stream", 9, found))
        reader.start()
        time.sleep(0.5)
        sent = []
        for ply, move in enumerate(CHAIN_GAME[:4]):
            sent.append(time.monotonic())
            post(f"/api/live/{gid}/move", {"move": move}, "Ada" if ply % 2 == 0 else "Bob")
            time.sleep(0.3)
        reader.join(20)
        moves = [(kind, ident, data["move"], at) for at, kind, ident, data in found
                 if kind == "move"]
        assert [m[:3] for m in moves] == [("move", str(i + 1), CHAIN_GAME[i], )
                                          for i in range(4)]
        assert all(at - sent[i] < 1.0 for i, (_, _, _, at) in enumerate(moves))
        assert found[-1][1] == "state" and found[-1][3]["ply"] == 4
        again: list[tuple[float, str, str, dict[str, Any]]] = []
        read_events(f"{url}/api/live/{gid}/stream", 2, again, last="2")
        assert [(kind, ident, data["move"]) for _, kind, ident, data in again] == [
            ("move", "3", CHAIN_GAME[2]), ("move", "4", CHAIN_GAME[3])]


def test_a_stream_outlives_the_pause_a_request_body_may_take() -> None:
    """The body limits (zrec.serve.app.Guard) time the body, not the wait for the
    client to leave that a streaming answer makes: a stream open longer than the body's
    pause limit was cut (ERR_INCOMPLETE_CHUNKED_ENCODING in the browser)."""
    import asyncio

    from zrec.serve.app import Guard

    sent: list[dict[str, Any]] = []

    async def streaming(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "http.request"
        listening = asyncio.ensure_future(receive())  # (as Starlette's stream listens)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        for _ in range(3):
            await asyncio.sleep(0.2)
            assert not listening.done(), listening.exception()
            await send({"type": "http.response.body", "body": b"x", "more_body": True})
        listening.cancel()
        await send({"type": "http.response.body", "body": b""})

    async def run() -> None:
        left = asyncio.Event()
        messages = [{"type": "http.request", "body": b"", "more_body": False}]

        async def receive() -> dict[str, Any]:
            if messages:
                return messages.pop()
            await left.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await Guard(streaming, timeout=0.1)({"type": "http", "headers": []}, receive, send)

    asyncio.run(run())
    assert [m.get("body") for m in sent] == [None, b"x", b"x", b"x", b""]


def test_no_seat_sees_a_hidden_herd_while_the_game_is_played(
        served: tuple[TestClient, dict[str, str]]) -> None:
    import re

    client, tokens = served
    gid = client.post("/api/live", json={"game": "awethi", "seats": {
        "Shepherd1": "Ada", "Wolves": "Bob"}}, headers=bearer(tokens["Ada"])).json()["id"]
    take(client, tokens, gid, "Wolves")
    now = client.get(f"/api/live/{gid}").json()
    assert "Herd1" not in now["record"] and now["roll"] is not None
    board = client.get(f"/api/live/{gid}/position").json()
    assert board["to_move"] == "Shepherd1" and board["legal"][0]["move"].endswith(": H")
    named = set(re.findall(r'data-piece="([^"]*)"', board["view"]))
    assert named == {"S1", "X"}  # (the herd's animals face down, unnamed)
    played = client.post(f"/api/live/{gid}/move", json={"move": "H"},
                         headers=bearer(tokens["Ada"])).json()
    assert played["moves"] == [f"{now['roll'][0]}: H"]
    after = set(re.findall(r'data-piece="([^"]*)"',
                           client.get(f"/api/live/{gid}/position").json()["view"]))
    assert after > {"S1", "X"} and len(after) > 2  # (the herd turned face up: named)
    client.post(f"/api/live/{gid}/move", json={"action": "resign"},
                headers=bearer(tokens["Bob"]))
    assert "Herd1" in client.get(f"/api/live/{gid}").json()["record"]  # (over: all)


def test_a_paired_round_is_played_online_and_its_results_flow_into_the_round(
        db_url: str, tmp_path: Path) -> None:
    from test_serve_results import SWISS, swiss_round_5_begun

    swiss_round_5_begun(db_url, tmp_path)
    with Archive.open(db_url) as archive:
        add_user(archive, "Eddie", "editor", PASSWORD)
        add_user(archive, "Brown, Bea", "editor", PASSWORD)
        add_user(archive, "gray, gus", "editor", PASSWORD)
        add_user(archive, "Cy", "editor", PASSWORD)
        tokens = {name: new_token(archive, name) for name in ("Eddie", "Brown, Bea",
                                                              "gray, gus", "Cy")}
    with TestClient(create_app(db_url)) as client:
        assert error(client.post(f"/api/events/{SWISS}/live", json={"round": 4},
                                 headers=bearer(tokens["Eddie"]))) == (
            400, "bad-round", f"round: {SWISS} has no board of round 4 without a result "
            "(zrec archive pair pairs a round)")
        made = client.post(f"/api/events/{SWISS}/live", json={"round": 5, "clock": "900"},
                           headers=bearer(tokens["Eddie"]))
        assert made.status_code == 201, made.text
        games = made.json()["games"]
        assert [(g["board"], g["players"]) for g in games] == [
            (2, {"White": "Brown, Bea", "Black": "gray, gus"}),
            (3, {"White": None, "Black": None}), (4, {"White": None, "Black": None})]
        again = client.post(f"/api/events/{SWISS}/live", json={"round": 5},
                            headers=bearer(tokens["Eddie"]))
        assert again.json()["games"] == []  # (each board has its live game already)
        gid, open_game = games[0]["id"], games[1]["id"]
        assert error(client.post(f"/api/live/{open_game}/seat", json={"seat": "White"},
                                 headers=bearer(tokens["Cy"]))) == (
            403, "not-your-seat", f"seat White of live game #{open_game} is kept for "
            "Fox, Fay")
        page = client.get(f"/events/{SWISS}").text
        live_now = page.split("<h2>Live now</h2>")[1].split("</section>")[0]
        assert live_now.count('<a href="/live/') == 3 and "5.2" in live_now
        state = client.post(f"/api/live/{gid}/move", json={"move": "a5-b5"},
                            headers=bearer(tokens["Brown, Bea"])).json()
        assert state["record"].splitlines()[4:8] == [
            '[Round "5.2"]', '[White "Brown, Bea"]', '[Black "Gray, Gus"]',
            '[Result "*"]']
        over = client.post(f"/api/live/{gid}/move", json={"action": "resign"},
                           headers=bearer(tokens["gray, gus"])).json()
        assert (over["result"], over["termination"]) == ("1-0", "resignation")
        page = client.get(f"/events/{SWISS}").text
        assert "<h3>Round 5 (2 of 4 games in; 2 pending)</h3>" in page
        assert page.split("<h2>Live now</h2>")[1].split("</section>")[0].count(
            '<a href="/live/') == 2


def test_a_stream_takes_what_its_process_wrote_only_while_it_is_the_newest(
        tmp_path: Path) -> None:
    """The hub hands a change this process made to the game's streams
    (zrec.serve.live.Hub.publish), so that they do not read it back; a stream takes it
    only when it is newer than what it has, and reads the archive when another process
    announced a newer version (NOTIFY) or for a game whose streams all left."""
    import asyncio
    import dataclasses

    from zrec.archive import live
    from zrec.serve.live import Hub

    with Archive.open(str(tmp_path / "a.sqlite"), create=True) as archive:
        gid = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": "Bob"},
                          seat_others=True)
        state = live.move(archive, gid, "Ada", "a5-b5")
    hub, woken = Hub(), asyncio.Event()
    hub.waiting[gid].add(woken)
    assert state.version == 1
    hub.publish(gid, state, {"version": 1})
    assert woken.is_set()
    assert hub.fresh(gid, 0) == (state, {"version": 1})
    assert hub.fresh(gid, 1) is None  # (not newer than what the stream has)
    older = dataclasses.replace(state, version=0)
    hub.publish(gid, older, {"version": 0})  # (an older change published late: not kept)
    assert hub.fresh(gid, 0) == (state, {"version": 1})
    woken.clear()
    hub.heard_from(gid, 1)  # (this process's own NOTIFY: nothing newer, nobody woken)
    assert hub.fresh(gid, 0) == (state, {"version": 1}) and not woken.is_set()
    hub.heard_from(gid, 2)  # (another process made version 2: read the archive)
    assert hub.fresh(gid, 0) is None and woken.is_set()
    hub.heard_from(gid, None)  # (a note without a version: read the archive)
    assert hub.fresh(gid, 0) is None
    hub.leave(gid, woken)
    assert (hub.latest, hub.heard, dict(hub.waiting)) == ({}, {}, {})
    hub.publish(gid, state, {"version": 1})  # (nobody follows it: nothing kept)
    assert hub.latest == {}


def test_an_anonymous_client_follows_a_few_games_at_once(tmp_path: Path) -> None:
    """A few anonymous clients cannot take every stream of a process and leave the
    players none: one address has at most STREAMS_PER_CLIENT streams open (429 in words
    beyond, a closed one freeing its place); a logged-in user is not held to it."""
    import socket
    from urllib.parse import urlsplit

    from serving import served as serving
    from zrec.serve.live import STREAMS_PER_CLIENT

    db = str(tmp_path / "archive.sqlite")
    tokens = make_users(db)
    with serving(tmp_path, db) as url:
        request = urllib.request.Request(url + "/api/live", json.dumps(NEW).encode(), {
            "Content-Type": "application/json", **bearer(tokens["Ada"])})
        with urllib.request.urlopen(request, timeout=20) as answer:
            gid = json.loads(answer.read())["id"]
        where = urlsplit(url)

        def opened(headers: str = "") -> tuple[socket.socket, str]:
            sock = socket.create_connection((where.hostname, where.port or 80), timeout=20)
            sock.sendall(f"GET /api/live/{gid}/stream HTTP/1.1\r\nHost: x\r\n{headers}"
                         "\r\n".encode())
            head = b""
            while b"\r\n\r\n" not in head:
                head += sock.recv(4096)
            return sock, head.decode("latin-1")

        streams = [opened() for _ in range(STREAMS_PER_CLIENT)]
        assert all(head.startswith("HTTP/1.1 200") for _, head in streams)
        refused, head = opened()
        assert head.startswith("HTTP/1.1 429"), head
        assert "Retry-After: 5" in head.replace("retry-after", "Retry-After")
        assert (f"this client follows {STREAMS_PER_CLIENT} live games at once already: "
                "close one first") in head + refused.recv(4096).decode()
        refused.close()
        logged_in, head = opened(f"Authorization: Bearer {tokens['Bob']}\r\n")
        assert head.startswith("HTTP/1.1 200"), head  # (a user is answerable)
        streams[0][0].close()
        deadline = time.monotonic() + 10
        while True:  # the server sees the stream closed, and frees its place
            again, head = opened()
            again.close()
            if head.startswith("HTTP/1.1 200") or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert head.startswith("HTTP/1.1 200"), head
        for sock, _ in streams[1:]:
            sock.close()
        logged_in.close()
