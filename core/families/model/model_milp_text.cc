// A model as a mixed-integer linear program, for MILP solvers such as CBC
// (docs/model-formats.md, "Linearized MILP"). Every product of k >= 2 binary
// variables becomes a binary y with y <= x_i for each factor and
// y >= sum x_i - (k - 1), which hold exactly when y is the product; a spin s
// becomes 2 b - 1 of a binary b; one-hot groups become constraints. So the
// MILP's feasible points are the model's, with the same objective.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "formats/model_text.h"
#include "formats/model_text_internal.h"

namespace qs::formats {
namespace {

using model_text::PolynomialBuilder;

constexpr absl::string_view kMilp = "milp";
// Longer product names fall back to y_<index>.
constexpr size_t kMaxNameLength = 100;

// One-hot groups as plain constraints: sum = 1, or sum <= 1.
v1::ConstrainedModel WithOneHotAsConstraints(const v1::ConstrainedModel& in) {
  v1::ConstrainedModel model = in;
  model.clear_one_hot();
  for (const v1::OneHotConstraint& group : in.one_hot()) {
    v1::ModelConstraint& c = *model.add_constraints();
    c.set_name(group.name().empty()
                   ? absl::StrCat("one_hot", model.constraints_size())
                   : group.name());
    for (uint32_t v : group.variables()) {
      v1::ModelTerm& term = *c.mutable_lhs()->add_terms();
      term.set_coefficient(1);
      term.add_variables(v);
    }
    c.set_sense(group.at_most_one() ? v1::CONSTRAINT_LESS_EQUAL
                                    : v1::CONSTRAINT_EQUAL);
    c.set_rhs(1);
  }
  return model;
}

class Linearizer {
 public:
  explicit Linearizer(const v1::ConstrainedModel& model) : in_(model) {}
  absl::StatusOr<v1::ConstrainedModel> Run();

 private:
  std::string Unique(std::string base);
  absl::StatusOr<v1::ModelPolynomial> Linear(const v1::ModelPolynomial& poly);
  uint32_t Product(const std::vector<uint32_t>& vars);

