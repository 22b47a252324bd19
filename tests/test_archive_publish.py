"""``zrec archive publish``: the static site of an event, as a user reads it.

One 200-game Swiss event (40 players, 10 rounds, random legal games, plus a forfeit,
a half-point bye and a game without a round) is imported and published once per
module on SQLite; the site is checked page by page (every link resolves, nothing
comes from the network, no page reaches 1 MB, the standings are the standings
command's), and in headless Chromium (index → event → game, one move stepped).  A
smaller archive is published on SQLite and on PostgreSQL (``db_url``).
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import random
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from typer.testing import CliRunner, Result

from zrec.archive import Archive
from zrec.cli import app
from zrec.notation.writer import write_game
from zrec.play.selfplay import random_game
from zrec.publish import MARKER, SiteError, publish
from zrec.resources import PAGE_SCRIPT, data_text
from zrec.rules import find_game

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
EVENT = "Zuni Open & Spring <2026>"
FOLDER = "zuni-open-spring-2026"
PLAYERS = [f"Player {i:02d}" for i in range(1, 41)]
PLAYERS[6] = "Zoë Ñúñez"  # not ASCII
EXTRA = ["Late, Lou", "Late, Liv"]  # the forfeit's players (Liv also has the bye)
ROUNDS = 10
runner = CliRunner()


def invoke(*args: str) -> Result:
    return runner.invoke(app, ["archive", *args])


def ok(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return str(result.stdout)


def refused(result: Result, message: str) -> None:
    """Exit code 2, ``zrec: message`` on standard error, no traceback."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr.startswith(f"zrec: {message}"), result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert isinstance(result.exception, SystemExit)


# -- the event ----------------------------------------------------------------------------


