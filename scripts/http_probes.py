#!/usr/bin/env python3
"""Hostile-client probes of qs_server's HTTP front (docs/http-limits.md).

Starts the given qs_server on free loopback ports with a bearer token, then
measures, printing one line per figure:
  - the server's resident memory growth while a chunked body (300 MiB by
    default) is sent to /v1/solve without a token, and what it answered;
  - /healthz and a small solve's latency with N slowloris connections open
    from the same address (each trickles a header byte a second), and with
    100 streamed solves whose clients never read;
  - 15 MB of '[' to /v1/parse: status and memory growth;
  - a request id with a newline, a 1 MB request id, a 20 KB body sent as
    curl -d sends it, and the lower-case bearer scheme: statuses;
  - with --sigterm: the time from SIGTERM to exit with queued 30 s solves.
Standard library only. Usage:
  python3 scripts/http_probes.py --server build/server/qs_server [--sigterm]
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time

TOKEN = "probe-token"
SMALL = json.dumps({"puzzle": {"queens": {"rows": 6}},
                    "params": {"numReads": 4, "seed": "1"}})
SUDOKU = {"sudoku": {"cells": [0] * 81}}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class PeakRss(threading.Thread):
    """Samples a process's resident memory every 10 ms until stopped."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.peak, self.done = pid, rss_mb(pid), False

    def run(self):
        while not self.done:
            self.peak = max(self.peak, rss_mb(self.pid))
            time.sleep(0.01)

    def stop(self):
        self.done = True
        self.join()
        return self.peak


def request(port, method, path, body=b"", headers=None, timeout=30):
    """One HTTP/1.1 request on a fresh connection: (status, body, seconds)."""
    headers = dict(headers or {})
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        head = f"{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        if body or method == "POST":
            headers.setdefault("Content-Length", str(len(body)))
        for k, v in headers.items():
            head += f"{k}: {v}\r\n"
        s.sendall(head.encode() + b"\r\n" + body)
        data = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except (socket.timeout, ConnectionResetError):
            pass
    seconds = time.monotonic() - start
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
    return status, data.partition(b"\r\n\r\n")[2], seconds


def auth(extra=None):
    h = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    h.update(extra or {})
    return h


def probe_chunked(port, pid, mib):
    peak = PeakRss(pid)
    before = rss_mb(pid)
    peak.start()
    start = time.monotonic()
    sent, answer = 0, b""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
            s.sendall(b"POST /v1/solve HTTP/1.1\r\nHost: x\r\n"
                      b"Transfer-Encoding: chunked\r\n\r\n")
            chunk = b"10000\r\n" + b"[" * 65536 + b"\r\n"
            try:
                while sent < mib << 20:
                    s.sendall(chunk)
                    sent += 65536
                s.sendall(b"0\r\n\r\n")
            except OSError:
                pass
            try:
                answer = s.recv(4096)
            except OSError:
                pass
    except OSError:
        pass
    seconds = time.monotonic() - start
    growth = peak.stop() - before
    status = answer.split(b" ", 2)[1].decode() if answer else "reset"
    print(f"chunked {mib} MiB without token: sent {sent >> 20} MiB before "
          f"the server closed, answer {status}, RSS growth {growth:.1f} MB, "
          f"{seconds:.2f} s")


def probe_slowloris(port, count):
    stop = threading.Event()
    conns = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        conns.append(s)

    def trickle():
        while not stop.is_set():
            for s in conns:
                try:
                    s.send(b"X")
                except OSError:
                    pass
            stop.wait(1.0)

    t = threading.Thread(target=trickle, daemon=True)
    t.start()
    time.sleep(0.5)
    for k in range(4):
        hs, _, hsec = request(port, "GET", "/healthz", timeout=10)
        ss, _, ssec = request(port, "POST", "/v1/solve?stream=false",
                              SMALL.encode(), auth(), timeout=10)
        print(f"{count} slowloris open: /healthz {hs} in {hsec:.3f} s, "
              f"small solve {ss} in {ssec:.3f} s")
        time.sleep(0.5)
    stop.set()
    t.join()
    for s in conns:
        s.close()


