"""Every shell example of the README and of docs/*.md runs as written on the files a
checkout ships, and prints, byte for byte, what the document shows (tests/doc_examples.py
says how the examples are found, run and marked)."""

from __future__ import annotations

from pathlib import Path

import pytest

from doc_examples import ROOT, DocumentError, commands, is_example, parse, report, run_document

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.fixture(scope="session")
def example_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache folder for all the documents (Lark's analysis of the grammar)."""
    return tmp_path_factory.mktemp("doc-cache")


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_document_examples_run_as_written(path: Path, tmp_path: Path, example_cache: Path) -> None:
    name = path.relative_to(ROOT).as_posix()
    result = run_document(path, tmp_path, example_cache)
    assert not result.failures, report(name, result.failures)


def test_the_documents_have_examples_and_few_skips() -> None:
    examples = 0
    skips: list[str] = []
    for path in DOCUMENTS:
        for block in parse(path.read_text(encoding="utf-8"), path.name):
            if block.lang == "sh" or is_example(block):
                examples += 1
                if block.skip is not None:
                    skips.append(f"{path.name}:{block.line}: {block.skip}")
    assert examples > 50
    assert len(skips) <= 9, skips  # (9: zrec serve, which serves until stopped)


def test_a_text_example_is_cut_into_commands_and_outputs() -> None:
    text = "\n".join(
        [
            "```text",
            "$ zrec one \\",
            "  --flag",
            "out 1",
            "",
            "$ zrec two",
            "```",
            "",
            "```json",
            '{"a": 1}',
            "```",
        ]
    )
    [example, output] = parse(text, "doc.md")
    assert output.lang == "json"
    found = commands(example)
    assert [(c.line, c.text, c.expected) for c in found] == [
        (2, "zrec one \\\n  --flag", "out 1\n\n"),
        (6, "zrec two", '{"a": 1}\n'),
    ]


def test_a_skip_marker_needs_a_reason_and_a_block() -> None:
    [block] = parse("<!-- doc-test: skip (needs a server) -->\n\n```sh\nzrec x\n```\n", "d.md")
    assert block.skip == "needs a server"
    with pytest.raises(DocumentError, match=r"d\.md:1: unknown doc-test marker 'skip'"):
        parse("<!-- doc-test: skip -->\n```sh\nzrec x\n```\n", "d.md")
    with pytest.raises(DocumentError, match=r"d\.md:1: unknown doc-test marker 'only'"):
        parse("<!-- doc-test: only -->\n```sh\nzrec x\n```\n", "d.md")
    with pytest.raises(DocumentError, match=r"d\.md:1: a doc-test marker must stand just"):
        parse("<!-- doc-test: skip (x) -->\nSome prose.\n```sh\nzrec x\n```\n", "d.md")
    with pytest.raises(DocumentError, match=r"d\.md:4: a doc-test marker with no block"):
        parse("```sh\nzrec x\n```\n<!-- doc-test: skip (x) -->\n", "d.md")


def test_an_example_must_be_a_text_block() -> None:
    with pytest.raises(DocumentError, match=r"d\.md:1: an example with '\$' commands must be"):
        parse("```\n$ zrec x\nout\n```\n", "d.md")
