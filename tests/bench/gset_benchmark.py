#!/usr/bin/python3
"""The whole G-set: best cuts and time to the best-known cut of each graph, through `qsolve solve --json`
against a qs_server, optionally beside MQLib's BURER2002 heuristic with the same budget.

Per graph, one call of `qsolve solve --kind maxcut` with no solver flags but `--target_objective BKV` (the
2013 best-known cut) and `--time_limit` (default: the largest budget, 60 s). The call streams each
improving sample as it is found; the script timestamps them from the call's header, so one call gives the
best cut within every budget (`--budgets 10,60`) and, when the target is reached, the server's time to it
(SolveSummary.timings: total minus queue). The table gives graph, nodes, edges, topology (random, planar or
toroidal) and weights (1 or +-1), BKV, the best cut at each budget, the time to BKV ("—" when the call
ended without it) and the gap of the best cut at the largest budget, in % of BKV.

The G-set files are not part of this repository: `--gset_dir DIR` reads them from DIR, named G1, G1.txt,
g1.rud, G01.mc, ... (a G, an optional "set", the number; any extension; .gz and .bz2 are unpacked). Without
`--gset_dir` the script runs graphs of the same shapes made here (`--shapes`, default one per class of the
G-set, seeded; build/tests/tools/generate_instances for the random graphs and the toroidal grids, the
planar unions of raw_benchmark.py), which have no known best cut: it then reports the best cuts only, and
the plot shows the time of each run's last improvement.

`--mqlib PATH` also runs `PATH -fM FILE -h BURER2002 -r SECONDS -s SEED` on the same file (MQLib, [Dunning
2018]; built outside this repository, docs/benchmarks.md): MQLib prints the time of every new best cut, from
which the same columns follow. BURER2002 runs on one thread; the server on its compute threads.

Without `--addr` the script starts this build tree's qs_server on free loopback ports and stops it at the
end. From the repository root:

  tests/bench/gset_benchmark.py --gset_dir ~/gset --graphs G22,G48,G81 --budgets 10,60 \\
      --mqlib ~/mqlib/bin/MQLib --json gset.json --plot gset.png
  tests/bench/gset_benchmark.py --budgets 1,5          # generated graphs of the G-set's shapes
"""
import argparse
import bz2
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_server import Server  # noqa: E402
import raw_benchmark  # noqa: E402  (the planar-union generator)

ROOT = raw_benchmark.ROOT

