"""The switch of the compiled rules kernels: which rules packages run compiled code.

A rules package may carry a *kernel*: a C extension module ``_kernel`` beside its
Python engine, built from the package's ``_kernel.c`` when zrec is installed (see
``setup.py``), that generates, applies and counts moves and plays random games over
the same positions and moves as the engine.  The Python engine stays the reference,
the readable statement of the rules: an engine asks :func:`load` for its package's
kernel when it is made and hands it the work it can do; everything else, and every
engine whose kernel is missing, runs in Python.  Nothing above the rules packages
knows whether a kernel is loaded; the differential tests (``tests/rules/
test_kernel_*.py``) hold every kernel to its engine.

:func:`load` answers ``None`` (the Python engines) when

- the environment variable ``ZREC_KERNEL`` is ``0`` (read at each call, so a test or a
  study can switch it), or code runs inside :func:`python_engines`;
- no kernel was built: the install found no C compiler (``setup.py`` says so once,
  then) or the package has none;
- the kernel built is older than its source (a checkout edited since ``pip install -e
  .``); zrec warns once and runs the Python engine rather than stale rules.

:func:`describe` says which kernels are in use, for ``zrec --version``.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

__all__ = ["describe", "load", "python_engines", "switched_on"]

_loaded: dict[str, ModuleType | None] = {}
_forced_off = 0  # depth of python_engines() blocks


def _switched_off() -> bool:
    return _forced_off > 0 or os.environ.get("ZREC_KERNEL", "1").strip() == "0"


def switched_on() -> bool:
    """Whether kernels may run now (``ZREC_KERNEL`` is not ``0``, no
    :func:`python_engines` block): a rules package that keeps its engines in a cache
    keys them by it, so that an engine made either way is not handed out the other."""
    return not _switched_off()


def _import(package: str) -> ModuleType | None:
    try:
        module = importlib.import_module(f"{package}._kernel")
    except ImportError:
        return None
    built = Path(module.__file__ or "")
    sources = [built.with_name("_kernel.c"), built.parent.parent / "kernel_random.h"]
    newest = max((s.stat().st_mtime for s in sources if s.exists()), default=0.0)
    if built.exists() and newest > built.stat().st_mtime:
        print(
            f"zrec: the compiled kernel {built.name} of {package} is older than its source; "
            "running the Python engine (rebuild with: pip install -e .)",
            file=sys.stderr,
        )
        return None
    return module


def load(package: str) -> ModuleType | None:
    """The compiled kernel of the rules package ``package`` (``__package__`` of the
    engine's module), or ``None`` where the Python engine must run (see above)."""
    if _switched_off():
        return None
    if package not in _loaded:
        _loaded[package] = _import(package)
    return _loaded[package]


@contextmanager
def python_engines() -> Iterator[None]:
    """Engines made inside this block use no kernel (the differential tests make one
    engine each way)."""
    global _forced_off
    _forced_off += 1
    try:
        yield
    finally:
        _forced_off -= 1


def describe() -> str:
    """Which rules packages run compiled code, in a few words for ``zrec --version``:
    ``rules kernel: C (awethi, serpent, stonewarriors)``, or why none runs."""
    import zrec.rules as rules_package

    packages = sorted(
        name
        for name in (p.name for p in Path(rules_package.__path__[0]).iterdir() if p.is_dir())
        if (Path(rules_package.__path__[0]) / name / "__init__.py").exists()
    )
    if _switched_off():
        return "rules kernel: none (ZREC_KERNEL=0), the Python engines"
    built = [name for name in packages if load(f"zrec.rules.{name}") is not None]
    if not built:
        return "rules kernel: none built (no C compiler at install), the Python engines"
    python = [name for name in packages if name not in built]
    text = f"rules kernel: C ({', '.join(built)})"
    return text + (f"; Python engines for {', '.join(python)}" if python else "")
