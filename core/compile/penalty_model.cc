// The constraint-to-penalty layer: penalty weights, slack bits, auxiliary
// products and the reduction of high-degree terms (penalty_model.h).
#include "core/compile/penalty_model.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"

namespace qs {
namespace {

constexpr double kTolerance = 1e-9;
constexpr double kMaxSlackRange = 1099511627776.0;  // 2^40

bool NearInteger(double x) {
  return std::abs(x - std::round(x)) <= kTolerance * std::max(1.0, std::abs(x));
}

// The smallest power of ten (up to 10^6) that makes every coefficient and the
// right-hand side integers, or none.
std::optional<double> IntegerScale(const BinaryPolynomial& lhs, double rhs) {
  for (double scale = 1; scale <= 1e6; scale *= 10) {
    bool integer = NearInteger(rhs * scale);
    lhs.ForEachTerm([&](std::span<const int32_t>, double c) {
      integer = integer && NearInteger(c * scale);
    });
    if (integer) return scale;
  }
  return std::nullopt;
}

// The largest change of `objective` that setting or clearing one bit can
// make while every exactly-one group but the bit's own has one member set:
// the neighbours in such a group contribute only their largest coupling. A
// bit in two groups (a permutation block's row and column) is counted with
// one of them: the bound takes, bit by bit, the smaller of the sums with
// every neighbour counted in its first group and in its last.
double LargestMoveChange(const BinaryPolynomial& objective, int num_bits,
                         std::span<const PenaltyGroup> groups) {
  std::vector<int32_t> first(num_bits, -1), last(num_bits, -1);
  for (size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].at_most_one) continue;
    for (int32_t bit : groups[g].bits) {
      if (first[bit] < 0) first[bit] = static_cast<int32_t>(g);
      last[bit] = static_cast<int32_t>(g);
    }
  }
  std::vector<double> linear(num_bits, 0.0);
  for (const auto& [key, c] : objective.low()) {
    const int32_t i = BinaryPolynomial::First(key);
    if (i == BinaryPolynomial::Second(key)) linear[i] += std::abs(c);
  }
  for (const auto& [vars, c] : objective.high()) {
    for (int32_t v : vars) linear[v] += std::abs(c);
  }
  // The couplings of each bit with its neighbours counted by `group_of`.
  auto couplings = [&](const std::vector<int32_t>& group_of) {
    std::vector<double> change(num_bits, 0.0);
    // (bit << 32 | group) -> the bit's largest coupling into that group.
    absl::flat_hash_map<uint64_t, double> group_max;
    auto add = [&](int32_t bit, int32_t other, double c) {
      const int32_t g = group_of[other];
      if (g < 0 || first[bit] == g || last[bit] == g) {
        change[bit] += std::abs(c);
        return;
      }
      double& m = group_max[(static_cast<uint64_t>(bit) << 32) |
                            static_cast<uint32_t>(g)];
      m = std::max(m, std::abs(c));
    };
    for (const auto& [key, c] : objective.low()) {
      const int32_t i = BinaryPolynomial::First(key);
      const int32_t j = BinaryPolynomial::Second(key);
      if (i == j) continue;
      add(i, j, c);
      add(j, i, c);
    }
    for (const auto& [key, m] : group_max) change[key >> 32] += m;
    return change;
  };
  const std::vector<double> by_first = couplings(first);
  const std::vector<double> by_last = couplings(last);
  double largest = 0;
  for (int i = 0; i < num_bits; ++i)
    largest = std::max(largest, linear[i] + std::min(by_first[i], by_last[i]));
  return largest;
}

// The group form of a constraint over unit terms with right-hand side one:
// sum x == 1 is an exactly-one group, sum x <= 1 an at-most-one group.
// A >= written as <= (OPB writes every constraint as >=): the sign that
// turns the constraint's sides into the <= (or ==) form.
double LessEqualSign(const PenaltyConstraint& c) {
  return c.sense == v1::CONSTRAINT_GREATER_EQUAL ? -1 : 1;
}

