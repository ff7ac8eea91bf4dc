// PuzzleGenerator: the extension point for making puzzles with proven-unique
// solutions, one per family, following the sketch of [Mücke 2024] §4:
// (1) sample a solved board with the annealer, from the unclamped or partly
// clamped QUBO (every valid board has the ground energy, so the annealer draws
// them alike); (2) state the board's clues (givens, signs, pre-placed queens)
// and remove them one by one in random order; (3) keep a removal only while the
// exact engine (CaDiCaL on the family's rules, core/exact) proves that the
// solution is still the only one, where the paper's own step (4), drawing K
// samples, could only make it likely. The difficulty knob limits the removals
// by how much of the board unit propagation of the rules still decides.
//
// GeneratorRegistry mirrors the other registries: filled once from the
// families (core/families/family.h; BuiltinGenerators in
// core/families/builtin.h), read-only afterwards. Generators are stateless and
// thread-safe.
#ifndef QS_CORE_GENERATE_GENERATOR_H_
#define QS_CORE_GENERATE_GENERATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/base/interrupter.h"
#include "core/base/registry.h"
#include "core/exact/cnf.h"
#include "qs/v1/puzzles.pb.h"
#include "qs/v1/solve.pb.h"

namespace qs {

// What a generator needs from its host: valid boards drawn by the annealer.
class SolutionSampler {
 public:
  virtual ~SolutionSampler() = default;
  // A valid board of `spec` as a full-model assignment of its compiler, drawn
  // with `seed`; adds the reads spent to *reads. NOT_FOUND when no read was
  // valid; the interrupter's statuses when stopped.
  virtual absl::StatusOr<std::vector<uint8_t>> SampleValidBoard(
      const v1::PuzzleSpec& spec, uint64_t seed, Interrupter& interrupter,
      int64_t* reads) = 0;
};

struct GenerateOptions {
  int rows = 0;
  int cols = 0;  // already defaulted to rows where the family needs it
  v1::Difficulty difficulty = v1::DIFFICULTY_HARD;
  int target_clues = 0;      // 0: as few as the difficulty allows
  v1::SudokuVariant sudoku;  // GenerateRequest.sudoku
};

struct GeneratedPuzzle {
  v1::PuzzleSpec puzzle;
  std::vector<uint8_t> solution;  // full-model assignment
  std::string puzzle_kind;        // the CLI kind of its text format
  int clues = 0;
  int clues_at_start = 0;
  double propagation_decided = 0;
  int64_t sample_reads = 0;
  int64_t sat_calls = 0;
};

class PuzzleGenerator {
 public:
  virtual ~PuzzleGenerator() = default;
  // "sudoku", "queens", "takuzu", "tango" ...
  virtual absl::string_view family() const = 0;
  // INVALID_ARGUMENT naming the GenerateRequest field when the size does not
  // suit the family.
  virtual absl::Status Check(const GenerateOptions& options) const = 0;
  // One puzzle, deterministic for `seed`. Options must have passed Check.
  virtual absl::StatusOr<GeneratedPuzzle> Generate(
      const GenerateOptions& options, uint64_t seed, SolutionSampler& sampler,
      Interrupter& interrupter) const = 0;
};

class GeneratorRegistry {
 public:
  // ALREADY_EXISTS when the family is taken.
  absl::Status Register(std::unique_ptr<PuzzleGenerator> generator);
  // INVALID_ARGUMENT naming the known families when unknown.
  absl::StatusOr<const PuzzleGenerator*> Get(absl::string_view family) const;
  std::vector<std::string> Families() const {
    return generators_.SortedNames();
  }

 private:
  Registry<PuzzleGenerator> generators_{"family"};
};

// The share of a puzzle's open cells that unit propagation of the rules must
// decide at this difficulty: all (easy), half (medium), none required (hard).
double RequiredPropagation(v1::Difficulty difficulty);

// Whether `cnf` has exactly one solution: CaDiCaL finds one and proves there
// is no second. Adds its solver calls to *sat_calls (one per solution found
// and one that finds no further one). ABORTED ("<family> generation
// stopped") when the interrupter cut the search short.
absl::StatusOr<bool> HasExactlyOneSolution(const Cnf& cnf,
                                           absl::string_view family,
                                           Interrupter& interrupter,
                                           int64_t* sat_calls);

// INVALID_ARGUMENT naming `rows` or `cols` when a side of a family's grid is
// outside min_side..max_side ("rows: zip sides are 3..10, got 12").
absl::Status CheckGridSides(const GenerateOptions& options,
                            absl::string_view family, int min_side,
                            int max_side);

}  // namespace qs

#endif  // QS_CORE_GENERATE_GENERATOR_H_
