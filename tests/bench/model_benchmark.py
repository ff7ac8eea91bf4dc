#!/usr/bin/python3
"""Constrained models (the model kind) three ways: the service, CBC on the linearized MILP, and the plain
penalty QUBO a user would write by hand today. Every answer is re-scored on the original model.

Per model file of --dir (.lp, .opb, .qplib; targets from DIR/targets.json, see model_instances.py) and
per method of --methods (default service,cbc,qubo), with --time_limit T seconds (default 20):

* service: `qsolve solve --kind model --input-file F --time_limit T [--target_objective V] --json
  --seed S` (no solver flags: auto; --solve_flags adds some). The last JSON line gives feasible,
  objective, assignment (name -> value), violations, termination and timings.
* cbc: `qsolve compile --kind model --input-file F --export_milp milp.lp` writes the service's
  linearization (each product of binaries a new binary y with the standard inequalities), then
  `cbc milp.lp timeMode elapsed sec T solve solution sol.txt` (one thread, CBC's defaults). The values of
  the model's own variables are read from sol.txt (the y_ variables are ignored).
* qubo: the penalty QUBO built here from the model (model_files.penalty_qubo): minimise f (the objective,
  negated for a maximised model) + P sum_c (a_c.x + s_c - b_c)^2 with P = --qubo_penalty (default 2) x the
  largest |coefficient| of f, s_c = 0 for an equality and, for an inequality, binary slack bits of weights
  1, 2, 4, ... whose last weight makes them span exactly the slack's range (entering with - for >=); every
  constraint gets the same P. It is written in the service's QUBO text format (`n m offset`, then `i j w`,
  i <= j) and solved with `qsolve solve --kind qubo --input-file q.txt --time_limit T --json --seed S`
  [--target_objective with the target in the QUBO's (minimised) units]; the first bits are the model's
  variables, in the order of the file.

Re-scoring: the assignment of every answer is scored by this script's own reader of the LP and OPB
subsets (model_files.py), and (--validate server or both, the default) by `qsolve validate --kind model
--input-file F --board "x1=1 x2=0 ..."`, the server's check; a disagreement between the two, or with what
the method claimed, is printed and marked in the table. QPLIB files are scored by the server only and
have no qubo row.

Targets: a solve is stopped at its target (--target_objective) only when the target is an optimum
(held-karp, tsplib-optimal, cbc-*-optimal; --target_stop exact, the default); a heuristic reference
(cbc-*-feasible, best-of-runs) is only compared with (--target_stop any stops there too, none never).

Columns: feasible (re-scored), objective (re-scored, the file's own sense), gap in % of |target| (0 at the
target, negative beyond a target that is not an optimum; over feasible answers), time: to the target when
the answer reaches it (the server's total minus queue time when the solve stopped there, else the time of
the stream's first feasible sample at the target, timed by the client from the call's start; cbc: the time CBC logged
with its first incumbent at the target), else to the run's best (the stream's first feasible sample at the
final objective, CBC's last incumbent) or the whole call. The summary per method: instances, feasible, at the target (over those with
a target), the median gap over the feasible answers with a target, the median time to the target over the
runs that reached it, and the median wall time of the calls.

Without --addr the script starts --qs_server on free loopback ports (`--address=127.0.0.1:0`) and stops
it at the end. CBC comes from Debian: `apt-get install -y coinor-cbc`. From the repository root:

  tests/bench/model_instances.py --out /tmp/model-bench
  tests/bench/model_benchmark.py --dir /tmp/model-bench --time_limit 20 --json model.json --plot model.png
  tests/bench/model_benchmark.py --dir /tmp/model-bench --files 'tsp*' --methods service,qubo --update_targets
"""
import argparse
import csv
import fnmatch
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_server import Server  # noqa: E402
import model_files as mf  # noqa: E402
import model_instances as mi  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
METHODS = ("service", "cbc", "qubo")
EXTENSIONS = (".lp", ".opb", ".qplib")
# The longest --board the server validation gets (Linux caps one argument at 128 KiB).
MAX_BOARD_CHARS = 120_000


