"""qsolver.Sampler against a real server: QUBO and Ising round trips whose energies are the model's own,
labels of any hashable type, the dimod-style reading surface of the sample set."""
import itertools
import types

import numpy as np
import pytest
import qsolver


def qubo_energy(Q, sample):
    return sum(bias * sample[u] * sample[v] for (u, v), bias in Q.items())


def ising_energy(h, J, sample):
    return sum(b * sample[v] for v, b in h.items()) + sum(b * sample[u] * sample[v] for (u, v), b in J.items())


# Labels of several hashable types; a frustrated triangle plus a pendant, ground energy -2 at
# x = {"a": 1, "b": 0, (1, 2): 0, 7: 1} and its mirror images.
MIXED_QUBO = {("a", "a"): -1, ("b", "b"): -1, ((1, 2), (1, 2)): -1, ("a", "b"): 2, ("a", (1, 2)): 2,
              ("b", (1, 2)): 2, (7, 7): -1, (frozenset({3}), 7): 0.5}


def test_qubo_energies_are_the_models(sampler):
    sampleset = sampler.sample_qubo(MIXED_QUBO, backend="cpu-sa", num_reads=40, seed=7)
    assert set(sampleset.variables) == {"a", "b", (1, 2), 7, frozenset({3})}
    assert len(sampleset) == 40
    assert sampleset.record.sample.shape == (40, 5)
    for datum in sampleset.data():
        assert datum.energy == pytest.approx(qubo_energy(MIXED_QUBO, datum.sample), abs=1e-9)
        assert set(datum.sample.values()) <= {0, 1}
        assert datum.num_occurrences == 1
    assert sampleset.first.energy == pytest.approx(-2.0)
    assert sampleset.first.energy == sampleset.record.energy.min()


def test_qubo_ground_state_matches_brute_force(sampler):
    rng = np.random.default_rng(3)
    labels = [f"x{k}" for k in range(8)]
    Q = {(u, v): float(rng.integers(-5, 6)) for u, v in itertools.combinations_with_replacement(labels, 2)}
    best = min(qubo_energy(Q, dict(zip(labels, bits))) for bits in itertools.product((0, 1), repeat=8))
    sampleset = sampler.sample_qubo(Q, num_reads=50, num_sweeps=500, seed=11)
    assert sampleset.first.energy == pytest.approx(best)
    assert qubo_energy(Q, sampleset.first.sample) == pytest.approx(best)


def test_ising_round_trip(sampler):
    h = {"s0": 0.5, ("s", 1): -1.0, 2: 0.0}
    J = {("s0", ("s", 1)): -1.0, (("s", 1), 2): 1.5, ("s0", 2): -0.25}
    sampleset = sampler.sample_ising(h, J, num_reads=30, seed=5)
    assert sampleset.vartype in ("SPIN", getattr(sampleset.vartype, "SPIN", "SPIN"))
    for datum in sampleset.data():
        assert set(datum.sample.values()) <= {-1, 1}
        assert datum.energy == pytest.approx(ising_energy(h, J, datum.sample), abs=1e-9)
    best = min(ising_energy(h, J, dict(zip(h, spins))) for spins in itertools.product((-1, 1), repeat=3))
    assert sampleset.first.energy == pytest.approx(best)


def test_ising_with_list_fields(sampler):
    # Ground states: both spins down (-1 + 1 - 2) or both up (1 - 1 - 2).
    sampleset = sampler.sample_ising([1.0, -1.0], {(0, 1): -2.0}, num_reads=10, seed=1)
    assert sampleset.first.energy == pytest.approx(-2.0)
    assert sampleset.first.sample in ({0: -1, 1: -1}, {0: 1, 1: 1})


def test_same_seed_same_samples(sampler):
    first = sampler.sample_qubo(MIXED_QUBO, backend="cpu-sa", num_reads=20, seed=42)
    second = sampler.sample_qubo(MIXED_QUBO, backend="cpu-sa", num_reads=20, seed=42)
    assert np.array_equal(first.record.sample, second.record.sample)
    assert np.array_equal(first.record.energy, second.record.energy)


def test_reading_surface(sampler):
    sampleset = sampler.sample_qubo({(0, 0): -1, (1, 1): 1, (0, 1): 0.5}, backend="cpu-sa", num_reads=5, seed=2)
    assert sampleset.record.dtype.names == ("sample", "energy", "num_occurrences")
    assert sampleset.first.sample == {0: 1, 1: 0}
    assert sampleset.info["termination"] in ("COMPLETED", "TARGET_REACHED")
    assert sampleset.info["seed"] == 2
    assert sampleset.info["summary"].reads_done == 5
    energies = [d.energy for d in sampleset.data(["energy"])]
    assert energies == sorted(energies)
    assert [d.idx for d in sampleset.data(index=True, sorted_by=None)] == list(range(5))
    frame = sampleset.to_pandas_dataframe()
    assert list(frame.columns) == [0, 1, "energy", "num_occurrences"]
    assert frame["energy"].min() == pytest.approx(-1.0)
    assert sampleset.samples(1) == [{0: 1, 1: 0}]


