"""A qs_server for the benchmark scripts (gset_benchmark.py, model_benchmark.py) run without --addr: this
build tree's binary on free loopback ports, its output in a log file, stopped at the end of the run."""
import re
import subprocess
import sys
import time


class Server:
    """qs_server on free loopback ports with `extra` flags; `addr` is where it listens."""

    def __init__(self, binary, log_path, extra=()):
        self.log = open(log_path, "wb")
        flags = ["--address=127.0.0.1:0", "--metrics_address=127.0.0.1:0", "--shutdown_grace_seconds=5", *extra]
        self.process = subprocess.Popen([binary, *flags], stdout=self.log, stderr=subprocess.STDOUT)
        # Port 0: the server picks the port and says which in its log.
        for _ in range(1500):
            with open(log_path, "rb") as f:
                m = re.search(rb"listening on \S+ \(port (\d+)\)", f.read())
            if m:
                self.addr = f"127.0.0.1:{int(m.group(1))}"
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        self.stop()
        with open(log_path, errors="replace") as f:
            sys.exit(f"qs_server did not start:\n{f.read()}")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
