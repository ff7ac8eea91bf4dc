#!/usr/bin/env python3
"""Anytime answers under load: the quality of a time-limited solve's answer against its time limit and the
number of calls running at once, through `qsolve solve --json` against a running qs_server.

Each point starts C calls of the same model together (C concurrent qsolve processes, each with
`--time_limit T` and its own seed), waits for all of them, and reports: how many returned a board, the
median and the lowest answer (the cut of a Max-Cut graph; for a Sudoku, how many boards were valid), the
median wall time of a call, the median CPU seconds a call's kernels got (SolveSummary.timings.
annealer_cpu_seconds) and the reads cut short by the limit.

Models (made here, seeded; none is a G-set file): a rudy-like random graph with the node count and density
of G22 (2000 nodes, 1 %, weights 1, from build/tests/tools/generate_instances); a 100 x 200 toroidal grid with
+-1 weights, the shape of G81 (20,000 nodes, 40,000 edges); and a hard 9x9 Sudoku (`--sudoku`, default a
22-clue puzzle of the project's own generator) solved by the QUBO samplers alone (`--auto_exact off`).

Contenders: `auto` (no solver flags), `cpu-sa` (--backend cpu-sa) and `pt` (--backend pt). From the
repository root:

  build/server/qs_server --address=127.0.0.1:50051 &
  tests/bench/load_benchmark.py --addr 127.0.0.1:50051 --models G81-like --limits 1,5 --concurrency 1,8,32
"""
import argparse
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import raw_benchmark  # noqa: E402  (the seeded graph generators)

ROOT = raw_benchmark.ROOT

# A hard 22-clue puzzle of the project's own generator (tests/core/sample/pt/pt_sampler_test.cc).
HARD_SUDOKU = ".....7.9.7..1..6.2..458..7.6......4..4.8......2...3...1...2...9.....9..3.......6."

MODELS = {
    "G22-like": ("maxcut", ("gset", (2000, 0.01, 22))),
    "G81-like": ("maxcut", ("torus", (100, 200, 81))),
    "hard-sudoku": ("sudoku", None),
}

CONTENDERS = {
    "auto": [],
    "cpu-sa": ["--backend", "cpu-sa"],
    "pt": ["--backend", "pt"],
}


def solve(args, kind, source, flags, seed):
    cmd = [args.qsolve, "--addr", args.addr, "solve", "--kind", kind, *source, "--max_samples", "1",
           "--json", "--seed", str(seed), *flags]
    start = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.monotonic() - start
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {out.stderr.strip()}")
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    return summary, wall


def board_of(summary):
    """Whether the answer holds a board at all."""
    return summary.get("reads", 0) > 0


def point(args, kind, source, flags, limit, concurrency):
    flags = flags + ["--time_limit", str(limit)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=concurrency) as pool:
        runs = list(pool.map(lambda s: solve(args, kind, source, flags, s), range(1, concurrency + 1)))
    summaries = [s for s, _ in runs]
    boards = sum(board_of(s) for s in summaries)
    if kind == "maxcut":
        values = [s.get("objective") or 0 for s in summaries]
        quality = f"{statistics.median(values):g}", f"{min(values):g}"
    else:
        valid = sum(bool(s.get("valid")) for s in summaries)
        quality = f"{valid}/{concurrency} valid", "—"
    cpu = [s.get("timings", {}).get("annealer_cpu_seconds", 0) for s in summaries]
    cut = sum(int(s.get("reads_cut_short", 0)) for s in summaries)
    wall = statistics.median(w for _, w in runs)
    return boards, quality, wall, statistics.median(cpu), cut


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--addr", default="127.0.0.1:50051")
    parser.add_argument("--qsolve", default=os.path.join(ROOT, "build/clients/qsolve"))
    parser.add_argument("--generate_instances", default=os.path.join(ROOT, "build/tests/tools/generate_instances"))
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated names of MODELS")
    parser.add_argument("--contenders", default=",".join(CONTENDERS), help="comma-separated: auto, cpu-sa, pt")
    parser.add_argument("--limits", default="1,5", help="comma-separated time limits in seconds")
    parser.add_argument("--concurrency", default="1,2,8,32", help="comma-separated calls at once")
    parser.add_argument("--sudoku", default=HARD_SUDOKU, help="the Sudoku of model hard-sudoku")
    args = parser.parse_args()

    print("| model | contender | limit | calls | boards | median answer | lowest | median wall "
          "| median kernel CPU | reads cut short |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.models.split(","):
            kind, generated = MODELS[name]
            if generated is None:
                source = ["--input", args.sudoku]
                extra = ["--auto_exact", "off"]
            else:
                path = os.path.join(tmp, name + ".txt")
                with open(path, "w") as f:
                    f.write(raw_benchmark.model_text(args, *generated))
                source = ["--input_file", path]
                extra = []
            for contender in args.contenders.split(","):
                flags = CONTENDERS[contender] + (extra if contender == "auto" else [])
                for limit in (float(x) for x in args.limits.split(",")):
                    for calls in (int(x) for x in args.concurrency.split(",")):
                        boards, (median, lowest), wall, cpu, cut = point(args, kind, source, flags, limit, calls)
                        print(f"| {name} | {contender} | {limit:g} s | {calls} | {boards}/{calls} | {median} "
                              f"| {lowest} | {wall:.2f} s | {cpu:.3f} s | {cut} |", flush=True)
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
