#!/usr/bin/python3
"""The logic of model_instances.py, model_files.py and model_benchmark.py that needs no server: Held-Karp
against brute force, the LP of a 4-city TSP, the LP and OPB readers and writers, the penalty QUBO and the
linearized MILP against enumeration, TSPLIB's distance functions, CBC's solution file and qsolve's JSON.
A few seconds; also `tests/bench/model_instances.py --self-test`."""
import itertools
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model_benchmark as mb  # noqa: E402
import model_files as mf  # noqa: E402
import model_instances as mi  # noqa: E402


def assignments(model):
    for bits in itertools.product((0, 1), repeat=len(model.variables)):
        yield dict(zip(model.variables, bits))


class HeldKarp(unittest.TestCase):
    def test_against_brute_force_up_to_8_cities(self):
        rng = random.Random(7)
        for n in range(4, 9):
            for trial in range(3):
                symmetric = trial < 2
                D = [[0] * n for _ in range(n)]
                for a in range(n):
                    for b in range(n):
                        if a != b and (not symmetric or a < b):
                            D[a][b] = rng.randint(1, 100)
                            if symmetric:
                                D[b][a] = D[a][b]
                length, tour = mi.held_karp(D)
                best, _ = mi.brute_force_tsp(D)
                self.assertEqual(length, best, (n, trial))
                self.assertEqual(sorted(tour), list(range(n)))
                self.assertEqual(mi.tour_length(D, tour), length)

    def test_random_instances_and_the_lp_agree(self):
        for n in (6, 7):
            _, D = mi.random_tsp(n, 1)
            length, tour = mi.held_karp(D)
            model = mf.read_lp(mi.tsp_lp(D))
            objective, broken, problems = mf.score(model, mi.tour_assignment(tour))
            self.assertEqual((objective, broken, problems), (length, [], []))


class TspLp(unittest.TestCase):
    def test_four_cities(self):
        D = mi.euclidean_matrix(mi.FOUR_CITY_POINTS)
        self.assertEqual(D, [[0, 3, 5, 4], [3, 0, 4, 5], [5, 4, 0, 3], [4, 5, 3, 0]])
        self.assertEqual(mi.tsp_lp(D, comments=["4 cities"]), mi.FOUR_CITY_LP)

    def test_every_tour_scores_its_length_and_broken_rows_are_named(self):
        D = mi.euclidean_matrix(mi.FOUR_CITY_POINTS)
        model = mf.read_lp(mi.FOUR_CITY_LP)
        self.assertEqual(model.sense, mf.MIN)
        self.assertEqual(len(model.variables), 16)
        self.assertEqual(len(model.objective), 48)   # 4 x 3 ordered pairs x 4 steps
        for perm in itertools.permutations(range(4)):
            objective, broken, _ = mf.score(model, mi.tour_assignment(list(perm)))
            self.assertEqual(objective, mi.tour_length(D, list(perm)))
            self.assertEqual(broken, [])
        empty = {v: 0 for v in model.variables}
        _, broken, _ = mf.score(model, empty)
        self.assertEqual(len(broken), 8)
        self.assertIn("city_0", broken)

    def test_fixed_first_city(self):
        D = mi.euclidean_matrix(mi.FOUR_CITY_POINTS)
        text = mi.tsp_lp(D, fix_first=True)
        self.assertIn(" fix: x_0_0 = 1\n", text)
        model = mf.read_lp(text)
        _, broken, _ = mf.score(model, mi.tour_assignment([1, 2, 3, 0]))
        self.assertEqual(broken, ["fix"])

    def test_deterministic_coordinates(self):
        # random.Random(str) and random() give these on every Python 3: a change means a new instance set.
        self.assertEqual(mi.random_tsp(6, 1)[0],
                         [(617, 291), (243, 165), (189, 580), (552, 202), (484, 531), (442, 26)])
        self.assertEqual(mi.tsp_lp(mi.random_tsp(8, 3)[1]), mi.tsp_lp(mi.random_tsp(8, 3)[1]))


