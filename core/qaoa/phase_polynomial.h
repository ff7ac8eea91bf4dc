// PhasePolynomial: the cost of a reduced model in Ising (Pauli-Z) form, the
// operator a QAOA phase layer exponentiates. A basis state |z> of n qubits has
// z_k = +1 for |0> and -1 for |1>, and qubit k carries variable k with
// x_k = (1 - z_k) / 2, so |1> means x_k = 1. A product of variables expands as
//   prod_{v in t} x_v = 2^-|t| sum_{S subset of t} (-1)^|S| prod_{v in S} z_v,
// so a QUBO gives terms of order one and two and a Hubo of order up to its
// largest term. C(z) = constant + sum_t w_t prod_{k in mask_t} z_k equals the
// model's energy (offset included) at the matching x. docs/qaoa.md.
#ifndef QS_CORE_QAOA_PHASE_POLYNOMIAL_H_
#define QS_CORE_QAOA_PHASE_POLYNOMIAL_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compile/compiler.h"
#include "core/qubo/hubo.h"
#include "core/qubo/qubo.h"

namespace qs {

// w * prod_{k: bit k of mask set} Z_k.
struct PhaseTerm {
  uint64_t mask = 0;
  double w = 0;
};

struct PhasePolynomial {
  int num_qubits = 0;
  double constant = 0;
  // Non-zero terms, sorted by order, then by mask.
  std::vector<PhaseTerm> terms;

  // C at basis state `index` (bit k of index: qubit k is |1>, x_k = 1).
  double Value(uint64_t index) const;
  double MaxAbsWeight() const;
  int max_order() const;
};

// Qubits are limited by the 64-bit masks; a simulator refuses far fewer.
inline constexpr int kMaxPhaseQubits = 62;
// Variables of one Hubo term (its expansion has 2^order terms).
inline constexpr int kMaxPhaseOrder = 16;

// RESOURCE_EXHAUSTED above kMaxPhaseQubits variables; INVALID_ARGUMENT for a
// Hubo term above kMaxPhaseOrder or naming a variable out of range.
absl::StatusOr<PhasePolynomial> PhasePolynomialFromQubo(const Qubo& model);
absl::StatusOr<PhasePolynomial> PhasePolynomialFromHubo(const Hubo& model);
// The cost a QAOA of `problem` runs on: problem.higher_order when set (the
// reduced QUBO is then empty), else problem.model.
absl::StatusOr<PhasePolynomial> ProblemPhasePolynomial(
    const CompiledProblem& problem);

}  // namespace qs

#endif  // QS_CORE_QAOA_PHASE_POLYNOMIAL_H_