  const v1::ConstrainedModel& in_;
  v1::ConstrainedModel out_;
  absl::flat_hash_set<std::string> taken_;
  absl::flat_hash_map<std::vector<uint32_t>, uint32_t> products_;
  std::vector<v1::ModelConstraint> links_;
};

std::string Linearizer::Unique(std::string base) {
  if (taken_.insert(base).second) return base;
  for (int k = 2;; ++k) {
    std::string name = absl::StrCat(base, "_", k);
    if (taken_.insert(name).second) return name;
  }
}

// The binary y standing for the product of `vars` (sorted, distinct,
// binary), with its two kinds of linking constraints.
uint32_t Linearizer::Product(const std::vector<uint32_t>& vars) {
  auto it = products_.find(vars);
  if (it != products_.end()) return it->second;
  std::vector<std::string> names;
  for (uint32_t v : vars) names.push_back(out_.variables(v).name());
  std::string base = absl::StrCat("y_", absl::StrJoin(names, "_"));
  if (base.size() > kMaxNameLength)
    base = absl::StrCat("y_", products_.size() + 1);
  const uint32_t y = static_cast<uint32_t>(out_.variables_size());
  const std::string name = Unique(std::move(base));
  out_.add_variables()->set_name(name);
  products_.emplace(vars, y);
  auto term = [](v1::ModelConstraint& c, double coefficient, uint32_t v) {
    v1::ModelTerm& t = *c.mutable_lhs()->add_terms();
    t.set_coefficient(coefficient);
    t.add_variables(v);
  };
  v1::ModelConstraint sum;
  sum.set_name(Unique(name + "_ge"));
  for (size_t k = 0; k < vars.size(); ++k) {
    v1::ModelConstraint& le = links_.emplace_back();
    le.set_name(Unique(absl::StrCat(name, "_le", k + 1)));
    term(le, 1, y);
    term(le, -1, vars[k]);
    le.set_sense(v1::CONSTRAINT_LESS_EQUAL);
    term(sum, 1, vars[k]);
  }
  term(sum, -1, y);
  sum.set_sense(v1::CONSTRAINT_LESS_EQUAL);
  sum.set_rhs(static_cast<double>(vars.size()) - 1);
  links_.push_back(std::move(sum));
  return y;
}

// Spins substituted and binary powers dropped first, so that products whose
// coefficients cancel get no variable.
absl::StatusOr<v1::ModelPolynomial> Linearizer::Linear(
    const v1::ModelPolynomial& poly) {
  PolynomialBuilder expanded;
  expanded.AddConstant(poly.constant());
  for (const v1::ModelTerm& term : poly.terms()) {
    for (uint32_t v : term.variables()) {
      if (term.variables_size() > 1 &&
          in_.variables(v).type() == v1::MODEL_VARIABLE_INTEGER) {
        return absl::InvalidArgumentError(absl::StrCat(
            kMilp, ": a product with the integer variable '",
            in_.variables(v).name(),
            "'; only products of binary and spin variables are linearized"));
      }
    }
    // s = 2 b - 1: each spin factor doubles the monomials.
    std::vector<std::pair<std::vector<uint32_t>, double>> monomials = {
        {{}, term.coefficient()}};
    for (uint32_t v : term.variables()) {
      const bool spin = in_.variables(v).type() == v1::MODEL_VARIABLE_SPIN;
      const size_t count = monomials.size();
      for (size_t i = 0; i < count; ++i) {
        if (spin)
          monomials.emplace_back(monomials[i].first, -monomials[i].second);
        monomials[i].first.push_back(v);
        if (spin) monomials[i].second *= 2;
      }
    }
    for (auto& [vars, c] : monomials) {
      std::sort(vars.begin(), vars.end());
      vars.erase(std::unique(vars.begin(), vars.end()), vars.end());  // x^2=x
      expanded.Add(c, std::move(vars));
    }
  }
  PolynomialBuilder out;
  const v1::ModelPolynomial reduced = expanded.Build();
  out.AddConstant(reduced.constant());
  for (const v1::ModelTerm& term : reduced.terms()) {
    std::vector<uint32_t> vars(term.variables().begin(),
                               term.variables().end());
    if (vars.size() >= 2) vars = {Product(vars)};
    out.Add(term.coefficient(), std::move(vars));
  }
  return out.Build();
}

absl::StatusOr<v1::ConstrainedModel> Linearizer::Run() {
  for (const v1::ModelVariable& variable : in_.variables())
    taken_.insert(variable.name());
  for (const v1::ModelConstraint& c : in_.constraints())
    taken_.insert(c.name());
  out_.set_name(in_.name());
  out_.set_sense(in_.sense());
  for (const v1::ModelVariable& variable : in_.variables()) {
    v1::ModelVariable& copy = *out_.add_variables();
    copy = variable;
    if (variable.type() == v1::MODEL_VARIABLE_SPIN) {
      copy.set_type(v1::MODEL_VARIABLE_BINARY);
      copy.set_name(Unique(absl::StrCat("b_", variable.name())));
    }
  }
  auto objective = Linear(in_.objective());
  if (!objective.ok()) return objective.status();
  *out_.mutable_objective() = *std::move(objective);
  for (int k = 0; k < in_.constraints_size(); ++k) {
    const v1::ModelConstraint& c = in_.constraints(k);
    v1::ModelConstraint& copy = *out_.add_constraints();
    copy = c;
    if (copy.name().empty()) copy.set_name(absl::StrCat("c", k + 1));
    auto lhs = Linear(c.lhs());
    if (!lhs.ok()) return lhs.status();
    *copy.mutable_lhs() = *std::move(lhs);
  }
  for (v1::ModelConstraint& link : links_)
    *out_.add_constraints() = std::move(link);
  return std::move(out_);
}

}  // namespace

absl::StatusOr<v1::ConstrainedModel> LinearizeModel(
    const v1::ConstrainedModel& model) {
  const v1::ConstrainedModel plain = WithOneHotAsConstraints(model);
  if (auto s = model_text::CheckWritable(plain, kMilp); !s.ok()) return s;
  return Linearizer(plain).Run();
}

absl::StatusOr<std::string> WriteLinearizedMilp(
    const v1::ConstrainedModel& model) {
  auto milp = LinearizeModel(model);
  if (!milp.ok()) return milp.status();
  return WriteModelLp(*milp);
}

}  // namespace qs::formats
