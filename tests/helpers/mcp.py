"""The MCP server over streamable HTTP in a subprocess, for the MCP tests (no tests here)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import httpx

from helpers.service import free_port


class McpHttp:
    """``simwright mcp --transport http`` in a subprocess."""

    def __init__(self, home: Path, host: str = "127.0.0.1") -> None:
        self.home, self.host, self.port = home, host, free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def start(self) -> McpHttp:
        self.home.mkdir(parents=True, exist_ok=True)
        args = ["--transport", "http", "--host", self.host, "--port", str(self.port)]
        with (self.home / "mcp.log").open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "simwright", "mcp", *args, "--home", str(self.home)],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        for _ in range(600):
            try:
                httpx.get(self.url, timeout=1)
                return self
            except httpx.TransportError:
                assert self.proc.poll() is None, (self.home / "mcp.log").read_text()
                time.sleep(0.1)
        raise AssertionError("the MCP server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=60)
