"""What every engine adapter shares: the record of one engine call and a
subprocess launcher that always runs in the step's working directory."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from simwright.processes import run_group
from simwright.store.records import EngineCall, tail


def run_subprocess(
    engine: str,
    argv: Sequence[str],
    workdir: Path,
    *,
    version: str = "",
    env: Mapping[str, str] | None = None,
    stdin_path: Path | None = None,
    timeout_s: float | None = None,
    monitor: Callable[[], None] | None = None,
    monitor_every_s: float = 2.0,
) -> EngineCall:
    """Run ``argv`` with ``cwd=workdir`` and return its :class:`EngineCall` record.

    stdout and stderr are written in full to ``<engine>.stdout`` / ``<engine>.stderr``
    inside ``workdir``; the record keeps their tails. A timeout gives exit code 124.
    ``monitor`` (if given) is called every ``monitor_every_s`` seconds while the
    engine runs, e.g. to report progress from its log file.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    out_path = workdir / f"{engine}.stdout"
    err_path = workdir / f"{engine}.stderr"
    start = time.perf_counter()
    with out_path.open("wb") as out, err_path.open("wb") as err:
        stdin = stdin_path.open("rb") if stdin_path else subprocess.DEVNULL
        try:
            code = run_group(
                argv, workdir, full_env, stdin, out, err, timeout_s, monitor, monitor_every_s
            )
        except FileNotFoundError:
            code = 127
            err.write(f"executable not found: {argv[0]}\n".encode())
        finally:
            if stdin_path:
                stdin.close()  # type: ignore[union-attr]
    wall = time.perf_counter() - start
    return EngineCall(
        engine=engine,
        command=" ".join(str(a) for a in argv),
        version=version,
        exit_code=code,
        wall_s=wall,
        stdout_tail=tail(out_path.read_text(errors="replace")),
        stderr_tail=tail(err_path.read_text(errors="replace")),
        workdir=str(workdir),
    )
