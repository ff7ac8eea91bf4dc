"""qsolver.Model without a server: variables and arrays, the expression algebra (coefficients merge,
powers that the domain makes trivial), the ConstrainedModel it builds, its LP text, evaluate(), the
requests and results of solve_model, and from_dimod_cqm against dimod_standin's ConstrainedQuadraticModel
(and the real dimod where it is installed)."""
import itertools
import math
import sys

import numpy as np
import pytest
import qsolver
from qsolver import model_pb2, puzzles_pb2, qubo_pb2, solve_pb2
from qsolver._requests import model_request, text_sense
from qsolver._results import ModelResult, SolveResult


def terms_of(polynomial):
    """{tuple of variable indices: coefficient} of a ModelPolynomial."""
    return {tuple(t.variables): t.coefficient for t in polynomial.terms}


def test_variables_and_arrays():
    m = qsolver.Model("t")
    x = m.binary_array("x", (3, 4))
    assert x.shape == (3, 4)
    assert x[0, 1].name == "x_0_1" and x[2, 3].name == "x_2_3"
    assert [v.name for v in x[1]] == ["x_1_0", "x_1_1", "x_1_2", "x_1_3"]
    assert [v.name for v in x[:, 2]] == ["x_0_2", "x_1_2", "x_2_2"]
    assert [len(row) for row in x] == [4, 4, 4]
    y = m.binary_array("y", 2)
    assert [v.name for v in y] == ["y_0", "y_1"]
    n = m.integer("n", lower=-2, upper=10)
    s = m.spin("s")
    assert (n.type, n.lower, n.upper, s.type) == ("integer", -2, 10, "spin")
    assert [v.index for v in m.variables] == list(range(16))
    assert m.variable("x_2_3") is x[2, 3] and "n" in m and "zz" not in m
    ints = m.integer_array("k", (2,), lower=0, upper=3)
    assert [(v.name, v.upper) for v in ints] == [("k_0", 3), ("k_1", 3)]


def test_variable_errors():
    m = qsolver.Model()
    m.binary("x")
    with pytest.raises(ValueError, match="'x' already exists"):
        m.spin("x")
    with pytest.raises(ValueError, match="non-empty string"):
        m.binary("a b")
    with pytest.raises(TypeError, match="upper bound"):
        m.integer("n")
    with pytest.raises(ValueError, match="below lower bound"):
        m.integer("n", lower=3, upper=2)
    with pytest.raises(ValueError, match="at most 2\\^20"):
        m.integer("n", lower=0, upper=(1 << 20) + 1)
    with pytest.raises(TypeError, match="must be an integer"):
        m.integer("n", lower=0, upper=2.5)
    with pytest.raises(ValueError, match="sense"):
        qsolver.Model(sense="up")
    with pytest.raises(ValueError, match="integer_encoding"):
        m.integer_encoding = "gray"
    with pytest.raises(ValueError, match="inequality"):
        m.inequality = "log"


def test_coefficients_merge_and_trivial_powers():
    m = qsolver.Model()
    x, y = m.binary("x"), m.binary("y")
    s = m.spin("s")
    n = m.integer("n", upper=5)
    e = 2 * x + x - 3 * y + y * x + 4 + x * y - 1
    assert e.terms == {(0,): 3.0, (1,): -3.0, (0, 1): 2.0} and e.constant == 3.0
    # x*x is x for a binary, s*s is 1 for a spin, n*n stays n^2.
    assert (x * x + x).terms == {(0,): 2.0}
    assert (s * s).terms == {} and (s * s).constant == 1.0
    assert (s * s * s).terms == {(2,): 1.0}
    assert (n * n).terms == {(3, 3): 1.0} and (n ** 2).terms == {(3, 3): 1.0}
    assert (x - x).terms == {} and (x - x).constant == 0.0
    # Products of sums distribute; higher degrees stay.
    assert ((x + 1) * (y - 2)).terms == {(0, 1): 1.0, (0,): -2.0, (1,): 1.0}
    assert ((x + 1) * (y - 2)).constant == -2.0
    assert (x * y * n).terms == {(0, 1, 3): 1.0} and (x * y * n).degree == 3
    assert (5 - x).terms == {(0,): -1.0} and (5 - x).constant == 5.0
    assert (-(x + 2)).constant == -2.0 and ((x + 2) / 2).terms == {(0,): 0.5}
    assert (np.float64(2.0) * x).terms == {(0,): 2.0} and (x * np.int64(3)).terms == {(0,): 3.0}
    # sum() starts from 0 (__radd__); quicksum builds the same in place.
    xs = m.binary_array("z", 4)
    assert sum(xs).terms == qsolver.quicksum(xs).terms == {(k,): 1.0 for k in range(4, 8)}
    assert qsolver.quicksum([2, x, 3 * y, x * y]).terms == {(0,): 1.0, (1,): 3.0, (0, 1): 1.0}
    assert qsolver.quicksum([2, x, 3]).constant == 5.0
    assert xs.sum().terms == sum(xs).terms


