// SqaSampler: runs as pool tasks, the defaults of beta and Gamma, parameter
// checks.
#include "core/sample/sqa/sqa_sampler.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/sample_util.h"
#include "core/sample/schedule.h"
#include "core/sample/sqa/sqa_kernel.h"

namespace qs {
namespace {

// A lane batch keeps P states and P field arrays of every lane (8 bytes a
// slice variable and lane): 256 MiB per running thread at the limit on the
// 16-lane path.
constexpr int64_t kMaxSliceVariables = int64_t{1} << 21;

// What a request runs, defaults filled in.
struct SqaOptions {
  int slices = static_cast<int>(StatedDefault<v1::SqaParams>("trotter_slices"));
  double beta = 0;
  double gamma_start = 0;
  double gamma_end = 0;
  v1::SqaSchedule shape = v1::SQA_LINEAR;
  bool all_slices = false;
};

SqaOptions ResolveOptions(const v1::SqaParams& wire, const Qubo& model) {
  SqaOptions options;
  if (wire.trotter_slices() > 0) options.slices = wire.trotter_slices();
  // Measured on sudoku_full and queens12 (docs/sqa.md): a slice ends at a
  // quarter of the tuned beta_cold (P = 8), and beta Gamma / P starts at 4 / P.
  options.beta = wire.beta() > 0
                     ? wire.beta()
                     : 2 * BetaRangeFor(BetaRangeRule::kTuned, model).cold;
  if (!(options.beta > 0 && std::isfinite(options.beta))) options.beta = 1;
  options.gamma_start =
      wire.gamma_start() > 0 ? wire.gamma_start() : 4.0 / options.beta;
  options.gamma_end =
      wire.gamma_end() > 0 ? wire.gamma_end() : options.gamma_start / 1000;
  if (wire.schedule() != v1::SQA_SCHEDULE_DEFAULT)
    options.shape = wire.schedule();
  options.all_slices = wire.all_slices();
  return options;
}

class SqaSampler final : public Sampler {
 public:
  explicit SqaSampler(WorkerPool* pool) : pool_(pool) {}

  absl::string_view name() const override { return "sqa"; }
  absl::string_view description() const override {
    return "simulated quantum annealing: path-integral Monte Carlo with "
           "Trotter slices under a falling transverse field (reads are "
           "independent runs; samples are each run's best slice)";
  }
  absl::string_view params_field() const override { return "sqa"; }
  BackendCapabilities capabilities() const override {
    return {.exact = false,
            .deterministic = true,
            .interruptible = true,
            .remote = false,
            .max_variables = kMaxKernelVariables};
  }

  // A sweep proposes a flip of every variable in every slice.
  JobBudget Budget(const v1::SolveParams& params,
                   JobBudget defaults) const override {
    defaults.proposals_per_variable =
        params.sqa().trotter_slices() > 0
            ? static_cast<int>(params.sqa().trotter_slices())
            : static_cast<int>(StatedDefault<v1::SqaParams>("trotter_slices"));
    return defaults;
  }

  absl::Status CheckParams(const v1::SolveParams& params,
                           const ParamLimits& limits,
                           absl::string_view prefix) const override {
    if (!params.has_sqa()) return absl::OkStatus();
    return CheckSqaParams(params.sqa(), prefix);
  }