# The 71 G-set graphs: nodes, edges, topology, weights, and the best-known cut in 2013 (Table 2 of U. Benlic
# and J.-K. Hao, "Breakout Local Search for the Max-Cut problem", Engineering Applications of Artificial
# Intelligence 26(3), 1162-1173, 2013). Topologies and weights as rudy made them [Helmberg and Rendl 1997].
R, P, T = "random", "planar", "toroidal"
GSET = {
    "G1": (800, 19176, R, "1", 11624), "G2": (800, 19176, R, "1", 11620), "G3": (800, 19176, R, "1", 11622),
    "G4": (800, 19176, R, "1", 11646), "G5": (800, 19176, R, "1", 11631),
    "G6": (800, 19176, R, "±1", 2178), "G7": (800, 19176, R, "±1", 2006), "G8": (800, 19176, R, "±1", 2005),
    "G9": (800, 19176, R, "±1", 2054), "G10": (800, 19176, R, "±1", 2000),
    "G11": (800, 1600, T, "±1", 564), "G12": (800, 1600, T, "±1", 556), "G13": (800, 1600, T, "±1", 582),
    "G14": (800, 4694, P, "1", 3064), "G15": (800, 4661, P, "1", 3050), "G16": (800, 4672, P, "1", 3052),
    "G17": (800, 4667, P, "1", 3047),
    "G18": (800, 4694, P, "±1", 992), "G19": (800, 4661, P, "±1", 906), "G20": (800, 4672, P, "±1", 941),
    "G21": (800, 4667, P, "±1", 931),
    "G22": (2000, 19990, R, "1", 13359), "G23": (2000, 19990, R, "1", 13344),
    "G24": (2000, 19990, R, "1", 13337), "G25": (2000, 19990, R, "1", 13340),
    "G26": (2000, 19990, R, "1", 13328),
    "G27": (2000, 19990, R, "±1", 3341), "G28": (2000, 19990, R, "±1", 3298),
    "G29": (2000, 19990, R, "±1", 3405), "G30": (2000, 19990, R, "±1", 3412),
    "G31": (2000, 19990, R, "±1", 3309),
    "G32": (2000, 4000, T, "±1", 1410), "G33": (2000, 4000, T, "±1", 1382), "G34": (2000, 4000, T, "±1", 1384),
    "G35": (2000, 11778, P, "1", 7684), "G36": (2000, 11766, P, "1", 7678), "G37": (2000, 11785, P, "1", 7689),
    "G38": (2000, 11779, P, "1", 7687),
    "G39": (2000, 11778, P, "±1", 2408), "G40": (2000, 11766, P, "±1", 2400),
    "G41": (2000, 11785, P, "±1", 2405), "G42": (2000, 11779, P, "±1", 2481),
    "G43": (1000, 9990, R, "1", 6660), "G44": (1000, 9990, R, "1", 6650), "G45": (1000, 9990, R, "1", 6654),
    "G46": (1000, 9990, R, "1", 6649), "G47": (1000, 9990, R, "1", 6657),
    "G48": (3000, 6000, T, "1", 6000), "G49": (3000, 6000, T, "1", 6000), "G50": (3000, 6000, T, "1", 5880),
    "G51": (1000, 5909, P, "1", 3848), "G52": (1000, 5916, P, "1", 3851), "G53": (1000, 5914, P, "1", 3850),
    "G54": (1000, 5916, P, "1", 3852),
    "G55": (5000, 12498, R, "1", 10294), "G56": (5000, 12498, R, "±1", 4012),
    "G57": (5000, 10000, T, "±1", 3492),
    "G58": (5000, 29570, P, "1", 19263), "G59": (5000, 29570, P, "±1", 6078),
    "G60": (7000, 17148, R, "1", 14176), "G61": (7000, 17148, R, "±1", 5789),
    "G62": (7000, 14000, T, "±1", 4868),
    "G63": (7000, 41459, P, "1", 26997), "G64": (7000, 41459, P, "±1", 8735),
    "G65": (8000, 16000, T, "±1", 5558), "G66": (9000, 18000, T, "±1", 6360),
    "G67": (10000, 20000, T, "±1", 6940), "G70": (10000, 9999, R, "1", 9541),
    "G72": (10000, 20000, T, "±1", 6998), "G77": (14000, 28000, T, "±1", 9926),
    "G81": (20000, 40000, T, "±1", 14030),
}

# Generated graphs of the G-set's shapes, one or two per class: name: shape (see make_shape).
SHAPES = {
    "G1-like": "gset:800:0.06:1", "G6-like": "gsetpm:800:0.06:6",
    "G11-like": "toruspm:50:16:11", "G14-like": "planar:800:14", "G18-like": "planarpm:800:18",
    "G22-like": "gset:2000:0.01:22", "G48-like": "torus:60:50:48", "G62-like": "toruspm:70:100:62",
    "G81-like": "toruspm:100:200:81",
}
SHAPE_CLASS = {"gset": (R, "1"), "gsetpm": (R, "±1"), "planar": (P, "1"), "planarpm": (P, "±1"),
               "torus": (T, "1"), "toruspm": (T, "±1")}

GSET_NAME = re.compile(r"^g(?:set)?[_-]?0*(\d+)$", re.IGNORECASE)


def gset_files(directory):
    """G-set name -> path of the files in directory whose name (up to its first dot) is a G-set name."""
    found = {}
    for entry in sorted(os.listdir(directory)):
        m = GSET_NAME.match(entry.split(".")[0])
        if m and os.path.isfile(os.path.join(directory, entry)):
            found.setdefault(f"G{int(m.group(1))}", os.path.join(directory, entry))
    return found


