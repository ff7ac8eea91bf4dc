// RemoveClues: random-order clue removal under uniqueness proofs and the
// propagation-based difficulty knob.
#include "core/generate/clue_removal.h"

#include <numeric>
#include <utility>

#include "core/exact/sat_solver.h"

namespace qs {
namespace {

std::vector<int> Assumptions(const CluePuzzle& puzzle,
                             const std::vector<bool>& kept) {
  std::vector<int> literals;
  for (size_t k = 0; k < puzzle.clues.size(); ++k) {
    if (!kept[k]) continue;
    literals.insert(literals.end(), puzzle.clues[k].literals.begin(),
                    puzzle.clues[k].literals.end());
  }
  return literals;
}

// Fraction of the cells with no given that unit propagation decides (every
// variable of the cell assigned); 1 when every cell has a given.
double PropagationDecided(const CluePuzzle& puzzle,
                          const std::vector<bool>& kept) {
  const std::vector<int8_t> values =
      Propagate(puzzle.cnf, Assumptions(puzzle, kept));
  if (values.empty())
    return 0;  // a conflict: cannot happen for a solution's
               // clues, and would decide nothing useful
  std::vector<bool> given(puzzle.cells.size(), false);
  for (size_t k = 0; k < puzzle.clues.size(); ++k) {
    if (kept[k] && puzzle.clues[k].cell >= 0)
      given[puzzle.clues[k].cell] = true;
  }
  int open = 0, decided = 0;
  for (size_t c = 0; c < puzzle.cells.size(); ++c) {
    if (given[c]) continue;
    ++open;
    bool all = true;
    for (int v : puzzle.cells[c]) all = all && values[v - 1] >= 0;
    decided += all ? 1 : 0;
  }
  return open == 0 ? 1.0 : static_cast<double>(decided) / open;
}

}  // namespace

absl::StatusOr<ClueRemoval> RemoveClues(const CluePuzzle& puzzle,
                                        const GenerateOptions& options,
                                        Xoshiro256& rng,
                                        Interrupter& interrupter) {
  const int n = static_cast<int>(puzzle.clues.size());
  ClueRemoval result;
  result.kept.assign(n, true);
  SatSolver solver(puzzle.cnf);
  // Any other solution must differ from this one somewhere.
  solver.Block(puzzle.solution);
  auto unique = [&](const std::vector<bool>& kept) -> absl::StatusOr<bool> {
    ++result.sat_calls;
    switch (solver.Solve(Assumptions(puzzle, kept), &interrupter)) {
      case SatResult::kUnsatisfiable:
        return true;
      case SatResult::kSatisfiable:
        return false;
      case SatResult::kUnknown:
        break;
    }
    return absl::AbortedError("clue removal stopped");
  };
  absl::StatusOr<bool> start = unique(result.kept);
  if (!start.ok()) return start.status();
  if (!*start) {
    return absl::FailedPreconditionError(
        "the clues of the sampled solution do not make it unique");
  }
  const double required = RequiredPropagation(options.difficulty);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  for (int i = n - 1; i > 0; --i)
    std::swap(order[i], order[rng.NextBelow(static_cast<uint64_t>(i) + 1)]);
  int kept_count = n;
  for (int k : order) {
    if (kept_count <= options.target_clues) break;
    result.kept[k] = false;
    bool keep_removed;
    if (required > 0 && PropagationDecided(puzzle, result.kept) < required) {
      keep_removed = false;
    } else if (required >= 1.0) {
      // Propagation decides every cell, so the solution is forced: that is
      // the uniqueness proof.
      keep_removed = true;
    } else {
      absl::StatusOr<bool> still_unique = unique(result.kept);
      if (!still_unique.ok()) return still_unique.status();
      keep_removed = *still_unique;
    }
    if (keep_removed) {
      --kept_count;
    } else {
      result.kept[k] = true;
    }
  }
  result.clues = kept_count;
  result.propagation_decided = PropagationDecided(puzzle, result.kept);
  return result;
}

}  // namespace qs