def test_mixing_models_and_bad_operands():
    a, b = qsolver.Model(), qsolver.Model()
    x, y = a.binary("x"), b.binary("y")
    with pytest.raises(ValueError, match="two models"):
        x + y
    with pytest.raises(ValueError, match="two models"):
        qsolver.quicksum([x, y])
    with pytest.raises(TypeError):
        x + "1"
    with pytest.raises(ValueError, match="not finite"):
        x * math.inf
    with pytest.raises(ValueError, match="another model"):
        b.add(x <= 1)


def test_comparisons_make_constraints():
    m = qsolver.Model()
    x, y = m.binary("x"), m.binary("y")
    c = x + 2 * y + 1 <= 3
    assert isinstance(c, qsolver.Constraint)
    assert (c.sense, c.lhs.terms, c.rhs) == ("<=", {(0,): 1.0, (1,): 2.0}, 2.0)
    c = 3 >= x  # reflected: x <= 3
    assert (c.sense, c.lhs.terms, c.rhs) == ("<=", {(0,): 1.0}, 3.0)
    c = x == y
    assert (c.sense, c.lhs.terms, c.rhs) == ("==", {(0,): 1.0, (1,): -1.0}, 0.0)
    c = x * y >= x - 1
    assert (c.sense, c.lhs.terms, c.rhs) == (">=", {(0, 1): 1.0, (0,): -1.0}, -1.0)
    # == between different variables is false as a bool, so lists and dicts of variables work.
    assert x in [y, x] and x not in [y]
    assert {x: 1, y: 2}[y] == 2
    with pytest.raises(TypeError, match="no truth value"):
        bool(x <= y)


def test_constraints_names_penalties_and_one_hot():
    m = qsolver.Model()
    x = m.binary_array("x", 3)
    n = m.integer("n", upper=4)
    first = m.add(x[0] + x[1] <= 1)
    assert first.name == "c0"
    named = m.add_constraint(n - x[2] >= 1, name="cap", penalty=5)
    assert (named.name, named.penalty) == ("cap", 5.0)
    group = m.one_hot(x, name="pick", at_most_one=True)
    assert [v.name for v in group.variables] == ["x_0", "x_1", "x_2"] and group.at_most_one
    assert m.add(x[2] == 1).name == "c3"
    with pytest.raises(ValueError, match="'cap' already exists"):
        m.add(x[0] <= 1, name="cap")
    with pytest.raises(ValueError, match="no variables"):
        m.add(x[0] - x[0] <= 1)
    with pytest.raises(TypeError, match="comparison"):
        m.add(x[0] + x[1])
    with pytest.raises(ValueError, match="is integer, not binary"):
        m.one_hot([x[0], n])
    with pytest.raises(ValueError, match="twice"):
        m.one_hot([x[0], x[0]])
    with pytest.raises(ValueError, match="must be > 0"):
        m.add(x[0] <= 1, penalty=0)
    assert [c.name for c in m.constraints] == ["c0", "cap", "c3"]
    assert [g.name for g in m.one_hot_groups] == ["pick"]


def small_model():
    """The model of the LP and proto tests: binaries x, y, an integer n in -1..3, a quadratic objective with
    a constant, a linear and a quadratic constraint, a one-hot pair."""
    m = qsolver.Model("small", sense="min")
    x, y, z = m.binary("x"), m.binary("y"), m.binary("z")
    n = m.integer("n", lower=-1, upper=3)
    m.minimize(2 * x - y + 3 * x * y - 0.5 * n * n + 4)
    m.add(x + y + n <= 2, name="cap")
    m.add(x * z - 2 * y >= -1, name="q", penalty=10)
    m.one_hot([y, z], name="pair")
    return m


