"""``zrec readings``: a record under every combination of its game's rule options.

The Culin opening is legal exactly under line jumps with the standard start (either
board, either end rule), and under bent jumps only where captures are optional and a
chain may end after a hop; a record with a bent jump only under bent jumps.  Each
reading's verdict is the validator's own, and the ``-O`` override helper says what
it changes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zrec import read_game
from zrec.check.readings import combinations, file_readings, game_readings, group_readings
from zrec.check.validate import validate_game
from zrec.cli import app
from zrec.notation.reader import read_records
from zrec.play.overrides import (
    Change,
    OverrideError,
    changes,
    check_overrides,
    describe,
    override,
    parse_assignments,
)
from zrec.rules import find_game

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
CULIN_FILE = SAMPLES / "culin-opening.zrec"
BENT_FILE = SAMPLES / "mosona-bent.zrec"
BASE = ["Board", "Jumps", "Middle", "EndRule", "First"]
# the options the issue-37 readings added, and their defaults (today's reading)
ADDED = {
    "Captures": "compulsory",
    "Chains": "whole",
    "Blocked": "endrule",
    "NoCapture": "off",
    "Repetition": "off",
}
NAMES = [*BASE, *ADDED]

runner = CliRunner()

# The first error of each illegal reading of samples/culin-opening.zrec, as the
# validator words it.
R1 = (
    "move 1 (Black): b6-b5 is illegal: there is no Black piece on b6; "
    "legal moves: b4-b5, c4-b5, c5-b5"
)
R2 = (
    "move 1 (White): b6-b5 is illegal: there is no White piece on b6; "
    "legal moves: a4-b5, a5-b5, b4-b5"
)
R3 = (
    "move 1 (Black) (in a variation): a4-b5 is illegal: there is no Black piece on a4; "
    "legal moves: b6-b5, c4-b5, c5-b5"
)
R4 = (
    "move 1 (White): b6-b5 is illegal: a capture is compulsory here; "
    "legal moves: a3xb5xb4xa3, a3xb5xb4xc4xb5, a4xb5xb4xc4xb5, b6xb5xc5xb6"
)
R5 = (
    "move 1 (Black): b6-b5 is illegal: there is no Black piece on b6; "
    "legal moves: b4xb5xa4xb4, c5xb5xb6xa5xb5, c6xb5xb6xa5xb5, c6xb5xb6xc6"
)
R6 = (
    "move 1 (White): b6-b5 is illegal: there is no White piece on b6; "
    "legal moves: a5xb5xb6xc5xb5, a6xb5xb6xa6, a6xb5xb6xc5xb5, b4xb5xc4xb4"
)
R7 = (
    "move 1 (Black): b6-b5 is illegal: a capture is compulsory here; "
    "legal moves: b6xb5xa5xb6, c3xb5xb4xa4xb5, c3xb5xb4xc3, c4xb5xb4xa4xb5"
)
R8 = (
    "move 1 (White): b6-b5 is illegal: a capture is compulsory here; "
    "legal moves: a3xb5xb4xa3, a4xb5xb4, b6xb5"
)
R9 = (
    "move 1 (Black): b6-b5 is illegal: there is no Black piece on b6; "
    "legal moves: b4xb5, c5xb5xb6, c6xb5xb6xc6"
)
R10 = (
    "move 1 (White): b6-b5 is illegal: there is no White piece on b6; "
    "legal moves: a5xb5xb6, a6xb5xb6xa6, b4xb5"
)
R11 = (
    "move 1 (Black): b6-b5 is illegal: a capture is compulsory here; "
    "legal moves: b6xb5, c3xb5xb4xc3, c4xb5xb4"
)
CULIN = [
    ("lined line right majority White", None),
    ("lined line right majority Black", (1, R1)),
    ("lined line right draw White", None),
    ("lined line right draw Black", (1, R1)),
    ("lined line left majority White", (1, R2)),
    ("lined line left majority Black", (1, R3)),
    ("lined line left draw White", (1, R2)),
    ("lined line left draw Black", (1, R3)),
    ("lined bent right majority White", (1, R4)),
    ("lined bent right majority Black", (1, R5)),
    ("lined bent right draw White", (1, R4)),
    ("lined bent right draw Black", (1, R5)),
    ("lined bent left majority White", (1, R6)),
    ("lined bent left majority Black", (1, R7)),
    ("lined bent left draw White", (1, R6)),
    ("lined bent left draw Black", (1, R7)),
    ("open line right majority White", None),
    ("open line right majority Black", (1, R1)),
    ("open line right draw White", None),
    ("open line right draw Black", (1, R1)),
    ("open line left majority White", (1, R2)),
    ("open line left majority Black", (1, R3)),
    ("open line left draw White", (1, R2)),
    ("open line left draw Black", (1, R3)),
    ("open bent right majority White", (1, R8)),
    ("open bent right majority Black", (1, R9)),
    ("open bent right draw White", (1, R8)),
    ("open bent right draw Black", (1, R9)),
    ("open bent left majority White", (1, R10)),
    ("open bent left majority Black", (1, R11)),
    ("open bent left draw White", (1, R10)),
    ("open bent left draw Black", (1, R11)),
]

BENT_R1 = (
    "move 1 (White): a3xb5xb4xa3 is illegal: there is no jump from a3 to b5; "
    "legal moves: a4-b5, a5-b5, b6-b5"
)
BENT_R8 = (
    "move 1 (Black): c6xb5xb6xa5xb4xb3xa3 is illegal: there is no enemy piece to jump "
    "between b6 and a5; legal moves: b2xb3xb4xb5, c5xb5xb4xb3, c5xb5xb6, c6xb5xb4xb3, "
    "c6xb5xb6xc6"
)


def invoke(*args: str, stdin: str | None = None):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args), input=stdin)


def table(found: list[dict[str, object]]) -> list[tuple[str, tuple[int, str] | None]]:
    """The readings of one game of the JSON output whose added options are at their
    defaults (the 32 readings of the five first options), as the pinned tables write
    them."""
    return [
        (" ".join(key.split()[: len(BASE)]), verdict)
        for key, verdict in full_table(found)
        if key.split()[len(BASE) :] == list(ADDED.values())
    ]


def full_table(
    found: list[dict[str, object]],
) -> list[tuple[str, tuple[int, str] | None]]:
    """Every reading of one game of the JSON output: all its option values, verdict."""
    out: list[tuple[str, tuple[int, str] | None]] = []
    named = {tuple(v.values()): n for n, v in find_game("mosona").readings.items()}
    for reading in found:
        options = reading["options"]
        assert isinstance(options, dict) and list(options) == NAMES
        key = " ".join(options.values())
        name = named.get(tuple(options.values()))
        assert reading.get("name") == name  # a named reading says its name
        extra = {"name"} if name is not None else set()
        if reading["legal"]:
            assert set(reading) == {"options", "legal", *extra}
            out.append((key, None))
        else:
            assert set(reading) == {"options", "legal", "ply", "reason", *extra}
            ply, reason = reading["ply"], reading["reason"]
            assert isinstance(ply, int) and isinstance(reason, str)
            out.append((key, (ply, reason)))
    return out


def json_readings(path: Path) -> list[dict[str, object]]:
    result = invoke("readings", str(path), "--format", "json")
    assert (result.exit_code, result.stderr) == (0, "")
    games = json.loads(result.stdout)
    assert isinstance(games, list)
    return games


def test_the_culin_opening_is_legal_exactly_under_line_jumps_and_the_standard_start() -> None:
    [game] = json_readings(CULIN_FILE)
    assert (game["game"], game["line"], game["name"]) == (1, 1, "mosona")
    assert (game["title"], game["heading"]) == ("Awithlaknannai Mosona", "Culin's opening")
    readings_ = game["readings"]
    assert isinstance(readings_, list)
    assert table(readings_) == CULIN
    legal = [key for key, verdict in CULIN if verdict is None]
    assert legal == [
        "lined line right majority White",
        "lined line right draw White",
        "open line right majority White",
        "open line right draw White",
    ]
    # Of the added options, Blocked, NoCapture and Repetition cannot touch two plies
    # without a result; every capture of the record is a single hop after which the
    # piece cannot jump on under line jumps, so every Captures and Chains of line
    # jumps allows it (8 combinations: huff with one is refused).  Under bent jumps
    # White can capture on move 1, so b6-b5 needs optional captures (huff: Black must
    # first huff), and c5xa4 / c4xa5 stop where the piece could jump on, so the chain
    # must be allowed to end (one or stop).
    full = full_table(readings_)
    assert len(full) == 2048
    legal_full = {key for key, verdict in full if verdict is None}
    expected: set[str] = set()
    for key in legal:
        board, _jumps, middle, end, first = key.split()
        for rest in (
            f"{b} {n} {r}" for b in ("endrule", "loses") for n in ("off", "50")
            for r in ("off", "3")
        ):
            for captures, chains in (
                (c, ch) for c in ("compulsory", "optional", "huff")
                for ch in ("whole", "one", "stop") if (c, ch) != ("huff", "one")
            ):
                expected.add(f"{key} {captures} {chains} {rest}")
            for chains in ("one", "stop"):
                expected.add(
                    f"{board} bent {middle} {end} {first} optional {chains} {rest}"
                )
    assert legal_full == expected and len(expected) == 4 * 8 * 8 + 4 * 2 * 8 == 320


def test_a_record_with_a_bent_jump_is_legal_only_under_bent_jumps() -> None:
    [game] = json_readings(BENT_FILE)
    readings_ = game["readings"]
    assert isinstance(readings_, list)
    assert len(readings_) == 2048
    found = table(readings_)
    assert len(found) == 32
    assert [key for key, verdict in found if verdict is None] == [
        "lined bent right majority White",
        "lined bent right draw White",
    ]
    # every other reading fails on the first move, except the open board with bent
    # jumps, where White's first chain is legal and Black's reply is not
    plies = {key: verdict[0] for key, verdict in found if verdict is not None}
    assert {k for k, p in plies.items() if p == 2} == {
        "open bent right majority White",
        "open bent right draw White",
    }
    assert set(plies.values()) == {1, 2}
    verdicts = dict(found)
    assert verdicts["lined line right majority White"] == (1, BENT_R1)
    assert verdicts["open bent right draw White"] == (2, BENT_R8)


def test_each_verdict_is_the_validators_own() -> None:
    """A reading is legal exactly when the validator finds no error in the record with
    the reading's tags written into its text, and its reason is the validator's first
    message."""
    text = BENT_FILE.read_text(encoding="utf-8")
    [record] = read_records(str(BENT_FILE))
    assert record.game is not None
    every = game_readings(record.game).readings
    assert len(every) == 2048
    # the 32 readings of the first five options, and a sample of the others
    found = [
        r for i, r in enumerate(every)
        if i % 61 == 0 or [r.options[t] for t in ADDED] == list(ADDED.values())
    ]
    assert len(found) > 32
    for reading in found:
        tags = "".join(f'[{k} "{v}"]\n' for k, v in reading.options.items())
        body = "\n".join(line for line in text.splitlines() if not line.startswith("[Jumps"))
        rewritten = body.replace('[Game "mosona"]\n', f'[Game "mosona"]\n{tags}', 1)
        report = validate_game(read_game(rewritten))
        errors = [d for d in report.diagnostics if d.severity == "error"]
        assert reading.legal == (not errors) == report.valid
        if errors:
            first = min(errors, key=lambda d: d.ply or 0)
            assert (reading.ply, reading.reason, reading.code) == (
                first.ply,
                first.message,
                first.code,
            )


def test_the_text_table() -> None:
    result = invoke("readings", str(CULIN_FILE))
    assert (result.exit_code, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert lines[0] == "game 1 (line 1): Awithlaknannai Mosona — Culin's opening"
    assert lines[1] == (
        "  legal under 320 of 2048 readings (256 more combinations of options refused)"
    )
    assert lines[2].split() == [*NAMES, "reading"]
    assert lines[3] == (
        "  lined  line   right   majority  White  compulsory  whole   endrule  off        off"
        "         legal  (zrec; the record's own)"
    )
    assert all(line.split()[-1] == "legal" for line in lines[4:323])
    assert sum(line.split()[1] == "bent" for line in lines[3:323]) == 64
    # the 1728 illegal readings in 8 groups: same ply, same reason (less the legal moves)
    assert lines[323] == "  illegal under 1728, by first error:"
    assert lines[324:328] == [
        "    512  Middle=right First=Black",
        "         illegal at ply 1: " + R1.split("; legal")[0],
        "    512  Middle=left First=White; among them piecepack, ludii, piecepack-huff",
        "         illegal at ply 1: " + R2.split("; legal")[0],
    ]
    counts = [int(line.split()[0]) for line in lines[324:340:2]]
    assert counts == [512, 512, 416, 96, 96, 64, 16, 16] and sum(counts) == 1728
    # huff with one hop is no reading: 2 ** 8 combinations of the other options
    assert lines[340:] == [
        "  refused (256 combinations, not readings):",
        "    256  Captures=huff Chains=one",
        '         Captures "huff" cannot go with Chains "one": a huff also punishes a chain '
        'stopped while it could jump on, and under Chains "one" a capture is a single '
        'jump, so no chain goes on; take Captures "optional" or "compulsory" with '
        'Chains "one"',
    ]


def test_groups_say_when_they_are_not_all_the_readings_with_their_options() -> None:
    [found] = file_readings(read_records(str(SAMPLES / "kolowis.zrec")), "kolowis.zrec")
    groups = group_readings(found.illegal, found.readings)
    # 6144 readings (3072 more refused): 112 legal, all with White first
    assert (len(found.readings), len(found.refused)) == (6144, 3072)
    assert sum(len(g.readings) for g in groups) == len(found.illegal) == 6144 - 112
    assert [(g.ply, len(g.readings), g.alike) for g in groups] == [
        (1, 3072, 3072), (1, 384, 384), (1, 64, 64), (1, 64, 64), (1, 64, 64),
        (1, 64, 64), (2, 1216, 1536), (2, 128, 288), (2, 32, 32), (3, 64, 96),
        (3, 16, 16), (3, 16, 16), (7, 480, 768), (21, 144, 192), (56, 96, 128),
        (56, 96, 128), (56, 32, 48),
    ]
    assert groups[0].shared == {"First": "Black"}
    for g in groups:
        for r in g.readings:
            assert r.ply == g.ply and (r.reason or "").startswith(g.reason)
            assert all(r.options[t] == v for t, v in g.shared.items())
    text = invoke("readings", str(SAMPLES / "kolowis.zrec")).stdout
    assert (
        "    1216  Middle=left First=White (1216 of the 1536 readings with these); "
        "among them ludii\n" in text
    )


def test_every_game_of_a_file_and_its_own_options() -> None:
    games = json_readings(SAMPLES / "tournament.zrec")
    assert [g["game"] for g in games] == [1, 2, 3, 4, 5]
    for game in games:
        readings_ = game["readings"]
        own = game["own"]
        assert isinstance(readings_, list) and isinstance(own, dict)
        name = game["name"]
        assert isinstance(name, str)
        rules = find_game(name)
        refused = game.get("refused", [])
        assert isinstance(refused, list)
        # the readings and the refused combinations are every combination, in order
        every = list(combinations(rules))
        out = {tuple(r["options"].values()) for r in refused}
        assert [r["options"] for r in readings_] == [
            o for o in every if tuple(o.values()) not in out
        ]
        assert len(readings_) + len(refused) == len(every)
        assert any(r["options"] == own and r["legal"] for r in readings_)


def test_a_free_valued_setup_tag_stays_as_the_record_has_it() -> None:
    [found] = file_readings(read_records(str(SAMPLES / "awethi.zrec")), "awethi.zrec")
    rules = find_game("Awéthi")
    assert set(rules.inputs) >= {"Map"} and "Map" not in rules.options
    assert [r.options for r in found.readings] == list(combinations(rules))
    assert all(set(r.options) == set(rules.options) for r in found.readings)


def test_a_game_that_cannot_be_read_or_is_unknown_has_a_problem(tmp_path: Path) -> None:
    path = tmp_path / "two.zrec"
    path.write_text('[Game "mosona"]\n1. b6-b5 zz9 *\n\n[Game "chess"]\n1. e4 *\n')
    result = invoke("readings", str(path), "--format", "json")
    assert result.exit_code == 1
    first, second = json.loads(result.stdout)
    assert first["readings"] == [] and "zz9" in first["problem"]
    assert second["readings"] == [] and "names no game zrec knows" in second["problem"]
    text = invoke("readings", str(path))
    assert text.exit_code == 1 and "names no game zrec knows" in text.stdout


def test_standard_input_and_json_records_read_alike() -> None:
    text = CULIN_FILE.read_text(encoding="utf-8")
    from_stdin = invoke("readings", "-", "--format", "json", stdin=text)
    assert from_stdin.exit_code == 0
    [game] = json.loads(from_stdin.stdout)
    assert table(game["readings"]) == CULIN
    as_json = invoke("convert", "--to", "json", "-", stdin=text)
    assert as_json.exit_code == 0, as_json.stderr
    from_json = invoke("readings", "-", "--format", "json", stdin=as_json.stdout)
    assert from_json.exit_code == 0
    [game] = json.loads(from_json.stdout)
    assert [key for key, v in table(game["readings"]) if v is None] == [
        key for key, v in CULIN if v is None
    ]


@pytest.mark.parametrize("args", [("/no/such/file.zrec",), ("-x",), ()])
def test_bad_usage_exits_2(args: tuple[str, ...]) -> None:
    result = invoke("readings", *args)
    assert result.exit_code == 2
    if args == ("/no/such/file.zrec",):
        assert result.stderr == "zrec: cannot read /no/such/file.zrec: No such file or directory\n"


# -- the -O override helper ------------------------------------------------------------


GAME = read_game('[Game "mosona"]\n[Jumps "line"]\n\n1. b6-b5 b4xb6 *\n')


def test_parse_assignments() -> None:
    assert parse_assignments(["Jumps=bent", "Board = open", "Jumps=line"]) == {
        "Jumps": "line",
        "Board": "open",
    }
    for bad in ("Jumps", "=bent"):
        with pytest.raises(OverrideError, match="Tag=value"):
            parse_assignments([bad])


def test_check_overrides_spells_values_as_the_game_does_and_names_every_option() -> None:
    rules = find_game("mosona")
    assert check_overrides(rules, {"Jumps": "BENT", "First": "black"}) == {
        "Jumps": "bent",
        "First": "Black",
    }
    with pytest.raises(OverrideError) as unknown:
        check_overrides(rules, {"Jumpz": "bent"})
    assert str(unknown.value) == (
        "unknown option 'Jumpz' for Awithlaknannai Mosona: its options are Board, Jumps, "
        "Middle, EndRule, First, Captures, Chains, Blocked, NoCapture, Repetition"
    )
    with pytest.raises(OverrideError) as value:
        check_overrides(rules, {"Jumps": "zigzag"})
    assert str(value.value) == (
        "'zigzag' is not a value of Jumps for Awithlaknannai Mosona: its values are line, bent"
    )
    map_game = find_game("Awéthi")
    with pytest.raises(OverrideError, match="its setup tags are Map"):
        check_overrides(map_game, {"Jumps": "bent"})
    with pytest.raises(OverrideError, match=r"^bad Map for Awéthi: "):
        check_overrides(map_game, {"Map": "zz"})


def test_override_replaces_or_adds_tags_and_says_what_changed() -> None:
    read = override(GAME, {"Jumps": "Bent", "Board": "open", "First": "White"})
    assert read.tags == (
        ("Game", "mosona"),
        ("Jumps", "bent"),
        ("Board", "open"),
        ("First", "White"),
    )
    assert read.line == GAME.line and read.result == GAME.result
    found = changes(GAME, {"Jumps": "Bent", "Board": "open", "First": "White"})
    assert found == (
        Change("Jumps", "bent", "line", "line"),
        Change("Board", "open", None, "lined"),
    )
    assert describe(found) == (
        'read with Jumps "bent" (the record says "line"); '
        'Board "open" (the record has no Board tag: "lined" by default)'
    )
    assert describe(changes(GAME, {"Jumps": "LINE"})) == ""
    assert override(GAME, {}) is GAME
    assert not validate_game(read).valid  # b6-b5 is no capture: bent jumps force one
    with pytest.raises(OverrideError, match="names no game"):
        override(read_game('[Game "chess"]\n\n1. e4 *\n'), {"Jumps": "bent"})


def test_the_examples_of_docs_readings_md_are_real_output() -> None:
    """Every ``$ zrec readings ...`` block of docs/readings.md shows what the command
    prints."""
    text = (ROOT / "docs" / "readings.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```text\n\$ (zrec readings (?!--fit)[^\n]*)\n(.*?)\n```", text, re.S)
    assert len(blocks) == 3  # (the --fit example is run by tests/test_doc_examples.py)
    for command, shown in blocks:
        words, _, pipe = command.partition(" | ")
        args = words.split()[1:]
        result = runner.invoke(app, args, catch_exceptions=False, env={"COLUMNS": "200"})
        assert result.exit_code == 0, command
        printed = result.stdout.rstrip("\n").splitlines()
        # the listings of thousands of readings leave out the legal ones but the first
        assert pipe in ("", 'grep -v "  legal$"'), command
        if pipe:
            printed = [line for line in printed if not line.endswith("  legal")]
        assert shown.splitlines() == printed, command


def test_one_refused_combination_is_named_in_the_singular() -> None:
    # Stone Warriors: Ruleset "ludii" with First "Black" is the one refused combination
    sample = Path(__file__).resolve().parents[1] / "samples" / "stone-warriors.zrec"
    result = invoke("readings", str(sample))
    assert "  legal under 1 of 5 readings (1 more combination of options refused)\n" in (
        result.stdout
    )
