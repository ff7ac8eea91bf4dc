// CNF of a puzzle's rules with the linear-size encodings of
// [Bryant 2019]: instead of the naive pairwise clauses,
// whose number grows as Theta(N^3) for N-queens, every constraint gets a chain
// of auxiliary variables, so the formula stays Theta(N^2).
//
// - At most one of x_1..x_k (the paper's conflict chains D_rc, L_rc, R_rc along
//   columns and diagonals, and its E chain along a row): a ladder of k - 1
//   auxiliaries s_i = "one of x_1..x_i holds" (s_i is the negation of the
//   seed's E_{r,i}, "empty through i"), with x_i -> s_i, s_{i-1} -> s_i and
//   x_i -> not s_{i-1}: 3k - 4 clauses. Lines of at most four literals use the
//   pairwise clauses, which are no more there.
// - Exactly one (the paper's UNIQUE, E and H chains): the ladder plus one
// clause
//   x_1 v ... v x_k.
// - Between min and max of k literals: a sequential counter (Sinz 2005), the
//   same chain idea with a register r_{i,j} = "at least j of x_1..x_i hold"
//   for j up to max + 1 (or min), defined in both directions so that unit
//   propagation enforces both bounds: O(k * max) clauses.
// - Two words differ: one auxiliary d_i -> (a_i xor b_i) per position and the
//   clause d_1 v ... v d_m.
// Unit propagation on each of these encodings decides everything that the
// constraint alone implies (arc consistency), which is what the generators use
// to grade difficulty. Not thread-safe.
#ifndef QS_CORE_EXACT_CNF_H_
#define QS_CORE_EXACT_CNF_H_

#include <cstdint>
#include <span>
#include <vector>

#include "core/exact/constraint_sink.h"

namespace qs {

// Size of a Boolean encoding (reported on the wire as v1::EncodingStats).
struct EncodingStats {
  int primary_variables = 0;    // the full QUBO model's variables
  int auxiliary_variables = 0;  // chain, counter and difference variables
  int64_t clauses = 0;
  int64_t literals = 0;  // summed clause lengths
  // BDD counting only (core/exact/bdd_counter.h).
  int64_t bdd_nodes = 0;       // nodes of the final BDD
  int64_t bdd_peak_nodes = 0;  // largest intermediate conjunction
  int64_t bdd_operations = 0;  // Boolean operations performed
};

// A formula in conjunctive normal form over variables 1..num_variables, the
// first num_primary of them the puzzle's own.
struct Cnf {
  int num_primary = 0;
  int num_variables = 0;
  // Clauses one after another, each terminated by 0 (DIMACS order).
  std::vector<int> literals;
  int64_t num_clauses = 0;

  EncodingStats Stats() const;
};

class CnfBuilder final : public ConstraintSink {
 public:
  explicit CnfBuilder(int num_primary);

  // A fresh auxiliary variable (for callers that add guarded clauses of their
  // own, such as the generators' clue selectors).
  int NewVariable();

  using ConstraintSink::AddClause;
  void AddClause(std::span<const int> literals) override;
  void AddAtMostOne(std::span<const int> literals) override;
  void AddExactlyOne(std::span<const int> literals) override;
  void AddCardinality(std::span<const int> literals, int min, int max) override;
  void AddDifferent(std::span<const int> a, std::span<const int> b) override;
  int NewAuxiliary() override { return NewVariable(); }

  const Cnf& cnf() const { return cnf_; }
  Cnf Take() && { return std::move(cnf_); }

 private:
  Cnf cnf_;
};

// Unit propagation of `cnf` under `assumptions` (literals taken as true).
// Returns the value of every variable (index v - 1): 1 true, 0 false, -1 not
// decided; an empty vector when propagation meets a conflict.
std::vector<int8_t> Propagate(const Cnf& cnf, std::span<const int> assumptions);

}  // namespace qs

#endif  // QS_CORE_EXACT_CNF_H_
