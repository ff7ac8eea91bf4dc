"""qsolver.Sampler: dimod's sampler surface over the service (sample_qubo, sample_ising, sample for a
dimod BinaryQuadraticModel, parameters, properties). Models go to the server as a qs.v1.QuboModel over
variable indices; the labels stay here, so any hashable label comes back as it was."""
import numpy as np

from ._proto import puzzles_pb2, qubo_pb2, solve_pb2
from ._requests import PARAM_NAMES
from .client import Client
from .sampleset import make_sampleset

# Not a SolveParams field: how the call runs rather than what the server does.
_CALL_OPTIONS = ("timeout", "progress")
def _parameters(backend):
    """A backend's own parameters as ListBackends describes them: {name: {type, default, min, max, unit,
    help, choices, repeated}}."""
    out = {}
    for p in backend.params:
        row = {"type": p.type, "default": p.default_value, "unit": p.unit, "help": p.help,
               "repeated": p.repeated, "choices": list(p.choices)}
        if p.HasField("min"):
            row["min"] = p.min
            row["min_exclusive"] = p.min_exclusive
        if p.HasField("max"):
            row["max"] = p.max
        out[p.name] = row
    return out


class _Labels:
    """Labels in order of first appearance, and their indices."""

    def __init__(self):
        self.index = {}

    def __call__(self, label):
        return self.index.setdefault(label, len(self.index))

    @property
    def labels(self):
        return list(self.index)


def build_model(linear, quadratic, offset, vartype):
    """A QuboModel and its labels from {label: bias} and {(u, v): bias}; SPIN for an Ising model."""
    labels = _Labels()
    model = qubo_pb2.QuboModel(offset=float(offset), vartype=vartype)
    for v, bias in linear.items():
        k = labels(v)
        model.i.append(k)
        model.j.append(k)
        model.w.append(float(bias))
    for (u, v), bias in quadratic.items():
        a, b = labels(u), labels(v)
        model.i.append(min(a, b))
        model.j.append(max(a, b))
        model.w.append(float(bias))
    model.num_variables = len(labels.index)
    return model, labels.labels


def _as_dict(biases):
    return dict(biases) if hasattr(biases, "items") else dict(enumerate(biases))


class Sampler:
    """Samples QUBO and Ising models on a qs_server: Sampler(target, **options) with the options of
    qsolver.Client (timeout, tls, tls_ca, token ...). Parameters of the sample calls are SolveParams names
    (num_reads, num_sweeps, seed, backend, time_limit_seconds, cpu_sa={...} ...) plus timeout and
    progress. Results are dimod.SampleSet objects when dimod is installed, else qsolver.SampleSet."""

    def __init__(self, target, use_dimod=True, **options):
        self._client = Client(target, **options)
        self._use_dimod = use_dimod
        self._properties = None

    def close(self):
        self._client.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def parameters(self):
        """dimod's parameters: each accepted keyword and the properties that describe it; a backend's own
        parameters (tenure, replicas, ...) are keywords too, described under properties["backends"]."""
        params = {name: [] for name in PARAM_NAMES + _CALL_OPTIONS}
        params["backend"] = ["backends"]
        for backend in self.properties["backends"].values():
            for name in backend["parameters"]:
                params.setdefault(name, ["backends"])
        return params

    @property
    def properties(self):
        """{"backends": {name: {description, available, status, max_variables, exact, deterministic,
        params_field, parameters}}} from the server's ListBackends (asked once); parameters describes the
        backend's own parameters ({"tenure": {"type": "uint32", "default": ..., "help": ...}})."""
        if self._properties is None:
            backends = {}
            for b in self._client.list_backends():
                backends[b.name] = {"description": b.description, "available": b.available, "status": b.status,
                                    "max_variables": b.max_variables, "exact": b.exact,
                                    "deterministic": b.deterministic, "params_field": b.params_field,
                                    "parameters": _parameters(b)}
            self._properties = {"backends": backends}
        return self._properties

    def sample_qubo(self, Q, **params):
        """Samples the QUBO {(u, v): bias} (u == v: linear) with x in {0, 1}."""
        linear, quadratic = {}, {}
        for (u, v), bias in Q.items():
            if u == v:
                linear[u] = linear.get(u, 0.0) + bias
            else:
                quadratic[(u, v)] = bias
        return self._sample(*build_model(linear, quadratic, 0.0, qubo_pb2.BINARY), "BINARY", params)

    def sample_ising(self, h, J, **params):
        """Samples the Ising model with fields h ({label: bias} or a list) and couplings J {(u, v): bias},
        s in {-1, +1}."""
        return self._sample(*build_model(_as_dict(h), J, 0.0, qubo_pb2.SPIN), "SPIN", params)

    def sample(self, bqm, **params):
        """Samples a dimod BinaryQuadraticModel (its vartype, linear, quadratic and offset)."""
        name = getattr(bqm.vartype, "name", str(bqm.vartype))
        vartype = qubo_pb2.SPIN if name == "SPIN" else qubo_pb2.BINARY
        model, labels = build_model(bqm.linear, bqm.quadratic, bqm.offset, vartype)
        return self._sample(model, labels, name, params)

    def _sample(self, model, labels, vartype, params):
        result = self._client.solve(puzzles_pb2.PuzzleSpec(qubo=model), **params)
        # Reads finish in any order on the server's threads; in read order, a seed gives the same sample set.
        events = sorted(result.samples, key=lambda e: e.read_index)
        n = len(labels)
        rows = np.zeros((len(events), n), dtype=np.int8)
        for k, event in enumerate(events):
            bits = np.unpackbits(np.frombuffer(event.bits, dtype=np.uint8), bitorder="little")[:n]
            rows[k] = 2 * bits.astype(np.int8) - 1 if vartype == "SPIN" else bits
        info = {"termination": result.termination, "seed": result.seed, "backend": result.backend,
                "solved_by": result.solved_by, "timings": result.timings, "request_id": result.request_id, "summary": result.summary}
        return make_sampleset(rows, labels, [e.energy for e in events], [e.num_occurrences for e in events],
                              vartype, info, self._use_dimod)
