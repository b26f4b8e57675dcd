"""Start the service: check the binding, hold the home, run the pool and uvicorn.

One service per home: it holds ``service.lock`` in the home, so two dispatchers never
share a queue. At start it re-queues the runs its previous instance's workers held
(they resume from their last completed step) and starts the queued ones, and advances
again the campaigns its previous instance was advancing
(:mod:`~simwright.service.campaign_recovery`).
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import uvicorn
from fastapi import FastAPI

from simwright.api import Campaigns, Simwright
from simwright.errors import PolicyError
from simwright.locks import exclusive_lock
from simwright.service.app import create_app
from simwright.service.auth import Auth
from simwright.service.campaign_jobs import CampaignLauncher, resume_argv
from simwright.service.campaign_recovery import resume_interrupted
from simwright.service.config import check_binding, load_service_config
from simwright.service.pool import WorkerArgv, WorkerPool
from simwright.settings import Settings


@dataclass(frozen=True)
class ServeOptions:
    """Where to listen and how many runs execute at once."""

    host: str = "127.0.0.1"
    port: int = 8642
    workers: int = 2
    poll_s: float = 0.1


def build(settings: Settings, options: ServeOptions, argv: WorkerArgv) -> FastAPI:
    """The application with its pool started and stopped by the app's lifespan."""
    config = load_service_config(settings.home)
    check_binding(options.host, config)
    api = Simwright(settings)
    pool = WorkerPool(
        api.queue,
        argv,
        size=options.workers,
        poll_s=options.poll_s,
        log_dir=settings.home / "service" / "logs",
    )

    launcher = CampaignLauncher(
        resume_argv(settings.home),
        log_dir=pool.log_dir,
        state_dir=settings.home / "service" / "campaigns",
    )
    recovery = threading.Thread(
        target=resume_interrupted,
        args=(Campaigns(settings, api.store), launcher),
        name="simwright-campaign-recovery",
        daemon=True,  # waits at most a few seconds per campaign still held
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        pool.start()
        launcher.start()
        recovery.start()
        try:
            yield
        finally:
            launcher.stop()
            pool.stop()
            api.close()

    app = create_app(api, Auth(config), on_queued=pool.wake, launcher=launcher)
    app.router.lifespan_context = lifespan
    return app


def serve(settings: Settings, options: ServeOptions, argv: WorkerArgv) -> None:
    """Serve until interrupted (refuses a non-loopback address without a token)."""
    check_binding(options.host, load_service_config(settings.home))
    lock = settings.home / "service.lock"
    busy = PolicyError(f"another simwright service serves the home {settings.home}")
    with exclusive_lock(lock, busy=lambda: busy):
        app = build(settings, options, argv)
        uvicorn.run(
            app,
            host=options.host,
            port=options.port,
            log_level="warning",
            timeout_keep_alive=75,  # longer than clients keep idle connections
        )
