"""Broadcasts: a game recorded on the recording board by an arbiter, followed live
(zrec.serve.live: ``POST /api/live/broadcast`` and ``POST /api/live/{id}/record``),
against the real application on a real archive."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from test_live_api import bearer, error, make_users
from test_live_archive import CHAIN_GAME
from zrec.serve import create_app

try:  # (the browser test: Chromium, and the recording board's server with Eddie)
    from playwright.sync_api import Page

    from test_board_browser import page, server  # noqa: F401
except pytest.skip.Exception:  # pragma: no cover - no Chromium
    Page = object  # type: ignore[assignment,misc]


def record(moves: list[str], result: str = "*", termination: str | None = None,
           players: tuple[str, str] = ("Gray, Gus", "Brown, Bea"),
           event: str = "Club broadcast") -> str:
    """A record as the recording board sends it."""
    text = "".join(f"{i // 2 + 1}. {m} " if i % 2 == 0 else f"{m} "
                   for i, m in enumerate(moves))
    return (f'[Game "mosona"]\n[Event "{event}"]\n[Round "3"]\n'
            f'[White "{players[0]}"]\n[Black "{players[1]}"]\n[Result "{result}"]\n'
            + (f'[Termination "{termination}"]\n' if termination else "") + "\n"
            f"{text}{result}\n")


@pytest.fixture
def client(db_url: str) -> Iterator[tuple[TestClient, dict[str, str]]]:
    tokens = make_users(db_url)
    with TestClient(create_app(db_url)) as made:
        yield made, tokens


def test_an_arbiter_broadcasts_a_recorded_game_to_its_end(
        client: tuple[TestClient, dict[str, str]]) -> None:
    web, tokens = client
    ada = bearer(tokens["Ada"])
    assert error(web.post("/api/live/broadcast", json={"record": record([])})) == (
        401, "login-needed", error(web.post("/api/live/broadcast", json={
            "record": record([])}))[2])
    made = web.post("/api/live/broadcast", json={"record": record(CHAIN_GAME[:2])},
                    headers=ada)
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    assert made.json()["url"] == f"http://testserver/live/{gid}"
    listed = web.get("/api/live").json()
    assert [(g["id"], g["event"], g["round"], g["ply"]) for g in listed] == [
        (gid, "Club broadcast", "3", 2)]
    now = web.get(f"/api/live/{gid}").json()
    assert (now["moves"], now["names"], now["status"]) == (
        CHAIN_GAME[:2], {"White": "Gray, Gus", "Black": "Brown, Bea"}, "playing")
    # each move recorded on the board is broadcast
    for ply in range(3, 9):
        time.sleep(0.21)  # (5 writes a second at most)
        answer = web.post(f"/api/live/{gid}/record",
                          json={"record": record(CHAIN_GAME[:ply])}, headers=ada)
        assert answer.status_code == 200, answer.text
        assert answer.json()["moves"] == CHAIN_GAME[:ply]
    # only the arbiter records it; moves broadcast are not changed
    bob = web.post(f"/api/live/{gid}/record", json={"record": record(CHAIN_GAME[:9])},
                   headers=bearer(tokens["Bob"]))
    assert error(bob) == (403, "not-your-seat", f"live game #{gid} is not a broadcast "
                          "of Bob's: only its arbiter records it")
    assert error(web.post(f"/api/live/{gid}/record", json={"record": record([])})
                 )[:2] == (401, "login-needed")
    time.sleep(0.21)
    changed = web.post(f"/api/live/{gid}/record", json={
        "record": record(["a5-b5x", *CHAIN_GAME[1:9]])}, headers=ada)
    assert changed.status_code in (400, 409), changed.text
    time.sleep(0.21)
    back = web.post(f"/api/live/{gid}/record", json={"record": record(CHAIN_GAME[:5])},
                    headers=ada)
    assert error(back) == (409, "record-changed", "record: 5 moves, but the broadcast "
                           "has 8: moves already broadcast are not taken back")
    # a result the rules do not give needs its Termination
    time.sleep(0.21)
    wrong = web.post(f"/api/live/{gid}/record",
                     json={"record": record(CHAIN_GAME[:10], "1-0")}, headers=ada)
    assert error(wrong) == (400, "bad-result", "record: the result 1-0 is not the rules' "
                            "(the game is not over after 10 moves): write how it ended in a "
                            "Termination tag (resignation, agreement, adjudication...)")
    assert web.get(f"/api/live/{gid}").json()["ply"] == 8  # (nothing half-written)
    # the arbiter writes the result: the game is over and stored like an import
    time.sleep(0.21)
    done = web.post(f"/api/live/{gid}/record", json={
        "record": record(CHAIN_GAME[:10], "1-0", "resignation")}, headers=ada)
    assert done.status_code == 200, done.text
    over = done.json()
    assert (over["status"], over["result"], over["termination"]) == (
        "over", "1-0", "resignation")
    stored = web.get(f"/api/games/{over['game_id']}")
    assert stored.status_code == 200, (over, stored.text)
    tags = dict(stored.json()["tags"])
    assert (tags["Event"], tags["Round"], tags["White"], tags["Black"], tags["Result"]) == (
        "Club broadcast", "3", "Gray, Gus", "Brown, Bea", "1-0")
    assert web.get("/api/live").json() == []
    time.sleep(0.21)
    late = web.post(f"/api/live/{gid}/record",
                    json={"record": record(CHAIN_GAME[:10], "1-0", "resignation")},
                    headers=ada)
    assert error(late) == (409, "game-over", f"live game #{gid} is over (1-0): no move "
                           "is taken")


def test_a_game_recorded_on_the_board_is_followed_live_in_chromium(
        server: tuple[str, Path], page: Page, shots: Path) -> None:
    """Eddie (an editor, the arbiter) records a Mosona game on the recording board and
    broadcasts it; an anonymous context follows it on /live and sees each move within
    a second; the game that ends by rule is in the archive."""
    import test_board_browser as board

    url, _ = server
    watch_context = page.context.browser.new_context(  # type: ignore[union-attr]
        viewport={"width": 1200, "height": 900})
    watcher = watch_context.new_page()
    errors: list[str] = []
    watcher.on("pageerror", lambda exc: errors.append(str(exc)))
    watcher.goto(url + "/board")
    assert watcher.locator("#board-broadcast").count() == 0  # (anonymous: watches only)
    board.log_in(page, url, "/board")
    board.open_record(page, url, record([]))
    page.click("#board-broadcast")
    page.wait_for_selector("#board-broadcast-state a")
    gid = int((page.locator("#board-broadcast-state a").get_attribute("href") or "")
              .rsplit("/", 1)[1])
    watcher.goto(url + "/live")
    row = watcher.locator(f"tr[data-live='{gid}'] td").all_inner_texts()
    assert row[:4] == [str(gid), "mosona", "3",
                       "White: Gray, Gus, Black: Brown, Bea (broadcast)"]
    watcher.goto(f"{url}/live/{gid}")
    watcher.wait_for_selector("#live-turn:text-is('White to move')")
    assert watcher.locator("#live-actions").is_hidden()
    delays = []
    for ply, move in enumerate(CHAIN_GAME, 1):
        board.enter(page, board.clicks_of(url, page, move))
        moved = time.monotonic()
        watcher.wait_for_selector(f"#live-moves li:nth-child({ply})", timeout=5000)
        delays.append(time.monotonic() - moved)
        assert watcher.locator(f"#live-moves li:nth-child({ply})").inner_text() == move
        if ply == 6:
            page.screenshot(path=shots / "broadcast-board.png", full_page=True)
            watcher.screenshot(path=shots / "broadcast-watching.png", full_page=True)
    assert max(delays) < 1.0, delays
    watcher.wait_for_selector("#live-turn:text-is('The game is over: 0-1 (normal)')")
    page.wait_for_selector("#board-broadcast-state:has-text('stored as game #')")
    stored = watcher.locator("#live-stored a").get_attribute("href") or ""
    with urllib.request.urlopen(url + "/api/games/" + stored.rsplit("/", 1)[1]) as answer:
        tags = dict(json.loads(answer.read())["tags"])
    assert (tags["Event"], tags["Round"], tags["White"], tags["Black"], tags["Result"]) == (
        "Club broadcast", "3", "Gray, Gus", "Brown, Bea", "0-1")
    page.screenshot(path=shots / "broadcast-board-over.png", full_page=True)
    watch_context.close()
    assert errors == [], errors


def test_a_broadcast_with_dice_takes_the_dice_of_the_record(tmp_path: Path) -> None:
    """The dice of a game on a real board are the record's, not the server's; the
    herds' orders are not shown while it is followed."""
    import random

    from zrec.archive import Archive
    from zrec.archive import live as store
    from zrec.play.live import LiveGame, live_tags

    with Archive.open(str(tmp_path / "a.sqlite"), create=True) as archive:
        tags = live_tags("awethi", {}, ["Shepherd1", "Wolves"],
                         {"Shepherd1": "Ann", "Wolves": "Wil"}, None, random.Random(1),
                         [("Event", "Dice broadcast")])
        game = LiveGame(tags)
        game.play("3: H", (3,))
        gid = store.broadcast(archive, "Eddie", game.record())
        state = store.load(archive, gid)
        assert ([m for _, m, _ in state.moves], state.roll) == (["3: H"], None)
        assert "[Herd1" not in state.to_json()["record"]
        assert "[Herd1" in state.record()