class LpReader(unittest.TestCase):
    def test_a_hand_written_model(self):
        text = """\\ a comment
maximize
 profit: 3 a + 2 b - c + 1.5 + [ 4 a * b - 2 c ^ 2 ] / 2
subject to
 -a + b
   + c >= 1
 cap: 2 a + 3 b + [ a * c ] <= 4
bounds
 c = 1
binaries
 a b c
end
"""
        m = mf.read_lp(text)
        self.assertEqual(m.sense, mf.MAX)
        self.assertEqual(m.variables, ["a", "b", "c"])
        self.assertEqual(m.objective, {(0,): 3, (1,): 2, (2,): -2, (): 1.5, (0, 1): 2})
        names = [c[0] for c in m.constraints]
        self.assertEqual(names, ["c1", "cap", "bound_c"])
        self.assertEqual(mf.score(m, {"a": 0, "b": 1, "c": 1}), (1.5, [], []))
        self.assertEqual(mf.score(m, {"a": 1, "b": 1, "c": 0})[1], ["c1", "cap", "bound_c"])

    def test_write_and_read_back(self):
        m = mf.Model("t", mf.MAX)
        for v in ("u", "v", "w"):
            m.binary(v)
        m.add_objective(-2.5, "u")
        m.add_objective(3, "u", "w")
        m.add_objective(-1, "v", "w")
        m.add_constraint("k", [(1, "u"), (-2, "v"), (1, "u", "v")], mf.LE, 0)
        back = mf.read_lp(mf.write_lp(m))
        self.assertEqual(back.sense, mf.MAX)
        self.assertEqual(back.objective, m.objective)
        self.assertEqual(back.constraints, m.constraints)


class Opb(unittest.TestCase):
    def test_generators_write_what_the_reader_reads(self):
        for spec in ("qkp:30:0.3", "qap:5", "bisect:20"):
            name, model, comments = mi.opb_instance(spec, 2)
            back = mf.read_opb(mf.write_opb(model, comments))
            self.assertEqual(back.variables, model.variables, name)
            self.assertEqual(back.objective, model.objective, name)
            self.assertEqual([c[1:] for c in back.constraints],
                             [({k: -c for k, c in e.items()}, mf.GE, -r) if s == mf.LE else (e, s, r)
                              for _, e, s, r in model.constraints], name)

    def test_negated_literals_and_max(self):
        m = mf.read_opb("* #variable= 2 #constraint= 1\nmax: +2 x1 ~x2 ;\n+1 x1 +1 ~x2 <= 1 ;\n")
        self.assertEqual(m.sense, mf.MAX)
        self.assertEqual(m.objective, {(0,): 2, (0, 1): -2})
        self.assertEqual(mf.score(m, {"x1": 1, "x2": 0}), (2, ["c1"], []))
        self.assertEqual(mf.score(m, {"x1": 1, "x2": 1}), (0, [], []))

    def test_qap_one_hot_rows_and_columns(self):
        _, model, _ = mi.opb_instance("qap:4", 1)
        m = mf.read_opb(mf.write_opb(model))
        perm = [2, 0, 3, 1]
        x = {f"x{i * 4 + k + 1}": int(perm[i] == k) for i in range(4) for k in range(4)}
        self.assertEqual(mf.score(m, x)[1], [])


class PenaltyQubo(unittest.TestCase):
    def check(self, model, factor=2.0):
        n, Q, offset, P, slack = mf.penalty_qubo(model, factor)
        k = len(model.variables)
        self.assertEqual(n, k + slack)
        sign = -1 if model.sense == mf.MAX else 1
        for x in assignments(model):
            bits = [x[v] for v in model.variables]
            best = min(mf.qubo_energy(Q, offset, bits + list(s)) for s in itertools.product((0, 1), repeat=slack))
            objective, broken, _ = mf.score(model, x)
            if broken:
                self.assertGreaterEqual(best, sign * objective + P - 1e-9)
            else:
                self.assertAlmostEqual(best, sign * objective)

    def test_knapsack_assignment_and_bisection(self):
        self.check(mf.read_opb(mf.write_opb(mi.opb_instance("qkp:8:0.5", 3)[1])))
        self.check(mf.read_opb(mf.write_opb(mi.opb_instance("qap:3", 3)[1])))
        self.check(mf.read_opb(mf.write_opb(mi.opb_instance("bisect:8", 3)[1])))
        self.check(mf.read_lp(mi.tsp_lp(mi.random_tsp(3, 1)[1])))

    def test_greater_equal_and_max(self):
        m = mf.Model("g", mf.MAX)
        for v in ("a", "b", "c", "d"):
            m.binary(v)
        m.add_objective(5, "a", "b")
        m.add_objective(-3, "c")
        m.add_objective(2, "d")
        m.add_constraint("ge", [(2, "a"), (3, "b"), (1, "c"), (-1, "d")], mf.GE, 2)
        m.add_constraint("le", [(1, "a"), (1, "b"), (1, "c")], mf.LE, 2)
        self.check(m)
        self.check(m, factor=0.5)

    def test_text(self):
        n, Q, offset, P, slack = mf.penalty_qubo(mf.read_opb("min: +1 x1 x2 ;\n+1 x1 +1 x2 = 1 ;\n"), 2)
        self.assertEqual((n, P, slack, offset), (2, 2.0, 0, 2.0))
        self.assertEqual(mf.qubo_text(n, Q, offset), "2 3 2\n0 0 -2\n0 1 5\n1 1 -2\n")


