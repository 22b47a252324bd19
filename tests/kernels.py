"""What the differential tests of the rules kernels share: both engines of a reading,
and the rule that a kernel that was not built skips its tests, except on CI.

:func:`engines` makes the engine of a reading twice, with its package's compiled
kernel (whatever ``ZREC_KERNEL`` says: the differential tests hold the kernel to the
engine in every run) and as the Python engine alone.  Where the kernel is not built the
tests skip with the reason, except on CI (``CI=true``), where a missing kernel fails:
the install builds it there, and the tests must not go missing unnoticed.
"""

from __future__ import annotations

import os
import random
from types import ModuleType
from typing import Any

import pytest

from zrec.rules import kernel
from zrec.rules.loops import Played, reference_play


def compiled(package: str, module_level: bool = False) -> ModuleType:
    """The kernel module of ``package`` (``zrec.rules.serpent``), whatever
    ``ZREC_KERNEL`` says; skips (the whole test module where ``module_level``), or on
    CI fails, where it was not built or is older than its source."""
    with kernel.compiled_engines():
        module = kernel.load(package, quiet=True)
    if module is not None:
        return module
    reason = (
        f"the kernel of {package} is not built (pip install -e . with a C compiler "
        "builds it) or is older than its source"
    )
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI builds it", pytrace=False)
    pytest.skip(reason, allow_module_level=module_level)


def engines(rules: Any, options: dict[str, str]) -> tuple[Any, Any]:
    """(the engine with its kernel, the Python engine) of ``rules`` under ``options``."""
    with kernel.compiled_engines():
        fast = rules.engine(**options)
    with kernel.python_engines():
        slow = rules.engine(**options)
    assert fast is not slow
    return fast, slow


def same_random_game(
    fast: Any, slow: Any, pos: Any, seed: int, max_moves: int, max_turns: int
) -> Played[Any]:
    """A random game played by both engines from ``pos`` (the kernel's native loop, and
    the reference loop on the Python engine) from the same seed: asserts the same
    game, and the generators left in the same state.  Answers the game."""
    one, two = random.Random(seed), random.Random(seed)
    a: Played[Any] = fast.play_randomly(pos, one, max_moves, max_turns)
    b = reference_play(slow, pos, two, max_moves, max_turns)
    assert a == b, f"seed {seed}"
    assert one.getstate() == two.getstate(), f"seed {seed}: the generators differ"
    return a