std::optional<PenaltyGroup> AsGroup(const PenaltyConstraint& c) {
  if (!c.lhs.high().empty() || c.lhs.low().empty()) return std::nullopt;
  const double sign = LessEqualSign(c);
  if (std::abs(sign * (c.rhs - c.lhs.constant()) - 1) > kTolerance)
    return std::nullopt;
  PenaltyGroup group{c.name, {}, c.sense != v1::CONSTRAINT_EQUAL, c.penalty};
  for (const auto& [key, a] : c.lhs.low()) {
    if (sign * a != 1 ||
        BinaryPolynomial::First(key) != BinaryPolynomial::Second(key))
      return std::nullopt;
    group.bits.push_back(BinaryPolynomial::First(key));
  }
  std::sort(group.bits.begin(), group.bits.end());
  return group;
}

// A clause: at least one of a few literals holds (sum of +-1 terms >= 1 -
// the negative ones, as OPB writes x + (1 - y) >= 1). Its penalty is the
// product of the literals' negations, zero exactly when one holds and one
// when none does, with no slack bits (two or three for the sum's range).
constexpr size_t kMaxClauseLiterals = 4;

std::optional<BinaryPolynomial> AsClause(const PenaltyConstraint& c) {
  if (c.sense == v1::CONSTRAINT_EQUAL || !c.lhs.high().empty() ||
      c.lhs.low().empty() || c.lhs.low().size() > kMaxClauseLiterals)
    return std::nullopt;
  const double sign = -LessEqualSign(c);  // to the >= form
  int negative = 0;
  BinaryPolynomial none;  // the product of the negated literals
  none.AddConstant(1);
  for (const auto& [key, a] : c.lhs.low()) {
    const int32_t v = BinaryPolynomial::First(key);
    if (v != BinaryPolynomial::Second(key) || std::abs(a) != 1)
      return std::nullopt;
    BinaryPolynomial negation;  // 1 - x for a literal x, x for (1 - x)
    if (sign * a > 0) {
      negation.AddConstant(1);
      negation.AddLinear(v, -1);
    } else {
      ++negative;
      negation.AddLinear(v, 1);
    }
    none = none.Times(negation);
  }
  if (std::abs(sign * (c.rhs - c.lhs.constant()) - (1 - negative)) > kTolerance)
    return std::nullopt;
  return none;
}

class PenaltyBuilder {
 public:
  PenaltyBuilder(const PenaltyInput& input, const PenaltyOptions& options)
      : input_(input), options_(options), next_bit_(input.num_bits) {}

  absl::StatusOr<PenaltyQubo> Build();

 private:
  absl::Status Check() const;
  double RuleWeight() const;
  absl::StatusOr<double> Weight(const std::optional<double>& given, double rule,
                                absl::string_view name, const char* why);
  absl::Status AddConstraint(int index, const PenaltyConstraint& c);
  void AddGroup(const PenaltyGroup& g, double weight);
  // A linear side: products replaced by auxiliary bits.
  BinaryPolynomial Linearized(const BinaryPolynomial& side);
  int32_t Product(int32_t a, int32_t b);
  int32_t ProductOf(std::span<const int32_t> vars);
  // total_ += weight * (linear + constant)^2 for a linear polynomial.
  void AddSquare(const BinaryPolynomial& linear, double constant,
                 double weight);
  void ReduceHighTerms();
  void AddAuxiliaryPenalties();
  void Report(absl::string_view name, double weight, const char* rule);

  const PenaltyInput& input_;
  const PenaltyOptions& options_;
  int32_t next_bit_;
  double rule_weight_ = 1;
  BinaryPolynomial total_;
  PenaltyQubo out_;
  std::map<std::pair<int32_t, int32_t>, int32_t> products_;
  std::vector<std::string> extra_labels_;
};

absl::Status PenaltyBuilder::Check() const {
  auto check_bits = [&](std::span<const int32_t> vars,
                        const std::string& where) -> absl::Status {
    for (int32_t v : vars) {
      if (v < 0 || v >= input_.num_bits) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, ": bit ", v, " is not below ", input_.num_bits));
      }
    }
    return absl::OkStatus();
  };
  absl::Status status;
  input_.objective.ForEachTerm([&](std::span<const int32_t> v, double) {
    if (status.ok()) status = check_bits(v, "objective");
  });
  for (const PenaltyConstraint& c : input_.constraints) {
    if (c.sense == v1::CONSTRAINT_SENSE_UNSPECIFIED && status.ok()) {
      status = absl::InvalidArgumentError(
          absl::StrCat("constraint ", c.name, ": no sense (==, <=, >=)"));
    }
    c.lhs.ForEachTerm([&](std::span<const int32_t> v, double) {
      if (status.ok()) status = check_bits(v, "constraint " + c.name);
    });
  }
  for (const PenaltyGroup& g : input_.groups) {
    if (status.ok()) status = check_bits(g.bits, "group " + g.name);
  }
  return status;
}

