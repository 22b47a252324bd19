"""``-O Tag=value`` on the commands that replay a record: the record is read under the
given option (its own tag overridden), the command says so, and a tag the game has
not is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from zrec.cli import app

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
BENT = str(SAMPLES / "mosona-bent.zrec")
CULIN = str(SAMPLES / "culin-opening.zrec")
runner = CliRunner()


def test_diagram_under_another_reading(tmp_path: Path) -> None:
    out = tmp_path / "d.svg"
    own = runner.invoke(app, ["diagram", CULIN, "-o", str(out)])
    assert own.exit_code == 0 and own.stderr == ""
    # Culin's opening read with bent jumps: White's first move skips a compulsory capture
    bent = runner.invoke(app, ["diagram", CULIN, "-O", "Jumps=bent", "-o", str(out)])
    assert bent.exit_code == 1
    assert bent.stderr.splitlines() == [
        'zrec: game 1: read with Jumps "bent" (the record has no Jumps tag: "line" by '
        'default)',
        "zrec: ply 1, move 1 (White): b6-b5 is illegal: a capture is compulsory here",
    ]
    same = runner.invoke(app, ["diagram", CULIN, "-O", "jumps=LINE", "-o", str(out)])
    assert same.exit_code == 2 and "unknown option 'jumps'" in same.stderr
    again = runner.invoke(app, ["diagram", CULIN, "-O", "Jumps=LINE", "-o", str(out)])
    assert again.exit_code == 0 and again.stderr == ""  # the record's own reading


def test_html_under_another_reading(tmp_path: Path) -> None:
    out = tmp_path / "p.html"
    line = runner.invoke(app, ["html", BENT, "-O", "Jumps=line", "-o", str(out)])
    assert line.exit_code == 1 and not out.exists()
    assert line.stderr.startswith('zrec: game 1: read with Jumps "line" (the record says '
                                  '"bent")')
    board = runner.invoke(app, ["html", BENT, "-O", "Board=lined", "-o", str(out)])
    assert board.exit_code == 0 and board.stderr == ""
    wrong = runner.invoke(app, ["html", BENT, "-O", "Jumps", "-o", str(out)])
    assert wrong.exit_code == 2
    assert "an override is written Tag=value (e.g. Jumps=bent), not 'Jumps'" in wrong.stderr


def test_validate_under_another_reading() -> None:
    own = runner.invoke(app, ["validate", BENT])
    assert own.exit_code == 0
    line = runner.invoke(app, ["validate", BENT, "-O", "Jumps=line"])
    assert line.exit_code == 1
    assert line.stderr == 'zrec: every game is read with Jumps "line" (its own tags overridden)\n'
    assert "error[illegal-move] game 1, ply 1: move 1 (White): a3xb5xb4xa3 is illegal: " \
        "there is no jump from a3 to b5" in line.stdout
    jobs = runner.invoke(app, ["validate", BENT, BENT, CULIN, "-O", "Jumps=line", "--jobs", "2"])
    one = runner.invoke(app, ["validate", BENT, BENT, CULIN, "-O", "Jumps=line"])
    assert jobs.stdout == one.stdout and jobs.exit_code == one.exit_code == 1
    unknown = runner.invoke(app, ["validate", BENT, "-O", "Jumpz=line"])
    assert unknown.exit_code == 2
    assert unknown.stderr == "zrec: unknown option 'Jumpz': no game zrec knows has it\n"
    value = runner.invoke(app, ["validate", CULIN, "-O", "Jumps=bnt"])
    assert value.exit_code == 2 and value.stdout == ""


def test_show_under_another_reading() -> None:
    shown = runner.invoke(app, ["show", BENT, "-O", "Jumps=line", "--ply", "0"])
    assert shown.exit_code == 0
    assert shown.stderr == 'zrec: read with Jumps "line" (the record says "bent")\n'
    own = runner.invoke(app, ["show", BENT, "--ply", "0"])
    assert own.stdout != shown.stdout  # the legal moves differ: no bent jumps


@pytest.mark.parametrize(
    "args",
    [
        ["validate", CULIN],
        ["validate", CULIN, "--jobs", "2"],
        ["show", CULIN],
        ["diagram", CULIN, "-o", "{tmp}/d.svg"],
        ["html", CULIN, "-o", "{tmp}/p.html"],
        ["perft", "--game", "mosona", "--depth", "1"],
        ["random", "--game", "mosona"],
        ["study", "--game", "mosona", "--games", "1"],
        ["archive", "search", "--db", "{tmp}/a.sqlite"],
        ["archive", "search", "--db", "{tmp}/a.sqlite", "--game", "mosona"],
    ],
)
def test_a_bad_option_value_on_the_command_line_is_a_usage_error(
    args: list[str], tmp_path: Path
) -> None:
    if args[0] == "archive":
        assert runner.invoke(app, ["archive", "import", "--db", f"{tmp_path}/a.sqlite", CULIN])
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args] + ["-O", "Jumps=bnet"]
    result = runner.invoke(app, argv)
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert "'bnet' is not a value of Jumps" in result.stderr
    assert "line, bent" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) in ([], ["a.sqlite"])


def test_a_value_no_game_takes_names_every_game_with_the_option() -> None:
    result = runner.invoke(app, ["validate", CULIN, "-O", "Jumps=bnet"])
    assert result.stderr == (
        "zrec: 'bnet' is not a value of Jumps for any game: "
        "Awithlaknannai Mosona takes line, bent; Kolowis Awithlaknannai takes line, bent\n"
    )
