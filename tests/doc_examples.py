"""Run the shell examples of a markdown document, as a newcomer would type them.

A document's fenced blocks are taken in order:

- a ```text block whose first line starts with ``$ `` is an example: each ``$ COMMAND``
  line is run, and what it prints (standard output and standard error, in the order it
  writes them) must be, byte for byte, the lines under it up to the next ``$`` line. A
  command line that ends in ``\\`` goes on on the next line. When the last command of
  such a block shows no output and a ```json block follows it at once, that block is
  its output;
- a ```sh block is run as one script, each command in turn, and must succeed (exit
  code 0), so that the examples after it see what it made (an archive, a file);
- every other block (```text without ``$``, ```zrec, ```json, ```python...) is not run
  here.

An example that cannot run in a test is marked just before its fence, on the line
above it (blank lines between are allowed), with an HTML comment that a reader of the
rendered page does not see: ``<!-- doc-test: skip (REASON) -->``. The reason is
required. Any other ``doc-test`` marker, a marker that is not followed by a block, and a
block that starts with ``$`` but is not ```text are errors of the document.

The examples of a document run in one fresh folder holding a copy of what a checkout
ships for them to read (``samples/``, ``grammar/``, ``schemas/``), with ``zrec`` on the
``PATH`` (the folder of the Python running the tests) and a fixed environment:
``COLUMNS=120``, ``LC_ALL=C.UTF-8``, ``TZ=UTC``, no ``ZREC_DB``, and a cache folder of
the test run's own.
"""

from __future__ import annotations

import difflib
import itertools
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("samples", "grammar", "schemas")
MARKER = re.compile(r"<!--\s*doc-test:(.*?)-->", re.S)
SKIP = re.compile(r"\s*skip \((.+)\)\s*", re.S)
FENCE = re.compile(r"^```([A-Za-z0-9_-]*)\s*$")
TIMEOUT = 120


class DocumentError(Exception):
    """The document itself is wrong: a bad marker, an example written the wrong way."""


@dataclass
class Block:
    """One fenced block: its language, the line its fence opens on, its lines."""

    lang: str
    line: int
    lines: list[str]
    skip: str | None = None
    output_block: Block | None = None


@dataclass
class Command:
    """One ``$`` command of a text example and the output the document shows for it."""

    line: int
    text: str
    expected: str
    span: tuple[int, int] = (0, 0)  # the file's lines (0-based, end excluded) of `expected`


@dataclass
class Failure:
    """An example whose run differs from the document."""

    line: int
    command: str
    detail: str
    span: tuple[int, int] = (0, 0)
    actual: str = ""


@dataclass
class Result:
    """What running a document found: examples run and skipped, and every failure."""

    run: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)


def parse(text: str, name: str) -> list[Block]:
    """The fenced blocks of a markdown text, with their markers; DocumentError if the
    document breaks the rules above."""
    lines = text.split("\n")
    blocks: list[Block] = []
    pending: tuple[int, str] | None = None  # a marker waiting for its block
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = FENCE.match(line)
        if fence is None:
            for found in MARKER.finditer(line):
                if pending is not None:
                    raise DocumentError(f"{name}:{pending[0]}: a doc-test marker with no block")
                pending = (index + 1, found.group(1))
            if line.strip() and MARKER.sub("", line).strip() and pending is not None:
                raise DocumentError(
                    f"{name}:{pending[0]}: a doc-test marker must stand just before a block"
                )
            if "<!-- doc-test" in MARKER.sub("", line):
                raise DocumentError(f"{name}:{index + 1}: a doc-test marker that is not closed")
            index += 1
            continue
        start = index
        index += 1
        body: list[str] = []
        while index < len(lines) and lines[index] != "```":
            body.append(lines[index])
            index += 1
        if index == len(lines):
            raise DocumentError(f"{name}:{start + 1}: a block that is never closed")
        index += 1
        block = Block(fence.group(1), start + 1, body)
        if pending is not None:
            skip = SKIP.fullmatch(pending[1])
            if skip is None:
                raise DocumentError(
                    f"{name}:{pending[0]}: unknown doc-test marker {pending[1].strip()!r}"
                    " (the only one is 'skip (REASON)')"
                )
            block.skip = skip.group(1).strip()
            pending = None
        if body and body[0].startswith("$") and block.lang != "text":
            raise DocumentError(
                f"{name}:{block.line}: an example with '$' commands must be a ```text block"
            )
        blocks.append(block)
    if pending is not None:
        raise DocumentError(f"{name}:{pending[0]}: a doc-test marker with no block")
    _attach_outputs(blocks, lines)
    return blocks


def _attach_outputs(blocks: list[Block], lines: list[str]) -> None:
    """A ```json block right after an example whose last command shows no output is
    that command's output."""
    for before, after in itertools.pairwise(blocks):
        if not is_example(before) or after.lang != "json":
            continue
        between = lines[before.line + len(before.lines) + 1 : after.line - 1]
        if any(line.strip() for line in between):
            continue
        if commands(before)[-1].expected == "":
            before.output_block = after


