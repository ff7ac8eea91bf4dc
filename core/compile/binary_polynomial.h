// BinaryPolynomial: a polynomial over binary variables x_0, x_1, ... (x^2 =
// x), the form in which the constraint-to-penalty layer (penalty_model.h)
// takes objectives and constraint sides. Terms of degree one and two, the
// bulk of every model, sit in one hash map keyed by the packed pair (a dense
// 2,000-variable objective has two million of them); terms of degree three
// and more sit in an ordered map of their sorted variable lists. Not
// thread-safe.
#ifndef QS_CORE_COMPILE_BINARY_POLYNOMIAL_H_
#define QS_CORE_COMPILE_BINARY_POLYNOMIAL_H_

#include <cstdint>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace qs {

class BinaryPolynomial {
 public:
  // Key of x_i x_j (i <= j; i == j is the linear term x_i).
  static uint64_t PairKey(int32_t i, int32_t j) {
    if (i > j) std::swap(i, j);
    return (static_cast<uint64_t>(i) << 32) | static_cast<uint32_t>(j);
  }
  static int32_t First(uint64_t key) { return static_cast<int32_t>(key >> 32); }
  static int32_t Second(uint64_t key) {
    return static_cast<int32_t>(key & 0xffffffffu);
  }

  double constant() const { return constant_; }
  void AddConstant(double c) { constant_ += c; }
  void AddLinear(int32_t i, double c) { AddPair(i, i, c); }
  void AddPair(int32_t i, int32_t j, double c);
  // c times the product of `vars` (any order; repeats merge since x^2 = x).
  void AddTerm(std::span<const int32_t> vars, double c);
  // this += scale * other.
  void Add(const BinaryPolynomial& other, double scale = 1);
  // this * other, with x^2 = x.
  BinaryPolynomial Times(const BinaryPolynomial& other) const;

  // Terms of degree one (i == j) and two, keyed by PairKey.
  const absl::flat_hash_map<uint64_t, double>& low() const { return low_; }
  // Terms of degree three and more, keyed by their sorted distinct variables.
  const std::map<std::vector<int32_t>, double>& high() const { return high_; }
  std::map<std::vector<int32_t>, double>& mutable_high() { return high_; }

  // The highest degree of a non-zero term (0 for a constant).
  int Degree() const;
  // One more than the largest variable index of any term (0 for none).
  int32_t VariableBound() const;
  // Every term, as (sorted variables, coefficient), low ones first.
  template <typename Fn>
  void ForEachTerm(Fn&& fn) const {
    for (const auto& [key, c] : low_) {
      const int32_t i = First(key), j = Second(key);
      if (i == j) {
        const int32_t v[1] = {i};
        fn(std::span<const int32_t>(v, 1), c);
      } else {
        const int32_t v[2] = {i, j};
        fn(std::span<const int32_t>(v, 2), c);
      }
    }
    for (const auto& [vars, c] : high_) fn(std::span<const int32_t>(vars), c);
  }
  // The value at an assignment covering every variable.
  double Evaluate(std::span<const uint8_t> x) const;
  // The least and the largest value over all assignments of a polynomial
  // of degree one; for higher degrees, bounds (each term at its own extreme).
  double LowerBound() const;
  double UpperBound() const;
  // Every coefficient and the constant are integers.
  bool IntegerCoefficients() const;
  // Drops the terms whose coefficient is exactly zero.
  void Prune();

 private:
  double constant_ = 0;
  absl::flat_hash_map<uint64_t, double> low_;
  std::map<std::vector<int32_t>, double> high_;
};

}  // namespace qs

#endif  // QS_CORE_COMPILE_BINARY_POLYNOMIAL_H_
