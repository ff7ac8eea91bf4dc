"""Constrained models in Python: qsolver.Model builds the qs.v1.ConstrainedModel that the service's `model`
kind compiles into a QUBO with penalties it chooses, writes it as CPLEX LP text, and scores an assignment
locally (evaluate).

    m = qsolver.Model("knapsack", sense="max")
    x = m.binary_array("x", 3)
    m.maximize(4 * x[0] + 3 * x[1] + 5 * x[2])
    m.add(2 * x[0] + 3 * x[1] + 4 * x[2] <= 5, name="weight")
    client.solve_model(m, time_limit=2).assignment      # {"x_0": 1, "x_1": 0, "x_2": 0} or as good

Variables are binary (0/1), spin (-1/+1) or bounded integers; expressions are polynomials of them
(+, -, * with numbers and with each other, any degree); `expr == c`, `expr <= c`, `expr >= c` are
constraints. Powers that the variable's domain makes trivial are taken at build time: x*x is x for a
binary, s*s is 1 for a spin (so x*x + x merges into 2 x); an integer's n*n stays a product of n with
itself (n ^ 2 in LP). Array variables are named name_i_j (x_0_1), names valid in CPLEX LP."""
import collections
import math
import numbers
import re

import numpy as np

from ._proto import model_pb2, qubo_pb2

BINARY, SPIN, INTEGER = "binary", "spin", "integer"
_VARIABLE_TYPES = {BINARY: model_pb2.MODEL_VARIABLE_BINARY, SPIN: model_pb2.MODEL_VARIABLE_SPIN,
                   INTEGER: model_pb2.MODEL_VARIABLE_INTEGER}
_SENSES = {"min": qubo_pb2.MINIMIZE, "max": qubo_pb2.MAXIMIZE}
_SENSE_WORDS = {"min": "min", "minimize": "min", "minimise": "min", "max": "max", "maximize": "max",
                "maximise": "max"}
_CONSTRAINT_SENSES = {"==": model_pb2.CONSTRAINT_EQUAL, "<=": model_pb2.CONSTRAINT_LESS_EQUAL,
                      ">=": model_pb2.CONSTRAINT_GREATER_EQUAL}
INTEGER_ENCODINGS = {"default": model_pb2.INTEGER_ENCODING_DEFAULT, "one_hot": model_pb2.INTEGER_ENCODING_ONE_HOT,
                     "binary": model_pb2.INTEGER_ENCODING_BINARY, "unary": model_pb2.INTEGER_ENCODING_UNARY}
INEQUALITIES = {"default": model_pb2.INEQUALITY_DEFAULT, "slack": model_pb2.INEQUALITY_SLACK,
                "unbalanced": model_pb2.INEQUALITY_UNBALANCED}
# ModelVariable: upper - lower at most 2^20.
MAX_INTEGER_RANGE = 1 << 20
# How far a constraint may miss its right-hand side and still hold in evaluate() (relative above 1).
TOLERANCE = 1e-9

# CPLEX LP names: at most 255 characters, letters, digits and !"#$%&(),.;?@_'`{}~; here they start with a
# letter or '_' (CPLEX's advice, and other readers refuse more first characters). e or E followed by a digit
# or another e reads as an exponent, and a section keyword as a new section.
_LP_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9!\"#$%&(),.;?@_'`{}~]{0,254}")
_LP_EXPONENT_LIKE = re.compile(r"[eE]([0-9eE+-]|$)")
_LP_KEYWORDS = {"min", "minimize", "minimise", "minimum", "max", "maximize", "maximise", "maximum", "st",
                "subject", "such", "bounds", "bound", "binary", "binaries", "bin", "general", "generals", "gen",
                "integer", "integers", "semi-continuous", "semis", "end", "free", "inf", "infinity"}
LP_LINE_WIDTH = 240


def lp_name_error(name):
    """Why `name` cannot be written in CPLEX LP, or None when it can."""
    if not _LP_NAME.fullmatch(name):
        return ("LP names are 1 to 255 letters, digits and !\"#$%&(),.;?@_'`{}~, starting with a letter "
                "or '_'")
    if _LP_EXPONENT_LIKE.match(name):
        return "an LP name starting with e or E followed by a digit or e reads as an exponent"
    if name.lower() in _LP_KEYWORDS:
        return "an LP section keyword"
    return None