def test_aggregate_counts_occurrences(sampler):
    sampleset = sampler.sample_qubo({("a", "a"): -1}, backend="cpu-sa", num_reads=25, seed=3, aggregate=True)
    assert len(sampleset) == 1
    assert sampleset.first.num_occurrences == 25
    assert sampleset.first.sample == {"a": 1}


def test_properties_and_parameters(sampler):
    backends = sampler.properties["backends"]
    assert backends["cpu-sa"]["available"] is True
    assert "exact" in backends and backends["exact"]["parameters"] == {}
    assert {"beta_hot", "beta_cold", "schedule"} <= set(backends["cpu-sa"]["parameters"])
    tenure = backends["tabu"]["parameters"]["tenure"]
    assert tenure["type"] == "uint32" and tenure["help"] and tenure["min"] == 1
    assert backends["pt"]["parameters"]["moves"]["type"] == "enum"
    assert {"num_reads", "num_sweeps", "seed", "backend", "tenure", "trotter_slices"} <= set(sampler.parameters)
    assert sampler.parameters["backend"] == ["backends"]


def test_backend_parameters_are_keywords(sampler):
    # tabu, pa and sqa parameters by name, as ListBackends describes them; the summary shows they were used.
    sampleset = sampler.sample_qubo(MIXED_QUBO, backend="tabu", tenure=1, elite_size=2, num_reads=4, seed=1)
    assert sampleset.info["summary"].backend.tabu.tenure == 1
    sampleset = sampler.sample_qubo(MIXED_QUBO, backend="sqa", trotter_slices=4, schedule="geometric",
                                    num_reads=4, num_sweeps=50, seed=1)
    assert sampleset.info["summary"].backend.sqa.trotter_slices == 4
    assert sampleset.info["summary"].backend.sqa.schedule == qsolver.solve_pb2.SQA_GEOMETRIC
    sampleset = sampler.sample_qubo(MIXED_QUBO, backend="pa", sweeps_per_step=2, resampling="multinomial",
                                    num_reads=16, num_sweeps=20, seed=1)
    assert sampleset.info["summary"].backend.pa.sweeps_per_step == 2
    assert sampleset.first.energy == pytest.approx(-2.0)
    # A field auto and cpu-sa share goes to auto, the default backend, unless the backend is named.
    sampleset = sampler.sample_qubo(MIXED_QUBO, group_moves="off", exact="EXACT_OFF", num_reads=4, seed=1)
    assert sampleset.info["summary"].backend.name == "auto"
    sampleset = sampler.sample_qubo(MIXED_QUBO, backend="cpu-sa", group_moves="off", num_reads=4, seed=1)
    assert sampleset.info["summary"].backend.name == "cpu-sa"
    assert sampleset.info["summary"].backend.moves == "single-flip"
    # Out of the declared range: the server names the field.
    with pytest.raises(qsolver.Error, match=r"params\.tabu\.perturbation"):
        sampler.sample_qubo(MIXED_QUBO, backend="tabu", perturbation=2.0)
    with pytest.raises(TypeError, match="tenure"):
        sampler.sample_qubo(MIXED_QUBO, backend="pt", tenure=3)
    with pytest.raises(ValueError, match="schedule"):
        sampler.sample_qubo(MIXED_QUBO, backend="sqa", schedule="cubic")


def test_exact_backend_gives_the_ground_state(sampler):
    sampleset = sampler.sample_qubo(MIXED_QUBO, backend="exact")
    assert sampleset.first.energy == pytest.approx(-2.0)


def test_bad_parameters(sampler):
    with pytest.raises(qsolver.Error, match=r"^INVALID_ARGUMENT: ") as caught:
        sampler.sample_qubo({(0, 0): 1}, num_reads=0)
    assert caught.value.code_name == "INVALID_ARGUMENT"
    with pytest.raises(TypeError, match="num_raeds"):
        sampler.sample_qubo({(0, 0): 1}, num_raeds=3)


