"""Request messages from Python values: a puzzle from (kind, text) or a PuzzleSpec, SolveParams from
keyword arguments named as its fields or as a backend's parameters, CompileOptions from reduction and
preprocessing names, the PuzzleSpec and parameters of solve_model."""
from google.protobuf import json_format
from google.protobuf.message import Message

from . import formats
from ._proto import model_pb2, puzzles_pb2, qubo_pb2, solve_pb2
from .model import _SENSE_WORDS, INEQUALITIES, INTEGER_ENCODINGS, Model

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


def _backend_messages():
    """The messages of SolveParams' backend_params oneof, in their order."""
    return list(solve_pb2.SolveParams.DESCRIPTOR.oneofs_by_name["backend_params"].fields)


def _enum_name(enum_type, value):
    """An enum value's name from its full name in any case or its end after '_' ("single_flip")."""
    upper = value.upper()
    names = [v.name for v in enum_type.values]
    if upper in names:
        return upper
    matches = [n for n in names if n.endswith("_" + upper)]
    if len(matches) == 1:
        return matches[0]
    raise ValueError(f"one of {', '.join(names)}, got '{value}'")


def _json_value(field, value):
    if field.enum_type is not None:
        if isinstance(value, (list, tuple)):
            return [_enum_name(field.enum_type, v) if isinstance(v, str) else v for v in value]
        return _enum_name(field.enum_type, value) if isinstance(value, str) else value
    return list(value) if isinstance(value, tuple) else value


def _backend_message_for(backend, names):
    """The backend_params field the backend parameters `names` go to: the named backend's message, else
    auto's (the default backend) when it has them all, else the first message that has them all
    (group_moves is auto's, though cpu_sa has the field too)."""
    messages = _backend_messages()
    if backend:
        wanted = backend.replace("-", "_")
        for field in messages:
            if field.name == wanted:
                return field
        raise TypeError(f"backend '{backend}' takes no parameters (got {', '.join(names)})")
    messages.sort(key=lambda f: f.name != "auto")
    for field in messages:
        if all(name in field.message_type.fields_by_name for name in names):
            return field
    target = None
    for name in names:
        home = next((f for f in messages if name in f.message_type.fields_by_name), None)
        if home is None:
            raise TypeError(f"unknown solve parameter '{name}': not a SolveParams field "
                            f"({', '.join(PARAM_NAMES)}) nor a parameter of any backend")
        if target is not None and home is not target:
            raise TypeError(f"'{name}' is a parameter of params.{home.name}, the ones before of "
                            f"params.{target.name}: name the backend")
        target = home
    return target


def solve_params(params, base=None):
    """SolveParams from keyword arguments named as its fields (num_reads, num_sweeps, seed,
    stop_at_first_valid, ...); message fields (cpu_sa, dwave, sat) take a dict or the message. Any other name
    is a parameter of the backend (backend=NAME, PARAM=VALUE): it goes to that backend's own message, or
    without a backend to auto's when it has them all, else to the first backend message that has them all,
    as ListBackends describes them. Enum values
    take their names ("SINGLE_FLIP", "single_flip"). None keeps the server's default."""
    out = solve_pb2.SolveParams()
    if base is not None:
        out.CopyFrom(base)
    fields = out.DESCRIPTOR.fields_by_name
    backend_params = {}
    for name, value in params.items():
        if value is None:
            continue
        field = fields.get(name)
        if field is None:
            backend_params[name] = value
        elif field.message_type is not None:
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
    if backend_params:
        holder = _backend_message_for(out.backend, list(backend_params))
        message = getattr(out, holder.name)
        message.SetInParent()
        by_name = holder.message_type.fields_by_name
        for name, value in backend_params.items():
            field = by_name.get(name)
            if field is None:
                raise TypeError(f"backend parameter '{name}': params.{holder.name} has no such field "
                                f"(its fields: {', '.join(by_name)})")
            try:
                json_format.ParseDict({name: _json_value(field, value)}, message)
            except (ValueError, json_format.ParseError) as e:
                raise ValueError(f"backend parameter '{name}': {e}") from None
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


