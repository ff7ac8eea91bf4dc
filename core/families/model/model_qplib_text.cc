// QPLIB's text format, read for the problem types whose variables are binary
// or bounded integers (docs/model-formats.md, "QPLIB").
//
// The file lists, one item per line: the name, the problem type (three
// letters: objective L/D/C/Q, variables C/B/M/I/G, constraints N/B/L/D/C/Q),
// minimize or maximize, n, m (with constraints), the objective's quadratic
// entries "i j v" (lower triangle of Q in 1/2 x'Qx), the linear default and
// entries "i b", the constant, the constraints' quadratic entries "k i j v"
// and linear entries "k i a", infinity, the constraints' lower and upper
// bounds, the variables' bounds (not for binary types), their types (mixed
// types only), starting points and optional names. Lists come as a default
// value, a count, then "index value" lines. Anything after the fields a line
// needs (QPLIB's "# ..." notes) is ignored.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "formats/model_text.h"
#include "formats/model_text_internal.h"
#include "formats/text_fields.h"

namespace qs::formats {
namespace {

using model_text::PolynomialBuilder;

constexpr absl::string_view kQplib = "qplib";
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr int64_t kMaxCount = std::numeric_limits<int32_t>::max();

struct ProblemType {
  char objective, variables, constraints;
  bool quadratic_objective() const { return objective != 'L'; }
  bool has_constraints() const {
    return constraints != 'N' && constraints != 'B';
  }
  bool quadratic_constraints() const {
    return constraints == 'D' || constraints == 'C' || constraints == 'Q';
  }
  bool binary() const { return variables == 'B'; }
  bool mixed() const { return variables == 'M' || variables == 'G'; }
};

// A list "default, count, then count lines 'index value'".
struct SparseList {
  double fallback = 0;
  std::vector<std::pair<int64_t, double>> entries;
};

class QplibReader {
 public:
  explicit QplibReader(absl::string_view text)
      : lines_(ContentLines(text, {"#", "!", "%"})) {
    for (TextLine& line : lines_) {
      // QPLIB notes the meaning of a line after '#'.
      for (size_t f = 0; f < line.fields.size(); ++f) {
        if (absl::StartsWith(line.fields[f], "#")) {
          line.fields.resize(f);
          break;
        }
      }
    }
  }
  absl::StatusOr<v1::ConstrainedModel> Read();

 private:
  bool AtEnd() const { return next_ >= lines_.size(); }
  absl::StatusOr<const TextLine*> Take(size_t fields, absl::string_view what);
  absl::StatusOr<int64_t> Count(absl::string_view what, int64_t max);
  absl::StatusOr<double> Number(absl::string_view what);
  absl::StatusOr<int64_t> Index(const TextLine& line, int field,
                                absl::string_view name, int64_t max);
  absl::StatusOr<SparseList> List(absl::string_view what, int64_t size);
  absl::Status ReadHead();
  absl::Status ReadObjective();
  absl::Status ReadConstraintTerms();
  absl::Status ReadBoundsAndTypes();
  absl::Status ReadTail();
  absl::Status MakeConstraints();
  absl::Status MakeVariables();
  bool Infinite(double value) const { return std::abs(value) >= infinity_; }

