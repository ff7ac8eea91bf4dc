"""The plain QUBO text format (clients/formats/qubo_text.cc): a header "n m offset", then m lines "i j w"
(0-based, i == j is the linear term); '#' lines and blank lines are ignored."""
from .._proto import puzzles_pb2, qubo_pb2
from ._common import INT32, INT64, atod, atoi, error, split_any, strip_ascii


def parse_qubo_model(text):
    model = qubo_pb2.QuboModel(vartype=qubo_pb2.BINARY, sense=qubo_pb2.MINIMIZE)
    have_header = False
    n = m = terms = 0
    for line_no, raw in enumerate(text.split("\n"), start=1):
        line = strip_ascii(raw)
        if not line or line[0] == "#":
            continue
        fields = split_any(line, " \t", skip_empty=True)
        if len(fields) != 3:
            raise error(f"qubo text line {line_no}: expected 3 fields, got {len(fields)}")
        if not have_header:
            n, m, offset = atoi(fields[0], INT64), atoi(fields[1], INT64), atod(fields[2])
            if n is None or m is None or offset is None or n < 0 or m < 0 or n > INT32[1]:
                raise error(f"qubo text line {line_no}: header must be 'n m offset'")
            model.num_variables, model.offset = n, offset
            have_header = True
            continue
        i, j, w = atoi(fields[0], INT64), atoi(fields[1], INT64), atod(fields[2])
        if i is None or j is None or w is None:
            raise error(f"qubo text line {line_no}: expected 'i j w'")
        if i < 0 or j < 0 or i >= n or j >= n:
            raise error(f"qubo text line {line_no}: index ({i}, {j}) out of range [0, {n})")
        model.i.append(i)
        model.j.append(j)
        model.w.append(w)
        terms += 1
    if not have_header:
        raise error("qubo text: no 'n m offset' header")
    if terms != m:
        raise error(f"qubo text: header announces {m} terms, found {terms}")
    return model


def parse_qubo(text):
    spec = puzzles_pb2.PuzzleSpec()
    spec.qubo.CopyFrom(parse_qubo_model(text))
    return spec
