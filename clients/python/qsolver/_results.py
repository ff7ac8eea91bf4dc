"""What the clients return: the result of one solve (the fields of qsolve's `solve --json` last line), of
one batch item, of a validation, and the progress reports of long calls."""
import collections

import grpc

from ._proto import solve_pb2

Progress = collections.namedtuple("Progress", "done total best_energy valid")
Progress.__doc__ = """A progress report: reads (solve) or items (solve_batch) done out of total (None when
unknown), the best energy so far (None for batches) and how many were valid."""


def violation_text(violation):
    return f"{violation.location}: {violation.message}" if violation.location else violation.message


class SolveResult:
    """One solve: valid, energy (offset included; None when no read finished), board (rows of the puzzle's
    characters), violations ("location: message"), ground_energy, termination, reads, num_valid,
    success_fraction, seed, backend, solved_by (the backend that found the best sample: for the default
    backend "auto", the raced backend that won), variables, variables_total, request_id, timings; and the messages:
    summary (qs.v1.SolveSummary), stats (CompileStats), header (SolveHeader, streamed solves), samples
    (the SampleEvents received)."""

    def __init__(self, stats, summary, samples=(), header=None):
        self.stats, self.summary, self.header, self.samples = stats, summary, header, list(samples)
        self.valid = summary.best_valid
        self.energy = summary.best_energy if summary.reads_done > 0 else None
        self.ground_energy = summary.ground_energy if summary.HasField("ground_energy") else None
        self.board = list(summary.best_solution.rows)
        self.solution = summary.best_solution
        self.violations = [violation_text(v) for v in summary.best_violations]
        self.termination = solve_pb2.Termination.Name(summary.termination)
        self.reads = summary.reads_done
        self.num_valid = summary.num_valid
        self.success_fraction = summary.success_fraction
        self.seed = summary.seed
        self.backend = summary.backend.name
        self.solved_by = summary.solved_by
        self.variables = stats.variables
        self.variables_total = stats.variables_total
        self.request_id = summary.request_id
        t = summary.timings
        self.timings = {"queue_seconds": t.queue_seconds, "compile_seconds": t.compile_seconds,
                        "sample_seconds": t.sample_seconds, "decode_seconds": t.decode_seconds,
                        "total_seconds": t.total_seconds}

    def to_dict(self):
        """The result as the last line of `qsolve solve --json` holds it."""
        keys = ("request_id", "valid", "energy", "ground_energy", "board", "violations", "termination",
                "reads", "num_valid", "success_fraction", "backend", "solved_by", "variables", "variables_total", "timings")
        out = {key: getattr(self, key) for key in keys}
        out["seed"] = str(self.seed)
        out["attempts_per_second"] = self.summary.attempts_per_second
        return out

    def __repr__(self):
        return (f"SolveResult(valid={self.valid}, energy={self.energy}, termination={self.termination}, "
                f"board={self.board})")


class BatchResult:
    """One item of solve_batch: id, status (gRPC status name), message, ok, result (a SolveResult when ok),
    server_instance, and proto (the qs.v1.BatchResult; None for an item that did not parse)."""

    def __init__(self, item_id, status, message="", result=None, server_instance="", proto=None):
        self.id, self.status, self.message = item_id, status, message
        self.result, self.server_instance, self.proto = result, server_instance, proto
        self.ok = status == "OK"

    @classmethod
    def from_proto(cls, proto):
        status = next((c.name for c in grpc.StatusCode if c.value[0] == proto.status_code), "UNKNOWN")
        result = SolveResult(proto.stats, proto.summary, proto.samples) if status == "OK" else None
        return cls(proto.id, status, proto.status_message, result, proto.server_instance, proto)

    def __repr__(self):
        return f"BatchResult(id={self.id!r}, status={self.status}, result={self.result!r})"


class ValidateResult:
    """A board checked against the puzzle's rules: valid, energy (the full model's; None when the board does
    not map onto it), violations ("location: message"), and the qs.v1.ValidateResponse as response."""

    def __init__(self, response):
        self.response = response
        self.valid = response.report.valid
        self.energy = response.energy if response.HasField("energy") else None
        self.violations = [violation_text(v) for v in response.report.violations]

    def __repr__(self):
        return f"ValidateResult(valid={self.valid}, energy={self.energy}, violations={self.violations})"


class ModelResult:
    """A solved constrained model (Client.solve_model): feasible (the best sample breaks no constraint),
    objective (the model's own objective there, in its sense and with its constant, as the server reports
    it; None when it reports none), assignment {variable name: value} (0/1, -1/+1 or the integer),
    violations (the names of the broken constraints), amounts {name: how far its left-hand side misses},
    energy, termination; result (the SolveResult) with summary and stats."""

    def __init__(self, result, names=()):
        self.result = result
        self.summary, self.stats = result.summary, result.stats
        solution = result.summary.best_solution
        self.feasible = bool(result.valid) and result.reads > 0
        if solution.HasField("objective"):
            self.objective = solution.objective
        elif result.summary.HasField("objective"):
            self.objective = result.summary.objective
        else:
            self.objective = None
        # The server names the variables (PuzzleSolution.names); the model's own names stand in otherwise.
        labels = list(solution.names) or list(names)
        if len(labels) != len(solution.cells):
            labels = [str(k) for k in range(len(solution.cells))]
        self.assignment = dict(zip(labels, (int(c) for c in solution.cells)))
        self.violations = [v.location for v in result.summary.best_violations]
        self.amounts = {v.location: v.amount for v in result.summary.best_violations if v.HasField("amount")}
        self.energy = result.energy
        self.termination = result.termination

    def __repr__(self):
        return (f"ModelResult(feasible={self.feasible}, objective={self.objective}, "
                f"termination={self.termination}, violations={self.violations})")
