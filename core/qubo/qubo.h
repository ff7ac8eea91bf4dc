// Qubo: an immutable sparse QUBO model with constant offset and variable
// labels, stored as a symmetric CSR adjacency so that a sampler can walk the
// neighbours of a variable contiguously. QuboBuilder collects terms (duplicates
// summed, i == j folded into the linear term) and checks them. IsingModel and
// the conversions between the two forms keep every energy: E_qubo(x) ==
// E_ising(2x - 1).
//
// Energy convention ([Mücke 2024] eq. 1 plus an offset): E(x) = offset + sum_i
// a_i x_i + sum_{i<j} b_ij x_i x_j. Thread-safe after construction (const).
#ifndef QS_CORE_QUBO_QUBO_H_
#define QS_CORE_QUBO_QUBO_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace qs {

// One term of a model: linear when i == j, else quadratic with i < j.
struct QuboTerm {
  int32_t i;
  int32_t j;
  double w;
  friend bool operator==(const QuboTerm&, const QuboTerm&) = default;
};

// An entry of a variable's adjacency: the other variable and the coupling
// weight.
struct Neighbor {
  int32_t j;
  double w;
};

struct QuboStats {
  int num_variables = 0;
  int64_t num_couplers = 0;      // quadratic terms with i < j
  int64_t num_linear_terms = 0;  // non-zero linear terms
  double density = 0;            // couplers / (n choose 2)
  int max_degree = 0;
  double max_abs_coefficient = 0;
};

class Qubo {
 public:
  // The empty model (no variables, offset 0).
  Qubo() : row_start_(1, 0) {}

  int num_variables() const { return static_cast<int>(linear_.size()); }
  double offset() const { return offset_; }
  double linear(int i) const { return linear_[i]; }
  const std::vector<double>& linear_terms() const { return linear_; }
  // Neighbours of i sorted by index; each coupler appears in the lists of both
  // of its variables.
  std::span<const Neighbor> neighbors(int i) const {
    return {adjacency_.data() + row_start_[i],
            adjacency_.data() + row_start_[i + 1]};
  }
  // CSR arrays: neighbours of i are adjacency()[row_start()[i] ..
  // row_start()[i+1]).
  const std::vector<int64_t>& row_start() const { return row_start_; }
  const std::vector<Neighbor>& adjacency() const { return adjacency_; }
  int64_t num_couplers() const {
    return static_cast<int64_t>(adjacency_.size() / 2);
  }
  // Quadratic terms with i < j, sorted by (i, j).
  std::vector<QuboTerm> QuadraticTerms() const;
  // Label of each variable; empty strings when none were given.
  const std::vector<std::string>& labels() const { return labels_; }

  // Energy of a full assignment (bits of 0/1, size num_variables()), offset
  // included.
  double Energy(std::span<const uint8_t> x) const;
  // E(x with bit i flipped) - E(x).
  double FlipDelta(std::span<const uint8_t> x, int i) const;

  QuboStats Stats() const;

  // The same model with another offset.
  Qubo WithOffset(double offset) const;

 private:
  friend class QuboBuilder;
  double offset_ = 0;
  std::vector<double> linear_;
  std::vector<int64_t> row_start_;
  std::vector<Neighbor> adjacency_;
  std::vector<std::string> labels_;
};

// Collects terms of a model with a fixed number of variables. Errors (bad
// index, NaN or infinite weight) are remembered and reported by Build(), naming
// the first offending term.
class QuboBuilder {
 public:
  explicit QuboBuilder(int num_variables);

  int num_variables() const { return static_cast<int>(linear_.size()); }
  void AddOffset(double c);
  void AddLinear(int i, double w);
  // Adds w * x_i * x_j. Order of i and j does not matter; i == j adds a linear
  // term (x_i^2 = x_i).
  void AddQuadratic(int i, int j, double w);
  void SetLabel(int i, std::string label);

  // Merges duplicate terms, drops couplers that sum to exactly zero and builds
  // the model.
  absl::StatusOr<Qubo> Build() &&;

 private:
  void Fail(absl::Status status);

  double offset_ = 0;
  std::vector<double> linear_;
  std::vector<QuboTerm> quadratic_;
  std::vector<std::string> labels_;
  absl::Status status_;
};

// Ising form: E(s) = offset + sum_i h_i s_i + sum_{i<j} J_ij s_i s_j, s in {-1,
// +1}.
struct IsingModel {
  int num_variables = 0;
  double offset = 0;
  std::vector<double> h;
  std::vector<QuboTerm> couplings;  // i < j, sorted, no duplicates

  double Energy(std::span<const int8_t> spins) const;
};

// x = (s + 1) / 2: h_i = a_i / 2 + sum_j b_ij / 4, J_ij = b_ij / 4,
// offset_ising = offset + sum_i a_i / 2 + sum_{i<j} b_ij / 4.
IsingModel ToIsing(const Qubo& qubo);
// s = 2x - 1: a_i = 2 h_i - 2 sum_j J_ij, b_ij = 4 J_ij, offset = offset_ising
// - sum h + sum J.
absl::StatusOr<Qubo> FromIsing(const IsingModel& ising);

}  // namespace qs

#endif  // QS_CORE_QUBO_QUBO_H_