_MODEL_FORMATS = {"auto": model_pb2.MODEL_FORMAT_UNSPECIFIED, "lp": model_pb2.MODEL_FORMAT_LP,
                  "opb": model_pb2.MODEL_FORMAT_OPB, "qplib": model_pb2.MODEL_FORMAT_QPLIB}
_TEXT_COMMENTS = ("\\", "*", "#", "c ")


def text_sense(text):
    """"min" or "max" as a model text states it: the first of its first content lines that starts with a
    sense word (LP's Minimize/Maximize, OPB's "min:", QPLIB's third line); None when none does."""
    seen = 0
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(_TEXT_COMMENTS):
            continue
        word = stripped.split()[0].lower().rstrip(":")
        if word in _SENSE_WORDS:
            return _SENSE_WORDS[word]
        seen += 1
        if seen == 5:
            break
    return None


def model_proto(model, format=None):
    """The ConstrainedModel of a qsolver.Model, a ConstrainedModel (copied) or a text in `format` ("lp",
    "opb", "qplib"; None or "auto": the server tells)."""
    if isinstance(model, Model):
        if format is not None:
            raise TypeError("format: only for a model given as text")
        return model.to_proto()
    if isinstance(model, model_pb2.ConstrainedModel):
        if format is not None:
            raise TypeError("format: only for a model given as text (set ConstrainedModel.format)")
        out = model_pb2.ConstrainedModel()
        out.CopyFrom(model)
        return out
    if isinstance(model, str):
        name = "auto" if format is None else str(format).lower()
        if name not in _MODEL_FORMATS:
            raise ValueError(f"format: one of {', '.join(_MODEL_FORMATS)}, got {format!r}")
        return model_pb2.ConstrainedModel(text=model, format=_MODEL_FORMATS[name])
    raise TypeError("expected a qsolver.Model, a qs.v1.ConstrainedModel or a model text, got "
                    f"{type(model).__name__}")


def _model_sense(model, proto, sense):
    if sense is not None:
        if str(sense).lower() not in _SENSE_WORDS:
            raise ValueError(f"sense: 'min' or 'max', got {sense!r}")
        return _SENSE_WORDS[str(sense).lower()]
    if isinstance(model, Model):
        return model.sense
    if proto.text:
        found = text_sense(proto.text)
        if found is None:
            raise ValueError("target_objective: the text states no sense that this client can find; give "
                             "sense='min' or 'max'")
        return found
    return "max" if proto.sense == qubo_pb2.MAXIMIZE else "min"


def model_request(model, params, *, format=None, sense=None, time_limit=None, target_objective=None,
                  integer_encoding=None, inequality=None, penalty=None):
    """(PuzzleSpec with the model, SolveParams keywords) for solve_model: time_limit is
    time_limit_seconds; target_objective becomes target_energy (the objective when minimised, its negation
    when maximised) with stop_at_first_valid, so that only a feasible sample that good stops the solve.
    integer_encoding, inequality and penalty override the model's compile choices."""
    proto = model_proto(model, format)
    if integer_encoding is not None:
        if integer_encoding not in INTEGER_ENCODINGS:
            raise ValueError(f"integer_encoding: one of {', '.join(INTEGER_ENCODINGS)}, got {integer_encoding!r}")
        proto.integer_encoding = INTEGER_ENCODINGS[integer_encoding]
    if inequality is not None:
        if inequality not in INEQUALITIES:
            raise ValueError(f"inequality: one of {', '.join(INEQUALITIES)}, got {inequality!r}")
        proto.inequality = INEQUALITIES[inequality]
    if penalty is not None:
        if isinstance(penalty, bool) or not isinstance(penalty, (int, float)) or not penalty > 0:
            raise ValueError(f"penalty: a number > 0, got {penalty!r}")
        proto.penalty = float(penalty)
    params = dict(params)
    if time_limit is not None:
        params["time_limit_seconds"] = time_limit
    if target_objective is not None:
        target = float(target_objective)
        params["target_energy"] = target if _model_sense(model, proto, sense) == "min" else -target
        params.setdefault("stop_at_first_valid", True)
    return puzzles_pb2.PuzzleSpec(model=proto), params
