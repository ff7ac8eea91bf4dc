// The family-independent half of puzzle generation ([Mücke 2024] §4 steps 2-4,
// with a proof where the paper samples): given the rules of the empty board as
// CNF, a solution and the clues of that solution, remove clues in random order
// while the solution stays the only one. Uniqueness is an UNSAT proof: the
// solution is blocked once in a CaDiCaL instance, and the clues still kept are
// assumptions, so each check is one incremental solve. The difficulty knob asks
// in addition that unit propagation of the rules (the solver's singles: each
// encoding of core/exact/cnf.h propagates to arc consistency) decides all
// (DIFFICULTY_EASY) or at least half (DIFFICULTY_MEDIUM) of the cells that
// hold no given.
#ifndef QS_CORE_GENERATE_CLUE_REMOVAL_H_
#define QS_CORE_GENERATE_CLUE_REMOVAL_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "core/base/interrupter.h"
#include "core/base/rng.h"
#include "core/exact/cnf.h"
#include "core/generate/generator.h"

namespace qs {

// One clue: the literals that, assumed true, state it. A given is one primary
// literal; a clue that is not a value of a variable (a Tango sign) is a
// selector variable whose guarded clauses are in the CNF.
struct Clue {
  std::vector<int> literals;
  int cell = -1;  // the cell it gives a value, or -1
};

struct CluePuzzle {
  Cnf cnf;                        // the empty board's rules (+ guarded clues)
  std::vector<uint8_t> solution;  // its primary variables
  std::vector<Clue> clues;        // every clue of the solution
  // The primary variables (1-based) of each cell, so that propagation can be
  // measured in cells (a Sudoku cell is its digits' variables).
  std::vector<std::vector<int>> cells;
};

struct ClueRemoval {
  std::vector<bool> kept;  // per clue
  int clues = 0;           // kept
  // Fraction of the cells without a given that propagation decides.
  double propagation_decided = 0;
  int64_t sat_calls = 0;
};

// Removes clues as described above. FAILED_PRECONDITION when all the clues
// together do not make the solution unique; an error when the interrupter
// fires (the caller reports the interrupter's reason).
absl::StatusOr<ClueRemoval> RemoveClues(const CluePuzzle& puzzle,
                                        const GenerateOptions& options,
                                        Xoshiro256& rng,
                                        Interrupter& interrupter);

}  // namespace qs

#endif  // QS_CORE_GENERATE_CLUE_REMOVAL_H_
