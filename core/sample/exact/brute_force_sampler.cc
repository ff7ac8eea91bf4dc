// Exact Gray-code enumeration of small QUBOs.
#include "core/sample/exact/brute_force_sampler.h"

#include <algorithm>
#include <cmath>
#include <functional>
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

  void Record(double energy, const std::vector<uint8_t>& x,
              int64_t max_states) {
    if (energy < best && !Near(energy, best)) {
      best = energy;
      states.clear();
      count = 0;
    }
    if (Near(energy, best)) {
      ++count;
      if (static_cast<int64_t>(states.size()) < max_states) states.push_back(x);
    }
  }
};

// Checked every 2^16 steps of a chunk.
bool Stopped(uint64_t step, Interrupter* interrupter) {
  return (step & 0xFFFF) == 0 && interrupter != nullptr &&
         interrupter->ShouldStop();
}

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
  result.Record(energy, x, max_states);
  const uint64_t steps = uint64_t{1} << low;
  for (uint64_t k = 1; k < steps; ++k) {
    const int i = __builtin_ctzll(k);  // Gray code: step k flips bit ctz(k)
    const double sign = x[i] ? -1.0 : 1.0;
    energy += sign * field[i];
    x[i] ^= 1;
    for (const Neighbor& nb : model.neighbors(i)) field[nb.j] += sign * nb.w;
    result.Record(energy, x, max_states);
    if (Stopped(k, interrupter)) {
      result.interrupted = true;
      break;
    }
  }
  return result;
}

// The terms of one variable as bit masks of their other variables (n <= 30
// fits a word): flipping the variable changes the energy by the weights of
// the terms whose other variables are all 1.
struct TermsOf {
  std::vector<uint32_t> rest;
  std::vector<double> w;
};

// The Hubo's energy in Gray-code order, one flip at a time.
ChunkResult EnumerateHuboChunk(const Hubo& hubo,
                               const std::vector<TermsOf>& terms_of, int low,
                               uint64_t prefix, int64_t max_states,
                               Interrupter* interrupter) {
  const int n = hubo.num_variables;
  std::vector<uint8_t> x(n, 0);
  uint32_t word = 0;
  for (int b = low; b < n; ++b) {
    x[b] = (prefix >> (b - low)) & 1;
    word |= static_cast<uint32_t>(x[b]) << b;
  }
  double energy = hubo.Energy(x);
  ChunkResult result;
  result.Record(energy, x, max_states);
  const uint64_t steps = uint64_t{1} << low;
  for (uint64_t k = 1; k < steps; ++k) {
    const int i = __builtin_ctzll(k);
    const TermsOf& terms = terms_of[i];
    double delta = 0;
    for (size_t t = 0; t < terms.rest.size(); ++t) {
      if ((word & terms.rest[t]) == terms.rest[t]) delta += terms.w[t];
    }
    x[i] ^= 1;
    word ^= uint32_t{1} << i;
    energy += x[i] ? delta : -delta;
    result.Record(energy, x, max_states);
    if (Stopped(k, interrupter)) {
      result.interrupted = true;
      break;
    }
  }
  return result;
}

// Enumerates 2^n assignments as chunks of their low bits (run_chunk(low,
// prefix)) on the pool, and merges the chunks' ground states.
absl::StatusOr<GroundStates> EnumerateChunks(
    int n, int64_t max_states, WorkerPool* pool, Interrupter* interrupter,
    const std::function<ChunkResult(int, uint64_t)>& run_chunk) {
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
    results[0] = run_chunk(low, 0);
  } else {
    auto group = pool->NewGroup();
    for (uint64_t c = 0; c < chunks; ++c) {
      group->Submit([&, c] { results[c] = run_chunk(low, c); });
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
  return ground;
}

}  // namespace

absl::StatusOr<GroundStates> FindGroundStates(const Qubo& model,
                                              int64_t max_states,
                                              WorkerPool* pool,
                                              Interrupter* interrupter) {
  ASSIGN_OR_RETURN(GroundStates ground,
                   EnumerateChunks(model.num_variables(), max_states, pool,
                                   interrupter, [&](int low, uint64_t prefix) {
                                     return EnumerateChunk(model, low, prefix,
                                                           max_states,
                                                           interrupter);
                                   }));
  // The running sum drifts over 2^n steps; report the exact energy of a ground
  // state.
  if (!ground.states.empty())
    ground.energy = model.Energy(ground.states.front());
  return ground;
}

