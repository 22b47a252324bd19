"""docs/validate.md lists every diagnostic code, each with its invalid sample."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_code_is_documented_and_has_a_sample() -> None:
    doc = (ROOT / "docs" / "validate.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", doc, re.M))
    samples = {p.stem for p in (ROOT / "samples" / "invalid").glob("*.zrec")}
    assert documented == samples
