// ConstraintSink: the vocabulary in which a puzzle family states its real
// rules as Boolean constraints (core/exact/encoder.h), independent of how they
// are then represented. Two sinks implement it: CnfBuilder (core/exact/cnf.h)
// writes clauses for CaDiCaL with the linear-size encodings of
// [Bryant 2019] ("Encoding the N-Queens Problem with Boolean
// Formulas"), and BddBuilder (core/exact/bdd_counter.h) builds the same
// constraints as BDDs with the paper's recurrences for exact model counting.
//
// Literals are DIMACS-style: +v is "primary variable v is true", -v its
// negation, with v = 1..num_primary. Primary variable v is variable v - 1 of
// the family's full QUBO model, so that a satisfying assignment is also a
// full-model assignment. Constraints may be given in any order; a sink is not
// thread-safe.
#ifndef QS_CORE_EXACT_CONSTRAINT_SINK_H_
#define QS_CORE_EXACT_CONSTRAINT_SINK_H_

#include <initializer_list>
#include <span>

namespace qs {

class ConstraintSink {
 public:
  virtual ~ConstraintSink() = default;

  // At least one literal holds. An empty clause makes the rules unsatisfiable.
  virtual void AddClause(std::span<const int> literals) = 0;
  // At most one literal holds ([Bryant 2019]: the "conflict" chains D, L, R
  // along a line, and the E chain of a row).
  virtual void AddAtMostOne(std::span<const int> literals) = 0;
  // Exactly one literal holds ([Bryant 2019]: UNIQUE, the E / H chains).
  virtual void AddExactlyOne(std::span<const int> literals) = 0;
  // Between `min` and `max` of the literals hold (0 <= min <= max).
  virtual void AddCardinality(std::span<const int> literals, int min,
                              int max) = 0;
  // The two equally long literal words differ in at least one position (the
  // Takuzu rule that no two rows and no two columns are equal).
  virtual void AddDifferent(std::span<const int> a, std::span<const int> b) = 0;
  // A fresh auxiliary variable (numbered after the primary ones) for rules
  // that the board's own variables cannot state alone, such as the Tents
  // pairing of tents and trees; 0 when the sink has none (BddBuilder counts
  // models over the primary variables, where an auxiliary would be counted
  // too). Solutions stay assignments of the primary variables.
  virtual int NewAuxiliary() = 0;

  void AddClause(std::initializer_list<int> literals) {
    AddClause(std::span<const int>(literals.begin(), literals.size()));
  }
  // A single literal that must hold (a given).
  void AddUnit(int literal) { AddClause({literal}); }
};

}  // namespace qs

#endif  // QS_CORE_EXACT_CONSTRAINT_SINK_H_
