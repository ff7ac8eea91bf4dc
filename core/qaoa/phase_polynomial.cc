// Expansion of x-products into Z-products, merged by mask.
#include "core/qaoa/phase_polynomial.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"

namespace qs {
namespace {

class Expander {
 public:
  // Adds w * prod_{k in mask} x_k.
  void AddProduct(uint64_t mask, double w) {
    const double scale = std::ldexp(w, -std::popcount(mask));
    // Every submask S of mask, with sign (-1)^|S|.
    for (uint64_t s = mask;; s = (s - 1) & mask) {
      coefficients_[s] += std::popcount(s) % 2 == 0 ? scale : -scale;
      if (s == 0) break;
    }
  }

  PhasePolynomial Finish(int num_qubits, double offset) && {
    PhasePolynomial p;
    p.num_qubits = num_qubits;
    p.constant = offset;
    for (const auto& [mask, w] : coefficients_) {
      if (mask == 0) {
        p.constant += w;
      } else if (w != 0) {
        p.terms.push_back({mask, w});
      }
    }
    std::sort(p.terms.begin(), p.terms.end(),
              [](const PhaseTerm& a, const PhaseTerm& b) {
                const int oa = std::popcount(a.mask),
                          ob = std::popcount(b.mask);
                return oa != ob ? oa < ob : a.mask < b.mask;
              });
    return p;
  }

 private:
  absl::flat_hash_map<uint64_t, double> coefficients_;
};

absl::Status CheckQubits(int n) {
  if (n > kMaxPhaseQubits) {
    return absl::ResourceExhaustedError(
        absl::StrCat("qaoa: ", n, " qubits; at most ", kMaxPhaseQubits,
                     " can be addressed"));
  }
  return absl::OkStatus();
}

}  // namespace

double PhasePolynomial::Value(uint64_t index) const {
  double c = constant;
  for (const PhaseTerm& t : terms)
    c += std::popcount(index & t.mask) % 2 == 0 ? t.w : -t.w;
  return c;
}

double PhasePolynomial::MaxAbsWeight() const {
  double m = 0;
  for (const PhaseTerm& t : terms) m = std::max(m, std::abs(t.w));
  return m;
}

int PhasePolynomial::max_order() const {
  int order = 0;
  for (const PhaseTerm& t : terms)
    order = std::max(order, std::popcount(t.mask));
  return order;
}

absl::StatusOr<PhasePolynomial> PhasePolynomialFromQubo(const Qubo& model) {
  const int n = model.num_variables();
  if (absl::Status s = CheckQubits(n); !s.ok()) return s;
  Expander e;
  for (int i = 0; i < n; ++i) {
    if (model.linear(i) != 0) e.AddProduct(uint64_t{1} << i, model.linear(i));
  }
  for (const QuboTerm& t : model.QuadraticTerms())
    e.AddProduct((uint64_t{1} << t.i) | (uint64_t{1} << t.j), t.w);
  return std::move(e).Finish(n, model.offset());
}

absl::StatusOr<PhasePolynomial> PhasePolynomialFromHubo(const Hubo& model) {
  if (absl::Status s = CheckQubits(model.num_variables); !s.ok()) return s;
  Expander e;
  double offset = model.offset;
  for (size_t k = 0; k < model.terms.size(); ++k) {
    const HuboTerm& t = model.terms[k];
    uint64_t mask = 0;
    for (int32_t v : t.variables) {
      if (v < 0 || v >= model.num_variables) {
        return absl::InvalidArgumentError(absl::StrCat(
            "higher_order.terms[", k, "]: variable ", v, " out of range"));
      }
      mask |= uint64_t{1} << v;  // x_v^2 = x_v
    }
    if (std::popcount(mask) > kMaxPhaseOrder) {
      return absl::InvalidArgumentError(
          absl::StrCat("higher_order.terms[", k, "]: order ",
                       std::popcount(mask), " over ", kMaxPhaseOrder));
    }
    if (mask == 0) {
      offset += t.w;
    } else if (t.w != 0) {
      e.AddProduct(mask, t.w);
    }
  }
  return std::move(e).Finish(model.num_variables, offset);
}

absl::StatusOr<PhasePolynomial> ProblemPhasePolynomial(
    const CompiledProblem& problem) {
  if (problem.higher_order.has_value())
    return PhasePolynomialFromHubo(*problem.higher_order);
  return PhasePolynomialFromQubo(problem.model);
}

}  // namespace qs
