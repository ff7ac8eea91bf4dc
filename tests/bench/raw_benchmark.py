#!/usr/bin/env python3
"""Time to the best value on raw models: G-set-shaped Max-Cut graphs and Beasley-shaped QUBOs, through
`qsolve solve --json` against a running qs_server. Per model, a long reference run sets the target (the
best value known for a generated model is the best any run found: cpu-sa, 512 reads x 64,000 sweeps, on a
graph; tabu, 200 restarts in 5 s, on a QUBO), then each contender solves it with `--target_objective` set
to that value, once per seed. The table gives the runs that reached the target within the time limit, the
mean, median and maximum server time (SolveSummary.timings: total minus queue) and TTS99 = ln(100) x the
mean time, the figure [Goto 2021] gives for discrete simulated bifurcation on a GPU (G1 33 ms, G22 429 ms,
G43 5.9 ms).

Models (made here, seeded; none is a G-set or OR-Library file): rudy-like random graphs with the node
counts and densities of G1 (800 nodes, 6 %, weights 1), G6 (the same, +-1), G22 (2000, 1 %, 1), G27
(2000, 1 %, +-1) and G43 (1000, 2 %, 1) from build/tests/tools/generate_instances; the union of two random
planar graphs on 800 nodes, as rudy makes G14 (weights 1) and G18 (+-1); a 50 x 16 toroidal grid with +-1
weights, as G11; and QUBOs of Beasley's recipe (density 10 %, integers in [-100, 100], maximised) with the
sizes of bqp50 to bqp1000.

Contenders: `auto` (no solver flags, the default backend), `sb` (--backend sb --reads 256 --sweeps
1000, one call) and `tabu` (--backend tabu --reads 8: the restarts of one of auto's rounds on a dense
QUBO, alone). From the repository root:

  build/server/qs_server --address=127.0.0.1:50051 &
  tests/bench/raw_benchmark.py --addr 127.0.0.1:50051 --runs 10
"""
import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name: (generator, arguments, published dSB TTS99 in seconds [Goto 2021] for the G-set graph of that shape)
MODELS = {
    "G1-like": ("gset", (800, 0.06, 1), 0.033),
    "G6-like": ("gsetpm", (800, 0.06, 6), None),
    "G11-like": ("torus", (50, 16, 11), None),
    "G14-like": ("planar", (800, 1, 14), None),
    "G18-like": ("planar", (800, -1, 18), None),
    "G22-like": ("gset", (2000, 0.01, 22), 0.429),
    "G27-like": ("gsetpm", (2000, 0.01, 27), None),
    "G43-like": ("gset", (1000, 0.02, 43), 0.0059),
    "bqp50-like": ("bqp", (50, 0.1, 50), None),
    "bqp100-like": ("bqp", (100, 0.1, 100), None),
    "bqp250-like": ("bqp", (250, 0.1, 250), None),
    "bqp500-like": ("bqp", (500, 0.1, 500), None),
    "bqp1000-like": ("bqp", (1000, 0.1, 1000), None),
}

CONTENDERS = {
    "auto": [],
    "sb": ["--backend", "sb", "--reads", "256", "--sweeps", "1000"],
    "tabu": ["--backend", "tabu", "--reads", "8"],
}


def planar_edges(n, rng):
    """A random maximal planar graph (stacked triangulation), 99 % of its edges kept, nodes shuffled."""
    faces = [(0, 1, 2)]
    edges = {(0, 1), (0, 2), (1, 2)}
    for v in range(3, n):
        k = rng.randrange(len(faces))
        a, b, c = faces[k]
        faces[k] = (a, b, v)
        faces.append((a, c, v))
        faces.append((b, c, v))
        edges.update((u, v) for u in (a, b, c))
    order = list(range(n))
    rng.shuffle(order)
    return {tuple(sorted((order[u], order[v]))) for u, v in edges if rng.random() < 0.99}


