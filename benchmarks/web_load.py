"""``python -m benchmarks.web_load [--players N] [--seconds S] [--game sniff|twelve] [--agent A] [--table T]``:
drive N players at once against a local ``serve`` and report moves/s and the latency of a move
(p50, p99), and what everyone else waits meanwhile: the latency of ``GET /api/config`` asked by
one more client every ``PROBE_SECONDS`` (``others_p50_ms``, ``others_p99_ms``, ``others_max_ms``);
then kill the server with SIGKILL mid-game, start it again on the same records and check that
every game in progress comes back at the version its player last saw. With a search agent
(``--agent pimc --table 4 --players 4``) the others' latency shows whether a search holds up the
server.

The server is started here (``--records`` in a temporary folder unless given) in its own process
group, and stopped by that group's id only. It trusts ``X-Forwarded-For`` from 127.0.0.1
(``--forwarded-allow-ips``), so each player can give its own address and the new-game limit (30
a minute per client) counts per player, as behind a reverse proxy. Standard library only.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """One player's address (``X-Forwarded-For``) against the server at ``base``."""

    def __init__(self, base: str, address: str) -> None:
        self.base, self.address = base, address

    def call(self, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"X-Forwarded-For": self.address, **({} if body is None else {"Content-Type": "application/json"})}
        request = urllib.request.Request(self.base + path, data, headers)
        try:
            with urllib.request.urlopen(request, timeout=120) as reply:
                return reply.status, json.loads(reply.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")


def start(game: str, records: Path, port: int) -> subprocess.Popen:
    """``serve`` on ``port`` in a new process group; returned once it answers."""
    command = [sys.executable, "-m", f"{game}_env", "serve", "--port", str(port), "--records", str(records)]
    command += ["--forwarded-allow-ips", "127.0.0.1"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    for _ in range(1200):
        with contextlib.suppress(OSError):  # not listening yet
            if Client(f"http://127.0.0.1:{port}", "127.0.0.1").call("/api/config")[0] == 200:  # 503: warming up
                return server
        if server.poll() is not None:
            break
        time.sleep(0.1)
    stop(server)
    raise SystemExit(f"error: the server did not start: {server.stderr.read().decode()[-500:]}")


def stop(server: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    """Signal the server's own process group (its id is the server's pid), then reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, sig)
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def play(client: Client, until: float, players: int, agent: str, out: dict) -> None:
    """New games, the first offered move each turn, until ``until`` and at least one move or error
    (however slow the machine, every player has played); latencies and errors to ``out``."""
    token, state = None, {"over": True}
    while time.monotonic() < until or not (out["latencies"] or out["errors"]):
        if state.get("over"):
            body = {"players": players, "agents": {str(s): agent for s in range(1, players)}}
            status, reply = client.call("/api/sessions", body)
            if status != 201:
                out["errors"].append(status)
                time.sleep(1)
                continue
            token = reply["token"]
            state = client.call(f"/api/sessions/{token}")[1]
            continue
        move = {"action": state["moves"][0]["action"], "version": state["version"]}
        began = time.perf_counter()
        status, reply = client.call(f"/api/sessions/{token}/move", move)
        out["latencies"].append(time.perf_counter() - began)
        if status != 200:
            out["errors"].append(status)
            state = client.call(f"/api/sessions/{token}")[1]
        else:
            state = reply
    out["token"], out["version"] = token, state.get("version")


PROBE_SECONDS = 0.05  #: how often the other client asks for the start page's config


def probe(client: Client, until: float, out: list[float]) -> None:
    """``GET /api/config`` every ``PROBE_SECONDS`` until ``until``, once at least; each latency to ``out``."""
    while time.monotonic() < until or not out:
        began = time.perf_counter()
        client.call("/api/config")
        out.append(time.perf_counter() - began)
        time.sleep(PROBE_SECONDS)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.web_load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=20, help="players at once (default 20)")
    parser.add_argument("--seconds", type=float, default=30, help="how long they play (default 30)")
    parser.add_argument("--game", choices=["sniff", "twelve"], default="sniff")
    parser.add_argument("--agent", default="greedy", help="the agent at every other seat (default greedy)")
    parser.add_argument("--table", type=int, default=2, help="players at each table (default 2)")
    parser.add_argument("--records", type=Path, help="the server's records folder (default: a temporary one)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        records, port = args.records or Path(scratch), free_port()
        base = f"http://127.0.0.1:{port}"
        server = start(args.game, records, port)
        try:
            outs = [{"latencies": [], "errors": []} for _ in range(args.players)]
            until = time.monotonic() + args.seconds
            threads = [
                threading.Thread(
                    target=play,
                    args=(
                        Client(base, f"10.0.{k // 250}.{k % 250 + 1}"),
                        until,
                        args.table,
                        args.agent,
                        out,
                    ),
                )
                for k, out in enumerate(outs)
            ]
            others: list[float] = []
            threads.append(threading.Thread(target=probe, args=(Client(base, "10.1.0.1"), until, others)))
            began = time.monotonic()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            took = time.monotonic() - began
            stop(server, signal.SIGKILL)  # no chance to tidy up, as in a crash
            server = start(args.game, records, port)
            back = sum(
                Client(base, "127.0.0.1").call(f"/api/sessions/{out['token']}")[1].get("version") == out["version"]
                for out in outs
                if out["token"]
            )
        finally:
            stop(server)
    latencies = [x for out in outs for x in out["latencies"]]
    errors = [e for out in outs for e in out["errors"]]
    report = {
        "players": args.players,
        "agent": args.agent,
        "table": args.table,
        "seconds": round(took, 1),
        "moves": len(latencies),
        "moves_per_second": round(len(latencies) / took, 1),
        "p50_ms": round(1000 * percentile(latencies, 0.5), 1),
        "p99_ms": round(1000 * percentile(latencies, 0.99), 1),
        "others_p50_ms": round(1000 * percentile(others, 0.5), 1),
        "others_p99_ms": round(1000 * percentile(others, 0.99), 1),
        "others_max_ms": round(1000 * max(others, default=float("nan")), 1),
        "errors": errors,
        "after_kill_9": f"{back} of {sum(1 for out in outs if out['token'])} games back at their version",
    }
    print(json.dumps(report))
    return 0 if not errors and back == sum(1 for out in outs if out["token"]) else 1


if __name__ == "__main__":
    sys.exit(main())