def probe_non_reading(port, count):
    body = json.dumps({"puzzle": SUDOKU,
                       "params": {"numReads": 1000, "numSweeps": 1}}).encode()
    conns = []
    for _ in range(count):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", port))
        head = (f"POST /v1/solve HTTP/1.1\r\nHost: x\r\nContent-Length: "
                f"{len(body)}\r\nAuthorization: Bearer {TOKEN}\r\n\r\n")
        s.sendall(head.encode() + body)
        conns.append(s)
    time.sleep(1.0)
    for k in range(3):
        hs, health, hsec = request(port, "GET", "/healthz", timeout=10)
        ss, _, ssec = request(port, "POST", "/v1/solve?stream=false",
                              SMALL.encode(), auth(), timeout=30)
        print(f"{count} streamed solves never read: /healthz {hs} in "
              f"{hsec:.3f} s ({health.decode().strip()}), small solve {ss} "
              f"in {ssec:.3f} s")
        time.sleep(1.0)
    for s in conns:
        s.close()


def probe_deep_json(port, pid):
    peak = PeakRss(pid)
    before = rss_mb(pid)
    peak.start()
    status, body, seconds = request(port, "POST", "/v1/parse",
                                    b"[" * (15 << 20), auth(), timeout=60)
    growth = peak.stop() - before
    print(f"15 MB of '[' to /v1/parse: {status} in {seconds:.2f} s, "
          f"RSS growth {growth:.1f} MB")


def probe_requests(port):
    forged = json.dumps({"requestId": "a\nrpc=Solve request_id=forged",
                         "puzzle": {"queens": {"rows": 6}}}).encode()
    print("request id with a newline:",
          request(port, "POST", "/v1/solve?stream=false", forged, auth())[0])
    long_id = json.dumps({"requestId": "a" * (1 << 20),
                          "puzzle": {"queens": {"rows": 6}}}).encode()
    print("1 MB request id:",
          request(port, "POST", "/v1/solve?stream=false", long_id, auth())[0])
    body = (" " * 20000 + SMALL).encode()
    form = {"Authorization": f"Bearer {TOKEN}",
            "Content-Type": "application/x-www-form-urlencoded"}
    print("20 KB body as curl -d sends it:",
          request(port, "POST", "/v1/solve?stream=false", body, form)[0])
    lower = {"Authorization": f"bearer {TOKEN}"}
    print("lower-case bearer:", request(port, "GET", "/v1/backends",
                                        headers=lower)[0])
    big = json.dumps({"puzzle": SUDOKU,
                      "params": {"maxSampleEvents": 100000}}).encode()
    print("stream=false with maxSampleEvents 100000:",
          request(port, "POST", "/v1/solve?stream=false", big, auth())[0])


def probe_sigterm(port, proc, grace):
    slow = json.dumps({"puzzle": SUDOKU,
                       "params": {"numReads": 2, "numSweeps": 10000000,
                                  "timeLimitSeconds": 30}}).encode()
    results = []

    def call():
        results.append(request(port, "POST", "/v1/solve?stream=false", slow,
                               auth(), timeout=120)[:2])

    threads = [threading.Thread(target=call) for _ in range(6)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    _, health, _ = request(port, "GET", "/healthz")
    start = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=120)
    seconds = time.monotonic() - start
    for t in threads:
        t.join()
    statuses = sorted(str(s) for s, _ in results)
    print(f"SIGTERM with {health.decode().strip()} and grace {grace} s: "
          f"exit after {seconds:.2f} s; the calls answered {statuses}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default="build/server/qs_server")
    parser.add_argument("--chunked-mib", type=int, default=300)
    parser.add_argument("--slowloris", type=int, default=200)
    parser.add_argument("--non-reading", type=int, default=100)
    parser.add_argument("--grace", type=float, default=5)
    parser.add_argument("--sigterm", action="store_true")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp()
    token_file = os.path.join(workdir, "token.txt")
    with open(token_file, "w") as f:
        f.write(TOKEN + "\n")
    port = free_port()
    proc = subprocess.Popen(
        [args.server, f"--address=127.0.0.1:{free_port()}",
         "--metrics_address=", f"--http_address=127.0.0.1:{port}",
         f"--auth_token_file={token_file}", "--max_concurrent_requests=2",
         f"--shutdown_grace_seconds={args.grace}", "--log_level=warn"])
    for _ in range(100):
        try:
            if request(port, "GET", "/healthz", timeout=1)[0] == 200:
                break
        except OSError:
            time.sleep(0.1)
    print(f"server pid {proc.pid}, RSS {rss_mb(proc.pid):.1f} MB; "
          f"load {os.getloadavg()[0]:.2f}")
    try:
        probe_chunked(port, proc.pid, args.chunked_mib)
        probe_slowloris(port, args.slowloris)
        probe_non_reading(port, args.non_reading)
        probe_deep_json(port, proc.pid)
        probe_requests(port)
        if args.sigterm:
            probe_sigterm(port, proc, args.grace)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


if __name__ == "__main__":
    main()
