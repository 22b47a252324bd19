"""Command help written for the terminal.

A command's help is its docstring, wrapped in the source at the source's width; typer
keeps those line breaks, so at any other width the help came out cut mid-phrase.
:func:`reflow` makes each paragraph of a docstring one line, and rich wraps it to the
terminal's width; :func:`reflow_commands` does that for every command of an
application, once they are registered.
"""

from __future__ import annotations

import inspect
import re

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
