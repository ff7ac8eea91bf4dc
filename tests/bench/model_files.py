#!/usr/bin/python3
"""Constrained models in Python for the model-kind benchmarks (model_instances.py, model_benchmark.py):
binary or bounded-integer variables, a quadratic objective, linear or quadratic constraints; readers and
writers of the LP and OPB subsets the generators write, a QPLIB header reader (sense only), scoring of an
assignment, the linearized MILP for CBC and the textbook penalty QUBO.

This is an independent re-implementation, not the service's reader (core/families/model/*_text.cc): the
benchmark re-scores every answer with it, so that a bug in the service's reader or scorer shows up as a
disagreement instead of a wrong table.

LP subset read: '\\' comments; Minimize / Maximize (also min, max, minimise, maximise, minimum,
maximum); an optional "name:" before the objective and each constraint; linear terms "[+-] [coef] name",
a constant, a quadratic part "[ coef x * y + coef x ^ 2 ... ] / 2" (in the objective: the bracket holds
twice the coefficients) or "[ ... ]" in a constraint; Subject To (also such that, st, s.t.); Bounds
("x = v", "l <= x <= u", "x <= u", "x >= l", "x free" refused); Binary / Binaries / Bin; General /
Generals / Gen; End. Unnamed constraints are c1, c2, ... by their 1-based index (as the service names
them). Variables without a Binary or General line are refused (the service takes no continuous ones).

OPB subset read: '*' comments (a "#variable= N" header creates x1..xN), "min:" or "max:" objective, terms
"coef lit lit ..." with '~x' = 1 - x, constraints with >=, <= or =, each ending in ';'. Constraints are
c1, c2, ... in file order.
"""
import math
import re

MIN, MAX = "min", "max"
EQ, LE, GE = "=", "<=", ">="


class Model:
    """variables: names in order of first appearance; kind[name]: 'binary' or 'integer' with bounds[name]
    = (lower, upper); objective: {(i,), (i, j) with i <= j, (): constant} over variable indices;
    constraints: [(name, {monomial: coef}, sense, rhs)] with the constant moved to the rhs."""

    def __init__(self, name="", sense=MIN):
        self.name = name
        self.sense = sense
        self.variables = []
        self.index = {}
        self.kind = {}
        self.bounds = {}
        self.objective = {}
        self.constraints = []

    def var(self, name):
        if name not in self.index:
            self.index[name] = len(self.variables)
            self.variables.append(name)
        return self.index[name]

    def monomial(self, names):
        return tuple(sorted(self.var(v) for v in names))

    def add_objective(self, coef, *names):
        key = self.monomial(names)
        self.objective[key] = self.objective.get(key, 0) + coef

    def add_constraint(self, name, terms, sense, rhs):
        """terms: [(coef, name, ...)]; equal monomials are summed."""
        expr = {}
        for coef, *names in terms:
            key = self.monomial(names)
            expr[key] = expr.get(key, 0) + coef
        self.constraints.append((name, expr, sense, rhs))

    def binary(self, name):
        self.var(name)
        self.kind[name] = "binary"

    def is_binary(self):
        return all(self.kind.get(v) == "binary" for v in self.variables)


# ---------------------------------------------------------------------------------------------- scoring

def value_of(model, assignment, key):
    product = 1
    for i in key:
        product *= assignment[model.variables[i]]
    return product


def polynomial(model, expr, assignment):
    return sum(c * value_of(model, assignment, k) for k, c in expr.items())


