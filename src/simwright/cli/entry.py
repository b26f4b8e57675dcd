"""The ``simwright`` script's entry point: process settings first, then the command line.

It imports nothing of the command line before it has looked at the command, so the
settings of a quick command (:func:`quick_start`) apply to every import after it.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import MutableMapping

QUICK_COMMANDS = frozenset({"plan", "protocols", "runs", "show", "version"})
"""Commands that read and print and never start an engine in this process."""


def main() -> None:
    """Entry point of the ``simwright`` script and of ``python -m simwright``."""
    argv = sys.argv[1:]
    if argv and argv[0] in QUICK_COMMANDS:
        quick_start(os.environ)
    # lazy: after quick_start, so that its settings hold for Typer, NumPy and pydantic
    from simwright.cli.main import app_for

    app_for(argv)()


def quick_start(environ: MutableMapping[str, str]) -> None:
    """Settings for a process that only reads and prints (a :data:`QUICK_COMMANDS` call).

    Such a process does no linear algebra worth a thread pool and uses no pydantic
    plugin, so OpenBLAS starts with one thread (NumPy otherwise starts one per core
    when ASE imports it) and pydantic skips its scan of every installed package for
    plugins; a value the user set is kept. The cyclic garbage collector is switched
    off: importing a few hundred modules otherwise spends ~5 % of a ``plan`` in
    collections that free almost nothing, and the process ends within a second.
    No engine runs in these processes, so nothing downstream inherits the settings.
    """
    environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "1")
    gc.disable()