def test_to_proto():
    m = small_model()
    m.integer_encoding = "unary"
    m.inequality = "unbalanced"
    m.penalty = 7
    proto = m.to_proto()
    assert isinstance(proto, model_pb2.ConstrainedModel)
    assert proto.text == "" and proto.name == "small" and proto.sense == qubo_pb2.MINIMIZE
    assert [(v.name, v.type) for v in proto.variables] == [
        ("x", model_pb2.MODEL_VARIABLE_BINARY), ("y", model_pb2.MODEL_VARIABLE_BINARY),
        ("z", model_pb2.MODEL_VARIABLE_BINARY), ("n", model_pb2.MODEL_VARIABLE_INTEGER)]
    assert (proto.variables[3].lower, proto.variables[3].upper) == (-1, 3)
    assert terms_of(proto.objective) == {(0,): 2.0, (1,): -1.0, (0, 1): 3.0, (3, 3): -0.5}
    assert proto.objective.constant == 4.0
    cap, q = proto.constraints
    assert (cap.name, cap.sense, cap.rhs, cap.HasField("penalty")) == ("cap", model_pb2.CONSTRAINT_LESS_EQUAL,
                                                                        2.0, False)
    assert terms_of(cap.lhs) == {(0,): 1.0, (1,): 1.0, (3,): 1.0}
    assert (q.name, q.sense, q.rhs, q.penalty) == ("q", model_pb2.CONSTRAINT_GREATER_EQUAL, -1.0, 10.0)
    assert terms_of(q.lhs) == {(0, 2): 1.0, (1,): -2.0}
    (pair,) = proto.one_hot
    assert (pair.name, list(pair.variables), pair.at_most_one, pair.HasField("penalty")) == ("pair", [1, 2],
                                                                                             False, False)
    assert proto.integer_encoding == model_pb2.INTEGER_ENCODING_UNARY
    assert proto.inequality == model_pb2.INEQUALITY_UNBALANCED
    assert proto.penalty == 7.0
    # Defaults: the service chooses.
    plain = qsolver.Model().to_proto()
    assert plain.sense == qubo_pb2.MINIMIZE and not plain.HasField("penalty")
    assert plain.integer_encoding == model_pb2.INTEGER_ENCODING_DEFAULT
    assert plain.inequality == model_pb2.INEQUALITY_DEFAULT
    # A spin and a cubic term are carried as they are.
    m = qsolver.Model(sense="max")
    a, b, s = m.binary("a"), m.binary("b"), m.spin("s")
    m.maximize(a * b * s)
    proto = m.to_proto()
    assert proto.sense == qubo_pb2.MAXIMIZE and terms_of(proto.objective) == {(0, 1, 2): 1.0}
    assert proto.variables[2].type == model_pb2.MODEL_VARIABLE_SPIN


SMALL_LP = """\\ Model small
Minimize
 obj: 2 x - y + [ 6 x * y - n ^ 2 ] / 2 + 4
Subject To
 cap: x + y + n <= 2
 q: - 2 y + [ x * z ] >= -1
 pair: y + z = 1
Bounds
 -1 <= n <= 3
Binary
 x y z
General
 n
End
"""


def test_to_lp():
    assert small_model().to_lp() == SMALL_LP
    m = qsolver.Model("k", sense="max")
    x = m.binary_array("x", 2)
    m.maximize(x[0] + 0.25 * x[1])
    m.add(x[0] + x[1] == 1, name="one")
    m.one_hot(x, name="most", at_most_one=True)
    assert m.to_lp() == ("\\ Model k\nMaximize\n obj: x_0 + 0.25 x_1\nSubject To\n one: x_0 + x_1 = 1\n"
                         " most: x_0 + x_1 <= 1\nBinary\n x_0 x_1\nEnd\n")


def test_to_lp_wraps_long_lines():
    m = qsolver.Model("wide")
    x = m.binary_array("a_rather_long_variable_name", 60)
    m.minimize(qsolver.quicksum(x))
    m.add(qsolver.quicksum(x) <= 3, name="cap")
    text = m.to_lp()
    assert max(len(line) for line in text.splitlines()) <= 255
    cap = text[text.index(" cap:"):text.index("Binary")]
    assert cap.rstrip().endswith("<= 3") and cap.count("+") == 59
    assert text.split("Binary\n")[1].split()[:-1] == [v.name for v in x]