def test_a_broadcast_takes_no_move_nor_action_from_its_seats(
        client: tuple[TestClient, dict[str, str]]) -> None:
    """A broadcast is marked as one: its moves and its end come only from the
    arbiter's record; its page and the list name the record's players."""
    web, tokens = client
    ada = bearer(tokens["Ada"])
    gid = web.post("/api/live/broadcast", json={"record": record(CHAIN_GAME[:2])},
                   headers=ada).json()["id"]
    said = (409, "broadcast", f"live game #{gid} is a broadcast of a recorded game: its "
            "moves come from the recording board")
    assert error(web.post(f"/api/live/{gid}/move", json={"move": CHAIN_GAME[2]},
                          headers=ada)) == said
    for action in ("resign", "draw-offer", "draw-accept", "abort"):
        time.sleep(0.3)  # (5 writes a second at most)
        assert error(web.post(f"/api/live/{gid}/move", json={"action": action},
                              headers=ada)) == said, action
    assert error(web.post(f"/api/live/{gid}/seat", json={"seat": "White"},
                          headers=bearer(tokens["Bob"]))) == said
    now = web.get(f"/api/live/{gid}").json()
    assert (now["broadcast"], now["ply"], now["status"], now["draw_offer"]) == (
        True, 2, "playing", None)
    page = web.get(f"/live/{gid}").text
    assert ('<tr data-seat="White"><th>White</th><td class="live-player">Gray, Gus</td>'
            '</tr>') in page
    assert ('<tr data-seat="Black"><th>Black</th><td class="live-player">Brown, Bea</td>'
            '</tr>') in page
    assert "broadcast from the recording board by Ada" in page
    assert (page.count("data-action="), page.count("?seat="), page.count(
        '<td class="live-player">Ada</td>')) == (0, 0, 0)
    assert "White: Gray, Gus, Black: Brown, Bea (broadcast)" in web.get("/live").text
    # its moves still come from the record
    time.sleep(0.21)
    answer = web.post(f"/api/live/{gid}/record", json={"record": record(CHAIN_GAME[:3])},
                      headers=ada)
    assert (answer.status_code, answer.json()["ply"]) == (200, 3), answer.text


