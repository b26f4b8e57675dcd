"""The local executor: engine calls on this machine through a bounded pool of cores."""

from __future__ import annotations

import threading
from pathlib import Path

from simwright.engines.base import run_subprocess
from simwright.executors.local import CorePool, LocalExecutor


def test_pool_blocks_until_cores_are_free_and_caps_a_large_request() -> None:
    pool = CorePool(2)
    assert pool.acquire(8) == 2  # more than the machine: the whole pool
    assert pool.acquire(1, timeout_s=0.05) == 0  # nothing left
    pool.release(2)
    assert pool.acquire(1) == 1
    assert pool.free == 1


def test_calls_through_the_pool_record_their_output_and_executor(tmp_path: Path) -> None:
    executor = LocalExecutor(CorePool(2))
    call = run_subprocess(
        "sh", ["sh", "-c", "echo out; echo err >&2; exit 3"], tmp_path, runner=executor, cores=1
    )
    assert call.exit_code == 3
    assert call.stdout_tail == "out\n"
    assert call.stderr_tail == "err\n"
    assert call.extra["executor"] == "local"
    assert (tmp_path / "sh.stdout").read_text() == "out\n"


def test_calls_wanting_the_whole_pool_never_overlap(tmp_path: Path) -> None:
    executor = LocalExecutor(CorePool(2))
    log = tmp_path / "log"
    script = f"echo start >> {log}; sleep 0.3; echo end >> {log}"

    def call(i: int) -> None:
        folder = tmp_path / f"call-{i}"
        run_subprocess("sh", ["sh", "-c", script], folder, runner=executor, cores=2)

    threads = [threading.Thread(target=call, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert log.read_text().split() == ["start", "end"] * 3
