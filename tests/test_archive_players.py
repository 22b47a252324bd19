"""Player names: the normal form, ``zrec archive players`` (the list, and the likely
duplicates of ``--suggest-merges``) and ``zrec archive alias`` (merging one player into
another), with its effect on searches, on later imports and on an event's rows.

Every test that uses an archive runs on SQLite and on PostgreSQL (``db_url``).  The
archives are made of the first game of the tournament sample, with other players."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from zrec.archive import Archive
from zrec.archive.people.names import compatible_given, edits_within, name_words, normal_name
from zrec.archive.people.players import Player, candidates, likely_duplicates
from zrec.cli import app

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
#: the first game of the tournament sample: 18 plies
FIRST = (SAMPLES / "tournament.zrec").read_text(encoding="utf-8").split("\n\n[")[0] + "\n"
HINT = 'zrec archive alias "Old" "Canonical"'

runner = CliRunner()


def invoke(*args: str) -> Result:
    return runner.invoke(app, ["archive", *args])


def ok(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return str(result.stdout)


def refused(result: Result, message: str) -> None:
    """Exit code 2, exactly ``zrec: message`` on standard error, no traceback."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr == f"zrec: {message}\n"
    assert result.stdout == ""
    assert isinstance(result.exception, SystemExit)


def game(white: str, black: str, round_: int = 1) -> str:
    """The first game of the tournament sample between other players."""
    text = re.sub(r'\[White "[^"]*"\]', f'[White "{white}"]', FIRST)
    text = re.sub(r'\[Black "[^"]*"\]', f'[Black "{black}"]', text)
    return re.sub(r'\[Round "[^"]*"\]', f'[Round "{round_}"]', text)


def write(path: Path, *games: tuple[str, str]) -> str:
    """A file of games, one for each (White, Black), in rounds 1, 2, 3..."""
    path.write_text("\n".join(game(w, b, i) for i, (w, b) in enumerate(games, 1)))
    return str(path)


