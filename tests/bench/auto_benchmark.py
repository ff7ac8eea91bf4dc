#!/usr/bin/env python3
"""Benchmark of the default backend `auto` against single backends tuned by hand: each puzzle of each set
is solved once per contender through `qsolve solve --json` against a running qs_server, and per set the
table gives the share of valid boards (INFEASIBLE for the infeasible set) and the median and maximum
server time (SolveSummary.timings.total_seconds: compile, race and decode). Contenders:

  auto      no solver flags at all (what a new user sends)
  auto-off  --auto_exact off: the QUBO samplers alone
  pt        --backend pt --stop_at_first_valid --reads 1000 --time_limit T (the hand-tuned sampler)
  sat       --backend sat (the puzzle's rules with CaDiCaL)

"best" is the lower median of pt and sat, and ratio = auto's median / best. Sets (seeded, made here):
Tatham's Solo grades (sgt-solo 3x3d{b,i,a,e,u}#seed), the first puzzles of
tests/data/sudoku/generated_hard40.txt, infeasible Sudokus (an Unreasonable grade puzzle plus one clue that
differs from its unique solution and clashes with no given), the stored LinkedIn Queens boards and 18x18
boards drawn by hard_puzzles.py, the stored Tango and Unruly puzzles (with and without the distinct-rows
rule, `u`) and Tents puzzles from sgt-tents.

Run it against a server without the compile cache, so that every contender compiles and derives each
puzzle as a new one would (with the cache, the first contender pays for the others):

  build/server/qs_server --address=127.0.0.1:50051 --compile_cache_entries=0 &
  tests/bench/auto_benchmark.py --addr 127.0.0.1:50051 --per_set 10 --repeats 3
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hard_puzzles import queens_board  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def qsolve(args, kind, puzzle, flags):
    cmd = [args.qsolve, "--addr", args.addr, "solve", "--kind", kind, "--json", "--input", puzzle] + flags
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {out.stderr.strip()}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def generated(program, params, count, seed):
    out = subprocess.run([f"/usr/games/{program}", "--generate", str(count), f"{params}#{seed}"],
                         capture_output=True, text=True, check=True)
    return out.stdout.split()


def stored(path, field, prefix=""):
    rows = []
    with open(os.path.join(ROOT, path)) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            parts = line.split()
            if parts[0].startswith(prefix):
                rows.append(parts)
    return [r[field] for r in rows]


def infeasible_sudokus(args, count):
    """Unreasonable Solo puzzles plus one wrong clue that no given contradicts."""
    out = []
    for k, puzzle in enumerate(generated("sgt-solo", "3x3du", count, args.seed + 7)):
        board = qsolve(args, "sudoku", puzzle, ["--backend", "sat"])["board"]
        solution = "".join(board).replace(" ", "").replace("|", "")
        solution = [c for c in solution if c.isdigit()]
        cells = sudoku_cells(puzzle)
        rng = random.Random(args.seed + k)
        for cell in rng.sample(range(81), 81):
            if cells[cell] != ".":
                continue
            r, c = divmod(cell, 9)
            seen = {cells[9 * r + j] for j in range(9)} | {cells[9 * i + c] for i in range(9)} | {
                cells[9 * (3 * (r // 3) + i) + 3 * (c // 3) + j] for i in range(3) for j in range(3)}
            wrong = [d for d in "123456789" if d != solution[cell] and d not in seen]
            if wrong:
                cells[cell] = rng.choice(wrong)
                out.append("".join(cells))
                break
    return out


def sudoku_cells(puzzle):
    """The 81 cells of a Solo game ID as digits and dots: letters a-z are runs of 1-26 empty cells, '_'
    separates adjacent digits."""
    text = puzzle.split(":", 1)[1]
    cells = []
    for ch in text:
        if ch.isdigit():
            cells.append(ch)
        elif ch.isalpha():
            cells.extend("." * (ord(ch) - ord("a") + 1))
    return cells[:81]


def sets(args):
    n = args.per_set
    rng = random.Random(args.seed)
    out = []
    for grade, code in (("basic", "b"), ("intermediate", "i"), ("advanced", "a"), ("extreme", "e"),
                        ("unreasonable", "u")):
        out.append((f"sudoku solo {grade}", "sudoku", generated("sgt-solo", f"3x3d{code}", n, args.seed)))
    with open(os.path.join(ROOT, "tests/data/sudoku/generated_hard40.txt")) as f:
        out.append(("sudoku generated_hard40", "sudoku", [l.strip() for l in f if l.strip()][:n]))
    out.append(("sudoku infeasible", "sudoku", infeasible_sudokus(args, n)))
    queens = stored("tests/data/queens/linkedin_queens.txt", 1)
    out.append(("queens linkedin 7-10", "queens", queens[-n:]))
    out.append(("queens 18x18", "queens", [queens_board(18, rng) for _ in range(n)]))
    out.append(("tango 6x6", "tango", stored("tests/data/takuzu/puzzles.txt", 2, "tango")[:n]))
    for name in ("unruly-10x10-dn", "unruly-10x10-udn", "unruly-14x14-udn"):
        out.append((name.replace("-", " ", 1), "takuzu", stored("tests/data/takuzu/puzzles.txt", 2, name)[:n]))
    out.append(("tents 10x10 tricky", "tents", generated("sgt-tents", "10x10dt", n, args.seed)))
    out.append(("tents 15x15 tricky", "tents", generated("sgt-tents", "15x15dt", n, args.seed)))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--addr", default="127.0.0.1:50051")
    parser.add_argument("--qsolve", default=os.path.join(ROOT, "build/clients/qsolve"))
    parser.add_argument("--per_set", type=int, default=5)
    parser.add_argument("--time_limit", type=float, default=20)
    parser.add_argument("--seed", type=int, default=1, help="seed of the sets; solve r uses seed + r")
    parser.add_argument("--repeats", type=int, default=3,
                        help="solves per puzzle and contender (seeds seed .. seed + repeats - 1): one "
                             "solve of a heavy-tailed sampler is no median")
    args = parser.parse_args()
    t = str(args.time_limit)
    contenders = {
        "auto": [],
        "auto-off": ["--auto_exact", "off", "--time_limit", t],
        "pt": ["--backend", "pt", "--stop_at_first_valid", "--reads", "1000", "--time_limit", t],
        "sat": ["--backend", "sat"],
    }
    print(f"{'set':26} {'n':>3} " + " ".join(f"{c + ' ok':>11} {c + ' med':>9} {c + ' max':>9}"
                                             for c in contenders) + f" {'ratio':>6}  won by (auto)")
    for name, kind, puzzles in sets(args):
        infeasible = "infeasible" in name
        cells, medians = [], {}
        won = {}
        for contender, flags in contenders.items():
            if infeasible and contender in ("auto-off", "pt"):
                cells.append(f"{'-':>11} {'-':>9} {'-':>9}")  # samplers cannot prove infeasibility
                continue
            ok, times = 0, []
            for puzzle in puzzles:
                for r in range(args.repeats):
                    seed = ["--seed", str(args.seed + r)]
                    s = qsolve(args, kind, puzzle, flags + seed)
                    good = s["termination"] == "INFEASIBLE" if infeasible else s["valid"]
                    ok += good
                    times.append(s["timings"]["total_seconds"] - s["timings"]["queue_seconds"])
                    if contender == "auto":
                        won[s.get("solved_by") or "-"] = won.get(s.get("solved_by") or "-", 0) + 1
            medians[contender] = statistics.median(times)
            cells.append(f"{ok:>5}/{len(times):<5} {medians[contender]:9.4f} {max(times):9.4f}")
        best = min(medians[c] for c in ("pt", "sat") if c in medians)
        ratio = medians["auto"] / best if best > 0 else float("nan")
        print(f"{name:26} {len(puzzles):>3} " + " ".join(cells) + f" {ratio:6.2f}  " +
              ", ".join(f"{k} {v}" for k, v in sorted(won.items())), flush=True)
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