def test_a_game_whose_maker_holds_every_seat_is_not_a_broadcast(
        client: tuple[TestClient, dict[str, str]]) -> None:
    """Ada seats herself in both seats of an ordinary game: it is played by moves, not
    by records, and its page offers the moves and actions of a game."""
    web, tokens = client
    ada = bearer(tokens["Ada"])
    made = web.post("/api/live", json={"game": "mosona", "options": {}, "seats": {
        "White": "Ada", "Black": "Ada"}, "clock": None}, headers=ada)
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    assert web.post(f"/api/live/{gid}/move", json={"move": CHAIN_GAME[0]},
                    headers=ada).status_code == 200
    now = web.get(f"/api/live/{gid}").json()
    assert (now["broadcast"], now["ply"]) == (False, 1)
    sent = now["record"].replace(" *\n", f" {CHAIN_GAME[1]} *\n")
    assert sent != now["record"]
    time.sleep(0.21)
    assert error(web.post(f"/api/live/{gid}/record", json={"record": sent}, headers=ada)
                 ) == (409, "not-a-broadcast", f"live game #{gid} is not a broadcast of a "
                       "recorded game: its moves are sent by its players (POST "
                       f"/api/live/{gid}/move)")
    assert web.get(f"/api/live/{gid}").json()["ply"] == 1
    page = web.get(f"/live/{gid}").text
    assert 'data-action="resign"' in page and f"/live/{gid}?seat=Black" in page
    assert "(broadcast)" not in web.get("/live").text


