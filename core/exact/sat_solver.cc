// SatSolver: a thin owner of a CaDiCaL::Solver with an interrupter-driven
// terminator, solution blocking and enumeration.
#include "core/exact/sat_solver.h"

#include <cadical.hpp>

namespace qs {

// CaDiCaL polls its terminator during search; this one asks the interrupter.
class SatSolver::Terminator final : public CaDiCaL::Terminator {
 public:
  explicit Terminator(Interrupter* interrupter) : interrupter_(interrupter) {}
  bool terminate() override { return interrupter_->ShouldStop(); }

 private:
  Interrupter* interrupter_;
};

SatSolver::SatSolver(const Cnf& cnf)
    : solver_(std::make_unique<CaDiCaL::Solver>()),
      num_primary_(cnf.num_primary) {
  solver_->set("quiet", 1);
  if (cnf.num_variables > 0) solver_->reserve(cnf.num_variables);
  for (int lit : cnf.literals) solver_->add(lit);
}

SatSolver::~SatSolver() = default;

SatResult SatSolver::Solve(std::span<const int> assumptions,
                           Interrupter* interrupter) {
  ++solve_calls_;
  if (interrupter != nullptr && interrupter->ShouldStop())
    return SatResult::kUnknown;
  for (int lit : assumptions) solver_->assume(lit);
  std::unique_ptr<Terminator> terminator;
  if (interrupter != nullptr) {
    terminator = std::make_unique<Terminator>(interrupter);
    solver_->connect_terminator(terminator.get());
  }
  const int result = solver_->solve();
  if (terminator != nullptr) solver_->disconnect_terminator();
  switch (result) {
    case 10:
      return SatResult::kSatisfiable;
    case 20:
      return SatResult::kUnsatisfiable;
    default:
      return SatResult::kUnknown;
  }
}

std::vector<uint8_t> SatSolver::Model() const {
  std::vector<uint8_t> model(num_primary_);
  for (int v = 1; v <= num_primary_; ++v)
    model[v - 1] = solver_->val(v) > 0 ? 1 : 0;
  return model;
}

void SatSolver::AddClause(std::span<const int> literals) {
  for (int lit : literals) solver_->add(lit);
  solver_->add(0);
}

void SatSolver::Block(std::span<const uint8_t> primary) {
  for (size_t v = 0; v < primary.size(); ++v) {
    const int var = static_cast<int>(v) + 1;
    solver_->add(primary[v] ? -var : var);
  }
  solver_->add(0);
}

Enumeration EnumerateSolutions(
    const Cnf& cnf, int64_t limit,
    const std::function<void(std::vector<uint8_t>)>& on_solution,
    Interrupter* interrupter) {
  Enumeration result;
  SatSolver solver(cnf);
  while (result.found < limit) {
    const SatResult answer = solver.Solve({}, interrupter);
    if (answer == SatResult::kUnknown) return result;
    if (answer == SatResult::kUnsatisfiable) {
      result.complete = true;
      if (result.found == 0) result.status = SatResult::kUnsatisfiable;
      return result;
    }
    result.status = SatResult::kSatisfiable;
    ++result.found;
    std::vector<uint8_t> model = solver.Model();
    solver.Block(model);
    on_solution(std::move(model));
  }
  // The limit is reached (or is 0); one more solve says whether that was all.
  const SatResult more = solver.Solve({}, interrupter);
  if (more == SatResult::kUnsatisfiable) {
    result.complete = true;
    if (result.found == 0) result.status = SatResult::kUnsatisfiable;
  } else if (more == SatResult::kSatisfiable && result.found == 0) {
    result.status = SatResult::kSatisfiable;
  }
  return result;
}

}  // namespace qs