def model_text(args, kind, params):
    if kind in ("gset", "gsetpm", "bqp"):
        n, density, seed = params
        out = subprocess.run([args.generate_instances, "--kind", kind, "--n", str(n), "--density",
                              str(density), "--seed", str(seed)], capture_output=True, text=True, check=True)
        return out.stdout
    rng = random.Random(params[-1])
    weights = {}
    if kind == "torus":
        rows, cols, _ = params
        n = rows * cols
        for r in range(rows):
            for c in range(cols):
                v = r * cols + c
                for u in (((r + 1) % rows) * cols + c, r * cols + (c + 1) % cols):
                    weights[tuple(sorted((u, v)))] = rng.choice((-1, 1))
    else:
        n, sign, _ = params
        for e in planar_edges(n, rng) | planar_edges(n, rng):
            weights[e] = 1 if sign > 0 else rng.choice((-1, 1))
    lines = [f"{n} {len(weights)}"] + [f"{u + 1} {v + 1} {w}" for (u, v), w in sorted(weights.items())]
    return "\n".join(lines) + "\n"


def solve(args, path, kind, flags):
    cmd = [args.qsolve, "--addr", args.addr, "solve", "--kind", kind, "--input_file", path,
           "--max_samples", "1", "--json"] + flags
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {out.stderr.strip()}")
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    t = summary["timings"]
    return summary["objective"], t["total_seconds"] - t.get("queue_seconds", 0)


def seconds(x):
    if x is None:
        return "—"
    return f"{x * 1000:.3g} ms" if x < 1 else f"{x:.3g} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--addr", default="127.0.0.1:50051")
    parser.add_argument("--qsolve", default=os.path.join(ROOT, "build/clients/qsolve"))
    parser.add_argument("--generate_instances", default=os.path.join(ROOT, "build/tests/tools/generate_instances"))
    parser.add_argument("--models", default=",".join(MODELS), help="comma-separated names of MODELS")
    parser.add_argument("--contenders", default="auto", help="comma-separated: auto, sb, tabu")
    parser.add_argument("--runs", type=int, default=10, help="seeded runs per graph and contender")
    parser.add_argument("--time_limit", type=float, default=10, help="seconds per run")
    parser.add_argument("--reference_sweeps", type=int, default=64000,
                        help="sweeps of a graph's reference run (cpu-sa, 512 reads)")
    args = parser.parse_args()

    print("| model | variables, terms | target | contender | reached | mean | median | max | TTS99 "
          "| dSB GPU TTS99 [Goto 2021] |")
    print("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.models.split(","):
            generator, params, published = MODELS[name]
            kind = "qubo" if generator == "bqp" else "maxcut"
            path = os.path.join(tmp, name + ".txt")
            text = model_text(args, generator, params)
            with open(path, "w") as f:
                f.write(text)
            reference = (["--backend", "tabu", "--reads", "200", "--time_limit", "5"] if kind == "qubo" else
                         ["--backend", "cpu-sa", "--reads", "512", "--sweeps", str(args.reference_sweeps)])
            target, _ = solve(args, path, kind, reference + ["--seed", "99991"])
            size = text.split()[1:3] if kind == "qubo" else text.split()[0:2]
            for contender in args.contenders.split(","):
                times, reached = [], 0
                for seed in range(1, args.runs + 1):
                    value, t = solve(args, path, kind, CONTENDERS[contender] + [
                        "--seed", str(seed), "--target_objective", str(target),
                        "--time_limit", str(args.time_limit)])
                    times.append(t)
                    reached += value >= target
                mean = statistics.mean(times)
                tts = math.log(100) * mean if reached == args.runs else None
                print(f"| {name} | {size[0]}, {size[1]} | {target:g} | {contender} "
                      f"| {reached}/{args.runs} | {seconds(mean)} | {seconds(statistics.median(times))} "
                      f"| {seconds(max(times))} | {seconds(tts)} | {seconds(published)} |", flush=True)
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