def score(model, assignment, tolerance=1e-6):
    """(objective in the model's own sense, [names of broken constraints], [problems with the assignment:
    missing variables, values outside the domain]). Extra names (a MILP's y_ variables) are ignored."""
    problems = []
    values = {}
    for v in model.variables:
        x = assignment.get(v)
        if x is None:
            problems.append(f"{v}: no value")
            x = 0
        x = float(x)
        if abs(x - round(x)) > tolerance:
            problems.append(f"{v}: {x:g} is not integral")
        x = round(x)
        lo, hi = model.bounds.get(v, (0, 1)) if model.kind.get(v) == "integer" else (0, 1)
        if not lo <= x <= hi:
            problems.append(f"{v}: {x} outside [{lo}, {hi}]")
        values[v] = x
    objective = polynomial(model, model.objective, values)
    broken = []
    for name, expr, sense, rhs in model.constraints:
        lhs = polynomial(model, expr, values)
        slack = tolerance * max(1.0, abs(rhs))
        if (sense == EQ and abs(lhs - rhs) > slack) or (sense == LE and lhs > rhs + slack) or \
                (sense == GE and lhs < rhs - slack):
            broken.append(name)
    return objective, broken, problems


def gap_percent(sense, objective, target):
    """How far objective is behind target, in % of |target|: 0 at the target, negative beyond it (a
    target that is not an optimum); the plain difference when the target is 0."""
    if objective is None or target is None:
        return None
    diff = objective - target if sense == MIN else target - objective
    return 100.0 * diff / abs(target) if target != 0 else diff


def reaches(sense, objective, target, tolerance=1e-6):
    if objective is None or target is None:
        return False
    slack = tolerance * max(1.0, abs(target))
    return objective <= target + slack if sense == MIN else objective >= target - slack


# ---------------------------------------------------------------------------------------------- writers

def fmt(x):
    """A coefficient with the fewest digits that read back exactly (whole numbers without '.0')."""
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(float(x))


def _join_wrapped(pieces, indent="  ", width=100):
    lines, line = [], ""
    for p in pieces:
        if line and len(line) + len(p) > width:
            lines.append(line)
            line = indent
        line += p
    if line.strip():
        lines.append(line)
    return "\n".join(lines)


def _signed(coef, body, first):
    """'body', '2 body', '- 2 body' first; ' + body', ' - 2 body' after."""
    mag = abs(coef)
    text = body if mag == 1 else f"{fmt(mag)} {body}"
    if first:
        return f"- {text}" if coef < 0 else text
    return f" {'-' if coef < 0 else '+'} {text}"


def lp_expression(model, expr, objective):
    """The LP text pieces of {monomial: coef}: linear terms, then the quadratic part in brackets (its
    coefficients doubled and '/ 2' after it in the objective). The constant is left to the caller."""
    if any(len(k) > 2 for k in expr):
        raise ValueError("LP: terms of degree above two")
    pieces = []
    for k, c in expr.items():
        if len(k) == 1 and c != 0:
            pieces.append(_signed(c, model.variables[k[0]], not pieces))
    quad = [(2 * c if objective else c, k) for k, c in expr.items() if len(k) == 2 and c != 0]
    if quad:
        pieces.append(" + [ " if pieces else "[ ")
        for n, (c, (i, j)) in enumerate(quad):
            body = f"{model.variables[i]} ^ 2" if i == j else f"{model.variables[i]} * {model.variables[j]}"
            pieces.append(_signed(c, body, n == 0))
        pieces.append(" ] / 2" if objective else " ]")
    if not pieces:
        pieces = ["0 " + model.variables[0]] if model.variables else ["0"]
    return pieces


def write_lp(model, comments=()):
    out = [f"\\ {c}" if c else "\\" for c in comments]
    out.append("Maximize" if model.sense == MAX else "Minimize")
    pieces = lp_expression(model, {k: c for k, c in model.objective.items() if k}, True)
    const = model.objective.get((), 0)
    if const:
        pieces.append(f" {'-' if const < 0 else '+'} {fmt(abs(const))}")
    out.append(_join_wrapped([" obj: "] + pieces))
    if model.constraints:
        out.append("Subject To")
        for name, expr, sense, rhs in model.constraints:
            pieces = lp_expression(model, expr, False)
            out.append(_join_wrapped([f" {name}: "] + pieces + [f" {sense} {fmt(rhs)}"]))
    integers = [v for v in model.variables if model.kind.get(v) == "integer"]
    if integers:
        out.append("Bounds")
        for v in integers:
            lo, hi = model.bounds[v]
            out.append(f" {fmt(lo)} <= {v} <= {fmt(hi)}")
    binaries = [v for v in model.variables if model.kind.get(v, "binary") == "binary"]
    if binaries:
        out.append("Binary")
        out.append(_join_wrapped([" "] + [f"{v} " for v in binaries], indent=" "))
    if integers:
        out.append("General")
        out.append(_join_wrapped([" "] + [f"{v} " for v in integers], indent=" "))
    out.append("End")
    return "\n".join(line.rstrip() for line in out) + "\n"


