// The `model` family: a constrained model (proto/qs/v1/model.proto) compiled
// to a QUBO through the constraint-to-penalty layer
// (core/compile/penalty_model.h), decoded back to the model's own variables,
// and scored in the model's own terms: the objective as written (sense and
// constant), feasibility, and each broken constraint by name with the amount
// (docs/model.md).
//
// Variables become bits: a binary is one bit, a spin s one bit b with
// s = 2b - 1, a bounded integer lower + sum_k w_k b_k in the chosen encoding
// (one-hot: one bit per value, w_k the value, an exactly-one group; binary:
// w = 1, 2, 4, ... with the top weight capped at the range; unary / domain
// wall: w = 1 each, ordered b_1 >= b_2 >= ... by a penalty). Every term of the
// objective and of each constraint is expanded over those bits.
#ifndef QS_CORE_FAMILIES_MODEL_MODEL_H_
#define QS_CORE_FAMILIES_MODEL_MODEL_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compile/binary_polynomial.h"
#include "core/compile/compiler.h"
#include "core/compile/penalty_model.h"
#include "core/exact/encoder.h"
#include "qs/v1/model.pb.h"

namespace qs {

// Integers with more values than this are refused (one-hot would need one bit
// per value, and a domain wall one per value too).
inline constexpr int64_t kMaxIntegerRange = int64_t{1} << 20;
// A term whose expansion over its factors' bits could pass this many terms
// is refused (model.h CheckModel).
inline constexpr double kMaxTermExpansion = 1 << 20;
// INTEGER_ENCODING_DEFAULT: one-hot up to this many values, binary above.
inline constexpr int64_t kDefaultOneHotValues = 16;

// The model of a spec: the structured form, read from `text` when it has one
// (INVALID_ARGUMENT naming the line of a malformed text), with the compile
// choices of `spec` kept; then checked (INVALID_ARGUMENT naming the field:
// "model.constraints[2].lhs.terms[0].variables[1]: 9 is not below 8
// variables").
absl::StatusOr<v1::ConstrainedModel> ResolveModel(
    const v1::ConstrainedModel& spec);
absl::Status CheckModel(const v1::ConstrainedModel& model);

// How a model variable sits on bits: value = offset + sum weights[k] * bit
// (first + k).
struct VariableBits {
  int32_t first = 0;
  std::vector<int64_t> weights;
  int64_t offset = 0;
};

struct ModelLayout {
  std::vector<VariableBits> variables;
  int num_bits = 0;
  v1::IntegerEncoding integer_encoding = v1::INTEGER_ENCODING_DEFAULT;
  int integer_bits = 0;
  std::vector<std::string> labels;  // one per bit
};

ModelLayout LayOut(const v1::ConstrainedModel& model);
// The encoding an integer variable of the model gets.
v1::IntegerEncoding IntegerEncodingOf(const v1::ConstrainedModel& model,
                                      const v1::ModelVariable& var);
// LayOut(model).num_bits, without laying anything out; BitsOf for one
// variable.
int64_t CountBits(const v1::ConstrainedModel& model);
int64_t BitsOf(const v1::ConstrainedModel& model, const v1::ModelVariable& var);

// A polynomial of the model's variables expanded over their bits.
BinaryPolynomial ExpandOverBits(const v1::ModelPolynomial& polynomial,
                                const ModelLayout& layout);

// The model's variable values read off its bits (the layout's first
// num_bits bits), and the variables whose encoding the bits break (a one-hot
// integer with no value or several, a domain wall out of order).
struct DecodedValues {
  std::vector<int64_t> values;
  std::vector<int> broken_encodings;
};
DecodedValues DecodeValues(const v1::ConstrainedModel& model,
                           const ModelLayout& layout,
                           std::span<const uint8_t> bits);
// The bits of the values (each within its variable's domain).
std::vector<uint8_t> EncodeValues(const v1::ConstrainedModel& model,
                                  const ModelLayout& layout,
                                  std::span<const int64_t> values);

// The objective as written (sense and constant included) and the broken
// constraints (rule "constraint", location its name, amount how far it is
// missed) at a full assignment of the model's variables.
struct ModelScore {
  double objective = 0;
  std::vector<v1::Violation> violations;
};
ModelScore ScoreModel(const v1::ConstrainedModel& model,
                      std::span<const int64_t> values);

// The everything the compiler derives from a model before building the QUBO:
// the layout and the penalty layer's input (objective in the minimised sense).
struct ModelPenalties {
  ModelLayout layout;
  PenaltyInput input;
  PenaltyOptions options;
};
ModelPenalties PenaltiesOf(const v1::ConstrainedModel& model);

std::unique_ptr<PuzzleCompiler> NewModelCompiler();
std::unique_ptr<RulesEncoder> NewModelRulesEncoder();

}  // namespace qs

#endif  // QS_CORE_FAMILIES_MODEL_MODEL_H_
