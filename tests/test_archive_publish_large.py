"""``zrec archive publish`` of large events: no page grows with the number of players.

Two events read from TRF rosters (results without records, so no game pages): a Swiss
of 600 players in 9 rounds and a round robin of 120 players (119 rounds).  Their
standings, crosstables and rounds are cut into pages of a bounded size; the event page
stays small, every link resolves, and every player is on the pages once, in rank
order.  Also: a folder is replaced only when its ``.zrec-site`` marker is the manifest
zrec wrote, not a planted empty file.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from zrec.cli import app

SWISS, SWISS_PLAYERS, SWISS_ROUNDS = "Big Swiss 2026", 600, 9
ROBIN, ROBIN_PLAYERS = "Big Robin 2026", 120
#: the most bytes any page of these sites may have, and the event page
PAGE_BOUND = 150_000
EVENT_PAGE_BOUND = 20_000
runner = CliRunner()


def invoke(*args: str) -> Result:
    return runner.invoke(app, ["archive", *args])


def ok(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return str(result.stdout)


def circle(count: int, rounds: int) -> list[list[tuple[int, int]]]:
    """Rounds of the circle method (no pair meets twice): (white, black), from 1."""
    others = list(range(2, count + 1))
    out = []
    for r in range(rounds):
        ring = [1, *others[r:], *others[:r]]
        pairs = [(ring[i], ring[count - 1 - i]) for i in range(count // 2)]
        out.append([(a, b) if (i + r) % 2 == 0 else (b, a) for i, (a, b) in enumerate(pairs)])
    return out


def trf(path: Path, name: str, players: int, rounds: int) -> Path:
    rng = random.Random(players)
    cells: dict[int, list[str]] = {p: [] for p in range(1, players + 1)}
    for paired in circle(players, rounds):
        for white, black in paired:
            result = rng.choice(["1", "=", "0"])
            other = {"1": "0", "=": "=", "0": "1"}[result]
            cells[white].append(f"{black:4d} w {result}")
            cells[black].append(f"{white:4d} b {other}")
    lines = [f"012 {name}", f"XXR {rounds}"]
    for p in range(1, players + 1):
        lines.append(f"001 {p:4d}      {'Player ' + str(p):<66}{'':>4} {p:4d}  "
                     + "  ".join(cells[p]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))
        if found.get("id"):
            self.ids.add(str(found["id"]))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    tmp = tmp_path_factory.mktemp("large")
    db = str(tmp / "a.sqlite")
    ok("roster", "--db", db, str(trf(tmp / "s.trf", SWISS, SWISS_PLAYERS, SWISS_ROUNDS)))
    ok("roster", "--db", db, str(trf(tmp / "r.trf", ROBIN, ROBIN_PLAYERS, ROBIN_PLAYERS - 1)))
    out = tmp / "site"
    ok("publish", SWISS, ROBIN, "--db", db, "-o", str(out), "-q")
    return db, out


def test_every_page_stays_under_a_bound(site: tuple[str, Path]) -> None:
    _, out = site
    sizes = {p.relative_to(out).as_posix(): p.stat().st_size for p in out.rglob("*.html")}
    largest = max(sizes, key=lambda p: sizes[p])
    assert sizes[largest] < PAGE_BOUND, (largest, sizes[largest])
    for folder in ("big-swiss-2026", "big-robin-2026"):
        assert sizes[f"{folder}/index.html"] < EVENT_PAGE_BOUND, sizes[f"{folder}/index.html"]
    assert sizes["index.html"] < 10_000


def test_every_link_resolves(site: tuple[str, Path]) -> None:
    _, out = site
    parsed: dict[Path, Links] = {}
    for path in out.rglob("*.html"):
        parsed[path] = Links()
        parsed[path].feed(path.read_text(encoding="utf-8"))
    for path, page in parsed.items():
        for link in page.links:
            target, _, fragment = link.partition("#")
            resolved = (path.parent / target).resolve() if target else path
            assert resolved.is_file(), (path, link)
            if fragment:
                assert fragment in parsed[resolved].ids, (path, link)


def _rows(text: str, table: str) -> list[list[str]]:
    """The body rows of a table, as the texts of its cells."""
    body = text.split(f'<table class="{table}"', 1)[1].split("</table>", 1)[0]
    body = body.split("<tbody>", 1)[1]
    return [
        [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", body)
    ]


def _pages(folder: Path, prefix: str) -> list[Path]:
    found = [p for p in folder.glob(f"{prefix}*.html")]
    return sorted(found, key=lambda p: [int(n) for n in re.findall(r"\d+", p.stem)])


def test_the_standings_pages_hold_every_player_once_in_order(site: tuple[str, Path]) -> None:
    db, out = site
    import json

    expected = json.loads(ok("standings", SWISS, "--db", db, "--format", "json"))
    folder = out / "big-swiss-2026"
    pages = _pages(folder, "standings-")
    assert len(pages) == 6  # 100 players a page
    rows = [row for p in pages for row in _rows(p.read_text(encoding="utf-8"), "standings")]
    assert [(r[2], int(r[0])) for r in rows] == [(x["player"], x["rank"]) for x in expected]
    crosstable = _pages(folder, "crosstable-")
    assert len(crosstable) == 6
    rows = [row for p in crosstable
            for row in _rows(p.read_text(encoding="utf-8"), "crosstable swiss")]
    assert [r[2] for r in rows] == [x["player"] for x in expected]
    assert all(len(r) == 3 + SWISS_ROUNDS + 1 for r in rows)
    event = folder.joinpath("index.html").read_text(encoding="utf-8")
    assert "standings-6.html" in event and "crosstable-6.html" in event
    assert "<table" not in event  # the tables are on their own pages


def test_a_round_robin_is_cut_both_ways(site: tuple[str, Path]) -> None:
    _, out = site
    folder = out / "big-robin-2026"
    # 120 rows in pages of 100, 120 columns in pages of 25: 2 × 5 pages
    pages = _pages(folder, "crosstable-")
    assert [p.name for p in pages][:6] == [
        "crosstable-1-1.html", "crosstable-1-2.html", "crosstable-1-3.html",
        "crosstable-1-4.html", "crosstable-1-5.html", "crosstable-2-1.html"]
    assert len(pages) == 10
    last = _rows(pages[-1].read_text(encoding="utf-8"), "crosstable round-robin")
    assert len(last) == 20 and all(len(r) == 3 + 20 + 1 for r in last)
    # a round of 60 boards is one page; the boards of a larger round go on more pages
    assert len(_rows(folder.joinpath("round-1.html").read_text(encoding="utf-8"),
                     "pairings")) == 60
    swiss_round = out / "big-swiss-2026" / "round-1.html"
    boards = _rows(swiss_round.read_text(encoding="utf-8"), "pairings")
    assert [b[0] for b in boards] == [str(n) for n in range(1, 101)]
    more = _rows((out / "big-swiss-2026" / "round-1-3.html").read_text(encoding="utf-8"),
                 "pairings")
    assert [b[0] for b in more] == [str(n) for n in range(201, 301)]


def test_an_empty_marker_does_not_make_a_folder_a_site(
    site: tuple[str, Path], tmp_path: Path
) -> None:
    db, _ = site
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    for planted in ("", "A site zrec archive publish made\n", '{"zrec-site": 1}'):
        (folder / ".zrec-site").write_text(planted, encoding="utf-8")
        result = invoke("publish", SWISS, "--db", db, "-o", str(folder))
        assert result.exit_code == 2, result.stdout
        assert result.stderr == (
            f"zrec: {folder} is a folder that is not a site zrec made (its .zrec-site "
            "file is not the manifest zrec writes, or the pages it lists are not "
            "there), and publish replaces the whole folder: give a new or empty folder\n"
        )
        assert sorted(p.name for p in folder.iterdir()) == [".zrec-site", "notes.txt"]


def test_a_site_zrec_made_is_replaced(site: tuple[str, Path], tmp_path: Path) -> None:
    db, _ = site
    out = tmp_path / "again"
    ok("publish", ROBIN, "--db", db, "-o", str(out), "-q")
    marker = (out / ".zrec-site").read_text(encoding="utf-8")
    assert '"index.html"' in marker and '"big-robin-2026/crosstable-2-5.html"' in marker
    ok("publish", ROBIN, "--db", db, "-o", str(out), "-q")  # its own site: replaced
    # a marker copied into a folder without the pages it lists is refused
    other = tmp_path / "copy"
    other.mkdir()
    (other / ".zrec-site").write_text(marker, encoding="utf-8")
    (other / "index.html").write_text("mine", encoding="utf-8")
    assert invoke("publish", ROBIN, "--db", db, "-o", str(other)).exit_code == 2
