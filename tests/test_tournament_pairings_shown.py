"""Stored pairings shown: the event page of ``zrec serve`` (section "Pairings", names
linked to the players' pages), ``GET /api/events/NAME/pairings``, and the event page of
the published site; a player named with markup is escaped everywhere.
"""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from test_tournament_pairing import NAMES, invoke, results, roster, run
from zrec.serve import create_app

MARKUP = "<script>x()</script> & Co, Bo"
EVENT = "Spring Swiss"


def event(tmp_path: Path) -> str:
    """Eight players (the last named with markup): round 1 paired and played (White
    wins every board), round 2 paired."""
    db = str(tmp_path / "a.sqlite")
    names = [*NAMES[:7], MARKUP]
    roster(tmp_path, db, names, 5)
    run("pair", "--db", db, EVENT)
    results(tmp_path, db, 1, [(names[w - 1], names[b - 1], "1-0")
                              for w, b in [(1, 5), (6, 2), (3, 7), (8, 4)]])
    run("pair", "--db", db, EVENT)
    return db


ESCAPED = "&lt;script&gt;x()&lt;/script&gt; &amp; Co, Bo"


def test_the_server_shows_the_pairings(tmp_path: Path) -> None:
    db = event(tmp_path)
    with TestClient(create_app(db)) as client:
        page = client.get(f"/events/{EVENT}").text
        api = client.get(f"/api/events/{EVENT}/pairings")
        unknown = client.get("/api/events/Nowhere/pairings")
    assert "<h2>Pairings</h2>" in page and "<h3>Round 1 (all 4 games in)</h3>" in page
    assert "<h3>Round 2 (0 of 4 games in; 4 pending)</h3>" in page
    assert ('<tr><td class="num">1</td><td><a href="/players/Fox%2C%20Fay">Fox, Fay (6)</a>'
            '</td><td class="result pending">pending</td><td>'
            '<a href="/players/Adams%2C%20Ada">Adams, Ada (1)</a></td></tr>') in page
    assert ('<td><a href="/players/Adams%2C%20Ada">Adams, Ada (1)</a></td><td class="result">'
            '<a href="/games/1">1–0</a></td>') in page
    assert "<script>x()" not in page
    assert ESCAPED in page
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "not-found"
    assert api.status_code == 200
    rounds = api.json()
    assert list(rounds) == ["1", "2"]
    assert [(b["white"]["number"], b["black"]["number"]) for b in rounds["2"]] == [
        (6, 1), (8, 3), (2, 5), (4, 7)]
    assert rounds["2"][1]["white"] == {"number": 8, "name": MARKUP, "points": 1}


def test_the_published_site_shows_the_pairings(tmp_path: Path) -> None:
    db = event(tmp_path)
    site = tmp_path / "site"
    run("publish", "--db", db, EVENT, "-o", str(site))
    page = (site / "spring-swiss" / "index.html").read_text()
    assert '<h2 id="pairings">Pairings</h2><h3>Round 1 (all 4 games in)</h3>' in page
    assert ('<tr><td class="num">2</td><td><span>' + ESCAPED
            + ' (8)</span></td><td class="result pending">pending</td><td><span>Clark, Cal (3)'
            '</span></td></tr>') in page
    assert '<td class="result"><a href="game-1.html">1–0</a></td>' in page
    assert "<script>x()" not in page
    document = json.loads(run("standings", "--db", db, EVENT, "--format", "json"))
    assert document[0]["points"] == 1  # (and the pairings of round 2 change no score)


