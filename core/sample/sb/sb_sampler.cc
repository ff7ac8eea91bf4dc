// SbSampler: the parameter schema, the defaults of Goto et al. 2021, lane
// batches as pool tasks, target checks between chunks of time steps.
#include "core/sample/sb/sb_sampler.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/sample_util.h"

namespace qs {
namespace {

// The derived time step (SbParams.time_step's rule): at most this, else
// this share of the stability limit 2 / sqrt(a0 k).
constexpr double kLargestDerivedTimeStep = 1.25;
constexpr double kStabilityShare = 0.6;
constexpr int kMaxCheckInterval = 16;
// Lane-coupling updates (one W_ij x_j of one lane) between polls on large
// models.
constexpr int64_t kCheckWork = int64_t{1} << 23;
// Jobs of at most this many batches and lane-step updates run on the calling
// thread (about a millisecond of integration at most).
constexpr int kInlineBatches = 2;
constexpr int64_t kInlineWork = int64_t{1} << 21;
constexpr int kBatchesInFlight = 2;

absl::StatusOr<std::shared_ptr<const SbModel>> CachedSbModel(
    const Qubo& model, DerivedCache* derived) {
  auto make = [&] { return MakeSbModel(model); };
  if (derived == nullptr) {
    ASSIGN_OR_RETURN(SbModel made, make());
    return std::make_shared<const SbModel>(std::move(made));
  }
  return derived->GetOrTryMake<SbModel>("sb/model", make);
}

KernelPath ToKernelPath(v1::SbParams::Kernel kernel) {
  switch (kernel) {
    case v1::SbParams::KERNEL_SCALAR:
      return KernelPath::kScalar;
    case v1::SbParams::KERNEL_AVX2:
      return KernelPath::kAvx2;
    case v1::SbParams::KERNEL_AVX512:
      return KernelPath::kAvx512;
    default:
      return KernelPath::kAuto;
  }
}

// Work per time step of one lane: every coupling entry plus the
// per-variable updates.
int64_t StepWork(const SbModel& model) {
  return static_cast<int64_t>(model.w.size()) + 4 * model.size + 1;
}

class SbSampler final : public Sampler {
 public:
  explicit SbSampler(WorkerPool* pool) : pool_(pool) {}

  absl::string_view name() const override { return "sb"; }
  absl::string_view description() const override {
    return "simulated bifurcation (Goto et al. 2021): ballistic or discrete, "
           "optionally heated; replicas in SIMD lanes (reads are replicas)";
  }
  absl::string_view params_field() const override { return "sb"; }
  BackendCapabilities capabilities() const override {
    return {.exact = false,
            .deterministic = true,
            .interruptible = true,
            .remote = false,
            .max_variables = kMaxSbVariables};
  }

  absl::Status CheckParams(const v1::SolveParams& params,
                           const ParamLimits& limits,
                           absl::string_view prefix) const override {
    if (!params.has_sb()) return absl::OkStatus();
    return CheckSbParams(params.sb(), limits.max_sweeps, prefix);
  }

  JobBudget Budget(const v1::SolveParams& params,
                   JobBudget defaults) const override {
    if (params.sb().steps() > 0)
      defaults.num_sweeps = static_cast<int>(params.sb().steps());
    return defaults;
  }

