"""Look at live processes through /proc (Linux): who is still running in a process group."""

from __future__ import annotations

import time
from pathlib import Path


def _stat_fields(pid_dir: Path) -> list[str] | None:
    try:
        text = (pid_dir / "stat").read_text()
    except OSError:
        return None
    # "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses
    return text[text.rindex(")") + 2 :].split()


def group_members(pgid: int) -> list[int]:
    """Processes of group ``pgid`` that are alive (zombies excluded)."""
    members = []
    for pid_dir in Path("/proc").iterdir():
        if not pid_dir.name.isdigit():
            continue
        fields = _stat_fields(pid_dir)
        if fields and fields[0] != "Z" and int(fields[2]) == pgid:
            members.append(int(pid_dir.name))
    return members


def alive(pid: int) -> bool:
    """True while process ``pid`` exists and is not a zombie."""
    fields = _stat_fields(Path(f"/proc/{pid}"))
    return fields is not None and fields[0] != "Z"


def wait_until_gone(pgid: int, limit_s: float = 30.0) -> list[int]:
    """Wait (up to ``limit_s``) for group ``pgid`` to have no live process; the survivors."""
    deadline = time.monotonic() + limit_s
    while (members := group_members(pgid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return members


def wait_for_file(path: Path, limit_s: float = 60.0) -> bool:
    """Wait (up to ``limit_s``) for ``path`` to exist with some content."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        try:
            if path.stat().st_size > 0:
                return True
        except OSError:
            pass
        time.sleep(0.05)
    return False