absl::StatusOr<double> PenaltyBuilder::Weight(
    const std::optional<double>& given, double rule, absl::string_view name,
    const char* why) {
  if (given.has_value()) {
    if (!std::isfinite(*given) || *given <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("constraint ", name, ": penalty ", *given,
                       " must be positive and finite"));
    }
    Report(name, *given, "given");
    return *given;
  }
  if (options_.penalty.has_value()) {
    if (!std::isfinite(*options_.penalty) || *options_.penalty <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "penalty ", *options_.penalty, " must be positive and finite"));
    }
    Report(name, *options_.penalty, "model");
    return *options_.penalty;
  }
  Report(name, rule, why);
  return rule;
}

void PenaltyBuilder::Report(absl::string_view name, double weight,
                            const char* rule) {
  v1::ModelReport::Penalty& p = *out_.penalties.emplace(out_.penalties.end());
  p.set_constraint(std::string(name));
  p.set_weight(weight);
  p.set_rule(rule);
}

int32_t PenaltyBuilder::Product(int32_t a, int32_t b) {
  if (a > b) std::swap(a, b);
  if (a == b) return a;
  auto [it, inserted] = products_.try_emplace({a, b}, next_bit_);
  if (!inserted) return it->second;
  out_.auxiliaries.push_back({next_bit_, {a, b}});
  extra_labels_.push_back(absl::StrCat("aux", out_.auxiliary_bits));
  ++out_.auxiliary_bits;
  return next_bit_++;
}

int32_t PenaltyBuilder::ProductOf(std::span<const int32_t> vars) {
  int32_t bit = vars[0];
  for (size_t k = 1; k < vars.size(); ++k) bit = Product(bit, vars[k]);
  return bit;
}

BinaryPolynomial PenaltyBuilder::Linearized(const BinaryPolynomial& side) {
  BinaryPolynomial linear;
  linear.AddConstant(side.constant());
  side.ForEachTerm([&](std::span<const int32_t> vars, double c) {
    linear.AddLinear(vars.size() == 1 ? vars[0] : ProductOf(vars), c);
  });
  linear.Prune();
  return linear;
}

void PenaltyBuilder::AddSquare(const BinaryPolynomial& linear, double constant,
                               double weight) {
  std::vector<std::pair<int32_t, double>> terms;
  for (const auto& [key, c] : linear.low())
    terms.emplace_back(BinaryPolynomial::First(key), c);
  std::sort(terms.begin(), terms.end());
  const double b = constant + linear.constant();
  total_.AddConstant(weight * b * b);
  for (size_t k = 0; k < terms.size(); ++k) {
    const auto [v, a] = terms[k];
    total_.AddLinear(v, weight * (a * a + 2 * a * b));
    for (size_t m = k + 1; m < terms.size(); ++m)
      total_.AddPair(v, terms[m].first, weight * 2 * a * terms[m].second);
  }
}

double PenaltyBuilder::RuleWeight() const {
  // Exactly-one constraints written as sums count as groups too.
  std::vector<PenaltyGroup> groups = input_.groups;
  for (const PenaltyConstraint& c : input_.constraints) {
    if (std::optional<PenaltyGroup> g = AsGroup(c)) groups.push_back(*g);
  }
  const double largest =
      LargestMoveChange(input_.objective, input_.num_bits, groups);
  if (largest == 0) return 1;
  return largest + (input_.objective.IntegerCoefficients() ? 1 : 0.1 * largest);
}

void PenaltyBuilder::AddGroup(const PenaltyGroup& g, double weight) {
  if (g.at_most_one) {
    for (size_t a = 0; a < g.bits.size(); ++a)
      for (size_t b = a + 1; b < g.bits.size(); ++b)
        total_.AddPair(g.bits[a], g.bits[b], weight);
    return;
  }
  BinaryPolynomial sum;
  for (int32_t bit : g.bits) sum.AddLinear(bit, 1);
  AddSquare(sum, -1, weight);
  if (g.bits.size() >= 2) out_.one_hot_groups.push_back(g.bits);
}

