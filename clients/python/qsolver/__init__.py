"""qsolver: the Python client of the qs.v1.Solver service.

    import qsolver
    sampleset = qsolver.Sampler("127.0.0.1:50051").sample_qubo({("a", "b"): 2, ("a", "a"): -1}, num_reads=10)
    result = qsolver.Client("127.0.0.1:50051").solve("nqueens", "8", seed=1)

Sampler: dimod's sampler surface (sample_qubo, sample_ising, sample, parameters, properties). Client:
puzzles in qsolve's text formats (compile, solve, solve_batch, count, generate, validate); qsolver.aio.Client
is its asyncio twin. Failed calls raise qsolver.Error ("CODE: message")."""
from . import aio, formats
from ._errors import Error, ParseError
from ._proto import puzzles_pb2, qubo_pb2, solve_pb2
from ._results import BatchResult, Progress, SolveResult, ValidateResult
from .client import Client, SolveStream
from .formats import KINDS, format_puzzle, parse_board, parse_puzzle
from .sampler import Sampler
from .sampleset import SampleSet

__version__ = "0.1.0"

__all__ = ["KINDS", "BatchResult", "Client", "Error", "ParseError", "Progress", "SampleSet", "Sampler",
           "SolveResult", "SolveStream", "ValidateResult", "aio", "format_puzzle", "formats", "parse_board",
           "parse_puzzle", "puzzles_pb2", "qubo_pb2", "solve_pb2"]
