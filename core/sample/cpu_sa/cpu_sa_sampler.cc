// CpuSaSampler: lane batches as pool tasks, per-read seeding, streaming of
// finished reads.
#include "core/sample/cpu_sa/cpu_sa_sampler.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/casts.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/sample/cpu_sa/bitslice_kernel.h"
#include "core/sample/cpu_sa/cpu_sa_params.h"
#include "core/sample/cpu_sa/group_anneal.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/group_structure.h"
#include "core/sample/pt/group_moves.h"
#include "core/sample/sample_util.h"
#include "core/sample/schedule.h"

namespace qs {
namespace {

// Jobs of at most this many lane batches and lane-batch variable updates run
// on the calling thread (about a millisecond of annealing at most).
constexpr int kInlineBatches = 2;
constexpr int64_t kInlineWork = int64_t{1} << 18;
// Lane batches queued per pool thread: enough to keep every thread busy,
// few enough that num_reads costs no memory up front.
constexpr int kBatchesInFlight = 2;
// Work of one slice of a batch's schedule (sa_kernel.h SweepWindow), in the
// kernels' units: about 20-40 ms on this project's development machine
// (docs/budgets.md, "Anytime answers"). At each slice boundary a batch gives
// its thread to another request's waiting task, so that k requests on c
// threads each get about c/k of the compute. The length depends on the model
// alone, so a seed gives the same reads under any load.
constexpr int64_t kFloatSliceWork = int64_t{1} << 25;     // lane-edge updates
constexpr int64_t kBitSliceSliceWork = int64_t{1} << 22;  // word updates

// Sweeps of one slice for a sweep that costs `sweep_work`.
int64_t SliceSweeps(int64_t slice_work, int64_t sweep_work) {
  return std::max<int64_t>(1, slice_work / std::max<int64_t>(1, sweep_work));
}

// One lane batch between its steps: the reads and where their schedule
// stands.
struct BatchRun {
  int first = 0;
  int count = 0;
  KernelPath path = KernelPath::kScalar;
  bool started = false;
  int64_t next_sweep = 0;
  std::vector<KernelRead> reads;
  // The bit-sliced kernel's word between the batch's steps.
  BitSliceWord word;
  // The lanes of the group moves between the batch's steps.
  GroupAnnealBatch group_batch;
};

// The schedule of these parameters, kept with the compiled problem: its
// stored betas cost a pow() each for a geometric schedule.
absl::StatusOr<std::shared_ptr<const ResolvedSchedule>> CachedSchedule(
    const Qubo& model, const SampleParams& params) {
  auto make = [&] { return ResolveSchedule(model, params); };
  if (params.derived == nullptr || !params.beta_schedule.empty()) {
    ASSIGN_OR_RETURN(ResolvedSchedule made, make());
    return std::make_shared<const ResolvedSchedule>(std::move(made));
  }
  const std::string key =
      absl::StrCat("cpu_sa/schedule/", static_cast<int>(params.schedule), "/",
                   static_cast<int>(params.beta_range_rule), "/",
                   absl::Hex(absl::bit_cast<uint64_t>(params.beta_hot)), "/",
                   absl::Hex(absl::bit_cast<uint64_t>(params.beta_cold)), "/",
                   params.num_sweeps, "/", params.sweeps_per_beta);
  return params.derived->GetOrTryMake<ResolvedSchedule>(key, make);
}

// The group moves a request runs (group_anneal.h), or null for single flips:
// GROUP_MOVES_DEFAULT keeps the groups on a constrained model, whose optimum
// is sought among feasible states, and not on a puzzle, whose formulation
// fixes the ground energy (docs/backends.md, "cpu-sa: moves that keep the
// groups"). The moves decide by the Metropolis rule: Gibbs acceptance flips
// single variables.
std::shared_ptr<const GroupMoves> GroupMovesOf(const KernelModel& kernel_model,
                                               const SampleParams& params) {
  if (params.acceptance != Acceptance::kMetropolis) return nullptr;
  const v1::GroupMoves wire = params.wire != nullptr
                                  ? params.wire->cpu_sa().group_moves()
                                  : v1::GROUP_MOVES_DEFAULT;
  return RequestedGroupMoves(wire, kernel_model, params);
}

// A read's start inside the groups, and its kernel stream's seed.
void StartInGroups(const GroupStructure& structure, KernelRead& read) {
  Xoshiro256 rng(read.rng_seed);
  MoveIntoGroups(structure, rng, read.state);
  read.rng_seed = rng.Next();
}

class CpuSaSampler final : public Sampler {
 public:
  explicit CpuSaSampler(WorkerPool* pool) : pool_(pool) {}

  absl::string_view name() const override { return "cpu-sa"; }
  absl::string_view description() const override {
    return "simulated annealing on the server's CPU cores, one read per SIMD "
           "lane (Metropolis or Gibbs; "
           "geometric, linear or custom beta schedule)";
  }
  absl::string_view params_field() const override { return "cpu_sa"; }
  BackendCapabilities capabilities() const override {
    return {.exact = false,
            .deterministic = true,
            .interruptible = true,
            .remote = false,
            .max_variables = kMaxKernelVariables};
  }