def _opb_terms(model, expr):
    pieces = []
    for key, coef in expr.items():
        if coef == 0 or not key:
            continue
        if not float(coef).is_integer():
            raise ValueError("OPB: integer coefficients only")
        pieces.append(f"{'+' if coef >= 0 else '-'}{fmt(abs(coef))} " +
                      " ".join(model.variables[i] for i in key) + " ")
    return pieces


def write_opb(model, comments=()):
    """Standard OPB (PB16): min: only (a maximised model is written as min of the negated objective,
    so write the model already minimised), >= and = constraints (<= written with negated sides)."""
    if model.sense != MIN:
        raise ValueError("write_opb: standard OPB minimises; negate the objective first")
    if not model.is_binary():
        raise ValueError("OPB: binary variables only")
    if any(not re.fullmatch(r"x[1-9][0-9]*", v) for v in model.variables):
        raise ValueError("OPB: variables are named x1 ... xN")
    products = [k for k in model.objective if len(k) > 1]
    products += [k for _, e, _, _ in model.constraints for k in e if len(k) > 1]
    head = f"* #variable= {len(model.variables)} #constraint= {len(model.constraints)}"
    if products:
        head += f" #product= {len(products)} sizeproduct= {sum(len(k) for k in products)}"
    out = [head] + [f"* {c}" for c in comments]
    const = model.objective.get((), 0)
    if const:
        raise ValueError("OPB: no constant in the objective")
    out.append(_join_wrapped(["min: "] + _opb_terms(model, model.objective) + [";"], indent=""))
    for name, expr, sense, rhs in model.constraints:
        if sense == LE:
            expr, sense, rhs = {k: -c for k, c in expr.items()}, GE, -rhs
        out.append(_join_wrapped(_opb_terms(model, expr) + [f"{sense} {fmt(rhs)} ;"], indent=""))
    return "\n".join(line.rstrip() for line in out) + "\n"


# ---------------------------------------------------------------------------------------------- readers

LP_SECTIONS = [
    (r"(minimize|minimise|minimum|min)", "min"), (r"(maximize|maximise|maximum|max)", "max"),
    (r"(subject\s+to|such\s+that|st|s\.t\.)", "st"), (r"(bounds|bound)", "bounds"),
    (r"(binary|binaries|bin)", "binary"), (r"(general|generals|gen|integers?)", "general"),
    (r"end", "end"),
]
LP_TOKEN = re.compile(r"\s*(?:(?P<num>(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)|(?P<sense><=|=<|>=|=>|<|>|=)|"
                      r"(?P<op>[-+*^/\[\]:])|(?P<name>[A-Za-z_!\"#$%&(),;?@'{}|~][A-Za-z0-9_.!\"#$%&(),;?@'{}|~]*))")


def _lp_tokens(line, lineno):
    pos, out = 0, []
    while pos < len(line):
        if line[pos:].strip() == "":
            break
        m = LP_TOKEN.match(line, pos)
        if not m:
            raise ValueError(f"LP line {lineno}: cannot read '{line[pos:pos + 20]}'")
        for kind in ("num", "sense", "op", "name"):
            if m.group(kind) is not None:
                out.append((kind, m.group(kind)))
                break
        pos = m.end()
    return out


