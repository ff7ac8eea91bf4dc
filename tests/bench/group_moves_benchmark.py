#!/usr/bin/python3
"""Group moves on and off, in one run: every puzzle and model of the sets solved through the QUBO samplers
alone (`qsolve solve --auto_exact off --group_moves on|off`, auto's race without the exact engines), then
per set and mode the share solved, the median time to solution and pt's moves per second.

* Puzzle sets (`--puzzles KIND:FILE`, one puzzle per line, lines starting with # skipped; `--queens
  N:COUNT` boards made as tests/bench/hard_puzzles.py makes them): solved = a valid board within
  --time_limit (`--stop_at_first_valid`); time = the server's sampling time to it (the limit when unsolved).
* Model sets (`--models DIR` with `--files` patterns, the files of tests/bench/model_instances.py):
  solved = a feasible answer at the set's reference: the target of DIR/targets.json when it is an
  optimum (Held-Karp, TSPLIB's published optimum, CBC's proof), else the best objective either mode
  reached in this run; time = the stream's first feasible sample at that objective, timed by the client
  (the limit when unsolved). A model solve runs the whole --time_limit: it cannot know it is optimal.
  A second table lists each model's objective in both settings beside its target, if any (a heuristic
  one too, such as model_instances.py --tsp_two_opt's).
* moves/s: pt's proposals (single flips, one-hot swaps, two-way exchanges) per second of its race time
  (`auto.raced`), the median over the set's solves.

`--backend cpu-sa` (or `tabu`, `pa`) measures that sampler alone instead (`qsolve solve --backend NAME
--group_moves on|off`, `--reads`/`--sweeps` per solve; a solve ends when its reads do or at --time_limit):
moves/s is then its `attempts_per_second` (for `tabu`, the moves it scored). Their default keeps the
groups on models only; `on` keeps them on puzzles too.

Without --addr the script starts --qs_server on free loopback ports. From the repository root:

  tests/bench/model_instances.py --out /tmp/gm --tsp_sizes 6,8,10,12,20,30,48,52 --tsp_two_opt 400 \
      --opb 'qap:8,qap:12,qap:16,qap:20'
  tests/bench/group_moves_benchmark.py --models /tmp/gm \\
      --puzzles sudoku:tests/data/sudoku/generated_hard40.txt \\
      --puzzles zip:tests/data/zip/generated_8x8.txt --queens 18:10 --time_limit 10
  tests/bench/group_moves_benchmark.py --backend cpu-sa --reads 32 --sweeps 20000 --models /tmp/gm
  tests/bench/group_moves_benchmark.py --backend tabu --reads 16 --sweeps 200 --models /tmp/gm
"""
import argparse
import fnmatch
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hard_puzzles  # noqa: E402
import model_benchmark as mb  # noqa: E402
import model_files as mf  # noqa: E402
from bench_server import Server  # noqa: E402

MODES = ("on", "off")


def pt_moves_per_second(result):
    for racer in (result.get("auto") or {}).get("raced", []):
        if racer.get("name") == "pt" and racer.get("seconds"):
            return int(racer.get("spin_update_attempts", 0)) / racer["seconds"]
    return None


def moves_per_second(args, result):
    if args.backend == "auto":
        return pt_moves_per_second(result)
    return result.get("attempts_per_second") or None


def backend_flags(args, mode):
    """auto's race without the exact engines, or the named backend with its reads and sweeps."""
    flags = ["--auto_exact", "off"] if args.backend == "auto" else ["--backend", args.backend]
    if args.reads:
        flags += ["--reads", str(args.reads)]
    if args.sweeps:
        flags += ["--sweeps", str(args.sweeps)]
    return flags + ["--group_moves", mode]


def solve_puzzle(args, kind, puzzle, mode):
    cmd = [args.qsolve, "--addr", args.addr, "solve", "--kind", kind, *backend_flags(args, mode),
           "--stop_at_first_valid", "--time_limit", f"{args.time_limit:g}",
           "--seed", str(args.seed), "--json", "--input", puzzle]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {out.stderr.strip()}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    valid = bool(result.get("valid"))
    seconds = result["timings"]["sample_seconds"] if valid else args.time_limit
    return valid, seconds, moves_per_second(args, result)


def solve_model(args, inst, mode):
    cmd = [args.qsolve, "--addr", args.addr, "solve", "--kind", "model", "--input-file", inst.path,
           *backend_flags(args, mode), "--time_limit", f"{args.time_limit:g}",
           "--seed", str(args.seed), "--json"]
    result, events, code, err, _ = mb.stream_qsolve(cmd, args.time_limit + 120)
    if result is None or code != 0:
        sys.exit(f"{' '.join(cmd)}: {(err or '').strip()[:300]}")
    return {"feasible": bool(result.get("feasible")), "objective": result.get("objective"),
            "events": events, "moves_per_second": moves_per_second(args, result)}


def summarize(name, mode, solved, times, rates):
    rates = [r for r in rates if r]
    return {"set": name, "moves": mode, "solved": f"{sum(solved)}/{len(solved)}",
            "median_s": statistics.median(times) if times else None,
            "moves_per_s": statistics.median(rates) if rates else None}


def puzzle_rows(args, sets):
    rows = []
    for name, kind, puzzles in sets:
        for mode in MODES:
            solved, times, rates = [], [], []
            for puzzle in puzzles:
                valid, seconds, rate = solve_puzzle(args, kind, puzzle, mode)
                solved.append(valid)
                times.append(seconds)
                rates.append(rate)
            rows.append(summarize(name, mode, solved, times, rates))
            mb.progress(json.dumps(rows[-1]))
    return rows


