"""How to install the PostgreSQL driver where this zrec was installed from.

zrec is usually installed from its checkout (``pip install .`` or ``pip install -e .``),
so ``pip install 'zrec[postgresql]'`` is not a command that works.  The installation's
own record (``direct_url.json``, PEP 610) says where it came from: for a checkout that
is still there, the hint reinstalls it with the ``postgresql`` extra (editable if it
was); otherwise it installs the driver itself, as the extra names it.  Either way it
uses the pip of the running Python, so the driver lands beside this zrec.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

__all__ = ["driver_hint", "install_hint"]

#: the extra that brings the driver, and its requirement should the metadata not say
EXTRA = "postgresql"
DRIVER = "psycopg[binary]>=3.1"


def install_hint(origin: Mapping[str, Any] | None, python: str, requirement: str) -> str:
    """The command that installs the driver for an installation from ``origin`` (its
    ``direct_url.json``, ``None`` when it has none), run by ``python``."""
    pip = f"{shlex.quote(python)} -m pip install"
    checkout = _checkout(origin)
    if checkout is None:
        return f"{pip} {shlex.quote(requirement)}"
    info = origin.get("dir_info", {}) if origin is not None else {}
    editable = "-e " if isinstance(info, Mapping) and info.get("editable") else ""
    return f"{pip} {editable}{shlex.quote(f'{checkout}[{EXTRA}]')}"


def _checkout(origin: Mapping[str, Any] | None) -> Path | None:
    """The folder of the project that ``origin`` installed from, if it still is one."""
    if origin is None or "dir_info" not in origin:
        return None
    url = urlsplit(str(origin.get("url", "")))
    if url.scheme != "file":
        return None
    folder = Path(unquote(url.path))
    return folder if (folder / "pyproject.toml").is_file() else None


def driver_hint() -> str:
    """The command for the running zrec (see the module's docs)."""
    origin: Mapping[str, Any] | None = None
    requirement = DRIVER
    try:
        dist = metadata.distribution("zrec")
        text = dist.read_text("direct_url.json")
        if text:
            origin = json.loads(text)
        for line in dist.requires or ():
            name, _, marker = line.partition(";")
            if f"extra == '{EXTRA}'" in marker.replace('"', "'"):
                requirement = name.strip()
                break
    except (metadata.PackageNotFoundError, ValueError, OSError):
        pass
    return install_hint(origin, sys.executable, requirement)