class Milp(unittest.TestCase):
    def test_linearization_keeps_the_objective_on_feasible_points(self):
        model = mf.read_opb(mf.write_opb(mi.opb_instance("qkp:6:0.6", 4)[1]))
        lin = mf.read_lp(mf.linearized_lp(model))
        self.assertTrue(all(len(k) <= 1 for k in lin.objective))
        for x in assignments(model):
            y = dict(x)
            for name in lin.variables[len(model.variables):]:
                _, i, j = name.split("_")
                y[name] = x[model.variables[int(i)]] * x[model.variables[int(j)]]
            self.assertEqual(mf.score(lin, y)[:2], mf.score(model, x)[:2])

    def test_cbc_solution_file(self):
        status, objective, values = mi.parse_cbc_solution(
            "Stopped on time - objective value -1234.00000000\n"
            "      0 x1                     1                       0\n"
            "      7 x8                     1                     -12\n"
            "**   9 y_0_7                  1                       0\n")
        self.assertEqual((status, objective), ("Stopped on time", -1234.0))
        self.assertEqual(values, {"x1": 1.0, "x8": 1.0, "y_0_7": 1.0})
        status, _, _ = mi.parse_cbc_solution(
            "Stopped on time (no integer solution - continuous used) - objective value 254.00000000\n"
            "      0 x1                    0.5                      -0\n")
        self.assertTrue(mb.cbc_found_nothing(status))
        self.assertFalse(mb.cbc_found_nothing("Stopped on time"))
        self.assertTrue(mb.cbc_found_nothing("Integer infeasible"))
        self.assertFalse(mb.cbc_found_nothing("Optimal", "Optimal solution found"))
        line = ("Cbc0012I Integer solution of 2916 found by DiveCoefficient after 75 iterations and 0 nodes "
                "(0.52 seconds)")
        self.assertEqual(mb.CBC_INCUMBENT.findall(line), [("2916", "0.52")])


class Tsplib(unittest.TestCase):
    def test_euc_2d_att_geo_and_explicit(self):
        coords = "NODE_COORD_SECTION\n1 0 0\n2 3 0\n3 3 4\n4 0 4\nEOF\n"
        name, D, kind = mi.read_tsplib("NAME : sq4\nTYPE : TSP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EUC_2D\n" + coords)
        self.assertEqual((name, kind, D), ("sq4", "EUC_2D", mi.euclidean_matrix(mi.FOUR_CITY_POINTS)))
        _, D, _ = mi.read_tsplib("NAME: a\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: ATT\n" + coords)
        self.assertEqual(D[0][2], 2)   # sqrt(25 / 10) = 1.58 -> nint 2, not below r
        self.assertEqual(D[0][1], 1)   # sqrt(0.9) = 0.95 -> 1
        _, D, _ = mi.read_tsplib("NAME: g\nTYPE: TSP\nDIMENSION: 2\nEDGE_WEIGHT_TYPE: GEO\n"
                                 "NODE_COORD_SECTION\n1 0.00 0.00\n2 1.00 0.00\nEOF\n")
        self.assertEqual(D[0][1], 112)  # one degree of latitude: 111.3 km, +1 truncated
        _, D, _ = mi.read_tsplib("NAME: e\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\n"
                                 "EDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n5 7\n9\nEOF\n")
        self.assertEqual(D, [[0, 5, 7], [5, 0, 9], [7, 9, 0]])
        _, D2, _ = mi.read_tsplib("NAME: f\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\n"
                                  "EDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 5 7\n5 0 9\n7 9 0\nEOF\n")
        self.assertEqual(D2, D)