def _section_of(line):
    text = line.strip().lower()
    for pattern, section in LP_SECTIONS:
        if re.fullmatch(pattern, text):
            return section
    return None


def _parse_lp_expression(model, tokens, objective):
    """The tokens of one expression (no name, no sense) as {monomial: coef}; a constant under ()."""
    expr = {}

    def add(key, c):
        expr[key] = expr.get(key, 0) + c

    def terms(toks, scale, inside):
        i, n = 0, len(toks)
        while i < n:
            sign = 1.0
            while i < n and toks[i][0] == "op" and toks[i][1] in "+-":
                sign = -sign if toks[i][1] == "-" else sign
                i += 1
            coef = 1.0
            has_number = i < n and toks[i][0] == "num"
            if has_number:
                coef = float(toks[i][1])
                i += 1
            if i < n and toks[i][0] == "name":
                a = toks[i][1]
                i += 1
                if i + 1 < n and toks[i] == ("op", "*") and toks[i + 1][0] == "name":
                    key = model.monomial([a, toks[i + 1][1]])
                    i += 2
                elif i + 1 < n and toks[i] == ("op", "^") and toks[i + 1] == ("num", "2"):
                    key = model.monomial([a, a])
                    i += 2
                else:
                    key = model.monomial([a])
                if inside != (len(key) == 2):
                    raise ValueError("LP: products go inside [ ], linear terms outside")
                add(key, sign * coef * scale)
            elif has_number and not inside:
                add((), sign * coef * scale)
            else:
                raise ValueError(f"LP: expected a term, got '{toks[i][1] if i < n else 'the end'}'")

    i, n, outside = 0, len(tokens), []
    while i < n:
        if tokens[i] == ("op", "["):
            close = next((k for k in range(i, n) if tokens[k] == ("op", "]")), None)
            if close is None:
                raise ValueError("LP: '[' without ']'")
            sign = 1.0
            while outside and outside[-1][0] == "op" and outside[-1][1] in "+-":
                sign = -sign if outside.pop()[1] == "-" else sign
            scale = sign
            j = close + 1
            if j + 1 < n and tokens[j] == ("op", "/"):
                scale /= float(tokens[j + 1][1])
                j += 2
            elif objective:
                raise ValueError("LP: the objective's quadratic part must end in '] / 2'")
            terms(tokens[i + 1:close], scale, True)
            i = j
        else:
            outside.append(tokens[i])
            i += 1
    terms(outside, 1.0, False)
    return expr


def _fix_squares(model, expr):
    """x ^ 2 of a binary is x: monomials (i, i) become (i,)."""
    out = {}
    for k, c in expr.items():
        if len(k) == 2 and k[0] == k[1] and model.kind.get(model.variables[k[0]]) == "binary":
            k = (k[0],)
        out[k] = out.get(k, 0) + c
    return {k: c for k, c in out.items() if c != 0}


