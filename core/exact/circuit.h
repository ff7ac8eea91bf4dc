// BoolCircuit: a formula as a circuit of two-input AND / OR gates over the
// primary variables, the form in which [Bryant 2019] writes its N-queens
// recurrences (SELECT, UNIQUE, CONFLICT, ROW) and counts their "Boolean
// operations" (Table 1). Negation is free (a signed reference), and a gate
// with a constant input is folded away rather than built, so gates() is the
// number of operations the formula needs. The exact engines take it two ways:
// as CNF (one auxiliary variable per gate, the Tseitin clauses) for CaDiCaL,
// and gate by gate as BDD operations for BuDDy (bdd_counter.h).
#ifndef QS_CORE_EXACT_CIRCUIT_H_
#define QS_CORE_EXACT_CIRCUIT_H_

#include <cstdint>
#include <vector>

#include "core/exact/cnf.h"

namespace qs {

class BoolCircuit {
 public:
  // A reference: +node or -node (its negation). Node 1 is the constant true;
  // node v + 1 is primary variable v (1..num_primary); gate i is node
  // num_primary + 2 + i, so every node but the constant is DIMACS variable
  // node - 1.
  static constexpr int kTrue = 1;
  static constexpr int kFalse = -1;
  struct Gate {
    bool is_and = true;
    int a = 0, b = 0;
  };

  explicit BoolCircuit(int num_primary) : num_primary_(num_primary) {}

  int num_primary() const { return num_primary_; }
  int Var(int v) const { return v + 1; }  // primary variable v, 1-based
  int And(int a, int b);
  int Or(int a, int b);

  const std::vector<Gate>& gates() const { return gates_; }
  bool IsGate(int ref) const { return Node(ref) >= num_primary_ + 2; }
  static int Node(int ref) { return ref < 0 ? -ref : ref; }

  // The formula: the conjunction of these references.
  void Assert(int ref) { asserted_.push_back(ref); }
  const std::vector<int>& asserted() const { return asserted_; }

  // The CNF: gates as auxiliary variables with their defining clauses,
  // asserted references as unit clauses.
  Cnf ToCnf() const;

 private:
  int Add(bool is_and, int a, int b);

  int num_primary_;
  std::vector<Gate> gates_;
  std::vector<int> asserted_;
};

}  // namespace qs

#endif  // QS_CORE_EXACT_CIRCUIT_H_
