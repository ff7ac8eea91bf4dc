"""Request messages from Python values: a puzzle from (kind, text) or a PuzzleSpec, SolveParams from
keyword arguments named as its fields, CompileOptions from reduction and preprocessing names."""
from google.protobuf import json_format
from google.protobuf.message import Message

from . import formats
from ._proto import puzzles_pb2, solve_pb2

_REDUCTIONS = {"default": solve_pb2.REDUCTION_DEFAULT, "none": solve_pb2.REDUCTION_NONE,
               "clues": solve_pb2.REDUCTION_CLUES, "full": solve_pb2.REDUCTION_FULL}
_PREPROCESS = {"none": solve_pb2.PREPROCESS_NONE, "roof": solve_pb2.PREPROCESS_ROOF,
               "qpro": solve_pb2.PREPROCESS_QPRO}
PARAM_NAMES = tuple(solve_pb2.SolveParams.DESCRIPTOR.fields_by_name)


def puzzle_spec(kind, text=None):
    """A PuzzleSpec as given, or parsed from a text of a qsolve --kind."""
    if isinstance(kind, puzzles_pb2.PuzzleSpec):
        if text is not None:
            raise TypeError("give a PuzzleSpec or a kind and a text, not both")
        return kind
    if not isinstance(kind, str) or not isinstance(text, str):
        raise TypeError("expected a puzzle kind and its text, or a qs.v1.PuzzleSpec")
    return formats.parse_puzzle(kind, text)


def compile_options(reduction=None, return_qubo=False, preprocess=None):
    options = solve_pb2.CompileOptions(return_qubo=return_qubo)
    if isinstance(preprocess, str):
        if preprocess.lower() not in _PREPROCESS:
            raise ValueError(f"preprocess: one of {', '.join(_PREPROCESS)}, got '{preprocess}'")
        preprocess = _PREPROCESS[preprocess.lower()]
    if preprocess is not None:
        options.preprocess = preprocess
    if reduction is None:
        return options
    if isinstance(reduction, str):
        if reduction.lower() not in _REDUCTIONS:
            raise ValueError(f"reduction: one of {', '.join(_REDUCTIONS)}, got '{reduction}'")
        reduction = _REDUCTIONS[reduction.lower()]
    options.reduction = reduction
    return options


def solve_params(params, base=None):
    """SolveParams from keyword arguments named as its fields (num_reads, num_sweeps, seed,
    stop_at_first_valid, ...); message fields (cpu_sa, dwave, sat) take a dict or the message. None keeps
    the server's default."""
    out = solve_pb2.SolveParams()
    if base is not None:
        out.CopyFrom(base)
    fields = out.DESCRIPTOR.fields_by_name
    for name, value in params.items():
        if value is None:
            continue
        field = fields.get(name)
        if field is None:
            raise TypeError(f"unknown solve parameter '{name}' (SolveParams fields: {', '.join(PARAM_NAMES)})")
        if field.message_type is not None:
            target = getattr(out, name)
            if isinstance(value, Message):
                target.CopyFrom(value)
            else:
                target.Clear()
                target.SetInParent()
                json_format.ParseDict(value, target)
        elif field.label == field.LABEL_REPEATED:
            del getattr(out, name)[:]
            getattr(out, name).extend(value)
        else:
            setattr(out, name, value)
    return out


def solve_request(kind, text=None, *, reduction=None, request_id="", params=None):
    """A SolveRequest built from a puzzle, or a given one whose unset parameters (and reduction) are filled
    in from `params` (and `reduction`): what the request says wins."""
    if isinstance(kind, solve_pb2.SolveRequest):
        request = solve_pb2.SolveRequest()
        request.CopyFrom(kind)
        merged = solve_params(params or {})
        merged.MergeFrom(request.params)
        request.params.CopyFrom(merged)
        if reduction is not None and not request.compile.reduction:
            request.compile.reduction = compile_options(reduction).reduction
        return request
    return solve_pb2.SolveRequest(request_id=request_id, puzzle=puzzle_spec(kind, text),
                                  compile=compile_options(reduction), params=solve_params(params or {}))