  absl::StatusOr<SampleStats> Sample(const Qubo& qubo,
                                     const SampleParams& params,
                                     SampleSink& sink,
                                     Interrupter& interrupter) const override {
    const absl::Time start = absl::Now();
    const int n = qubo.num_variables();
    RETURN_IF_ERROR(CheckInitialStates(params.initial_states, n));
    ASSIGN_OR_RETURN(const std::shared_ptr<const SbModel> shared,
                     CachedSbModel(qubo, params.derived));
    const SbModel& model = *shared;
    const v1::SbParams wire =
        params.wire != nullptr ? params.wire->sb() : v1::SbParams();
    const SbConstants constants =
        ResolveSbConstants(wire, model, params.num_sweeps);
    const KernelPath path = ResolveKernelPath(params.kernel);
    const int lanes = KernelLanes(path);
    const int interval = SbCheckInterval(model, lanes);
    // The float energies of the kernel are within this of the exact ones.
    const double slack =
        model.max_row * (n + 64.0) * std::ldexp(1.0, -20) + 1e-9;

    std::atomic<int> reads_done{0}, cut_short{0};
    std::atomic<int64_t> replica_steps{0}, cpu_ns{0};
    // Replicas [first, first + count) in the lanes of one kernel object.
    auto run_batch = [&](int first, int count, KernelPath batch_path) {
      if (interrupter.ShouldStop()) return;
      const int64_t cpu_start = ThreadCpuNanos();
      std::unique_ptr<SbLanes> batch = NewSbLanes(batch_path, model, constants);
      for (int k = 0; k < batch->lanes(); ++k) {
        const uint64_t r = static_cast<uint64_t>(first + k);
        const uint8_t* start =
            params.initial_states.empty()
                ? nullptr
                : params.initial_states[r % params.initial_states.size()]
                      .data();
        batch->Seed(k, DeriveSeed(params.seed, r), start);
      }
      std::vector<uint8_t> bits;
      std::vector<double> energies(batch->lanes());
      int64_t step = 0;
      bool interrupted = false;
      while (step < constants.steps) {
        const int64_t next = std::min(constants.steps, step + interval);
        batch->Run(step, next);
        step = next;
        if (interrupter.ShouldStop()) {
          interrupted = true;
          break;
        }
        if (params.target_energy && step < constants.steps &&
            TargetReached(*batch, qubo, model, count, *params.target_energy,
                          slack, energies, bits)) {
          break;
        }
      }
      cpu_ns.fetch_add(ThreadCpuNanos() - cpu_start, std::memory_order_relaxed);
      replica_steps.fetch_add(step * count, std::memory_order_relaxed);
      // Replicas cut short are kept as they stand (DeliversCutShort).
      if (interrupted && !DeliversCutShort(interrupter.reason())) return;
      if (interrupted) cut_short.fetch_add(count, std::memory_order_relaxed);
      for (int k = 0; k < count; ++k) {
        batch->State(k, bits);
        const double energy = qubo.Energy(bits);
        reads_done.fetch_add(1, std::memory_order_relaxed);
        if (params.target_energy && energy <= *params.target_energy + 1e-9)
          interrupter.Interrupt(StopReason::kTargetReached);
        sink.OnSample({bits, energy, static_cast<uint32_t>(first + k), 1});
      }
    };
    const int batches = (params.num_reads + lanes - 1) / lanes;
    const std::function<void(int)> run_index = [&](int b) {
      const int first = b * lanes;
      const int count = std::min(lanes, params.num_reads - first);
      run_batch(first, count, BatchPath(path, count));
    };
    const bool inline_job =
        batches <= kInlineBatches &&
        batches * constants.steps * StepWork(model) <= kInlineWork;
    if (inline_job) {
      for (int b = 0; b < batches; ++b) run_index(b);
    } else {
      auto group = pool_->NewGroup();
      FeedBatches(*group, batches, kBatchesInFlight * pool_->num_threads(),
                  interrupter, run_index);
      RETURN_IF_ERROR(group->Wait());
    }

    SampleStats stats;
    stats.stop_reason = interrupter.reason();
    stats.reads_done = reads_done.load();
    stats.reads_cut_short = cut_short.load();
    stats.sweeps_done = replica_steps.load();
    stats.spin_update_attempts = replica_steps.load() * n;
    stats.seed = params.seed;
    stats.kernel = std::string(KernelPathName(path));
    stats.lanes = lanes;
    stats.threads = inline_job ? 1 : pool_->num_threads();
    stats.elapsed = absl::Now() - start;
    stats.cpu_time = absl::Nanoseconds(cpu_ns.load());
    stats.info.set_kernel(stats.kernel);
    stats.info.set_lanes(lanes);
    stats.info.set_threads(stats.threads);
    v1::SbInfo& info = *stats.info.mutable_sb();
    info.set_variant(constants.variant == SbVariantKind::kBallistic
                         ? v1::SB_BALLISTIC
                         : v1::SB_DISCRETE);
    info.set_heated(constants.heated);
    info.set_time_step(constants.time_step);
    info.set_steps(static_cast<uint32_t>(constants.steps));
    info.set_c0(constants.c0);
    info.set_a0(constants.a0);
    if (constants.heated) info.set_heat(constants.heat);
    info.set_kernel(stats.kernel);
    info.set_replica_steps(replica_steps.load());
    info.set_lanes(lanes);
    return stats;
  }