def read_text(path):
    opener = gzip.open if path.endswith(".gz") else bz2.open if path.endswith(".bz2") else open
    with opener(path, "rt") as f:
        return f.read()


def header_counts(text):
    """Nodes and edges announced by a rudy file's first line that is not a comment."""
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            n, m = line.split()[:2]
            return int(n), int(m)
    raise ValueError("no 'N E' line")


def make_shape(args, spec):
    """Text of a generated graph: gset|gsetpm:N:DENSITY:SEED, torus|toruspm:ROWS:COLS:SEED,
    planar|planarpm:N:SEED."""
    kind, *params = spec.split(":")
    if kind in ("gset", "gsetpm"):
        flags = ["--n", params[0], "--density", params[1], "--seed", params[2]]
    elif kind in ("torus", "toruspm"):
        flags = ["--rows", params[0], "--cols", params[1], "--seed", params[2]]
    elif kind in ("planar", "planarpm"):
        return raw_benchmark.model_text(args, "planar", (int(params[0]), -1 if kind == "planarpm" else 1,
                                                         int(params[1])))
    else:
        raise SystemExit(f"--shapes: unknown kind '{kind}' in '{spec}'")
    out = subprocess.run([args.generate_instances, "--kind", kind, *flags], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"generate_instances {spec}: {out.stderr.strip()}")
    return out.stdout


def best_within(timeline, budget):
    """The best cut of (seconds, cut) improvements reached within budget seconds; None if none."""
    cuts = [cut for t, cut in timeline if t <= budget]
    return max(cuts) if cuts else None


def first_reaching(timeline, target):
    return next((t for t, cut in timeline if cut >= target), None)


def parse_mqlib(stdout):
    """MQLib's first output line: limit,heuristic,"file",best,seconds,[value:time;...] (the first entry is
    the time the heuristic started). Returns (best, [(seconds, cut), ...])."""
    line = next((l for l in stdout.splitlines() if l.strip()), "")
    m = re.match(r'^[^,]*,[^,]*,".*",([-+0-9.eE]+),([-+0-9.eE]+),\[(.*)\]\s*$', line)
    if not m:
        raise ValueError(f"unexpected MQLib output: {line[:200]}")
    history = []
    for item in m.group(3).split(";")[1:]:
        value, t = item.split(":")
        history.append((float(t), float(value)))
    return float(m.group(1)), history


