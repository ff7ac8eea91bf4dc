// RulesEncoder: the extension point of the exact engines, one per puzzle family
// next to its PuzzleCompiler. An encoder states the game's real rules (not
// the QUBO) as Boolean constraints on a ConstraintSink, over the variables of
// the family's full QUBO model, so that every satisfying assignment is a
// full-model assignment of a valid board. That makes the encodings a ground
// truth independent of the QUBOs: the tests check that the QUBO's ground
// states and the encoding's solutions are the same set.
//
// EncoderRegistry mirrors CompilerRegistry (core/compile/registry.h): filled
// once from the families (core/families/family.h; BuiltinEncoders in
// core/families/builtin.h), read-only afterwards. Encoders are stateless and
// thread-safe.
#ifndef QS_CORE_EXACT_ENCODER_H_
#define QS_CORE_EXACT_ENCODER_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/base/registry.h"
#include "core/exact/constraint_sink.h"
#include "qs/v1/puzzles.pb.h"

namespace qs {

struct EncodeOptions {
  // The puzzle's clues (Sudoku digits, pre-placed queens, Takuzu givens and
  // signs) as constraints. Off, the encoding is the empty board of the same
  // shape, to which a generator adds clues as assumptions.
  bool clues = true;
  // Rules that no QUBO term expresses (Takuzu's unique rows and columns). Off,
  // the encoding's solutions are exactly the QUBO's ground states.
  bool rules_beyond_qubo = true;
  // For a kind whose boards have an objective (constrained models): the rules
  // plus "the objective, in the minimised sense, is strictly below this", so
  // that repeated solves bound the objective until none is better (the `sat`
  // backend's search for the optimum). Only kinds whose boards are not
  // optimal for being valid (KindPolicy::valid_is_optimal false) are asked;
  // UNIMPLEMENTED where the kind cannot state the bound.
  std::optional<double> objective_below;
};

class RulesEncoder {
 public:
  virtual ~RulesEncoder() = default;

  // The kind of the compiler whose full model this encoder's variables are
  // ("sudoku", "queens", "takuzu" ...).
  virtual absl::string_view kind() const = 0;
  virtual v1::PuzzleSpec::PuzzleCase puzzle_case() const = 0;
  // The rules need auxiliary variables (ConstraintSink::NewAuxiliary), so a
  // BDD cannot count them and counting enumerates with CaDiCaL, blocking each
  // solution over the primary variables only.
  virtual bool needs_auxiliary() const { return false; }

  // Emits the rules of `spec` over primary variables 1..num_primary, where
  // num_primary is the family's full-model variable count. The spec must be
  // one the family's compiler accepts (the exact engine compiles it first);
  // errors are for specs that are not.
  virtual absl::Status Encode(const v1::PuzzleSpec& spec,
                              const EncodeOptions& options,
                              ConstraintSink& sink) const = 0;
};

class EncoderRegistry {
 public:
  // ALREADY_EXISTS when the kind or the oneof case is taken.
  absl::Status Register(std::unique_ptr<RulesEncoder> encoder);
  // UNIMPLEMENTED when no encoder handles the spec's family (raw QUBO input).
  absl::StatusOr<const RulesEncoder*> ForSpec(const v1::PuzzleSpec& spec) const;
  std::vector<std::string> Kinds() const { return encoders_.SortedNames(); }

 private:
  Registry<RulesEncoder> encoders_{"encoder kind"};
};

}  // namespace qs

#endif  // QS_CORE_EXACT_ENCODER_H_