absl::StatusOr<GroundStates> FindHuboGroundStates(const Hubo& hubo,
                                                  int64_t max_states,
                                                  WorkerPool* pool,
                                                  Interrupter* interrupter) {
  std::vector<TermsOf> terms_of(
      std::min(hubo.num_variables, kMaxExactVariables + 1));
  if (hubo.num_variables <= kMaxExactVariables) {
    for (const HuboTerm& term : hubo.terms) {
      uint32_t mask = 0;
      for (int32_t v : term.variables) mask |= uint32_t{1} << v;
      for (int32_t v : term.variables) {
        terms_of[v].rest.push_back(mask & ~(uint32_t{1} << v));
        terms_of[v].w.push_back(term.w);
      }
    }
  }
  ASSIGN_OR_RETURN(GroundStates ground,
                   EnumerateChunks(hubo.num_variables, max_states, pool,
                                   interrupter, [&](int low, uint64_t prefix) {
                                     return EnumerateHuboChunk(
                                         hubo, terms_of, low, prefix,
                                         max_states, interrupter);
                                   }));
  if (!ground.states.empty())
    ground.energy = hubo.Energy(ground.states.front());
  return ground;
}

namespace {

class BruteForceSampler final : public Sampler {
 public:
  explicit BruteForceSampler(WorkerPool* pool) : pool_(pool) {}
  absl::string_view name() const override { return "exact"; }
  absl::string_view description() const override {
    return "exact enumeration of all 2^n assignments (n <= 30) of a QUBO or a "
           "higher-order model; streams every ground state";
  }
  BackendCapabilities capabilities() const override {
    return {.exact = true,
            .deterministic = true,
            .interruptible = true,
            .remote = false,
            .higher_order = true,
            .max_variables = kMaxExactVariables};
  }

  absl::StatusOr<SampleStats> Sample(const Qubo& model,
                                     const SampleParams& params,
                                     SampleSink& sink,
                                     Interrupter& interrupter) const override {
    return SampleGround(
        model.num_variables(), params, sink, interrupter,
        [&](int64_t max) {
          return FindGroundStates(model, max, pool_, &interrupter);
        },
        [&](const std::vector<uint8_t>& x) { return model.Energy(x); });
  }

  absl::StatusOr<SampleStats> SampleHigherOrder(
      const Hubo& hubo, const SampleParams& params, SampleSink& sink,
      Interrupter& interrupter) const override {
    return SampleGround(
        hubo.num_variables, params, sink, interrupter,
        [&](int64_t max) {
          return FindHuboGroundStates(hubo, max, pool_, &interrupter);
        },
        [&](const std::vector<uint8_t>& x) { return hubo.Energy(x); });
  }

 private:
  // Streams the ground states `find` returns (num_reads caps how many).
  template <typename Find, typename Energy>
  absl::StatusOr<SampleStats> SampleGround(int n, const SampleParams& params,
                                           SampleSink& sink,
                                           Interrupter& interrupter,
                                           const Find& find,
                                           const Energy& energy_of) const {
    const absl::Time start = absl::Now();
    auto ground = find(std::max(1, params.num_reads));
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
      // stop_at_first_valid: the sink stopped the solve at a valid board.
      if (interrupter.reason() == StopReason::kTargetReached) break;
      const double energy = energy_of(state);
      sink.OnSample({std::move(state), energy, index++, 1});
    }
    stats.stop_reason = interrupter.reason();
    stats.reads_done = static_cast<int>(index);
    stats.spin_update_attempts = int64_t{1} << n;
    stats.seed = params.seed;
    stats.threads = pool_ != nullptr ? pool_->num_threads() : 1;
    stats.elapsed = absl::Now() - start;
    return stats;
  }

  WorkerPool* const pool_;
};

}  // namespace

std::unique_ptr<Sampler> NewBruteForceSampler(WorkerPool* pool) {
  return std::make_unique<BruteForceSampler>(pool);
}

}  // namespace qs
