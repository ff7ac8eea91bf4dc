"""The samples of a Sampler call: a dimod.SampleSet when dimod can be imported, else qsolver's SampleSet,
which has the same reading surface (record, first, data(), samples(), variables, vartype, info,
to_pandas_dataframe())."""
import collections

import numpy as np

Sample = collections.namedtuple("Sample", "sample energy num_occurrences")


def _record(samples, energies, num_occurrences):
    n = samples.shape[1] if samples.ndim == 2 else 0
    dtype = [("sample", np.int8, (n,)), ("energy", np.float64), ("num_occurrences", np.int64)]
    record = np.rec.array(np.zeros(len(energies), dtype=dtype))
    if len(energies):
        record["sample"] = samples
        record["energy"] = energies
        record["num_occurrences"] = num_occurrences
    return record


class SampleSet:
    """Samples (rows of variable values), their energies and occurrence counts, in the order they came.

    record: numpy record array with fields sample (int8 rows), energy, num_occurrences; variables: the
    labels, in column order; vartype: "BINARY" or "SPIN"; info: what the server reported (termination,
    seed, backend, timings and the qs.v1.SolveSummary as "summary")."""

    def __init__(self, samples, variables, energies, num_occurrences, vartype, info=None):
        self.variables = tuple(variables)
        self.record = _record(np.asarray(samples, dtype=np.int8), np.asarray(energies, dtype=np.float64),
                              np.asarray(num_occurrences, dtype=np.int64))
        self.vartype = vartype
        self.info = dict(info or {})

    def __len__(self):
        return len(self.record)

    def __iter__(self):
        """The samples as dicts, lowest energy first."""
        return iter(self.samples())

    def _order(self, sorted_by, reverse):
        order = np.arange(len(self.record)) if sorted_by is None else np.argsort(self.record[sorted_by],
                                                                                 kind="stable")
        return order[::-1] if reverse else order

    def _sample_dict(self, row):
        return dict(zip(self.variables, (int(v) for v in row)))

    def samples(self, n=None, sorted_by="energy"):
        """The samples as dicts {label: value}, lowest energy first (sorted_by=None: as they came)."""
        order = self._order(sorted_by, False)[:n]
        return [self._sample_dict(self.record.sample[k]) for k in order]

    @property
    def first(self):
        """The lowest-energy sample: Sample(sample, energy, num_occurrences)."""
        if not len(self.record):
            raise ValueError("the sample set is empty")
        return next(self.data())

    def data(self, fields=None, sorted_by="energy", name="Sample", reverse=False, sample_dict_cast=True,
             index=False):
        """Iterates the rows as named tuples of `fields` (default sample, energy, num_occurrences)."""
        fields = list(fields or ("sample", "energy", "num_occurrences"))
        if index:
            fields.append("idx")
        row_type = Sample if fields == list(Sample._fields) and name == "Sample" else \
            collections.namedtuple(name, fields)
        for k in self._order(sorted_by, reverse):
            values = []
            for field in fields:
                if field == "idx":
                    values.append(int(k))
                elif field == "sample":
                    row = self.record.sample[k]
                    values.append(self._sample_dict(row) if sample_dict_cast else row)
                else:
                    values.append(self.record[field][k].item())
            yield row_type(*values)

    def lowest(self):
        """The samples at the lowest energy (a new SampleSet)."""
        keep = self.record.energy == self.record.energy.min() if len(self.record) else slice(0)
        return SampleSet(self.record.sample[keep], self.variables, self.record.energy[keep],
                         self.record.num_occurrences[keep], self.vartype, self.info)

    def to_pandas_dataframe(self, sample_column=False):
        """A pandas DataFrame: one column per variable (or one "sample" column of dicts), energy,
        num_occurrences."""
        import pandas as pd

        if sample_column:
            frame = pd.DataFrame({"sample": [self._sample_dict(row) for row in self.record.sample]})
        else:
            frame = pd.DataFrame(self.record.sample, columns=list(self.variables))
        frame["energy"] = self.record.energy
        frame["num_occurrences"] = self.record.num_occurrences
        return frame

    def __repr__(self):
        return f"SampleSet({len(self)} samples, {len(self.variables)} variables, {self.vartype})"


def make_sampleset(samples, variables, energies, num_occurrences, vartype, info, use_dimod=True):
    """A dimod.SampleSet when dimod is importable (and use_dimod), else a qsolver SampleSet."""
    if use_dimod:
        try:
            import dimod
        except ImportError:
            dimod = None
        if dimod is not None:
            return dimod.SampleSet.from_samples((np.asarray(samples, dtype=np.int8), list(variables)), vartype,
                                                energy=energies, num_occurrences=num_occurrences, info=info,
                                                sort_labels=False)
    return SampleSet(samples, variables, energies, num_occurrences, vartype, info)