def test_a_large_round_has_pages_of_its_own(tmp_path: Path) -> None:
    """202 players: 101 boards, more than a page holds (100): the event page links the
    round's pages, the second holding the last board."""
    db = str(tmp_path / "a.sqlite")
    names = [f"Player {i:03d}" for i in range(1, 203)]
    roster(tmp_path, db, names, 2, "Big")
    results(tmp_path, db, 1, [("Player 001", "Player 002", "1-0")], "Big")
    tables = json.loads(run("seat", "--db", db, "Big", "--seats", "2", "--round", "2",
                            "--format", "json"))
    assert len(tables) == 101
    # 1 (one point) and 2 (the next by number) meet again, the seats swapped
    assert (tables[0]["white"]["number"], tables[0]["black"]["number"]) == (2, 1)
    site = tmp_path / "site"
    run("publish", "--db", db, "Big", "-o", str(site))
    index = (site / "big" / "index.html").read_text()
    assert ('<h2 id="pairings">Pairings</h2><p class="pages">Rounds: '
            '<a href="pairings-2.html">Round 2</a></p>') in index
    first = (site / "big" / "pairings-2.html").read_text()
    second = (site / "big" / "pairings-2-2.html").read_text()
    assert first.count('<td class="num">') == 100 and "boards 1–100" in first
    assert second.count('<td class="num">') == 1 and "boards 101–101" in second
    manifest = json.loads((site / ".zrec-site").read_text())
    assert {"big/pairings-2.html", "big/pairings-2-2.html"} <= set(manifest["pages"])


def test_the_pairings_of_round_one_are_published_before_any_result(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    roster(tmp_path, db, NAMES, 5)
    site = tmp_path / "site"
    result = invoke("publish", "--db", db, EVENT, "-o", str(site))
    assert result.exit_code == 2
    assert result.stderr == ("zrec: 'Spring Swiss' has no game with a round and a result "
                             "yet, and no stored pairings\n")
    run("pair", "--db", db, EVENT)
    run("publish", "--db", db, "--all", "-o", str(site))  # events with rounds or pairings
    page = (site / "spring-swiss" / "index.html").read_text()
    assert ('<h3>Round 1 (0 of 4 games in; 4 pending)</h3><table class="pairings"><thead><tr>'
            '<th>Board</th><th>White</th><th>Result</th><th>Black</th></tr></thead><tbody><tr>'
            '<td class="num">1</td><td><span>Adams, Ada (1)</span></td><td class="result '
            'pending">pending</td><td><span>Evans, Eli (5)</span></td></tr>') in page
    assert "<p>No round has results yet.</p>" in page and "Standings" not in page


def test_an_eight_player_swiss_from_roster_to_site(tmp_path: Path) -> None:
    """Five rounds paired and played with zrec alone: nobody meets anybody twice, every
    player plays every round, nobody has the same colour three times running, and the
    colours of each stay within one of even (C.04.1 allows two; this event allows
    better), and the site shows every round's boards."""
    db = str(tmp_path / "a.sqlite")
    roster(tmp_path, db, NAMES, 5)
    met: set[frozenset[int]] = set()
    colours: dict[int, str] = {n: "" for n in range(1, 9)}
    for number in range(1, 6):
        rows = json.loads(run("pair", "--db", db, EVENT, "--format", "json"))
        boards = [(r["white"]["number"], r["black"]["number"]) for r in rows]
        assert sorted(n for b in boards for n in b) == list(range(1, 9)), number
        for white, black in boards:
            assert frozenset((white, black)) not in met, (number, white, black)
            met.add(frozenset((white, black)))
            colours[white] += "w"
            colours[black] += "b"
        # board 1 drawn, else White wins
        results(tmp_path, db, number, [(NAMES[w - 1], NAMES[b - 1], "1/2-1/2" if i == 0
                                        else "1-0") for i, (w, b) in enumerate(boards)])
    for seen in colours.values():
        assert abs(seen.count("w") - seen.count("b")) <= 1 and "www" not in seen \
            and "bbb" not in seen, colours
    table = json.loads(run("standings", "--db", db, EVENT, "--format", "json"))
    assert sum(r["points"] for r in table) == 20 and len(table) == 8
    assert invoke("pair", "--db", db, EVENT).stderr == (
        "zrec: 'Spring Swiss' has 5 rounds (as its roster declares): drawing round 6 would "
        "add a round; --extend-rounds adds it\n")
    site = tmp_path / "site"
    run("publish", "--db", db, EVENT, "-o", str(site))
    assert (site / "spring-swiss" / "index.html").read_text().count("<h3>Round ") == 5
