"""``zrec pair``: a round paired from a TRF file, the pairings checker and the random
tournament generator, on zrec's own cases (tests/data/pairing/README.md: their
pairings were checked against bbpPairings before they were committed) and on the
samples of docs/tournaments.md.  The pairings themselves are the Dutch engine's
(zrec.tournament.swiss); these tests hold the tools around it to exact output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from zrec.cli import app
from zrec.tournament.event import Round
from zrec.tournament.pairtools import (
    check,
    next_round,
    pair_file,
    paired_rounds,
    played,
)
from zrec.tournament.trf import Trf, TrfError, read_trf
from zrec.tournament.trfwrite import trf_text

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "data" / "pairing"
SAMPLES = ROOT / "samples" / "tournaments"
runner = CliRunner()


def pair(*args: str) -> Result:
    result = runner.invoke(app, ["pair", *args])
    assert "Traceback" not in result.stdout + result.stderr
    return result


def refused(result: Result, message: str) -> None:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr == f"zrec: {message}\n"


def case(seed: int) -> Trf:
    return read_trf((CASES / f"random-{seed}.trf").read_text(), f"random-{seed}.trf")


@pytest.mark.parametrize("seed", [1, 2, 21, 22, 32, 67])
def test_every_round_of_a_case_is_paired_as_expected(seed: int) -> None:
    trf = case(seed)
    expected = json.loads((CASES / f"random-{seed}.json").read_text())
    assert [r["round"] for r in expected] == list(range(1, trf.rounds + 1))
    for r in expected:
        pairs = tuple((w, b) for w, b in r["pairs"])
        pairing = pair_file(trf, r["round"])
        assert (pairing.pairs, pairing.bye) == (pairs, r["bye"]), r["round"]
        # the file holds what the generator paired: the same games and colours
        assert set(played(trf, r["round"]).pairs) == set(pairs)
        assert played(trf, r["round"]).bye == r["bye"]


SWISS_R3 = "5\n1 3\n2 5\n6 4\n7 8\n10 0\n"


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_the_next_round_is_printed_as_bbppairings_p_file(newline: str, tmp_path: Path) -> None:
    text = (SAMPLES / "swiss-r3.trf").read_text()
    path = tmp_path / "r3.trf"
    path.write_bytes(text.replace("\n", newline).encode())
    result = pair(str(path))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == SWISS_R3
    # player 9's half-point bye, entered before the round, keeps him out of it
    assert "9" not in result.stdout.split()


def test_json_and_round_options() -> None:
    file = str(SAMPLES / "swiss-r3.trf")
    result = pair(file, "--round", "3", "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == [
        {"white": 1, "black": 3},
        {"white": 2, "black": 5},
        {"white": 6, "black": 4},
        {"white": 7, "black": 8},
        {"bye": 10},
    ]
    refused(pair(file, "--round", "2"), f"{file}: round 2 is already paired in the file")
    refused(
        pair(file, "--round", "6"),
        f"{file}: round 6 is past the 5 rounds of the event (the XXR line declares them)",
    )
    refused(pair(file, "--format", "text"), "--format is pairs or json, not 'text'")
    final = str(SAMPLES / "swiss-final.trf")
    refused(pair(final), f"{final}: every round is paired already (5, as XXR declares)")


def test_a_column_of_absences_alone_is_not_a_paired_round() -> None:
    trf = read_trf((SAMPLES / "swiss-r3.trf").read_text())
    assert paired_rounds(trf) == [1, 2]
    assert next_round(trf) == 3
    trf.players[0].rounds[4] = Round(4, "Z")  # an absence entered two rounds ahead
    assert next_round(trf) == 3


def test_unpairable_input_is_refused_with_the_engines_reason(tmp_path: Path) -> None:
    path = tmp_path / "two.trf"
    path.write_text(
        "012 Two players\nXXR 2\n"
        + "001    1      Adams".ljust(80) + " 1.0    1     2 w 1\n"
        + "001    2      Brown".ljust(80) + " 0.0    2     1 b 0\n"
    )
    result = pair(str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"zrec: {path}: round 2 cannot be paired: ")
    assert "no two players meet twice" in result.stderr
    no_rounds = tmp_path / "no-xxr.trf"
    no_rounds.write_text(path.read_text().replace("XXR 2\n", ""))
    refused(
        pair(str(no_rounds)),
        f"{no_rounds}: no XXR line: the number of rounds is needed to pair",
    )


def test_the_usage_errors() -> None:
    refused(pair(), "give a TRF file to pair (or --random-tournament)")
    file = str(SAMPLES / "swiss-final.trf")
    refused(pair(file, "--check", "--round", "2"),
            "--check re-pairs every round and lists the differences: give no --round or "
            "--format")
    refused(pair(file, "--seed", "3"), "--seed: only with --random-tournament")
    refused(
        pair(file, "--random-tournament"),
        "--random-tournament writes a new file: give no FILE, --check, --round or --format",
    )


def test_check_passes_a_finished_event_and_finds_the_planted_pairing() -> None:
    final = str(SAMPLES / "swiss-final.trf")
    result = pair("--check", final)
    assert (result.exit_code, result.stdout) == (
        0,
        f"{final}: the 5 rounds agree with the Dutch system\n",
    )
    planted = str(SAMPLES / "swiss-planted.trf")
    result = pair("--check", planted)
    assert result.exit_code == 1
    assert result.stdout == (
        "round 5: the pairing differs from the Dutch system's\n"
        "  file:  4-1 2-5 6-3 10-7 8-9\n"
        "  Dutch: 6-3 5-1 2-4 10-7 8-9\n"
        f"{planted}: 1 of the 5 rounds differs from the Dutch system\n"
    )


def test_check_reads_a_file_without_xxr_and_with_cr_lines(tmp_path: Path) -> None:
    """As bbpPairings writes them: a finished file needs no XXR to be checked."""
    text = (SAMPLES / "swiss-final.trf").read_text().replace("XXR 5\n", "")
    path = tmp_path / "cr.trf"
    path.write_bytes(text.replace("\n", "\r").encode())
    result = pair("--check", str(path))
    assert (result.exit_code, result.stdout) == (
        0,
        f"{path}: the 5 rounds agree with the Dutch system\n",
    )
    entries = tmp_path / "entries.trf"
    entries.write_text("012 Entries\nXXR 3\n001    1      Adams\n001    2      Brown\n")
    result = pair("--check", str(entries))
    assert result.stdout == f"{entries}: no round is paired yet: nothing to check\n"
    result = pair(str(entries))
    assert (result.exit_code, result.stdout) == (0, "1\n1 2\n")


def _swap(trf: Trf, number: int, a: int, c: int) -> None:
    """Swap the opponents of ``a`` and ``c`` in round ``number``, each keeping his own
    colour and result (so that the points stay as they were)."""
    by = {p.number: p for p in trf.players}
    ra, rc = by[a].rounds[number], by[c].rounds[number]
    assert ra.opponent is not None and rc.opponent is not None
    b, d = ra.opponent, rc.opponent
    rb, rd = by[b].rounds[number], by[d].rounds[number]
    by[a].rounds[number] = Round(number, ra.code, (d,), ra.colour)
    by[d].rounds[number] = Round(number, rd.code, (a,), rd.colour)
    by[c].rounds[number] = Round(number, rc.code, (b,), rc.colour)
    by[b].rounds[number] = Round(number, rb.code, (c,), rb.colour)


@pytest.mark.parametrize(("seed", "number"), [(22, 3), (1, 9)])
def test_check_finds_two_opponents_swapped(seed: int, number: int, tmp_path: Path) -> None:
    trf = case(seed)
    assert check(trf) == (trf.rounds, [])
    games = played(trf, number).pairs
    (w1, b1), (w2, b2) = games[0], games[1]  # two whites: each keeps white
    _swap(trf, number, w1, w2)
    path = tmp_path / "planted.trf"
    path.write_text(trf_text(trf))
    again = read_trf(path.read_text())
    checked, found = check(again)
    assert checked == trf.rounds
    assert found[0].round == number
    assert {(w1, b2), (w2, b1)} <= set(found[0].actual.pairs)
    assert found[0].expected is not None
    assert set(found[0].expected.pairs) == set(games)
    result = pair("--check", str(path))
    assert result.exit_code == 1
    assert result.stdout.startswith(f"round {number}: the pairing differs")


def test_a_random_tournament_is_the_same_for_a_seed(tmp_path: Path) -> None:
    one, two, other = tmp_path / "1.trf", tmp_path / "2.trf", tmp_path / "3.trf"
    for path, seed in ((one, "4"), (two, "4"), (other, "5")):
        result = pair("--random-tournament", "--players", "13", "--rounds", "6",
                      "--seed", seed, "-o", str(path))
        assert result.exit_code == 0, result.stderr
    assert one.read_bytes() == two.read_bytes()
    assert one.read_bytes() != other.read_bytes()
    trf = read_trf(one.read_text())
    assert (len(trf.players), trf.rounds, trf.first_colour) == (13, 6, "w")
    ratings = [p.rating or 0 for p in trf.players]
    assert ratings == sorted(ratings, reverse=True)
    assert all(1400 <= r <= 2600 for r in ratings)
    assert paired_rounds(trf) == [1, 2, 3, 4, 5, 6]
    assert pair("--check", str(one)).exit_code == 0
    lines = one.read_text().splitlines()
    assert lines[:4] == ["012 Random tournament 4", "062 13", "XXR 6", "XXC white1"]


def test_a_random_tournament_that_cannot_be_paired_is_refused() -> None:
    refused(
        pair("--random-tournament", "--players", "2", "--rounds", "3"),
        "random tournament (seed 1): round 2 cannot be paired: no pairing of the 2 players "
        "meets the absolute criteria (no two players meet twice, no forbidden pair, no "
        "colour against an absolute preference, at most one bye and only to a player who "
        "has not had one)",
    )


def test_a_round_after_one_not_paired_is_refused() -> None:
    refused(
        pair(str(SAMPLES / "swiss-r3.trf"), "--round", "5"),
        f"{SAMPLES / 'swiss-r3.trf'}: round 3 is not paired yet in the file: rounds are "
        "paired in order (round 5 would have every player absent before it)",
    )


# -- the points of a player line: with or without the round to be paired -------------

#: five players after round 1; Ely, given the pairing-allocated bye in round 1, has a
#: half-point bye entered for round 2 and (POINTS5) points
TWO_FORMS = """012 Two forms
XXR 3
XXC white1
001    1      Adams, Ada                        2100                             1.0          3 w 1
001    2      Brown, Bea                        2000                             0.5          4 b =
001    3      Clark, Cy                         1900                             0.0          1 b 0
001    4      Dunn, Dov                         1800                             0.5          2 w =
001    5      Ely, Eve                          1700                             POINTS5       0000 - U  0000 - H
"""  # noqa: E501 (a TRF line is as wide as its columns)


@pytest.mark.parametrize("points", ["1.5", "1.0"])
def test_points_with_or_without_the_byes_of_the_round_to_be_paired(
    points: str, tmp_path: Path
) -> None:
    """bbpPairings and JaVaFo read a player's points with or without the byes and
    absences already entered for the round to be paired (1.5 or 1.0 here); so does
    zrec, and pairs the round the same either way (bbpPairings: 2-1, 3-4)."""
    path = tmp_path / "two.trf"
    path.write_text(TWO_FORMS.replace("POINTS5", points))
    done = pair(str(path))
    assert (done.exit_code, done.stdout) == (0, "2\n2 1\n3 4\n")
    assert read_trf(path.read_text()).players[4].points() == 1.5  # every round counts


def test_points_that_are_neither_form_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "two.trf"
    path.write_text(TWO_FORMS.replace("POINTS5", "2.0"))
    refused(
        pair(str(path)),
        f"{path}: player 5 (Ely, Eve) has 2.0 points, but the rounds give 1.5 (1.0 without "
        "the rounds not paired yet, from round 2)",
    )
    # byes entered for every round left: the rounds paired, alone or with the next
    later = TWO_FORMS.replace("0000 - H", "0000 - H  0000 - F")
    for points in ("2.5", "1.5", "1.0"):
        assert read_trf(later.replace("POINTS5", points)).players[4].points() == 2.5
    with pytest.raises(TrfError) as refusal:
        read_trf(later.replace("POINTS5", "2.0"), "later.trf")
    assert str(refusal.value) == (
        "later.trf: player 5 (Ely, Eve) has 2.0 points, but the rounds give 2.5 (1.0 "
        "without the rounds not paired yet, from round 2)"
    )
    # once round 2 is paired, a bye entered for it counts like any other round
    paired = later.replace("0.5          4 b =", "0.5          4 b =     3 w  ").replace(
        "0.0          1 b 0", "0.0          1 b 0     2 b  "
    )
    assert read_trf(paired.replace("POINTS5", "1.5")).players[4].points() == 2.5
    with pytest.raises(TrfError, match=r"has 1\.0 points, but the rounds give 2\.5 \(1\.5 "):
        read_trf(paired.replace("POINTS5", "1.0"))


def test_the_errors_of_a_trf_file_and_a_pairing_are_the_tournament_layers() -> None:
    """A bad TRF file and an unpairable round are errors of the tournament layer:
    ZrecErrors (the CLI prints them as it prints every error of zrec), not an
    archive's, since no archive is involved."""
    from zrec.archive import ArchiveError
    from zrec.errors import ZrecError
    from zrec.tournament.event import Entrant, EventError
    from zrec.tournament.swiss import PairingError, pair_round

    with pytest.raises(TrfError) as bad:
        read_trf("012 nothing\n", "x.trf")
    assert str(bad.value) == "x.trf has no player line (001)"
    ada = Entrant(1, 0, "Ada", {1: Round(1, "1", (2,), "w")})
    bob = Entrant(2, 0, "Bob", {1: Round(1, "0", (1,), "b")})
    with pytest.raises(PairingError) as unpairable:  # they met in round 1
        pair_round([ada, bob], 2, 3)
    assert str(unpairable.value).startswith("round 2 cannot be paired")
    for error in (bad.value, unpairable.value):
        assert isinstance(error, EventError) and isinstance(error, ZrecError)
        assert not isinstance(error, ArchiveError)
        assert type(error).__module__.startswith("zrec.tournament.")
