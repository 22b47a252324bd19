"""The spec quotes the grammar faithfully, and its examples are valid records."""

from __future__ import annotations

import re
from pathlib import Path

from zrec import read_string, write_game

ROOT = Path(__file__).resolve().parent.parent
SPEC = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
GRAMMAR = (ROOT / "grammar" / "zrec.lark").read_text(encoding="utf-8")


def test_appendix_a_is_the_whole_grammar() -> None:
    appendix = SPEC[SPEC.index("## Appendix A") :]
    block = re.search(r"```lark\n(.*?)\n```", appendix, re.S)
    assert block is not None
    assert block.group(1) == GRAMMAR.rstrip("\n")


def test_every_quoted_grammar_fragment_is_in_the_grammar() -> None:
    blocks = re.findall(r"```lark\n(.*?)\n```", SPEC, re.S)
    assert len(blocks) > 5
    for block in blocks:
        assert block in GRAMMAR, block


def test_every_zrec_example_in_the_spec_reads_without_error() -> None:
    blocks = re.findall(r"```zrec\n(.*?)\n```", SPEC, re.S)
    assert len(blocks) >= 4
    for block in blocks:
        records = list(read_string(block + "\n", "spec"))
        assert records, block
        for record in records:
            assert record.game is not None, record.problem
            assert write_game(record.game)


def test_the_architecture_examples_run() -> None:
    """docs/architecture.md: its Python blocks run in order, in one namespace."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)\n```", text, re.S)
    assert len(blocks) == 4
    namespace: dict[str, object] = {"__name__": "architecture_example"}
    for block in blocks:
        exec(compile(block, "docs/architecture.md", "exec"), namespace)
    assert "RACE" in namespace and "steps" in namespace


def test_the_awethi_example_game_validates() -> None:
    from zrec.check.validate import validate_game

    section = SPEC[SPEC.index("### 9.4 Awéthi") : SPEC.index("## Appendix A")]
    block = re.search(r"```zrec\n(.*?)\n```", section, re.S)
    assert block is not None
    [record] = list(read_string(block.group(1) + "\n", "spec"))
    assert record.game is not None and record.game.result == "0-1"
    report = validate_game(record.game)
    assert report.valid and report.diagnostics == [] and report.plies > 50