def read_lp(text):
    model = Model()
    section = None
    statements = []  # (section, tokens) with expressions joined across lines
    current = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("\\", 1)[0]
        if not line.strip():
            continue
        sec = _section_of(line)
        if sec:
            section = sec
            if sec in ("min", "max"):
                model.sense = MIN if sec == "min" else MAX
                current = ("obj", [])
                statements.append(current)
            if sec == "end":
                break
            continue
        toks = _lp_tokens(line, lineno)
        if section in ("min", "max"):
            current[1].extend(toks)
        elif section == "st":
            # a new constraint starts after the previous one got its right-hand side
            if current is None or current[0] != "con" or _complete(current[1]):
                current = ("con", [])
                statements.append(current)
            current[1].extend(toks)
        elif section == "bounds":
            statements.append(("bound", toks))
        elif section in ("binary", "general"):
            for kind, name in toks:
                model.var(name)
                model.kind[name] = "binary" if section == "binary" else "integer"
                if section == "general":
                    model.bounds.setdefault(name, (0, math.inf))
        else:
            raise ValueError(f"LP line {lineno}: text before the objective")
    # bounds first (they decide nothing about order), then expressions
    pending_bounds = []
    number = 0
    for kind, toks in statements:
        if kind == "obj":
            if len(toks) >= 2 and toks[0][0] == "name" and toks[1] == ("op", ":"):
                model.name = model.name or toks[0][1]
                toks = toks[2:]
            model.objective = _parse_lp_expression(model, toks, True)
        elif kind == "con":
            number += 1
            name = f"c{number}"
            if len(toks) >= 2 and toks[0][0] == "name" and toks[1] == ("op", ":"):
                name, toks = toks[0][1], toks[2:]
            k = next(i for i, t in enumerate(toks) if t[0] == "sense")
            sense = {"<": LE, "<=": LE, "=<": LE, ">": GE, ">=": GE, "=>": GE, "=": EQ}[toks[k][1]]
            rhs_tokens = toks[k + 1:]
            sign = -1.0 if rhs_tokens and rhs_tokens[0] == ("op", "-") else 1.0
            rhs = sign * float(rhs_tokens[-1][1])
            expr = _parse_lp_expression(model, toks[:k], False)
            rhs -= expr.pop((), 0)
            model.constraints.append((name, expr, sense, rhs))
        else:
            pending_bounds.append(toks)
    for toks in pending_bounds:
        _read_bound(model, toks)
    for v in model.variables:
        if v not in model.kind:
            raise ValueError(f"LP: variable {v} is neither Binary nor General")
    model.objective = _fix_squares(model, model.objective) | (
        {(): model.objective[()]} if model.objective.get(()) else {})
    model.constraints = [(n, _fix_squares(model, e), s, r) for n, e, s, r in model.constraints]
    return model


def _complete(tokens):
    """A constraint's tokens hold a sense and a number after it."""
    seen = False
    for kind, _ in tokens:
        if kind == "sense":
            seen = True
        elif seen and kind == "num":
            return True
    return False


def _signed_numbers(toks):
    out, sign = [], 1.0
    for kind, text in toks:
        if (kind, text) == ("op", "-"):
            sign = -sign
        elif kind == "num":
            out.append(sign * float(text))
            sign = 1.0
        elif kind == "name" and text.lower() in ("inf", "infinity"):
            out.append(sign * math.inf)
            sign = 1.0
    return out


def _read_bound(model, toks):
    names = [t for k, t in toks if k == "name" and t.lower() not in ("inf", "infinity")]
    if len(names) != 1:
        raise ValueError(f"LP bound: {' '.join(t for _, t in toks)}")
    v = names[0]
    model.var(v)
    lo, hi = model.bounds.get(v, (0, math.inf))
    senses = [t for k, t in toks if k == "sense"]
    nums = _signed_numbers(toks)
    first_is_name = toks[0][0] == "name"
    if len(senses) == 2:
        lo, hi = nums[0], nums[1]
    elif senses == ["="]:
        lo = hi = nums[0]
    elif len(senses) == 1:
        s = senses[0]
        upper = (s in ("<=", "=<", "<")) == first_is_name
        if upper:
            hi = nums[0]
        else:
            lo = nums[0]
    else:
        raise ValueError(f"LP bound: {' '.join(t for _, t in toks)}")
    model.bounds[v] = (lo, hi)
    if model.kind.get(v) == "binary" and (lo, hi) != (0, 1):
        # a binary fixed by its bounds: keep it binary, as a constraint
        model.constraints.append((f"bound_{v}", {(model.index[v],): 1.0}, EQ if lo == hi else GE, lo))