def reference(inst, runs):
    """The objective a run must reach: an optimal target, else the best feasible objective of the runs."""
    if inst.target is not None and mb.is_exact(inst.target_source):
        return inst.target
    values = [r["objective"] for r in runs if r["feasible"] and r["objective"] is not None]
    if not values:
        return None
    return min(values) if inst.sense == mf.MIN else max(values)


def model_rows(args, objectives):
    targets_path = os.path.join(args.models, "targets.json")
    targets = json.load(open(targets_path)) if os.path.exists(targets_path) else {}
    patterns = args.files.split(",")
    names = sorted(n for n in os.listdir(args.models)
                   if n.endswith((".lp", ".opb", ".qplib")) and any(fnmatch.fnmatch(n, p) for p in patterns))
    by_set = {}
    for name in names:
        inst = mb.Instance(os.path.join(args.models, name), targets)
        runs = {mode: solve_model(args, inst, mode) for mode in MODES}
        value = reference(inst, runs.values())
        family = name.split("_")[0].rstrip("0123456789")
        objectives.append({"model": name, **{mode: run["objective"] if run["feasible"] else None
                                             for mode, run in runs.items()},
                           "target": inst.target, "source": inst.target_source})
        for mode, run in runs.items():
            at = None
            if value is not None and run["feasible"] and mf.reaches(inst.sense, run["objective"], value):
                at = mb.time_to_best(run["events"], value, inst.sense)
            entry = by_set.setdefault((family, mode), ([], [], []))
            entry[0].append(at is not None)
            entry[1].append(at if at is not None else args.time_limit)
            entry[2].append(run["moves_per_second"])
            mb.progress(f"{name} {mode}: objective {run['objective']} (reference {value}), "
                        f"time {at}")
    return [summarize(f"{family} models", mode, *by_set[(family, mode)])
            for family in sorted({f for f, _ in by_set}) for mode in MODES]


def objectives_markdown(objectives):
    lines = ["| model | on | off | target |", "| --- | ---: | ---: | --- |"]
    for o in objectives:
        target = "—" if o["target"] is None else f"{o['target']:g} ({o['source']})"
        cells = ["—" if o[m] is None else f"{o[m]:g}" for m in MODES]
        lines.append(f"| {o['model']} | {cells[0]} | {cells[1]} | {target} |")
    return "\n".join(lines)


def markdown(rows, args):
    who = ("QUBO samplers alone (`--auto_exact off`)" if args.backend == "auto"
           else f"`{args.backend}` alone ({args.reads or 'default'} reads x {args.sweeps or 'default'} sweeps)")
    rate = "pt moves/s" if args.backend == "auto" else f"{args.backend} moves/s"
    lines = [f"Group moves on and off, {who}, at most {args.time_limit:g} s per solve:",
             "", f"| set | group moves | solved | median time to solution | {rate} |",
             "| --- | --- | --- | --- | --- |"]
    for r in rows:
        median = "—" if r["median_s"] is None else f"{r['median_s']:.3g} s"
        rate = "—" if r["moves_per_s"] is None else f"{r['moves_per_s']:.3g}"
        lines.append(f"| {r['set']} | {r['moves']} | {r['solved']} | {median} | {rate} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--addr", default="", help="a running qs_server; default: start --qs_server")
    parser.add_argument("--qs_server", default=os.path.join(mb.ROOT, "build/server/qs_server"))
    parser.add_argument("--qsolve", default=os.path.join(mb.ROOT, "build/clients/qsolve"))
    parser.add_argument("--puzzles", action="append", default=[], help="KIND:FILE, one puzzle per line")
    parser.add_argument("--queens", action="append", default=[], help="N:COUNT boards of side N")
    parser.add_argument("--models", default="", help="a directory of model_instances.py files")
    parser.add_argument("--files", default="*", help="comma-separated glob patterns of model file names")
    parser.add_argument("--time_limit", type=float, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default="", help="write the rows to this JSON file")
    parser.add_argument("--backend", default="auto", help="auto (its race, exact engines off) or a sampler")
    parser.add_argument("--reads", type=int, default=0, help="--reads of each solve (default: the server's)")
    parser.add_argument("--sweeps", type=int, default=0, help="--sweeps of each solve (default: the server's)")
    args = parser.parse_args()

    sets = []
    for spec in args.puzzles:
        kind, path = spec.split(":", 1)
        with open(path) as f:
            lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
        sets.append((f"{kind} {os.path.basename(path)}", kind, lines))
    rng = random.Random(args.seed)
    for spec in args.queens:
        n, count = (int(x) for x in spec.split(":"))
        sets.append((f"queens {n}x{n}", "queens", [hard_puzzles.queens_board(n, rng) for _ in range(count)]))
    server = None
    with tempfile.TemporaryDirectory() as tmp:
        if not args.addr:
            server = Server(args.qs_server, os.path.join(tmp, "qs_server.log"))
            args.addr = server.addr
        try:
            rows = puzzle_rows(args, sets)
            objectives = []
            if args.models:
                rows += model_rows(args, objectives)
        finally:
            if server:
                server.stop()
    print(markdown(rows, args))
    if objectives:
        print()
        print(objectives_markdown(objectives))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"sets": rows, "models": objectives}, f, indent=1)


if __name__ == "__main__":
    main()
