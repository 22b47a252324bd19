"""Command help written for the terminal.

A command's help is its docstring, wrapped in the source at the source's width; typer
keeps those line breaks, so at any other width the help came out cut mid-phrase.
:func:`reflow` makes each paragraph of a docstring one line, and rich wraps it to the
terminal's width; :func:`reflow_commands` does that for every command of an
application, once they are registered.  :func:`plain_labels` names the values options
take plainly (``FILE``, ``N``), not by their Python types.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path
from types import UnionType
from typing import Any, Union, get_args, get_origin

import typer

_PARAGRAPHS = re.compile(r"\n[ \t]*\n")


def reflow(text: str) -> str:
    """The paragraphs of ``text`` (separated by blank lines), each on one line, with
    single spaces between words."""
    paragraphs = _PARAGRAPHS.split(inspect.cleandoc(text))
    return "\n\n".join(" ".join(paragraph.split()) for paragraph in paragraphs)


def reflow_commands(application: typer.Typer) -> None:
    """Give every command of ``application`` (and of its groups) its help reflowed."""
    for info in application.registered_commands:
        text = info.help or (inspect.getdoc(info.callback) if info.callback else None)
        if text:
            info.help = reflow(text)
    for group in application.registered_groups:
        if group.typer_instance is not None:
            reflow_commands(group.typer_instance)


#: the plain name of a value of each type, where an option gives none (``N``, not
#: typer's ``<int range>``)
_PLAIN = {int: "N", float: "NUMBER", str: "TEXT", bool: "", Path: "PATH"}


def _plain_label(param: Any, ctx: Any, typers: Callable[..., Any]) -> str | None:
    """What the help shows after an option that takes a value: its metavar, else a
    plain name of its type; nothing after a flag."""
    if param.is_flag or param.count:
        return None
    if param.metavar is not None:
        return str(param.metavar)
    descriptor = param.type_descriptor  # typer's account of the parameter's type
    if descriptor.is_choice:
        label = str(typers(param, ctx)).strip("<>")  # the choices: a|b
    else:
        annotation = descriptor.annotation
        while get_origin(annotation) in (list, Union, UnionType):
            annotation = next(a for a in get_args(annotation) if a is not type(None))
        label = next((name for kind, name in _PLAIN.items()
                      if isinstance(annotation, type) and issubclass(annotation, kind)),
                     "VALUE")
    return label + "..." if param.nargs != 1 else label


#: not empty once :func:`plain_labels` has changed typer's help
_INSTALLED: list[bool] = []


def plain_labels() -> None:
    """Show plain value names in every command's help: typer labels a value by its
    Python type (``<list[str]>``, ``<int range>``, ``<bool>`` after a flag, ``<file>``
    after an argument already named ``FILE``).  An option shows its metavar, else
    :data:`_PLAIN`'s name for its type; a flag and an argument show nothing more.
    This knows typer 0.29's help (``display_type_rich``, ``type_descriptor``), as
    :mod:`zrec.cli._coerce` knows its checks: tests/test_cli_help.py looks at every
    command's help, and would fail with a typer built otherwise."""
    try:
        from typer.core import TyperArgument, TyperOption
    except ImportError:  # pragma: no cover - another typer
        return
    if _INSTALLED:
        return
    typers = TyperOption.display_type

    def option_label(self: Any, ctx: Any) -> str | None:
        return _plain_label(self, ctx, typers)

    def argument_label(self: Any, ctx: Any) -> str | None:
        return None  # the name column shows its metavar (FILE...)

    TyperOption.display_type_rich = option_label  # type: ignore[method-assign]
    TyperArgument.display_type_rich = argument_label  # type: ignore[method-assign]
    _INSTALLED.append(True)
