#!/usr/bin/env python3
"""Held-out table of a puzzle family over HTTP/JSON: each puzzle text is parsed
(POST /v1/parse), counted (POST /v1/count, limit 2: is the solution unique?) and
solved (POST /v1/solve?stream=false) twice, once with no solver flags and once
through the QUBO samplers alone ({"auto": {"exact": "EXACT_OFF"}} under a time
limit). Per size it prints the puzzles, the share whose count is 1, the share
each run solved (a valid board of a puzzle with one solution is that solution),
the median and largest server time to the first valid board (an unsolved puzzle
counts as the run's time), and the variables of the QUBO before and after the
reduction.

The puzzles are one text per line of --file (a Tatham game ID such as
`sgt-keen --generate` prints, or any text of the kind); blank lines and lines
starting with '#' are skipped. The size is the game ID's parameters up to ':'.

  /usr/games/sgt-keen --generate 4 5dh > /tmp/keen.txt
  tests/bench/family_heldout.py --http http://127.0.0.1:8080 --kind keen --file /tmp/keen.txt
"""
import argparse
import json
import statistics
import sys
import urllib.error
import urllib.request


def post(base, path, body, timeout):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:
        raise RuntimeError(f"{path}: HTTP {error.code}: {error.read().decode()[:300]}")


def solve(base, puzzle, params, timeout):
    """Returns (valid, seconds to the first valid board or None, header stats)."""
    answer = post(base, "/v1/solve?stream=false", {"puzzle": puzzle, "params": params}, timeout)
    summary = answer["summary"]
    auto = summary.get("backend", {}).get("auto", {})
    seconds = auto.get("firstValidSeconds")
    if seconds is None and summary.get("bestValid"):
        seconds = summary["timings"]["sampleSeconds"]
    return bool(summary.get("bestValid")), seconds, answer["header"]["stats"]


def size_of(text):
    head = text.split(":", 1)[0] if ":" in text else "?"
    return head


def table_row(size, rows, limit):
    n = len(rows)
    unique = sum(r["unique"] for r in rows)
    cells = [size, str(n), f"{unique}/{n}"]
    for run in ("default", "qubo"):
        solved = [r for r in rows if r[run][0]]
        times = [r[run][1] if r[run][0] else limit[run] for r in rows]
        cells.append(f"{100.0 * len(solved) / n:.0f} % ({len(solved)}/{n})")
        cells.append(f"{statistics.median(times):.2f} / {max(times):.2f}")
    before = statistics.median(r["stats"].get("variablesTotal", 0) for r in rows)
    after = [r["stats"].get("variables", 0) for r in rows]
    cells.append(f"{before:.0f} → {statistics.median(after):.0f} (max {max(after)})")
    return "| " + " | ".join(cells) + " |"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--http", default="http://127.0.0.1:8080", help="the server's HTTP address")
    parser.add_argument("--kind", required=True, help="the text kind (keen, unequal, ...)")
    parser.add_argument("--file", required=True, help="puzzle texts, one per line")
    parser.add_argument("--time_limit", type=float, default=20,
                        help="seconds of the QUBO-samplers-only run (the default run keeps auto's own)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    with open(args.file) as f:
        texts = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    if not texts:
        sys.exit(f"{args.file}: no puzzle")
    limit = {"default": 10.0, "qubo": args.time_limit}
    by_size = {}
    for i, text in enumerate(texts):
        parsed = post(args.http, "/v1/parse", {"kind": args.kind, "text": text}, 60)
        puzzle = parsed["puzzle"]
        count = post(args.http, "/v1/count", {"puzzle": puzzle, "limit": 2}, 120)
        row = {"unique": int(count.get("count", "0")) == 1 and bool(count.get("complete"))}
        row["default"] = solve(args.http, puzzle, {"seed": str(args.seed + i)}, 120)[:2]
        qubo_params = {"seed": str(args.seed + i), "timeLimitSeconds": args.time_limit,
                       "auto": {"exact": "EXACT_OFF"}}
        valid, seconds, stats = solve(args.http, puzzle, qubo_params, args.time_limit + 60)
        row["qubo"] = (valid, seconds)
        row["stats"] = stats
        by_size.setdefault(size_of(text), []).append(row)
        print(f"{i + 1}/{len(texts)} {size_of(text)}: unique={row['unique']} "
              f"default={row['default']} qubo={row['qubo']}", file=sys.stderr, flush=True)

    print(f"{args.kind}: {len(texts)} puzzles from {args.file}; QUBO samplers alone under "
          f"{args.time_limit:g} s")
    print("| size | puzzles | one solution | no flags: solved | time to valid, median / max (s) "
          "| QUBO alone: solved | time to valid, median / max (s) | variables: total → after reduction |")
    print("|---|---|---|---|---|---|---|---|")
    everything = []
    for size, rows in by_size.items():
        print(table_row(size, rows, limit))
        everything += rows
    if len(by_size) > 1:
        print(table_row("all", everything, limit))


if __name__ == "__main__":
    main()