def is_example(block: Block) -> bool:
    """A block whose commands are run and whose output is compared."""
    return block.lang == "text" and bool(block.lines) and block.lines[0].startswith("$ ")


def commands(block: Block) -> list[Command]:
    """The commands of a text example, each with the output shown under it."""
    found: list[Command] = []
    index = 0
    lines = block.lines
    while index < len(lines):
        first = index
        text = lines[index][2:]
        while text.endswith("\\") and index + 1 < len(lines):
            index += 1
            text = text + "\n" + lines[index]
        index += 1
        output: list[str] = []
        while index < len(lines) and not lines[index].startswith("$ "):
            output.append(lines[index])
            index += 1
        expected = "".join(line + "\n" for line in output)
        span = (block.line + index - len(output), block.line + index)
        found.append(Command(block.line + 1 + first, text, expected, span))
    if block.output_block is not None:
        shown = block.output_block
        found[-1].expected = "".join(line + "\n" for line in shown.lines)
        found[-1].span = (shown.line, shown.line + len(shown.lines))
    return found


def prepare(folder: Path) -> None:
    """Copy into FOLDER what a checkout ships for the examples to read."""
    for name in SHIPPED:
        shutil.copytree(ROOT / name, folder / name)


def environment(cache: Path) -> dict[str, str]:
    """The fixed environment of every example."""
    bindir = str(Path(sys.executable).parent)
    return {
        "PATH": os.pathsep.join([bindir, "/usr/local/bin", "/usr/bin", "/bin"]),
        "HOME": str(cache),
        "COLUMNS": "120",
        "LC_ALL": "C.UTF-8",
        "LANG": "C.UTF-8",
        "TZ": "UTC",
        "XDG_CACHE_HOME": str(cache),
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def _run(script: str, folder: Path, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["bash", "-c", script],
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=TIMEOUT,
        check=False,
    )


def run_document(path: Path, folder: Path, cache: Path) -> Result:
    """Run every example of the document at PATH in FOLDER, in order."""
    name = path.relative_to(ROOT).as_posix()
    blocks = parse(path.read_text(encoding="utf-8"), name)
    prepare(folder)
    env = environment(cache)
    result = Result()
    for block in blocks:
        if (block.lang == "sh" or is_example(block)) and block.skip is not None:
            result.skipped.append((block.line, block.skip))
            continue
        if block.lang == "sh":
            script = "set -e\n" + "\n".join(block.lines) + "\n"
            done = _run(script, folder, env)
            result.run += 1
            if done.returncode != 0:
                output = done.stdout.decode("utf-8", "replace")
                result.failures.append(
                    Failure(
                        block.line,
                        "\n".join(block.lines),
                        f"exit code {done.returncode}, expected 0; it printed:\n{output}",
                    )
                )
        elif is_example(block):
            for command in commands(block):
                done = _run(command.text, folder, env)
                result.run += 1
                actual = done.stdout.decode("utf-8", "replace")
                if actual != command.expected:
                    diff = difflib.unified_diff(
                        command.expected.splitlines(keepends=True),
                        actual.splitlines(keepends=True),
                        "the document",
                        "the command",
                    )
                    detail = "".join(diff).rstrip("\n")
                    result.failures.append(
                        Failure(command.line, command.text, detail, command.span, actual)
                    )
    return result


def report(name: str, failures: list[Failure]) -> str:
    """The failures of a document, each with its line and its diff."""
    parts = [f"{len(failures)} example(s) of {name} differ from what the commands print:"]
    for failure in failures:
        parts.append(f"\n{name}:{failure.line}: $ {failure.command}\n{failure.detail}")
    return "\n".join(parts)


def update(path: Path, failures: list[Failure]) -> None:
    """Write into the document at PATH what its failing examples really print."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for failure in sorted(failures, key=lambda f: f.span, reverse=True):
        if failure.span != (0, 0):
            start, end = failure.span
            lines[start:end] = failure.actual.splitlines(keepends=True)
    path.write_text("".join(lines), encoding="utf-8")


def main(argv: list[str]) -> int:
    """``python tests/doc_examples.py [--update] DOC...``: run (and rewrite) documents."""
    import tempfile

    rewrite = "--update" in argv
    status = 0
    for name in (a for a in argv if a != "--update"):
        path = Path(name).resolve()
        with tempfile.TemporaryDirectory() as work:
            folder, cache = Path(work) / "run", Path(work) / "cache"
            folder.mkdir()
            cache.mkdir()
            result = run_document(path, folder, cache)
        if result.failures:
            print(report(name, result.failures))
            status = 1
            if rewrite:
                update(path, result.failures)
                print(f"{name}: {len(result.failures)} example(s) rewritten")
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
