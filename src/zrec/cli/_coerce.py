"""Typer's check of command-line values, without importing pydantic when it is not needed.

typer 0.29 turns each value of the command line into its parameter's type through a
pydantic ``TypeAdapter``, and importing pydantic costs about 130 ms: half of what a
short command such as ``zrec validate one.zrec`` spends starting.  zrec's parameters
are plain: a string, an integer (perhaps with a minimum), a choice from an ``Enum``,
or a list of those.  For such a value in its usual form (a string as given; an
integer written in ASCII digits with an optional minus; a choice as written in the
help) :func:`install` gives what typer itself gives.  Any other value, any parameter
of another kind, and every value typer refuses goes to typer's own check, so that the
result and each message stay typer's, word for word.

This is the one place that knows typer's internals (``typer._coercion``);
tests/test_startup.py checks both paths against typer's own check, and that the
common commands do not import pydantic.  With a typer whose internals differ, nothing
is installed and typer checks every value itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, get_args, get_origin

#: an integer as people type one: what ``int()`` and pydantic read alike
_INTEGER = re.compile(r"-?[0-9]{1,18}")


class _Miss(Exception):
    """The value is not in a form this module takes: typer checks it."""


def _leaf(annotation: Any, info: Any, value: Any, ctx: Any) -> Any:
    """``value`` as typer would coerce it to ``annotation``, or :class:`_Miss`."""
    if info.parser is not None:
        raise _Miss
    if annotation is str and type(value) is str:
        return value
    if annotation is int and info.max is None and not info.clamp:
        if type(value) is str and _INTEGER.fullmatch(value):
            number = int(value)
        elif type(value) is int:
            number = value
        else:
            raise _Miss
        if info.min is not None and number < info.min:
            raise _Miss
        return number
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        from typer._param_types import coerce_cli_choice

        try:
            return coerce_cli_choice(
                value, choices=list(annotation), case_sensitive=info.case_sensitive, ctx=ctx
            )
        except ValueError:
            raise _Miss from None
    raise _Miss


def _coerce(annotation: Any, info: Any, value: Any, ctx: Any) -> Any:
    if get_origin(annotation) is list:
        (item,) = get_args(annotation)
        items = value if isinstance(value, (list, tuple)) else [value]
        return [_leaf(item, info, one, ctx) for one in items]
    return _leaf(annotation, info, value, ctx)


def install() -> None:
    """Make typer check plain values without pydantic (once; nothing with another typer)."""
    try:
        from typer import core
        from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param
    except ImportError:  # another typer: it checks every value itself
        return
    namespace = vars(core)  # where typer's parameters look the function up
    if namespace.get("build_runtime_param") is not build_runtime_param:
        return  # installed already, or a typer that builds its checks elsewhere

    @dataclass(frozen=True)
    class PlainRuntimeParam(RuntimeParam):
        """A plain value coerced here; any other to typer's own runtime parameter."""

        descriptor: TypeDescriptor
        typers: list[RuntimeParam] = field(default_factory=list)

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            try:
                return _coerce(self.annotation, self.parameter_info, value, ctx)
            except _Miss:
                if not self.typers:
                    self.typers.append(build_runtime_param(self.descriptor))
                return self.typers[0]._coerce_value(value, param=param, ctx=ctx)

    def plain_first(descriptor: TypeDescriptor) -> RuntimeParam:
        if descriptor.file_annotation is not None:
            return build_runtime_param(descriptor)
        return PlainRuntimeParam(
            parameter_info=descriptor.parameter_info,
            annotation=descriptor.annotation,
            descriptor=descriptor,
        )

    namespace["build_runtime_param"] = plain_first
