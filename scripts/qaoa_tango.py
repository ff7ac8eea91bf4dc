#!/usr/bin/env python3
"""QAOA on generated LinkedIn-style Tango 6x6 puzzles (a benchmark, not a test).

Makes COUNT puzzles with `qsolve generate --kind tango --size 6 --difficulty DIFFICULTY` (default hard: the
fewest clues that keep the solution unique), keeps those whose reduced model has at most
MAX_QUBITS variables, and solves each with `qsolve solve --backend qaoa` (angles optimised by BOBYQA from
the linear ramp, READS reads) at every p of LAYERS, against a qs_server of this build started on ADDR.
Prints a Markdown table per p: the share solved (a valid board among the samples), the mean and median
probability of the valid board in the final state (QaoaInfo.ground_probability: Tango's valid boards are
exactly its ground states) and the mean wall time per solve.

  scripts/qaoa_tango.py                                     # 50 puzzles, p = 1 2 3 5, <= 20 qubits
  COUNT=20 LAYERS="1 2" MAX_QUBITS=16 DIFFICULTY=medium MIXER=xy scripts/qaoa_tango.py
"""

import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ADDR = os.environ.get("ADDR", "127.0.0.1:50661")
COUNT = int(os.environ.get("COUNT", "50"))
LAYERS = [int(p) for p in os.environ.get("LAYERS", "1 2 3 5").split()]
MAX_QUBITS = int(os.environ.get("MAX_QUBITS", "20"))
READS = int(os.environ.get("READS", "1000"))
SEED = os.environ.get("SEED", "2026")
DIFFICULTY = os.environ.get("DIFFICULTY", "hard")
MIXER = os.environ.get("MIXER", "")
ITERATIONS = os.environ.get("ITERATIONS", "")  # optimiser evaluations; empty: the server's (200)
QSOLVE = os.path.join(ROOT, "build/clients/qsolve")


def qsolve(*args):
    out = subprocess.run([QSOLVE, *args, "--addr", ADDR], check=True, capture_output=True, text=True)
    return out.stdout.splitlines()


def main():
    subprocess.run(["cmake", "--build", "build", "-j" + os.environ.get("JOBS", "1"), "--target", "qs_server",
                    "qsolve"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    server = subprocess.Popen([os.path.join(ROOT, "build/server/qs_server"), "--address=" + ADDR,
                               "--metrics_address=", "--log_level=warn"])
    try:
        for _ in range(100):
            if subprocess.run([QSOLVE, "health", "--addr", ADDR], capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        puzzles = qsolve("generate", "--kind", "tango", "--size", "6", "--count", str(COUNT), "--seed", SEED,
                         "--difficulty", DIFFICULTY)
        kept = []
        for p in puzzles:
            n = json.loads(qsolve("compile", "--kind", "tango", "--input", p, "--json")[-1])["variables"]
            if n <= MAX_QUBITS:
                kept.append((p, n))
        sizes = sorted(n for _, n in kept)
        print(f"generated {len(puzzles)} puzzles, {len(kept)} with <= {MAX_QUBITS} qubits "
              f"(median {statistics.median(sizes) if sizes else 0}, max {max(sizes, default=0)})\n")
        print("| p | solved | mean P(valid) | median P(valid) | mean s/solve |")
        print("| ---: | ---: | ---: | ---: | ---: |")
        for layers in LAYERS:
            solved, probabilities, start = 0, [], time.time()
            for p, _ in kept:
                args = ["solve", "--kind", "tango", "--input", p, "--backend", "qaoa", "--qaoa_layers",
                        str(layers), "--reads", str(READS), "--seed", "1", "--json"]
                if MIXER:
                    args += ["--qaoa_mixer", MIXER]
                if ITERATIONS:
                    args += ["--qaoa_iterations", ITERATIONS]
                lines = qsolve(*args)
                summary = next(json.loads(l)["summary"] for l in lines if l.startswith('{"summary"'))
                solved += summary.get("num_valid", 0) > 0
                probabilities.append(summary["backend"]["qaoa"].get("ground_probability", 0.0))
            n = max(len(kept), 1)
            print(f"| {layers} | {solved}/{len(kept)} ({100 * solved / n:.0f} %) | "
                  f"{statistics.fmean(probabilities) if probabilities else 0:.3f} | "
                  f"{statistics.median(probabilities) if probabilities else 0:.3f} | "
                  f"{(time.time() - start) / n:.1f} |", flush=True)
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