def test_to_lp_refusals():
    m = qsolver.Model()
    a, b, c = m.binary("a"), m.binary("b"), m.binary("c")
    m.minimize(a * b * c)
    with pytest.raises(ValueError, match="the term a \\* b \\* c has degree 3"):
        m.to_lp()
    assert terms_of(m.to_proto().objective) == {(0, 1, 2): 1.0}
    m = qsolver.Model()
    m.spin("s")
    with pytest.raises(ValueError, match="spin"):
        m.to_lp()
    for bad in ("e1", "E", "2x", "x[0,1]", "st", "end"):
        m = qsolver.Model()
        m.binary(bad)
        with pytest.raises(ValueError, match="cannot be written in LP"):
            m.to_lp()
    m = qsolver.Model()
    x = m.binary("x")
    m.add(x <= 1, name="Bounds")
    with pytest.raises(ValueError, match="constraint name 'Bounds'"):
        m.to_lp()


def test_evaluate():
    m = small_model()
    x, y, z, n = m.variables
    # x=1 y=0 z=1 n=1: objective 2 - 0.5 + 4; cap 2 <= 2 holds; q 1 >= -1 holds; pair 0 + 1 = 1 holds.
    assert m.evaluate({"x": 1, "y": 0, "z": 1, "n": 1}) == (5.5, True, [])
    objective, feasible, broken = m.evaluate({x: 1, y: 1, z: 1, n: 3})
    assert objective == pytest.approx(2 - 1 + 3 - 4.5 + 4)
    assert not feasible and broken == ["cap", "pair"]
    result = m.evaluate({"x": 0, "y": 1, "z": 0, "n": 3})
    assert (result.feasible, result.violations) == (False, ["cap", "q"])
    with pytest.raises(ValueError, match="no value for variable 'n'"):
        m.evaluate({"x": 1, "y": 0, "z": 1})
    with pytest.raises(ValueError, match="not 0 or 1"):
        m.evaluate({"x": 2, "y": 0, "z": 1, "n": 0})
    with pytest.raises(ValueError, match="outside -1..3"):
        m.evaluate({"x": 1, "y": 0, "z": 1, "n": 4})
    with pytest.raises(ValueError, match="no variable named 'w'"):
        m.evaluate({"x": 1, "y": 0, "z": 1, "n": 0, "w": 1})
    spins = qsolver.Model()
    s, t = spins.spin("s"), spins.spin("t")
    spins.minimize(s * t)
    spins.add(s + t == 0, name="opposite")
    assert spins.evaluate({"s": 1, "t": -1}) == (-1, True, [])
    assert spins.evaluate({"s": 1, "t": 1}) == (1, False, ["opposite"])
    with pytest.raises(ValueError, match="not -1 or \\+1"):
        spins.evaluate({"s": 0, "t": 1})


def test_evaluate_matches_the_proto_by_brute_force():
    """evaluate() is the model the proto describes: every assignment of a random small model, scored
    from the proto's terms independently."""
    rng = np.random.default_rng(5)
    m = qsolver.Model()
    xs = list(m.binary_array("x", 4))
    n = m.integer("n", lower=-1, upper=2)
    every = xs + [n]
    m.minimize(qsolver.quicksum(float(rng.integers(-3, 4)) * u * v for u, v in itertools.combinations(every, 2))
               + qsolver.quicksum(float(rng.integers(-3, 4)) * u for u in every) + 1.5)
    m.add(qsolver.quicksum(xs) + n <= 2, name="c")
    proto = m.to_proto()

    def value(polynomial, values):
        return polynomial.constant + sum(t.coefficient * math.prod(values[i] for i in t.variables)
                                         for t in polynomial.terms)

    for bits in itertools.product((0, 1), repeat=4):
        for k in range(-1, 3):
            values = list(bits) + [k]
            objective, feasible, broken = m.evaluate(dict(zip((v.name for v in every), values)))
            assert objective == pytest.approx(value(proto.objective, values))
            assert feasible == (value(proto.constraints[0].lhs, values) <= 2)
            assert broken == ([] if feasible else ["c"])


