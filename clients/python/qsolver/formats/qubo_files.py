"""The raw-model file formats of the standard benchmark sets, read as formats/ reads them (each
gives the file's objective f as written, sense MINIMIZE; qubo.py applies the sense):

  qbsolv  "c" comment lines, "p qubo 0 maxNodes nNodes nCouplers", then nNodes lines "i i w" and nCouplers
          lines "i j w" (0-based)
  orlib   Beasley's OR-Library bqp files: the number of instances, then per instance "n nnz" and nnz lines
          "i j q" (1-based); the matrix is symmetric, so a pair i != j weighs 2 q
  coo     "i j w" lines (0-based, i == j linear) as dimod's coo serializer writes them, an optional
          "# vartype=SPIN" or "# vartype=BINARY" header; the variables are 0 .. the largest index
  ising   "ising N [OFFSET]" then "h I VALUE" and "J I K VALUE" lines (0-based spins)"""
from .._proto import qubo_pb2
from ._common import INT32, INT64, strip_ascii
from ._fields import content_lines, expect_fields, field_error, int_field, line_error, number_field, six_digits

MAX_INDEX = INT32[1]


def _add(model, i, j, w):
    model.i.append(min(i, j))
    model.j.append(max(i, j))
    model.w.append(w)


def parse_qbsolv(text):
    lines = content_lines(text, ["c "])
    if not lines or lines[0].fields[0] != "p":
        raise line_error("qbsolv", lines[0].number if lines else 1,
                         "expected the program line 'p qubo 0 maxNodes nNodes nCouplers'")
    program = lines[0]
    expect_fields("qbsolv", program, 6, "p qubo topology maxNodes nNodes nCouplers")
    if program.fields[1] != "qubo":
        raise field_error("qbsolv", program, 1, "problem", "must be 'qubo'")
    max_nodes = int_field("qbsolv", program, 3, "maxNodes", 0, MAX_INDEX)
    nodes = int_field("qbsolv", program, 4, "nNodes", 0, max_nodes)
    couplers = int_field("qbsolv", program, 5, "nCouplers", 0, INT64[1])
    model = qubo_pb2.QuboModel(vartype=qubo_pb2.BINARY, num_variables=max_nodes)
    counts = [0, 0]  # diagonal, off-diagonal
    for line in lines[1:]:
        expect_fields("qbsolv", line, 3, "i j w")
        i = int_field("qbsolv", line, 0, "i", 0, max_nodes - 1)
        j = int_field("qbsolv", line, 1, "j", 0, max_nodes - 1)
        w = number_field("qbsolv", line, 2, "weight")
        counts[i != j] += 1
        _add(model, i, j, w)
    if counts != [nodes, couplers]:
        raise line_error("qbsolv", program.number,
                         f"the program line announces {nodes} diagonal and {couplers} coupler lines, the file "
                         f"has {counts[0]} and {counts[1]}")
    return model


def _orlib_instance(lines, start):
    """(model, next line) of the instance whose "n nnz" line is lines[start]."""
    header = lines[start]
    expect_fields("orlib", header, 2, "n nnz")
    n = int_field("orlib", header, 0, "n", 1, MAX_INDEX)
    nnz = int_field("orlib", header, 1, "nnz", 0, INT64[1])
    start += 1
    if len(lines) - start < nnz:
        raise line_error("orlib", header.number,
                         f"announces {nnz} entries, the file has {len(lines) - start} lines left")
    entries = {}  # (min, max) -> (q, line): a pair listed in both triangles must agree
    for line in lines[start:start + nnz]:
        expect_fields("orlib", line, 3, "i j q")
        i = int_field("orlib", line, 0, "i", 1, n)
        j = int_field("orlib", line, 1, "j", 1, n)
        q = number_field("orlib", line, 2, "q")
        key = (min(i, j) - 1, max(i, j) - 1)
        if key not in entries:
            entries[key] = (q, line.number)
        elif entries[key][0] != q:
            raise field_error("orlib", line, 2, "q",
                              f"{six_digits(q)} differs from {six_digits(entries[key][0])} given for the same "
                              f"pair on line {entries[key][1]} (the matrix is symmetric)")
    model = qubo_pb2.QuboModel(vartype=qubo_pb2.BINARY, num_variables=n)
    for (i, j), (q, _) in entries.items():
        _add(model, i, j, q if i == j else 2 * q)
    return model, start + nnz


