#!/usr/bin/python3
"""A small Python client of the qs.v1.Solver service (Debian's python3-grpcio).

Generate the stubs once with clients/python/gen_stubs.sh, then:

    /usr/bin/python3 clients/python/qs_client.py --addr 127.0.0.1:50051 \
        --sudoku '.......2.....9..4....3.2..76.51....8...7.51...3.2....5.9..7...3.8.....9...4..65..'

It streams a Solve, prints progress as samples arrive and the best board at the end, and exits non-zero
with the gRPC status name when the call fails.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen"))

import grpc  # noqa: E402
from qs.v1 import puzzles_pb2, solve_pb2, solver_service_pb2_grpc  # noqa: E402


def sudoku_spec(text):
    cells = [0 if ch in ".0" else int(ch) for ch in text if not ch.isspace()]
    if len(cells) != 81:
        raise SystemExit(f"INVALID_ARGUMENT: expected 81 cells, got {len(cells)}")
    spec = puzzles_pb2.PuzzleSpec()
    spec.sudoku.box_size = 3
    spec.sudoku.cells.extend(cells)
    return spec


def solve(addr, spec, reads, seed, deadline):
    request = solve_pb2.SolveRequest(puzzle=spec)
    request.params.num_reads = reads
    if seed is not None:
        request.params.seed = seed
    with grpc.insecure_channel(addr) as channel:
        stub = solver_service_pb2_grpc.SolverStub(channel)
        summary = None
        valid = 0
        for event in stub.Solve(request, timeout=deadline):
            kind = event.WhichOneof("event")
            if kind == "header":
                stats = event.header.stats
                print(f"{stats.puzzle_kind}: {stats.variables_total} -> {stats.variables} variables, "
                      f"seed {event.header.seed}")
            elif kind == "sample":
                valid += event.sample.valid
            elif kind == "summary":
                summary = event.summary
        return summary, valid


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--addr", default="127.0.0.1:50051")
    parser.add_argument("--sudoku", required=True, help="81 characters, '.' or '0' for blanks")
    parser.add_argument("--reads", type=int, default=100)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--deadline", type=float, default=60.0)
    args = parser.parse_args()
    try:
        summary, valid = solve(args.addr, sudoku_spec(args.sudoku), args.reads, args.seed, args.deadline)
    except grpc.RpcError as error:
        print(f"{error.code().name}: {error.details()}", file=sys.stderr)
        return 1
    for row in summary.best_solution.rows:
        print("  " + row)
    state = "VALID" if summary.best_valid else "NOT VALID"
    print(f"energy {summary.best_energy:g}: {state}; {valid}/{summary.reads_done} reads valid; "
          f"{summary.timings.total_seconds * 1e3:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
