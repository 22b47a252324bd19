"""The long fuzz run of ``zrec serve``'s API (the short one is tests/test_serve_fuzz.py).

Makes a SQLite archive of the samples, loads the API's description from
``/openapi.json`` of the real application (through ASGI, with schemathesis), and calls
every operation with ``--examples`` requests as described and as many not as described
(``negative``: wrong types, missing parameters, odd bodies).  Each answer must be no
5xx, no traceback, and an error in the documented JSON shape; it prints the number of
calls, the time taken and every answer that is not, and exits 1 if there is one.

Stateful runs (chains of calls following the description's links) are not made: the
description has no links (no operation's answer names another's parameter).

Usage::

    python benchmarks/serve_fuzz.py [--examples 200] [--seed N]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from test_serve_fuzz import FILES, fuzz, operations  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=200,
                        help="requests of each kind (as described, not) per operation")
    parser.add_argument("--seed", type=int, help="hypothesis's seed (default: fixed)")
    args = parser.parse_args(argv)

    import schemathesis

    from zrec.serve import create_app

    db = Path(tempfile.mkdtemp(prefix="zrec-fuzz-")) / "fuzz.sqlite"
    subprocess.run([sys.executable, "-m", "zrec", "archive", "import", "-q", "--db", str(db),
                    *map(str, FILES)], check=True, stdout=subprocess.DEVNULL)
    schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(str(db)))
    names = [f"{op.method.upper()} {op.path}" for op in operations(schema)]
    print(f"{len(names)} operations: {', '.join(names)}")
    start = time.perf_counter()
    calls, failures = fuzz(schema, args.examples, seed=args.seed)
    print(f"{calls} calls in {time.perf_counter() - start:.1f} s; "
          f"{len(failures)} failed answers")
    for failure in failures:
        print("  " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