def parse_orlib(text):
    """Every instance of an orlib file, in file order."""
    lines = content_lines(text, ["#"])
    if not lines:
        raise line_error("orlib", 1, "empty file")
    expect_fields("orlib", lines[0], 1, "instances")
    count = int_field("orlib", lines[0], 0, "instances", 1, MAX_INDEX)
    models, start = [], 1
    for k in range(count):
        if start >= len(lines):
            raise line_error("orlib", lines[0].number, f"announces {count} instances, the file has {k}")
        model, start = _orlib_instance(lines, start)
        models.append(model)
    if start < len(lines):
        raise line_error("orlib", lines[start].number,
                         f"unexpected line after the {count} instances the first line announces")
    return models


def _coo_vartype(text):
    """The vartype of a "# vartype=X" header line (BINARY without one)."""
    for number, raw in enumerate(text.split("\n"), start=1):
        line = strip_ascii(raw)
        if not line.startswith("#"):
            continue
        line = line[1:].lstrip(" \t\n\v\f\r")
        if not line.startswith("vartype="):
            continue
        name = line[len("vartype="):]
        if name in ("SPIN", "BINARY"):
            return qubo_pb2.SPIN if name == "SPIN" else qubo_pb2.BINARY
        raise line_error("coo", number, f"vartype must be SPIN or BINARY, got '{name}'")
    return qubo_pb2.BINARY


def parse_coo(text):
    model = qubo_pb2.QuboModel(vartype=_coo_vartype(text))
    n = 0
    for line in content_lines(text, ["#"]):
        expect_fields("coo", line, 3, "i j w")
        i = int_field("coo", line, 0, "i", 0, MAX_INDEX - 1)
        j = int_field("coo", line, 1, "j", 0, MAX_INDEX - 1)
        w = number_field("coo", line, 2, "weight")
        n = max(n, i + 1, j + 1)
        _add(model, i, j, w)
    model.num_variables = n
    return model


def _ising_term(line, n, model):
    """One "h I VALUE" or "J I K VALUE" line into model (n spins)."""
    field = line.fields[0] == "h"
    if not field and line.fields[0] != "J":
        raise field_error("ising", line, 0, "kind", f"'{line.fields[0]}': expected 'h' or 'J'")
    expect_fields("ising", line, 3 if field else 4, "h I VALUE" if field else "J I K VALUE")
    i = k = int_field("ising", line, 1, "I", 0, n - 1)
    if not field:
        k = int_field("ising", line, 2, "K", 0, n - 1)
        if k == i:
            raise field_error("ising", line, 2, "K", "a coupling needs two spins")
    _add(model, i, k, number_field("ising", line, 2 if field else 3, "VALUE"))


def parse_ising(text):
    lines = content_lines(text, ["#"])
    if not lines or lines[0].fields[0] != "ising" or len(lines[0].fields) not in (2, 3):
        raise line_error("ising", lines[0].number if lines else 1, "expected the header 'ising N [OFFSET]'")
    header = lines[0]
    n = int_field("ising", header, 1, "N", 0, MAX_INDEX)
    model = qubo_pb2.QuboModel(vartype=qubo_pb2.SPIN, num_variables=n)
    if len(header.fields) == 3:
        model.offset = number_field("ising", header, 2, "OFFSET")
    for line in lines[1:]:
        _ising_term(line, n, model)
    return model
