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

- the environment variable ``ZREC_KERNEL`` is ``0`` (read at each call), or code runs
  inside :func:`python_engines` (and not inside a :func:`compiled_engines` within it);
- no kernel was built: the install found no C compiler (zrec says so once: the first
  time, on standard error, leaving a mark in its cache directory) or the package has
  none;
- the kernel built is older than its source (in a checkout, edited since ``pip install
  -e .``; an installed wheel carries no source); zrec warns and runs the Python engine
  rather than stale rules.

:func:`describe` says which kernels are in use, for ``zrec --version``.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import ModuleType

from zrec.resources import cache_dir

__all__ = ["compiled_engines", "describe", "load", "python_engines", "switched_on"]

_loaded: dict[str, ModuleType | None] = {}
_forced: list[bool] = []  # the open python_engines() (False) and compiled_engines() (True)


def _switched_off() -> bool:
    if _forced:
        return not _forced[-1]
    return os.environ.get("ZREC_KERNEL", "1").strip() == "0"


def switched_on() -> bool:
    """Whether kernels may run now (``ZREC_KERNEL`` is not ``0``, no
    :func:`python_engines` block): a rules package that keeps its engines in a cache
    keys them by it, so that an engine made either way is not handed out the other."""
    return not _switched_off()


#: the mark, in zrec's cache directory, that zrec has said it runs without kernels
NOTED = "no-rules-kernel"


def _say_once_none_built(package: str) -> None:
    """Tell the user once (per cache directory) that a kernel is missing: zrec runs,
    slower, on its Python engines."""
    directory = cache_dir()
    mark = directory / NOTED if directory is not None else None
    if mark is not None and mark.exists():
        return
    print(
        f"zrec: {package} has no compiled rules kernel (none was built at install: no C "
        "compiler?); zrec runs on its Python engines, the same rules, slower. With a C "
        "compiler, reinstalling zrec builds it. (Said once.)",
        file=sys.stderr,
    )
    if mark is not None:
        with suppress(OSError):
            mark.parent.mkdir(parents=True, exist_ok=True)
            mark.touch()


def _import(package: str, quiet: bool) -> ModuleType | None:
    try:
        module = importlib.import_module(f"{package}._kernel")
    except ImportError:  # (only a package with a kernel asks for it)
        if not quiet:
            _say_once_none_built(package)
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


def load(package: str, quiet: bool = False) -> ModuleType | None:
    """The compiled kernel of the rules package ``package`` (``__package__`` of the
    engine's module), or ``None`` where the Python engine must run (see above);
    ``quiet``: without saying that none was built."""
    if _switched_off():
        return None
    if package not in _loaded:
        _loaded[package] = _import(package, quiet)
    return _loaded[package]


@contextmanager
def python_engines() -> Iterator[None]:
    """Engines made inside this block use no kernel (the differential tests make one
    engine each way)."""
    _forced.append(False)
    try:
        yield
    finally:
        _forced.pop()


@contextmanager
def compiled_engines() -> Iterator[None]:
    """Engines made inside this block use their kernels where built, whatever
    ``ZREC_KERNEL`` says (the differential tests run the same way under it)."""
    _forced.append(True)
    try:
        yield
    finally:
        _forced.pop()


def describe() -> str:
    """Which rules packages run compiled code, in a few words for ``zrec --version``:
    ``rules kernel: C (serpent)`` (the packages that have one), or why none runs."""
    import zrec.rules as rules_package

    packages = sorted(
        name
        for name in (p.name for p in Path(rules_package.__path__[0]).iterdir() if p.is_dir())
        if (Path(rules_package.__path__[0]) / name / "__init__.py").exists()
    )
    if _switched_off():
        return "rules kernel: none (ZREC_KERNEL=0), the Python engines"
    built = [name for name in packages if load(f"zrec.rules.{name}", quiet=True) is not None]
    if not built:
        return "rules kernel: none built (no C compiler at install), the Python engines"
    python = [name for name in packages if name not in built]
    text = f"rules kernel: C ({', '.join(built)})"
    return text + (f"; Python engines for {', '.join(python)}" if python else "")
