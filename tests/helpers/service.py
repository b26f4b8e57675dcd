"""A real simwright service (``simwright serve``) in a subprocess, on a free port."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from helpers.paths import TESTS


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cli(home: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``python -m simwright ARGS --home HOME`` (helpers importable) to its end."""
    return subprocess.run(
        [sys.executable, "-m", "simwright", *args, "--home", str(home)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=_env(),
        check=False,
    )


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), env.get("PYTHONPATH")]))
    return env


@dataclass
class Server:
    """A ``simwright serve`` process and the URL it answers on."""

    home: Path
    port: int
    host: str = "127.0.0.1"
    workers: int = 2
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Where to reach it (the loopback, whatever address it binds)."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, limit_s: float = 60.0) -> Server:
        """Start it and wait until ``/health`` answers."""
        self.home.mkdir(parents=True, exist_ok=True)
        with (self.home / f"serve-{self.port}.log").open("ab") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "simwright",
                    "serve",
                    "--home",
                    str(self.home),
                    "--host",
                    self.host,
                    "--port",
                    str(self.port),
                    "--workers",
                    str(self.workers),
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=_env(),
            )
        deadline = time.monotonic() + limit_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the service exited with {self.proc.returncode}")
            try:
                if httpx.get(f"{self.url}/health", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        raise RuntimeError("the service did not answer in time")

    def kill(self) -> None:
        """SIGKILL it (its workers die with it) and wait."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        """SIGTERM it and wait (SIGKILL after 30 s)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


def sse(
    client: httpx.Client,
    url: str,
    *,
    last_id: int | None = None,
    until: str = "end",
    timeout: float = 300.0,
) -> Iterator[dict[str, Any]]:
    """The Server-Sent Events of ``url`` as dicts (``id``, ``event``, ``data``), up to and
    including the first whose event is ``until``."""
    headers = {"Last-Event-ID": str(last_id)} if last_id is not None else {}
    with client.stream("GET", url, headers=headers, timeout=timeout) as response:
        response.raise_for_status()
        frame: dict[str, Any] = {}
        for line in response.iter_lines():
            if not line:
                if frame:
                    yield frame
                    if frame.get("event") == until:
                        return
                frame = {}
                continue
            if line.startswith(":"):
                continue
            key, _, value = line.partition(": ")
            if key == "data":
                frame["data"] = json.loads(value)
            elif key == "id":
                frame["id"] = int(value)
            else:
                frame[key] = value