class Targets(unittest.TestCase):
    def test_exact_values_stay_and_heuristic_ones_improve(self):
        t = {}
        mi.merge_target(t, "a", 10, "best-of-runs", mf.MIN)
        mi.merge_target(t, "a", 12, "best-of-runs", mf.MIN)
        self.assertEqual(t["a"], {"value": 10, "source": "best-of-runs"})
        mi.merge_target(t, "a", 11, "held-karp", mf.MIN)
        mi.merge_target(t, "a", 9, "best-of-runs", mf.MIN)
        self.assertEqual(t["a"], {"value": 11, "source": "held-karp"})
        mi.merge_target(t, "b", -5, "cbc-60s-feasible", mf.MIN)
        mi.merge_target(t, "b", -7, "best-of-runs", mf.MIN)
        self.assertEqual(t["b"]["value"], -7)

    def test_gap(self):
        self.assertEqual(mf.gap_percent(mf.MIN, 110, 100), 10.0)
        self.assertEqual(mf.gap_percent(mf.MIN, -90, -100), 10.0)
        self.assertEqual(mf.gap_percent(mf.MAX, 90, 100), 10.0)
        self.assertEqual(mf.gap_percent(mf.MIN, 95, 100), -5.0)
        self.assertEqual(mf.gap_percent(mf.MAX, 100, 100), 0.0)
        self.assertTrue(mf.reaches(mf.MIN, -100, -100))
        self.assertFalse(mf.reaches(mf.MIN, -99, -100))


class TargetStop(unittest.TestCase):
    def test_exact_targets_only_by_default(self):
        self.assertTrue(mb.stops_at("exact", "held-karp"))
        self.assertTrue(mb.stops_at("exact", "cbc-60s-optimal"))
        self.assertFalse(mb.stops_at("exact", "cbc-60s-feasible"))
        self.assertFalse(mb.stops_at("exact", "best-of-runs"))
        self.assertTrue(mb.stops_at("any", "best-of-runs"))
        self.assertFalse(mb.stops_at("none", "held-karp"))
        self.assertFalse(mb.stops_at("any", None))


class QsolveOutput(unittest.TestCase):
    def test_last_json_line_and_the_board(self):
        out = ('{"header": {"seed": "1"}}\n{"sample": {"energy": 3}}\n'
               '{"feasible": true, "objective": 14, "assignment": {"x_0_0": 1, "x_0_1": 0}, '
               '"violations": [], "termination": "TARGET_REACHED", '
               '"timings": {"total_seconds": 0.5, "queue_seconds": 0.1}}\n')
        last = mb.last_json(out)
        self.assertEqual(last["objective"], 14)
        self.assertAlmostEqual(mb.server_seconds(last), 0.4)
        self.assertEqual(mb.board_text({"b": 1, "a": 0}), "b=1 a=0")

    def test_the_runs_best_as_the_reference(self):
        rows = [{"instance": "a", "method": "service", "sense": mf.MIN, "feasible": True, "objective": 10,
                 "target": None},
                {"instance": "a", "method": "qubo", "sense": mf.MIN, "feasible": True, "objective": 12,
                 "target": None},
                {"instance": "a", "method": "cbc", "sense": mf.MIN, "feasible": False, "objective": None,
                 "target": None}]
        mb.run_best_as_target(rows)
        self.assertEqual([r["target"] for r in rows], [10, 10, 10])
        self.assertEqual(rows[1]["target_source"], "best-of-this-run")
        self.assertEqual((rows[0]["at_target"], rows[1]["at_target"], rows[1]["gap_percent"]), (True, False, 20.0))
        self.assertNotIn("gap_percent", rows[2])

    def test_summary(self):
        rows = [
            {"method": "service", "feasible": True, "at_target": True, "gap_percent": 0.0, "time_s": 1.0,
             "target": 5},
            {"method": "service", "feasible": True, "at_target": False, "gap_percent": 4.0, "time_s": 3.0,
             "target": 5},
            {"method": "service", "feasible": False, "at_target": False, "gap_percent": None, "time_s": 20.0,
             "target": 5},
        ]
        s = mb.summarize(rows)["service"]
        self.assertEqual((s["instances"], s["feasible"], s["with_target"], s["at_target"]), (3, 2, 3, 1))
        self.assertEqual(s["median_gap_percent"], 2.0)
        self.assertEqual(s["median_time_to_target_s"], 1.0)


if __name__ == "__main__":
    unittest.main()
