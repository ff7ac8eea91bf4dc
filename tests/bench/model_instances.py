#!/usr/bin/python3
"""Constrained models for the model kind's benchmark (model_benchmark.py), written as files that
`qsolve solve --kind model --input-file F` reads, with a targets.json of reference objectives.

Everything is generated here from a seed (Python's random.Random seeded with "SEED:INSTANCE", which gives
the same numbers on every Python 3), so the files are reproducible and none is copied from a benchmark set:

* TSP as LP (tsp<N>_s<SEED>.lp): N cities at integer coordinates drawn uniformly in [0, 1000)^2, distances
  rounded to the nearest integer (TSPLIB's EUC_2D nint). Binary x_c_t = city c is the t-th of the tour;
  one-hot rows city_c: sum_t x_c_t = 1 and columns step_t: sum_c x_c_t = 1; the objective, the tour's
  length, sum over c != d and t of dist(c, d) x_c_t x_d_(t+1 mod N), in LP's quadratic form
  "[ ... ] / 2", so every coefficient inside the brackets is 2 dist(c, d). --tsp_fix_first adds the
  constraint fix: x_0_0 = 1 (city 0 first; off by default, as a user writes the model).
* A TSPLIB file (--tsplib PATH, repeatable): the same LP from its EUC_2D, CEIL_2D, ATT or GEO coordinates
  or EXPLICIT weights (FULL_MATRIX, UPPER_ROW, LOWER_ROW, UPPER_DIAG_ROW, LOWER_DIAG_ROW), with the
  distance functions of TSPLIB's documentation. TSPLIB files are not shipped: they come from TSPLIB95,
  Reinelt's library of travelling-salesman instances (e.g. burma14, ulysses16, ulysses22, att48,
  berlin52). The target is the published optimal tour length for the names in TSPLIB_OPTIMA, Held-Karp
  for 14 cities and fewer.
* OPB (standard PB16 syntax: min:, >= and =, products by juxtaposition; variables x1 ... xN), all binary
  with linear constraints and a quadratic objective, stand-ins for QPLIB's binary classes:
  - qkp<N>_s<SEED>.opb, quadratic knapsack [Gallo, Hammer and Simeone 1980]: profit p_ij (i <= j)
    non-zero with probability DENSITY, then uniform in 1..100; weights uniform in 1..50; capacity uniform
    in 50..(sum of weights)/2; maximise the profit, written as min: of the negated profit (so the
    objective, and its target, are negative) with the capacity as -sum w_i x_i >= -C.
  - qap<N>_s<SEED>.opb, quadratic assignment: N facilities on N locations of a grid (Manhattan
    distances, Nugent-style), flows non-zero with probability 1/2 and then uniform in 1..10 (symmetric);
    x_{i*N+k+1} = facility i at location k; one-hot rows and columns (= 1); minimise
    sum_{i != j, k != l} flow(i, j) dist(k, l) x_ik x_jl.
  - bisect<N>_s<SEED>.opb, max-cut with a cardinality constraint (graph bisection): a random graph with
    mean degree min(10, N - 1), weights 1; sum x_i = N / 2; maximise the cut sum_{ij} (x_i + x_j -
    2 x_i x_j), written as min: of the negated cut.
  - gap<N>_s<SEED>.opb, generalized assignment with conflicts: N items in M = max(2, N // 6) bins,
    weights uniform in 1..10, capacity 1.15 (sum of weights) / M; x_{i*M+k+1} = item i in bin k, one-hot
    per item (= 1), capacity rows -sum w_i x_ik >= -C; minimise costs (1..20 per item and bin) plus, for
    each pair of items with probability 0.3, a conflict 1..10 when they share a bin.

targets.json maps a file name to {"value": V, "source": S} with V in the file's own objective (a min: OPB
objective of a maximised problem is negative): "held-karp" (exact, N <= 14), "tsplib-optimal" (published),
"cbc-<T>s-optimal" (--reference cbc: CBC proved optimality on the linearized model within T seconds),
"2opt-<N>" (--tsp_two_opt N: the best tour of a 2-opt descent from N random tours, random TSPs past 14
cities; heuristic),
"cbc-<T>s-feasible" (CBC stopped at its limit: the best solution it found, not proven), or
"best-of-runs" (model_benchmark.py --update_targets: the best feasible objective any method reached).
An existing targets.json is merged (a better or exact value replaces an entry).

  tests/bench/model_instances.py --out /tmp/model-bench                  # the default set, seed 1
  tests/bench/model_instances.py --out /tmp/model-bench --tsp_sizes 6,8,10,12,14 --opb ''
  tests/bench/model_instances.py --out /tmp/tsplib --tsp_sizes '' --opb '' --tsplib ~/tsplib/burma14.tsp
  tests/bench/model_instances.py --out /tmp/model-bench --reference cbc --reference_time 600
  tests/bench/model_instances.py --self-test
"""
import argparse
import itertools
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model_files as mf  # noqa: E402

