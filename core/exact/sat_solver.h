// SatSolver: CaDiCaL (Debian libcadical-dev) on a Cnf, for what needs one
// solution or a proof that there is none: solving a puzzle, proving that its
// solution is unique (solve, block that solution, solve again), enumerating
// solutions with blocking clauses up to a limit, and the generators' removal of
// clues under assumptions. Counting every solution of a large set is
// BddBuilder's job (core/exact/bdd_counter.h). CaDiCaL is deterministic: the
// same formula and calls give the same solutions. One SatSolver per thread;
// instances are independent.
#ifndef QS_CORE_EXACT_SAT_SOLVER_H_
#define QS_CORE_EXACT_SAT_SOLVER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "core/base/interrupter.h"
#include "core/exact/cnf.h"

namespace CaDiCaL {
class Solver;
}  // namespace CaDiCaL

namespace qs {

enum class SatResult { kSatisfiable, kUnsatisfiable, kUnknown };

class SatSolver {
 public:
  explicit SatSolver(const Cnf& cnf);
  ~SatSolver();
  SatSolver(const SatSolver&) = delete;
  SatSolver& operator=(const SatSolver&) = delete;

  int num_primary() const { return num_primary_; }

  // Solves under `assumptions` (literals that hold for this call only).
  // kUnknown when the interrupter fired first.
  SatResult Solve(std::span<const int> assumptions = {},
                  Interrupter* interrupter = nullptr);
  // After kSatisfiable: the primary variables, 0/1 each (index v - 1).
  std::vector<uint8_t> Model() const;

  void AddClause(std::span<const int> literals);
  // Excludes one assignment of the primary variables from every later solve.
  void Block(std::span<const uint8_t> primary);

  int64_t solve_calls() const { return solve_calls_; }

 private:
  class Terminator;
  std::unique_ptr<CaDiCaL::Solver> solver_;
  int num_primary_;
  int64_t solve_calls_ = 0;
};

struct Enumeration {
  // kUnsatisfiable: no solution; kSatisfiable: at least one; kUnknown: stopped
  // before the first answer.
  SatResult status = SatResult::kUnknown;
  int64_t found = 0;
  // Every solution was found (found is the number of solutions).
  bool complete = false;
};

// Finds up to `limit` distinct solutions (assignments of the primary
// variables), calling `on_solution` for each as it is found, by solving and
// blocking each solution in turn. complete is set when the last solve proves
// there is no further one.
Enumeration EnumerateSolutions(
    const Cnf& cnf, int64_t limit,
    const std::function<void(std::vector<uint8_t>)>& on_solution,
    Interrupter* interrupter = nullptr);

}  // namespace qs

#endif  // QS_CORE_EXACT_SAT_SOLVER_H_
