"""``simwright serve`` (the HTTP service) and ``simwright serve-token``.

The service (:mod:`simwright.service`) executes each run in a worker process, the
hidden ``simwright worker RUN_ID`` command of :mod:`simwright.cli.main`: the same edge
as ``simwright resume`` (signals mapped to an interrupt, exit codes), so a run executed
by the service is recorded exactly like one started in a terminal.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from simwright.cli.common import HomeOpt, err, handled, out, settings_for


@handled
def serve(
    host: Annotated[
        str, typer.Option(help="Address to bind; beyond the loopback a token is required.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8642,
    workers: Annotated[int, typer.Option(min=1, max=64, help="Runs executed at once.")] = 2,
    home: HomeOpt = None,
) -> None:
    """Serve simwright over HTTP (OpenAPI schema at /openapi.json, docs at /docs).

    Runs execute in worker processes; the queue is kept in the store, so a restarted
    service resumes the runs it had accepted. Refuses to bind an address other than
    the loopback unless a token exists (`simwright serve-token`).
    """
    # lazy: CLI start-up: `simwright --help` loads only cli/ (and FastAPI is optional)
    from simwright.service.config import check_binding, load_service_config
    from simwright.service.server import ServeOptions
    from simwright.service.server import serve as run_service

    settings = settings_for(home)
    check_binding(host, load_service_config(settings.home))  # refused before any output
    home_dir = settings.home

    def argv(run_id: str, choose: str | None) -> list[str]:
        cmd = [sys.executable, "-m", "simwright", "worker", run_id, "--home", str(home_dir)]
        return [*cmd, "--choose", choose] if choose else cmd

    err.print(f"simwright service on http://{host}:{port} (home {home_dir})", highlight=False)
    run_service(settings, ServeOptions(host=host, port=port, workers=workers), argv)


@handled
def serve_token(
    name: Annotated[str, typer.Argument(help="A name for the token (who or what uses it).")],
    scope: Annotated[
        list[str] | None, typer.Option(help="read, run or review; repeatable (default: read).")
    ] = None,
    home: HomeOpt = None,
) -> None:
    """Create a token for the service; only its hash is stored in config.toml."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.service.config import add_token

    settings = settings_for(home)
    token = add_token(settings.home, name, tuple(scope or ["read"]))
    err.print(
        f"token {name!r} stored (hashed) in {settings.home / 'config.toml'}; it is shown once:"
    )
    out.print(token, highlight=False, markup=False)