DEFAULT_TSP_SIZES = "6,8,10,12,14,20,30,48,52"
# kind:N[:DENSITY] (DENSITY only for qkp)
DEFAULT_OPB = ("qkp:50:0.5,qkp:100:0.5,qkp:200:0.25,qkp:500:0.1,qkp:1000:0.05,qkp:2000:0.02,"
               "qap:8,qap:12,qap:16,qap:20,qap:30,"
               "bisect:50,bisect:100,bisect:200,bisect:500,bisect:1000,bisect:2000")
HELD_KARP_MAX = 14

# Published optimal tour lengths of TSPLIB instances (TSPLIB95's solutions list), the targets of LPs made
# from those files with --tsplib.
TSPLIB_OPTIMA = {
    "burma14": 3323, "ulysses16": 6859, "gr17": 2085, "gr21": 2707, "ulysses22": 7013, "gr24": 1272,
    "fri26": 937, "bayg29": 1610, "bays29": 2020, "dantzig42": 699, "swiss42": 1273, "att48": 10628,
    "gr48": 5046, "hk48": 11461, "eil51": 426, "berlin52": 7542, "brazil58": 25395, "st70": 675,
    "eil76": 538, "pr76": 108159,
}


def rng_for(seed, name):
    return random.Random(f"{seed}:{name}")


def uniform_int(rng, lo, hi):
    """An integer in lo..hi from rng.random() alone (stable across Python versions)."""
    return lo + min(int(rng.random() * (hi - lo + 1)), hi - lo)


# ------------------------------------------------------------------------------------------------- TSP

def nint(x):
    return int(math.floor(x + 0.5))


def euclidean_matrix(points, rounding=nint):
    n = len(points)
    return [[0 if a == b else rounding(math.hypot(points[a][0] - points[b][0], points[a][1] - points[b][1]))
             for b in range(n)] for a in range(n)]


def random_tsp(n, seed):
    rng = rng_for(seed, f"tsp{n}")
    points = [(uniform_int(rng, 0, 999), uniform_int(rng, 0, 999)) for _ in range(n)]
    return points, euclidean_matrix(points)


def tsp_model(dist, fix_first=False, name="tsp"):
    n = len(dist)
    model = mf.Model(name, mf.MIN)
    x = [[f"x_{c}_{t}" for t in range(n)] for c in range(n)]
    for c in range(n):
        for t in range(n):
            model.binary(x[c][t])
    for c in range(n):
        for d in range(n):
            if c != d and dist[c][d] != 0:
                for t in range(n):
                    model.add_objective(dist[c][d], x[c][t], x[d][(t + 1) % n])
    for c in range(n):
        model.add_constraint(f"city_{c}", [(1, x[c][t]) for t in range(n)], mf.EQ, 1)
    for t in range(n):
        model.add_constraint(f"step_{t}", [(1, x[c][t]) for c in range(n)], mf.EQ, 1)
    if fix_first:
        model.add_constraint("fix", [(1, x[0][0])], mf.EQ, 1)
    return model


def tsp_lp(dist, fix_first=False, name="tsp", comments=()):
    return mf.write_lp(tsp_model(dist, fix_first, name), comments)


def tour_assignment(tour):
    """x_c_t of a tour (cities in visiting order)."""
    n = len(tour)
    return {f"x_{c}_{t}": int(tour[t] == c) for c in range(n) for t in range(n)}


