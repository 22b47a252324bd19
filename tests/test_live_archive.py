"""Live games in the archive (zrec.archive.live, zrec.play.live): made, seats taken,
moves checked by the engines, resign / draw / abort, the clock, and the finished game
stored as an import.  On a real archive, SQLite and PostgreSQL (``ZREC_TEST_PG``)."""

from __future__ import annotations

import random

import pytest

from zrec.archive import Archive, live
from zrec.archive.live import LiveRefused
from zrec.play.live import LiveError, LiveGame, live_tags, parse_clock

#: a Mosona game (random, seed 61) with multi-jump chains, Black winning
CHAIN_GAME = ["a5-b5", "c4xa5", "a3xc4", "a5xa3", "a2xa4", "c6xa5xa3", "c4xc6", "c7xc5",
              "a6-b6", "c5xa6xc7", "a1-a2", "a3xa1", "a7-b7", "c8xa7xc6", "a8-b8",
              "c7xa8xc8"]


@pytest.fixture
def archive(db_url: str):  # type: ignore[no-untyped-def]
    opened = Archive.open(db_url, create=True)
    yield opened
    opened.close()


def refused(call, *args, **kwargs) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    with pytest.raises(LiveRefused) as caught:
        call(*args, **kwargs)
    return caught.value.status, caught.value.code, caught.value.message


def test_a_game_played_to_its_end_is_stored_as_an_import(archive: Archive) -> None:
    gid = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": None},
                      "300+2", [("Event", "Live Club"), ("Round", "1")], now=1_800_000_000)
    assert refused(live.move, archive, gid, "Ada", "a5-b5") == (
        409, "seats-open", f"live game #{gid} waits for players in the seats Black: no "
        "move before they are taken")
    live.take_seat(archive, gid, "Black", "Bob")
    assert refused(live.take_seat, archive, gid, "Black", "Cy") == (
        409, "seat-taken", f"seat Black of live game #{gid} is taken by Bob")
    for ply, text in enumerate(CHAIN_GAME):
        who = "Ada" if ply % 2 == 0 else "Bob"
        state = live.move(archive, gid, who, text, now=1_800_000_001 + ply)
    assert (state.status, state.result, state.termination) == ("over", "0-1", "normal")
    assert state.stored is not None
    stored = archive.game(state.stored)
    assert dict(stored.tags)["Event"] == "Live Club"
    assert dict(stored.tags)["TimeControl"] == "300+2"
    assert stored.players == (("White", "Ada"), ("Black", "Bob"))
    assert stored.plies == 16 and stored.valid
    assert refused(live.move, archive, gid, "Ada", "a1-a2") == (
        409, "game-over", f"live game #{gid} is over (0-1, normal): no move is taken")


def test_only_the_seat_to_move_moves_and_every_move_is_checked(archive: Archive) -> None:
    gid = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": "Bob"},
                      seat_others=True)
    assert refused(live.move, archive, gid, "Cy", "a5-b5") == (
        403, "not-your-seat", f"Cy plays no seat of live game #{gid}: only its players move")
    assert refused(live.move, archive, gid, "Bob", "a5-b5") == (
        409, "not-your-turn", f"it is White's turn in live game #{gid}, not Black's")
    assert refused(live.move, archive, gid, "Ada", "a1-a2") == (
        400, "illegal-move", "move: a1-a2 is not legal at ply 1: a2 is not empty")
    assert refused(live.move, archive, gid, "Ada", "hello there") [1] == "bad-move"
    assert live.load(archive, gid).moves == []


