"""The service under load, and the cost of a run submitted through it.

A real ``simwright serve`` (uvicorn, worker processes) runs in a subprocess on a free
port in a fresh home. Two measurements, in one run of this script:

1. Load: ``--clients`` concurrent clients (asyncio + httpx), four in five polling a
   run's status (``GET /runs/{id}``, every ``--poll-s``), the others streaming its
   events (Server-Sent Events),
   while ``--runs`` runs of the request execute in the workers. Reports p50/p99
   latency of the status polls and the number of errors (any non-200 or transport
   error), and the server process's CPU time per status request (the whole load:
   polls, streams and the dispatcher; on a loaded machine wall time mostly measures
   the wait for a core). Target: p99 < 100 ms, 0 errors.
2. Overhead: the same request run ``--pairs`` times alternately through the CLI
   (``simwright run``, a process) and through the API (``POST /runs``, then the event
   stream to its end, a worker process). Reports the ratio of the summed wall times
   (API / CLI). Target: <= 1.02.

    python benchmarks/service.py [--clients 50] [--runs 4] [--pairs 3] [--poll-s 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

REQUEST = "lattice constant of fcc Cu with EMT"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(home: Path, port: int, workers: int) -> subprocess.Popen[bytes]:
    with (home / "serve.log").open("ab") as log:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "simwright",
                "serve",
                "--home",
                str(home),
                "--port",
                str(port),
                "--workers",
                str(workers),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.2)
    raise RuntimeError("the service did not start")


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` itself (not its children)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def wait_end(client: httpx.AsyncClient, run_id: str) -> str:
    status = "?"
    async with client.stream("GET", f"/runs/{run_id}/events", timeout=600) as r:
        event = ""
        async for line in r.aiter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "end":
                status = json.loads(line[6:])["status"]
                break
    return status


async def load(url: str, clients: int, runs: int, poll_s: float) -> dict[str, Any]:
    latencies: list[float] = []
    errors = 0
    kinds: dict[str, int] = {}

    def error(kind: str) -> None:
        nonlocal errors
        errors += 1
        kinds[kind] = kinds.get(kind, 0) + 1

    limits = httpx.Limits(max_connections=clients + 8)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as client:
        ids = []
        for _ in range(runs):
            r = await client.post("/runs", json={"request": REQUEST})
            r.raise_for_status()
            ids.append(r.json()["run_id"])
        done = asyncio.Event()
        streamers = max(1, clients // 5)

        async def poll(i: int) -> None:
            run_id = ids[i % len(ids)]
            await asyncio.sleep(poll_s * i / clients)  # spread the clients over a period
            while not done.is_set():
                t0 = time.perf_counter()
                try:
                    r = await client.get(f"/runs/{run_id}")
                    if r.status_code != 200:
                        error(f"status {r.status_code}")
                except httpx.HTTPError as exc:
                    error(type(exc).__name__)
                latencies.append(time.perf_counter() - t0)
                await asyncio.sleep(poll_s)

        async def stream(i: int) -> None:
            try:
                status = await wait_end(client, ids[i % len(ids)])
                if status != "completed":
                    error(f"stream ended {status}")
            except httpx.HTTPError as exc:
                error(f"stream {type(exc).__name__}")

        t0 = time.perf_counter()
        pollers = [asyncio.create_task(poll(i)) for i in range(clients - streamers)]
        await asyncio.gather(*(stream(i) for i in range(streamers)))
        for run_id in ids:  # every run to its end
            await wait_end(client, run_id)
        wall = time.perf_counter() - t0
        done.set()
        await asyncio.gather(*pollers)
    return {
        "requests": len(latencies),
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "max_ms": 1000 * max(latencies),
        "errors": errors,
        "error_kinds": kinds,
        "wall_s": wall,
    }


def single_client(url: str, pid: int, n: int = 200) -> dict[str, float]:
    """Status of a completed run polled by one client, nothing else running: the
    server's own cost per request on this machine (wall, and its CPU time)."""
    with httpx.Client(base_url=url, timeout=30) as client:
        run_id = client.get("/runs", params={"limit": 1}).json()["runs"][0]["run_id"]
        client.get(f"/runs/{run_id}").raise_for_status()
        times = []
        cpu0 = cpu_s(pid)
        for _ in range(n):
            t0 = time.perf_counter()
            client.get(f"/runs/{run_id}").raise_for_status()
            times.append(time.perf_counter() - t0)
        cpu = cpu_s(pid) - cpu0
    return {
        "requests": n,
        "p50_ms": 1000 * statistics.median(times),
        "p99_ms": 1000 * percentile(times, 0.99),
        "server_cpu_ms_per_request": 1000 * cpu / n,
    }


def cli_run(home: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "simwright", "run", REQUEST, "--home", str(home), "--json"],
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - t0


def api_run(url: str) -> float:
    async def one() -> float:
        async with httpx.AsyncClient(base_url=url, timeout=60) as client:
            t0 = time.perf_counter()
            r = await client.post("/runs", json={"request": REQUEST})
            r.raise_for_status()
            status = await wait_end(client, r.json()["run_id"])
            assert status == "completed", status
            return time.perf_counter() - t0

    return asyncio.run(one())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--poll-s", type=float, default=1.0, help="each client's poll period")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        port = free_port()
        server = start_server(home, port, args.workers)
        url = f"http://127.0.0.1:{port}"
        try:
            cpu0 = cpu_s(server.pid)
            stats = asyncio.run(load(url, args.clients, args.runs, args.poll_s))
            stats["server_cpu_s"] = cpu_s(server.pid) - cpu0
            stats["server_cpu_ms_per_request"] = 1000 * stats["server_cpu_s"] / stats["requests"]
            alone = single_client(url, server.pid)
            cli_s, api_s = [], []
            for _ in range(args.pairs):
                cli_s.append(cli_run(home))
                api_s.append(api_run(url))
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
    report = {"load": stats, "single_client": alone, "cli_s": cli_s, "api_s": api_s}
    print(json.dumps(report, indent=2))
    print(
        f"| {args.clients} clients, {args.runs} runs | {stats['requests']} | "
        f"{stats['p50_ms']:.1f} | {stats['p99_ms']:.1f} | {stats['errors']} | "
        f"{stats['server_cpu_ms_per_request']:.2f} |"
    )
    print(
        f"| {args.pairs} pairs | {' / '.join(f'{x:.2f}' for x in cli_s)} | "
        f"{' / '.join(f'{x:.2f}' for x in api_s)} | {sum(api_s) / sum(cli_s):.3f} |"
    )
    print(
        f"| 1 client, idle | {alone['requests']} | {alone['p50_ms']:.1f} | "
        f"{alone['p99_ms']:.1f} | 0 | {alone['server_cpu_ms_per_request']:.2f} |"
    )
    print(f"cpu count: {os.cpu_count()}, load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