def tour_length(dist, tour):
    return sum(dist[tour[t]][tour[(t + 1) % len(tour)]] for t in range(len(tour)))


def two_opt(dist, starts, seed):
    """The shortest tour a 2-opt descent (first improvement, segment reversals) reaches from `starts` random
    tours: a heuristic reference for TSPs past Held-Karp's reach."""
    n = len(dist)
    rng = random.Random(f"{seed}:two-opt:{n}")
    best = None
    for _ in range(starts):
        tour = list(range(n))
        rng.shuffle(tour)
        improved = True
        while improved:
            improved = False
            for i in range(n - 1):
                for j in range(i + 2, n if i > 0 else n - 1):
                    a, b, c, e = tour[i], tour[i + 1], tour[j], tour[(j + 1) % n]
                    if dist[a][c] + dist[b][e] < dist[a][b] + dist[c][e]:
                        tour[i + 1:j + 1] = reversed(tour[i + 1:j + 1])
                        improved = True
        length = sum(dist[tour[k]][tour[(k + 1) % n]] for k in range(n))
        best = length if best is None else min(best, length)
    return best


def held_karp(dist):
    """Exact shortest tour by Held and Karp's dynamic programme over subsets (numpy, vectorised over the
    subsets of each size): (length, tour starting at city 0)."""
    import numpy as np

    n = len(dist)
    if n <= 3:
        tour = list(range(n))
        return tour_length(dist, tour), tour
    D = np.array(dist, dtype=np.float64)
    m = n - 1                                    # cities 1..n-1 as bits 0..m-1
    full = (1 << m) - 1
    dp = np.full((1 << m, m), np.inf)
    parent = np.full((1 << m, m), -1, dtype=np.int64)
    for j in range(m):
        dp[1 << j, j] = D[0, j + 1]
    masks = np.arange(1 << m, dtype=np.int64)
    popcount = np.zeros(1 << m, dtype=np.int64)
    for j in range(m):
        popcount += (masks >> j) & 1
    inner = D[1:, 1:]                            # inner[k, j]: from city k+1 to city j+1
    for size in range(2, m + 1):
        layer = masks[popcount == size]
        for j in range(m):
            sel = layer[(layer >> j) & 1 == 1]
            prev = sel ^ (1 << j)
            cand = dp[prev, :] + inner[:, j][None, :]
            best = np.argmin(cand, axis=1)
            dp[sel, j] = cand[np.arange(len(sel)), best]
            parent[sel, j] = best
    closing = dp[full, :] + D[1:, 0]
    last = int(np.argmin(closing))
    length = closing[last]
    tour, mask, j = [], full, last
    while j >= 0:
        tour.append(j + 1)
        pj = int(parent[mask, j])
        mask ^= 1 << j
        j = pj
    tour.append(0)
    tour.reverse()
    return int(round(length)), tour


def brute_force_tsp(dist):
    n = len(dist)
    best = None
    for perm in itertools.permutations(range(1, n)):
        tour = [0, *perm]
        length = tour_length(dist, tour)
        if best is None or length < best[0]:
            best = (length, tour)
    return best


# ---------------------------------------------------------------------------------------------- TSPLIB