def imported(db: str, file: str, *more: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(
        ok("import", "--db", db, "--format", "json", *more, file)
    )
    return document


def ids(db: str, *query: str) -> list[int]:
    return [int(line) for line in ok("search", "--db", db, "--format", "ids", *query).split()]


def players_json(db: str, *more: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(ok("players", "--db", db, "--format", "json", *more))
    return found


def suggestions(db: str, *more: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(
        ok("players", "--db", db, "--suggest-merges", "--format", "json", *more)
    )
    return found


# -- the normal form, and the comparisons the suggestions make ---------------------------


@pytest.mark.parametrize(
    "spelling",
    [
        "Culin, Stewart",
        "stewart  culin",
        "Stéwart Culin",
        "CULIN , STEWART",
        "Culin,Stewart",
        "  Culin ,\tStewart. ",
        "Stewart\u00a0Culin",
        "ＳＴＥＷＡＲＴ Culin",
    ],
)
def test_one_name_however_written(spelling: str) -> None:
    assert normal_name(spelling) == "stewart culin"


def test_the_normal_form_keeps_what_may_be_another_person() -> None:
    # initials and dots: "Culin, S." is "S. Culin", not "Stewart Culin"
    assert normal_name("Culin, S.") == normal_name("S.Culin") == "s culin"
    # a hyphen, an apostrophe, a letter NFKD keeps whole: other names (stored as they are),
    # which the suggestions read as the same words
    assert normal_name("Jean-Paul Sartre") != normal_name("Jean Paul Sartre")
    assert normal_name("O'Brien, Pat") != normal_name("O’Brien, Pat")
    assert normal_name("Łukasz Nowak") != normal_name("Lukasz Nowak")
    assert name_words(normal_name("Sartre, Jean-Paul")) == ("jean", "paul", "sartre")
    assert name_words(normal_name("Sartre, J.-P.")) == ("j", "p", "sartre")
    assert name_words(normal_name("O’Brien, Pat")) == ("pat", "o", "brien")
    assert name_words(normal_name("Łukasz Nowak")) == ("lukasz", "nowak")
    # two commas: not read as "Last, First"
    assert normal_name("Culin, Stewart, Jr.") == "culin, stewart, jr"
    assert normal_name("Straße") == normal_name("STRASSE")


def test_compatible_given_names_and_edits() -> None:
    assert compatible_given(("s",), ("stewart",))
    assert compatible_given(("stewart", "m"), ("s",))
    assert compatible_given(("stewart",), ("stewart", "mary"))
    assert not compatible_given(("s",), ("tom",))
    assert not compatible_given(("stewart",), ("samuel",))
    assert not compatible_given((), ("stewart",))
    assert edits_within("ada lovelace", "ada lovelase", 2) == 1
    assert edits_within("lovelcae", "lovelace", 1) == 1  # two neighbours swapped
    assert edits_within("thomas kilburn", "thomas kilbourne", 2) == 2
    assert edits_within("thomas kilburn", "thomas kilbourne", 1) is None
    assert edits_within("li wei", "lu wen", 1) is None
    assert edits_within("", "a", 1) == 1


# -- the list ---------------------------------------------------------------------------


def test_players_lists_names_games_and_aliases(db_url: str, tmp_path: Path) -> None:
    file = write(
        tmp_path / "club.zrec",
        ("Culin, Stewart", "Kilburn, Tom"),
        ("stewart  culin", "Hopper, Grace"),
        ("Hopper, Grace", "CULIN , STEWART"),
        ("Stéwart Culin", "Ørsted, Hans"),
    )
    assert imported(db_url, file)["added"] == 4
    assert ok("players", "--db", db_url) == (
        "games  player          aliases\n"
        "    4  Culin, Stewart\n"
        "    2  Hopper, Grace\n"
        "    1  Kilburn, Tom\n"
        "    1  Ørsted, Hans\n"
    )
    assert [p["name"] for p in players_json(db_url)] == [
        "Culin, Stewart",
        "Hopper, Grace",
        "Kilburn, Tom",
        "Ørsted, Hans",
    ]
    assert players_json(db_url, "STEWART c") == [
        {"id": 1, "name": "Culin, Stewart", "games": 4, "aliases": []}
    ]
    assert ok("players", "--db", db_url, "orsted") == (
        "games  player        aliases\n    1  Ørsted, Hans\n"
    )
    assert ok("players", "--db", db_url, "nobody") == "games  player  aliases\n"
    refused(
        invoke("players", "--db", db_url, "--format", "xml"),
        "--format is text or json, not 'xml'",
    )


# -- likely duplicates ------------------------------------------------------------------


def test_each_reason_for_a_suggestion(db_url: str, tmp_path: Path) -> None:
    file = write(
        tmp_path / "names.zrec",
        ("Culin, S.", "Culin, Stewart"),  # met at one game: never suggested
        ("Culin, Stewart", "Jean-Paul Sartre"),
        ("Culin, S.", "Jean Paul Sartre"),
        ("Sartre, Jean-Paul", "Ada Lovelace"),  # the same player as Jean-Paul Sartre
        ("Lovelace Ada", "Thomas Kilburn"),
        ("Kilbourne, Thomas", "Li Wei"),
        ("Li Wen", "Lu Wen"),
        ("Hopper, Grace", "Naglani, A."),
        ("Hoper, Grace", "Naglani, B."),
        ("Culin, S.", "Hopper, Grace"),
    )
    assert imported(db_url, file)["added"] == 10
    assert ok("players", "--db", db_url, "--suggest-merges") == (
        '"Ada Lovelace" (1 game), "Lovelace Ada" (1 game): same words in another order\n'
        '"Hopper, Grace" (2 games), "Hoper, Grace" (1 game): spellings 1 edit apart\n'
        '"Jean-Paul Sartre" (2 games), "Jean Paul Sartre" (1 game): '
        "same letters but for hyphens, apostrophes, spaces or special letters\n"
        '"Kilbourne, Thomas" (1 game), "Thomas Kilburn" (1 game): spellings 2 edits apart\n'
        '"Li Wei" (1 game), "Li Wen" (1 game): spellings 1 edit apart\n'
        f"5 groups of likely duplicates; to merge one name into another: {HINT}\n"
    )
    assert suggestions(db_url, "lovelace") == [
        {
            "names": [{"name": "Ada Lovelace", "games": 1}, {"name": "Lovelace Ada", "games": 1}],
            "reason": "same words in another order",
        }
    ]
    # not suggested: names the normal form joins (one player), other initials ("Naglani,
    # A." and "Naglani, B."), players who sat at one game ("Culin, S." and "Culin,
    # Stewart"; "Lu Wen" and "Li Wen"), and "Lu Wen" and "Li Wei", two edits apart in a
    # short name
    assert suggestions(db_url, "naglani") == suggestions(db_url, "culin") == []
    assert suggestions(db_url, "lu wen") == []


def test_initials_and_given_names(db_url: str, tmp_path: Path) -> None:
    file = write(
        tmp_path / "initials.zrec",
        ("Culin, S.", "Turing, Alan"),
        ("Culin, Stewart", "Turing, A. M."),
        ("Culin, Stewart M.", "Turing, Alan Mathison"),
        ("Culin, Samuel", "Sartre, J.-P."),
        ("Culin", "Jean-Paul Sartre"),
    )
    imported(db_url, file)
    assert [(g["reason"], [n["name"] for n in g["names"]]) for g in suggestions(db_url)] == [
        (
            "same surname, compatible given names or initials",
            ["Culin, S.", "Culin, Samuel"],
        ),
        (
            "same surname, compatible given names or initials",
            ["Culin, S.", "Culin, Stewart"],
        ),
        (
            "same surname, compatible given names or initials",
            ["Culin, S.", "Culin, Stewart M."],
        ),
        (
            "same surname, compatible given names or initials",
            ["Culin, Stewart", "Culin, Stewart M."],
        ),
        (
            "same surname, compatible given names or initials",
            ["Jean-Paul Sartre", "Sartre, J.-P."],
        ),
        (
            "same surname, compatible given names or initials",
            ["Turing, A. M.", "Turing, Alan"],
        ),
        (
            "same surname, compatible given names or initials",
            ["Turing, A. M.", "Turing, Alan Mathison"],
        ),
        (
            "same surname, compatible given names or initials",
            ["Turing, Alan", "Turing, Alan Mathison"],
        ),
    ]
    assert ok("players", "--db", db_url, "--suggest-merges", "nobody") == "no likely duplicates\n"


def test_a_group_with_players_who_met_is_given_as_its_other_pairs() -> None:
    people = [
        Player(1, "Jean-Paul Sartre", "jean-paul sartre", 3),
        Player(2, "Jean Paul Sartre", "jean paul sartre", 2),
        Player(3, "Jeanpaul Sartre", "jeanpaul sartre", 1),
    ]
    letters = "same letters but for hyphens, apostrophes, spaces or special letters"
    found = candidates(people)
    assert found[0] == (letters, (1, 2, 3))  # and the same pairs for later reasons
    assert [g.to_json() for g in likely_duplicates(people, found, set())] == [
        {
            "names": [
                {"name": "Jean-Paul Sartre", "games": 3},
                {"name": "Jean Paul Sartre", "games": 2},
                {"name": "Jeanpaul Sartre", "games": 1},
            ],
            "reason": letters,
        }
    ]
    pairs = [[p.id for p in g.names] for g in likely_duplicates(people, found, {(1, 2)})]
    assert pairs == [[2, 3], [1, 3]]


def test_suggestions_stay_fast_for_many_players() -> None:
    """20,000 players: buckets, never every pair (which would take hours)."""
    rng = random.Random(7)

    def word(low: int, high: int) -> str:
        return "".join(
            rng.choice("aeiou" if i % 2 else "bcdfghklmnprstvz")
            for i in range(rng.randint(low, high))
        )

    firsts = [word(3, 8) for _ in range(300)]
    lasts = [word(4, 10) for _ in range(2000)]
    norms = sorted({f"{rng.choice(firsts)} {rng.choice(lasts)}" for _ in range(21_000)})[:20_000]
    people = [Player(i, norm, norm, 1) for i, norm in enumerate(norms)]
    start = time.perf_counter()
    groups = likely_duplicates(people, candidates(people), set())
    assert time.perf_counter() - start < 60
    assert groups
    assert all(len(g.names) >= 2 for g in groups)


# -- merging ----------------------------------------------------------------------------


def test_alias_merges_a_player_into_another(db_url: str, tmp_path: Path) -> None:
    file = write(
        tmp_path / "club.zrec",
        ("Culin, S.", "Kilburn, Tom"),
        ("Hopper, Grace", "S. Culin"),
        ("Culin, Stewart", "Hopper, Grace"),
    )
    imported(db_url, file)
    assert ids(db_url, "--player", "Culin, S.") == [1, 2]
    assert ok("players", "--db", db_url, "--suggest-merges").splitlines()[0] == (
        '"Culin, S." (2 games), "Culin, Stewart" (1 game): '
        "same surname, compatible given names or initials"
    )
    assert ok("alias", "--db", db_url, "Culin, S.", "stewart culin") == (
        'merged "Culin, S." (2 games) into "Culin, Stewart"\n'
    )
    # either name finds the three games, which show the canonical name
    assert ids(db_url, "--player", "Culin, S.") == [1, 2, 3]
    assert ids(db_url, "--player", "Stewart Culin") == [1, 2, 3]
    assert ids(db_url, "--black", "s culin") == [2]
    found = json.loads(ok("search", "--db", db_url, "--format", "json", "--id", "2"))
    assert found[0]["players"] == [
        {"seat": "White", "name": "Hopper, Grace"},
        {"seat": "Black", "name": "Culin, Stewart"},
    ]
    assert found[0]["tags"]["Black"] == "S. Culin"  # the record is not changed
    assert players_json(db_url, "culin") == [
        {"id": 4, "name": "Culin, Stewart", "games": 3, "aliases": ["s culin"]}
    ]
    assert ok("players", "--db", db_url, "--suggest-merges") == "no likely duplicates\n"
    # the same file again: its games are duplicates, not new games
    again = imported(db_url, file, "--reread")
    assert (again["added"], again["duplicates"]) == (0, 3)
    # a game imported later under the old name belongs to the canonical player
    later = write(tmp_path / "later.zrec", ("Turing, Alan", "CULIN, S"))
    assert imported(db_url, later)["added"] == 1
    assert ids(db_url, "--player", "Stewart Culin") == [1, 2, 3, 4]
    assert [p["name"] for p in players_json(db_url)] == [
        "Culin, Stewart",
        "Hopper, Grace",
        "Kilburn, Tom",
        "Turing, Alan",
    ]
    with Archive.open(db_url) as archive:
        assert archive.player_ids("Culin, S.") == archive.player_ids("Culin, Stewart") == [4]
        assert archive.db.value("SELECT count(*) FROM players WHERE norm = 's culin'") == 0


def test_alias_as_json_and_a_chain(db_url: str, tmp_path: Path) -> None:
    file = write(
        tmp_path / "chain.zrec",
        ("Ada King", "Kilburn, Tom"),
        ("Lovelace, Ada", "Hopper, Grace"),
        ("Hopper, Grace", "Byron, Ada"),
        ("Ada Byron", "Turing, Alan"),
    )
    imported(db_url, file)
    done = json.loads(ok("alias", "--db", db_url, "--format", "json", "King, Ada", "Byron, Ada"))
    assert done == {
        "old": "Ada King",
        "canonical": "Byron, Ada",
        "games": 1,
        "aliases": ["ada king"],
    }
    assert ok("alias", "--db", db_url, "Ada Byron", "Ada Lovelace") == (
        'merged "Byron, Ada" (3 games) into "Lovelace, Ada"\n'
    )
    # A -> B, then B -> C: A's games end at C
    assert ids(db_url, "--player", "Ada King") == [1, 2, 3, 4]
    assert players_json(db_url, "ada") == [
        {"id": 3, "name": "Lovelace, Ada", "games": 4, "aliases": ["ada byron", "ada king"]}
    ]
    refused(
        invoke("alias", "--db", db_url, "Ada King", "Hopper, Grace"),
        '"Ada King" is already an alias of "Lovelace, Ada"',
    )
    refused(
        invoke("alias", "--db", db_url, "--format", "yaml", "Ada King", "Hopper, Grace"),
        "--format is text or json, not 'yaml'",
    )


def test_what_alias_refuses(db_url: str, tmp_path: Path) -> None:
    file = write(
        tmp_path / "club.zrec",
        ("Lovelace, Ada", "Kilburn, Tom"),
        ("Hopper, Grace", "Turing, Alan"),
        ("Ada King", "Hopper, Grace"),
    )
    imported(db_url, file)
    ok("alias", "--db", db_url, "Ada King", "Lovelace, Ada")
    refused(
        invoke("alias", "--db", db_url, "Nobody", "Lovelace, Ada"),
        'there is no player "Nobody" (zrec archive players lists them)',
    )
    refused(
        invoke("alias", "--db", db_url, "Turing, Alan", "?"),
        'there is no player "?" (zrec archive players lists them)',
    )
    refused(
        invoke("alias", "--db", db_url, "Lovelace, Ada", "ada  LOVELACE"),
        '"Lovelace, Ada" and "ada  LOVELACE" are the same player ("Lovelace, Ada")',
    )
    refused(
        invoke("alias", "--db", db_url, "King, Ada", "Lovelace, Ada"),
        '"King, Ada" is already an alias of "Lovelace, Ada"',
    )
    refused(
        invoke("alias", "--db", db_url, "ada king", "Turing, Alan"),
        '"ada king" is already an alias of "Lovelace, Ada"',
    )
    refused(
        invoke("alias", "--db", db_url, "Turing, Alan", "Grace Hopper"),
        '"Turing, Alan" and "Hopper, Grace" sat at one game (#2): they are two players',
    )
    nowhere = str(tmp_path / "none.sqlite")
    refused(
        invoke("alias", "--db", nowhere, "A", "B"),
        f"there is no archive at {nowhere} (zrec archive import makes one; --db or ZREC_DB "
        "names another)",
    )
    # nothing was changed by the refusals
    assert [(p["name"], p["games"]) for p in players_json(db_url)] == [
        ("Hopper, Grace", 2),
        ("Kilburn, Tom", 1),
        ("Lovelace, Ada", 2),
        ("Turing, Alan", 1),
    ]


def test_alias_moves_an_events_entries_and_rounds(db_url: str, tmp_path: Path) -> None:
    file = write(
        tmp_path / "event.zrec",
        ("Culin, S.", "Kilburn, Tom"),
        ("Culin, Stewart", "Hopper, Grace"),
        ("Turing, Alan", "Lovelace, Ada"),
    )
    imported(db_url, file)
    with Archive.open(db_url) as archive:
        db = archive.db
        pid = {str(n): int(i) for i, n in db.rows("SELECT id, name FROM players")}
        old, canonical = pid["Culin, S."], pid["Culin, Stewart"]
        turing, lovelace = pid["Turing, Alan"], pid["Lovelace, Ada"]
        both = db.insert("INSERT INTO events (name) VALUES ('Both') RETURNING id", ())
        one = db.insert("INSERT INTO events (name) VALUES ('One') RETURNING id", ())
        db.executemany(
            "INSERT INTO event_players (event, player, number, rating) VALUES (?, ?, ?, ?)",
            [(both, old, 1, 1500), (both, canonical, 2, 1600), (one, old, 7, 1400)],
        )
        db.executemany(
            "INSERT INTO event_rounds (event, round, player, code, opponent) "
            "VALUES (?, ?, ?, ?, ?)",
            [
                (both, 1, old, "H", None),  # both have round 1: the canonical's is kept
                (both, 1, canonical, "F", None),
                (both, 2, old, "U", None),
                (one, 3, turing, "+", old),  # the opponent column moves too
                (one, 3, old, "-", turing),
            ],
        )
    ok("alias", "--db", db_url, "Culin, S.", "Culin, Stewart")
    with Archive.open(db_url) as archive:
        db = archive.db
        assert sorted(db.rows("SELECT event, player, number, rating FROM event_players")) == [
            (both, canonical, 2, 1600),
            (one, canonical, 7, 1400),
        ]
        rounds = db.rows("SELECT event, round, player, code, opponent FROM event_rounds")
        assert sorted(rounds, key=repr) == (
            sorted(
                [
                    (both, 1, canonical, "F", None),
                    (both, 2, canonical, "U", None),
                    (one, 3, turing, "+", canonical),
                    (one, 3, canonical, "-", turing),
                ],
                key=repr,
            )
        )
        db.execute(
            "INSERT INTO event_rounds (event, round, player, code, opponent) "
            "VALUES (?, 4, ?, '1', ?)",
            (one, lovelace, canonical),
        )
    refused(
        invoke("alias", "--db", db_url, "Lovelace, Ada", "Stewart Culin"),
        '"Lovelace, Ada" and "Culin, Stewart" were both paired in round 4 of "One": they are two '
        "players",
    )
