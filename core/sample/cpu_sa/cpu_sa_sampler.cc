// CpuSaSampler: reads as pool tasks, deterministic per-read seeding, streaming
// of finished reads.
#include "core/sample/cpu_sa/cpu_sa_sampler.h"

#include <atomic>

#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "core/base/rng.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/schedule.h"

namespace qs {
namespace {

class CpuSaSampler final : public Sampler {
 public:
  explicit CpuSaSampler(WorkerPool* pool) : pool_(pool) {}

  absl::string_view name() const override { return "cpu-sa"; }
  absl::string_view description() const override {
    return "simulated annealing on the server's CPU cores (Metropolis, "
           "geometric or linear beta schedule)";
  }
  SamplerCapabilities capabilities() const override {
    return {.exact = false,
            .deterministic = true,
            .interruptible = true,
            .remote = false};
  }

  absl::StatusOr<SampleStats> Sample(const Qubo& model,
                                     const SampleParams& params,
                                     SampleSink& sink,
                                     Interrupter& interrupter) const override {
    const absl::Time start = absl::Now();
    const BetaRange range = ResolveBetaRange(model, params);
    const std::vector<double> betas =
        MakeBetaSchedule(params.schedule, range, params.num_sweeps);
    const int n = model.num_variables();

    std::atomic<int> reads_done{0};
    std::atomic<int64_t> sweeps{0}, attempts{0}, accepted{0};
    auto group = pool_->NewGroup();
    for (int r = 0; r < params.num_reads; ++r) {
      group->Submit([&, r] {
        if (interrupter.ShouldStop()) return;
        Xoshiro256 rng(DeriveSeed(params.seed, static_cast<uint64_t>(r)));
        std::vector<uint8_t> state(n);
        if (!params.initial_states.empty()) {
          state = params.initial_states[r % params.initial_states.size()];
        } else {
          for (int i = 0; i < n; ++i)
            state[i] = static_cast<uint8_t>(rng.Next() >> 63);
        }
        const SaReadResult read =
            AnnealRead(model, betas, rng, state, interrupter);
        sweeps.fetch_add(read.sweeps_done, std::memory_order_relaxed);
        attempts.fetch_add(read.attempts, std::memory_order_relaxed);
        accepted.fetch_add(read.accepted, std::memory_order_relaxed);
        // An unfinished read is kept only when the time limit cut it: its state
        // is the best the budget allowed. After a cancel, a deadline or a
        // reached target it is noise.
        if (read.interrupted && interrupter.reason() != StopReason::kTimeLimit)
          return;
        const double energy = model.Energy(state);
        reads_done.fetch_add(1, std::memory_order_relaxed);
        if (params.target_energy && energy <= *params.target_energy + 1e-9) {
          interrupter.Interrupt(StopReason::kTargetReached);
        }
        sink.OnSample({std::move(state), energy, static_cast<uint32_t>(r), 1});
      });
    }
    group->Wait();

    SampleStats stats;
    stats.stop_reason = interrupter.reason();
    stats.reads_done = reads_done.load();
    stats.sweeps_done = sweeps.load();
    stats.spin_update_attempts = attempts.load();
    stats.accepted_flips = accepted.load();
    stats.seed = params.seed;
    stats.beta_hot = range.hot;
    stats.beta_cold = range.cold;
    stats.schedule = params.schedule;
    stats.threads = pool_->num_threads();
    stats.elapsed = absl::Now() - start;
    return stats;
  }

 private:
  WorkerPool* const pool_;
};

}  // namespace

std::unique_ptr<Sampler> NewCpuSaSampler(WorkerPool* pool) {
  return std::make_unique<CpuSaSampler>(pool);
}

}  // namespace qs
