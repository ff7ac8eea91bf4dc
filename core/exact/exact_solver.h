// The exact engines on a whole puzzle: a family's RulesEncoder turned into CNF
// for CaDiCaL (solutions, uniqueness, enumeration up to a limit) or into a BDD
// for BuDDy (the exact number of solutions). Callers compile the spec first
// with the family's compiler (which checks it) and pass the full model's
// variable count; solutions are full-model assignments, so the compiler decodes
// and validates them like any sample. Thread-safe (BDD counts serialize on
// BuDDy's lock).
#ifndef QS_CORE_EXACT_EXACT_SOLVER_H_
#define QS_CORE_EXACT_EXACT_SOLVER_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "core/base/interrupter.h"
#include "core/exact/circuit.h"
#include "core/exact/cnf.h"
#include "core/exact/encoder.h"
#include "core/exact/sat_solver.h"

namespace qs {

// The CNF of a spec's rules (see EncodeOptions).
absl::StatusOr<Cnf> EncodeCnf(const RulesEncoder& encoder,
                              const v1::PuzzleSpec& spec, int num_primary,
                              const EncodeOptions& options = {});

struct ExactSolveResult {
  Enumeration enumeration;
  EncodingStats encoding;
};

// Finds up to `max_solutions` boards (full-model assignments) with CaDiCaL,
// passing each to `on_solution` as it is found. With max_solutions >= 2 the
// result tells whether the first board is the only one.
absl::StatusOr<ExactSolveResult> SolveRules(
    const RulesEncoder& encoder, const v1::PuzzleSpec& spec, int num_primary,
    int64_t max_solutions,
    const std::function<void(std::vector<uint8_t>)>& on_solution,
    Interrupter* interrupter = nullptr);

enum class CountMethod { kAuto, kSat, kBdd };

// kAuto counts with a BDD up to this many primary variables (N-queens to 14,
// 4x4 Sudoku, Takuzu to 12x12) and with CaDiCaL above, and always with CaDiCaL
// for rules with auxiliary variables (Tents); kBdd refuses those.
inline constexpr int kBddAutoVariables = 196;

struct CountResult {
  SatResult status = SatResult::kUnknown;
  uint64_t count = 0;
  // count is the number of solutions: a BDD count, or an enumeration that
  // proved there was no further solution.
  bool complete = false;
  CountMethod method = CountMethod::kSat;
  EncodingStats encoding;
};

// Counts solutions: with BuDDy (exact whatever `limit` says; counting without
// enumerating is the point of a BDD) or by CaDiCaL enumeration with blocking
// clauses, stopping at `limit` solutions. kAuto picks the BDD on small boards
// and falls back to enumeration when the BDD outgrows its node table. A count
// stopped by the interrupter is not complete.
absl::StatusOr<CountResult> CountRuleSolutions(const RulesEncoder& encoder,
                                               const v1::PuzzleSpec& spec,
                                               int num_primary, uint64_t limit,
                                               CountMethod method,
                                               Interrupter* interrupter);

// The same for rules stated as a circuit (a family whose formula needs gates
// over its variables, e.g. the binary encoding of queens): solutions are
// assignments of the circuit's primary variables; a count's encoding reports
// the gates (bdd_operations for a BDD, auxiliary variables for CNF, one per
// gate).
ExactSolveResult SolveCircuit(
    const BoolCircuit& circuit, int64_t max_solutions,
    const std::function<void(std::vector<uint8_t>)>& on_solution,
    Interrupter* interrupter = nullptr);
absl::StatusOr<CountResult> CountCircuitSolutions(const BoolCircuit& circuit,
                                                  uint64_t limit,
                                                  CountMethod method,
                                                  Interrupter* interrupter);

}  // namespace qs

#endif  // QS_CORE_EXACT_EXACT_SOLVER_H_
