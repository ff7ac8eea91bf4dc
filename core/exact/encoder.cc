// EncoderRegistry.
#include "core/exact/encoder.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace qs {

absl::Status EncoderRegistry::Register(std::unique_ptr<RulesEncoder> encoder) {
  std::string kind(encoder->kind());
  const int puzzle_case = static_cast<int>(encoder->puzzle_case());
  return encoders_.Register(std::move(encoder), std::move(kind), puzzle_case);
}

absl::StatusOr<const RulesEncoder*> EncoderRegistry::ForSpec(
    const v1::PuzzleSpec& spec) const {
  if (spec.puzzle_case() == v1::PuzzleSpec::PUZZLE_NOT_SET)
    return absl::InvalidArgumentError("puzzle: not set");
  const RulesEncoder* encoder =
      encoders_.FindCase(static_cast<int>(spec.puzzle_case()));
  if (encoder == nullptr) {
    return absl::UnimplementedError(absl::StrCat(
        "puzzle: the exact engines have no rules for this family (families "
        "with rules: ",
        absl::StrJoin(Kinds(), ", "), ")"));
  }
  return encoder;
}

}  // namespace qs
