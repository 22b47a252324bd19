"""What one crossing from Python into compiled code and back costs, by technology: the
measurement behind the choice of the rules kernel's technology (issue 38).

Two small functions, each made every way this machine can build it, compiled on the
fly into a temporary folder and timed in interleaved rounds (CPU nanoseconds per call
from Python, the loop included, so that other work on the machine counts less; best and
median of ``--rounds``):

* ``popcount(x)``: the pieces on a 64-bit board, an int in and an int out;
* ``tuples()``: a list of 10 small tuples ``(i, i + 1)``, what a move list looks like
  when it comes back to Python.

The ways:

* ``python``: the same in Python (``int.bit_count``, a list comprehension), the yardstick;
* ``C-API``: a CPython extension module (``METH_O`` / ``METH_NOARGS``) built with gcc and
  the flags of :mod:`sysconfig`, as a kernel beside a rules package would be;
* ``ctypes``: a shared library called through :mod:`ctypes` (``tuples``: C fills an
  array of 20 ints, Python builds the tuples);
* ``cffi ABI`` and ``cffi API``: the same library through cffi's ``dlopen``, and a
  module cffi compiles (``set_source``), when cffi imports (``tuples`` as for ctypes);
* ``Cython``: a ``.pyx`` module translated by Cython and built with gcc, when Cython
  imports.

cffi and Cython are not dependencies of zrec: they come with the ``bench`` extra for this
script (``pip install '.[bench]'``); without them their rows say so.

Rust with PyO3 is not measured.  Its crates come from crates.io, which this machine's
registries (the Python package index, Debian's packages, npm) do not reach; maturin or
setuptools-rust from the package index would fetch them there.  Debian does package
them: ``apt-cache search librust-pyo3`` (2026-11-29, Debian 12 "bookworm") lists
``librust-pyo3-dev`` 0.17.3-1 with ``-ffi``, ``-macros``, ``-macros-backend`` and
``-build-config``, beside ``rustc`` 1.63 and ``cargo`` 0.66, so a build from Debian's
packages alone (cargo pointed at /usr/share/cargo/registry) is possible in principle.
But PyO3 0.17 supports CPython up to 3.11 (3.12 came with PyO3 0.20, 3.13 after it),
while zrec runs on 3.10 to 3.13, and ``pip install`` of zrec could not drive that
build without configuration made by hand.  (A rustc in /root/.cargo was installed by
rustup, outside the registries: a fresh machine of this kind has none.)

Usage::

    python benchmarks/kernel_choice.py [--rounds 5] [--calls 200000]
"""

from __future__ import annotations

import argparse
import ctypes
import importlib
import importlib.util
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

#: the functions in plain C, for ctypes and cffi
PLAIN_C = r"""
#include <stdint.h>
int popcount(uint64_t x) { return __builtin_popcountll(x); }
void tuples(int *out) { for (int i = 0; i < 10; i++) { out[2 * i] = i; out[2 * i + 1] = i + 1; } }
"""
PLAIN_CDEF = "int popcount(uint64_t x); void tuples(int *out);"

#: the functions as a CPython extension module
CAPI_C = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

