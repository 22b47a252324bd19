"""The ratings of a published site (``zrec archive publish --ratings``): the lists are
``zrec archive ratings``' own (same order, same numbers), each player's page is their
history, names are escaped, links resolve inside the site, a list of more than a page
of players is cut into pages; without ``--ratings`` there is no ratings folder."""

from __future__ import annotations

import json
import random
from pathlib import Path

from test_archive_publish import Page, check_links, ok
from test_ratings_cli import three_seat_archive
from zrec.notation.writer import write_game
from zrec.play.selfplay import random_game
from zrec.rules import find_game

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
CLUB = "Club Championship 2026"
MARKUP = "<b>Bold</b>, Ben"


def archive(tmp_path: Path, players: int = 0) -> str:
    """The club's three rounds, two rounds of a second event where a player named as
    markup meets Adams, and ``players`` more in one round of a third event."""
    rules = find_game("mosona")
    rng = random.Random(3)
    texts = []
    pairs = [("Adams, Ada", MARKUP), (MARKUP, "Adams, Ada")]
    pairs += [(f"P{i:03d}", f"P{i + 1:03d}") for i in range(0, players, 2)]
    for n, (white, black) in enumerate(pairs):
        event, number = ("Odd", n + 1) if n < 2 else ("Big", 1)
        tags = {"Event": event, "Round": str(number), "Date": "2026.10.0" + str(min(n, 2) + 1),
                "White": white, "Black": black}
        game = random_game(rules, tags, rng)
        while game.result == "*":
            game = random_game(rules, tags, rng)
        texts.append(write_game(game))
    file = tmp_path / "more.zrec"
    file.write_text("\n".join(texts), encoding="utf-8")
    db = str(tmp_path / "club.sqlite")
    files = [str(SAMPLES / "club" / f"round{n}.zrec") for n in (1, 2, 3)]
    ok("import", "--db", db, "-q", *files, str(file))
    return db


def test_the_site_s_ratings_are_the_command_s(tmp_path: Path) -> None:
    db = archive(tmp_path)
    site = tmp_path / "site"
    report = ok("publish", CLUB, "Odd", "--ratings", "--db", db, "-o", str(site))
    assert report.startswith("published 2 events, 8 game pages, ")
    (pool,) = json.loads(ok("ratings", "--db", db, "--format", "json"))
    index = Page((site / "index.html").read_text(encoding="utf-8"))
    assert index.nav == [("Ratings", "ratings/index.html")]
    pools = Page((site / "ratings" / "index.html").read_text(encoding="utf-8"))
    title = "Awithlaknannai Mosona"  # the game's name: its options are the defaults
    assert pools.tables["events"][1] == [title, "Glicko-2", str(len(pool["players"]))]
    listed = Page((site / "ratings" / "pool-1.html").read_text(encoding="utf-8"))
    rows = listed.tables["standings"][1:]
    assert [(r[0], r[1], r[5]) for r in rows] == [
        (str(p["rank"]), p["name"], str(p["games"])) for p in pool["players"]]
    for row, player in zip(rows, pool["players"], strict=True):  # one decimal of two
        assert abs(float(row[2]) - player["rating"]) <= 0.051
        assert abs(float(row[3]) - player["rd"]) <= 0.051
    # the player named as markup: escaped on every page, and a page of their own
    text = (site / "ratings" / "pool-1.html").read_text(encoding="utf-8")
    assert "<b>Bold" not in text and "&lt;b&gt;Bold&lt;/b&gt;, Ben" in text
    mark = listed.links[listed.links.index("index.html") + 1:]
    names = [p["name"] for p in pool["players"]]
    theirs = Page((site / "ratings" / mark[names.index(MARKUP)]).read_text(encoding="utf-8"))
    assert theirs.h1 == [f"{MARKUP}: ratings"]
    (history,) = json.loads(ok("ratings", "--db", db, "--player", MARKUP, "--format", "json"))
    assert [row[:2] for row in theirs.tables["standings"][1:]] == [
        [s["period"], s["date"]] for s in history["history"]]
    assert [row[0] for row in theirs.tables["standings"][1:]] == ["Odd, round 1", "Odd, round 2"]
    assert check_links(site) > 20


def test_a_long_list_is_cut_into_pages_and_ratings_are_asked_for(tmp_path: Path) -> None:
    db = archive(tmp_path, players=150)
    site = tmp_path / "site"
    ok("publish", "Big", "--ratings", "--db", db, "-o", str(site))
    first = Page((site / "ratings" / "pool-1.html").read_text(encoding="utf-8"))
    second = Page((site / "ratings" / "pool-1-2.html").read_text(encoding="utf-8"))
    assert len(first.tables["standings"]) == 101 and len(second.tables["standings"]) == 51
    assert second.tables["standings"][1][0] == "101"
    assert ("1–100", "pool-1.html") in second.nav and ("101–150", None) in second.nav
    players = sorted(p.name for p in (site / "ratings").glob("player-*.html"))
    # the published event's 150 alone: the club's 5 and Ben of Odd, who play the same
    # game elsewhere in the archive, are not on a site that does not publish them
    assert len(players) == 150
    text = "".join(p.read_text(encoding="utf-8") for p in (site / "ratings").glob("*.html"))
    assert "Adams, Ada" not in text and "Odd, round" not in text
    check_links(site)
    plain = tmp_path / "plain"
    ok("publish", "Big", "--db", db, "-o", str(plain))
    assert not (plain / "ratings").exists()
    assert Page((plain / "index.html").read_text(encoding="utf-8")).nav == []


def test_a_plackett_luce_list_shows_mu_and_sigma(tmp_path: Path) -> None:
    db = three_seat_archive(tmp_path)
    site = tmp_path / "site"
    ok("publish", "zrec random game", "--ratings", "--db", db, "-o", str(site))
    (pool,) = json.loads(ok("ratings", "--db", db, "--format", "json"))
    listed = Page((site / "ratings" / "pool-1.html").read_text(encoding="utf-8"))
    assert listed.tables["standings"][0] == ["Rank", "Player", "Rating", "μ", "σ", "Games"]
    rows = listed.tables["standings"][1:]
    assert [[r[1], float(r[2])] for r in rows] == [[p["name"], p["rating"]]
                                                   for p in pool["players"]]
    assert [r[1] for r in rows] == ["A", "B", "C"]


def test_an_event_named_ratings_does_not_take_the_ratings_folder(tmp_path: Path) -> None:
    db = archive(tmp_path)
    renamed = tmp_path / "ratings-event.zrec"
    renamed.write_text('[Game "mosona"]\n[Event "Ratings"]\n[Round "1"]\n[White "Ann"]\n'
                       '[Black "Bob"]\n[Result "1-0"]\n[Termination "resignation"]\n\n1-0\n',
                       encoding="utf-8")
    ok("import", "--db", db, "-q", str(renamed))
    site = tmp_path / "site"
    report = ok("publish", "--all", "--ratings", "--db", db, "-o", str(site))
    assert report.startswith("published 3 events, ")
    index = Page((site / "index.html").read_text(encoding="utf-8"))
    assert "ratings-2/index.html" in index.links and "ratings/index.html" in index.links
    assert (site / "ratings" / "pool-1.html").is_file()
    assert (site / "ratings-2" / "round-1.html").is_file()
    assert check_links(site) > 20
