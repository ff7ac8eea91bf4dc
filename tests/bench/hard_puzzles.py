#!/usr/bin/env python3
"""Hard-puzzle table of the samplers: each puzzle solved once per backend with
`qsolve solve --stop_at_first_valid` under a time limit, then per set and
backend the share solved, and the median, 90th percentile and maximum time to
the first valid board (the server's sampling time; an unsolved puzzle counts
as the limit).

Sets are files of one puzzle per line (`--sudoku FILE`, or `--puzzles KIND:FILE`
for any family's text, lines starting with # skipped; both repeatable) and
LinkedIn-style Queens boards made here (`--queens N:COUNT`, repeatable): a
random placement of N queens that keeps the LinkedIn rules (one per row and
column, no two touching diagonally), then N colour regions grown at random
from the queens, so every board has at least that solution.

  tests/bench/hard_puzzles.py --addr 127.0.0.1:50051 \\
      --sudoku tests/data/sudoku/generated_hard40.txt --queens 18:10 \\
      --backends pt,cpu-sa --time_limit 20
  tests/bench/hard_puzzles.py --puzzles zip:/tmp/zip8.txt --backends pt \
      --solve_flags='--param moves=one_hot_swap'
"""
import argparse
import json
import random
import shlex
import statistics
import subprocess
import sys


def queens_board(n, rng):
    """A LinkedIn Queens board of side n with a solution, as region rows."""
    while True:
        cols = []
        if place(n, cols, rng):
            break
    region = [[-1] * n for _ in range(n)]
    frontier = []
    for r, c in enumerate(cols):
        region[r][c] = r
        frontier.append((r, c))
    while frontier:
        k = rng.randrange(len(frontier))
        r, c = frontier[k]
        free = [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= r + dr < n and 0 <= c + dc < n and region[r + dr][c + dc] < 0]
        if not free:
            frontier.pop(k)
            continue
        rr, cc = rng.choice(free)
        region[rr][cc] = region[r][c]
        frontier.append((rr, cc))
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return "/".join("".join(letters[v] for v in row) for row in region)


def place(n, cols, rng):
    """Backtracking placement, one queen per row and column, no diagonal touch."""
    if len(cols) == n:
        return True
    r = len(cols)
    options = [c for c in range(n) if c not in cols and
               (r == 0 or abs(cols[-1] - c) != 1)]
    rng.shuffle(options)
    for c in options:
        cols.append(c)
        if place(n, cols, rng):
            return True
        cols.pop()
    return False


def solve(args, kind, puzzle, backend):
    cmd = [args.qsolve, "--addr", args.addr, "solve", "--kind", kind,
           "--backend", backend, "--stop_at_first_valid", "--reads", "100000",
           "--time_limit", str(args.time_limit), "--seed", str(args.seed),
           "--json", "--input", puzzle] + shlex.split(args.solve_flags)
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {out.stderr.strip()}")
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    return summary["valid"], summary["timings"]["sample_seconds"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--addr", default="127.0.0.1:50051")
    parser.add_argument("--qsolve", default="build/clients/qsolve")
    parser.add_argument("--sudoku", action="append", default=[])
    parser.add_argument("--puzzles", action="append", default=[],
                        help="KIND:FILE, one puzzle per line")
    parser.add_argument("--solve_flags", default="",
                        help="extra qsolve solve flags, e.g. --param moves=one_hot_swap")
    parser.add_argument("--queens", action="append", default=[],
                        help="N:COUNT boards of side N")
    parser.add_argument("--backends", default="pt,cpu-sa")
    parser.add_argument("--time_limit", type=float, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    sets = []
    for path in args.sudoku:
        with open(path) as f:
            sets.append((path, "sudoku", [l.strip() for l in f if l.strip()]))
    for spec in args.puzzles:
        kind, path = spec.split(":", 1)
        with open(path) as f:
            sets.append((f"{kind} {path}", kind,
                         [l.strip() for l in f if l.strip() and not l.startswith("#")]))
    rng = random.Random(args.seed)
    for spec in args.queens:
        n, count = (int(x) for x in spec.split(":"))
        sets.append((f"queens {n}x{n}", "queens",
                     [queens_board(n, rng) for _ in range(count)]))

    print(f"{'set':40} {'backend':8} {'solved':>9} {'median_s':>9} "
          f"{'p90_s':>8} {'max_s':>8}")
    for name, kind, puzzles in sets:
        for backend in args.backends.split(","):
            times, solved = [], 0
            for puzzle in puzzles:
                valid, seconds = solve(args, kind, puzzle, backend)
                solved += valid
                times.append(seconds if valid else args.time_limit)
            times.sort()
            p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
            print(f"{name:40} {backend:8} {solved:>4}/{len(puzzles):<4} "
                  f"{statistics.median(times):9.3f} {p90:8.3f} {times[-1]:8.3f}",
                  flush=True)


if __name__ == "__main__":
    main()