def test_resign_draw_and_abort(archive: Archive) -> None:
    gid = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": "Bob"},
                      seat_others=True)
    assert refused(live.act, archive, gid, "Ada", "resign")[1] == "too-early"
    state = live.act(archive, gid, "Bob", "abort")
    assert (state.status, state.result, state.stored) == ("over", "*", None)
    assert archive.count() == 0

    gid = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": "Bob"},
                      seat_others=True)
    live.move(archive, gid, "Ada", "a5-b5")
    assert refused(live.act, archive, gid, "Ada", "abort")[1] == "too-late"
    assert refused(live.act, archive, gid, "Bob", "draw-accept")[1] == "no-offer"
    live.act(archive, gid, "Ada", "draw-offer")
    assert refused(live.act, archive, gid, "Ada", "draw-accept")[1] == "no-offer"
    state = live.act(archive, gid, "Bob", "draw-accept")
    assert (state.result, state.termination) == ("1/2-1/2", "agreement")
    assert archive.count() == 1
    assert refused(live.act, archive, gid, "Bob", "jump") == (
        400, "bad-action", "action: 'jump' is not one of resign, draw-offer, draw-accept, abort")


def test_the_clock_ends_the_game_on_time(archive: Archive) -> None:
    gid = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": "Bob"},
                      "10+1", now=100.0, seat_others=True)
    live.move(archive, gid, "Ada", "a5-b5", now=150.0)  # (the first move: no clock yet)
    live.move(archive, gid, "Bob", "c4xa5", now=154.0)  # Black: 10 - 4 + 1 = 7
    state = live.load(archive, gid)
    assert state.left(160.0) == {"White": 4.0, "Black": 7.0}
    assert not live.settle(archive, gid, now=163.9)
    assert live.settle(archive, gid, now=164.5)
    state = live.load(archive, gid)
    assert (state.status, state.result, state.termination) == ("over", "0-1", "time forfeit")
    assert "[Termination \"time forfeit\"]" in archive.text_of(state.stored or 0)  # type: ignore[operator]


def test_a_move_after_the_flag_fell_ends_the_game_and_is_not_played(archive: Archive) -> None:
    gid = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": "Bob"}, "5",
                      now=0.0, seat_others=True)
    live.move(archive, gid, "Ada", "a5-b5", now=1.0)
    state = live.move(archive, gid, "Bob", "c4xa5", now=7.0)
    assert (state.status, state.result, len(state.moves)) == ("over", "1-0", 1)


def test_a_user_plays_a_bounded_number_of_live_games(archive: Archive,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "MAX_LIVE", 2)
    live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": None})
    live.create(archive, "Ada", "mosona", {}, {"White": None, "Black": "Ada"})
    assert refused(live.create, archive, "ada", "mosona", {}, {"White": None, "Black": None}
                   ) == (429, "too-many-games", "ada already plays or made 2 live games "
                         "that are not over: finish one first")


def test_bad_requests_name_the_place_and_the_reason(archive: Archive) -> None:
    assert refused(live.create, archive, "Ada", "chess", {}, {"White": "Ada"})[1:] == (
        "bad-game", 'game: [Game "chess"] names no game zrec knows; known games: awethi, '
        "kolowis, mosona, stone-warriors")
    assert refused(live.create, archive, "Ada", "mosona", {}, {"Red": "Ada"})[1:] == (
        "bad-seats", "seats: Awithlaknannai Mosona is played by seats of White, Black, "
        "not Red")
    assert refused(live.create, archive, "Ada", "mosona", {"Speed": "1"},
                   {"White": "Ada", "Black": None})[1] == "bad-options"
    assert refused(live.create, archive, "Ada", "mosona", {}, {"White": "Ada", "Black": None},
                   "5 minutes")[1:] == (
        "bad-clock", "clock: '5 minutes' is not a time control written SECONDS or "
        "SECONDS+INCREMENT (as 300+5)")
    assert archive.db.value("SELECT count(*) FROM live_games") == 0


def test_a_study_player_takes_its_turns(archive: Archive) -> None:
    gid = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": "study:greedy"})
    state = live.move(archive, gid, "Ada", "a5-b5")
    assert len(state.moves) == 2 and state.moves[1][0] == "Black"
    assert state.to_move() == "White"


def test_awethi_dice_are_rolled_by_the_server_and_written() -> None:
    tags = live_tags("awethi", {}, ["Shepherd1", "Wolves"], {}, None, random.Random(3))
    game = LiveGame(tags)
    assert game.chance() == (4,)
    assert game.play("H", (2,)) == "2: H"
    with pytest.raises(LiveError) as caught:
        game.play("3: H", (1, 1, 1, 1))
    assert caught.value.code == "bad-move"
    assert parse_clock("300+5") is not None and parse_clock(None) is None


