"""Stored pairings shown: the event page of ``zrec serve`` (section "Pairings", names
linked to the players' pages), ``GET /api/events/NAME/pairings``, and the event page of
the published site; a player named with markup is escaped everywhere.
"""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from test_tournament_pairing import NAMES, results, roster, run
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
    assert "<h2>Pairings</h2>" in page and "<h3>Round 2</h3>" in page
    assert ('<tr><td class="num">1</td><td><a href="/players/Fox%2C%20Fay">Fox, Fay (6)</a>'
            '</td><td><a href="/players/Adams%2C%20Ada">Adams, Ada (1)</a></td></tr>') in page
    assert "<script>x()" not in page
    assert ESCAPED in page
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
    assert '<h2 id="pairings">Pairings</h2><h3>Round 1</h3>' in page
    assert ('<tr><td class="num">2</td><td><span>' + ESCAPED
            + " (8)</span></td><td><span>Clark, Cal (3)</span></td></tr>") in page
    assert "<script>x()" not in page
    document = json.loads(run("standings", "--db", db, EVENT, "--format", "json"))
    assert document[0]["points"] == 1  # (and the pairings of round 2 change no score)