static PyObject *popcount(PyObject *self, PyObject *arg) {
    /* the Mask form reads the digits; PyLong_AsUnsignedLongLong goes through a byte array */
    unsigned long long x = PyLong_AsUnsignedLongLongMask(arg);
    if (x == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    return PyLong_FromLong(__builtin_popcountll(x));
}

static PyObject *tuples(PyObject *self, PyObject *unused) {
    PyObject *list = PyList_New(10);
    if (list == NULL) return NULL;
    for (long i = 0; i < 10; i++) {
        PyObject *a = PyLong_FromLong(i), *b = PyLong_FromLong(i + 1);
        PyObject *pair = a && b ? PyTuple_New(2) : NULL;
        if (pair == NULL) { Py_XDECREF(a); Py_XDECREF(b); Py_DECREF(list); return NULL; }
        PyTuple_SET_ITEM(pair, 0, a);
        PyTuple_SET_ITEM(pair, 1, b);
        PyList_SET_ITEM(list, i, pair);
    }
    return list;
}

static PyMethodDef methods[] = {
    {"popcount", popcount, METH_O, "pieces on a board"},
    {"tuples", tuples, METH_NOARGS, "ten small tuples"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "choice_capi", NULL, -1, methods};

PyMODINIT_FUNC PyInit_choice_capi(void) { return PyModule_Create(&module); }
"""

#: the functions as a Cython module
CYTHON_PYX = """# cython: language_level=3
cdef extern from *:
    int __builtin_popcountll(unsigned long long)

def popcount(unsigned long long x):
    return __builtin_popcountll(x)

def tuples():
    cdef long i
    return [(i, i + 1) for i in range(10)]
"""

Way = tuple[Callable[[int], int], Callable[[], list[tuple[int, int]]]]


def gcc_module(source: Path, name: str, folder: Path) -> ModuleType:
    """The extension module built from C ``source`` with gcc and sysconfig's flags."""
    target = folder / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    subprocess.run(
        ["gcc", "-O2", "-shared", "-fPIC", f"-I{sysconfig.get_paths()['include']}",
         str(source), "-o", str(target)],
        check=True,
    )
    spec = importlib.util.spec_from_file_location(name, target)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def python_way() -> Way:
    def popcount(x: int) -> int:
        return x.bit_count()

    def tuples() -> list[tuple[int, int]]:
        return [(i, i + 1) for i in range(10)]

    return popcount, tuples


def capi_way(folder: Path) -> Way:
    source = folder / "choice_capi.c"
    source.write_text(CAPI_C)
    module = gcc_module(source, "choice_capi", folder)
    return module.popcount, module.tuples


def ctypes_way(library: Path) -> Way:
    lib = ctypes.CDLL(str(library))
    lib.popcount.argtypes = [ctypes.c_uint64]
    lib.popcount.restype = ctypes.c_int
    lib.tuples.argtypes = [ctypes.POINTER(ctypes.c_int)]
    lib.tuples.restype = None
    out = (ctypes.c_int * 20)()
    fill = lib.tuples

    def tuples() -> list[tuple[int, int]]:
        fill(out)
        return [(out[2 * i], out[2 * i + 1]) for i in range(10)]

    return lib.popcount, tuples


def cffi_ways(library: Path, folder: Path) -> dict[str, Way | str]:
    try:  # imported by name: mypy need not know cffi, which may not be installed
        cffi = importlib.import_module("cffi")
    except ModuleNotFoundError:
        return {"cffi ABI": "cffi is not installed", "cffi API": "cffi is not installed"}

    def from_lib(lib: Any, ffi: Any) -> Way:
        out = ffi.new("int[20]")
        fill = lib.tuples

        def tuples() -> list[tuple[int, int]]:
            fill(out)
            return [(out[2 * i], out[2 * i + 1]) for i in range(10)]

        popcount: Callable[[int], int] = lib.popcount
        return popcount, tuples

    abi = cffi.FFI()
    abi.cdef(PLAIN_CDEF)
    ways: dict[str, Way | str] = {"cffi ABI": from_lib(abi.dlopen(str(library)), abi)}
    api = cffi.FFI()
    api.cdef(PLAIN_CDEF)
    api.set_source("choice_cffi", PLAIN_C, extra_compile_args=["-O2"])
    built = Path(api.compile(tmpdir=str(folder / "cffi"), verbose=False))
    spec = importlib.util.spec_from_file_location("choice_cffi", built)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ways["cffi API"] = from_lib(module.lib, module.ffi)
    return ways


def cython_way(folder: Path) -> Way | str:
    if importlib.util.find_spec("Cython") is None:
        return "Cython is not installed"
    pyx = folder / "choice_cython.pyx"
    pyx.write_text(CYTHON_PYX)
    source = folder / "choice_cython.c"
    subprocess.run([sys.executable, "-m", "cython", "-3", str(pyx), "-o", str(source)],
                   check=True)
    module = gcc_module(source, "choice_cython", folder)
    return module.popcount, module.tuples


def per_call(work: Callable[..., object], arg: tuple[int, ...], calls: int) -> float:
    """CPU nanoseconds per call of ``work(*arg)`` over ``calls`` calls."""
    start = time.process_time_ns()
    for _ in range(calls):
        work(*arg)
    return (time.process_time_ns() - start) / calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--calls", type=int, default=200_000, help="calls per timing")
    args = parser.parse_args(argv)
    if shutil.which("gcc") is None:
        raise SystemExit("kernel_choice: gcc is needed to build the compiled ways")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "plain.c").write_text(PLAIN_C)
        library = folder / "libchoice.so"
        subprocess.run(["gcc", "-O2", "-shared", "-fPIC", str(folder / "plain.c"), "-o",
                        str(library)], check=True)
        ways: dict[str, Way | str] = {
            "python": python_way(), "C-API": capi_way(folder), "ctypes": ctypes_way(library),
            **cffi_ways(library, folder), "Cython": cython_way(folder),
        }
        board = 0xFFF0_0000_0FFF  # 24 pieces
        for label, way in ways.items():
            if isinstance(way, tuple):
                got = (way[0](board), way[1]())
                assert got == (24, [(i, i + 1) for i in range(10)]), (label, got)
        times: dict[tuple[str, str], list[float]] = {}
        ready = [(label, way) for label, way in ways.items() if isinstance(way, tuple)]
        for round_number in range(args.rounds):
            shift = round_number % len(ready)
            for label, (popcount, tuples) in ready[shift:] + ready[:shift]:
                times.setdefault((label, "popcount"), []).append(
                    per_call(popcount, (board,), args.calls))
                times.setdefault((label, "tuples"), []).append(per_call(tuples, (), args.calls))
        baseline = per_call(lambda: None, (), args.calls)
    print(f"# kernel_choice, {time.strftime('%Y-%m-%d %H:%M')}, Python "
          f"{sys.version.split()[0]}: CPU ns per call from Python, best / median of "
          f"{args.rounds} rounds of {args.calls:,} calls (an empty Python call: "
          f"{baseline:.0f} ns)\n")
    print("| way | popcount(x) | tuples(): 10 tuples |")
    print("|---|---:|---:|")
    for label, way in ways.items():
        if isinstance(way, str):
            print(f"| {label} | {way} | |")
            continue
        cells = [f"{min(times[label, f]):.0f} / {statistics.median(times[label, f]):.0f}"
                 for f in ("popcount", "tuples")]
        print(f"| {label} | {cells[0]} | {cells[1]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
