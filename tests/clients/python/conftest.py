"""Fixtures of the Python package's tests: a real qs_server of this build tree ($QS_BINARY_DIR, default
build/) started on a free loopback port, and clients of it. The server must stop cleanly (exit 0 on
SIGTERM) when the tests are done."""
import os
import pathlib
import re
import signal
import subprocess
import time
import urllib.request

import pytest
import qsolver

ROOT = pathlib.Path(__file__).resolve().parents[3]
BINARY_DIR = pathlib.Path(os.environ.get("QS_BINARY_DIR", ROOT / "build"))
# Every call of a test has a deadline, so that a hang fails the test instead of blocking the run.
CALL_TIMEOUT = 120
NYT_SUDOKU = ".......2.....9..4....3.2..76.51....8...7.51...3.2....5.9..7...3.8.....9...4..65.."
NYT_SOLUTION = ("713854629852697341469312857645139278928765134137248965296571483581423796374986512")


class Server:
    """A qs_server process; target is "127.0.0.1:PORT"."""

    def __init__(self, log_path, *flags):
        binary = BINARY_DIR / "server" / "qs_server"
        if not binary.exists():
            pytest.fail(f"{binary} is missing: build the qs_server target (QS_BINARY_DIR names the build tree)")
        self.log_path = log_path
        self.log = open(log_path, "wb")
        self.process = subprocess.Popen(
            [str(binary), "--address=127.0.0.1:0", "--metrics_address=127.0.0.1:0", "--worker_threads=2",
             "--max_concurrent_requests=4", "--shutdown_grace_seconds=5", *flags],
            stdout=self.log, stderr=subprocess.STDOUT)
        self.port, self.metrics_port = self._wait_for_ports()
        self.target = f"127.0.0.1:{self.port}"

    def _wait_for_ports(self):
        pattern = re.compile(rb"listening on \S+ \(port (\d+)\), metrics on \S+ \(port (\d+)\)")
        for _ in range(3000):
            match = pattern.search(self.log_path.read_bytes())
            if match:
                return int(match.group(1)), int(match.group(2))
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        self.process.kill()
        pytest.fail(f"qs_server did not start:\n{self.log_path.read_text(errors='replace')}")

    def metrics(self):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=30) as response:
            return response.read().decode()

    def stop(self):
        """SIGTERM (drain), then the exit status, which must be 0."""
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = "killed after 60 s"
        self.log.close()
        assert code == 0, f"qs_server exit {code}:\n{self.log_path.read_text(errors='replace')}"


def metric_sum(text, name, **labels):
    """The sum of a Prometheus metric's samples whose labels include `labels`."""
    total = 0.0
    for line in text.splitlines():
        if not line.startswith(name + "{"):
            continue
        head, value = line.rsplit(" ", 1)
        if all(f'{key}="{val}"' in head for key, val in labels.items()):
            total += float(value)
    return total


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    started = Server(tmp_path_factory.mktemp("server") / "qs_server.log")
    client = qsolver.Client(started.target)
    client.wait_ready(timeout=60)
    client.close()
    yield started
    started.stop()


@pytest.fixture
def client(server):
    with qsolver.Client(server.target, timeout=CALL_TIMEOUT) as c:
        yield c


@pytest.fixture
def sampler(server):
    with qsolver.Sampler(server.target, timeout=CALL_TIMEOUT) as s:
        yield s
