// BoolCircuit: constant folding and the Tseitin CNF.
#include "core/exact/circuit.h"

namespace qs {

int BoolCircuit::And(int a, int b) {
  if (a == kFalse || b == kFalse) return kFalse;
  if (a == kTrue) return b;
  if (b == kTrue) return a;
  return Add(true, a, b);
}

int BoolCircuit::Or(int a, int b) {
  if (a == kTrue || b == kTrue) return kTrue;
  if (a == kFalse) return b;
  if (b == kFalse) return a;
  return Add(false, a, b);
}

int BoolCircuit::Add(bool is_and, int a, int b) {
  gates_.push_back({is_and, a, b});
  return num_primary_ + 1 + static_cast<int>(gates_.size());
}

Cnf BoolCircuit::ToCnf() const {
  CnfBuilder cnf(num_primary_);
  // DIMACS literal of a non-constant reference.
  auto lit = [](int ref) { return ref < 0 ? ref + 1 : ref - 1; };
  for (const Gate& gate : gates_) {
    const int g = cnf.NewVariable();
    // AND: g <-> a & b; OR is the same with every literal negated.
    const int s = gate.is_and ? 1 : -1;
    const int a = s * lit(gate.a), b = s * lit(gate.b), out = s * g;
    cnf.AddClause({-out, a});
    cnf.AddClause({-out, b});
    cnf.AddClause({out, -a, -b});
  }
  for (int ref : asserted_) {
    if (ref == kTrue) continue;
    if (ref == kFalse) {
      cnf.AddClause(std::span<const int>());
    } else {
      cnf.AddUnit(lit(ref));
    }
  }
  return std::move(cnf).Take();
}

}  // namespace qs
