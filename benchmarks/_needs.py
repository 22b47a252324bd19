"""What the benchmarks that time zrec beside python-chess need, checked before they
start: python-chess comes with zrec's ``bench`` extra, not with zrec itself."""

from __future__ import annotations

import sys
from pathlib import Path


def need_chess() -> None:
    """Exit (code 2) with the command that installs python-chess unless it imports."""
    try:
        import chess.pgn  # noqa: F401
    except ModuleNotFoundError as exc:
        if exc.name not in ("chess", "chess.pgn"):
            raise
        script = Path(sys.argv[0]).name
        sys.stderr.write(
            f"{script}: python-chess is not installed; it comes with zrec's bench extra: "
            "install it with: pip install '.[bench]' (in zrec's checkout)\n"
        )
        sys.exit(2)