def read_opb(text):
    model = Model()
    header_vars = None
    body = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("*"):
            m = re.search(r"#variable=\s*(\d+)", line)
            if m and header_vars is None:
                header_vars = int(m.group(1))
                for k in range(1, header_vars + 1):
                    model.binary(f"x{k}")
            continue
        body.append(line)
    statements = " ".join(body).split(";")
    number = 0
    for st in statements:
        words = st.split()
        if not words:
            continue
        objective = False
        if words[0] in ("min:", "max:") or words[0] in ("min", "max") and len(words) > 1 and words[1] == ":":
            model.sense = MIN if words[0].startswith("min") else MAX
            words = words[1:] if words[0].endswith(":") else words[2:]
            objective = True
        sense, rhs = None, None
        if not objective:
            k = next((i for i, w in enumerate(words) if w in (">=", "<=", "=")), None)
            if k is None:
                raise ValueError(f"OPB: no relation in '{st.strip()[:60]}'")
            sense, rhs, words = words[k], float(words[k + 1]), words[:k]
        expr = {}
        coef, lits = None, []

        def flush():
            if coef is None:
                return
            # expand (1 - x) factors
            polys = {(): coef}
            for lit in lits:
                neg = lit.startswith("~")
                name = lit[1:] if neg else lit
                model.binary(name)
                i = model.index[name]
                nxt = {}
                for key, c in polys.items():
                    with_x = tuple(sorted(set(key) | {i}))
                    if neg:
                        nxt[key] = nxt.get(key, 0) + c
                        nxt[with_x] = nxt.get(with_x, 0) - c
                    else:
                        nxt[with_x] = nxt.get(with_x, 0) + c
                polys = nxt
            for key, c in polys.items():
                expr[key] = expr.get(key, 0) + c

        for w in words:
            if re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", w):
                flush()
                coef, lits = float(w), []
            elif w in ("+", "-"):
                continue
            else:
                if coef is None:
                    coef, lits = 1.0, []
                lits.append(w)
        flush()
        expr = {k: c for k, c in expr.items() if c != 0}
        if objective:
            model.objective = expr
        else:
            number += 1
            rhs -= expr.pop((), 0)
            model.constraints.append((f"c{number}", expr, sense, rhs))
    return model


def qplib_sense(text):
    """QPLIB's third line: minimize or maximize."""
    lines = [l.split("#")[0].strip() for l in text.splitlines()]
    lines = [l for l in lines if l]
    return MAX if len(lines) > 2 and lines[2].lower().startswith("max") else MIN


def read_model(path):
    """The Model of an .lp or .opb file; None for other formats (the benchmark then relies on the
    service's validation)."""
    with open(path) as f:
        text = f.read()
    if path.endswith(".lp"):
        return read_lp(text)
    if path.endswith(".opb"):
        return read_opb(text)
    return None


def file_sense(path):
    with open(path) as f:
        text = f.read()
    if path.endswith(".lp"):
        return read_lp(text).sense
    if path.endswith(".opb"):
        return read_opb(text).sense
    return qplib_sense(text)


# ------------------------------------------------------------------------------------- MILP and QUBO

def linearized_lp(model):
    """The model as a linear MILP in LP text (binary products y_i_j with y <= x_i, y <= x_j,
    y >= x_i + x_j - 1), for CBC. Binary variables only."""
    if not model.is_binary():
        raise ValueError("linearized_lp: binary variables only")
    lin = Model(model.name, model.sense)
    for v in model.variables:
        lin.binary(v)
    products = {}

    def linear(expr):
        out = {}
        for key, c in expr.items():
            if len(key) <= 1:
                name = None if not key else model.variables[key[0]]
            else:
                if len(key) != 2:
                    raise ValueError("linearized_lp: degree above two")
                if key not in products:
                    products[key] = f"y_{key[0]}_{key[1]}"
                name = products[key]
            out.setdefault(name, 0)
            out[name] += c
        return out

    obj = linear(model.objective)
    cons = [(n, linear(e), s, r) for n, e, s, r in model.constraints]
    for key, y in products.items():
        lin.binary(y)
    for name, c in obj.items():
        if name is None:
            lin.objective[()] = c
        else:
            lin.add_objective(c, name)
    for n, e, s, r in cons:
        lin.add_constraint(n, [(c, v) for v, c in e.items() if v is not None], s, r - e.get(None, 0))
    for (i, j), y in products.items():
        a, b = model.variables[i], model.variables[j]
        lin.add_constraint(f"{y}_a", [(1, y), (-1, a)], LE, 0)
        lin.add_constraint(f"{y}_b", [(1, y), (-1, b)], LE, 0)
        lin.add_constraint(f"{y}_c", [(1, y), (-1, a), (-1, b)], GE, -1)
    return write_lp(lin)


