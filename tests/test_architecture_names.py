"""One meaning per name: a name that once meant two things in two modules is defined at
the top level of one module of ``src/zrec`` only (a class, a function or a value).

The names came from issue 39: the walker's ``Visitor`` and the web's, two
``BoardError`` (a board node, roll or click; a board zrec cannot draw), two
``PlayerError`` (a computer player's spec; an archive's players to merge), two
``position_at`` (by node; by ply), ``Prepared`` beside ``Replay`` and ``prepare()``
(now :class:`~zrec.play.board.BoardRecord`), and JSON told from zrec text in two
places (:mod:`zrec.notation.inputs` is the one).  The review of issue 39 found two
``checked`` (``zrec validate``'s problems of one input; the board's one record of a
body) and ``report_of``, a second name of ``validate_record``.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "zrec"

#: each defined by one module only
ONE_MEANING = (
    "Visitor",
    "Caller",
    "BoardError",
    "BoardRecord",
    "DrawingError",
    "MergeError",
    "PlayerError",
    "position_at",
    "position_at_node",
    "prepare",
    "Replay",
    "Record",
    "JsonRecord",
    "SyntaxProblem",
    "looks_like_json",
    "sniff",
    "tell",
    "read_input",
    "validate_input",
    "records_of",  # (the names the readers of inputs had: none now)
    "records_in",
    "checked",  # (``zrec validate``'s reading of one input: Validators.problems now)
)

#: the second names of one function, gone (``report_of``: ``validate_record``)
GONE = ("report_of",)


def top_level_names(path: Path) -> set[str]:
    """The classes, functions and values a module defines at its top level (under
    ``if``/``try`` too: a name defined either way)."""
    found: set[str] = set()
    body = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while body:
        node = body.pop()
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            found.add(node.name)
        elif isinstance(node, ast.Assign):
            found |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
        elif isinstance(node, (ast.If, ast.Try)):
            body += [*node.body, *node.orelse]
    return found


@cache
def definers() -> dict[str, list[str]]:
    """Each name and the modules that define it (read once)."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        for name in top_level_names(path):
            where[name].append(str(path.relative_to(PACKAGE)))
    return where


def test_top_level_names_are_found_where_they_are_defined() -> None:
    where = definers()
    assert where["BoardError"] == ["play/board.py"]
    assert where["position_at"] == ["render/positions.py"]
    assert where["position_at_node"] == ["play/board.py"]
    assert where["looks_like_json"] == ["notation/inputs.py"]


@pytest.mark.parametrize("name", ONE_MEANING)
def test_a_name_is_defined_by_one_module(name: str) -> None:
    assert len(definers()[name]) <= 1, f"{name} is defined in {definers()[name]}"


@pytest.mark.parametrize("name", GONE)
def test_a_second_name_of_a_function_is_gone(name: str) -> None:
    assert definers()[name] == [], f"{name} is defined in {definers()[name]}"
