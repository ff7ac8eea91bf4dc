#!/usr/bin/env python3
"""Solves one puzzle with the qsolver package and prints the best board, e.g.

    V/bin/python clients/python/examples/solve.py --target 127.0.0.1:50051 --kind sudoku \\
        --input '.......2.....9..4....3.2..76.51....8...7.51...3.2....5.9..7...3.8.....9...4..65..' --reads 3000

(V: the virtual environment of docs/python.md's install command). A progress bar goes to stderr when tqdm is
installed; Ctrl-C cancels the solve on the server. Exits 1 with "CODE: message" when the call fails."""
import argparse
import sys

import qsolver


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="127.0.0.1:50051")
    parser.add_argument("--kind", help="a kind the server lists (Client.families()); default: the first")
    parser.add_argument("--input", required=True, help="the puzzle text, as qsolve --input")
    parser.add_argument("--reads", type=int)
    parser.add_argument("--sweeps", type=int)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--deadline", type=float, default=60.0)
    args = parser.parse_args()
    try:
        with qsolver.Client(args.target, timeout=args.deadline) as client:
            kind = args.kind or next(iter(client.families()))
            result = client.solve(kind, args.input, num_reads=args.reads, num_sweeps=args.sweeps,
                                  seed=args.seed, stop_at_first_valid=True, progress=sys.stderr.isatty())
    except qsolver.Error as error:
        print(error, file=sys.stderr)
        return 1
    for row in result.board:
        print("  " + row)
    print(f"energy {result.energy:g}: {'VALID' if result.valid else 'NOT VALID'}; "
          f"{result.num_valid}/{result.reads} reads valid; {result.timings['total_seconds'] * 1e3:.1f} ms")
    for violation in result.violations:
        print("  violation: " + violation)
    return 0


if __name__ == "__main__":
    sys.exit(main())
