"""Builds zrec's compiled rules kernels: one C extension per rules package that has one.

Every ``src/zrec/rules/<package>/_kernel.c`` becomes the module
``zrec.rules.<package>._kernel`` (see :mod:`zrec.rules.kernel`); adding a game's kernel
is adding that one file.  The extensions are optional: where no C compiler (or no
Python headers) is found, the install goes on, says so once, and zrec runs on its
Python engines, the reference (``zrec --version`` names the kernel in use).  All other
settings are in ``pyproject.toml``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


class OptionalKernels(build_ext):
    """``build_ext`` that reports a kernel it could not build in one line and goes on."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler at all: the whole step fails
            self._said(exc)

    def build_extension(self, ext: Any) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # this kernel did not compile
            self._said(exc, ext.name)

    def _said(self, exc: Exception, name: str = "the rules kernels") -> None:
        print(
            f"zrec: {name} not built ({type(exc).__name__}: {exc}); "
            "zrec runs on its Python engines instead",
            file=sys.stderr,
        )


def kernels() -> list[Extension]:
    out = []
    for source in sorted((HERE / "src" / "zrec" / "rules").glob("*/_kernel.c")):
        package = source.parent.name
        out.append(
            Extension(
                f"zrec.rules.{package}._kernel",
                [str(source.relative_to(HERE))],
                depends=[str((source.parent.parent / "kernel_random.h").relative_to(HERE))],
                extra_compile_args=["-O2", "-std=c11"],
                optional=True,
            )
        )
    return out


setup(ext_modules=kernels(), cmdclass={"build_ext": OptionalKernels})
