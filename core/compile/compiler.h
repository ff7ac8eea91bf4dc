// PuzzleCompiler: the extension point for puzzle families (docs/architecture.md
// §4). A compiler turns a qs.v1.PuzzleSpec into a CompiledProblem (full model,
// reduced model, variable map, expected ground energy, reduction statistics),
// decodes sampled bits into a board, and checks a board against the game's real
// rules, including rules the QUBO cannot express. Compilers are stateless and
// thread-safe.
#ifndef QS_CORE_COMPILE_COMPILER_H_
#define QS_CORE_COMPILE_COMPILER_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/compile/derived_cache.h"
#include "core/qubo/hubo.h"
#include "core/qubo/qubo.h"
#include "core/qubo/variable_map.h"
#include "qs/v1/puzzles.pb.h"
#include "qs/v1/solve.pb.h"

namespace qs {

// One step of the reduction, in the order it was applied.
struct ReductionStage {
  std::string name;    // "model", "clues", "implied" ...
  int variables = 0;   // free variables after this stage
  int fixed_zero = 0;  // fixed to 0 by this stage
  int fixed_one = 0;   // fixed to 1 by this stage
};

struct CompiledProblem {
  std::string kind;  // the compiler's kind()
  // The formulation over every puzzle variable, before any reduction.
  Qubo full_model;
  // What the samplers optimize. Its energies equal full_model's on Expand()ed
  // assignments.
  Qubo model;
  VariableMap variables;
  // Energy of every valid solution (offset included) where the formulation
  // fixes one.
  std::optional<double> ground_energy;
  std::vector<ReductionStage> stages;
  // Exactly-one groups over the reduced model's variables (Sudoku cells, queens
  // rows ...): in every valid solution exactly one variable of each group is 1.
  // Samplers may use them for moves that keep a group one-hot (a swap of its
  // 1 to another variable) and QAOA for a mixer that keeps them; empty when
  // the family gives none.
  std::vector<std::vector<int32_t>> one_hot_groups;
  // The model in higher-order form for encodings a QUBO cannot express
  // directly (hubo.h); `model` is then empty and only backends that take a
  // Hubo can sample it.
  std::optional<Hubo> higher_order;
  // A constrained model's compilation (the model family): encodings, slack
  // and reduction variables, penalty weights; reported in CompileStats.model.
  std::optional<v1::ModelReport> model_report;
  // What CompileOptions.preprocess did to `model` (preprocess_stage.h).
  double preprocess_seconds = 0;
  int removed_by_preprocess = 0;  // variables fixed or merged into another
  std::optional<double> roof_lower_bound;
  // Board size for decoding and display.
  int height = 0;
  int width = 0;
  // What solves of this problem derive from it once (derived_cache.h).
  mutable DerivedCache derived;
};

// What the "auto" backend needs to know of a kind (docs/auto.md), declared by
// its compiler so that no engine branches on a family's name.
struct KindPolicy {
  // A raw model: every assignment is an answer and there are no rules for
  // the exact engines (raw QUBO, Max-Cut).
  bool raw_model = false;
  // sat answered before the samplers on the kind's measured puzzles; when
  // false the samplers lead and sat follows.
  bool sat_leads = true;
  // A valid answer is a ground state (the puzzles). False for models with an
  // objective, where valid means feasible: the search goes on past the first
  // valid answer for a better one, and the exact engines' boards are feasible
  // answers, not proofs of optimality.
  bool valid_is_optimal = true;
};

class PuzzleCompiler {
 public:
  virtual ~PuzzleCompiler() = default;

  // Stable name used by the CLI and in metrics: "sudoku", "queens", "takuzu",
  // "qubo" ...
  virtual absl::string_view kind() const = 0;
  // The PuzzleSpec oneof case this compiler handles.
  virtual v1::PuzzleSpec::PuzzleCase puzzle_case() const = 0;

  // Number of variables of the full model, from the spec's dimensions alone
  // (the spec is not checked), so that size limits apply before anything is
  // built.
  virtual int64_t ModelVariables(const v1::PuzzleSpec& spec) const = 0;
  // A lower bound of the full model's couplers from the spec's dimensions
  // alone (0 when the family gives none), so that a model over the limits is
  // refused before its terms are allocated.
  virtual int64_t ModelCouplersAtLeast(const v1::PuzzleSpec& spec) const {
    return 0;
  }

  // Checks the spec (INVALID_ARGUMENT naming the field, e.g. "sudoku.cells[17]:
  // digit 12 > 9") and builds the problem. Sizes are not limited here; the
  // caller applies its limits to the result.
  virtual absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec, const v1::CompileOptions& options) const = 0;