def _number(value, what):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{what}: expected a number, got {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{what}: {value} is not finite")
    return value


class Variable:
    """A variable of one Model: name, type ("binary", "spin" or "integer"), lower and upper (integers),
    index (its position in the model). Arithmetic makes an Expression."""

    __slots__ = ("model", "index", "name", "type", "lower", "upper")

    def __init__(self, model, index, name, vtype, lower, upper):
        self.model, self.index, self.name, self.type = model, index, name, vtype
        self.lower, self.upper = lower, upper

    def as_expression(self):
        return Expression(self.model, {(self.index,): 1.0})

    def __hash__(self):
        return hash((id(self.model), self.index))

    def __repr__(self):
        bounds = f", {self.lower}..{self.upper}" if self.type == INTEGER else ""
        return f"Variable({self.name!r}, {self.type}{bounds})"

    def __str__(self):
        return self.name

    def __add__(self, other):
        return self.as_expression() + other

    def __radd__(self, other):
        return self.as_expression() + other

    def __sub__(self, other):
        return self.as_expression() - other

    def __rsub__(self, other):
        return other + (-self.as_expression())

    def __mul__(self, other):
        return self.as_expression() * other

    def __rmul__(self, other):
        return self.as_expression() * other

    def __neg__(self):
        return -self.as_expression()

    def __pos__(self):
        return self.as_expression()

    def __pow__(self, power):
        return self.as_expression() ** power

    def __eq__(self, other):
        return self.as_expression() == other

    def __ne__(self, other):
        return not (self.as_expression() == other)

    def __le__(self, other):
        return self.as_expression() <= other

    def __ge__(self, other):
        return self.as_expression() >= other


def _reduce_key(model, indices):
    """A product's variable indices, sorted, with the powers the domains make trivial taken: x^k = x for a
    binary, s^2 = 1 for a spin."""
    counts = collections.Counter(indices)
    key = []
    for index in sorted(counts):
        vtype = model._variables[index].type
        if vtype == BINARY:
            key.append(index)
        elif vtype == SPIN:
            if counts[index] % 2:
                key.append(index)
        else:
            key.extend([index] * counts[index])
    return tuple(key)


class Expression:
    """A polynomial over one model's variables: terms {sorted tuple of variable indices: coefficient} and a
    constant. `expr == c`, `expr <= c`, `expr >= c` (c a number or another expression) make a Constraint."""

    __slots__ = ("model", "terms", "constant")

    def __init__(self, model=None, terms=None, constant=0.0):
        self.model = model
        self.terms = terms if terms is not None else {}
        self.constant = float(constant)

    @staticmethod
    def of(value, what="expression"):
        """An Expression from a number, a Variable or an Expression (a copy)."""
        if isinstance(value, Expression):
            return Expression(value.model, dict(value.terms), value.constant)
        if isinstance(value, Variable):
            return value.as_expression()
        return Expression(None, {}, _number(value, what))

    def _model_with(self, other):
        if self.model is None:
            return other.model
        if other.model is not None and other.model is not self.model:
            raise ValueError("an expression mixes variables of two models")
        return self.model

    def _add(self, other, sign):
        if isinstance(other, np.ndarray):
            return NotImplemented
        try:
            other = other if isinstance(other, Expression) else Expression.of(other)
        except TypeError:
            return NotImplemented
        out = Expression(self._model_with(other), dict(self.terms), self.constant + sign * other.constant)
        for key, c in other.terms.items():
            total = out.terms.get(key, 0.0) + sign * c
            if total:
                out.terms[key] = total
            else:
                out.terms.pop(key, None)
        return out

    def __add__(self, other):
        return self._add(other, 1.0)

    def __radd__(self, other):
        return self._add(other, 1.0)

    def __sub__(self, other):
        return self._add(other, -1.0)

    def __rsub__(self, other):
        result = self._add(other, -1.0)
        return result if result is NotImplemented else -result

    def __neg__(self):
        return Expression(self.model, {k: -c for k, c in self.terms.items()}, -self.constant)

    def __pos__(self):
        return Expression.of(self)

    def __mul__(self, other):
        if isinstance(other, np.ndarray):
            return NotImplemented
        if isinstance(other, (Expression, Variable)):
            other = Expression.of(other)
            model = self._model_with(other)
            out = Expression(model, {}, self.constant * other.constant)
            pairs = [(k, c) for k, c in self.terms.items()] + ([((), self.constant)] if self.constant else [])
            others = [(k, c) for k, c in other.terms.items()] + ([((), other.constant)] if other.constant else [])
            for ka, ca in pairs:
                for kb, cb in others:
                    if not ka and not kb:
                        continue
                    key = _reduce_key(model, ka + kb)
                    if key:
                        total = out.terms.get(key, 0.0) + ca * cb
                        if total:
                            out.terms[key] = total
                        else:
                            out.terms.pop(key, None)
                    else:
                        out.constant += ca * cb
            return out
        try:
            factor = _number(other, "coefficient")
        except TypeError:
            return NotImplemented
        if factor == 0:
            return Expression(self.model, {}, 0.0)
        return Expression(self.model, {k: c * factor for k, c in self.terms.items()}, self.constant * factor)

    def __rmul__(self, other):
        return self.__mul__(other)

    def __truediv__(self, other):
        try:
            divisor = _number(other, "divisor")
        except TypeError:
            return NotImplemented
        if divisor == 0:
            raise ZeroDivisionError("expression divided by zero")
        return self * (1.0 / divisor)

    def __pow__(self, power):
        if not isinstance(power, numbers.Integral) or isinstance(power, bool) or power < 0:
            raise ValueError(f"an expression's power must be a non-negative integer, got {power!r}")
        out = Expression(self.model, {}, 1.0)
        for _ in range(int(power)):
            out = out * self
        return out

    def _compare(self, other, sense):
        if isinstance(other, np.ndarray):
            return NotImplemented
        try:
            difference = self - other
        except TypeError:
            return NotImplemented
        if difference is NotImplemented:
            return NotImplemented
        return Constraint(Expression(difference.model, difference.terms), sense, -difference.constant)

    def __eq__(self, other):
        return self._compare(other, "==")

    def __le__(self, other):
        return self._compare(other, "<=")

    def __ge__(self, other):
        return self._compare(other, ">=")

    __hash__ = None

    @property
    def degree(self):
        return max((len(k) for k in self.terms), default=0)

    def variables(self):
        """The variables of the expression, in model order."""
        if self.model is None:
            return []
        return [self.model._variables[i] for i in sorted({i for k in self.terms for i in k})]

    def value(self, values):
        """The expression's value for the variables' values (a sequence by model index)."""
        return self.constant + sum(c * math.prod(values[i] for i in key) for key, c in self.terms.items())

    def to_proto(self):
        """The qs.v1.ModelPolynomial."""
        out = model_pb2.ModelPolynomial(constant=self.constant)
        for key, c in self.terms.items():
            out.terms.add(coefficient=c, variables=key)
        return out

    def __repr__(self):
        if self.model is None:
            return f"Expression({_format_number(self.constant)})"
        return f"Expression({_lp_terms(self.model, self.terms, self.constant)})"


def quicksum(items):
    """The sum of numbers, variables and expressions, built in place (sum() copies the growing sum at every
    step)."""
    out = Expression()
    for item in items:
        if isinstance(item, Variable):
            if out.model is None:
                out.model = item.model
            elif item.model is not out.model:
                raise ValueError("an expression mixes variables of two models")
            key = (item.index,)
            total = out.terms.get(key, 0.0) + 1.0
            if total:
                out.terms[key] = total
            else:
                del out.terms[key]
        elif isinstance(item, Expression):
            out.model = out._model_with(item)
            out.constant += item.constant
            for key, c in item.terms.items():
                total = out.terms.get(key, 0.0) + c
                if total:
                    out.terms[key] = total
                else:
                    out.terms.pop(key, None)
        else:
            out.constant += _number(item, "quicksum item")
    return out


class Constraint:
    """lhs sense rhs, made by comparing expressions: lhs holds the variable terms, rhs the number (constants
    move right). name and penalty are set when it is added to a model. A constraint from == is true as a
    bool exactly when both sides were the same expression (so that `x in list_of_variables` and dict
    look-ups work); one from <= or >= has no truth value."""

    __slots__ = ("lhs", "sense", "rhs", "name", "penalty")

    def __init__(self, lhs, sense, rhs, name=None, penalty=None):
        self.lhs, self.sense, self.rhs, self.name, self.penalty = lhs, sense, float(rhs), name, penalty

    def __bool__(self):
        if self.sense == "==":
            return not self.lhs.terms and self.rhs == 0
        raise TypeError("a constraint has no truth value: add it to a model with Model.add")

    def violation(self, values):
        """How far the left-hand side misses the right-hand side at these values (0 when it holds)."""
        lhs = self.lhs.value(values)
        if self.sense == "==":
            return abs(lhs - self.rhs)
        if self.sense == "<=":
            return max(0.0, lhs - self.rhs)
        return max(0.0, self.rhs - lhs)

    def to_proto(self):
        out = model_pb2.ModelConstraint(name=self.name or "", lhs=self.lhs.to_proto(),
                                        sense=_CONSTRAINT_SENSES[self.sense], rhs=self.rhs)
        if self.penalty is not None:
            out.penalty = self.penalty
        return out

    def __repr__(self):
        model = self.lhs.model
        lhs = _lp_terms(model, self.lhs.terms, 0.0) if model is not None else "0"
        label = f"{self.name}: " if self.name else ""
        return f"Constraint({label}{lhs} {self.sense} {_format_number(self.rhs)})"


class OneHot:
    """A group of binary variables of which exactly one (at_most_one: at most one) is 1."""

    __slots__ = ("name", "variables", "at_most_one", "penalty")

    def __init__(self, name, variables, at_most_one, penalty):
        self.name, self.variables, self.at_most_one, self.penalty = name, variables, at_most_one, penalty

    def violation(self, values):
        count = sum(values[v.index] for v in self.variables)
        return max(0, count - 1) if self.at_most_one else abs(count - 1)

    def to_proto(self):
        out = model_pb2.OneHotConstraint(name=self.name, variables=[v.index for v in self.variables],
                                         at_most_one=self.at_most_one)
        if self.penalty is not None:
            out.penalty = self.penalty
        return out

    def __repr__(self):
        kind = "at most one" if self.at_most_one else "exactly one"
        return f"OneHot({self.name}: {kind} of {[v.name for v in self.variables]})"


Evaluation = collections.namedtuple("Evaluation", "objective feasible violations")
Evaluation.__doc__ = """Model.evaluate's answer: the objective (constant included, in the model's sense), whether
every constraint and one-hot group holds, and the names of those that do not, in model order."""


def _flat_variables(items, what):
    if isinstance(items, Variable):
        return [items]
    if isinstance(items, np.ndarray):
        items = items.ravel().tolist()
    out = []
    for item in items:
        if isinstance(item, (np.ndarray, list, tuple)):
            out.extend(_flat_variables(item, what))
        elif isinstance(item, Variable):
            out.append(item)
        else:
            raise TypeError(f"{what}: expected variables, got {type(item).__name__}")
    return out


class Model:
    """A constrained model: Model(name="", sense="min"). Variables with binary(), spin(), integer() and
    their *_array forms; the objective with minimize(expr) / maximize(expr) (or the objective attribute);
    constraints with add(expr <= c, name=, penalty=) and one_hot(vars, name=, at_most_one=). Compile choices:
    integer_encoding ("default", "one_hot", "binary", "unary"), inequality ("default", "slack",
    "unbalanced"), penalty (a weight for every constraint that gives none; None: the service chooses)."""

    def __init__(self, name="", sense="min"):
        self.name = name
        self.sense = sense
        self._variables = []
        self._by_name = {}
        self._objective = Expression(self)
        self._constraints = []
        self._one_hot = []
        self._constraint_names = set()
        self.integer_encoding = "default"
        self.inequality = "default"
        self.penalty = None

    # --- settings -------------------------------------------------------------------------------------
    @property
    def sense(self):
        """"min" or "max"."""
        return self._sense

    @sense.setter
    def sense(self, value):
        word = _SENSE_WORDS.get(str(value).lower()) if isinstance(value, str) else None
        if word is None:
            raise ValueError(f"sense: 'min' or 'max', got {value!r}")
        self._sense = word

    @property
    def integer_encoding(self):
        return self._integer_encoding

    @integer_encoding.setter
    def integer_encoding(self, value):
        if value not in INTEGER_ENCODINGS:
            raise ValueError(f"integer_encoding: one of {', '.join(INTEGER_ENCODINGS)}, got {value!r}")
        self._integer_encoding = value

    @property
    def inequality(self):
        return self._inequality

    @inequality.setter
    def inequality(self, value):
        if value not in INEQUALITIES:
            raise ValueError(f"inequality: one of {', '.join(INEQUALITIES)}, got {value!r}")
        self._inequality = value

    @property
    def penalty(self):
        return self._penalty

    @penalty.setter
    def penalty(self, value):
        self._penalty = None if value is None else _positive(value, "penalty")

    # --- variables ------------------------------------------------------------------------------------
    def _add_variable(self, name, vtype, lower=0, upper=0):
        if not isinstance(name, str) or not name or any(ch.isspace() for ch in name):
            raise ValueError(f"variable name: a non-empty string without white space, got {name!r}")
        if name in self._by_name:
            raise ValueError(f"variable '{name}' already exists")
        if vtype == INTEGER:
            for bound, what in ((lower, "lower"), (upper, "upper")):
                if isinstance(bound, bool) or not isinstance(bound, numbers.Integral):
                    raise TypeError(f"integer '{name}': {what} bound must be an integer, got {bound!r}")
            lower, upper = int(lower), int(upper)
            if upper < lower:
                raise ValueError(f"integer '{name}': upper bound {upper} is below lower bound {lower}")
            if upper - lower > MAX_INTEGER_RANGE:
                raise ValueError(f"integer '{name}': upper - lower is {upper - lower}, at most 2^20 "
                                 f"({MAX_INTEGER_RANGE})")
        variable = Variable(self, len(self._variables), name, vtype, lower, upper)
        self._variables.append(variable)
        self._by_name[name] = variable
        return variable

    def binary(self, name):
        """A new 0/1 variable."""
        return self._add_variable(name, BINARY)

    def spin(self, name):
        """A new -1/+1 variable."""
        return self._add_variable(name, SPIN)

    def integer(self, name, lower=0, upper=None):
        """A new integer variable, lower <= n <= upper (both inclusive; upper is required)."""
        if upper is None:
            raise TypeError(f"integer '{name}': give an upper bound")
        return self._add_variable(name, INTEGER, lower, upper)

    def _array(self, name, shape, make):
        shape = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
        if not shape or any(isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 0 for n in shape):
            raise ValueError(f"array '{name}': shape must be non-negative integers, got {shape!r}")
        out = np.empty(shape, dtype=object)
        for index in np.ndindex(*shape):
            out[index] = make(name + "".join(f"_{i}" for i in index))
        return out

    def binary_array(self, name, shape):
        """A numpy array (dtype object) of new binary variables named name_i_j...: x[i, j], x[i] (a row),
        x[:, j], iteration, x.sum()."""
        return self._array(name, shape, self.binary)

    def spin_array(self, name, shape):
        return self._array(name, shape, self.spin)

    def integer_array(self, name, shape, lower=0, upper=None):
        return self._array(name, shape, lambda n: self.integer(n, lower, upper))

    @property
    def variables(self):
        """The variables, in the order they were made (their index)."""
        return list(self._variables)

    def variable(self, name):
        """The variable of that name (KeyError if none)."""
        return self._by_name[name]

    def __contains__(self, name):
        return name in self._by_name

    # --- objective and constraints --------------------------------------------------------------------
    def _own(self, expression, what):
        expression = Expression.of(expression, what)
        if expression.model is not None and expression.model is not self:
            raise ValueError(f"{what}: an expression of another model")
        expression.model = self
        return expression

    @property
    def objective(self):
        return self._objective

    @objective.setter
    def objective(self, expression):
        self._objective = self._own(expression, "objective")

    def minimize(self, expression):
        """Sets the objective and the sense "min"."""
        self.objective = expression
        self.sense = "min"

    def maximize(self, expression):
        """Sets the objective and the sense "max"."""
        self.objective = expression
        self.sense = "max"

    def _constraint_name(self, name):
        if name is None:
            k = len(self._constraints) + len(self._one_hot)
            while f"c{k}" in self._constraint_names:
                k += 1
            name = f"c{k}"
        if not isinstance(name, str) or not name or any(ch.isspace() for ch in name):
            raise ValueError(f"constraint name: a non-empty string without white space, got {name!r}")
        if name in self._constraint_names:
            raise ValueError(f"constraint '{name}' already exists")
        return name

    def add_constraint(self, constraint, name=None, penalty=None):
        """Adds `expr <= c` (or ==, >=) under `name` (default c<k>, k counting constraints and one-hot groups),
        with its own penalty weight if given; returns the Constraint."""
        if not isinstance(constraint, Constraint):
            raise TypeError("add_constraint: expected a comparison such as x + y <= 1, got "
                            f"{type(constraint).__name__}")
        name = self._constraint_name(name)
        lhs = self._own(constraint.lhs, f"constraint '{name}'")
        if not lhs.terms:
            raise ValueError(f"constraint '{name}' has no variables")
        added = Constraint(lhs, constraint.sense, constraint.rhs, name,
                           None if penalty is None else _positive(penalty, f"constraint '{name}': penalty"))
        self._constraints.append(added)
        self._constraint_names.add(name)
        return added

    add = add_constraint

    def one_hot(self, variables, name=None, at_most_one=False, penalty=None):
        """Exactly one (at_most_one: at most one) of these binary variables is 1; returns the OneHot."""
        name = self._constraint_name(name)
        members = _flat_variables(variables, f"one-hot '{name}'")
        if not members:
            raise ValueError(f"one-hot '{name}' has no variables")
        for v in members:
            if v.model is not self:
                raise ValueError(f"one-hot '{name}': variable '{v.name}' of another model")
            if v.type != BINARY:
                raise ValueError(f"one-hot '{name}': variable '{v.name}' is {v.type}, not binary")
        if len({v.index for v in members}) != len(members):
            raise ValueError(f"one-hot '{name}' names a variable twice")
        group = OneHot(name, members, bool(at_most_one),
                       None if penalty is None else _positive(penalty, f"one-hot '{name}': penalty"))
        self._one_hot.append(group)
        self._constraint_names.add(name)
        return group

    @property
    def constraints(self):
        """The constraints, in the order they were added (one-hot groups are in one_hot_groups)."""
        return list(self._constraints)

    @property
    def one_hot_groups(self):
        return list(self._one_hot)

    # --- output ---------------------------------------------------------------------------------------
    def to_proto(self):
        """The structured qs.v1.ConstrainedModel (text empty)."""
        out = model_pb2.ConstrainedModel(name=self.name, sense=_SENSES[self.sense],
                                         objective=self._objective.to_proto(),
                                         integer_encoding=INTEGER_ENCODINGS[self.integer_encoding],
                                         inequality=INEQUALITIES[self.inequality])
        for v in self._variables:
            item = out.variables.add(name=v.name, type=_VARIABLE_TYPES[v.type])
            if v.type == INTEGER:
                item.lower, item.upper = v.lower, v.upper
        out.constraints.extend(c.to_proto() for c in self._constraints)
        out.one_hot.extend(g.to_proto() for g in self._one_hot)
        if self.penalty is not None:
            out.penalty = self.penalty
        return out

    def to_lp(self):
        """The model as CPLEX LP text. ValueError for what LP cannot say: spin variables, terms above degree
        two, names that are not LP names. One-hot groups become equality (or <=) constraints; the compile
        choices and penalties are not part of the text (give them to solve_model)."""
        for v in self._variables:
            if v.type == SPIN:
                raise ValueError(f"LP has no spin variables ('{v.name}'): use binaries (s = 2 b - 1)")
            error = lp_name_error(v.name)
            if error:
                raise ValueError(f"variable name '{v.name}' cannot be written in LP: {error}")
        for name in [c.name for c in self._constraints] + [g.name for g in self._one_hot]:
            error = lp_name_error(name)
            if error:
                raise ValueError(f"constraint name '{name}' cannot be written in LP: {error}")
        lines = [f"\\ Model {' '.join(self.name.split())}" if self.name.strip() else "\\ Model",
                 "Minimize" if self.sense == "min" else "Maximize"]
        lines.extend(_lp_lines(" obj:", self._lp_expression(self._objective, True, "the objective"), ""))
        lines.append("Subject To")
        for c in self._constraints:
            text = self._lp_expression(c.lhs, False, f"constraint '{c.name}'")
            sense = "=" if c.sense == "==" else c.sense
            lines.extend(_lp_lines(f" {c.name}:", text, f" {sense} {_format_number(c.rhs)}"))
        for g in self._one_hot:
            terms = [f"+ {v.name}" for v in g.variables]
            terms[0] = g.variables[0].name
            lines.extend(_lp_lines(f" {g.name}:", terms, " <= 1" if g.at_most_one else " = 1"))
        integers = [v for v in self._variables if v.type == INTEGER]
        if integers:
            lines.append("Bounds")
            lines.extend(f" {v.lower} <= {v.name} <= {v.upper}" for v in integers)
        binaries = [v.name for v in self._variables if v.type == BINARY]
        if binaries:
            lines.append("Binary")
            lines.extend(_lp_lines("", [f"{n}" for n in binaries], ""))
        if integers:
            lines.append("General")
            lines.extend(_lp_lines("", [v.name for v in integers], ""))
        lines.append("End")
        return "\n".join(lines) + "\n"

    def _lp_expression(self, expression, objective, what):
        """The tokens of an LP expression: linear terms, then [ quadratic terms ] (/ 2 in the objective,
        whose bracketed coefficients are doubled), then the objective's constant."""
        for key in expression.terms:
            if len(key) > 2:
                product = " * ".join(self._variables[i].name for i in key)
                raise ValueError(f"{what}: the term {product} has degree {len(key)}; LP takes degree 2 at most "
                                 "(to_proto keeps it)")
        linear = {k: c for k, c in expression.terms.items() if len(k) == 1}
        quadratic = {k: c * (2 if objective else 1) for k, c in expression.terms.items() if len(k) == 2}
        tokens = _term_tokens(self, linear, first=True)
        if quadratic:
            inner = _term_tokens(self, quadratic, first=True)
            inner[0] = ("+ " if tokens else "") + "[ " + inner[0]
            inner[-1] += " ]" + (" / 2" if objective else "")
            tokens += inner
        if objective and (expression.constant or not tokens):
            tokens += _term_tokens(self, {(): expression.constant}, first=not tokens)
        if not tokens:
            tokens = ["0"]
        return tokens

    # --- scoring --------------------------------------------------------------------------------------
    def _values(self, assignment):
        values = []
        by_name = {}
        for key, value in dict(assignment).items():
            name = key.name if isinstance(key, Variable) else key
            by_name[name] = value
        for v in self._variables:
            if v.name not in by_name:
                raise ValueError(f"evaluate: no value for variable '{v.name}'")
            value = by_name[v.name]
            if isinstance(value, bool) or not isinstance(value, numbers.Real) or value != int(value):
                raise ValueError(f"evaluate: variable '{v.name}' = {value!r} is not an integer")
            value = int(value)
            if v.type == BINARY and value not in (0, 1):
                raise ValueError(f"evaluate: binary variable '{v.name}' = {value}, not 0 or 1")
            if v.type == SPIN and value not in (-1, 1):
                raise ValueError(f"evaluate: spin variable '{v.name}' = {value}, not -1 or +1")
            if v.type == INTEGER and not v.lower <= value <= v.upper:
                raise ValueError(f"evaluate: integer variable '{v.name}' = {value}, outside {v.lower}..{v.upper}")
            values.append(value)
        unknown = sorted(set(by_name) - set(self._by_name), key=str)
        if unknown:
            raise ValueError(f"evaluate: no variable named {', '.join(repr(n) for n in unknown)}")
        return values

    def evaluate(self, assignment):
        """(objective, feasible, names of the broken constraints) at an assignment {name or Variable: value}
        that gives every variable a value of its domain: an Evaluation, computed here without a server."""
        values = self._values(assignment)
        broken = []
        for c in self._constraints:
            if c.violation(values) > TOLERANCE * max(1.0, abs(c.rhs)):
                broken.append(c.name)
        broken.extend(g.name for g in self._one_hot if g.violation(values))
        return Evaluation(self._objective.value(values), not broken, broken)

    def __repr__(self):
        return (f"Model({self.name!r}, {self.sense}, {len(self._variables)} variables, "
                f"{len(self._constraints)} constraints, {len(self._one_hot)} one-hot groups)")


def _positive(value, what):
    value = _number(value, what)
    if value <= 0:
        raise ValueError(f"{what}: must be > 0, got {value}")
    return value


def _format_number(value):
    """A coefficient as LP writes it: integers without a fraction, others by repr (shortest round trip)."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _product_text(model, key):
    names = [model._variables[i].name for i in key]
    if len(names) == 2 and names[0] == names[1]:
        return f"{names[0]} ^ 2"
    return " * ".join(names)


def _term_tokens(model, terms, first):
    """Signed terms ("2 x", "- y", "+ 3 x * y"), the first without a '+'."""
    tokens = []
    for key, c in terms.items():
        sign = "-" if c < 0 else "+"
        magnitude = abs(c)
        if not key:
            body = _format_number(magnitude)
        else:
            body = _product_text(model, key)
            if magnitude != 1:
                body = f"{_format_number(magnitude)} {body}"
        if first and not tokens:
            tokens.append(body if sign == "+" else f"- {body}")
        else:
            tokens.append(f"{sign} {body}")
    return tokens


def _lp_terms(model, terms, constant):
    """An expression's terms as one line of text (for repr)."""
    tokens = _term_tokens(model, terms, first=True)
    if constant or not tokens:
        tokens += _term_tokens(model, {(): constant}, first=not tokens)
    return " ".join(tokens)


def _lp_lines(head, tokens, tail):
    """head, the tokens and tail as lines of at most about LP_LINE_WIDTH characters (LP readers cap lines at
    255 to 560), the lines after the first indented; the tail (a constraint's sense and right-hand side)
    stays on the last line."""
    lines, line = [], head
    for token in tokens:
        if line.strip() and len(line) + 1 + len(token) > LP_LINE_WIDTH:
            lines.append(line)
            line = "  "
        line += " " + token
    lines.append(line + tail)
    return lines


def _import_dimod():
    try:
        import dimod
    except ImportError as e:
        raise ImportError("qsolver.from_dimod_cqm needs dimod, which is not installed (pip install dimod, or "
                          "the package's extra: pip install 'qsolver[dimod]')") from e
    return dimod


_NAME_CHARS = re.compile(r"[^A-Za-z0-9_]+")


def _label_name(label, taken):
    """A variable or constraint name for a dimod label: a string label without white space as it is, another
    label as "v" and its text with every run of characters other than letters, digits and '_' made one
    '_' (3 -> v3, (0, 1) -> v_0_1, "a b" -> v_a_b); "_2", "_3" ... are appended when the name is taken."""
    if isinstance(label, str) and label and not any(ch.isspace() for ch in label):
        name = label
    else:
        text = _NAME_CHARS.sub("_", str(label)).strip("_")
        name = f"v{text}" if isinstance(label, numbers.Integral) and not isinstance(label, bool) else f"v_{text}"
    base, k = name, 2
    while name in taken:
        name = f"{base}_{k}"
        k += 1
    return name


def _dimod_polynomial(variables, quadratic_model, what):
    """linear + quadratic + offset of a dimod model (the objective or a constraint's lhs) as an Expression."""
    parts = [_number(getattr(quadratic_model, "offset", 0.0), f"{what}: offset")]
    parts.extend(_number(bias, f"{what}: bias of {v!r}") * variables[v] for v, bias in quadratic_model.linear.items())
    parts.extend(_number(bias, f"{what}: bias of ({u!r}, {v!r})") * (variables[u] * variables[v])
                 for (u, v), bias in quadratic_model.quadratic.items())
    return quicksum(parts)


def _is_one_hot(comparison, variables, equal):
    """Whether a discrete constraint is what dimod makes of one: a sum of binaries with coefficient 1 == 1."""
    lhs = comparison.lhs
    return (comparison.sense is equal and comparison.rhs == 1 and not getattr(lhs, "offset", 0)
            and not dict(lhs.quadratic) and all(b == 1 for b in lhs.linear.values())
            and all(variables[v].type == BINARY for v in lhs.linear) and len(lhs.linear) > 0)


def from_dimod_cqm(cqm, name=""):
    """A Model from a dimod ConstrainedQuadraticModel: its binary, spin and integer variables (bounds from
    lower_bound / upper_bound), the objective (minimised, as dimod's is), each constraint under its label
    with its sense and right-hand side, and the discrete constraints (cqm.discrete) as one-hot groups.
    Labels that are not strings get names (3 -> v3, (0, 1) -> v_0_1); Model.dimod_labels maps each name
    back to its label. Real variables and soft constraints' weights are not taken (ValueError for a real
    variable). dimod is imported here: ImportError when it is not installed."""
    dimod = _import_dimod()
    vartypes = {dimod.Vartype.BINARY: BINARY, dimod.Vartype.SPIN: SPIN, dimod.Vartype.INTEGER: INTEGER}
    model = Model(name=name, sense="min")
    model.dimod_labels = {}
    variables = {}
    for label in cqm.variables:
        vartype = cqm.vartype(label)
        if vartype not in vartypes:
            raise ValueError(f"variable {label!r}: {getattr(vartype, 'name', vartype)} variables are not supported "
                             "(binary, spin and integer only)")
        vname = _label_name(label, model._by_name)
        if vartypes[vartype] == INTEGER:
            lower, upper = cqm.lower_bound(label), cqm.upper_bound(label)
            if lower != int(lower) or upper != int(upper):
                raise ValueError(f"integer variable {label!r}: bounds {lower}..{upper} are not integers")
            variables[label] = model.integer(vname, int(lower), int(upper))
        else:
            variables[label] = model._add_variable(vname, vartypes[vartype])
        model.dimod_labels[vname] = label
    model.objective = _dimod_polynomial(variables, cqm.objective, "objective")
    senses = {dimod.sym.Sense.Le: "<=", dimod.sym.Sense.Ge: ">=", dimod.sym.Sense.Eq: "=="}
    discrete = set(getattr(cqm, "discrete", ()))
    for label, comparison in cqm.constraints.items():
        cname = _label_name(label, model._constraint_names)
        model.dimod_labels[cname] = label
        if label in discrete and _is_one_hot(comparison, variables, dimod.sym.Sense.Eq):
            model.one_hot([variables[v] for v in comparison.lhs.linear], name=cname)
            continue
        if comparison.sense not in senses:
            raise ValueError(f"constraint {label!r}: unknown sense {comparison.sense!r}")
        lhs = _dimod_polynomial(variables, comparison.lhs, f"constraint {label!r}")
        rhs = _number(comparison.rhs, f"constraint {label!r}: rhs")
        model.add_constraint(lhs._compare(rhs, senses[comparison.sense]), name=cname)
    return model
