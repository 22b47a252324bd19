"""``python -m zrec``: the ``zrec`` command, for a Python whose scripts are not on PATH."""

from __future__ import annotations

import sys

from zrec.cli import main

if __name__ == "__main__":
    sys.argv[0] = "zrec"
    main()
