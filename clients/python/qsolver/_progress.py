"""Progress of long calls: a callback receiving qsolver.Progress reports, and a tqdm bar when asked for
(progress=True) and tqdm is installed."""
import grpc

from ._errors import Error
from ._proto import solve_pb2
from ._results import Progress, SolveResult


class Reporter:
    def __init__(self, progress, unit):
        self.callback = progress if callable(progress) else None
        self.want_bar = progress is True
        self.unit = unit
        self.bar = None

    def update(self, done, total, best_energy=None, valid=0):
        if self.callback is not None:
            self.callback(Progress(done, total, best_energy, valid))
        if not self.want_bar:
            return
        if self.bar is None:
            try:
                import tqdm
            except ImportError:
                self.want_bar = False
                return
            self.bar = tqdm.tqdm(total=total, unit=self.unit)
        if total is not None and self.bar.total != total:
            self.bar.total = total
        self.bar.update(done - self.bar.n)

    def close(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class BatchTracker:
    """Counts the results of a batch (done, valid) for its progress reports."""

    def __init__(self, progress, items):
        self.reporter = Reporter(progress, "items")
        self.total = len(items) if hasattr(items, "__len__") else None
        self.done = self.valid = 0

    def record(self, result):
        self.done += 1
        self.valid += bool(result.ok and result.result.valid)
        self.reporter.update(self.done, self.total, None, self.valid)
        return result


class SolveTracker:
    """Follows a Solve stream's events: the header, the samples, the summary, reads done and best energy."""

    def __init__(self, reporter):
        self.reporter = reporter
        self.header = self.summary = None
        self.samples = []
        self.reads = self.valid = 0
        self.best = None

    def record(self, event):
        kind = event.WhichOneof("event")
        if kind == "header":
            self.header = event.header
        elif kind == "sample":
            sample = event.sample
            self.samples.append(sample)
            self.reads += sample.num_occurrences
            self.valid += sample.num_occurrences if sample.valid else 0
            self.best = sample.energy if self.best is None else min(self.best, sample.energy)
            self._report()
        elif kind == "progress":
            self.reads = max(self.reads, event.progress.reads_done)
            self.valid = max(self.valid, event.progress.valid_found)
            self._report()
        elif kind == "summary":
            self.summary = event.summary
            self.reads = event.summary.reads_done
            self._report()
            self.reporter.close()

    def _report(self):
        # 0: a backend that sizes its rounds itself (auto) says no total up front.
        total = (self.header.num_reads or None) if self.header is not None else None
        self.reporter.update(self.reads, total, self.best, self.valid)

    def result(self):
        """The SolveResult once the summary came."""
        if self.summary is None:
            raise Error(grpc.StatusCode.INTERNAL, "the stream ended without a summary")
        stats = self.header.stats if self.header is not None else solve_pb2.CompileStats()
        return SolveResult(stats, self.summary, self.samples, self.header)
