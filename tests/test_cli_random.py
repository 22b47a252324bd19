"""``zrec random``: tags given with -O."""

from __future__ import annotations

from typer.testing import CliRunner

from zrec.cli import app

runner = CliRunner()


def test_random_option_replaces_a_default_tag() -> None:
    result = runner.invoke(app, ["random", "--game", "mosona", "-O", "Event=X", "-O", "Site=Y"])
    assert result.exit_code == 0
    header = [line for line in result.stdout.splitlines() if line.startswith("[")]
    names = [line.split(" ")[0] for line in header]
    assert len(names) == len(set(names)), header
    assert header[:3] == ['[Game "mosona"]', '[Event "X"]', '[Site "Y"]']