def progress(*parts):
    print(*parts, file=sys.stderr, flush=True)


def is_exact(source):
    return source is not None and (source in mi.EXACT_SOURCES or source.endswith("-optimal"))


def stops_at(rule, source):
    """Whether a solve gets --target_objective: rule exact (the target is an optimum), any or none."""
    return source is not None and (rule == "any" or (rule == "exact" and is_exact(source)))


def last_json(stdout):
    """The last line of qsolve's --json output that is a JSON object."""
    for line in reversed(stdout.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    raise ValueError("no JSON line in qsolve's output")


def server_seconds(result):
    t = result.get("timings") or {}
    total = t.get("total_seconds", t.get("totalSeconds"))
    queue = t.get("queue_seconds", t.get("queueSeconds", 0)) or 0
    return None if total is None else total - queue


def board_text(assignment):
    return " ".join(f"{k}={int(round(float(v)))}" for k, v in assignment.items())


def run(cmd, timeout, **kw):
    """subprocess.run with a timeout; returns (CompletedProcess or None on timeout, wall seconds)."""
    start = time.monotonic()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        return None, time.monotonic() - start
    return out, time.monotonic() - start


class Instance:
    def __init__(self, path, targets):
        self.path = path
        self.name = os.path.basename(path)
        self.model = None
        self.error = None
        try:
            self.model = mf.read_model(path)
        except (ValueError, KeyError, IndexError, StopIteration) as e:
            self.error = f"model_files cannot read it: {e}"
        with open(path) as f:
            text = f.read()
        self.sense = self.model.sense if self.model else (mf.qplib_sense(text) if path.endswith(".qplib")
                                                          else mf.MIN)
        t = targets.get(self.name)
        self.target = t["value"] if t else None
        self.target_source = t["source"] if t else None
        self.variables = len(self.model.variables) if self.model else None


class Scorer:
    """Re-scores assignments: this script's reader and/or the server's Validate."""

    def __init__(self, args):
        self.args = args

    def server(self, inst, assignment):
        if inst.model is not None:
            # every variable of the model once, in its order (the MILP's y_ and others dropped)
            assignment = {v: assignment.get(v, 0) for v in inst.model.variables}
        board = board_text(assignment)
        if len(board) > MAX_BOARD_CHARS:
            return None, None, "board too long for the command line"
        cmd = [self.args.qsolve, "--addr", self.args.addr, "validate", "--kind", "model", "--input-file",
               inst.path, "--board", board, "--json"]
        out, _ = run(cmd, timeout=self.args.call_margin)
        if out is None:
            return None, None, "qsolve validate timed out"
        if out.returncode != 0:
            return None, None, f"qsolve validate: {out.stderr.strip()[:200]}"
        response = last_json(out.stdout)
        report = response.get("report", {})
        broken = [v.get("location", "") for v in report.get("violations", [])]
        return report.get("objective"), broken, None

    def score(self, inst, assignment, claimed_feasible=None, claimed_objective=None):
        """(feasible, objective, notes) from the checks asked for; notes list disagreements."""
        notes = []
        results = []
        if inst.model is not None and self.args.validate in ("python", "both"):
            objective, broken, problems = mf.score(inst.model, assignment)
            if problems:
                notes.append("assignment: " + "; ".join(problems[:3]))
            results.append(("python", not broken and not problems, objective, broken))
        if self.args.validate in ("server", "both") or inst.model is None:
            objective, broken, error = self.server(inst, assignment)
            if error:
                notes.append(error)
            else:
                results.append(("server", not broken, objective, broken))
        if not results:
            return claimed_feasible, claimed_objective, notes + ["not re-scored"]
        who, feasible, objective, broken = results[0]
        for other, f2, o2, b2 in results[1:]:
            if f2 != feasible or (o2 is not None and objective is not None and
                                  abs(o2 - objective) > 1e-6 * max(1, abs(objective))):
                notes.append(f"MISMATCH {who} ({feasible}, {objective}) vs {other} ({f2}, {o2}, {b2[:3]})")
        if claimed_feasible is not None and claimed_feasible != feasible:
            notes.append(f"MISMATCH claimed feasible={claimed_feasible}, re-scored {feasible}")
        if claimed_objective is not None and objective is not None and feasible and \
                abs(claimed_objective - objective) > 1e-6 * max(1, abs(objective)):
            notes.append(f"MISMATCH claimed objective {claimed_objective:g}, re-scored {objective:g}")
        if not feasible and broken:
            notes.append(f"{len(broken)} broken: {', '.join(broken[:3])}{' ...' if len(broken) > 3 else ''}")
        return feasible, objective, notes


def stream_qsolve(cmd, timeout):
    """Runs qsolve solve --json, timestamping each line as it arrives (a reader thread): (last object,
    [(seconds since the call's start, sample event)], returncode, stderr, wall seconds); the object and
    the returncode are None when the call was killed at the timeout."""
    import threading

    start = time.monotonic()
    proc = subprocess.Popen(["stdbuf", "-oL", *cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines, err = [], []

    def read_stdout():
        for line in proc.stdout:
            lines.append((time.monotonic(), line))

    def read_stderr():
        err.append(proc.stderr.read())

    threads = [threading.Thread(target=read_stdout, daemon=True), threading.Thread(target=read_stderr, daemon=True)]
    for t in threads:
        t.start()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        for t in threads:
            t.join(timeout=5)
        return None, [], None, "timed out", time.monotonic() - start
    for t in threads:
        t.join(timeout=30)
    wall = time.monotonic() - start
    # Samples are timed from the call's start (the header may arrive with the first sample, so it is no
    # zero): an upper bound on the server's time to them, the client's start, parse and compile included.
    events, result = [], None
    for at, line in lines:
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            event = json.loads(line)
        except ValueError:
            continue
        result = event
        if "sample" in event:
            events.append((at - start, event["sample"]))
    return result, events, proc.returncode, "".join(err), wall


def time_to_best(events, objective, sense):
    """The stream time of the first feasible sample at objective or beyond it (None if the stream does
    not say)."""
    for t, sample in events:
        obj = sample.get("objective", (sample.get("solution") or {}).get("objective"))
        ok = sample.get("valid", sample.get("feasible"))
        if obj is not None and ok and mf.reaches(sense, obj, objective):
            return t
    return None


def run_service(args, inst, scorer, tmp):
    cmd = [args.qsolve, "--addr", args.addr, "solve", "--kind", "model", "--input-file", inst.path,
           "--time_limit", f"{args.time_limit:g}", "--json", "--seed", str(args.seed), *args.solve_flags.split()]
    if stops_at(args.target_stop, inst.target_source):
        cmd += ["--target_objective", f"{inst.target:.17g}"]
    result, events, code, err, wall = stream_qsolve(cmd, args.time_limit + args.call_margin)
    row = {"wall_s": wall}
    if result is None or code != 0:
        row.update(status="timeout" if code is None else "error",
                   notes=[(err or "").strip()[:300] or "no result line"])
        return row
    assignment = result.get("assignment") or {}
    row["termination"] = result.get("termination")
    feasible, objective, notes = scorer.score(inst, assignment, result.get("feasible"), result.get("objective"))
    row.update(status="ok", feasible=feasible, objective=objective, notes=notes,
               server_s=server_seconds(result))
    set_times(row, inst, lambda value: time_to_best(events, value, inst.sense))
    return row


def set_times(row, inst, first_time):
    """time_s and time_kind of a service or qubo row: to the target when the answer reaches it (the
    server's time when the solve stopped there, else the stream's first feasible sample at the target),
    else to the run's best (the stream's first feasible sample at the final objective), else the call."""
    feasible, objective = row.get("feasible"), row.get("objective")
    t, kind = None, None
    if feasible and mf.reaches(inst.sense, objective, inst.target):
        t = row["server_s"] if row.get("termination") == "TARGET_REACHED" else first_time(inst.target)
        kind = "target"
    elif feasible:
        t, kind = first_time(objective), "best"
    if t is None:
        t, kind = row.get("server_s"), "call"
    row["time_s"], row["time_kind"] = t, kind


def cbc_found_nothing(status, result=""):
    """CBC's solution file holds no integer solution: infeasible ("Infeasible", "Integer infeasible"), or
    stopped with the LP relaxation only ("Stopped on time (no integer solution - continuous used)")."""
    status, result = status.lower(), result.lower()
    return "infeasible" in status or "no integer solution" in status or "no feasible" in result \
        or status == "no solution file"


CBC_INCUMBENT = re.compile(r"Integer solution of ([-+0-9.eE]+) found.*?\(([0-9.]+) seconds\)")


def run_cbc(args, inst, scorer, tmp):
    milp = os.path.join(tmp, "milp.lp")
    sol = os.path.join(tmp, "sol.txt")
    for f in (milp, sol):
        if os.path.exists(f):
            os.remove(f)
    if args.milp == "python":
        if inst.model is None:
            return {"status": "skipped", "notes": [inst.error or "--milp python: no Python reader for this format"]}
        start = time.monotonic()
        with open(milp, "w") as f:
            f.write(mf.linearized_lp(inst.model))
        compile_wall = time.monotonic() - start
    else:
        cmd = [args.qsolve, "--addr", args.addr, "compile", "--kind", "model", "--input-file", inst.path,
               "--export_milp", milp]
        out, compile_wall = run(cmd, timeout=args.call_margin)
        if out is None or out.returncode != 0 or not os.path.exists(milp):
            return {"status": "error", "notes": ["qsolve compile --export_milp: " +
                                                 ("timed out" if out is None else out.stderr.strip()[:300])]}
    cmd = [args.cbc, milp, "timeMode", "elapsed", "sec", f"{args.time_limit:g}", "solve", "solution", sol]
    out, wall = run(cmd, timeout=args.time_limit + args.call_margin)
    row = {"wall_s": wall, "milp_compile_s": compile_wall}
    if out is None:
        return {**row, "status": "timeout", "notes": ["cbc did not stop"]}
    log = out.stdout
    m = re.search(r"^Result - (.*)$", log, re.MULTILINE)
    row["termination"] = m.group(1).strip() if m else "no result line"
    if not os.path.exists(sol):
        return {**row, "status": "ok", "feasible": False, "objective": None, "notes": ["no solution file"],
                "time_s": wall, "time_kind": "call"}
    with open(sol) as f:
        status, reported, values = mi.parse_cbc_solution(f.read())
    if cbc_found_nothing(status, row["termination"]):
        return {**row, "status": "ok", "feasible": False, "objective": None, "notes": [status],
                "time_s": wall, "time_kind": "call"}
    variables = inst.model.variables if inst.model else [v for v in values if not v.startswith("y_")]
    assignment = {v: values.get(v, 0) for v in variables}
    feasible, objective, notes = scorer.score(inst, assignment)
    row.update(status="ok", feasible=feasible, objective=objective, notes=notes + [status])
    # CBC minimises: a maximised LP's log ("reformulated as minimization") shows the negated objective.
    flip = -1.0 if "reformulated as minimization" in log else 1.0
    incumbents = [(float(t), flip * float(v)) for v, t in CBC_INCUMBENT.findall(log)]
    reached = next((t for t, v in incumbents if mf.reaches(inst.sense, v, inst.target)), None) \
        if inst.target is not None and feasible else None
    if reached is not None:
        row["time_s"], row["time_kind"] = reached, "target"
    elif incumbents and feasible:
        row["time_s"], row["time_kind"] = incumbents[-1][0], "best"
    else:
        row["time_s"], row["time_kind"] = wall, "call"
    return row


def run_qubo(args, inst, scorer, tmp):
    if inst.model is None:
        return {"status": "skipped", "notes": [inst.error or "no Python reader for this format"]}
    try:
        n, Q, offset, P, slack = mf.penalty_qubo(inst.model, args.qubo_penalty)
    except ValueError as e:
        return {"status": "skipped", "notes": [str(e)]}
    path = os.path.join(tmp, "q.txt")
    with open(path, "w") as f:
        f.write(mf.qubo_text(n, Q, offset))
    cmd = [args.qsolve, "--addr", args.addr, "solve", "--kind", "qubo", "--input-file", path, "--time_limit",
           f"{args.time_limit:g}", "--json", "--seed", str(args.seed), *args.solve_flags.split()]
    if stops_at(args.target_stop, inst.target_source):
        minimised = -inst.target if inst.sense == mf.MAX else inst.target
        cmd += ["--target_objective", f"{minimised:.17g}"]
    result, events, code, err, wall = stream_qsolve(cmd, args.time_limit + args.call_margin)
    row = {"wall_s": wall, "qubo_variables": n, "qubo_terms": len(Q), "slack_bits": slack, "penalty": P}
    if result is None or code != 0:
        row.update(status="timeout" if code is None else "error",
                   notes=[(err or "").strip()[:300] or "no result line"])
        return row
    bits = (result.get("board") or [""])[0]
    if len(bits) != n:
        row.update(status="error", notes=[f"board of {len(bits)} bits, the QUBO has {n}"])
        return row
    assignment = {v: int(bits[k]) for k, v in enumerate(inst.model.variables)}
    feasible, objective, notes = scorer.score(inst, assignment)
    row.update(status="ok", feasible=feasible, objective=objective, notes=notes,
               termination=result.get("termination"), server_s=server_seconds(result),
               qubo_energy=result.get("energy"))
    def first_time(value):
        # the stream's samples are QUBO bits: decoded and scored here, at most 500 of them
        for t, sample in events[:500]:
            rows = (sample.get("solution") or {}).get("rows") or [""]
            if len(rows[0]) != n:
                continue
            x = {v: int(rows[0][k]) for k, v in enumerate(inst.model.variables)}
            objective, broken, _ = mf.score(inst.model, x)
            if not broken and mf.reaches(inst.sense, objective, value):
                return t
        return None

    set_times(row, inst, first_time)
    return row


def run_best_as_target(rows):
    """An instance without a target gets the best feasible objective of this run's methods as its
    reference (source best-of-this-run), for the gap and the at-target count; its times stay the times to
    each method's own best."""
    for name in dict.fromkeys(r["instance"] for r in rows):
        mine = [r for r in rows if r["instance"] == name]
        found = [r["objective"] for r in mine if r.get("feasible") and r.get("objective") is not None]
        if any(r.get("target") is not None for r in mine) or not found:
            continue
        sense = mine[0]["sense"]
        best = min(found) if sense == mf.MIN else max(found)
        for r in mine:
            r["target"], r["target_source"] = best, "best-of-this-run"
            if r.get("feasible"):
                r["gap_percent"] = mf.gap_percent(sense, r["objective"], best)
                r["at_target"] = mf.reaches(sense, r["objective"], best)


def summarize(rows):
    out = {}
    for method in sorted({r["method"] for r in rows}, key=lambda m: METHODS.index(m) if m in METHODS else 9):
        mine = [r for r in rows if r["method"] == method]
        feasible = [r for r in mine if r.get("feasible")]
        with_target = [r for r in mine if r.get("target") is not None]
        at = [r for r in with_target if r.get("at_target")]
        gaps = [r["gap_percent"] for r in feasible if r.get("gap_percent") is not None]
        times = [r["time_s"] for r in at if r.get("time_s") is not None]
        walls = [r["wall_s"] for r in mine if r.get("wall_s") is not None]
        out[method] = {
            "instances": len(mine), "feasible": len(feasible), "with_target": len(with_target),
            "at_target": len(at), "median_gap_percent": statistics.median(gaps) if gaps else None,
            "median_time_to_target_s": statistics.median(times) if times else None,
            "median_wall_s": statistics.median(walls) if walls else None,
        }
    return out


def fmt_num(x, digits=6):
    if x is None:
        return "—"
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.{digits}g}"


def fmt_time(x):
    if x is None:
        return "—"
    return f"{x * 1000:.3g} ms" if x < 1 else f"{x:.3g} s"


def markdown(rows, summary, args):
    lines = ["| instance | variables | target (source) | method | feasible | objective | gap % | time | stop |",
             "| --- | ---: | --- | --- | --- | ---: | ---: | ---: | --- |"]
    for r in rows:
        target = "—" if r.get("target") is None else f"{fmt_num(r['target'])} ({r['target_source']})"
        feasible = {True: "yes", False: "no", None: "—"}[r.get("feasible")]
        if r.get("status") not in ("ok",):
            feasible = r.get("status", "—")
        gap = "—" if r.get("gap_percent") is None else f"{r['gap_percent']:.2f}"
        time_ = fmt_time(r.get("time_s"))
        if r.get("time_kind") in ("best", "call") and r.get("time_s") is not None:
            time_ += " (best)" if r["time_kind"] == "best" else " (call)"
        stop = r.get("termination") or "—"
        if any(n.startswith("MISMATCH") for n in r.get("notes", [])):
            stop += " **MISMATCH**"
        lines.append(f"| {r['instance']} | {fmt_num(r.get('variables'))} | {target} | {r['method']} | {feasible} "
                     f"| {fmt_num(r.get('objective'))} | {gap} | {time_} | {stop} |")
    lines += ["", "| method | instances | feasible | at target | median gap % (feasible) | median time to target "
                  "| median wall time |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for method, s in summary.items():
        gap = "—" if s["median_gap_percent"] is None else f"{s['median_gap_percent']:.2f}"
        lines.append(f"| {method} | {s['instances']} | {s['feasible']}/{s['instances']} | "
                     f"{s['at_target']}/{s['with_target']} | {gap} | {fmt_time(s['median_time_to_target_s'])} | "
                     f"{fmt_time(s['median_wall_s'])} |")
    return "\n".join(lines) + "\n"


def plot(rows, path):
    try:
        import matplotlib
    except ImportError:
        sys.exit("--plot needs matplotlib: Debian's python3-matplotlib, with /usr/bin/python3")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    instances = list(dict.fromkeys(r["instance"] for r in rows))
    methods = list(dict.fromkeys(r["method"] for r in rows))
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(max(8, 0.45 * len(instances) + 3), 7), sharex=True)
    width = 0.8 / max(1, len(methods))
    colours = dict(zip(METHODS, ("tab:blue", "tab:orange", "tab:green")))
    for k, method in enumerate(methods):
        xs, gaps, times, infeasible = [], [], [], []
        for i, inst in enumerate(instances):
            r = next((r for r in rows if r["instance"] == inst and r["method"] == method), None)
            if r is None:
                continue
            x = i + (k - (len(methods) - 1) / 2) * width
            if r.get("feasible") and r.get("gap_percent") is not None:
                xs.append(x)
                gaps.append(max(r["gap_percent"], 1e-3))
            elif not r.get("feasible"):
                infeasible.append(x)
            if r.get("time_s") is not None:
                times.append((x, max(r["time_s"], 1e-3), r.get("time_kind") == "target"))
        c = colours.get(method, None)
        ax1.bar(xs, gaps, width=width, color=c, label=method)
        ax1.scatter(infeasible, [1e3] * len(infeasible), marker="x", color=c)
        ax2.scatter([x for x, _, ok in times if ok], [t for _, t, ok in times if ok], color=c, marker="o",
                    label=f"{method}: at the target")
        ax2.scatter([x for x, _, ok in times if not ok], [t for _, t, ok in times if not ok], marker="o",
                    facecolors="none", edgecolors=c, label=f"{method}: best / call")
    ax1.set_yscale("log")
    ax1.set_ylabel("gap %  (≤ 0 at 1e-3; x: infeasible)")
    ax1.legend(fontsize=8)
    ax2.set_yscale("log")
    ax2.set_ylabel("seconds")
    ax2.legend(fontsize=7)
    ax2.set_xticks(range(len(instances)))
    ax2.set_xticklabels(instances, rotation=60, ha="right", fontsize=8)
    for ax in (ax1, ax2):
        ax.grid(True, which="both", axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def model_files_in(directory, patterns):
    files = sorted(f for f in os.listdir(directory) if f.endswith(EXTENSIONS))
    if patterns:
        wanted = [p.strip() for p in patterns.split(",") if p.strip()]
        files = [f for f in files if any(fnmatch.fnmatch(f, p) for p in wanted)]

    def key(name):  # by family, then size
        m = re.match(r"^([a-zA-Z]+)(\d*)", name)
        return (m.group(1), int(m.group(2) or 0), name) if m else (name, 0, name)
    return [os.path.join(directory, f) for f in sorted(files, key=key)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", default="", help="directory of .lp/.opb/.qplib files (and targets.json)")
    parser.add_argument("--from_json", default="",
                        help="no runs: print the tables (and --plot) of an earlier run's --json file")
    parser.add_argument("--files", default="", help="comma-separated glob patterns of file names to run")
    parser.add_argument("--methods", default="service,cbc,qubo")
    parser.add_argument("--time_limit", type=float, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--addr", default="", help="a running qs_server; default: start --qs_server")
    parser.add_argument("--qs_server", default=os.path.join(ROOT, "build/server/qs_server"))
    parser.add_argument("--server_flags", default="", help="extra qs_server flags when the script starts it")
    parser.add_argument("--qsolve", default=os.path.join(ROOT, "build/clients/qsolve"))
    parser.add_argument("--cbc", default="cbc")
    parser.add_argument("--solve_flags", default="", help="extra qsolve solve flags (service and qubo)")
    parser.add_argument("--milp", choices=("service", "python"), default="service",
                        help="cbc: the MILP from `qsolve compile --export_milp` or from model_files.py")
    parser.add_argument("--qubo_penalty", type=float, default=2.0,
                        help="qubo: P = this x the largest |objective coefficient|")
    parser.add_argument("--validate", choices=("python", "server", "both"), default="both")
    parser.add_argument("--target_stop", choices=("exact", "any", "none"), default="exact",
                        help="pass --target_objective (stop at the target) for exact targets only (held-karp, "
                             "tsplib-optimal, cbc-*-optimal), for every target, or never")
    parser.add_argument("--call_margin", type=float, default=120,
                        help="seconds a call may take beyond --time_limit before it is killed")
    parser.add_argument("--update_targets", action="store_true",
                        help="write the best feasible objective found into targets.json as best-of-runs "
                             "where no exact value is known")
    parser.add_argument("--json", default="", help="write the rows and the summary to this JSON file")
    parser.add_argument("--csv", default="", help="write the rows to this CSV file")
    parser.add_argument("--markdown", default="", help="write the tables to this file too (always on stdout)")
    parser.add_argument("--plot", default="", help="PNG: gap and time per instance and method")
    args = parser.parse_args()

    if args.from_json:
        with open(args.from_json) as f:
            rows = json.load(f)["rows"]
        run_best_as_target(rows)
        print(markdown(rows, summarize(rows), args))
        if args.plot:
            plot(rows, args.plot)
        return
    if not args.dir:
        parser.error("--dir is required (or --from_json)")
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    for m in methods:
        if m not in METHODS:
            sys.exit(f"--methods: unknown '{m}' ({', '.join(METHODS)})")
    if "cbc" in methods and not shutil.which(args.cbc):
        sys.exit(mi.cbc_missing_message(args.cbc) + "; or leave cbc out of --methods")
    if not os.path.exists(args.qsolve) and (methods != ["cbc"] or args.milp != "python" or args.validate != "python"):
        sys.exit(f"--qsolve: {args.qsolve} does not exist (build the tree, or give the path)")
    targets = mi.load_targets(args.dir)
    paths = model_files_in(args.dir, args.files)
    if not paths:
        sys.exit(f"no .lp, .opb or .qplib file in {args.dir}")

    rows = []
    server = None
    with tempfile.TemporaryDirectory() as tmp:
        needs_server = "service" in methods or "qubo" in methods or args.validate != "python" or \
            ("cbc" in methods and args.milp == "service")
        if not args.addr and needs_server:
            if not os.path.exists(args.qs_server):
                sys.exit(f"--qs_server: {args.qs_server} does not exist (or give --addr)")
            server = Server(args.qs_server, os.path.join(tmp, "qs_server.log"), args.server_flags.split())
            args.addr = server.addr
            progress(f"qs_server on {args.addr}")
        try:
            scorer = Scorer(args)
            runners = {"service": run_service, "cbc": run_cbc, "qubo": run_qubo}
            for path in paths:
                inst = Instance(path, targets)
                for method in methods:
                    progress(f"{inst.name}: {method} ...")
                    try:
                        row = runners[method](args, inst, scorer, tmp)
                    except (OSError, ValueError, KeyError) as e:
                        row = {"status": "error", "notes": [f"{type(e).__name__}: {e}"]}
                    row.update(instance=inst.name, method=method, variables=inst.variables, sense=inst.sense,
                               target=inst.target, target_source=inst.target_source,
                               time_limit_s=args.time_limit, seed=args.seed)
                    row.setdefault("notes", [])
                    if row.get("feasible"):
                        row["gap_percent"] = mf.gap_percent(inst.sense, row["objective"], inst.target)
                        row["at_target"] = mf.reaches(inst.sense, row["objective"], inst.target)
                    else:
                        row["gap_percent"], row["at_target"] = None, False
                    rows.append(row)
                    progress(f"{inst.name}: {method}: {row.get('status')} feasible={row.get('feasible')} "
                             f"objective={fmt_num(row.get('objective'))} target={fmt_num(inst.target)} "
                             f"time={fmt_time(row.get('time_s'))} ({row.get('time_kind')}) "
                             f"wall={fmt_time(row.get('wall_s'))} {row.get('termination') or ''} "
                             f"{'; '.join(row['notes'])[:300]}")
        finally:
            if server:
                server.stop()

    run_best_as_target(rows)
    summary = summarize(rows)
    text = markdown(rows, summary, args)
    print(text)
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print("uptime:", uptime)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "summary": summary, "uptime": uptime,
                       "command": " ".join(sys.argv)}, f, indent=1, ensure_ascii=False)
    if args.csv:
        keys = ["instance", "variables", "method", "target", "target_source", "status", "feasible", "objective",
                "gap_percent", "at_target", "time_s", "time_kind", "wall_s", "termination", "notes"]
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
            w.writeheader()
            for r in rows:
                w.writerow({**r, "notes": "; ".join(r.get("notes", []))})
    if args.plot:
        plot(rows, args.plot)
    if args.update_targets:
        changed = 0
        for r in rows:
            if r.get("feasible") and r.get("objective") is not None:
                before = dict(targets.get(r["instance"], {}))
                mi.merge_target(targets, r["instance"], r["objective"], "best-of-runs", r["sense"])
                changed += targets.get(r["instance"]) != (before or None)
        mi.save_targets(args.dir, targets)
        progress(f"targets.json: {changed} entries set or improved")


if __name__ == "__main__":
    main()
