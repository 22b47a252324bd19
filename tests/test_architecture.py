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
    ("check, render, research", {"zrec.check", "zrec.render", "zrec.research"}),
    ("archive", {"zrec.archive"}),
    ("serve", {"zrec.serve"}),
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


def code_tokens(path: Path) -> list[tokenize.TokenInfo]:
    """The names and strings of a file, comments and docstrings included as strings."""
    source = path.read_text(encoding="utf-8")
    # from Python 3.12 an f-string's text comes as FSTRING_MIDDLE tokens
    kinds = {tokenize.NAME, tokenize.STRING, tokenize.COMMENT}
    kinds |= {getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    return [t for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type in kinds]


@pytest.mark.parametrize(
    "path",
    [p for p in sorted(PACKAGE.rglob("*.py")) if "rules" not in p.relative_to(PACKAGE).parts],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_outside_the_rules_nothing_names_a_game_or_reads_first(path: Path) -> None:
    for token in code_tokens(path):
        where = f"{path.name}:{token.start[0]}"
        assert not GAME_NAMES.search(token.string), f"{where} names a game: {token.string!r}"
        assert token.string not in ('"First"', "'First'"), f"{where} reads the First tag"
        assert token.string not in ("hasattr", "getattr") or path.parent.name == "notation", (
            f"{where} asks an object what it has instead of using the engine protocol"
        )


def test_outside_the_rules_and_notation_no_module_formats_move_numbers() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if parts[0] in ("rules", "notation"):
            continue
        for token in code_tokens(path):
            if token.type == tokenize.STRING and token.string.strip("\"'") == "...":
                pytest.fail(f"{path.name}:{token.start[0]} formats a move number")


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
    for token in code_tokens(path):
        assert not others.search(token.string), (
            f"{path.relative_to(PACKAGE)}:{token.start[0]} names another package's game: "
            f"{token.string!r}"
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
