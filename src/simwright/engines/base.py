"""What every engine adapter shares: the record of one engine call and a
subprocess launcher that always runs in the step's working directory."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

TAIL_CHARS = 4000
"""How much of an engine's stdout and stderr is kept in the provenance record."""


@dataclass(frozen=True)
class EngineCall:
    """The record of one call of an engine (a subprocess or an in-process calculator)."""

    engine: str
    command: str
    version: str
    exit_code: int
    wall_s: float
    stdout_tail: str = ""
    stderr_tail: str = ""
    workdir: str = ""
    extra: Mapping[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when the engine exited with status 0."""
        return self.exit_code == 0


def tail(text: str, limit: int = TAIL_CHARS) -> str:
    """The last ``limit`` characters of ``text``."""
    return text if len(text) <= limit else text[-limit:]


def run_subprocess(
    engine: str,
    argv: Sequence[str],
    workdir: Path,
    *,
    version: str = "",
    env: Mapping[str, str] | None = None,
    stdin_path: Path | None = None,
    timeout_s: float | None = None,
) -> EngineCall:
    """Run ``argv`` with ``cwd=workdir`` and return its :class:`EngineCall` record.

    stdout and stderr are written in full to ``<engine>.stdout`` / ``<engine>.stderr``
    inside ``workdir``; the record keeps their tails. A timeout gives exit code 124.
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
            proc = subprocess.run(
                list(argv),
                cwd=workdir,
                env=full_env,
                stdin=stdin,
                stdout=out,
                stderr=err,
                timeout=timeout_s,
                check=False,
            )
            code = proc.returncode
        except subprocess.TimeoutExpired:
            code = 124
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