def test_a_three_seat_awethi_game_with_a_study_player_is_played_to_its_end(
        archive: Archive) -> None:
    """Shepherd1 and the Wolves are users (their moves drawn here by the engine, for
    the roll the server rolled), Shepherd2 a study player whose turns the server
    plays; the dice of every turn are in the record."""
    gid = live.create(archive, "Ada", "awethi", {}, {
        "Shepherd1": "Ada", "Shepherd2": "study:greedy", "Wolves": "Bob"}, None,
        [("Event", "Herding"), ("Round", "1")], seat_others=True)
    rng = random.Random(5)
    while (state := live.load(archive, gid)).status == "playing":
        seat, game = state.to_move(), state.replayed()
        assert seat in ("Shepherd1", "Wolves") and state.roll is not None
        move = game.engine.sample_move(game.position, state.roll, rng)
        written = game.engine.spell(game.position, move).text()
        rolled = "".join(map(str, state.roll))
        assert written.startswith(rolled)
        live.move(archive, gid, str(state.seats[seat]), written)
    seats = [seat for seat, _, _ in state.moves]
    assert seats.count("Shepherd2") > 10 and state.result != "*"
    stored = archive.game(state.stored or 0)
    assert stored.players == (("Shepherd1", "Ada"), ("Shepherd2", "study:greedy"),
                              ("Wolves", "Bob"))
    assert stored.plies == len(state.moves) and stored.valid
    assert "Herd1" in dict(stored.tags) and "Herd2" in dict(stored.tags)


def test_a_game_played_on_from_where_this_process_left_it_is_the_game_replayed() -> None:
    """The replays kept (zrec.archive.live._Replayed) give the game replayed from its
    start, and are not used for other moves or tags."""
    from zrec.archive.live import _Replayed

    kept = _Replayed()
    tags = live_tags("mosona", {}, ["White", "Black"], {}, None, random.Random(0))
    for upto in (2, 5, 9, 16):
        played = kept.get(7, tags, CHAIN_GAME[:upto])
        fresh = LiveGame(tags, CHAIN_GAME[:upto])
        assert played.record() == fresh.record() and played.to_move() == fresh.to_move()
    other = ["a5-b5", "c6xa5"]  # (not the start of what is kept)
    assert kept.get(7, tags, other).moves() == tuple(other)
    assert kept.get(7, [*tags, ("Board", "open")], ["a4-b5"]).moves() == ("a4-b5",)
    with pytest.raises(LiveError, match="move 3 of the stored game: move: a1-a2 is not "
                       "legal at ply 3"):
        kept.get(7, [*tags, ("Board", "open")], ["a4-b5", "c5xa4", "a1-a2"])


def test_the_game_kept_after_a_move_never_stands_for_the_archive(archive: Archive) -> None:
    """A move keeps the game it checked (zrec.archive.live._Replayed.put), so that
    reading it back does not check the move again; what the archive holds still
    decides: a move whose transaction was rolled back is not in the game, and moves
    written in the archive by another connection (another worker) are the game."""
    gid = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": "Bob"},
                      seat_others=True)
    with pytest.raises(RuntimeError), archive.db.transaction(lock=True):
        live.move(archive, gid, "Ada", "a5-b5")  # (checked, kept, then rolled back)
        raise RuntimeError("the commit failed")
    state = live.load(archive, gid)
    assert (state.moves, state.to_move(), state.version) == ([], "White", 0)
    assert state.record().endswith("\n\n*\n")
    state = live.move(archive, gid, "Ada", "a4-b5")
    assert [m for _, m, _ in state.moves] == ["a4-b5"]
    # another worker: its moves written in the archive, this process's game is older
    archive.db.execute("DELETE FROM live_moves WHERE live = ?", (gid,))
    archive.db.execute("INSERT INTO live_moves (live, ply, seat, move, made) VALUES "
                       "(?, 1, 'White', 'a5-b5', 0), (?, 2, 'Black', 'c4xa5', 0)",
                       (gid, gid))
    state = live.load(archive, gid)
    assert state.to_move() == "White"
    assert state.record(shown=True).endswith("\n\n1. a5-b5 c4xa5 *\n")
    assert live.move(archive, gid, "Ada", "a3xc4").moves[-1][1] == "a3xc4"


