// BinaryPolynomial: merging, products and bounds of polynomials over binary
// variables.
#include "core/compile/binary_polynomial.h"

#include <algorithm>
#include <cmath>

namespace qs {

void BinaryPolynomial::AddPair(int32_t i, int32_t j, double c) {
  if (c == 0) return;
  low_[PairKey(i, j)] += c;
}

void BinaryPolynomial::AddTerm(std::span<const int32_t> vars, double c) {
  if (c == 0) return;
  std::vector<int32_t> sorted(vars.begin(), vars.end());
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  if (sorted.empty()) {
    constant_ += c;
  } else if (sorted.size() == 1) {
    AddPair(sorted[0], sorted[0], c);
  } else if (sorted.size() == 2) {
    AddPair(sorted[0], sorted[1], c);
  } else {
    high_[std::move(sorted)] += c;
  }
}

void BinaryPolynomial::Add(const BinaryPolynomial& other, double scale) {
  if (scale == 0) return;
  constant_ += scale * other.constant_;
  for (const auto& [key, c] : other.low_) low_[key] += scale * c;
  for (const auto& [vars, c] : other.high_) high_[vars] += scale * c;
}

BinaryPolynomial BinaryPolynomial::Times(const BinaryPolynomial& other) const {
  BinaryPolynomial out;
  out.constant_ = constant_ * other.constant_;
  std::vector<int32_t> merged;
  ForEachTerm([&](std::span<const int32_t> a, double ca) {
    out.AddTerm(a, ca * other.constant_);
    other.ForEachTerm([&](std::span<const int32_t> b, double cb) {
      merged.assign(a.begin(), a.end());
      merged.insert(merged.end(), b.begin(), b.end());
      out.AddTerm(merged, ca * cb);
    });
  });
  other.ForEachTerm([&](std::span<const int32_t> b, double cb) {
    out.AddTerm(b, cb * constant_);
  });
  out.Prune();
  return out;
}

int BinaryPolynomial::Degree() const {
  int degree = 0;
  for (const auto& [key, c] : low_) {
    if (c != 0) degree = std::max(degree, First(key) == Second(key) ? 1 : 2);
  }
  for (const auto& [vars, c] : high_) {
    if (c != 0) degree = std::max(degree, static_cast<int>(vars.size()));
  }
  return degree;
}

int32_t BinaryPolynomial::VariableBound() const {
  int32_t bound = 0;
  for (const auto& [key, c] : low_) bound = std::max(bound, Second(key) + 1);
  for (const auto& [vars, c] : high_) bound = std::max(bound, vars.back() + 1);
  return bound;
}

double BinaryPolynomial::Evaluate(std::span<const uint8_t> x) const {
  double value = constant_;
  for (const auto& [key, c] : low_) {
    if (x[First(key)] && x[Second(key)]) value += c;
  }
  for (const auto& [vars, c] : high_) {
    bool all = true;
    for (int32_t v : vars) all = all && x[v];
    if (all) value += c;
  }
  return value;
}

double BinaryPolynomial::LowerBound() const {
  double bound = constant_;
  ForEachTerm(
      [&](std::span<const int32_t>, double c) { bound += std::min(c, 0.0); });
  return bound;
}

double BinaryPolynomial::UpperBound() const {
  double bound = constant_;
  ForEachTerm(
      [&](std::span<const int32_t>, double c) { bound += std::max(c, 0.0); });
  return bound;
}

bool BinaryPolynomial::IntegerCoefficients() const {
  bool integer = std::floor(constant_) == constant_;
  ForEachTerm([&](std::span<const int32_t>, double c) {
    integer = integer && std::floor(c) == c;
  });
  return integer;
}

void BinaryPolynomial::Prune() {
  absl::erase_if(low_, [](const auto& term) { return term.second == 0; });
  std::erase_if(high_, [](const auto& term) { return term.second == 0; });
}

}  // namespace qs
