"""zrec checks plain command-line values without pydantic (zrec.cli._coerce), and gives
exactly what typer's own check gives: the same value, or the same refusal."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.core
import typer.main
from typer._click import Context
from typer._click.exceptions import BadParameter
from typer._coercion import build_runtime_param

import zrec.cli

ROOT = Path(__file__).resolve().parents[1]
#: values as a command line gives them, in usual and unusual forms
TEXTS = [
    "", "0", "1", "7", "007", "-0", "-1", "-12", "+1", " 3", "3 ", "1.0", "1.5", "1_0",
    "1e3", "0x10", "x", "١٢", "３", "9" * 18, "9" * 19, "9" * 40, "human", "json",
    "JSON", "table", "ids", "zrec", "svg", "text", "csv", "a b", "é", "-", "--", "\x1b[0m",
]


def parameters() -> Iterator[tuple[str, Any]]:
    """Every parameter of every zrec command, with the command's path."""
    group = typer.main.get_command(zrec.cli.application())

    def walk(command: Any, path: str) -> Iterator[tuple[str, Any]]:
        for param in command.params:
            yield f"{path} {param.name}", param
        for name, sub in sorted(subcommands(command).items()):
            yield from walk(sub, f"{path} {name}")

    yield from walk(group, "zrec")


def subcommands(command: Any) -> dict[str, Any]:
    commands: dict[str, Any] = vars(command).get("commands", {})
    return commands


def outcome(runtime: Any, value: Any, param: Any, ctx: Context) -> tuple[str, Any]:
    try:
        return "value", runtime._coerce_value(value, param=param, ctx=ctx)
    except BadParameter as exc:
        return "refused", exc.format_message()


def test_plain_values_are_checked_as_typer_checks_them() -> None:
    zrec.cli.application()  # installs zrec's check
    plain = vars(typer.core)["build_runtime_param"]
    assert plain is not build_runtime_param  # zrec's check is installed
    kinds: set[str] = set()
    compared = 0
    kinds_of_parameter = set()
    for where, param in parameters():
        descriptor = param.type_descriptor
        info = descriptor.parameter_info
        kind = (repr(descriptor.annotation), info.min, info.max, info.clamp, info.parser,
                info.case_sensitive, param.multiple, param.nargs, repr(param.default))
        if kind in kinds_of_parameter:
            continue  # checked already, on a parameter of the same kind
        kinds_of_parameter.add(kind)
        ctx = Context(typer.main.get_command(zrec.cli.app))
        ours, theirs = plain(descriptor), build_runtime_param(descriptor)
        multiple = param.multiple or param.nargs == -1
        values: list[Any] = [param.default] if param.default is not None else []
        values += [[text] for text in TEXTS] if multiple else TEXTS
        if multiple:
            values += [["1", "2"], ["x", "1"], (), ("json", "0")]
        for value in values:
            expected = outcome(theirs, value, param, ctx)
            assert outcome(ours, value, param, ctx) == expected, (where, value)
            kinds.add(expected[0])
            compared += 1
    assert kinds == {"value", "refused"} and compared > 500


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--jobs", "x"], "Input should be a valid integer, unable to parse string as an"),
        (["--jobs", "-1"], "Input should be greater than or equal to 0"),
    ],
)
def test_a_value_typer_refuses_gets_typers_own_message(args: list[str], message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "zrec", "validate", *args, "samples/none.zrec"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
        cwd=ROOT,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert "Invalid value for '--" in done.stderr and message in done.stderr


def test_usual_values_reach_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "zrec", "validate", "--jobs", "007", "--format", "json",
         "samples/culin-opening.zrec"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert '"games": 1' in done.stdout
