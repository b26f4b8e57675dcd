"""One writer of the concurrency test: opens the store at a URL (migrating it if it
is new) and records ``N`` complete runs, each with a step, an artifact and an event.

    python store_writer.py URL WRITER N
"""

from __future__ import annotations

import sys

from simwright.store import Store
from simwright.store.records import ArtifactRecord, EngineCall, EventRecord, StepOutcome


def main(url: str, writer: str, n: int) -> None:
    """Write ``n`` runs named after ``writer``."""
    store = Store(url)
    for i in range(n):
        run_id = f"w{writer}-{i:04d}"
        store.create_run(run_id, "p", request="", params_json="{}", workdir="/w", version="0")
        sid = store.begin_step(
            run_id, seq=1, attempt=1, name="S", step_json="{}", inputs_hash="h", workdir="/w/s"
        )
        store.finish_step(
            run_id,
            StepOutcome(
                step_id=sid,
                status="completed",
                wall_s=0.0,
                artifacts=(ArtifactRecord(f"{run_id}.txt", "0" * 64, 1, "text"),),
                engine_calls=(EngineCall("x", "x", "1", 0, 0.0),),
                events=(EventRecord("note", writer),),
                run_status="completed",
            ),
        )
    store.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