absl::Status PenaltyBuilder::AddConstraint(int index,
                                           const PenaltyConstraint& c) {
  BinaryPolynomial lhs = c.lhs;
  lhs.Prune();
  double rhs = c.rhs - lhs.constant();
  lhs.AddConstant(-lhs.constant());
  if (c.sense == v1::CONSTRAINT_GREATER_EQUAL) {
    BinaryPolynomial negated;
    negated.Add(lhs, -1);
    lhs = std::move(negated);
    rhs = -rhs;
  }
  const bool equality = c.sense == v1::CONSTRAINT_EQUAL;
  bool nonnegative = true;
  double smallest = INFINITY;
  lhs.ForEachTerm([&](std::span<const int32_t>, double a) {
    nonnegative = nonnegative && a > 0;
    smallest = std::min(smallest, std::abs(a));
  });
  if (lhs.low().empty() && lhs.high().empty()) {
    // No variable left: it holds or it never does; either way no term.
    ++out_.redundant;
    return absl::OkStatus();
  }
  if (!equality && lhs.UpperBound() <= rhs + kTolerance) {
    ++out_.redundant;  // holds at every assignment
    return absl::OkStatus();
  }
  // Sums of nonnegative terms at most (or equal to) zero: each set term is
  // a violation on its own.
  if (nonnegative && std::abs(rhs) <= kTolerance) {
    ASSIGN_OR_RETURN(const double w, Weight(c.penalty, rule_weight_ / smallest,
                                            c.name, "bound"));
    total_.Add(lhs, w);
    return absl::OkStatus();
  }
  if (std::optional<PenaltyGroup> group = AsGroup(c)) {
    ASSIGN_OR_RETURN(const double w,
                     Weight(c.penalty, rule_weight_, c.name, "bound"));
    AddGroup(*group, w);
    return absl::OkStatus();
  }
  if (std::optional<BinaryPolynomial> none = AsClause(c)) {
    ASSIGN_OR_RETURN(const double w,
                     Weight(c.penalty, rule_weight_, c.name, "bound"));
    total_.Add(*none, w);
    return absl::OkStatus();
  }
  BinaryPolynomial linear = Linearized(lhs);
  const std::optional<double> scale = IntegerScale(linear, rhs);
  if (scale) {
    BinaryPolynomial scaled;
    scaled.Add(linear, *scale);
    linear = std::move(scaled);
    rhs = std::round(rhs * *scale);
  }
  double unit = 1;
  if (!scale) {
    linear.ForEachTerm([&](std::span<const int32_t>, double a) {
      unit = std::min(unit, std::abs(a));
    });
  }
  ASSIGN_OR_RETURN(
      const double w,
      Weight(c.penalty, rule_weight_ / (unit * unit), c.name, "bound"));
  if (equality) {
    AddSquare(linear, -rhs, w);
    return absl::OkStatus();
  }
  // Slack bits for a range past 2^40 would be 41 bits of one constraint
  // with weights no double adds exactly: such a row is penalised unbalanced.
  const bool wide = rhs - linear.LowerBound() > kMaxSlackRange;
  if (options_.inequality == v1::INEQUALITY_UNBALANCED || !scale || wide) {
    // w (h^2 - h), h = b - L: the square of (L - b) plus w (L - b).
    AddSquare(linear, -rhs, w);
    total_.Add(linear, w);
    total_.AddConstant(-w * rhs);
    return absl::OkStatus();
  }
  const double range = std::floor(rhs - linear.LowerBound() + kTolerance);
  SlackBits slack;
  slack.constraint = index;
  slack.rhs = rhs;
  slack.linear_side = linear;
  if (range >= 1) {
    int64_t covered = 0;
    const int64_t total = static_cast<int64_t>(range);
    for (int64_t weight = 1; covered < total; weight *= 2) {
      const int64_t bit_weight = std::min(weight, total - covered);
      slack.bits.push_back(next_bit_++);
      slack.weights.push_back(bit_weight);
      extra_labels_.push_back(
          absl::StrCat(c.name, ".slack", slack.bits.size()));
      covered += bit_weight;
      linear.AddLinear(slack.bits.back(), static_cast<double>(bit_weight));
    }
    out_.slack_bits += static_cast<int>(slack.bits.size());
  }
  AddSquare(linear, -rhs, w);
  out_.slacks.push_back(std::move(slack));
  return absl::OkStatus();
}

