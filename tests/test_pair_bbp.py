"""zrec's Dutch pairings against bbpPairings on five tournaments it generates, round by
round (the small version of benchmarks/pairing_vs_bbp.py, which runs hundreds).

bbpPairings is not shipped with zrec nor built by CI: the test runs where
``$ZREC_BBP`` (or /tmp/bbp/bbpPairings.exe) is a built bbpPairings, and is skipped
elsewhere."""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import pytest

from zrec.tournament.pairtools import check, pairs_text
from zrec.tournament.swiss import first_colour_of
from zrec.tournament.trf import read_trf

BBP = Path(os.environ.get("ZREC_BBP", "/tmp/bbp/bbpPairings.exe"))
pytestmark = pytest.mark.skipif(
    not BBP.is_file(),
    reason=f"bbpPairings is not built at {BBP} (set ZREC_BBP to a built bbpPairings.exe)",
)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_zrec_pairs_bbppairings_tournaments_as_it_did(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    players, rounds = rng.randint(7, 24), rng.randint(5, 7)
    config = tmp_path / "g.cfg"
    config.write_text(
        f"PlayersNumber={players}\nRoundsNumber={rounds}\nDrawPercentage=30\n"
        "ForfeitRate=15\nRetiredRate=10\nHalfPointByeRate=8\nHighestRating=2600\n"
        "LowestRating=1400\n"
    )
    out = tmp_path / "t.trf"
    done = subprocess.run(
        [str(BBP), "--dutch", "-g", str(config), "-o", str(out), "-s", str(seed)],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    trf = read_trf(out.read_text(encoding="latin-1"), str(out))  # lines end in CR
    trf.rounds = rounds  # bbpPairings writes no XXR
    trf.first_colour = first_colour_of(trf.players) or "w"
    checked, found = check(trf)
    assert checked == rounds
    assert not found, [
        (d.round, pairs_text(d.actual), d.expected and pairs_text(d.expected), d.error)
        for d in found
    ]
