"""The dependency pins in pyproject.toml admit only versions that were tested."""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parent.parent


def requirement(name: str) -> SpecifierSet:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(rf'^\s*"{name}([^";]*)[";]', text, re.M)
    assert found is not None, name
    return SpecifierSet(found.group(1))


def test_typer_is_pinned_to_tested_versions() -> None:
    typer = requirement("typer")
    # typer < 0.16 breaks with click >= 8.2 (--help fails: "Secondary flag is not valid
    # for non-boolean flag"); from 0.26 typer carries its own click
    assert "0.12.5" not in typer
    assert "0.29.0" in typer  # the floor, tested
    assert version("typer") in typer
    assert "1.0.0" not in typer