def penalty_qubo(model, factor=2.0):
    """The textbook penalty QUBO of a binary model with linear constraints and integer coefficients:
    minimise f (f = -objective for a maximised model) + sum over constraints of P (a.x + s - b)^2, with
    P = factor x the largest |coefficient| of f, s = 0 for an equality, and for an inequality a slack
    s = sum_k w_k z_k of binary z_k whose weights 1, 2, 4, ..., 2^(K-2) and R - (2^(K-1) - 1) span exactly
    0..R, R the range of the slack (b - min a.x for <=, max a.x - b for >=; s enters with a minus sign
    for >=). Returns (n, {(i, j): w} with i <= j, offset, P, number of slack bits); bit k < len(variables)
    is the model's variable k, the slack bits follow."""
    if not model.is_binary():
        raise ValueError("penalty_qubo: binary variables only")
    sign = -1.0 if model.sense == MAX else 1.0
    f = {k: sign * c for k, c in model.objective.items()}
    coefs = [abs(c) for k, c in f.items() if k]
    P = factor * (max(coefs) if coefs else 1.0)
    Q = {}
    offset = f.get((), 0.0)

    def add(i, j, w):
        key = (i, j) if i <= j else (j, i)
        Q[key] = Q.get(key, 0.0) + w

    for key, c in f.items():
        if len(key) == 1:
            add(key[0], key[0], c)
        elif len(key) == 2:
            add(key[0], key[1], c)
        elif key:
            raise ValueError("penalty_qubo: degree above two")
    n = len(model.variables)
    slack_bits = 0
    for name, expr, sense, rhs in model.constraints:
        if any(len(k) != 1 for k in expr):
            raise ValueError(f"penalty_qubo: constraint {name} is not linear")
        terms = [(k[0], c) for k, c in expr.items()]
        if any(not float(c).is_integer() for _, c in terms) or not float(rhs).is_integer():
            raise ValueError(f"penalty_qubo: constraint {name} has non-integer coefficients")
        if sense != EQ:
            lo = sum(c for _, c in terms if c < 0)
            hi = sum(c for _, c in terms if c > 0)
            R = int(rhs - lo) if sense == LE else int(hi - rhs)
            if R < 0:
                raise ValueError(f"penalty_qubo: constraint {name} cannot hold")
            if R > 0:
                K = R.bit_length()
                weights = [1 << k for k in range(K - 1)] + [R - ((1 << (K - 1)) - 1)]
                s = 1.0 if sense == LE else -1.0
                for w in weights:
                    terms.append((n, s * w))
                    n += 1
                    slack_bits += 1
        # P (sum a_i x_i - b)^2 = P (sum_i a_i^2 x_i + 2 sum_{i<j} a_i a_j x_i x_j - 2 b sum a_i x_i + b^2)
        for a_pos, (i, a) in enumerate(terms):
            add(i, i, P * (a * a - 2 * rhs * a))
            for j, b in terms[a_pos + 1:]:
                add(i, j, P * 2 * a * b)
        offset += P * rhs * rhs
    return n, {k: w for k, w in Q.items() if w != 0}, offset, P, slack_bits


def qubo_text(n, Q, offset):
    lines = [f"{n} {len(Q)} {fmt(offset)}"]
    lines += [f"{i} {j} {fmt(w)}" for (i, j), w in sorted(Q.items())]
    return "\n".join(lines) + "\n"


def qubo_energy(Q, offset, bits):
    return offset + sum(w * bits[i] * bits[j] for (i, j), w in Q.items())
