"""``zrec show``: exit codes, several files and ``--node``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from zrec.cli import app

runner = CliRunner()
VARIATION = '[Game "mosona"]\n\n1. b6-b5 (1. a4-b5 c5xa4) b4xb6 *\n'  # moves 1 (2 3) 4
ALTERNATIVE = '[Game "mosona"]\n\n1. a4-b5 c5xa4 *\n'  # the variation as a main line
ILLEGAL_IN_VARIATION = '[Game "mosona"]\n\n1. b6-b5 (1. a4-b5 c5-b6) b4xb6 *\n'
ILLEGAL = '[Game "mosona"]\n\n1. b6-b5 c5-b6 *\n'


def invoke(*args: str, stdin: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=stdin)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    out = {}
    for name, text in [
        ("variation", VARIATION),
        ("alternative", ALTERNATIVE),
        ("illegal", ILLEGAL_IN_VARIATION),
        ("broken", ILLEGAL),
    ]:
        path = tmp_path / f"{name}.zrec"
        path.write_text(text)
        out[name] = str(path)
    return out


def shown(*args: str) -> str:
    result = invoke("show", *args)
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    return result.stdout


# -- 5. bad usage is exit 2 everywhere ---------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ply", "99"], "the main line has only 2 moves; --ply must be 0 to 2"),
        (["--game", "2"], "{file}: there is no game 2 in the file (it has 1)"),
        (["--node", "5"], "the record has 4 moves, variations included; --node must be 0 to 4"),
        (
            ["--node", "1", "--ply", "1"],
            "--ply and --node each choose a position: give one of them",
        ),
    ],
)
def test_show_out_of_range_is_bad_usage(
    files: dict[str, str], args: list[str], message: str
) -> None:
    result = invoke("show", files["variation"], *args)
    message = message.format(file=files["variation"])
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"zrec: {message}\n")


def test_show_an_invalid_record_is_exit_1(files: dict[str, str]) -> None:
    result = invoke("show", files["illegal"], "--node", "3")
    assert result.exit_code == 1
    # said as validate says it: file, line and column of the move, code, game and ply
    assert result.stderr == (
        f"zrec: {files['illegal']}:3:20: error[illegal-move] game 1, ply 2: move 1 (Black) "
        "(in a variation): c5-b6 is illegal: b6 is not empty; legal moves: c5xa4\n"
    )


def test_show_says_where_a_record_goes_wrong_as_validate_does() -> None:
    invalid = Path(__file__).resolve().parents[1] / "samples" / "invalid"
    sample = str(invalid / "illegal-move.zrec")
    result = invoke("show", sample)
    assert (result.exit_code, result.stdout) == (1, "")
    checked = invoke("validate", sample)
    assert result.stderr == f"zrec: {checked.stdout.splitlines()[0]}\n"
    assert result.stderr.startswith(f"zrec: {sample}:2:10: error[illegal-move] game 1, ply 2: ")
    setup = invoke("show", str(invalid / "bad-option.zrec"))
    assert setup.exit_code == 1
    assert setup.stderr == (
        f'zrec: {invalid / "bad-option.zrec"}:2:1: error[bad-option] game 1: [Jumps '
        '"diagonal"] is not a known value; accepted: "line", "bent"\n'
    )


# -- 10. --node: the position after the N-th move written --------------------------------


def test_show_node_follows_the_variations(files: dict[str, str]) -> None:
    inside = shown(files["variation"], "--node", "3")
    assert inside.startswith("Awithlaknannai Mosona, after ply 2 (c5xa4)\n")
    assert inside == shown(files["alternative"])
    assert shown(files["variation"], "--node", "2") == shown(files["alternative"], "--ply", "1")
    assert shown(files["variation"], "--node", "4") == shown(files["variation"], "--ply", "2")
    assert shown(files["variation"], "--node", "1") == shown(files["variation"], "--ply", "1")
    assert shown(files["variation"], "--node", "0") == shown(files["variation"], "--ply", "0")


def test_show_node_before_an_illegal_move(files: dict[str, str]) -> None:
    assert shown(files["illegal"], "--node", "2") == shown(files["alternative"], "--ply", "1")
    # the main line, the default, does not pass through the variation
    assert shown(files["illegal"]) == shown(files["variation"])
    # zrec.play.path_to stops at an illegal move met earlier in file order, even in a
    # variation the move asked for does not lie in
    assert invoke("show", files["illegal"], "--node", "4").exit_code == 1


def test_show_help_documents_node() -> None:
    text = " ".join(invoke("show", "--help").stdout.replace("│", " ").split())
    assert "--node" in text and "variations included" in text and "not both" in text


# -- 7. several files --------------------------------------------------------------------


def test_show_several_files_each_under_its_name(files: dict[str, str]) -> None:
    result = invoke("show", files["variation"], files["alternative"], "--ply", "1")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == (
        f"==> {files['variation']} <==\n"
        + shown(files["variation"], "--ply", "1")
        + f"\n==> {files['alternative']} <==\n"
        + shown(files["alternative"], "--ply", "1")
    )


def test_show_several_files_goes_on_after_a_bad_one(files: dict[str, str]) -> None:
    result = invoke("show", files["broken"], "/no/such.zrec", files["alternative"])
    assert result.exit_code == 2
    assert result.stderr == (
        f"zrec: {files['broken']}:3:10: error[illegal-move] game 1, ply 2: move 1 (Black): "
        "c5-b6 is illegal: a capture is compulsory here; legal moves: b4xb6\n"
        "zrec: cannot read /no/such.zrec: No such file or directory\n"
    )
    assert result.stdout == (
        f"==> {files['broken']} <==\n"
        "\n==> /no/such.zrec <==\n"
        f"\n==> {files['alternative']} <==\n" + shown(files["alternative"])
    )


def test_show_reads_standard_input_once(files: dict[str, str]) -> None:
    result = invoke("show", "-", "-", stdin=ALTERNATIVE)
    assert (result.exit_code, result.stdout) == (0, shown(files["alternative"]))


SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def test_show_says_once_how_a_finished_game_ended(tmp_path: Path) -> None:
    """The end of a finished game is one sentence, with its result once, in every game."""
    random = invoke("random", "--game", "awethi", "--seats", "3", "--seed", "1")
    assert random.exit_code == 0
    three = tmp_path / "three.zrec"
    three.write_text(random.stdout, encoding="utf-8")
    ends = {
        str(SAMPLES / "mosona-lined.zrec"): (
            "The game is over: White has no pieces left, so Black wins (0-1)."
        ),
        str(SAMPLES / "stone-warriors.zrec"): (
            "The game is over: every Black piece on the board stands on White's home arm;"
            " the score is 5-4 (1-0)."
        ),
        str(three): (
            "The game is over: Shepherd3's herd is gone; no shelter holds 3 animals or more"
            " (the most is 2), so the Wolves win (0-0-0-1)."
        ),
    }
    for path, end in ends.items():
        text = shown(path)
        said = [
            line
            for line in text.splitlines()
            if "game over" in line.lower() or "game is over" in line.lower()
        ]
        assert said == [end], path
        assert text.endswith(end + "\n"), path