def run_ours(args, path, target, seed):
    """One qsolve call; returns (timeline of (seconds since the header, cut), seconds to the target or None,
    summary)."""
    cmd = ["stdbuf", "-oL", args.qsolve, "--addr", args.addr, "solve", "--kind", "maxcut", "--input_file",
           path, "--json", "--seed", str(seed), "--time_limit", f"{args.time_limit:g}"]
    if target is not None:
        cmd += ["--target_objective", f"{target:g}"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    start, timeline, summary = None, [], None
    for line in proc.stdout:
        now = time.monotonic()
        event = json.loads(line)
        if "header" in event:
            start = now
        elif "sample" in event and start is not None:
            cut = -event["sample"]["energy"]
            if not timeline or cut > timeline[-1][1]:
                timeline.append((now - start, cut))
        elif "summary" in event:
            summary = event["summary"]
    err = proc.stderr.read()
    if proc.wait() != 0 or summary is None:
        sys.exit(f"{' '.join(cmd)}: {err.strip()}")
    reached = None
    if target is not None and summary.get("termination") == "TARGET_REACHED":
        t = summary["timings"]
        reached = t["total_seconds"] - t.get("queue_seconds", 0)
    best = -summary["best_energy"]
    if not timeline or best > timeline[-1][1]:  # a best sample the stream did not carry
        timeline.append((summary["timings"]["total_seconds"], best))
    return timeline, reached, summary


def run_mqlib(args, path, target, seed):
    cmd = [args.mqlib, "-fM", path, "-h", "BURER2002", "-r", f"{args.time_limit:g}", "-s", str(seed)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {out.stderr.strip()}")
    best, timeline = parse_mqlib(out.stdout)
    if not timeline or best > timeline[-1][1]:
        timeline.append((args.time_limit, best))
    return timeline, first_reaching(timeline, target) if target is not None else None


def fmt_seconds(x):
    if x is None:
        return "—"
    return f"{x * 1000:.3g} ms" if x < 1 else f"{x:.3g} s"


def fmt_cut(x):
    return "—" if x is None else f"{x:g}"


def as_number(x):
    """A cut as an int when it is whole (MQLib prints floats), for the JSON rows."""
    return int(x) if x is not None and float(x).is_integer() else x


def plot(rows, out_path, with_target):
    try:
        import matplotlib
    except ImportError:
        sys.exit("--plot needs matplotlib: Debian's python3-matplotlib, with /usr/bin/python3")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9.5, 4.5))
    markers = {R: "o", P: "s", T: "^"}
    solvers = sorted({r["solver"] for r in rows}, key=lambda s: s != "qsolve auto")
    colours = dict(zip(solvers, ("tab:blue", "tab:orange", "tab:green")))
    missed = []
    for solver in solvers:
        for topology in (R, P, T):
            for weights in ("1", "±1"):
                mine = [r for r in rows if r["solver"] == solver and r["topology"] == topology
                        and r["weights"] == weights]
                key = "time_to_bkv_s" if with_target else "time_to_best_s"
                pts = [(r["nodes"], r[key]) for r in mine if r[key] is not None]
                missed += [(r["nodes"], r["time_limit_s"], solver) for r in mine if r[key] is None]
                if not pts:
                    continue
                ax.scatter([n for n, _ in pts], [max(t, 1e-3) for _, t in pts], marker=markers[topology],
                           facecolors=colours[solver] if weights == "1" else "none",
                           edgecolors=colours[solver], label=f"{solver}: {topology}, weights {weights}")
    for k, solver in enumerate(solvers):
        # Drawn at the time limit, each solver a little higher so that the crosses do not hide each other.
        pts = [(n, t * 1.15**k) for n, t, s in missed if s == solver]
        if pts:
            ax.scatter([n for n, _ in pts], [t for _, t in pts], marker="x", color=colours[solver],
                       label=f"{solver}: not reached within the limit")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("nodes")
    ax.set_ylabel("seconds to the best-known cut" if with_target else "seconds to the run's best cut")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    fig.savefig(out_path, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--addr", default="", help="a running qs_server; default: start this tree's")
    parser.add_argument("--qsolve", default=os.path.join(ROOT, "build/clients/qsolve"))
    parser.add_argument("--qs_server", default=os.path.join(ROOT, "build/server/qs_server"))
    parser.add_argument("--generate_instances", default=os.path.join(ROOT, "build/tests/tools/generate_instances"))
    parser.add_argument("--gset_dir", default="", help="directory holding the G-set files")
    parser.add_argument("--graphs", default="", help="comma-separated G-set names (default: every graph found)")
    parser.add_argument("--shapes", default="",
                        help="without --gset_dir: comma-separated NAME=SPEC or SPEC (gset|gsetpm:N:DENSITY:SEED, "
                             "torus|toruspm:ROWS:COLS:SEED, planar|planarpm:N:SEED); default: the G-set's shapes")
    parser.add_argument("--budgets", default="10,60", help="seconds at which the best cut is reported")
    parser.add_argument("--time_limit", type=float, default=0, help="seconds per call; default: the largest budget")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mqlib", default="", help="MQLib executable: also run BURER2002 with the same budget")
    parser.add_argument("--json", default="", help="write the rows as a JSON list to this file")
    parser.add_argument("--plot", default="", help="PNG of time to target against nodes per topology")
    args = parser.parse_args()
    budgets = sorted(float(b) for b in args.budgets.split(","))
    args.time_limit = args.time_limit or budgets[-1]

    # (name, path or generated text, nodes, edges, topology, weights, bkv)
    graphs = []
    if args.gset_dir:
        files = gset_files(args.gset_dir)
        names = args.graphs.split(",") if args.graphs else sorted(files, key=lambda g: int(g[1:]))
        for name in names:
            name = name.strip().upper()
            if name not in GSET:
                sys.exit(f"--graphs: {name} is not a G-set graph")
            if name not in files:
                print(f"{name}: no file in {args.gset_dir}, skipped", file=sys.stderr)
                continue
            nodes, edges, topology, weights, bkv = GSET[name]
            text = read_text(files[name])
            if header_counts(text) != (nodes, edges):
                sys.exit(f"{files[name]}: announces {header_counts(text)} nodes and edges, {name} has "
                         f"{(nodes, edges)}")
            graphs.append((name, text, nodes, edges, topology, weights, bkv))
    else:
        specs = args.shapes.split(",") if args.shapes else [f"{k}={v}" for k, v in SHAPES.items()]
        wanted = {g.strip().upper() + "-LIKE" for g in args.graphs.split(",")} if args.graphs else None
        for item in specs:
            name, _, spec = item.rpartition("=")
            name = name or spec
            if wanted and name.upper() not in wanted:
                continue
            text = make_shape(args, spec)
            nodes, edges = header_counts(text)
            topology, weights = SHAPE_CLASS[spec.split(":")[0]]
            graphs.append((name, text, nodes, edges, topology, weights, None))
    if not graphs:
        sys.exit("no graph to run")

    server = None
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        if not args.addr:
            server = Server(args.qs_server, os.path.join(tmp, "qs_server.log"))
            args.addr = server.addr
        try:
            labels = " | ".join(f"best @{b:g} s" for b in budgets)
            print(f"| graph | nodes | edges | topology | weights | BKV | solver | {labels} | time to BKV | gap % |")
            print("| --- | ---: | ---: | --- | --- | ---: | --- | " + "---: | " * len(budgets) + "---: | ---: |")
            for name, text, nodes, edges, topology, weights, bkv in graphs:
                path = os.path.join(tmp, name + ".txt")
                with open(path, "w") as f:
                    f.write(text)
                runs = []
                timeline, reached, summary = run_ours(args, path, bkv, args.seed)
                runs.append(("qsolve auto", timeline, reached))
                if args.mqlib:
                    timeline, reached = run_mqlib(args, path, bkv, args.seed)
                    runs.append(("BURER2002", timeline, reached))
                for solver, timeline, reached in runs:
                    best = {b: best_within(timeline, b) for b in budgets}
                    final = best[budgets[-1]]
                    gap = None if bkv is None or final is None else 100.0 * (bkv - final) / bkv
                    row = {"graph": name, "nodes": nodes, "edges": edges, "topology": topology,
                           "weights": weights, "bkv": bkv, "solver": solver,
                           "best": {f"{b:g}": as_number(best[b]) for b in budgets}, "time_to_bkv_s": reached,
                           "time_to_best_s": timeline[-1][0] if timeline else None, "gap_percent": gap,
                           "seed": args.seed, "time_limit_s": args.time_limit}
                    rows.append(row)
                    cuts = " | ".join(fmt_cut(best[b]) for b in budgets)
                    print(f"| {name} | {nodes} | {edges} | {topology} | {weights} | {fmt_cut(bkv)} | {solver} "
                          f"| {cuts} | {fmt_seconds(reached) if bkv is not None else '—'} "
                          f"| {'—' if gap is None else f'{gap:.2f}'} |", flush=True)
        finally:
            if server:
                server.stop()
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1, ensure_ascii=False)
    if args.plot:
        plot(rows, args.plot, with_target=any(r["bkv"] is not None for r in rows))


if __name__ == "__main__":
    main()