def test_two_moves_sent_at_once_are_taken_one_after_the_other(db_url: str) -> None:
    """Each through its own connection (as two server processes): the game's row is
    locked, so the second is judged after the first (not the same position twice)."""
    import threading

    with Archive.open(db_url, create=True) as archive:
        gid = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": "Bob"},
                          seat_others=True)
    outcomes: list[str] = []
    start = threading.Barrier(4)

    def send() -> None:
        with Archive.open(db_url) as mine:
            start.wait()
            try:
                live.move(mine, gid, "Ada", "a5-b5")
                outcomes.append("played")
            except LiveRefused as exc:
                outcomes.append(exc.code)

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes) == ["not-your-turn"] * 3 + ["played"]
    with Archive.open(db_url) as archive:
        assert [m for _, m, _ in live.load(archive, gid).moves] == ["a5-b5"]


def test_an_archive_of_version_12_gets_the_tables_of_live_play(db_url: str) -> None:
    """Version 12 is computer analysis (zrec.archive.analyses), 13 live play: an archive
    of 12 gains the live tables and keeps its analyses."""
    from zrec.archive.analyses import analyses_of, store
    from zrec.archive.store.schema import VERSION

    with Archive.open(db_url, create=True) as archive:
        gid = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": "Bob"},
                          seat_others=True)
        for ply, text in enumerate(CHAIN_GAME):
            state = live.move(archive, gid, "Bob" if ply % 2 else "Ada", text)
        assert state.stored is not None
        stored = state.stored
        store(archive, stored, "alphabeta:4", 7, {"seats": ["White", "Black"], "moves": [],
                                                  "summary": []})
        # back to version 12, by hand
        for table in ("live_moves", "live_seats", "live_games"):
            archive.db.execute(f"DROP TABLE {table}")
        archive.db.execute("UPDATE meta SET value = '12' WHERE name = 'schema'")
    assert VERSION == 14
    with Archive.open(db_url) as archive:
        assert archive.db.value("SELECT value FROM meta WHERE name = 'schema'") == "14"
        assert int(archive.db.value("SELECT count(*) FROM live_games")) == 0
        assert [(a.spec, a.seed) for a in analyses_of(archive, stored)] == [
            ("alphabeta:4", 7)]
        again = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": "Bob"},
                            seat_others=True)
        assert [m for _, m, _ in live.load(archive, again).moves] == []
        assert live.move(archive, again, "Ada", "a5-b5").status == "playing"
        shown = live.broadcast(archive, "Eddie", '[Game "mosona"]\n[White "Gray, Gus"]\n'
                               '[Black "Brown, Bea"]\n[Result "*"]\n\n1. a5-b5 *\n')
        assert [live.load(archive, g).broadcast for g in (again, shown)] == [False, True]