def read_tsplib(text):
    """(name, distance matrix, edge weight type) of a TSPLIB TSP file."""
    spec, sections, current = {}, {}, None
    for line in text.splitlines():
        s = line.strip()
        if not s or s == "EOF":
            continue
        m = re.match(r"^([A-Z_]+)\s*:\s*(.*)$", s)
        if m and m.group(1) not in ("NODE_COORD_SECTION", "EDGE_WEIGHT_SECTION", "DISPLAY_DATA_SECTION"):
            spec[m.group(1)] = m.group(2).strip()
            current = None
            continue
        word = s.split(":")[0].strip()
        if word in ("NODE_COORD_SECTION", "EDGE_WEIGHT_SECTION", "DISPLAY_DATA_SECTION", "FIXED_EDGES_SECTION",
                    "TOUR_SECTION"):
            current = word
            sections.setdefault(current, [])
            continue
        if current:
            sections[current].extend(s.split())
    name = spec.get("NAME", "tsplib").split()[0]
    if spec.get("TYPE", "TSP").split()[0] not in ("TSP",):
        raise ValueError(f"{name}: TYPE {spec.get('TYPE')} (only symmetric TSP)")
    n = int(spec["DIMENSION"])
    kind = spec.get("EDGE_WEIGHT_TYPE", "")
    if kind == "EXPLICIT":
        values = [float(v) for v in sections.get("EDGE_WEIGHT_SECTION", [])]
        fmt_ = spec.get("EDGE_WEIGHT_FORMAT", "FULL_MATRIX")
        D = [[0] * n for _ in range(n)]
        it = iter(values)
        try:
            if fmt_ == "FULL_MATRIX":
                for a in range(n):
                    for b in range(n):
                        D[a][b] = next(it)
            else:
                cells = {"UPPER_ROW": [(a, b) for a in range(n) for b in range(a + 1, n)],
                         "LOWER_ROW": [(a, b) for a in range(n) for b in range(a)],
                         "UPPER_DIAG_ROW": [(a, b) for a in range(n) for b in range(a, n)],
                         "LOWER_DIAG_ROW": [(a, b) for a in range(n) for b in range(a + 1)]}.get(fmt_)
                if cells is None:
                    raise ValueError(f"{name}: EDGE_WEIGHT_FORMAT {fmt_} is not read")
                for a, b in cells:
                    D[a][b] = D[b][a] = next(it)
        except StopIteration:
            raise ValueError(f"{name}: EDGE_WEIGHT_SECTION too short") from None
        for a in range(n):
            D[a][a] = 0
        return name, [[int(v) if float(v).is_integer() else v for v in row] for row in D], kind
    coords = sections.get("NODE_COORD_SECTION", [])
    if len(coords) < 3 * n:
        raise ValueError(f"{name}: NODE_COORD_SECTION has fewer than {n} nodes")
    pts = [(float(coords[3 * k + 1]), float(coords[3 * k + 2])) for k in range(n)]
    if kind == "EUC_2D":
        return name, euclidean_matrix(pts), kind
    if kind == "CEIL_2D":
        return name, euclidean_matrix(pts, lambda d: int(math.ceil(d))), kind
    if kind == "ATT":
        def att(a, b):
            xd, yd = pts[a][0] - pts[b][0], pts[a][1] - pts[b][1]
            r = math.sqrt((xd * xd + yd * yd) / 10.0)
            t = nint(r)
            return t + 1 if t < r else t
        return name, [[0 if a == b else att(a, b) for b in range(n)] for a in range(n)], kind
    if kind == "GEO":
        PI, RRR = 3.141592, 6378.388

        def rad(v):
            deg = int(v)          # TSPLIB's nint here is truncation towards zero
            return PI * (deg + 5.0 * (v - deg) / 3.0) / 180.0
        lat = [rad(p[0]) for p in pts]
        lon = [rad(p[1]) for p in pts]

        def geo(a, b):
            q1 = math.cos(lon[a] - lon[b])
            q2 = math.cos(lat[a] - lat[b])
            q3 = math.cos(lat[a] + lat[b])
            return int(RRR * math.acos(0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3)) + 1.0)
        return name, [[0 if a == b else geo(a, b) for b in range(n)] for a in range(n)], kind
    raise ValueError(f"{name}: EDGE_WEIGHT_TYPE {kind} is not read (EUC_2D, CEIL_2D, ATT, GEO, EXPLICIT)")


# ------------------------------------------------------------------------------------------------- OPB

