"""The layers hold: imports point one way, nothing outside the rules names a game, and
one module walks a record's moves.

The import graph is read from the source with :mod:`ast` (every ``import`` and
``from ... import`` of a ``zrec`` module, at any depth of the file, lazy imports too).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "zrec"

#: Each layer may import the layers listed before it, and itself.
LAYERS = [
    ("base", {"zrec.errors", "zrec.moves", "zrec.resources", "zrec.fileio"}),
    ("notation", {"zrec.notation", "zrec"}),
    ("rules", {"zrec.rules"}),
    ("play", {"zrec.play"}),
    ("check, render, research, tournament",
     {"zrec.check", "zrec.render", "zrec.research", "zrec.tournament"}),
    ("archive", {"zrec.archive"}),
    ("serve, publish", {"zrec.serve", "zrec.publish"}),
    ("cli", {"zrec.cli", "zrec.__main__"}),
]

#: Each game's package and the words that name its games (names, aliases, titles).
GAME_WORDS = {
    "serpent": r"mosona|kolowis|awithlaknannai",
    "stonewarriors": r"stone.?warriors|awithlaknakwe",
    "awethi": r"aw[eé]thi",
}
GAME_NAMES = re.compile("|".join(GAME_WORDS.values()), re.IGNORECASE)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(path: Path) -> set[str]:
    """The zrec modules a file imports (``from zrec.x import y`` counts ``zrec.x.y`` when
    that is a module, else ``zrec.x``)."""
    known = modules()
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("zrec")}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("zrec"):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in known else node.module)
    return found


def layer_of(module: str) -> int:
    best, rank = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), i
    assert rank >= 0, f"{module} is in no layer"
    return rank


def test_every_module_is_in_a_layer_and_imports_only_downwards() -> None:
    wrong = []
    for name, path in modules().items():
        mine = layer_of(name)
        for target in imports(path):
            if layer_of(target) > mine:
                wrong.append(f"{name} ({LAYERS[mine][0]}) imports {target}")
    assert wrong == []


def test_the_rules_know_no_syntax() -> None:
    for name, path in modules().items():
        if name.startswith("zrec.rules"):
            assert not {t for t in imports(path) if t.startswith("zrec.notation")}, name


def test_the_import_graph_has_no_cycle() -> None:
    graph = {name: imports(path) & set(modules()) for name, path in modules().items()}
    # a package's __init__ importing its own submodules is how a package exports them;
    # a submodule importing its package's __init__ back would close a cycle
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycle.extend([*stack[stack.index(nxt) :], nxt] if nxt in stack else [nxt])
            elif nxt not in state:
                visit(nxt, [*stack, nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycle == []


@dataclass(frozen=True)
class Word:
    """A name, a comment or the text of a string literal of a source file, at its line.

    An f-string's literal parts and the names and strings of its expressions are words
    too, on every Python: 3.12 tokenizes an f-string into its parts, 3.10 and 3.11 give
    it as one string, so both are read the same way, from the f-string's syntax tree."""

    kind: str  # "name", "comment" or "string"
    text: str  # a string's value, without quotes or prefix
    line: int


def code_words(path: Path) -> list[Word]:
    """The names, comments and strings of a file (docstrings are strings)."""
    return source_words(path.read_text(encoding="utf-8"))


def source_words(source: str) -> list[Word]:
    """The names, comments and strings of Python source."""
    lines = source.splitlines(keepends=True)
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    start = getattr(tokenize, "FSTRING_START", None)  # Python 3.12 and later
    end = getattr(tokenize, "FSTRING_END", None)
    words: list[Word] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if start is not None and token.type == start:  # up to its own FSTRING_END
            depth = 0
            for j in range(i, len(tokens)):
                depth += (tokens[j].type == start) - (tokens[j].type == end)
                if not depth:
                    break
            words += literal_words(_between(lines, token.start, tokens[j].end), token.start[0])
            i = j + 1
            continue
        if token.type == tokenize.STRING:
            words += literal_words(token.string, token.start[0])
        elif token.type == tokenize.NAME:
            words.append(Word("name", token.string, token.start[0]))
        elif token.type == tokenize.COMMENT:
            words.append(Word("comment", token.string, token.start[0]))
        i += 1
    return words


def _between(lines: list[str], first: tuple[int, int], last: tuple[int, int]) -> str:
    """The source text from one (line, column) to another."""
    if first[0] == last[0]:
        return lines[first[0] - 1][first[1] : last[1]]
    middle = "".join(lines[first[0] : last[0] - 1])
    return lines[first[0] - 1][first[1] :] + middle + lines[last[0] - 1][: last[1]]