def long_game(plies: int) -> list[str]:
    """The moves of a Mosona game of random moves (the first seed whose game is not
    over after ``plies`` plies)."""
    import random

    from zrec.play.live import LiveGame, live_tags
    from zrec.research.study import seat_players

    for seed in range(100):
        rng = random.Random(seed)
        game = LiveGame(live_tags("mosona", {}, ["White", "Black"], {}, None, rng, []))
        choose = seat_players(game.engine, ("random",))[0]
        moves: list[str] = []
        while len(moves) < plies and game.outcome() is None:
            chosen = choose(game.engine, game.position, None, rng)
            if chosen is None:
                break
            moves.append(game.play_chosen(chosen))
        if len(moves) == plies and game.outcome() is None:
            return moves
    raise AssertionError(f"no random game of {plies} plies")


def test_a_long_broadcast_is_followed_from_its_event_page_in_chromium(
        server: tuple[str, Path], page: Page, shots: Path) -> None:
    """A broadcast whose Event tag names a stored event is under the event's Live now,
    with the record's players; its page names them, offers nobody a move or an action
    (its arbiter neither), and lays out its 60 moves without overlap, the latest in
    sight."""
    import urllib.parse

    import test_board_browser as board

    url, folder = server
    token = board.zrec(folder, "archive", "users", "token", "Eddie", "--db",
                       "a.sqlite").strip()
    moves = long_game(61)

    def send(path: str, plies: int) -> dict[str, object]:
        sent = record(moves[:plies], players=("Dunn, Dov", "Adams, Ada"), event=board.EVENT)
        asked = urllib.request.Request(
            url + path, json.dumps({"record": sent}).encode(),
            {"Content-Type": "application/json", **bearer(token)})
        with urllib.request.urlopen(asked, timeout=30) as answer:
            found: dict[str, object] = json.loads(answer.read())
        return found

    gid = send("/api/live/broadcast", 60)["id"]
    watch_context = page.context.browser.new_context(  # type: ignore[union-attr]
        viewport={"width": 1200, "height": 900})
    watcher = watch_context.new_page()
    errors: list[str] = []
    watcher.on("pageerror", lambda exc: errors.append(str(exc)))
    watcher.goto(url + "/events/" + urllib.parse.quote(board.EVENT))
    row = watcher.locator(f".live-now tr[data-live='{gid}'] td").all_inner_texts()
    assert row[:5] == [str(gid), "mosona", "3",
                       "White: Dunn, Dov, Black: Adams, Ada (broadcast)", "60"]
    watcher.locator(".live-now").screenshot(path=shots / "broadcast-event-live-now.png")
    watcher.click(f".live-now tr[data-live='{gid}'] a")
    watcher.wait_for_url(f"**/live/{gid}")
    watcher.wait_for_selector("#live-moves li:nth-child(60)")
    watcher.wait_for_selector("#live-view svg")
    assert watcher.eval_on_selector_all(
        "#live-seats tr", "rows => rows.map(r => Array.from(r.cells, c => c.textContent))"
    ) == [["White", "Dunn, Dov"], ["Black", "Adams, Ada"]]
    assert (watcher.locator("#live-seats a").count(),
            watcher.locator("#live-actions").count()) == (0, 0)
    layout = watcher.eval_on_selector("#live-moves", """list => {
      const box = list.getBoundingClientRect();
      const cells = Array.from(list.children, li => li.getBoundingClientRect());
      const last = cells[cells.length - 1];
      return {wider: list.scrollWidth - list.clientWidth,
              outside: cells.filter(r => r.left < box.left || r.right > box.right).length,
              overlapping: cells.filter((r, i) => cells.some((o, j) => j !== i
                && r.left < o.right && o.left < r.right && r.top < o.bottom
                && o.top < r.bottom)).length,
              latest: last.top >= box.top && last.bottom <= box.bottom};
    }""")
    assert layout == {"wider": 0, "outside": 0, "overlapping": 0, "latest": True}
    watcher.screenshot(path=shots / "broadcast-long.png", full_page=True)
    # its arbiter, logged in, follows it too: no click of a move, no action
    board.log_in(page, url, f"/live/{gid}")
    page.wait_for_selector("#live-view svg")
    page.wait_for_selector("#live-you p:text-is('You are watching')")
    assert (page.locator("#live-view .board-option").count(),
            page.locator("#live-actions").count(),
            page.inner_text("#live-prompt")) == (0, 0, "")
    # the next move recorded is seen by both
    assert send(f"/api/live/{gid}/record", 61)["ply"] == 61
    for followed in (watcher, page):
        followed.wait_for_selector("#live-moves li:nth-child(61)", timeout=5000)
        assert followed.locator("#live-moves li:nth-child(61)").inner_text() == moves[60]
    page.screenshot(path=shots / "broadcast-long-arbiter.png", full_page=True)
    watch_context.close()
    assert errors == [], errors
