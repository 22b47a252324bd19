"""The message when psycopg is missing gives the command that installs it where this zrec
was installed from: its checkout (editable or not), or else the driver itself, with
the pip of the running Python."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from zrec.archive.store.driver import install_hint
from zrec.cli import app

CHECKOUT = Path(__file__).resolve().parents[1]
PIP = f"{shlex.quote(sys.executable)} -m pip install"


def test_the_message_names_the_command_for_this_installation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if it were not installed
    result = CliRunner().invoke(
        app, ["archive", "search", "--db", "postgresql://ada:s3cret@localhost/zrec"]
    )
    assert result.exit_code == 2
    # the tests run from an editable install of this checkout (scripts/test, README)
    assert result.stderr == (
        "zrec: a PostgreSQL archive needs psycopg 3, which is not installed; install it "
        f"with: {PIP} -e {shlex.quote(str(CHECKOUT) + '[postgresql]')}\n"
    )


def test_the_command_for_each_kind_of_installation(tmp_path: Path) -> None:
    checkout = tmp_path / "zrec copy"
    checkout.mkdir()
    (checkout / "pyproject.toml").write_text("[project]\nname = 'zrec'\n")
    url = checkout.as_uri()
    python = "/opt/zrec env/bin/python"
    quoted = shlex.quote(python)
    need = "psycopg[binary]>=3.1"
    editable = {"url": url, "dir_info": {"editable": True}}
    assert install_hint(editable, python, need) == (
        f"{quoted} -m pip install -e '{checkout}[postgresql]'"
    )
    assert install_hint({"url": url, "dir_info": {}}, python, need) == (
        f"{quoted} -m pip install '{checkout}[postgresql]'"
    )
    # from an index, from an archive file, or from a checkout that is gone: the driver
    assert install_hint(None, python, need) == f"{quoted} -m pip install 'psycopg[binary]>=3.1'"
    wheel = {"url": (tmp_path / "zrec-1.0-py3-none-any.whl").as_uri(), "archive_info": {}}
    assert install_hint(wheel, python, need) == f"{quoted} -m pip install 'psycopg[binary]>=3.1'"
    gone = {"url": (tmp_path / "gone").as_uri(), "dir_info": {"editable": True}}
    assert install_hint(gone, python, need) == f"{quoted} -m pip install 'psycopg[binary]>=3.1'"