  std::vector<TextLine> lines_;
  size_t next_ = 0;
  v1::ConstrainedModel model_;
  ProblemType type_{};
  int type_line_ = 0;
  int64_t n_ = 0, m_ = 0;
  PolynomialBuilder objective_;
  std::vector<PolynomialBuilder> constraint_lhs_;
  double infinity_ = 1e30;
  SparseList lower_, upper_, x_lower_, x_upper_, types_;
  int bounds_line_ = 0;
  std::vector<std::string> variable_names_, constraint_names_;
};

absl::StatusOr<const TextLine*> QplibReader::Take(size_t fields,
                                                  absl::string_view what) {
  if (AtEnd()) {
    const int last = lines_.empty() ? 1 : lines_.back().number;
    return LineError(
        kQplib, last,
        absl::StrCat("the file ends where ", what, " was expected"));
  }
  const TextLine& line = lines_[next_++];
  if (line.fields.size() < fields) {
    return LineError(kQplib, line.number,
                     absl::StrCat("expected ", what, " (", fields,
                                  " fields), got ", line.fields.size()));
  }
  return &line;
}

absl::StatusOr<int64_t> QplibReader::Count(absl::string_view what,
                                           int64_t max) {
  auto line = Take(1, what);
  if (!line.ok()) return line.status();
  return IntField(kQplib, **line, 0, what, 0, max);
}

absl::StatusOr<double> QplibReader::Number(absl::string_view what) {
  auto line = Take(1, what);
  if (!line.ok()) return line.status();
  return NumberField(kQplib, **line, 0, what);
}

absl::StatusOr<int64_t> QplibReader::Index(const TextLine& line, int field,
                                           absl::string_view name,
                                           int64_t max) {
  return IntField(kQplib, line, field, name, 1, max);
}

absl::StatusOr<SparseList> QplibReader::List(absl::string_view what,
                                             int64_t size) {
  SparseList list;
  auto fallback = Number(absl::StrCat("the default ", what));
  if (!fallback.ok()) return fallback.status();
  list.fallback = *fallback;
  auto count = Count(absl::StrCat("the number of non-default ", what), size);
  if (!count.ok()) return count.status();
  for (int64_t k = 0; k < *count; ++k) {
    auto line = Take(2, absl::StrCat("'index value' of ", what));
    if (!line.ok()) return line.status();
    auto index = Index(**line, 0, "index", size);
    if (!index.ok()) return index.status();
    auto value = NumberField(kQplib, **line, 1, what);
    if (!value.ok()) return value.status();
    list.entries.emplace_back(*index - 1, *value);
  }
  return list;
}

absl::Status QplibReader::ReadHead() {
  auto name = Take(1, "the problem name");
  if (!name.ok()) return name.status();
  model_.set_name(std::string((*name)->fields[0]));
  auto type = Take(1, "the problem type (e.g. QBL)");
  if (!type.ok()) return type.status();
  const absl::string_view code = (*type)->fields[0];
  type_line_ = (*type)->number;
  if (code.size() != 3 || !absl::StrContains("LDCQ", code[0]) ||
      !absl::StrContains("CBMIG", code[1]) ||
      !absl::StrContains("NBLDCQ", code[2])) {
    return LineError(
        kQplib, type_line_,
        absl::StrCat("expected a problem type such as QBL, got '", code, "'"));
  }
  type_ = {code[0], code[1], code[2]};
  if (type_.variables == 'C') {
    return LineError(kQplib, type_line_,
                     absl::StrCat("problem type ", code,
                                  " has continuous variables; the model kind "
                                  "takes binary and integer variables only"));
  }
  auto sense = Take(1, "minimize or maximize");
  if (!sense.ok()) return sense.status();
  const std::string word = absl::AsciiStrToLower((*sense)->fields[0]);
  if (word != "minimize" && word != "maximize") {
    return LineError(kQplib, (*sense)->number,
                     absl::StrCat("expected minimize or maximize, got '",
                                  (*sense)->fields[0], "'"));
  }
  model_.set_sense(word == "maximize" ? v1::MAXIMIZE : v1::MINIMIZE);
  auto n = Count("the number of variables", kMaxModelTextVariables);
  if (!n.ok()) return n.status();
  n_ = *n;
  if (type_.has_constraints()) {
    auto m = Count("the number of constraints", kMaxModelTextVariables);
    if (!m.ok()) return m.status();
    m_ = *m;
  }
  constraint_lhs_.resize(m_);
  variable_names_.resize(n_);
  constraint_names_.resize(m_);
  return absl::OkStatus();
}

// Q is symmetric and only its lower triangle is listed: an entry off the
// diagonal stands for Q_ij and Q_ji, so 1/2 x'Qx gets v x_i x_j from it, and
// a diagonal entry gets v/2 x_i^2.
void AddHalfQuadratic(PolynomialBuilder& poly, int64_t i, int64_t j, double v) {
  const uint32_t a = static_cast<uint32_t>(i), b = static_cast<uint32_t>(j);
  poly.Add(i == j ? v / 2 : v, {a, b});
}

absl::Status QplibReader::ReadObjective() {
  if (type_.quadratic_objective()) {
    auto count = Count("the number of quadratic objective terms", kMaxCount);
    if (!count.ok()) return count.status();
    for (int64_t k = 0; k < *count; ++k) {
      auto line = Take(3, "an objective term 'i j value'");
      if (!line.ok()) return line.status();
      auto i = Index(**line, 0, "i", n_);
      if (!i.ok()) return i.status();
      auto j = Index(**line, 1, "j", n_);
      if (!j.ok()) return j.status();
      auto v = NumberField(kQplib, **line, 2, "value");
      if (!v.ok()) return v.status();
      AddHalfQuadratic(objective_, *i - 1, *j - 1, *v);
    }
  }
  auto linear = List("linear objective coefficients", n_);
  if (!linear.ok()) return linear.status();
  std::vector<double> b(n_, linear->fallback);
  for (const auto& [i, value] : linear->entries) b[i] = value;
  for (int64_t i = 0; i < n_; ++i)
    objective_.Add(b[i], {static_cast<uint32_t>(i)});
  auto constant = Number("the objective constant");
  if (!constant.ok()) return constant.status();
  objective_.AddConstant(*constant);
  return absl::OkStatus();
}

absl::Status QplibReader::ReadConstraintTerms() {
  if (!type_.has_constraints()) return absl::OkStatus();
  if (type_.quadratic_constraints()) {
    auto count = Count("the number of quadratic constraint terms", kMaxCount);
    if (!count.ok()) return count.status();
    for (int64_t t = 0; t < *count; ++t) {
      auto line = Take(4, "a constraint term 'k i j value'");
      if (!line.ok()) return line.status();
      auto k = Index(**line, 0, "k", m_);
      if (!k.ok()) return k.status();
      auto i = Index(**line, 1, "i", n_);
      if (!i.ok()) return i.status();
      auto j = Index(**line, 2, "j", n_);
      if (!j.ok()) return j.status();
      auto v = NumberField(kQplib, **line, 3, "value");
      if (!v.ok()) return v.status();
      AddHalfQuadratic(constraint_lhs_[*k - 1], *i - 1, *j - 1, *v);
    }
  }
  auto count = Count("the number of linear constraint terms", kMaxCount);
  if (!count.ok()) return count.status();
  for (int64_t t = 0; t < *count; ++t) {
    auto line = Take(3, "a constraint term 'k i value'");
    if (!line.ok()) return line.status();
    auto k = Index(**line, 0, "k", m_);
    if (!k.ok()) return k.status();
    auto i = Index(**line, 1, "i", n_);
    if (!i.ok()) return i.status();
    auto v = NumberField(kQplib, **line, 2, "value");
    if (!v.ok()) return v.status();
    constraint_lhs_[*k - 1].Add(*v, {static_cast<uint32_t>(*i - 1)});
  }
  return absl::OkStatus();
}

absl::Status QplibReader::ReadBoundsAndTypes() {
  auto infinity = Number("the value of infinity");
  if (!infinity.ok()) return infinity.status();
  infinity_ = std::abs(*infinity);
  if (type_.has_constraints()) {
    auto lower = List("constraint lower bounds", m_);
    if (!lower.ok()) return lower.status();
    lower_ = *std::move(lower);
    auto upper = List("constraint upper bounds", m_);
    if (!upper.ok()) return upper.status();
    upper_ = *std::move(upper);
  }
  if (type_.binary()) return absl::OkStatus();
  bounds_line_ = AtEnd() ? 0 : lines_[next_].number;
  auto lower = List("variable lower bounds", n_);
  if (!lower.ok()) return lower.status();
  x_lower_ = *std::move(lower);
  auto upper = List("variable upper bounds", n_);
  if (!upper.ok()) return upper.status();
  x_upper_ = *std::move(upper);
  if (!type_.mixed()) {
    types_.fallback = 1;  // all integer
    return absl::OkStatus();
  }
  auto types = List("variable types", n_);
  if (!types.ok()) return types.status();
  types_ = *std::move(types);
  return absl::OkStatus();
}

// Starting points (skipped) and names; the file may end before any of them.
absl::Status QplibReader::ReadTail() {
  const int64_t sizes[] = {n_, type_.has_constraints() ? m_ : -1, n_};
  for (int64_t size : sizes) {
    if (size < 0) continue;
    if (AtEnd()) return absl::OkStatus();
    auto list = List("starting values", size);
    if (!list.ok()) return list.status();
  }
  for (auto* names : {&variable_names_, &constraint_names_}) {
    if (AtEnd()) return absl::OkStatus();
    auto count = Count("the number of names", names->size());
    if (!count.ok()) return count.status();
    for (int64_t k = 0; k < *count; ++k) {
      auto line = Take(2, "'index name'");
      if (!line.ok()) return line.status();
      auto index = Index(**line, 0, "index", names->size());
      if (!index.ok()) return index.status();
      (*names)[*index - 1] = std::string((*line)->fields[1]);
    }
  }
  return absl::OkStatus();
}

std::vector<double> Dense(const SparseList& list, int64_t size) {
  std::vector<double> values(size, list.fallback);
  for (const auto& [i, value] : list.entries) values[i] = value;
  return values;
}

absl::Status QplibReader::MakeVariables() {
  const std::vector<double> lower = Dense(x_lower_, n_);
  const std::vector<double> upper = Dense(x_upper_, n_);
  const std::vector<double> types = Dense(types_, n_);
  for (int64_t i = 0; i < n_; ++i) {
    v1::ModelVariable& variable = *model_.add_variables();
    variable.set_name(variable_names_[i].empty() ? absl::StrCat("x", i + 1)
                                                 : variable_names_[i]);
    // Types: 0 continuous, 1 integer, 2 binary.
    if (type_.binary() || types[i] == 2) continue;
    const int line = bounds_line_ > 0 ? bounds_line_ : type_line_;
    if (types[i] != 1) {
      return LineError(kQplib, line,
                       absl::StrCat("variable '", variable.name(),
                                    "' is continuous; the model kind takes "
                                    "binary and integer variables only"));
    }
    if (Infinite(lower[i]) || Infinite(upper[i]) ||
        std::ceil(lower[i]) > std::floor(upper[i])) {
      return LineError(kQplib, line,
                       absl::StrCat("integer variable '", variable.name(),
                                    "' needs finite bounds with an integer "
                                    "between them"));
    }
    const int64_t l = static_cast<int64_t>(std::ceil(lower[i]));
    const int64_t u = static_cast<int64_t>(std::floor(upper[i]));
    if (l == 0 && u == 1) continue;
    variable.set_type(v1::MODEL_VARIABLE_INTEGER);
    variable.set_lower(l);
    variable.set_upper(u);
  }
  return absl::OkStatus();
}

// l <= lhs <= u becomes one constraint, or two ("_lo", "_hi") when both
// bounds are finite and differ; a constraint without finite bounds is left
// out.
absl::Status QplibReader::MakeConstraints() {
  const std::vector<double> lower = Dense(lower_, m_);
  const std::vector<double> upper = Dense(upper_, m_);
  for (int64_t k = 0; k < m_; ++k) {
    const std::string name = constraint_names_[k].empty()
                                 ? absl::StrCat("c", k + 1)
                                 : constraint_names_[k];
    const v1::ModelPolynomial lhs = constraint_lhs_[k].Build();
    auto add = [&](std::string c_name, v1::ConstraintSense sense, double rhs) {
      v1::ModelConstraint& c = *model_.add_constraints();
      c.set_name(std::move(c_name));
      *c.mutable_lhs() = lhs;
      c.set_sense(sense);
      c.set_rhs(rhs);
    };
    const bool has_lower = !Infinite(lower[k]), has_upper = !Infinite(upper[k]);
    if (has_lower && has_upper && lower[k] == upper[k]) {
      add(name, v1::CONSTRAINT_EQUAL, lower[k]);
    } else if (has_lower && has_upper) {
      add(name + "_lo", v1::CONSTRAINT_GREATER_EQUAL, lower[k]);
      add(name + "_hi", v1::CONSTRAINT_LESS_EQUAL, upper[k]);
    } else if (has_lower) {
      add(name, v1::CONSTRAINT_GREATER_EQUAL, lower[k]);
    } else if (has_upper) {
      add(name, v1::CONSTRAINT_LESS_EQUAL, upper[k]);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::ConstrainedModel> QplibReader::Read() {
  for (auto step :
       {&QplibReader::ReadHead, &QplibReader::ReadObjective,
        &QplibReader::ReadConstraintTerms, &QplibReader::ReadBoundsAndTypes,
        &QplibReader::ReadTail, &QplibReader::MakeVariables,
        &QplibReader::MakeConstraints}) {
    if (auto s = (this->*step)(); !s.ok()) return s;
  }
  if (!AtEnd()) {
    return LineError(kQplib, lines_[next_].number,
                     "expected the end of the file after the names");
  }
  *model_.mutable_objective() = objective_.Build();
  return std::move(model_);
}

}  // namespace

absl::StatusOr<v1::ConstrainedModel> ParseModelQplib(absl::string_view text) {
  return QplibReader(text).Read();
}

}  // namespace qs::formats
