"""Client.solve_model against a real server: a 4-city TSP written with qsolver.Model solves to a tour that is
feasible and optimal (checked by brute force over the permutations), as a structured model, as its LP
text and as a ConstrainedModel; a maximised model with an integer reaches its target; the answer names
the variables and the objective agrees with the local evaluate()."""
import itertools

import pytest
import qsolver

# Symmetric distances of 4 cities; the three tours are 14, 21 and 25 long.
DISTANCES = [[0, 2, 9, 5],
             [2, 0, 4, 7],
             [9, 4, 0, 3],
             [5, 7, 3, 0]]
N = len(DISTANCES)


def tour_length(order):
    return sum(DISTANCES[order[k]][order[(k + 1) % N]] for k in range(N))


BEST = min(tour_length(order) for order in itertools.permutations(range(N)))


def tsp_model():
    """x[i, p] = 1: city i is the p-th visited. Each city once, each position once; the length is the sum of
    the distances between consecutive positions (the tour closes)."""
    m = qsolver.Model("tsp", sense="min")
    x = m.binary_array("x", (N, N))
    for i in range(N):
        m.one_hot(x[i], name=f"city_{i}")
    for p in range(N):
        m.add(qsolver.quicksum(x[:, p]) == 1, name=f"position_{p}")
    m.minimize(qsolver.quicksum(DISTANCES[i][j] * x[i, p] * x[j, (p + 1) % N]
                                for i in range(N) for j in range(N) if i != j for p in range(N)))
    return m, x


def order_of(assignment, x):
    """The cities in visiting order, from a feasible assignment."""
    return [next(i for i in range(N) if assignment[x[i, p].name] == 1) for p in range(N)]


def check_tour(m, x, result):
    assert result.feasible, result
    assert result.violations == []
    assert set(result.assignment) == {v.name for v in m.variables}
    assert set(result.assignment.values()) <= {0, 1}
    order = order_of(result.assignment, x)
    assert sorted(order) == list(range(N))
    assert tour_length(order) == BEST
    assert result.objective == pytest.approx(BEST)
    assert m.evaluate(result.assignment) == (pytest.approx(BEST), True, [])


def test_tsp_is_solved_to_optimality(client):
    m, x = tsp_model()
    result = client.solve_model(m, time_limit=20, target_objective=BEST, seed=1)
    check_tour(m, x, result)
    assert result.termination in ("TARGET_REACHED", "COMPLETED")  # the target, or a backend that proves it
    assert result.result.summary.best_solution.names[:2] == ["x_0_0", "x_0_1"]


def test_tsp_as_lp_text_and_as_a_message(client):
    m, x = tsp_model()
    check_tour(m, x, client.solve_model(m.to_lp(), format="lp", time_limit=20, target_objective=BEST, seed=2))
    check_tour(m, x, client.solve_model(m.to_proto(), time_limit=20, target_objective=BEST, seed=3))


def test_maximised_model_with_an_integer(client):
    # max 3 a + 2 b + n - a b  with  a + b + n <= 4, n in 0..3, at least one of a, b.
    m = qsolver.Model("mix", sense="max")
    a, b = m.binary("a"), m.binary("b")
    n = m.integer("n", lower=0, upper=3)
    m.maximize(3 * a + 2 * b + n - a * b)
    m.add(a + b + n <= 4, name="budget")
    m.add(a + b >= 1, name="some")
    best = max(m.evaluate({"a": p, "b": q, "n": k}).objective
               for p, q, k in itertools.product((0, 1), (0, 1), range(4))
               if m.evaluate({"a": p, "b": q, "n": k}).feasible)
    result = client.solve_model(m, time_limit=20, target_objective=best, seed=4)
    assert result.feasible and result.objective == pytest.approx(best)
    assert m.evaluate(result.assignment) == (pytest.approx(best), True, [])
    assert 0 <= result.assignment["n"] <= 3
