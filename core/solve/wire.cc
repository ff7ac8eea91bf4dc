// Conversions between the engine's values and the wire.
#include "core/solve/wire.h"

#include <algorithm>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

namespace qs {

v1::Termination TerminationFor(StopReason reason) {
  switch (reason) {
    case StopReason::kNone:
      return v1::COMPLETED;
    case StopReason::kTargetReached:
      return v1::TARGET_REACHED;
    case StopReason::kTimeLimit:
      return v1::TIME_LIMIT;
    case StopReason::kCancelled:
      return v1::CANCELLED;
    case StopReason::kDeadline:
      return v1::DEADLINE;
    case StopReason::kShutdown:
      return v1::SHUTDOWN;
  }
  return v1::TERMINATION_UNSPECIFIED;
}

// One random_device read per thread (it
// opens the entropy source each time it is made), then a thread-local stream.
uint64_t DrawSeed() {
  thread_local std::mt19937_64 rng(
      (uint64_t{std::random_device{}()} << 32 | std::random_device{}()) ^
      static_cast<uint64_t>(absl::GetCurrentTimeNanos()));
  return rng();
}

namespace {

// The binary encoding's model: its size in fields 20-23, and its variables
// as the optimized ones (there is no QUBO).
void FillHigherOrderStats(const Hubo& hubo, v1::CompileStats& stats) {
  stats.set_encoding(v1::ENCODING_BINARY);
  stats.set_variables(hubo.num_variables);
  stats.set_offset(hubo.offset);
  stats.set_higher_order_variables(hubo.num_variables);
  stats.set_higher_order_terms(hubo.terms.size());
  stats.set_higher_order_max_order(hubo.max_order());
}

}  // namespace

void FillCompileStats(const CompiledProblem& problem,
                      absl::Duration compile_time, bool from_cache,
                      v1::CompileStats& stats) {
  const QuboStats model_stats = problem.model.Stats();
  stats.set_puzzle_kind(problem.kind);
  stats.set_variables_total(problem.full_model.num_variables());
  stats.set_variables(model_stats.num_variables);
  stats.set_couplers(model_stats.num_couplers);
  stats.set_linear_terms(model_stats.num_linear_terms);
  stats.set_density(model_stats.density);
  if (problem.ground_energy) stats.set_ground_energy(*problem.ground_energy);
  for (const ReductionStage& s : problem.stages) {
    v1::ReductionStage* stage = stats.add_stages();
    stage->set_name(s.name);
    stage->set_variables(s.variables);
    stage->set_fixed_zero(s.fixed_zero);
    stage->set_fixed_one(s.fixed_one);
  }
  stats.set_compile_seconds(Seconds(compile_time));
  stats.set_offset(problem.model.offset());
  stats.set_from_cache(from_cache);
  if (problem.higher_order) FillHigherOrderStats(*problem.higher_order, stats);
  stats.set_preprocess_seconds(problem.preprocess_seconds);
  stats.set_removed_by_preprocess(problem.removed_by_preprocess);
  if (problem.roof_lower_bound)
    stats.set_roof_lower_bound(*problem.roof_lower_bound);
  if (problem.model_report) *stats.mutable_model() = *problem.model_report;
}

v1::EncodingStats ToProto(const EncodingStats& stats) {
  v1::EncodingStats out;
  out.set_primary_variables(stats.primary_variables);
  out.set_auxiliary_variables(stats.auxiliary_variables);
  out.set_clauses(stats.clauses);
  out.set_literals(stats.literals);
  out.set_bdd_nodes(stats.bdd_nodes);
  out.set_bdd_peak_nodes(stats.bdd_peak_nodes);
  out.set_bdd_operations(stats.bdd_operations);
  return out;
}

std::string PackBits(std::span<const uint8_t> bits) {
  // Branch-free: it runs on every sample, whose bits follow no pattern.
  // A byte at a time, each written once.
  std::string packed((bits.size() + 7) / 8, '\0');
  for (size_t byte = 0; byte < packed.size(); ++byte) {
    const size_t first = 8 * byte, end = std::min(bits.size(), first + 8);
    unsigned value = 0;
    for (size_t v = first; v < end; ++v)
      value |= (bits[v] != 0u) << (v - first);
    packed[byte] = static_cast<char>(value);
  }
  return packed;
}

absl::StatusOr<std::vector<uint8_t>> UnpackBits(absl::string_view packed,
                                                int num_variables) {
  if (packed.size() * 8 < static_cast<size_t>(num_variables)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "packed state has ", packed.size(), " bytes, ", num_variables,
        " variables need ", (num_variables + 7) / 8));
  }
  std::vector<uint8_t> bits(num_variables);
  for (int v = 0; v < num_variables; ++v)
    bits[v] = (packed[v / 8] >> (v % 8)) & 1;
  return bits;
}

}  // namespace qs
