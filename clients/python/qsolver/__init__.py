"""qsolver: the Python client of the qs.v1.Solver service.

    import qsolver
    sampleset = qsolver.Sampler("127.0.0.1:50051").sample_qubo({("a", "b"): 2, ("a", "a"): -1}, num_reads=10)
    result = qsolver.Client("127.0.0.1:50051").solve("nqueens", "8", seed=1)
    m = qsolver.Model("pick", sense="max"); x = m.binary_array("x", 3)
    m.maximize(qsolver.quicksum(x)); m.add(x[0] + x[1] <= 1, name="cap"); qsolver.Client(...).solve_model(m)

Sampler: dimod's sampler surface (sample_qubo, sample_ising, sample, parameters, properties). Client:
puzzles in qsolve's text formats (compile, solve, solve_batch, count, generate, validate); qsolver.aio.Client
is its asyncio twin. Model: constrained models (variables, objective, named constraints) that
Client.solve_model solves, to_lp() writes as CPLEX LP and evaluate() scores; from_dimod_cqm reads a dimod
ConstrainedQuadraticModel. Failed calls raise qsolver.Error ("CODE: message")."""
from . import aio, formats, model
from ._errors import Error, ParseError
from ._proto import model_pb2, puzzles_pb2, qubo_pb2, solve_pb2
from ._results import BatchResult, ModelResult, Progress, SolveResult, ValidateResult
from .client import Client, SolveStream
from .formats import KINDS, format_puzzle, parse_board, parse_puzzle
from .model import Constraint, Evaluation, Expression, Model, OneHot, Variable, from_dimod_cqm, quicksum
from .sampler import Sampler
from .sampleset import SampleSet

__version__ = "0.1.0"

__all__ = ["KINDS", "BatchResult", "Client", "Constraint", "Error", "Evaluation", "Expression", "Model",
           "ModelResult", "OneHot", "ParseError", "Progress", "SampleSet", "Sampler", "SolveResult", "SolveStream",
           "ValidateResult", "Variable", "aio", "format_puzzle", "formats", "from_dimod_cqm", "model",
           "model_pb2", "parse_board", "parse_puzzle", "puzzles_pb2", "qubo_pb2", "quicksum", "solve_pb2"]