def test_a_draw_of_three_seats_is_agreed_by_every_person_playing(archive: Archive) -> None:
    """With three seats a draw needs every person's agreement: one accepting is not
    enough; who agreed so far is kept; a study player neither blocks nor agrees."""
    gid = live.create(archive, "Ada", "awethi", {}, {
        "Shepherd1": "Ada", "Shepherd2": "Bob", "Wolves": "Cy"}, seat_others=True)
    live.move(archive, gid, "Ada", "H")
    offered = live.act(archive, gid, "Ada", "draw-offer")
    assert (offered.draw_offer, offered.draw_agreed) == ("Shepherd1", ["Shepherd1"])
    state = live.act(archive, gid, "Bob", "draw-accept")
    assert state.status == "playing"
    assert state.to_json()["draw_agreed"] == ["Shepherd1", "Shepherd2"]
    assert refused(live.act, archive, gid, "Bob", "draw-accept") == (
        409, "agreed-already", f"Bob agreed to the draw of live game #{gid} already: it "
        "waits for Wolves")
    state = live.act(archive, gid, "Cy", "draw-accept")
    assert (state.status, state.result, state.termination) == (
        "over", "1/2-1/2-1/2", "agreement")
    assert state.stored is not None

    gid = live.create(archive, "Ada", "awethi", {}, {
        "Shepherd1": "Ada", "Shepherd2": "study:greedy", "Wolves": "Bob"}, seat_others=True)
    live.move(archive, gid, "Ada", "H")
    live.act(archive, gid, "Ada", "draw-offer")
    state = live.act(archive, gid, "Bob", "draw-accept")  # (the study player: no say)
    assert (state.status, state.result) == ("over", "1/2-1/2-1/2")

    gid = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": "study:greedy"})
    assert refused(live.act, archive, gid, "Ada", "draw-offer") == (
        409, "no-draw", f"live game #{gid} has no other player to agree to a draw (study "
        "players neither offer nor accept one)")


TEAMS = {"South": "Ada", "West": "Bob", "North": "Cy", "East": "Dee"}


def test_a_team_resigns_agrees_and_loses_on_time_as_one(archive: Archive) -> None:
    """Under a reading whose seats play in teams (Stone Warriors, Ludii's: South and
    East against West and North) a team is one party."""
    gid = live.create(archive, "Ada", "stonewarriors", {"Ruleset": "ludii"}, TEAMS,
                      seat_others=True)
    live.move(archive, gid, "Ada", "e2-f3")
    live.act(archive, gid, "Ada", "draw-offer")
    assert refused(live.act, archive, gid, "Dee", "draw-accept") == (
        409, "agreed-already", f"Dee agreed to the draw of live game #{gid} already: it "
        "waits for West+North")
    state = live.act(archive, gid, "Cy", "draw-accept")  # (North, for West and North)
    assert (state.status, state.result) == ("over", "1/2-1/2-1/2-1/2")

    gid = live.create(archive, "Ada", "stonewarriors", {"Ruleset": "ludii"}, TEAMS,
                      seat_others=True)
    live.move(archive, gid, "Ada", "e2-e3")
    state = live.act(archive, gid, "Bob", "resign")  # (West: West and North lose)
    assert (state.result, state.termination) == ("1-0-0-1", "resignation")
    assert archive.game(state.stored or 0).valid

    gid = live.create(archive, "Ada", "stonewarriors", {"Ruleset": "ludii"}, TEAMS, "5",
                      now=0.0, seat_others=True)
    live.move(archive, gid, "Ada", "f2-g3", now=1.0)
    assert live.settle(archive, gid, now=7.0)  # (West's flag fell)
    state = live.load(archive, gid)
    assert (state.result, state.termination) == ("1-0-0-1", "time forfeit")


def test_a_game_played_live_is_stored_even_when_the_archive_has_its_moves(
        archive: Archive) -> None:
    """Two quick resignations after the same move between the same players are two
    games played: the second is stored too (the import judged it a copy of the first
    and stored nothing, and the game ended with no stored game, silently)."""
    ids: list[int] = []
    for _ in range(2):
        gid = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": "Bob"},
                          seat_others=True)
        live.move(archive, gid, "Ada", "a5-b5")
        state = live.act(archive, gid, "Bob", "resign")
        assert (state.result, state.termination) == ("1-0", "resignation")
        assert state.stored is not None, f"game {len(ids) + 1} not stored"
        ids.append(state.stored)
    assert ids[0] != ids[1] and archive.count() == 2
    assert state.to_json()["not_stored"] is None


