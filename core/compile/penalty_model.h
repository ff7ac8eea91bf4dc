// The constraint-to-penalty layer (docs/model.md, "From constraints to a
// QUBO"): an objective and named constraints over binary variables become one
// QUBO whose energy is the objective wherever every constraint holds, and
// more wherever one is broken. The `model` family compiles every model
// through it; a family may declare its rules through it too.
//
// What each constraint becomes:
//   one-hot group (exactly one)   P (sum x - 1)^2
//   at-most-one group, and a sum of unit terms <= 1 (or -sum >= -1)
//                                 P sum_{i<j} x_i x_j
//   clause: sum of +-1 terms >= 1 - (the negative ones), at most 4 literals
//                                 P * the product of the negated literals
//   nonnegative terms <= 0, or declared penalty terms
//                                 P * the terms themselves
//   equality L == b               P (L - b)^2
//   inequality L <= b (>= is negated)
//     slack (default)             P (L + s - b)^2, s = sum of binary-weighted
//                                 slack bits over [0, b - min L], the top bit
//                                 capped so that s never passes the range
//     unbalanced                  P (h^2 - h) on h = b - L [Montanez-Barrera
//                                 et al. 2023]: no slack bits, zero at h = 0
//                                 and h = 1, and larger the further h < 0
// Constraint sides of degree two or more are first made linear by one
// auxiliary bit per product (y = x_i x_j ...), and terms of degree three and
// more in the sum are reduced the same way, pair by pair [Rosenberg 1975]:
// y replaces x_a x_b, and M (x_a x_b - 2 x_a y - 2 x_b y + 3 y), which is 0
// when y = x_a x_b and at least M otherwise, keeps it honest. M is one more
// than the most the rest of the energy can gain by setting y wrong (the sum
// of the magnitudes of the terms that hold y), so every minimum sets y right.
//
// The penalty weight P of a constraint, unless given: one more unit than the
// largest change of the objective that one move can make (a move sets or
// clears one bit, or moves the bit of a one-hot group to another member;
// within other one-hot groups at most one member is set), over the squared
// smallest violation (constraint sides are scaled to integers where their
// coefficients allow: a unit violation then costs P). A broken constraint
// then costs more than any single move can win back.
#ifndef QS_CORE_COMPILE_PENALTY_MODEL_H_
#define QS_CORE_COMPILE_PENALTY_MODEL_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compile/binary_polynomial.h"
#include "core/qubo/qubo.h"
#include "qs/v1/model.pb.h"

namespace qs {

struct PenaltyConstraint {
  std::string name;
  BinaryPolynomial lhs;
  v1::ConstraintSense sense = v1::CONSTRAINT_EQUAL;
  double rhs = 0;
  std::optional<double> penalty;  // the weight, overriding the rule
};

// Exactly one (or at most one) of the bits is 1.
struct PenaltyGroup {
  std::string name;
  std::vector<int32_t> bits;
  bool at_most_one = false;
  std::optional<double> penalty;
};

// Terms that are never negative and zero exactly when the rule holds (an
// encoding's own rule, such as a domain wall's ordering): added as P * terms.
struct PenaltyTerms {
  std::string name;
  BinaryPolynomial terms;
};

struct PenaltyOptions {
  v1::InequalityMethod inequality = v1::INEQUALITY_SLACK;
  // The weight of every constraint that gives none, overriding the rule.
  std::optional<double> penalty;
};

struct PenaltyInput {
  int num_bits = 0;                 // the caller's variables, 0 .. num_bits - 1
  std::vector<std::string> labels;  // one per bit (may be empty)
  BinaryPolynomial objective;       // minimised
  std::vector<PenaltyConstraint> constraints;
  std::vector<PenaltyGroup> groups;
  std::vector<PenaltyTerms> penalty_terms;
};

// An auxiliary bit: y = the product of `factors`.
struct AuxiliaryBit {
  int32_t bit = 0;
  std::vector<int32_t> factors;
};

// The slack bits of one inequality, s = sum weights[k] * bits[k] standing for
// b - L (L over the constraint's scaled linear side).
struct SlackBits {
  int constraint = 0;  // index into PenaltyInput::constraints
  std::vector<int32_t> bits;
  std::vector<int64_t> weights;
  BinaryPolynomial linear_side;  // L, scaled, over caller and auxiliary bits
  double rhs = 0;                // b, scaled
};

struct PenaltyQubo {
  Qubo model;  // over the caller's bits, then slack and auxiliary bits
  int num_bits = 0;
  int slack_bits = 0;
  int auxiliary_bits = 0;  // products in constraints and degree reduction
  // Exactly-one groups of the QUBO's variables (the samplers' moves).
  std::vector<std::vector<int32_t>> one_hot_groups;
  // One per constraint, group and penalty-terms entry, in that order.
  std::vector<v1::ModelReport::Penalty> penalties;
  std::vector<AuxiliaryBit> auxiliaries;  // in creation order
  std::vector<SlackBits> slacks;
  // Constraints that hold at every assignment, left out of the QUBO.
  int redundant = 0;
};

// The QUBO of `input`. INVALID_ARGUMENT for a constraint without a sense, a
// bit out of range or a weight that is not positive and finite.
absl::StatusOr<PenaltyQubo> CompilePenalties(const PenaltyInput& input,
                                             const PenaltyOptions& options);

// Every QUBO variable from the caller's bits: auxiliaries as their products,
// slack bits as the largest slack that fits b - L (greedy from the top bit),
// so that a feasible assignment of the caller's bits has energy equal to its
// objective.
std::vector<uint8_t> CompletePenaltyBits(const PenaltyQubo& qubo,
                                         std::span<const uint8_t> bits);

}  // namespace qs

#endif  // QS_CORE_COMPILE_PENALTY_MODEL_H_