  absl::Status CheckParams(const v1::SolveParams& params,
                           const ParamLimits& limits,
                           absl::string_view prefix) const override {
    if (!params.has_cpu_sa()) return absl::OkStatus();
    return CheckCpuSaParams(params.cpu_sa(), limits.max_sweeps, prefix);
  }

  JobBudget Budget(const v1::SolveParams& params,
                   JobBudget defaults) const override {
    // A custom schedule runs its own number of sweeps.
    const v1::CpuSaParams& sa = params.cpu_sa();
    if (sa.beta_schedule_size() > 0) {
      defaults.num_sweeps =
          sa.beta_schedule_size() *
          static_cast<int>(std::max<uint32_t>(1, sa.sweeps_per_beta()));
    }
    return defaults;
  }

  absl::StatusOr<SampleStats> Sample(const Qubo& model,
                                     const SampleParams& params,
                                     SampleSink& sink,
                                     Interrupter& interrupter) const override {
    const absl::Time start = absl::Now();
    const int n = model.num_variables();
    RETURN_IF_ERROR(CheckInitialStates(params.initial_states, n));
    const KernelPath path = ResolveKernelPath(params.kernel);
    std::shared_ptr<const KernelModel> shared_model;
    std::shared_ptr<const GroupMoves> groups;
    if (params.one_hot_groups != nullptr && !params.one_hot_groups->empty()) {
      ASSIGN_OR_RETURN(shared_model, CachedKernelModel(model, params.derived));
      groups = GroupMovesOf(*shared_model, params);
    }
    // The automatic choice takes the bit-sliced kernel when the model
    // qualifies and is large and the call fills at least half a word
    // (bitslice_kernel.h); a path the request names, and the group moves,
    // are the float kernel's.
    std::shared_ptr<const BitSliceModel> bitsliced;
    if (groups == nullptr && params.kernel == KernelPath::kAuto &&
        n >= kBitSliceMinVariables && params.num_reads >= kBitSliceMinReads) {
      bitsliced = CachedBitSliceModel(model, params.derived);
      if (!bitsliced->qualifies) bitsliced = nullptr;
    }
    const int lanes = bitsliced != nullptr ? kBitSliceLanes : KernelLanes(path);
    if (bitsliced == nullptr && shared_model == nullptr) {
      ASSIGN_OR_RETURN(shared_model, CachedKernelModel(model, params.derived));
    }
    ASSIGN_OR_RETURN(
        const std::shared_ptr<const ResolvedSchedule> resolved,
        groups != nullptr
            ? CachedSchedule(model, WithGroupBetaRange(model, *shared_model,
                                                       *groups, params))
            : CachedSchedule(model, params));
    const ResolvedSchedule& schedule = *resolved;

    // Slices of the schedule: the kernel's work per sweep of one call.
    const int64_t slice =
        bitsliced != nullptr
            ? SliceSweeps(kBitSliceSliceWork,
                          n + static_cast<int64_t>(bitsliced->offsets.size()))
            : SliceSweeps(
                  kFloatSliceWork,
                  std::accumulate(shared_model->chunk_work.begin(),
                                  shared_model->chunk_work.end(), int64_t{0}));
    std::atomic<int> reads_done{0}, cut_short{0};
    std::atomic<int64_t> sweeps{0}, attempts{0}, accepted{0}, cpu_ns{0};
    // Reads cut short by the time limit, the deadline or a cancel are
    // delivered as they stand: the best the budget allowed, scored with their
    // true energies. After a reached target they are noise.
    auto deliver = [&](BatchRun& run, bool interrupted) {
      if (interrupted && !DeliversCutShort(interrupter.reason())) return;
      if (interrupted) cut_short.fetch_add(run.count);
      for (int k = 0; k < run.count; ++k) {
        KernelRead& read = run.reads[k];
        const double energy = bitsliced != nullptr && bitsliced->energy_exact
                                  ? read.energy
                                  : model.Energy(read.state);
        reads_done.fetch_add(1, std::memory_order_relaxed);
        if (params.target_energy && energy <= *params.target_energy + 1e-9) {
          interrupter.Interrupt(StopReason::kTargetReached);
        }
        sink.OnSample({std::move(read.state), energy,
                       static_cast<uint32_t>(run.first + k), 1});
      }
    };
    // One step of a lane batch: to its end, or to a slice boundary where
    // `yield` says another request waits (false).
    auto step = [&](BatchRun& run, const std::function<bool()>& yield) {
      if (!run.started) {
        if (interrupter.ShouldStop()) return true;
        run.started = true;
        run.reads.resize(run.count);
        for (int k = 0; k < run.count; ++k) {
          ReadStart start =
              StartOfRead(params.initial_states, n, params.seed, run.first + k);
          run.reads[k].state = std::move(start.state);
          run.reads[k].rng_seed = start.rng_seed;
          if (groups != nullptr) StartInGroups(groups->structure, run.reads[k]);
        }
      }
      const SweepWindow window{run.next_sweep, slice, yield};
      const int64_t cpu_start = ThreadCpuNanos();
      const KernelStats done =
          bitsliced != nullptr
              ? AnnealBitSliced(*bitsliced, schedule, params.acceptance,
                                run.reads, interrupter, false, window,
                                &run.word)
          : groups != nullptr
              ? AnnealReadsInGroups(run.path, *shared_model, *groups, schedule,
                                    run.reads, run.group_batch, interrupter,
                                    window)
              : AnnealReads(run.path, *shared_model, schedule,
                            params.acceptance, run.reads, interrupter, window);
      cpu_ns.fetch_add(ThreadCpuNanos() - cpu_start, std::memory_order_relaxed);
      sweeps.fetch_add(done.sweeps_done * run.count, std::memory_order_relaxed);
      attempts.fetch_add(done.attempts, std::memory_order_relaxed);
      accepted.fetch_add(done.accepted, std::memory_order_relaxed);
      if (done.yielded && !done.interrupted) {
        run.next_sweep = done.next_sweep;
        return false;
      }
      deliver(run, done.interrupted);
      return true;
    };
    auto make_run = [&](int b) {
      auto run = std::make_shared<BatchRun>();
      run->first = b * lanes;
      run->count = std::min(lanes, params.num_reads - run->first);
      run->path = BatchPath(path, run->count);
      return run;
    };
    // A small job runs on the calling thread: handing two lane batches to the
    // pool and waiting for them costs two thread wake-ups, a large share of a
    // millisecond's anneal. Larger jobs go through the pool's round-robin,
    // which keeps requests fair to each other.
    const int batches = (params.num_reads + lanes - 1) / lanes;
    const bool inline_job =
        batches <= kInlineBatches &&
        static_cast<int64_t>(batches) * schedule.num_sweeps() * n <=
            kInlineWork;
    if (inline_job) {
      for (int b = 0; b < batches; ++b) step(*make_run(b), nullptr);
    } else {
      auto group = pool_->NewGroup();
      WorkerPool::TaskGroup* const g = group.get();
      const std::function<bool()> yield = [g] { return g->OthersWaiting(); };
      FeedSteppedBatches(
          *group, batches, kBatchesInFlight * pool_->num_threads(), interrupter,
          [&](int b) -> BatchStep {
            return [&, run = make_run(b)] { return step(*run, yield); };
          });
      RETURN_IF_ERROR(group->Wait());
    }

    SampleStats stats;
    stats.stop_reason = interrupter.reason();
    stats.reads_done = reads_done.load();
    stats.reads_cut_short = cut_short.load();
    stats.sweeps_done = sweeps.load();
    stats.spin_update_attempts = attempts.load();
    stats.accepted_flips = accepted.load();
    stats.seed = params.seed;
    stats.beta_hot = schedule.range().hot;
    stats.beta_cold = schedule.range().cold;
    stats.schedule = schedule.type();
    stats.beta_range_rule = schedule.rule();
    stats.sweeps_per_beta = schedule.sweeps_per_beta();
    stats.acceptance = params.acceptance;
    stats.kernel = std::string(bitsliced != nullptr ? BitSlicePathName()
                                                    : KernelPathName(path));
    stats.lanes = lanes;
    stats.kernel_exact = bitsliced != nullptr || shared_model->exact;
    stats.threads = pool_->num_threads();
    stats.elapsed = absl::Now() - start;
    stats.cpu_time = absl::Nanoseconds(cpu_ns.load());
    stats.info.set_moves(groups != nullptr ? groups->Names() : "single-flip");
    return stats;
  }

