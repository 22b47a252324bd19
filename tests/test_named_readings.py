"""Named readings (``[Reading "piecepack"]``, ``-O Reading=NAME``) and refused
combinations of options (:class:`OptionConflict`): each a clear diagnostic or usage
error, never a traceback, in validate, show, perft and study."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from zrec import read_game
from zrec.check.validate import validate_game
from zrec.cli import app
from zrec.notation.reader import read_records
from zrec.play.overrides import OverrideError, changes, check_overrides, describe, override
from zrec.play.replay import GameSetupError, prepare_rules
from zrec.research.study import study_tags
from zrec.rules import all_games, find_game
from zrec.rules.base import (
    GameRules,
    OptionConflict,
    OptionError,
    Setting,
    chosen_options,
)

ROOT = Path(__file__).resolve().parents[1]
CULIN = ROOT / "samples" / "culin-opening.zrec"
runner = CliRunner()


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args))


def test_every_game_names_its_defaults_zrec_and_every_reading_names_every_option() -> None:
    for rules in all_games():
        assert next(iter(rules.readings)) == "zrec", rules.name
        assert dict(rules.readings["zrec"]) == {t: s.default for t, s in rules.options.items()}
        for name, values in rules.readings.items():
            assert list(values) == list(rules.options), (rules.name, name)
            for tag, value in values.items():
                assert value in rules.options[tag].values, (rules.name, name, tag)


def test_the_piecepack_reading_of_mosona_is_the_defaults_with_middle_left() -> None:
    mosona = find_game("mosona")
    assert dict(mosona.readings["piecepack"]) == {
        "Board": "lined", "Jumps": "line", "Middle": "left", "EndRule": "majority",
        "First": "White", "Captures": "compulsory", "Chains": "whole", "Blocked": "endrule",
        "NoCapture": "off", "Repetition": "off",
    }
    assert dict(mosona.readings["piecepack-huff"]) == {
        **mosona.readings["piecepack"], "Captures": "huff"
    }


def test_a_reading_fills_the_options_and_an_agreeing_tag_is_fine() -> None:
    mosona = find_game("mosona")
    assert chosen_options(mosona, {"Reading": "PiecePack "})["Middle"] == "left"
    assert chosen_options(mosona, {"Reading": "piecepack", "Middle": "Left"})["Middle"] == "left"
    assert chosen_options(mosona, {"Middle": "left"}) == dict(mosona.readings["piecepack"])


def test_a_tag_that_differs_from_the_reading_is_refused_naming_both() -> None:
    with pytest.raises(OptionConflict) as caught:
        chosen_options(find_game("mosona"), {"Reading": "piecepack", "Middle": "right"})
    assert str(caught.value) == (
        'Reading "piecepack" cannot go with Middle "right": the reading "piecepack" reads '
        'Middle "left"'
    )
    assert isinstance(caught.value, OptionError) and caught.value.tag == "Reading"


def test_an_unknown_reading_lists_the_known_ones() -> None:
    with pytest.raises(OptionError) as caught:
        chosen_options(find_game("mosona"), {"Reading": "nope"})
    assert str(caught.value) == (
        '[Reading "nope"] is not a known value; accepted: "zrec", "piecepack", '
        '"piecepack-huff", "ludii"'
    )


def _record(*tags: str, moves: str = "*") -> str:
    return "\n".join(['[Game "mosona"]', *tags, "", moves]) + "\n"


def test_validate_reports_the_conflict_at_the_reading_tag(tmp_path: Path) -> None:
    path = tmp_path / "c.zrec"
    path.write_text(_record('[Reading "piecepack"]', '[Middle "right"]'), encoding="utf-8")
    result = invoke("validate", str(path))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        f'{path}:2:1: error[option-conflict] game 1: Reading "piecepack" cannot go with '
        'Middle "right": the reading "piecepack" reads Middle "left"'
    )
    shown = invoke("show", str(path))
    assert shown.exit_code == 1 and "Traceback" not in shown.output
    assert shown.stderr == f"zrec: {result.stdout.splitlines()[0]}\n"


def test_a_record_under_a_named_reading_is_read_under_its_values() -> None:
    # White's man on b6 is Black's under Middle "left": the Culin opening is illegal
    game = read_game(_record('[Reading "piecepack"]', moves="1. b6-b5 *"))
    report = validate_game(game)
    assert [d.code for d in report.diagnostics] == ["illegal-move"]
    assert "there is no White piece on b6" in report.diagnostics[0].message
    assert validate_game(read_game(_record('[Reading "zrec"]', moves="1. b6-b5 *"))).valid


def test_validate_dash_o_reading_overrides_the_records_options(tmp_path: Path) -> None:
    path = tmp_path / "r.zrec"
    path.write_text(_record('[Middle "left"]', moves="1. b4-b5 *"), encoding="utf-8")
    assert invoke("validate", str(path)).exit_code == 0
    result = invoke("validate", str(path), "-O", "Reading=zrec")
    assert result.exit_code == 1
    assert "there is no White piece on b4" in result.stdout
    assert result.stderr == (
        'zrec: every game is read with Reading "zrec" (its own tags overridden)\n'
    )
    bad = invoke("validate", str(path), "-O", "Reading=nope")
    assert bad.exit_code == 2
    assert bad.stderr.startswith("zrec: 'nope' is not a value of Reading for any game: ")
    assert "Awithlaknannai Mosona takes zrec, piecepack" in bad.stderr


def test_override_with_a_reading_drops_the_records_option_tags() -> None:
    game = read_game(_record('[Board "open"]', '[Reading "zrec"]'))
    read = override(game, {"Reading": "piecepack"})
    assert [t for t in read.tags if t[0] != "Game"] == [("Reading", "piecepack")]
    assert describe(changes(game, {"Reading": "piecepack"})) == (
        'read with Reading "piecepack" (the record says "zrec")'
    )
    # a reading that gives the options the record has already changes nothing
    assert changes(read_game(_record('[Middle "left"]')), {"Reading": "piecepack"}) == ()
    assert changes(read_game(_record()), {"Reading": "ZREC"}) == ()
    with pytest.raises(OverrideError) as caught:
        check_overrides(find_game("mosona"), {"Reading": "piecepack", "Middle": "right"})
    assert str(caught.value) == (
        'Reading=piecepack and an option: Reading "piecepack" cannot go with Middle '
        '"right": the reading "piecepack" reads Middle "left"'
    )


def test_overriding_one_option_keeps_the_rest_of_the_records_reading() -> None:
    game = read_game(_record('[Reading "piecepack"]'))
    read = override(game, {"Board": "open"})
    assert [t for t in read.tags if t[0] != "Game"] == [("Middle", "left"), ("Board", "open")]
    assert chosen_options(find_game("mosona"), read.tag_map())["Middle"] == "left"
    assert describe(changes(game, {"Middle": "right"})) == (
        'read with Middle "right" (the record\'s reading "piecepack" says "left")'
    )


def test_perft_takes_a_named_reading() -> None:
    # Middle "left" mirrors the start: the same counts, other first moves
    named = invoke("perft", "--game", "mosona", "-O", "Reading=piecepack", "--depth", "4",
                   "--divide", "--format", "json")
    spelled = invoke("perft", "--game", "mosona", "-O", "Middle=left", "--depth", "4",
                     "--divide", "--format", "json")
    default = invoke("perft", "--game", "mosona", "--depth", "4", "--divide", "--format",
                     "json")
    assert named.exit_code == 0 and named.stdout == spelled.stdout
    assert '"total": 23' in named.stdout and '"b4-b5": 7' in named.stdout
    assert '"b4-b5"' not in default.stdout
    bad = invoke("perft", "--game", "mosona", "-O", "Reading=ludi", "--depth", "2")
    assert bad.exit_code == 2
    assert bad.stderr == (
        "zrec: 'ludi' is not a reading of Awithlaknannai Mosona: its readings are "
        "zrec, piecepack, piecepack-huff, ludii\n"
    )


def test_study_takes_named_readings_side_by_side() -> None:
    mosona = find_game("mosona")
    assert study_tags(mosona, [("Reading", "PIECEPACK")]) == [("Reading", "piecepack")]
    result = invoke("study", "--game", "mosona", "-O", "Reading=zrec", "-O",
                    "Reading=piecepack", "--games", "4", "--format", "json", "-q")
    assert result.exit_code == 0, result.output
    assert '"Reading": "piecepack"' in result.stdout
    conflict = invoke("study", "--game", "mosona", "-O", "Reading=piecepack", "-O",
                      "Middle=right", "--games", "2", "-q")
    assert conflict.exit_code == 2
    assert conflict.stderr == (
        'zrec: Reading "piecepack" cannot go with Middle "right": the reading '
        '"piecepack" reads Middle "left"\n'
    )


class _Refusing:
    """A game whose engine refuses a combination of its options, as a game does when
    a tag makes no sense with another: Awithlaknannai Mosona, refusing open boards
    played with bent jumps."""

    def __init__(self, rules: GameRules) -> None:
        self.rules = rules

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rules, name)

    def engine_for(self, setting: Setting) -> Any:
        if setting.options["Board"] == "open" and setting.options["Jumps"] == "bent":
            raise OptionConflict("Board", "open", "Jumps", "bent", "no such game")
        return self.rules.engine_for(setting)


def test_a_refused_combination_is_a_setup_error_naming_the_conflict() -> None:
    refusing: Any = _Refusing(find_game("mosona"))
    assert prepare_rules(refusing, {"Board": "open"}).engine is not None
    with pytest.raises(GameSetupError) as caught:
        prepare_rules(refusing, {"Board": "open", "Jumps": "bent"})
    assert caught.value.code == "option-conflict"
    assert caught.value.tag == "Board"
    assert caught.value.message == 'Board "open" cannot go with Jumps "bent": no such game'


def test_readings_counts_refused_combinations_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    from zrec.check import readings
    from zrec.cli import research
    from zrec.play import replay

    refusing: Any = _Refusing(find_game("mosona"))
    for module in (readings, replay):
        monkeypatch.setattr(module, "find_game", lambda name: refusing)
    [found] = readings.file_readings(read_records(str(CULIN)), "culin")
    # 2,304 combinations: 576 open with bent (64 of them also huff with one, refused
    # here as open with bent, the first check), and 256 - 64 huff with one
    assert len(found.readings) == 1536 and len(found.refused) == 768
    open_bent = [r for r in found.refused
                 if r.options["Board"] == "open" and r.options["Jumps"] == "bent"]
    assert len(open_bent) == 576
    assert all(r.reason == 'Board "open" cannot go with Jumps "bent": no such game'
               for r in open_bent)
    assert all(r.options["Captures"] == "huff" and r.options["Chains"] == "one"
               for r in found.refused if r not in open_bent)
    # the 320 legal readings of the Culin opening less the 32 open ones with bent jumps
    assert len(found.legal) == 288
    document = found.to_json()
    assert len(document["readings"]) == 1536 and len(document["refused"]) == 768
    assert document["refused"][0] == {
        "options": {"Board": "lined", "Jumps": "line", "Middle": "right",
                    "EndRule": "majority", "First": "White", "Captures": "huff",
                    "Chains": "one", "Blocked": "endrule", "NoCapture": "off",
                    "Repetition": "off"},
        "reason": 'Captures "huff" cannot go with Chains "one": a huff also punishes a '
        'chain stopped while it could jump on, and under Chains "one" a capture is a '
        'single jump, so no chain goes on; take Captures "optional" or "compulsory" '
        'with Chains "one"',
    }
    lines = research._table(found).splitlines()
    assert lines[1] == (
        "  legal under 288 of 1536 readings (768 more combinations of options refused)"
    )
    assert lines[-5:-2] == [
        "  refused (768 combinations, not readings):",
        "    576  Board=open Jumps=bent",
        '         Board "open" cannot go with Jumps "bent": no such game',
    ]
    assert lines[-2] == "    192  Captures=huff Chains=one (192 of the 256 readings with these)"


def test_archive_search_and_tree_read_a_named_reading_as_its_options(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    samples = sorted(str(p) for p in (ROOT / "samples").glob("*.zrec"))
    assert invoke("archive", "import", "--db", db, "-q", *samples).exit_code == 0
    named = invoke("archive", "search", "--db", db, "--game", "mosona", "-O", "Reading=zrec")
    spelled = invoke("archive", "search", "--db", db, "--game", "mosona", "-O", "Board=lined",
                     "-O", "Jumps=line", "-O", "Middle=right", "-O", "EndRule=majority",
                     "-O", "First=White")  # the zrec reading, spelled out
    assert named.exit_code == 0 and named.stdout == spelled.stdout
    assert "Culin's opening" in named.stdout
    alone = invoke("archive", "search", "--db", db, "-O", "Reading=zrec")
    assert alone.exit_code == 2
    assert alone.stderr == "zrec: Reading=zrec names a reading of one game: give the game too\n"
    defaults = ["-O", "Board=lined", "-O", "Jumps=line", "-O", "Middle=right", "-O",
                "EndRule=majority", "-O", "First=White"]
    tree = invoke("archive", "tree", "--db", db, "--game", "mosona", "-O", "Reading=zrec")
    plain = invoke("archive", "tree", "--db", db, "--game", "mosona", *defaults)
    assert tree.exit_code == 0 and tree.stdout == plain.stdout
    assert tree.stdout.endswith("2 moves, 4 games\n")