def test_a_broadcast_of_a_game_the_archive_has_keeps_that_games_id(
        archive: Archive) -> None:
    """A game broadcast that the archive has already (its record imported before) is
    not stored again: the broadcast keeps the id of the stored game and says why."""
    from zrec.archive.store.ingest import Importer
    from zrec.notation.inputs import read_input

    text = ('[Game "mosona"]\n[Event "Club"]\n[White "Gray, Gus"]\n[Black "Brown, Bea"]\n'
            '[Result "1-0"]\n[Termination "resignation"]\n\n1. a5-b5 c4xa5 2. a3xc4 1-0\n')
    [kept] = Importer(archive).import_records(
        read_input(text.encode(), "-", "club.zrec"), "club.zrec", source=False).ids
    gid = live.broadcast(archive, "Ada", text.replace('"1-0"', '"*"').replace(
        '[Termination "resignation"]\n', "").replace(" 1-0\n", " *\n"))
    state = live.recorded(archive, gid, "Ada", text)
    assert (state.status, state.result, state.stored) == ("over", "1-0", kept)
    assert state.not_stored == f"the same game as #{kept}: not stored again"
    assert live.load(archive, gid).to_json()["not_stored"] == state.not_stored
    assert archive.count() == 1


def _fields(state: live.LiveState) -> dict[str, object]:
    import dataclasses

    return {f.name: getattr(state, f.name) for f in dataclasses.fields(state)
            if f.name != "_game"}


def test_the_game_a_move_returns_is_the_game_the_archive_holds(archive: Archive) -> None:
    """A move returns the game as its change left it without reading it back
    (zrec.archive.live._bump changes the state as it changes the row): every field,
    the record and the JSON are those read from the archive after, for a move, a
    study player's reply, a clock, dice rolled for the next turn, and the end."""
    gid = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": "Bob"},
                      "300+2", now=1_800_000_000, seat_others=True)
    for ply, text in enumerate(CHAIN_GAME):
        state = live.move(archive, gid, "Ada" if ply % 2 == 0 else "Bob", text,
                          now=1_800_000_001.25 + ply)
        stored = live.load(archive, gid)
        assert _fields(state) == _fields(stored)
        assert state.to_json(1_800_000_100) == stored.to_json(1_800_000_100)
    assert (state.status, state.version, state.stored) == ("over", 16, stored.stored)
    assert state.stored is not None

    gid = live.create(archive, "Ada", "awethi", {}, {
        "Shepherd1": "Ada", "Shepherd2": "study:greedy", "Wolves": "Bob"}, seat_others=True)
    rng = random.Random(8)
    for _ in range(6):
        before = live.load(archive, gid)
        seat, game = before.to_move(), before.replayed()
        assert seat is not None and before.roll is not None
        written = game.engine.spell(game.position, game.engine.sample_move(
            game.position, before.roll, rng)).text()
        state = live.move(archive, gid, str(before.seats[seat]), written)
        stored = live.load(archive, gid)
        assert state.roll is not None and len(state.moves) > len(before.moves)
        assert _fields(state) == _fields(stored)
        assert state.to_json(0) == stored.to_json(0)


def test_an_archive_of_version_13_gains_what_live_play_keeps_besides(db_url: str) -> None:
    """Version 13 (live play as it first landed) had no column for a draw's agreements,
    why a game is not stored, nor a round's boards: version 14 adds them, and live
    play reads and writes them on the archive brought up to date."""
    from zrec.archive.store import schema

    with Archive.open(db_url, create=True) as archive:
        db = archive.db
        for table in ("live_moves", "live_seats", "live_games"):  # back to 13, by hand
            db.execute(f"DROP TABLE {table}")
        for statement in schema._statements(db, schema.MIGRATIONS[13]):
            db.execute(statement)
        db.execute("UPDATE meta SET value = '13' WHERE name = 'schema'")
        assert not schema._has_column(db, "live_games", "draw_agreed")
    with Archive.open(db_url) as archive:
        assert archive.db.value("SELECT value FROM meta WHERE name = 'schema'") == "14"
        gid = live.create(archive, "Ada", "mosona", {}, {"White": "Ada", "Black": "Bob"},
                          seat_others=True)
        live.move(archive, gid, "Ada", "a5-b5")
        assert live.act(archive, gid, "Bob", "draw-offer").draw_agreed == ["Black"]
        state = live.act(archive, gid, "Ada", "draw-accept")
        assert (state.status, state.result, state.termination) == (
            "over", "1/2-1/2", "agreement")