  void ApplyParams(const v1::SolveParams& wire,
                   SampleParams& params) const override {
    if (wire.has_cpu_sa()) ApplyCpuSaParams(wire.cpu_sa(), params);
    // Uniform sampling needs the hot start of [Mücke 2024] §4: the tuned range
    // starts cold enough that a short anneal keeps a bias towards the boards
    // nearest its random start (4x4 Sudoku at 100 sweeps: chi-square 9,000
    // over 287 degrees of freedom, against 250 from the hot start). A range
    // the request chooses is kept.
    if (wire.distinct_valid() &&
        wire.cpu_sa().beta_range() == v1::BETA_RANGE_RULE_DEFAULT)
      params.beta_range_rule = BetaRangeRule::kDwave;
    // ... and independent reads: the bit-sliced kernel's reads share their
    // random numbers in groups of 32.
    if (wire.distinct_valid() && params.kernel == KernelPath::kAuto)
      params.kernel = ResolveKernelPath(KernelPath::kAuto);
  }

  void FillInfo(const SampleStats& stats,
                v1::BackendInfo& info) const override {
    info = stats.info;
    FillBackendInfo(stats, info);
  }

 private:
  WorkerPool* const pool_;
};

}  // namespace

std::unique_ptr<Sampler> NewCpuSaSampler(WorkerPool* pool) {
  return std::make_unique<CpuSaSampler>(pool);
}

}  // namespace qs