  absl::StatusOr<SampleStats> Sample(const Qubo& model,
                                     const SampleParams& params,
                                     SampleSink& sink,
                                     Interrupter& interrupter) const override {
    const absl::Time start = absl::Now();
    const int n = model.num_variables();
    RETURN_IF_ERROR(CheckInitialStates(params.initial_states, n));
    const v1::SqaParams wire =
        params.wire != nullptr ? params.wire->sqa() : v1::SqaParams();
    const SqaOptions options = ResolveOptions(wire, model);
    if (int64_t{options.slices} * n > kMaxSliceVariables) {
      return absl::ResourceExhaustedError(
          absl::StrCat("sqa: ", options.slices, " slices of ", n,
                       " variables exceed its limit of ", kMaxSliceVariables,
                       " slice variables per run; use fewer trotter_slices"));
    }
    const KernelPath path = ResolveKernelPath(params.kernel);
    const int lanes = KernelLanes(path);
    ASSIGN_OR_RETURN(const std::shared_ptr<const KernelModel> shared_model,
                     CachedKernelModel(model, params.derived));
    const KernelModel& kernel_model = *shared_model;
    const int64_t sweeps = params.num_sweeps;
    auto point_at = [&](int64_t sweep) {
      const double s =
          sweeps > 1 ? static_cast<double>(sweep) / (sweeps - 1) : 1.0;
      return SqaPoint{s, SqaGamma(options.shape, options.gamma_start,
                                  options.gamma_end, s)};
    };

    std::atomic<int> reads_done{0}, cut_short{0};
    std::atomic<int64_t> sweeps_done{0}, attempts{0}, accepted{0}, cpu_ns{0};
    // One lane batch: runs [first, first + count) on `batch_path`.
    auto run_batch = [&](int first, int count, KernelPath batch_path) {
      if (interrupter.ShouldStop()) return;
      std::vector<SqaRead> runs(count);
      for (int k = 0; k < count; ++k) {
        ReadStart start =
            StartOfRead(params.initial_states, n, params.seed, first + k);
        runs[k].start = std::move(start.state);
        runs[k].rng_seed = start.rng_seed;
      }
      const int64_t cpu_start = ThreadCpuNanos();
      const SqaStats s =
          AnnealSqa(batch_path, kernel_model, options.beta, options.slices,
                    point_at, sweeps, runs, interrupter);
      cpu_ns.fetch_add(ThreadCpuNanos() - cpu_start, std::memory_order_relaxed);
      sweeps_done.fetch_add(s.sweeps_done * count, std::memory_order_relaxed);
      attempts.fetch_add(s.attempts, std::memory_order_relaxed);
      accepted.fetch_add(s.accepted, std::memory_order_relaxed);
      if (s.interrupted && !DeliversCutShort(interrupter.reason())) return;
      if (s.interrupted) cut_short.fetch_add(count, std::memory_order_relaxed);
      for (int k = 0; k < count; ++k) {
        reads_done.fetch_add(
            Deliver(model, options.slices, runs[k].slices, first + k,
                    options.all_slices, params, sink, interrupter),
            std::memory_order_relaxed);
      }
    };
    // Lane batches fed to the pool two per thread at a time: num_reads costs
    // no memory up front.
    const std::function<void(int)> run_index = [&](int b) {
      const int first = b * lanes;
      const int count = std::min(lanes, params.num_reads - first);
      run_batch(first, count, BatchPath(path, count));
    };
    auto group = pool_->NewGroup();
    FeedBatches(*group, (params.num_reads + lanes - 1) / lanes,
                2 * pool_->num_threads(), interrupter, run_index);
    RETURN_IF_ERROR(group->Wait());

    SampleStats stats;
    stats.stop_reason = interrupter.reason();
    stats.reads_done = reads_done.load();
    stats.reads_cut_short = cut_short.load();
    stats.sweeps_done = sweeps_done.load();
    stats.spin_update_attempts = attempts.load();
    stats.accepted_flips = accepted.load();
    stats.seed = params.seed;
    stats.kernel = std::string(KernelPathName(path));
    stats.lanes = lanes;
    stats.kernel_exact = kernel_model.exact;
    stats.threads = pool_->num_threads();
    stats.elapsed = absl::Now() - start;
    stats.cpu_time = absl::Nanoseconds(cpu_ns.load());
    stats.info.set_threads(stats.threads);
    stats.info.set_kernel(stats.kernel);
    stats.info.set_lanes(stats.lanes);
    stats.info.set_kernel_exact(stats.kernel_exact);
    v1::SqaInfo& info = *stats.info.mutable_sqa();
    info.set_trotter_slices(options.slices);
    info.set_beta(options.beta);
    info.set_gamma_start(options.gamma_start);
    info.set_gamma_end(options.gamma_end);
    info.set_schedule(options.shape);
    info.set_all_slices(options.all_slices);
    return stats;
  }

 private:
  // Streams run r's lowest-energy slice (the first of equals), or every
  // slice; a slice at the target ends the solve. Returns the samples sent.
  static int Deliver(const Qubo& model, int num_slices,
                     const std::vector<uint8_t>& x, int r, bool all_slices,
                     const SampleParams& params, SampleSink& sink,
                     Interrupter& interrupter) {
    const int n = model.num_variables();
    std::vector<std::pair<double, std::vector<uint8_t>>> slices;
    for (int k = 0; k < num_slices; ++k) {
      std::vector<uint8_t> bits(x.begin() + static_cast<int64_t>(k) * n,
                                x.begin() + static_cast<int64_t>(k + 1) * n);
      const double energy = model.Energy(bits);
      slices.emplace_back(energy, std::move(bits));
    }
    if (!all_slices) {
      auto best = std::min_element(
          slices.begin(), slices.end(),
          [](const auto& a, const auto& b) { return a.first < b.first; });
      slices = {std::move(*best)};
    }
    for (auto& [energy, bits] : slices) {
      if (params.target_energy && energy <= *params.target_energy + 1e-9)
        interrupter.Interrupt(StopReason::kTargetReached);
      sink.OnSample({std::move(bits), energy, static_cast<uint32_t>(r), 1});
    }
    return static_cast<int>(slices.size());
  }

  WorkerPool* const pool_;
};

}  // namespace

double SqaGamma(v1::SqaSchedule shape, double gamma_start, double gamma_end,
                double s) {
  switch (shape) {
    case v1::SQA_GEOMETRIC:
      return gamma_start * std::pow(gamma_end / gamma_start, s);
    case v1::SQA_QUADRATIC:
      return gamma_end + (gamma_start - gamma_end) * (1 - s) * (1 - s);
    default:
      return gamma_end + (gamma_start - gamma_end) * (1 - s);
  }
}

absl::Status CheckSqaParams(const v1::SqaParams& wire,
                            absl::string_view prefix) {
  if (wire.gamma_start() > 0 && wire.gamma_end() > wire.gamma_start()) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".sqa.gamma_end: must not exceed gamma_start (",
                     wire.gamma_start(), "), got ", wire.gamma_end()));
  }
  return absl::OkStatus();
}

std::unique_ptr<Sampler> NewSqaSampler(WorkerPool* pool) {
  return std::make_unique<SqaSampler>(pool);
}

}  // namespace qs