def literal_words(literal: str, line: int) -> list[Word]:
    """The words of one string literal: its text, or an f-string's literal parts and the
    names and strings of the expressions in it, all at the literal's first line (where
    a part of a literal of several lines is differs between Pythons)."""
    words: list[Word] = []
    for node in ast.walk(ast.parse(literal.strip(), mode="eval")):
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            text = node.value if isinstance(node.value, str) else node.value.decode("latin-1")
            if text:  # 3.12 finds empty parts in some f-strings, 3.11 does not
                words.append(Word("string", text, line))
        elif isinstance(node, ast.Name):
            words.append(Word("name", node.id, line))
        elif isinstance(node, ast.Attribute):
            words.append(Word("name", node.attr, line))
        elif isinstance(node, ast.keyword) and node.arg is not None:
            words.append(Word("name", node.arg, line))
    return words


def test_f_strings_are_read_the_same_on_every_python() -> None:
    """3.10 and 3.11 tokenize an f-string as one string, 3.12 into its parts: the words
    are the same either way (the architecture test once passed on 3.11 and failed on
    3.12, which alone saw the '...' inside an f-string)."""
    source = (
        "label = f\"{number}{'.' if dots == 1 else '...'} \" + x  # a note\n"
        'text = f"""{tags[\'First\']}\n{f\'{mosona.name!r:>{width}}\'} end"""\n'
        "b = b'bytes'\n"
    )
    words = source_words(source)
    assert sorted((w.line, w.kind, w.text) for w in words) == [
        (1, "comment", "# a note"), (1, "name", "dots"), (1, "name", "label"),
        (1, "name", "number"), (1, "name", "x"),
        (1, "string", " "), (1, "string", "."), (1, "string", "..."),
        (2, "name", "mosona"), (2, "name", "name"), (2, "name", "tags"), (2, "name", "text"),
        (2, "name", "width"), (2, "string", "\n"), (2, "string", " end"), (2, "string", ">"),
        (2, "string", "First"),
        (4, "name", "b"), (4, "string", "bytes"),
    ]


@pytest.mark.parametrize(
    "path",
    [p for p in sorted(PACKAGE.rglob("*.py")) if "rules" not in p.relative_to(PACKAGE).parts],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_outside_the_rules_nothing_names_a_game_or_reads_first(path: Path) -> None:
    for word in code_words(path):
        where = f"{path.name}:{word.line}"
        assert not GAME_NAMES.search(word.text), f"{where} names a game: {word.text!r}"
        assert (word.kind, word.text) != ("string", "First"), f"{where} reads the First tag"
        assert (
            (word.kind, word.text) not in (("name", "hasattr"), ("name", "getattr"))
            or path.parent.name == "notation"
        ), f"{where} asks an object what it has instead of using the engine protocol"


def test_outside_the_rules_and_notation_no_module_formats_move_numbers() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if parts[0] in ("rules", "notation"):
            continue
        words = code_words(path)
        for before, word in zip([None, *words], words, strict=False):
            # (``label + "..."``: a value label repeated, FILE..., as click writes it)
            if (word.kind, word.text) == ("string", "...") and (
                    before is None or (before.kind, before.text) != ("name", "label")):
                pytest.fail(f"{path.name}:{word.line} formats a move number")


def test_exactly_one_module_plays_a_records_moves() -> None:
    """Only the walker resolves written moves (``engine.resolve``) outside the rules."""
    players = sorted(
        module_name(p)
        for p in PACKAGE.rglob("*.py")
        if "rules" not in p.relative_to(PACKAGE).parts
        and re.search(r"\.resolve\b", p.read_text(encoding="utf-8"))
    )
    assert players == ["zrec.play.walk"]


@pytest.mark.parametrize(
    "path",
    [p for p in sorted((PACKAGE / "rules").rglob("*.py"))],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_inside_the_rules_a_game_is_named_only_in_its_own_package(path: Path) -> None:
    parts = path.relative_to(PACKAGE / "rules").parts
    own = parts[0] if len(parts) > 1 else None
    others = re.compile(
        "|".join(words for package, words in GAME_WORDS.items() if package != own),
        re.IGNORECASE,
    )
    for word in code_words(path):
        assert not others.search(word.text), (
            f"{path.relative_to(PACKAGE)}:{word.line} names another package's game: "
            f"{word.text!r}"
        )


def test_every_game_package_is_known_to_the_architecture_test() -> None:
    packages = {p.parent.name for p in (PACKAGE / "rules").glob("*/__init__.py")}
    assert packages == set(GAME_WORDS)


def test_a_game_package_s_init_only_names_its_games() -> None:
    """The registry imports every package's ``__init__``: it stays a list of names."""
    for init in sorted((PACKAGE / "rules").glob("*/__init__.py")):
        tree = ast.parse(init.read_text(encoding="utf-8"))
        kinds = {type(node).__name__ for node in tree.body}
        assert kinds <= {"Expr", "Assign", "AnnAssign"}, f"{init}: {kinds}"