  void ApplyParams(const v1::SolveParams& wire,
                   SampleParams& params) const override {
    if (wire.has_sb()) params.kernel = ToKernelPath(wire.sb().kernel());
  }

 private:
  // True when a replica of the batch's first `count` lanes has a sign-rounded
  // state at or below `target`: the float energies pick the candidates, the
  // QUBO's energy decides.
  static bool TargetReached(const SbLanes& batch, const Qubo& qubo,
                            const SbModel& model, int count, double target,
                            double slack, std::vector<double>& energies,
                            std::vector<uint8_t>& bits) {
    batch.SignEnergies(energies.data());
    for (int k = 0; k < count; ++k) {
      if (energies[k] + model.offset > target + slack) continue;
      batch.State(k, bits);
      if (qubo.Energy(bits) <= target + 1e-9) return true;
    }
    return false;
  }

  WorkerPool* const pool_;
};

}  // namespace

int SbCheckInterval(const SbModel& model, int lanes) {
  const int64_t per_step = StepWork(model) * lanes;
  return static_cast<int>(
      std::clamp<int64_t>(kCheckWork / per_step, 1, kMaxCheckInterval));
}

SbConstants ResolveSbConstants(const v1::SbParams& wire, const SbModel& model,
                               int num_sweeps) {
  SbConstants constants;
  constants.variant = wire.variant() == v1::SB_BALLISTIC
                          ? SbVariantKind::kBallistic
                          : SbVariantKind::kDiscrete;
  constants.heated = wire.heated();

  constants.steps = wire.steps() > 0 ? wire.steps() : std::max(0, num_sweeps);
  constants.a0 = wire.a0() > 0 ? wire.a0() : StatedDefault<v1::SbParams>("a0");
  constants.heat =
      wire.heat() > 0 ? wire.heat() : StatedDefault<v1::SbParams>("heat");
  if (wire.c0() > 0) {
    constants.c0 = wire.c0();
  } else if (model.coupling_norm > 0) {
    // 0.5 / (sqrt(n) sigma) with sigma^2 = sum_{i != j} J_ij^2 / (n (n - 1)).
    const double n = std::max(2, model.size);
    constants.c0 = 0.5 * std::sqrt(n - 1) / model.coupling_norm;
  } else {
    constants.c0 = 1;
  }
  // Symplectic Euler is stable for a mode of stiffness k while a0 k dt^2 < 4;
  // the stiffest is k = a0 + c0 rho (rho: the couplings' spectral radius).
  // Goto's 1.25 suits the symmetric spectra of SK models; the all-positive
  // weights of G-set graphs give W a large negative eigenvalue (the uniform
  // mode), which at 1.25 blows up into the all-equal cut.
  const double stiffest =
      constants.a0 * (constants.a0 + constants.c0 * model.spectral_radius);
  constants.time_step =
      wire.time_step() > 0
          ? wire.time_step()
          : std::min(kLargestDerivedTimeStep,
                     kStabilityShare * 2 / std::sqrt(stiffest));
  return constants;
}

absl::Status CheckSbParams(const v1::SbParams& wire, uint32_t max_sweeps,
                           absl::string_view prefix) {
  if (wire.steps() > max_sweeps) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".sb.steps: must be at most ", max_sweeps,
                     ", got ", wire.steps()));
  }
  return absl::OkStatus();
}

std::unique_ptr<Sampler> NewSbSampler(WorkerPool* pool) {
  return std::make_unique<SbSampler>(pool);
}

}  // namespace qs