def pairings(count: int, rounds: int) -> Iterator[list[tuple[int, int]]]:
    """Rounds of the circle method (no pair meets twice): (white, black) indexes."""
    others = list(range(1, count))
    for r in range(rounds):
        ring = [0, *others[r:], *others[:r]]
        pairs = [(ring[i], ring[count - 1 - i]) for i in range(count // 2)]
        yield [(a, b) if (i + r) % 2 == 0 else (b, a) for i, (a, b) in enumerate(pairs)]


def event_records() -> str:
    """200 finished random games in 10 rounds, the forfeit and a game without a round."""
    rules = find_game("mosona")
    rng = random.Random(2026)
    texts = []
    for r, round_pairs in enumerate(pairings(len(PLAYERS), ROUNDS), 1):
        for board, (white, black) in enumerate(round_pairs, 1):
            tags = {
                "Event": EVENT,
                "Site": "Zuni Pueblo",
                "Date": f"2026.05.{r:02d}",
                "Round": f"{r}.{board}",
                "White": PLAYERS[white],
                "Black": PLAYERS[black],
            }
            game = random_game(rules, tags, rng, round_number=r)
            while game.result == "*":  # not finished in 300 plies: another one
                game = random_game(rules, tags, rng, round_number=r)
            texts.append(write_game(game))
    texts.append(
        f'[Game "mosona"]\n[Event "{EVENT}"]\n[Site "Zuni Pueblo"]\n[Date "2026.05.01"]\n'
        f'[Round "1.21"]\n[White "{EXTRA[0]}"]\n[Black "{EXTRA[1]}"]\n[Result "1-0"]\n'
        '[Termination "forfeit"]\n\n1-0\n'
    )
    casual = random_game(
        rules,
        {
            "Event": EVENT,
            "Site": "Zuni Pueblo",
            "Round": "-",
            "White": PLAYERS[0],
            "Black": PLAYERS[1],
        },
        rng,
    )
    texts.append(write_game(casual))
    return "\n".join(texts)


def build(tmp: Path) -> tuple[str, Path, str]:
    """The archive (with the bye), the site and publish's report."""
    records = tmp / "event.zrec"
    records.write_text(event_records(), encoding="utf-8")
    db = str(tmp / "event.sqlite")
    ok("import", "--db", db, "-q", str(records))
    ok("bye", EVENT, "2", EXTRA[1], "--kind", "half", "--db", db)
    site = tmp / "site"
    report = ok("publish", EVENT, "--db", db, "-o", str(site))
    return db, site, report


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, str]:
    return build(tmp_path_factory.mktemp("publish"))


def number(name: str) -> int:
    """A player's pairing number: without a roster, the players in alphabetical order."""
    return sorted([*PLAYERS, *EXTRA], key=str.casefold).index(name) + 1


def game_ids(db: str) -> list[int]:
    with Archive.open(db) as archive:
        return [int(r[0]) for r in archive.db.rows("SELECT id FROM games ORDER BY id")]


def players_of(db: str, gid: int) -> str:
    """A stored game's players in seat order, ``White – Black``."""
    with Archive.open(db) as archive:
        return " – ".join(name for _, name in next(iter(archive.games([gid]))).players)


# -- reading pages ------------------------------------------------------------------------


class Page(HTMLParser):
    """A page's links, ids, tables (by class: rows of cell texts) and headings."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.sources: list[str] = []
        self.ids: set[str] = set()
        self.tables: dict[str, list[list[str]]] = {}
        self.table_links: dict[str, list[str]] = {}
        self.h1: list[str] = []
        self.nav: list[tuple[str, str | None]] = []
        self._table: str | None = None
        self._cell: list[str] | None = None
        self._in: list[str] = []
        self._href: str | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag == "a" and found.get("href") is not None:
            self.links.append(str(found["href"]))
            self._href = found["href"]
            if self._table is not None:
                self.table_links[self._table].append(str(found["href"]))
        for name in ("src", "srcset", "poster", "data", "action"):
            if found.get(name):
                self.sources.append(str(found[name]))
        if tag == "link" and found.get("href"):
            self.sources.append(str(found["href"]))
        if tag == "table":
            self._table = (found.get("class") or "").split(" ")[0]
            self.tables[self._table] = []
            self.table_links[self._table] = []
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []
        self._in.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.tables[self._table][-1].append("".join(self._cell))
            self._cell = None
        elif tag == "table":
            self._table = None
        elif tag == "a":
            self._href = None
        while self._in and self._in.pop() != tag:
            pass

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        if self._in and self._in[-1] == "h1":
            self.h1.append(data)
        if "nav" in self._in and self._in[-1] in ("a", "span"):
            self.nav.append((data, self._href))


def pages(site: Path) -> dict[Path, str]:
    return {p: p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.html"))}


def tree(site: Path) -> dict[str, str]:
    """Every file of the site and the hash of its bytes."""
    return {
        str(p.relative_to(site)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


def leftovers(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if p.name.startswith("."))


def check_links(site: Path) -> int:
    """Every relative link of every page names a file of the site (and an id of it,
    for a link with a fragment); nothing is loaded from anywhere but the site's
    stylesheet and the stylesheet and script of the game pages.  The links checked."""
    parsed = {path.resolve(): Page(text) for path, text in pages(site).items()}
    root = site.resolve()
    shared = {root / "zrec-site.css", root / "zrec-replay.css", root / "zrec-replay.js"}
    checked = 0
    for path, page in parsed.items():
        for source in page.sources:
            assert not urlsplit(source).scheme and not source.startswith("/"), (path, source)
            assert (path.parent / source).resolve() in shared, (path, source)
            assert (path.parent / source).is_file(), (path, source)
        for link in page.links:
            parts = urlsplit(link)
            assert not parts.scheme and not parts.netloc, (path, link)
            assert not link.startswith("/"), (path, link)
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            assert target.is_file() and root in target.parents, (path, link)
            if parts.fragment:
                assert parts.fragment in parsed[target].ids, (path, link)
            checked += 1
    return checked


# -- the site -----------------------------------------------------------------------------


def test_every_page_is_there(built: tuple[str, Path, str]) -> None:
    db, site, report = built
    ids = game_ids(db)
    assert len(ids) == 202  # 200 games, the forfeit, the game without a round
    event = site / FOLDER
    expected = {"index.html", f"{FOLDER}/index.html"}
    expected |= {f"{FOLDER}/round-{n}.html" for n in range(1, ROUNDS + 1)}
    expected |= {f"{FOLDER}/game-{gid}.html" for gid in ids}
    shared = {MARKER, "zrec-site.css", "zrec-replay.css", "zrec-replay.js"}
    assert set(tree(site)) == expected | shared
    largest = max(p.stat().st_size for p in site.rglob("*.html"))
    assert report == (
        f"published 1 event, 202 game pages, 214 pages in {site} "
        f"(largest {round(largest / 1024)} KB)\n"
    )
    index = Page((site / "index.html").read_text(encoding="utf-8"))
    assert index.links == [f"{FOLDER}/index.html"]
    assert index.tables["events"][1] == [
        EVENT,
        "2026.05.01 – 2026.05.10",
        "Zuni Pueblo",
        "10",
        "42",
        "202",
    ]
    page = Page((event / "index.html").read_text(encoding="utf-8"))
    assert page.h1 == [EVENT]  # the name escaped, and read back whole
    assert {f"round-{n}.html" for n in range(1, ROUNDS + 1)} <= set(page.links)


def test_every_link_resolves_and_nothing_comes_from_the_network(
    built: tuple[str, Path, str],
) -> None:
    _, site, _ = built
    assert check_links(site) > 1500
    for path, text in pages(site).items():
        assert not re.search(r"""(src|href)\s*=\s*["']?\s*([a-z][a-z0-9+.-]*:|//)""", text, re.I)
        plain = text.replace("http://www.w3.org/2000/svg", "").replace('http-equiv="', "")
        assert "http" not in plain, path
        assert "@import" not in text and "url(" not in text, path


def test_no_page_grows_with_the_event(built: tuple[str, Path, str]) -> None:
    _, site, _ = built
    sizes = {p.relative_to(site).as_posix(): p.stat().st_size for p in site.rglob("*.html")}
    assert max(sizes.values()) < 1_000_000
    assert sizes["index.html"] < 10_000


def test_the_standings_are_the_standings_commands(built: tuple[str, Path, str]) -> None:
    db, site, _ = built
    expected = json.loads(ok("standings", EVENT, "--db", db, "--format", "json"))
    page = Page((site / FOLDER / "index.html").read_text(encoding="utf-8"))
    rows = page.tables["standings"][1:]
    assert [(r[2], float(r[3])) for r in rows] == [
        (line["player"], float(line["points"])) for line in expected
    ]
    assert [int(r[0]) for r in rows] == [line["rank"] for line in expected]
    assert len(rows) == 42
    assert page.tables["crosstable"][0][3:-1] == [f"R{n}" for n in range(1, 11)]
    # every game that counts is linked from both its players' rows
    counted = {f"game-{gid}.html" for gid in game_ids(db)[:-1]}
    linked = page.table_links["crosstable"]
    assert set(linked) == counted and len(linked) == 2 * len(counted)


def test_rounds_list_their_boards_byes_and_absences(built: tuple[str, Path, str]) -> None:
    db, site, _ = built
    ids = game_ids(db)
    one = Page((site / FOLDER / "round-1.html").read_text(encoding="utf-8"))
    boards = one.tables["pairings"][1:]
    assert len(boards) == 21
    assert [int(b[0]) for b in boards] == list(range(1, 22))
    lou, liv = (f"{name} ({number(name)})" for name in EXTRA)
    assert boards[20] == ["21", lou, "1–0", liv, "forfeit", "#201"]
    assert one.table_links["pairings"] == [f"game-{gid}.html" for gid in [*ids[:20], ids[200]]]
    assert "byes" not in one.ids
    two = (site / FOLDER / "round-2.html").read_text(encoding="utf-8")
    assert f"{liv}: half-point bye (½)" in html.unescape(two)
    assert f"{lou}: zero-point bye (0)" in html.unescape(two)
    event = Page((site / FOLDER / "index.html").read_text(encoding="utf-8"))
    assert event.tables["other"][1:] == [[f"#{ids[-1]}", "no round (Round '-')"]]


def test_a_game_page_is_the_replay_page_with_a_bar(built: tuple[str, Path, str]) -> None:
    db, site, _ = built
    ids = game_ids(db)
    text = (site / FOLDER / f"game-{ids[1]}.html").read_text(encoding="utf-8")
    assert text.startswith('<!DOCTYPE html>\n<html lang="en">')
    assert text.count("<body>") == 1 and "<body><nav " in text
    assert text.count("<script") == 2  # the replay page's own: the data and the script
    # the stylesheet and the script are the site's one copy, not in every game page
    assert '<script src="../zrec-replay.js"></script>' in text
    assert '<link href="../zrec-replay.css" rel="stylesheet">' in text
    # then the site's stylesheet: the same font, links and bar as the other pages
    assert text.index('<link href="../zrec-site.css" rel="stylesheet">') > text.index(
        '<link href="../zrec-replay.css" rel="stylesheet">')
    assert "<style>" not in text and "function" not in text and " style=" not in text
    # titled by its players, event and round
    title = f"{players_of(db, ids[1])}, {EVENT} round 1"
    assert f"<title>{html.escape(title, quote=False)} — zrec replay</title>" in text
    assert Page(text).h1 == [title]
    assert (site / "zrec-replay.js").read_text(encoding="utf-8") == data_text(PAGE_SCRIPT)
    page = Page(text)
    assert page.nav == [
        ("All events", "../index.html"),
        (EVENT, "index.html"),
        ("Round 1", "round-1.html"),
        ("← previous game", f"game-{ids[0]}.html"),
        ("next game →", f"game-{ids[2]}.html"),
    ]
    first = Page((site / FOLDER / f"game-{ids[0]}.html").read_text(encoding="utf-8"))
    assert first.nav[3] == ("← previous game", None)
    other = Page((site / FOLDER / f"game-{ids[-1]}.html").read_text(encoding="utf-8"))
    assert other.nav[2] == ("Other games", "index.html#other")


# -- writing it -----------------------------------------------------------------------------


def test_publishing_again_replaces_the_site(built: tuple[str, Path, str]) -> None:
    db, site, report = built
    before = tree(site)
    (site / "stray.html").write_text("left from before", encoding="utf-8")
    assert ok("publish", EVENT, "--db", db, "-o", str(site) + "/", "-q") == report.replace(
        str(site), str(site) + "/"
    )
    assert tree(site) == before  # the same site, byte for byte, and nothing else
    assert leftovers(site.parent) == []


def test_a_failure_leaves_the_old_site(
    built: tuple[str, Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, site, _ = built
    before = tree(site)
    calls = []

    def broken(games: Any, out: Any, **options: Any) -> int:
        calls.append(1)
        if len(calls) > 3:
            raise RuntimeError("the disk caught fire")
        out.write("<!DOCTYPE html>\n<html><body></body></html>\n")
        return 1

    monkeypatch.setattr("zrec.publish.write_page", broken)
    with Archive.open(db) as archive, pytest.raises(RuntimeError, match="caught fire"):
        publish(archive, [EVENT], site)
    assert tree(site) == before
    assert leftovers(site.parent) == []


def test_a_folder_that_is_not_a_site_is_refused(
    built: tuple[str, Path, str], tmp_path: Path
) -> None:
    db, _, _ = built
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    refused(invoke("publish", EVENT, "--db", db, "-o", str(folder)), f"{folder} is a folder")
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
    file = tmp_path / "file.html"
    file.write_text("x", encoding="utf-8")
    refused(invoke("publish", EVENT, "--db", db, "-o", str(file)), f"cannot write {file}")
    refused(
        invoke("publish", EVENT, "--db", db, "-o", str(tmp_path / "no" / "site")),
        "cannot write",
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.html", "mine"]


def test_what_cannot_be_published(built: tuple[str, Path, str], tmp_path: Path) -> None:
    db, _, _ = built
    out = str(tmp_path / "site")
    refused(invoke("publish", "No Such Cup", "--db", db, "-o", out), "there is no event")
    refused(invoke("publish", "--db", db, "-o", out), "name an event")
    refused(invoke("publish", EVENT, "--all", "--db", db, "-o", out), "give events or --all")
    assert invoke("publish", EVENT, "--db", db).exit_code == 2  # -o is required
    assert list(tmp_path.iterdir()) == []


# -- on SQLite and PostgreSQL -----------------------------------------------------------------


def test_several_events_on_either_database(db_url: str, tmp_path: Path) -> None:
    """--all: the sample tournament and two more events, one of them with a game the
    replay page cannot show (stored with --keep-invalid): its page shows the record."""
    cup = "Zuni Club Championship 2026"
    extra = tmp_path / "more.zrec"
    rules = find_game("mosona")
    rng = random.Random(5)
    games = []
    for name in (f"{cup}!", "Winter Cup"):
        tags = {"Event": name, "Round": "1", "White": "Ada", "Black": "Tom"}
        games.append(write_game(random_game(rules, tags, rng)))
    games.append(
        '[Game "mosona"]\n[Event "Winter Cup"]\n[Round "2"]\n[White "Tom"]\n[Black "Ada"]\n'
        '[Result "1-0"]\n\n1. b6-b5 c5-b6 1-0\n'
    )
    extra.write_text("\n".join(games), encoding="utf-8")
    result = invoke(
        "import",
        "--db",
        db_url,
        "-q",
        "--keep-invalid",
        str(SAMPLES / "tournament.zrec"),
        str(extra),
    )
    assert result.exit_code == 1, result.stderr  # the invalid game, stored all the same
    site = tmp_path / "site"
    report = ok("publish", "--all", "--db", db_url, "-o", str(site))
    assert report.startswith(f"published 3 events, 8 game pages, 18 pages in {site} ")
    index = Page((site / "index.html").read_text(encoding="utf-8"))
    assert index.links == [
        "winter-cup/index.html",
        "zuni-club-championship-2026/index.html",
        "zuni-club-championship-2026-2/index.html",
    ]
    check_links(site)
    for folder, name in (("zuni-club-championship-2026", cup), ("winter-cup", "Winter Cup")):
        expected = json.loads(ok("standings", name, "--db", db_url, "--format", "json"))
        page = Page((site / folder / "index.html").read_text(encoding="utf-8"))
        assert [(r[2], float(r[3])) for r in page.tables["standings"][1:]] == [
            (line["player"], float(line["points"])) for line in expected
        ]
    invalid = max(game_ids(db_url))
    shown = (site / "winter-cup" / f"game-{invalid}.html").read_text(encoding="utf-8")
    assert "This game cannot be replayed" in shown and "1. b6-b5 c5-b6 1-0" in shown
    # a site of one of them replaces the site of three
    assert ok("publish", cup, "--db", db_url, "-o", str(site)).startswith("published 1 event, ")
    assert sorted(p.name for p in site.iterdir()) == [
        MARKER,
        "index.html",
        "zrec-replay.css",
        "zrec-replay.js",
        "zrec-site.css",
        "zuni-club-championship-2026",
    ]
    with Archive.open(db_url) as archive, pytest.raises(SiteError, match="not a site"):
        publish(archive, None, tmp_path)  # the folder holding the site is no site


# -- in a browser -------------------------------------------------------------------------------


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed, and CI must run the browser tests")
        pytest.skip("chromium is not installed")
    return found


def dump_dom(page: Path, fragment: str = "") -> str:
    """The DOM of ``page`` after its scripts ran, as headless chromium serialises it."""
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [
                chromium(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                "--virtual-time-budget=5000",
                "--dump-dom",
                page.as_uri() + fragment,
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_from_the_index_to_a_move_in_chromium(built: tuple[str, Path, str]) -> None:
    _, site, _ = built
    chromium()
    index = Page(dump_dom(site / "index.html"))
    event_page = site / index.links[0]
    event = Page(dump_dom(event_page))
    link = event.table_links["crosstable"][0]
    game_page = event_page.parent / link
    dom = dump_dom(game_page, "#autotest=ArrowRight")
    caption = re.search(r'<p [^>]*id="zrec-caption"[^>]*>(.*?)</p>', dom, re.S)
    assert caption is not None, dom[-2000:]
    assert caption.group(1) != "start position"
    assert html.unescape(caption.group(1)).startswith("after 1. ")
    log = re.search(r'<pre id="zrec-test-log">(.*?)</pre>', dom, re.S)
    assert log is not None
    steps = [line.split("\t")[:2] for line in html.unescape(log.group(1)).splitlines()]
    assert steps == [["start", "0"], ["ArrowRight", "1"]]
    shown = Page(dom)
    assert shown.nav[0] == ("All events", "../index.html")  # the bar survived the script