def qkp_model(n, density, seed):
    rng = rng_for(seed, f"qkp{n}:{density}")
    model = mf.Model(f"qkp{n}", mf.MIN)
    names = [f"x{i + 1}" for i in range(n)]
    for v in names:
        model.binary(v)
    for i in range(n):
        for j in range(i, n):
            if rng.random() < density:
                p = uniform_int(rng, 1, 100)
                model.add_objective(-p, names[i]) if i == j else model.add_objective(-p, names[i], names[j])
    w = [uniform_int(rng, 1, 50) for _ in range(n)]
    cap = uniform_int(rng, 50, max(50, sum(w) // 2))
    model.add_constraint("capacity", [(-w[i], names[i]) for i in range(n)], mf.GE, -cap)
    return model, [f"quadratic knapsack, {n} items, profit density {density:g}, capacity {cap} "
                   f"(weights sum {sum(w)}); the objective is minus the profit"]


def qap_model(n, seed):
    rng = rng_for(seed, f"qap{n}")
    cols = math.ceil(math.sqrt(n))
    loc = [(k // cols, k % cols) for k in range(n)]
    dist = [[abs(loc[k][0] - loc[l][0]) + abs(loc[k][1] - loc[l][1]) for l in range(n)] for k in range(n)]
    flow = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < 0.5:
                flow[i][j] = flow[j][i] = uniform_int(rng, 1, 10)
    model = mf.Model(f"qap{n}", mf.MIN)
    name = lambda i, k: f"x{i * n + k + 1}"  # noqa: E731
    for i in range(n):
        for k in range(n):
            model.binary(name(i, k))
    for i in range(n):
        for j in range(n):
            if i == j or not flow[i][j]:
                continue
            for k in range(n):
                for l in range(n):
                    if k != l and dist[k][l]:
                        model.add_objective(flow[i][j] * dist[k][l], name(i, k), name(j, l))
    for i in range(n):
        model.add_constraint(f"facility_{i}", [(1, name(i, k)) for k in range(n)], mf.EQ, 1)
    for k in range(n):
        model.add_constraint(f"location_{k}", [(1, name(i, k)) for i in range(n)], mf.EQ, 1)
    return model, [f"quadratic assignment, {n} facilities on a {cols}-column grid (Manhattan distances), "
                   f"flows 1..10 with probability 1/2; x(i*{n}+k+1) = facility i at location k"]


def bisect_model(n, seed):
    rng = rng_for(seed, f"bisect{n}")
    degree = min(10, n - 1)
    p = degree / (n - 1)
    model = mf.Model(f"bisect{n}", mf.MIN)
    names = [f"x{i + 1}" for i in range(n)]
    for v in names:
        model.binary(v)
    edges = 0
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < p:
                edges += 1
                model.add_objective(-1, names[i])
                model.add_objective(-1, names[j])
                model.add_objective(2, names[i], names[j])
    model.objective = {k: c for k, c in model.objective.items() if c}
    model.add_constraint("half", [(1, v) for v in names], mf.EQ, n // 2)
    return model, [f"max-cut with a cardinality constraint (bisection), {n} nodes, {edges} edges of weight 1; "
                   "the objective is minus the cut"]


def gap_model(n, seed):
    """Generalized assignment with conflicts: one-hot rows (one bin per item) beside capacity rows, so its
    exactly-one groups form no permutation block (auto's model/pt-first)."""
    rng = rng_for(seed, f"gap{n}")
    m = max(2, n // 6)
    w = [uniform_int(rng, 1, 10) for _ in range(n)]
    cap = int(sum(w) / m * 1.15)
    model = mf.Model(f"gap{n}", mf.MIN)
    name = lambda i, k: f"x{i * m + k + 1}"  # noqa: E731
    for i in range(n):
        for k in range(m):
            model.binary(name(i, k))
            model.add_objective(uniform_int(rng, 1, 20), name(i, k))
    conflicts = 0
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < 0.3:
                conflicts += 1
                q = uniform_int(rng, 1, 10)
                for k in range(m):
                    model.add_objective(q, name(i, k), name(j, k))
    for i in range(n):
        model.add_constraint(f"item_{i}", [(1, name(i, k)) for k in range(m)], mf.EQ, 1)
    for k in range(m):
        model.add_constraint(f"bin_{k}", [(-w[i], name(i, k)) for i in range(n)], mf.GE, -cap)
    return model, [f"generalized assignment, {n} items in {m} bins of capacity {cap} (weights 1..10), "
                   f"costs 1..20, {conflicts} conflicting pairs (1..10 when in one bin); "
                   f"x(i*{m}+k+1) = item i in bin k"]


def opb_instance(spec, seed):
    kind, *params = spec.split(":")
    n = int(params[0])
    if kind == "qkp":
        density = float(params[1]) if len(params) > 1 else 0.25
        model, comments = qkp_model(n, density, seed)
    elif kind == "qap":
        model, comments = qap_model(n, seed)
    elif kind == "bisect":
        model, comments = bisect_model(n, seed)
    elif kind == "gap":
        model, comments = gap_model(n, seed)
    else:
        raise SystemExit(f"--opb: unknown kind '{kind}' (qkp:N[:DENSITY], qap:N, bisect:N, gap:N)")
    return f"{kind}{n}_s{seed}.opb", model, comments


# ------------------------------------------------------------------------------------------ references

def parse_cbc_solution(text):
    """(status line's first words, objective value, {name: value}) of CBC's `solution FILE`."""
    lines = text.splitlines()
    head = lines[0] if lines else ""
    m = re.search(r"objective value\s+([-+0-9.eE]+)", head)
    objective = float(m.group(1)) if m else None
    status = head.split(" - ")[0].strip() if head else "no solution file"
    values = {}
    for line in lines[1:]:
        parts = line.split()
        if len(parts) >= 3 and parts[0].isdigit():
            values[parts[1]] = float(parts[2])
        elif len(parts) >= 4 and parts[0] == "**" and parts[1].isdigit():
            values[parts[2]] = float(parts[3])
    return status, objective, values


def cbc_missing_message(cbc):
    return (f"CBC ({cbc}) is not installed: `apt-get install -y coinor-cbc` (Debian's package; "
            "scripts/install-deps.sh lists it among the test packages)")


def cbc_reference(model, cbc, seconds):
    """Run CBC on the model's linearization (written here in Python) for `seconds` of wall time; returns
    (value, source) or None when CBC found no feasible solution."""
    with tempfile.TemporaryDirectory() as tmp:
        lp = os.path.join(tmp, "milp.lp")
        sol = os.path.join(tmp, "sol.txt")
        with open(lp, "w") as f:
            f.write(mf.linearized_lp(model))
        cmd = [cbc, lp, "timeMode", "elapsed", "sec", f"{seconds:g}", "solve", "solution", sol]
        try:
            subprocess.run(cmd, capture_output=True, text=True, timeout=seconds * 1.5 + 120)
        except subprocess.TimeoutExpired:
            return None
        if not os.path.exists(sol):
            return None
        with open(sol) as f:
            status, _, values = parse_cbc_solution(f.read())
    objective, broken, problems = mf.score(model, {v: values.get(v, 0) for v in model.variables})
    if broken or problems or status.lower().startswith("infeasible") or "no integer solution" in status.lower():
        return None
    proven = status.lower().startswith("optimal")
    return objective, f"cbc-{seconds:g}s-{'optimal' if proven else 'feasible'}"


EXACT_SOURCES = ("held-karp", "tsplib-optimal")


def merge_target(targets, name, value, source, sense):
    """Keep an exact value; otherwise the better of the old and the new."""
    old = targets.get(name)
    if old is None or source in EXACT_SOURCES or source.endswith("-optimal"):
        if old is not None and (old["source"] in EXACT_SOURCES or old["source"].endswith("-optimal")) \
                and source not in EXACT_SOURCES and not source.endswith("-optimal"):
            return
        targets[name] = {"value": value, "source": source}
        return
    if old["source"] in EXACT_SOURCES or old["source"].endswith("-optimal"):
        return
    better = value < old["value"] if sense == mf.MIN else value > old["value"]
    if better:
        targets[name] = {"value": value, "source": source}


def load_targets(directory):
    path = os.path.join(directory, "targets.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    return {}


def save_targets(directory, targets):
    with open(os.path.join(directory, "targets.json"), "w") as f:
        json.dump(dict(sorted(targets.items())), f, indent=1)
        f.write("\n")


# ------------------------------------------------------------------------------------------- self-test

FOUR_CITY_POINTS = [(0, 0), (3, 0), (3, 4), (0, 4)]
FOUR_CITY_LP = """\\ 4 cities
Minimize
 obj: [ 6 x_0_0 * x_1_1 + 6 x_0_1 * x_1_2 + 6 x_0_2 * x_1_3 + 6 x_0_3 * x_1_0 + 10 x_0_0 * x_2_1
   + 10 x_0_1 * x_2_2 + 10 x_0_2 * x_2_3 + 10 x_0_3 * x_2_0 + 8 x_0_0 * x_3_1 + 8 x_0_1 * x_3_2
   + 8 x_0_2 * x_3_3 + 8 x_0_3 * x_3_0 + 6 x_0_1 * x_1_0 + 6 x_0_2 * x_1_1 + 6 x_0_3 * x_1_2
   + 6 x_0_0 * x_1_3 + 8 x_1_0 * x_2_1 + 8 x_1_1 * x_2_2 + 8 x_1_2 * x_2_3 + 8 x_1_3 * x_2_0
   + 10 x_1_0 * x_3_1 + 10 x_1_1 * x_3_2 + 10 x_1_2 * x_3_3 + 10 x_1_3 * x_3_0 + 10 x_0_1 * x_2_0
   + 10 x_0_2 * x_2_1 + 10 x_0_3 * x_2_2 + 10 x_0_0 * x_2_3 + 8 x_1_1 * x_2_0 + 8 x_1_2 * x_2_1
   + 8 x_1_3 * x_2_2 + 8 x_1_0 * x_2_3 + 6 x_2_0 * x_3_1 + 6 x_2_1 * x_3_2 + 6 x_2_2 * x_3_3
   + 6 x_2_3 * x_3_0 + 8 x_0_1 * x_3_0 + 8 x_0_2 * x_3_1 + 8 x_0_3 * x_3_2 + 8 x_0_0 * x_3_3
   + 10 x_1_1 * x_3_0 + 10 x_1_2 * x_3_1 + 10 x_1_3 * x_3_2 + 10 x_1_0 * x_3_3 + 6 x_2_1 * x_3_0
   + 6 x_2_2 * x_3_1 + 6 x_2_3 * x_3_2 + 6 x_2_0 * x_3_3 ] / 2
Subject To
 city_0: x_0_0 + x_0_1 + x_0_2 + x_0_3 = 1
 city_1: x_1_0 + x_1_1 + x_1_2 + x_1_3 = 1
 city_2: x_2_0 + x_2_1 + x_2_2 + x_2_3 = 1
 city_3: x_3_0 + x_3_1 + x_3_2 + x_3_3 = 1
 step_0: x_0_0 + x_1_0 + x_2_0 + x_3_0 = 1
 step_1: x_0_1 + x_1_1 + x_2_1 + x_3_1 = 1
 step_2: x_0_2 + x_1_2 + x_2_2 + x_3_2 = 1
 step_3: x_0_3 + x_1_3 + x_2_3 + x_3_3 = 1
Binary
 x_0_0 x_0_1 x_0_2 x_0_3 x_1_0 x_1_1 x_1_2 x_1_3 x_2_0 x_2_1 x_2_2 x_2_3 x_3_0 x_3_1 x_3_2 x_3_3
End
"""


def self_test():
    import unittest

    sys.argv = [sys.argv[0]]
    here = os.path.dirname(os.path.abspath(__file__))
    suite = unittest.defaultTestLoader.discover(here, pattern="model_benchmark_test.py")
    result = unittest.TextTestRunner(verbosity=1).run(suite)
    return 0 if result.wasSuccessful() else 1


# ------------------------------------------------------------------------------------------------ main

def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", help="output directory (created)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tsp_sizes", "--tsp-sizes", default=DEFAULT_TSP_SIZES,
                        help="random Euclidean TSPs, comma-separated city counts (6..52); '' for none")
    parser.add_argument("--tsp_fix_first", "--tsp-fix-first", action="store_true",
                        help="add fix: x_0_0 = 1 (city 0 first) to the TSP models")
    parser.add_argument("--tsplib", action="append", default=[], help="a TSPLIB .tsp file to write as LP")
    parser.add_argument("--opb", default=DEFAULT_OPB,
                        help="comma-separated qkp:N[:DENSITY], qap:N, bisect:N, gap:N; '' for none")
    parser.add_argument("--tsp_two_opt", type=int, default=0,
                        help="random TSPs past Held-Karp's size: the target of a 2-opt descent from this many "
                             "random tours (a heuristic reference, source 2opt-N)")
    parser.add_argument("--reference", choices=("none", "cbc"), default="none",
                        help="cbc: run CBC on the linearized model of every instance without an exact target")
    parser.add_argument("--reference_time", type=float, default=600, help="seconds of CBC per instance")
    parser.add_argument("--cbc", default="cbc")
    parser.add_argument("--self-test", "--self_test", action="store_true", dest="self_test",
                        help="run model_benchmark_test.py (Held-Karp against brute force, the 4-city LP, ...)")
    args = parser.parse_args()
    if args.self_test:
        sys.exit(self_test())
    if not args.out:
        parser.error("--out is required")
    os.makedirs(args.out, exist_ok=True)
    targets = load_targets(args.out)
    made = []  # (file name, model)

    for size in [s for s in args.tsp_sizes.split(",") if s.strip()]:
        n = int(size)
        if not 3 <= n <= 200:
            sys.exit(f"--tsp_sizes: {n} cities (3..200)")
        points, dist = random_tsp(n, args.seed)
        name = f"tsp{n}_s{args.seed}{'_fixed' if args.tsp_fix_first else ''}.lp"
        model = tsp_model(dist, args.tsp_fix_first, f"tsp{n}")
        comments = [f"TSP, {n} random cities in [0, 1000)^2 (seed {args.seed}), rounded Euclidean distances;",
                    "x_c_t = city c at step t; the objective is the tour length (its quadratic part",
                    "doubled inside [ ] / 2)"]
        write(os.path.join(args.out, name), mf.write_lp(model, comments))
        made.append((name, model))
        if n <= HELD_KARP_MAX:
            length, tour = held_karp(dist)
            merge_target(targets, name, length, "held-karp", mf.MIN)
        elif args.tsp_two_opt > 0:
            merge_target(targets, name, two_opt(dist, args.tsp_two_opt, args.seed),
                         f"2opt-{args.tsp_two_opt}", mf.MIN)
        print(f"{name}: {n * n} variables", file=sys.stderr)

    for path in args.tsplib:
        with open(path) as f:
            tname, dist, kind = read_tsplib(f.read())
        n = len(dist)
        name = f"{tname}{'_fixed' if args.tsp_fix_first else ''}.lp"
        model = tsp_model(dist, args.tsp_fix_first, tname)
        write(os.path.join(args.out, name), mf.write_lp(model, [f"TSP from TSPLIB's {tname} ({kind}, {n} cities)"]))
        made.append((name, model))
        if n <= HELD_KARP_MAX:
            merge_target(targets, name, held_karp(dist)[0], "held-karp", mf.MIN)
        elif tname in TSPLIB_OPTIMA:
            merge_target(targets, name, TSPLIB_OPTIMA[tname], "tsplib-optimal", mf.MIN)
        print(f"{name}: {n * n} variables (TSPLIB {kind})", file=sys.stderr)

    for spec in [s for s in args.opb.split(",") if s.strip()]:
        name, model, comments = opb_instance(spec.strip(), args.seed)
        write(os.path.join(args.out, name), mf.write_opb(model, comments))
        made.append((name, model))
        print(f"{name}: {len(model.variables)} variables, {len(model.objective)} objective terms",
              file=sys.stderr)

    if args.reference == "cbc":
        from shutil import which
        if not which(args.cbc):
            sys.exit(cbc_missing_message(args.cbc))
        for name, model in made:
            old = targets.get(name)
            if old and (old["source"] in EXACT_SOURCES or old["source"].endswith("-optimal")):
                continue
            print(f"{name}: CBC for {args.reference_time:g} s ...", file=sys.stderr, flush=True)
            ref = cbc_reference(model, args.cbc, args.reference_time)
            if ref:
                merge_target(targets, name, ref[0], ref[1], model.sense)
                print(f"{name}: {ref[0]:g} ({ref[1]})", file=sys.stderr)
            else:
                print(f"{name}: CBC found no feasible solution", file=sys.stderr)
    save_targets(args.out, targets)
    print(f"{len(made)} files and targets.json ({len(targets)} targets) in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
