#!/usr/bin/env python3
"""Sparse Ising models of 10^4 to 10^6 spins through `qsolve solve --kind maxcut` against a qs_server with its
default flags: the 2D +-J spin glass on an L x L torus (L = 100, 316, 1000; 2 couplers per spin) and random
3-regular graphs with weights 1 (1.5 couplers per spin), both from build/tests/tools/generate_instances
(seeded). Each model gets a fresh server, so that its peak resident memory (/proc/<pid>/status VmHWM) is that
model's: parse, compile, the solves below and their streams. Per model the table gives

  * variables and couplers, the server's peak memory, and bytes per coupler over the memory of the idle
    server (measured once, before any model);
  * cpu-sa alone (--backend cpu-sa, 256 reads: one word of its bit-sliced kernel, one thread): the annealer's
    own figures from SolveSummary, sweeps of one read per annealer CPU second (sweeps_done over
    timings.annealer_cpu_seconds) and the CPU time of one sweep of the 256-read word (all spins, all 256
    reads at once);
  * the cut reached at fixed budgets: cpu-sa's best of 256 reads at each --sweeps budget, and the default
    backend (auto, no solver flags) at each --time_limit, as the cut and as the Ising energy per spin
    e = (W - 2 cut) / n, W the sum of the weights (the 2D +-J ground state lies near e = -1.40).

From the repository root (a few minutes per 10^6-spin model on two cores):

  tests/bench/scaling_benchmark.py
  tests/bench/scaling_benchmark.py --sizes 10000,100000 --sweeps 100 --time_limits 1
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def start_server(args, log_path):
    log = open(log_path, "w")
    server = subprocess.Popen([args.qs_server, "--address=127.0.0.1:0", "--metrics_address="],
                              stdout=log, stderr=subprocess.STDOUT)
    for _ in range(200):
        time.sleep(0.05)
        with open(log_path) as f:
            m = re.search(r"listening on \S+ \(port (\d+)\)", f.read())
        if m:
            return server, f"127.0.0.1:{m.group(1)}"
        if server.poll() is not None:
            break
    server.kill()
    sys.exit(f"qs_server did not start; see {log_path}")


def peak_kib(pid, field="VmHWM"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def solve(args, addr, path, flags):
    cmd = [args.qsolve, "--addr", addr, "solve", "--kind", "maxcut", "--input_file", path,
           "--max_samples", "1", "--json", "--seed", "1"] + flags
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {out.stderr.strip()}")
    for line in reversed(out.stdout.strip().splitlines()):
        event = json.loads(line)
        if "summary" in event:
            summary = event["summary"]
            break
    return json.loads(out.stdout.strip().splitlines()[-1]), summary


def model(args, topology, n, path):
    if topology == "torus":
        side = round(math.sqrt(n))
        cmd = ["--kind", "toruspm", "--n", str(side)]
    else:
        cmd = ["--kind", "regular", "--n", str(n), "--degree", "3"]
    with open(path, "w") as f:
        subprocess.run([args.generate_instances] + cmd + ["--seed", "1"], stdout=f, check=True)
    with open(path) as f:
        nodes, edges = map(int, f.readline().split())
        weight = sum(float(line.split()[2]) for line in f)
    return nodes, edges, weight


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--qs_server", default=os.path.join(ROOT, "build/server/qs_server"))
    parser.add_argument("--qsolve", default=os.path.join(ROOT, "build/clients/qsolve"))
    parser.add_argument("--generate_instances", default=os.path.join(ROOT, "build/tests/tools/generate_instances"))
    parser.add_argument("--topologies", default="torus,regular", help="comma-separated: torus, regular")
    parser.add_argument("--sizes", default="10000,100000,1000000", help="spins (torus: the nearest square)")
    parser.add_argument("--sweeps", default="100,1000", help="cpu-sa budgets: sweeps of its 256 reads")
    parser.add_argument("--time_limits", default="10", help="auto budgets: seconds")
    args = parser.parse_args()
    sweeps = [int(s) for s in args.sweeps.split(",")]
    limits = [float(t) for t in args.time_limits.split(",")]

    with tempfile.TemporaryDirectory() as tmp:
        server, _ = start_server(args, os.path.join(tmp, "idle.log"))
        time.sleep(0.5)
        idle = peak_kib(server.pid)
        server.terminate()
        server.wait()
        budgets = [f"cpu-sa {s} sweeps" for s in sweeps] + [f"auto {t:g} s" for t in limits]
        print(f"idle server: {idle / 1024:.0f} MiB peak resident")
        print("| model | variables | couplers | peak RSS | bytes / coupler | cpu-sa sweeps / CPU s (one read) "
              "| CPU per sweep (256 reads) | " + " | ".join(f"cut, e: {b}" for b in budgets) + " |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | " + " | ".join("---:" for _ in budgets) + " |")
        for topology in args.topologies.split(","):
            for n in (int(s) for s in args.sizes.split(",")):
                path = os.path.join(tmp, f"{topology}_{n}.txt")
                nodes, edges, weight = model(args, topology, n, path)
                server, addr = start_server(args, os.path.join(tmp, f"{topology}_{n}.log"))
                try:
                    cells, rate, per_sweep = [], None, None
                    for s in sweeps:
                        _, summary = solve(args, addr, path, ["--backend", "cpu-sa", "--reads", "256",
                                                              "--sweeps", str(s)])
                        cpu = summary["timings"]["annealer_cpu_seconds"]
                        done = int(summary["sweeps_done"])
                        rate, per_sweep = done / cpu, 256 * cpu / done
                        cut = -summary["best_energy"]
                        cells.append(f"{cut:.0f}, {(weight - 2 * cut) / nodes:.4f}")
                    for t in limits:
                        last, _ = solve(args, addr, path, ["--time_limit", f"{t:g}"])
                        cut = last["objective"]
                        cells.append(f"{cut:.0f}, {(weight - 2 * cut) / nodes:.4f}")
                    peak = peak_kib(server.pid)
                finally:
                    server.terminate()
                    server.wait()
                name = f"{topology} {round(math.sqrt(nodes))}²" if topology == "torus" else f"3-regular {nodes}"
                print(f"| {name} | {nodes} | {edges} | {peak / 1024:.0f} MiB | "
                      f"{(peak - idle) * 1024 / edges:.0f} | {rate:.3g} | {per_sweep * 1000:.3g} ms | "
                      + " | ".join(cells) + " |", flush=True)
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