def test_solve_model_request():
    m = small_model()
    spec, params = model_request(m, {"seed": 3}, time_limit=2.5, target_objective=5.5)
    assert isinstance(spec, puzzles_pb2.PuzzleSpec) and spec.WhichOneof("puzzle") == "model"
    assert spec.model == m.to_proto()
    assert params == {"seed": 3, "time_limit_seconds": 2.5, "target_energy": 5.5, "stop_at_first_valid": True}
    m.sense = "max"
    _, params = model_request(m, {}, target_objective=5.5)
    assert params == {"target_energy": -5.5, "stop_at_first_valid": True}
    _, params = model_request(m, {"stop_at_first_valid": False}, target_objective=1)
    assert params["stop_at_first_valid"] is False
    # Texts: the format names the enum; the target's sign follows the text's own sense line.
    spec, params = model_request("Maximize\n obj: x\nSubject To\n c: x <= 1\nBinary\n x\nEnd\n", {},
                                 format="lp", target_objective=1, integer_encoding="binary",
                                 inequality="slack", penalty=3)
    assert spec.model.text.startswith("Maximize") and spec.model.format == model_pb2.MODEL_FORMAT_LP
    assert spec.model.integer_encoding == model_pb2.INTEGER_ENCODING_BINARY
    assert spec.model.inequality == model_pb2.INEQUALITY_SLACK and spec.model.penalty == 3
    assert params["target_energy"] == -1
    spec, _ = model_request("* opb\nmin: +1 x1 ;\n", {})
    assert spec.model.format == model_pb2.MODEL_FORMAT_UNSPECIFIED
    assert text_sense("* #variable= 2\nmin: +1 x1 -1 x2 ;\n") == "min"
    assert text_sense("\\ comment\n\nMAXIMIZE\n obj: x\n") == "max"
    assert text_sense("example\nQBL\nmaximize\n3\n") == "max"
    assert text_sense("x + y\n") is None
    with pytest.raises(ValueError, match="give sense="):
        model_request("x\ny\n", {}, format="qplib", target_objective=1)
    _, params = model_request("x\ny\n", {}, format="qplib", target_objective=1, sense="max")
    assert params["target_energy"] == -1
    # A ConstrainedModel is sent as it is (a copy); its sense gives the target's sign.
    proto = m.to_proto()
    spec, params = model_request(proto, {}, target_objective=2)
    assert spec.model == proto and spec.model is not proto and params["target_energy"] == -2
    with pytest.raises(ValueError, match="format"):
        model_request("Minimize\nEnd\n", {}, format="mps")
    with pytest.raises(TypeError, match="only for a model given as text"):
        model_request(m, {}, format="lp")
    with pytest.raises(TypeError, match="expected a qsolver.Model"):
        model_request(42, {})
    with pytest.raises(ValueError, match="integer_encoding"):
        model_request(m, {}, integer_encoding="gray")


def model_summary(names, cells, objective=None, valid=True, violations=()):
    summary = solve_pb2.SolveSummary(reads_done=4, best_valid=valid, best_energy=-1.0)
    summary.best_solution.names.extend(names)
    summary.best_solution.cells.extend(cells)
    if objective is not None:
        summary.best_solution.objective = objective
    for name, amount in violations:
        summary.best_violations.add(rule="constraint", location=name, message=f"{name} misses by {amount}",
                                    amount=amount)
    return summary


def test_model_result():
    summary = model_summary(["x", "n", "s"], [1, 7, -1], objective=12.5)
    result = ModelResult(SolveResult(solve_pb2.CompileStats(), summary))
    assert result.feasible and result.objective == 12.5
    assert result.assignment == {"x": 1, "n": 7, "s": -1} and result.violations == []
    summary = model_summary(["x", "y"], [1, 1], objective=3, valid=False, violations=[("cap", 1.0)])
    result = ModelResult(SolveResult(solve_pb2.CompileStats(), summary))
    assert not result.feasible and result.violations == ["cap"] and result.amounts == {"cap": 1.0}
    # No names from the server: the model's names, in order.
    summary = model_summary([], [0, 1])
    result = ModelResult(SolveResult(solve_pb2.CompileStats(), summary), ["a", "b"])
    assert result.assignment == {"a": 0, "b": 1} and result.objective is None
    assert "feasible=True" in repr(result)


@pytest.fixture
def standin_dimod(monkeypatch):
    import dimod_standin

    return dimod_standin.install(monkeypatch)


def standin_cqm(dimod):
    cqm = dimod.ConstrainedQuadraticModel()
    for label in ("a", "b", "c"):
        cqm.add_variable("BINARY", label)
    cqm.add_variable("SPIN", "s")
    cqm.add_variable("INTEGER", 7, lower_bound=-2, upper_bound=5)
    cqm.add_variable("BINARY", (0, 1))
    cqm.set_objective({"a": 1.5, "s": -1.0, 7: 2.0}, {("a", "b"): -3.0, (7, 7): 0.5, ("s", (0, 1)): 1.0},
                      offset=2.0)
    cqm.add_constraint("cap", {"a": 1.0, "b": 2.0, 7: 1.0}, "<=", 4.0, offset=1.0)
    cqm.add_constraint(("q", 1), {"c": -1.0}, ">=", -2.0, quadratic={("a", "c"): 2.0})
    cqm.add_constraint("eq", {"s": 1.0, 7: 1.0}, "==", 0.0)
    cqm.add_discrete("pick", ["a", "b", "c"])
    return cqm


