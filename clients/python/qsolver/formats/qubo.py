"""The `qubo` kind (formats/qubo_formats.cc, qubo_text.cc): a raw model in one of the formats
text, qbsolv, orlib, coo or ising (qubo_files.py), told apart from the file's first content line.

text: a header "n m offset", then m lines "i j w" (0-based, i == j is the linear term); '#' lines and blank
lines are ignored.

Sense: each file states an objective f; a model read with sense MAXIMIZE is stored as E = -f with
QuboModel.sense MAXIMIZE, so that samplers always minimise. orlib files are maximised by default, the others
minimised."""
from .._proto import puzzles_pb2, qubo_pb2
from ._common import INT32, INT64, atod, atoi, error, split_any, strip_ascii
from ._fields import content_lines, line_error
from .qubo_files import parse_coo, parse_ising, parse_orlib, parse_qbsolv

FORMATS = ("auto", "text", "qbsolv", "orlib", "coo", "ising")


def _looks_like_text(lines):
    """"n m offset" followed by exactly m lines whose indices lie below n."""
    first = lines[0].fields
    if len(first) != 3:
        return False
    n, m = atoi(first[0], INT64), atoi(first[1], INT64)
    if n is None or m is None or len(lines) - 1 != m:
        return False
    for line in lines[1:]:
        if len(line.fields) != 3:
            return False
        i, j = atoi(line.fields[0], INT64), atoi(line.fields[1], INT64)
        if i is None or j is None or i >= n or j >= n:
            return False
    return True


def detect_qubo_format(text):
    """The format of text from its first content line: "p qubo" -> qbsolv, "ising" -> ising, "# vartype="
    -> coo, one number -> orlib, "n m offset" followed by exactly m lines of indices below n -> text, other
    triples -> coo."""
    for line in content_lines(text, []):  # dimod's header comes before the first term
        if not line.fields[0].startswith("#"):
            break
        if any("vartype=" in field for field in line.fields):
            return "coo"
    lines = content_lines(text, ["#", "c "])
    if not lines:
        raise error("qubo: empty model")
    first = lines[0].fields
    if first[0] == "p":
        return "qbsolv"
    if first[0] == "ising":
        return "ising"
    if len(first) == 1 and atoi(first[0], INT64) is not None:
        return "orlib"
    if len(first) == 3:
        return "text" if _looks_like_text(lines) else "coo"
    raise line_error("qubo", lines[0].number,
                     "cannot tell the format (text, qbsolv, orlib, coo or ising); give --format")


def negated(model):
    """The same model with every weight and the offset negated (0 stays +0, so that writers never print
    "-0")."""
    out = qubo_pb2.QuboModel()
    out.CopyFrom(model)
    if out.offset != 0:
        out.offset = -out.offset
    out.w[:] = [-w if w != 0 else 0.0 for w in out.w]
    return out


def _with_sense(f, sense):
    model = negated(f) if sense == qubo_pb2.MAXIMIZE else f
    model.sense = qubo_pb2.MAXIMIZE if sense == qubo_pb2.MAXIMIZE else qubo_pb2.MINIMIZE
    return model


def parse_orlib_instances(text, sense=None):
    """Every instance of an orlib file, in file order, maximised unless sense says otherwise."""
    return [_with_sense(f, qubo_pb2.MAXIMIZE if sense is None else sense) for f in parse_orlib(text)]


def parse_qubo_model(text, format="auto", sense=None, instance=1):  # pylint: disable=redefined-builtin
    """The qs.v1.QuboModel of a raw model file, as `qsolve --kind qubo --format FORMAT --sense SENSE
    --instance N` reads it: format one of FORMATS, sense qubo_pb2.MINIMIZE or MAXIMIZE (None: the format's
    own), instance the orlib instance to read (1-based)."""
    if format not in FORMATS:
        raise error(f"--format: one of {', '.join(FORMATS)}; got '{format}'")
    if format == "auto":
        format = detect_qubo_format(text)
    if format == "orlib":
        models = parse_orlib_instances(text, sense)
        if not 1 <= instance <= len(models):
            raise error(f"--instance: the orlib file holds {len(models)} instances, asked for {instance}")
        return models[instance - 1]
    parse = {"qbsolv": parse_qbsolv, "coo": parse_coo, "ising": parse_ising}.get(format, parse_qubo_text)
    return _with_sense(parse(text), qubo_pb2.MINIMIZE if sense is None else sense)


def parse_qubo_text(text):
    """The text format's objective (BINARY); errors name the line."""
    model = qubo_pb2.QuboModel(vartype=qubo_pb2.BINARY)
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


def parse_qubo(text, **options):
    """The `qubo` kind's PuzzleSpec; options as parse_qubo_model takes them."""
    spec = puzzles_pb2.PuzzleSpec()
    spec.qubo.CopyFrom(parse_qubo_model(text, **options))
    return spec