def test_sample_reads_a_models_vartype_biases_and_offset(sampler):
    # What sample() reads of a dimod BinaryQuadraticModel; the offset is in every energy, as in dimod.
    bqm = types.SimpleNamespace(vartype="SPIN", linear={"u": 1.0, "v": -0.5}, quadratic={("u", "v"): -2.0},
                                offset=1.5)
    sampleset = sampler.sample(bqm, num_reads=10, seed=1)
    for datum in sampleset.data():
        assert datum.energy == pytest.approx(1.5 + ising_energy(bqm.linear, bqm.quadratic, datum.sample))
    assert sampleset.first.energy == pytest.approx(1.5 - 1.0 + 0.5 - 2.0)  # u = v = -1


def test_sample_takes_a_dimod_model(sampler):
    dimod = pytest.importorskip("dimod")
    bqm = dimod.BinaryQuadraticModel({"a": -1, "b": 1}, {("a", "b"): -3}, 0.5, "BINARY")
    sampleset = sampler.sample(bqm, num_reads=10, seed=1)
    assert isinstance(sampleset, dimod.SampleSet)
    assert sampleset.first.energy == pytest.approx(bqm.energy(sampleset.first.sample))


# dimod's path of the conversion, against a stand-in with dimod 0.12.x's SampleSet.from_samples
# (dimod_standin.py): dimod is not installed where the tests run, so without it this path would never run.
@pytest.fixture
def standin_dimod(monkeypatch):
    import dimod_standin

    return dimod_standin.install(monkeypatch)


def test_ising_samples_become_a_dimod_sampleset(sampler, standin_dimod):
    h = {"s0": 0.5, "s1": -1.0, "s2": 0.25}
    J = {("s0", "s1"): -1.5, ("s1", "s2"): 2.0, ("s0", "s2"): 0.75}
    sampleset = sampler.sample_ising(h, J, backend="cpu-sa", num_reads=12, seed=5)
    assert isinstance(sampleset, standin_dimod.SampleSet)
    (call,) = standin_dimod.SampleSet.calls
    assert call["sort_labels"] is False  # the columns keep the order of the labels passed
    assert standin_dimod.as_vartype(call["vartype"]) is standin_dimod.Vartype.SPIN
    assert sampleset.vartype is standin_dimod.Vartype.SPIN
    assert set(sampleset.variables) == {"s0", "s1", "s2"}
    assert len(sampleset) == 12
    assert set(np.unique(sampleset.record.sample).tolist()) <= {-1, 1}
    for datum in sampleset.data():
        assert datum.energy == pytest.approx(ising_energy(h, J, datum.sample))
        assert datum.num_occurrences == 1
    ground = min(ising_energy(h, J, dict(zip(h, spins))) for spins in itertools.product((-1, 1), repeat=3))
    assert sampleset.first.energy == pytest.approx(ground)
    assert sampleset.info["backend"]
    assert sampleset.info["termination"]
    assert sampleset.info["summary"].best_energy == pytest.approx(ground)


def test_qubo_samples_with_mixed_labels_become_a_dimod_sampleset(sampler, standin_dimod):
    sampleset = sampler.sample_qubo(MIXED_QUBO, backend="cpu-sa", num_reads=20, seed=3)
    assert isinstance(sampleset, standin_dimod.SampleSet)
    assert sampleset.vartype is standin_dimod.Vartype.BINARY
    assert set(sampleset.variables) == {"a", "b", (1, 2), 7, frozenset({3})}
    for datum in sampleset.data():
        assert datum.energy == pytest.approx(qubo_energy(MIXED_QUBO, datum.sample), abs=1e-9)
    assert sampleset.first.energy == pytest.approx(-2.0)


def test_sample_of_a_model_with_a_dimod_vartype(sampler, standin_dimod):
    bqm = types.SimpleNamespace(vartype=standin_dimod.Vartype.SPIN, linear={"u": 1.0, "v": -0.5},
                                quadratic={("u", "v"): -2.0}, offset=1.5)
    sampleset = sampler.sample(bqm, num_reads=10, seed=1)
    assert isinstance(sampleset, standin_dimod.SampleSet)
    assert sampleset.vartype is standin_dimod.Vartype.SPIN
    assert sampleset.first.sample == {"u": -1, "v": -1}
    assert sampleset.first.energy == pytest.approx(1.5 - 1.0 + 0.5 - 2.0)


def test_use_dimod_false_keeps_qsolvers_sampleset(server, standin_dimod):
    with qsolver.Sampler(server.target, use_dimod=False, timeout=120) as plain:
        sampleset = plain.sample_qubo({(0, 0): -1}, num_reads=2, seed=1)
    assert isinstance(sampleset, qsolver.SampleSet)
    assert standin_dimod.SampleSet.calls == []