def test_from_dimod_cqm(standin_dimod):
    m = qsolver.from_dimod_cqm(standin_cqm(standin_dimod), name="cqm")
    assert [(v.name, v.type) for v in m.variables] == [("a", "binary"), ("b", "binary"), ("c", "binary"),
                                                        ("s", "spin"), ("v7", "integer"), ("v_0_1", "binary")]
    assert (m.variable("v7").lower, m.variable("v7").upper) == (-2, 5)
    assert m.dimod_labels["v7"] == 7 and m.dimod_labels["v_0_1"] == (0, 1)
    assert m.sense == "min"
    proto = m.to_proto()
    assert terms_of(proto.objective) == {(0,): 1.5, (3,): -1.0, (4,): 2.0, (0, 1): -3.0, (4, 4): 0.5,
                                         (3, 5): 1.0}
    assert proto.objective.constant == 2.0
    cap, q, eq = proto.constraints
    # The lhs offset moves to the right-hand side: a + 2 b + n + 1 <= 4 is a + 2 b + n <= 3.
    assert (cap.name, cap.sense, cap.rhs) == ("cap", model_pb2.CONSTRAINT_LESS_EQUAL, 3.0)
    assert terms_of(cap.lhs) == {(0,): 1.0, (1,): 2.0, (4,): 1.0}
    assert (q.name, q.sense, q.rhs) == ("v_q_1", model_pb2.CONSTRAINT_GREATER_EQUAL, -2.0)
    assert terms_of(q.lhs) == {(2,): -1.0, (0, 2): 2.0} and m.dimod_labels["v_q_1"] == ("q", 1)
    assert (eq.name, eq.sense, eq.rhs) == ("eq", model_pb2.CONSTRAINT_EQUAL, 0.0)
    (pick,) = proto.one_hot
    assert (pick.name, list(pick.variables), pick.at_most_one) == ("pick", [0, 1, 2], False)
    # The objective is the CQM's own at every assignment.
    assert m.evaluate({"a": 1, "b": 1, "c": 0, "s": -1, "v7": 3, "v_0_1": 1}).objective == pytest.approx(
        2.0 + 1.5 + 1.0 + 6.0 - 3.0 + 4.5 - 1.0)


def test_from_dimod_cqm_refuses_real_variables(standin_dimod):
    cqm = standin_dimod.ConstrainedQuadraticModel()
    cqm.add_variable("REAL", "r", lower_bound=0, upper_bound=1)
    with pytest.raises(ValueError, match="REAL variables are not supported"):
        qsolver.from_dimod_cqm(cqm)


def test_from_dimod_cqm_without_dimod(monkeypatch):
    monkeypatch.setitem(sys.modules, "dimod", None)  # import dimod raises ImportError
    with pytest.raises(ImportError, match="needs dimod"):
        qsolver.from_dimod_cqm(object())


def test_from_real_dimod_cqm():
    dimod = pytest.importorskip("dimod")
    cqm = dimod.ConstrainedQuadraticModel()
    x = [dimod.Binary(f"x{k}") for k in range(3)]
    n = dimod.Integer("n", lower_bound=0, upper_bound=4)
    cqm.set_objective(x[0] + 2 * x[1] - x[0] * x[2] + n)
    cqm.add_constraint(x[0] + x[1] + n <= 3, label="cap")
    cqm.add_discrete(["x0", "x1", "x2"], label="pick")
    m = qsolver.from_dimod_cqm(cqm)
    assert [v.name for v in m.variables] == ["x0", "x1", "x2", "n"]
    assert [c.name for c in m.constraints] == ["cap"] and [g.name for g in m.one_hot_groups] == ["pick"]
    for bits in itertools.product((0, 1), repeat=3):
        for k in range(5):
            sample = {"x0": bits[0], "x1": bits[1], "x2": bits[2], "n": k}
            objective, feasible, _ = m.evaluate(sample)
            assert objective == pytest.approx(cqm.objective.energy(sample))
            assert feasible == cqm.check_feasible(sample)