void PenaltyBuilder::ReduceHighTerms() {
  while (!total_.high().empty()) {
    auto node = total_.mutable_high().extract(total_.mutable_high().begin());
    std::vector<int32_t> vars = std::move(node.key());
    const int32_t y = Product(vars[0], vars[1]);
    vars.erase(vars.begin(), vars.begin() + 2);
    vars.push_back(y);
    total_.AddTerm(vars, node.mapped());
  }
}

void PenaltyBuilder::AddAuxiliaryPenalties() {
  std::vector<double> gain(next_bit_, 0.0);
  for (const auto& [key, c] : total_.low()) {
    const int32_t i = BinaryPolynomial::First(key);
    const int32_t j = BinaryPolynomial::Second(key);
    gain[i] += std::abs(c);
    if (j != i) gain[j] += std::abs(c);
  }
  for (auto it = out_.auxiliaries.rbegin(); it != out_.auxiliaries.rend();
       ++it) {
    const int32_t y = it->bit, a = it->factors[0], b = it->factors[1];
    const double m = 1 + gain[y];
    total_.AddPair(a, b, m);
    total_.AddPair(a, y, -2 * m);
    total_.AddPair(b, y, -2 * m);
    total_.AddLinear(y, 3 * m);
    gain[a] += 3 * m;
    gain[b] += 3 * m;
  }
}

absl::StatusOr<PenaltyQubo> PenaltyBuilder::Build() {
  RETURN_IF_ERROR(Check());
  out_.num_bits = input_.num_bits;
  rule_weight_ = RuleWeight();
  for (size_t k = 0; k < input_.constraints.size(); ++k)
    RETURN_IF_ERROR(AddConstraint(static_cast<int>(k), input_.constraints[k]));
  for (const PenaltyGroup& g : input_.groups) {
    if (g.bits.empty()) continue;
    ASSIGN_OR_RETURN(const double w,
                     Weight(g.penalty, rule_weight_, g.name, "bound"));
    AddGroup(g, w);
  }
  for (const PenaltyTerms& t : input_.penalty_terms) {
    ASSIGN_OR_RETURN(const double w,
                     Weight(std::nullopt, rule_weight_, t.name, "bound"));
    total_.Add(t.terms, w);
  }
  total_.Add(input_.objective);
  ReduceHighTerms();
  AddAuxiliaryPenalties();
  total_.Prune();
  QuboBuilder builder(next_bit_);
  builder.AddOffset(total_.constant());
  for (const auto& [key, c] : total_.low())
    builder.AddQuadratic(BinaryPolynomial::First(key),
                         BinaryPolynomial::Second(key), c);
  for (int i = 0; i < next_bit_; ++i) {
    if (i < input_.num_bits) {
      if (static_cast<size_t>(i) < input_.labels.size())
        builder.SetLabel(i, input_.labels[i]);
    } else {
      builder.SetLabel(i, extra_labels_[i - input_.num_bits]);
    }
  }
  ASSIGN_OR_RETURN(out_.model, std::move(builder).Build());
  return std::move(out_);
}

}  // namespace

absl::StatusOr<PenaltyQubo> CompilePenalties(const PenaltyInput& input,
                                             const PenaltyOptions& options) {
  return PenaltyBuilder(input, options).Build();
}

std::vector<uint8_t> CompletePenaltyBits(const PenaltyQubo& qubo,
                                         std::span<const uint8_t> bits) {
  std::vector<uint8_t> x(qubo.model.num_variables(), 0);
  std::copy(bits.begin(), bits.begin() + qubo.num_bits, x.begin());
  for (const AuxiliaryBit& aux : qubo.auxiliaries)
    x[aux.bit] = x[aux.factors[0]] & x[aux.factors[1]];
  for (const SlackBits& slack : qubo.slacks) {
    double left = slack.rhs - slack.linear_side.Evaluate(x);
    for (size_t k = slack.bits.size(); k-- > 0;) {
      const double w = static_cast<double>(slack.weights[k]);
      if (w <= left + kTolerance) {
        x[slack.bits[k]] = 1;
        left -= w;
      }
    }
  }
  return x;
}

}  // namespace qs