  // Board of a full assignment (problem.variables.num_full() bits). Never
  // fails: a malformed assignment (empty or multi-valued cells) shows as such
  // on the board and is reported by Validate.
  virtual v1::PuzzleSolution Decode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      std::span<const uint8_t> full_bits) const = 0;

  // Checks a board against the puzzle's rules. Errors only for a malformed spec
  // or a board of the wrong shape; a wrong board gives a report with valid =
  // false and one violation per broken rule instance.
  virtual absl::StatusOr<v1::ValidationReport> Validate(
      const v1::PuzzleSpec& spec, const v1::PuzzleSolution& solution) const = 0;

  // Whether every assignment decodes to a valid board (raw models: Max-Cut,
  // QUBO). The sampling path then marks each read valid without validating
  // it: a read of a 1000-node graph cost more to validate (the cut over every
  // edge, which the energy already gives) than to decode.
  virtual bool EveryBoardValid() const { return false; }

  // The kind's policy for "auto".
  virtual KindPolicy Policy() const { return {}; }

  // Where a board carries an objective that a sample's energy need not equal
  // (a penalty model's feasible sample with slack left over, or with an
  // unbalanced penalty), the energy that stands for the board's objective
  // when a solve compares it with SolveParams.target_energy: the objective
  // in the minimised sense. None: the sample's energy is compared.
  virtual std::optional<double> TargetMeasure(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& board) const {
    return std::nullopt;
  }

  // Validate for a board decoded from `problem` on the sampling path, where
  // the same spec is validated once per distinct read: a family may keep what
  // it parses from the spec with the problem (problem.derived) instead of
  // parsing it per board. The same report as Validate.
  virtual absl::StatusOr<v1::ValidationReport> ValidateDecoded(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const {
    return Validate(spec, solution);
  }

  // Full-model assignment of a board, the inverse of Decode where the board
  // fits the model.
  virtual absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const = 0;

  // The model's own objective, in its own sense, at a sample of this energy
  // (offset included): the cut weight for Max-Cut, the maximised value of a
  // raw model read as a maximisation. None for families whose answer is a
  // board rather than a value.
  virtual std::optional<double> Objective(const v1::PuzzleSpec& spec,
                                          double energy) const {
    return std::nullopt;
  }
};

// Helpers shared by compilers.

// Builds `problem.model` and `problem.variables` from a full model and a
// per-variable assignment
// (-1 free, 0, 1), appending a reduction stage named `stage` that counts what
// this assignment fixes beyond the stages already recorded.
absl::Status ReduceByAssignment(std::span<const int8_t> assignment,
                                absl::string_view stage,
                                CompiledProblem& problem);

// Energy of a full assignment (offset included): the higher-order model's
// when the problem has one (its variables are the full ones, unreduced), else
// the full QUBO's.
double FullEnergy(const CompiledProblem& problem,
                  std::span<const uint8_t> full_bits);
// Variables the backends optimize: the higher-order model's or the reduced
// QUBO's.
int SampledVariables(const CompiledProblem& problem);

// Exactly-one groups over the reduced variables (CompiledProblem::
// one_hot_groups) from groups over the full ones: members fixed to 0 drop out;
// a group with a member fixed to 1 is settled and left out, as is one whose
// members are not distinct plain reduced variables (a negated or shared
// literal), which a swap could not move; so are groups of fewer than two
// members.
std::vector<std::vector<int32_t>> ReducedOneHotGroups(
    const VariableMap& map, std::span<const std::vector<int32_t>> full_groups);

// The shape of PuzzleSolution.rows for a rows x cols board: INVALID_ARGUMENT
// naming the field when the row count or a row's length is wrong, or when the
// solution has neither cells nor rows. OK without rows when cells are given
// (the caller reads those).
absl::Status CheckSolutionRows(const v1::PuzzleSolution& solution, int rows,
                               int cols);

// Models without a grid (raw QUBO, Max-Cut): the problem of `model` sampled as
// it is (no reduction, identity variable map, a 1 x n board), and the board of
// an assignment: one row of '0'/'1' per variable, the same values in cells.
CompiledProblem UnreducedProblem(absl::string_view kind, Qubo model);
v1::PuzzleSolution BinaryRowBoard(std::span<const uint8_t> bits);

// A violation in one line.
v1::Violation MakeViolation(absl::string_view rule, absl::string_view location,
                            absl::string_view message);

}  // namespace qs

#endif  // QS_CORE_COMPILE_COMPILER_H_
