"""Server-Sent Events of a run: its stored events, in id order, until it is finished.

Each event goes out with its store id as the SSE ``id``; a client that reconnects with
``Last-Event-ID`` (or ``?after=``) receives every event after that one, so none is
lost across reconnects or a restart of the service. A comment line keeps an idle
connection alive; the stream ends with an ``end`` event once the run is finished.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from anyio import to_thread

from simwright.api import Simwright
from simwright.api.views import event_json
from simwright.jsonsafe import strict_json


def frame(event: dict[str, Any]) -> str:
    """One SSE frame: ``id``, ``event`` (the kind) and the event as JSON data."""
    data = json.dumps(strict_json(event), ensure_ascii=False, allow_nan=False, default=str)
    return f"id: {event['id']}\nevent: {event['kind']}\ndata: {data}\n\n"


async def stream(
    api: Simwright,
    run_id: str,
    after: int,
    *,
    poll_s: float = 0.2,
    keepalive_s: float = 10.0,
) -> AsyncIterator[str]:
    """The events of ``run_id`` after id ``after``, then ``end`` once the run is finished."""
    last = after
    idle = 0.0

    def fetch() -> list[dict[str, Any]]:
        return [event_json(e) for e in api.reader.events_after(run_id, last)]

    # Each poll is one or two indexed reads on an open read-only connection (tens of
    # microseconds), done on the event loop: a trip through the thread pool per poll
    # cost more than the read.
    while True:
        events = fetch()
        if not events and api.finished(run_id):
            # finished: what was written before it finished is all there is
            while events := fetch():
                for event in events:
                    last = event["id"]
                    yield frame(event)
            row = await to_thread.run_sync(api.get_run, run_id)  # once per stream
            yield f"event: end\ndata: {json.dumps({'run_id': run_id, 'status': row.status})}\n\n"
            return
        for event in events:
            last = event["id"]
            yield frame(event)
        if events:
            idle = 0.0
            continue  # there may be more
        idle += poll_s
        if idle >= keepalive_s:
            idle = 0.0
            yield ": keep-alive\n\n"
        await asyncio.sleep(poll_s)
