"""A stand-in for the part of dimod that qsolver uses, so that qsolver's dimod path runs where dimod is not
installed: dimod.Vartype and dimod.SampleSet.from_samples with the signature and meaning of dimod 0.12.x
(from_samples(samples_like, vartype, energy, info=None, num_occurrences=None, aggregate_samples=False,
sort_labels=True, **vectors)), and the reading surface of the SampleSet it returns (record, variables,
vartype, info, first, data(), len()). It checks what dimod would refuse or silently reorder: rows that do
not match the labels, values outside the vartype, vectors of the wrong length, unsortable labels with
sort_labels left on. For qsolver.from_dimod_cqm: Vartype's INTEGER and REAL, dimod.sym.Sense, and a
ConstrainedQuadraticModel with the reading surface of dimod 0.12.x's (variables, vartype(v), lower_bound(v),
upper_bound(v), objective.linear / quadratic / offset, constraints {label: Comparison with lhs, sense,
rhs}, discrete); how it is filled (the add_* helpers) is the stand-in's own. install(monkeypatch) puts it
in sys.modules as "dimod"."""
import collections
import enum
import sys
import types

import numpy as np


class Vartype(enum.Enum):
    """dimod.Vartype: SPIN's values are -1 and +1, BINARY's 0 and 1; INTEGER and REAL (bounded by the
    model, not the vartype) are named by strings."""
    SPIN = frozenset({-1, 1})
    BINARY = frozenset({0, 1})
    INTEGER = "INTEGER"
    REAL = "REAL"


class Sense(enum.Enum):
    """dimod.sym.Sense: a constraint's comparison."""
    Le = "<="
    Ge = ">="
    Eq = "=="


class QuadraticPart:
    """What qsolver reads of a dimod quadratic model (the objective, a constraint's lhs): linear {v: bias},
    quadratic {(u, v): bias}, offset."""

    def __init__(self, linear=None, quadratic=None, offset=0.0):
        self.linear = dict(linear or {})
        self.quadratic = dict(quadratic or {})
        self.offset = offset


class Comparison:
    """dimod.sym.Comparison (Le, Ge, Eq): lhs, sense, rhs."""

    def __init__(self, lhs, sense, rhs):
        self.lhs, self.sense, self.rhs = lhs, sense, rhs


class ConstrainedQuadraticModel:
    """The reading surface of dimod.ConstrainedQuadraticModel. Unlike dimod, an integer variable must be
    given its upper bound (dimod's default is huge)."""

    def __init__(self):
        self._vartypes, self._bounds = {}, {}
        self.objective = QuadraticPart()
        self.constraints = {}
        self.discrete = set()

    @property
    def variables(self):
        return list(self._vartypes)

    def vartype(self, v):
        return self._vartypes[v]

    def lower_bound(self, v):
        return self._bounds[v][0]

    def upper_bound(self, v):
        return self._bounds[v][1]

    # The stand-in's own way to fill it.
    def add_variable(self, vartype, v, lower_bound=0, upper_bound=None):
        vartype = as_vartype(vartype)
        if vartype is Vartype.SPIN:
            lower_bound, upper_bound = -1, 1
        elif vartype is Vartype.BINARY:
            lower_bound, upper_bound = 0, 1
        self._vartypes[v] = vartype
        self._bounds[v] = (float(lower_bound), float(upper_bound))
        return v

    def set_objective(self, linear=None, quadratic=None, offset=0.0):
        self.objective = QuadraticPart(linear, quadratic, offset)

    def add_constraint(self, label, linear, sense, rhs, quadratic=None, offset=0.0):
        self.constraints[label] = Comparison(QuadraticPart(linear, quadratic, offset), Sense(sense), rhs)

    def add_discrete(self, label, variables):
        self.add_constraint(label, {v: 1.0 for v in variables}, "==", 1.0)
        self.discrete.add(label)


def as_vartype(vartype):
    """What dimod.as_vartype accepts: a Vartype, its name, or its set of values."""
    if isinstance(vartype, Vartype):
        return vartype
    if isinstance(vartype, str):
        return Vartype[vartype]
    return Vartype(frozenset(vartype))


SampleView = collections.namedtuple("Sample", "sample energy num_occurrences")


class SampleSet:
    """The SampleSet from_samples builds: record fields sample, energy, num_occurrences; variables in
    column order."""

    calls = []  # the keyword arguments of every from_samples call, for the tests to read

    def __init__(self, record, variables, info, vartype):
        self.record = record
        self.variables = tuple(variables)
        self.info = info
        self.vartype = vartype

    @classmethod
    def from_samples(cls, samples_like, vartype, energy, info=None, num_occurrences=None,
                     aggregate_samples=False, sort_labels=True, **vectors):
        cls.calls.append(dict(samples_like=samples_like, vartype=vartype, energy=energy, info=info,
                              num_occurrences=num_occurrences, aggregate_samples=aggregate_samples,
                              sort_labels=sort_labels, vectors=vectors))
        vartype = as_vartype(vartype)
        # samples_like as a (rows, labels) pair, the form qsolver passes.
        assert isinstance(samples_like, tuple) and len(samples_like) == 2, samples_like
        rows, labels = samples_like
        rows = np.asarray(rows)
        labels = list(labels)
        assert rows.ndim == 2 and rows.shape[1] == len(labels), (rows.shape, labels)
        assert len(set(labels)) == len(labels), f"duplicate labels {labels}"
        assert set(np.unique(rows).tolist()) <= vartype.value, f"values outside {vartype.name}"
        energy = np.asarray(energy, dtype=np.float64)
        assert energy.shape == (rows.shape[0],), energy.shape
        if num_occurrences is None:
            num_occurrences = np.ones(rows.shape[0], dtype=np.int64)
        num_occurrences = np.asarray(num_occurrences, dtype=np.int64)
        assert num_occurrences.shape == (rows.shape[0],), num_occurrences.shape
        if sort_labels:
            # dimod sorts sortable labels and reorders the columns (mixed label types stay as they came).
            try:
                order = sorted(range(len(labels)), key=lambda k: labels[k])
            except TypeError:
                order = list(range(len(labels)))
            labels = [labels[k] for k in order]
            rows = rows[:, order]
        dtype = [("sample", np.int8, (len(labels),)), ("energy", np.float64), ("num_occurrences", np.int64)]
        record = np.rec.array(np.zeros(rows.shape[0], dtype=dtype))
        if rows.shape[0]:
            record["sample"] = rows
            record["energy"] = energy
            record["num_occurrences"] = num_occurrences
        return cls(record, labels, dict(info or {}), vartype)

    def __len__(self):
        return len(self.record)

    def data(self, sorted_by="energy"):
        order = np.arange(len(self.record)) if sorted_by is None else np.argsort(self.record[sorted_by],
                                                                                 kind="stable")
        for k in order:
            yield SampleView(dict(zip(self.variables, (int(v) for v in self.record.sample[k]))),
                             float(self.record.energy[k]), int(self.record.num_occurrences[k]))

    @property
    def first(self):
        return next(self.data())


def install(monkeypatch):
    """Makes `import dimod` give the stand-in for the rest of the test; returns the module."""
    module = types.ModuleType("dimod")
    module.Vartype = Vartype
    module.SampleSet = SampleSet
    module.as_vartype = as_vartype
    module.ConstrainedQuadraticModel = ConstrainedQuadraticModel
    module.sym = types.ModuleType("dimod.sym")
    module.sym.Sense = Sense
    module.sym.Comparison = Comparison
    SampleSet.calls = []
    monkeypatch.setitem(sys.modules, "dimod", module)
    return module
