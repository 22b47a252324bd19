"""The registry's shortcut for the usual names agrees with the full list of games, and
looking a game up by its usual name imports that game's module only."""

from __future__ import annotations

import subprocess
import sys

from zrec.rules import all_games, find_game, usual_names


def test_every_usual_name_finds_the_game_the_list_has() -> None:
    games = {g.name: g for g in all_games()}
    assert list(usual_names()) == [g.name for g in all_games()]
    for name in usual_names():
        assert find_game(name) is games[name]


def test_a_usual_name_imports_one_game_module() -> None:
    code = (
        "import sys; from zrec.rules import find_game; find_game('kolowis'); "
        "print(sorted(m for m in sys.modules if m in ('zrec.rules.serpent.rules', "
        "'zrec.rules.stonewarriors.rules', 'zrec.rules.awethi.rules')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "['zrec.rules.serpent.rules']"
