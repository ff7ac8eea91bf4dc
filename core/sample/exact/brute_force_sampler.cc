// Exact Gray-code enumeration of small QUBOs.
#include "core/sample/exact/brute_force_sampler.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "core/base/status_macros.h"

namespace qs {
namespace {

bool Near(double a, double b) {
  return std::isfinite(b) &&
         std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

struct ChunkResult {
  double best = std::numeric_limits<double>::infinity();
  std::vector<std::vector<uint8_t>> states;
  int64_t count = 0;
  bool interrupted = false;
};

// Enumerates the 2^low assignments of the low variables with the high ones
// fixed to `prefix`.
ChunkResult EnumerateChunk(const Qubo& model, int low, uint64_t prefix,
                           int64_t max_states, Interrupter* interrupter) {
  const int n = model.num_variables();
  std::vector<uint8_t> x(n, 0);
  for (int b = low; b < n; ++b) x[b] = (prefix >> (b - low)) & 1;
  std::vector<double> field(model.linear_terms());
  for (int i = 0; i < n; ++i) {
    if (!x[i]) continue;
    for (const Neighbor& nb : model.neighbors(i)) field[nb.j] += nb.w;
  }
  double energy = model.Energy(x);
  ChunkResult result;
  auto record = [&] {
    if (energy < result.best && !Near(energy, result.best)) {
      result.best = energy;
      result.states.clear();
      result.count = 0;
    }
    if (Near(energy, result.best)) {
      ++result.count;
      if (static_cast<int64_t>(result.states.size()) < max_states)
        result.states.push_back(x);
    }
  };
  record();
  const uint64_t steps = uint64_t{1} << low;
  for (uint64_t k = 1; k < steps; ++k) {
    const int i = __builtin_ctzll(k);  // Gray code: step k flips bit ctz(k)
    const double sign = x[i] ? -1.0 : 1.0;
    energy += sign * field[i];
    x[i] ^= 1;
    for (const Neighbor& nb : model.neighbors(i)) field[nb.j] += sign * nb.w;
    record();
    if ((k & 0xFFFF) == 0 && interrupter != nullptr &&
        interrupter->ShouldStop()) {
      result.interrupted = true;
      break;
    }
  }
  return result;
}

}  // namespace

absl::StatusOr<GroundStates> FindGroundStates(const Qubo& model,
                                              int64_t max_states,
                                              WorkerPool* pool,
                                              Interrupter* interrupter) {
  const int n = model.num_variables();
  if (n > kMaxExactVariables) {
    return absl::ResourceExhaustedError(
        absl::StrCat("exact enumeration takes at most ", kMaxExactVariables,
                     " variables, the model has ", n));
  }
  const int high = pool == nullptr || n < 16 ? 0 : std::min(n - 12, 6);
  const int low = n - high;
  const uint64_t chunks = uint64_t{1} << high;
  std::vector<ChunkResult> results(chunks);
  if (pool == nullptr || chunks == 1) {
    results[0] = EnumerateChunk(model, low, 0, max_states, interrupter);
  } else {
    auto group = pool->NewGroup();
    for (uint64_t c = 0; c < chunks; ++c) {
      group->Submit([&, c] {
        results[c] = EnumerateChunk(model, low, c, max_states, interrupter);
      });
    }
    RETURN_IF_ERROR(group->Wait());
  }
  GroundStates ground;
  ground.energy = std::numeric_limits<double>::infinity();
  for (const ChunkResult& r : results) {
    if (r.interrupted) {
      const StopReason reason = interrupter->reason();
      if (reason == StopReason::kCancelled)
        return absl::CancelledError("exact enumeration cancelled");
      return absl::DeadlineExceededError(
          absl::StrCat("exact enumeration stopped: ", StopReasonName(reason)));
    }
    if (r.count == 0) continue;
    if (r.best < ground.energy && !Near(r.best, ground.energy)) {
      ground.energy = r.best;
      ground.states.clear();
      ground.count = 0;
    }
    if (Near(r.best, ground.energy)) {
      ground.count += r.count;
      for (const auto& s : r.states) {
        if (static_cast<int64_t>(ground.states.size()) < max_states)
          ground.states.push_back(s);
      }
    }
  }
  std::sort(ground.states.begin(), ground.states.end());
  // The running sum drifts over 2^n steps; report the exact energy of a ground
  // state.
  if (!ground.states.empty())
    ground.energy = model.Energy(ground.states.front());
  return ground;
}

namespace {

class BruteForceSampler final : public Sampler {
 public:
  explicit BruteForceSampler(WorkerPool* pool) : pool_(pool) {}
  absl::string_view name() const override { return "exact"; }
  absl::string_view description() const override {
    return "exact enumeration of all 2^n assignments (n <= 30); streams every "
           "ground state";
  }
  BackendCapabilities capabilities() const override {
    return {.exact = true,
            .deterministic = true,
            .interruptible = true,
            .remote = false,
            .max_variables = kMaxExactVariables};
  }

  absl::StatusOr<SampleStats> Sample(const Qubo& model,
                                     const SampleParams& params,
                                     SampleSink& sink,
                                     Interrupter& interrupter) const override {
    const absl::Time start = absl::Now();
    // num_reads caps how many distinct ground states are streamed.
    auto ground = FindGroundStates(model, std::max(1, params.num_reads), pool_,
                                   &interrupter);
    if (!ground.ok()) {
      if (interrupter.reason() == StopReason::kNone) return ground.status();
      SampleStats stats;
      stats.stop_reason = interrupter.reason();
      stats.elapsed = absl::Now() - start;
      return stats;
    }
    SampleStats stats;
    uint32_t index = 0;
    for (auto& state : ground->states) {
      const double energy = model.Energy(state);
      sink.OnSample({std::move(state), energy, index++, 1});
    }
    stats.reads_done = static_cast<int>(index);
    stats.spin_update_attempts = int64_t{1} << model.num_variables();
    stats.seed = params.seed;
    stats.threads = pool_ != nullptr ? pool_->num_threads() : 1;
    stats.elapsed = absl::Now() - start;
    return stats;
  }

 private:
  WorkerPool* const pool_;
};

}  // namespace

std::unique_ptr<Sampler> NewBruteForceSampler(WorkerPool* pool) {
  return std::make_unique<BruteForceSampler>(pool);
}

}  // namespace qs
