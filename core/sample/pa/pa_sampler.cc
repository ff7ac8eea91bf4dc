// PaSampler: the population's steps (resampling on the calling thread, sweeps
// as lane-batch pool tasks on cpu-sa's kernel, or on pt's replica kernel with
// the moves that keep the groups), its statistics and parameter checks.
#include "core/sample/pa/pa_sampler.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/base/status_macros.h"
#include "core/sample/cpu_sa/cpu_sa_params.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/pa/group_population.h"
#include "core/sample/pa/population_kernel.h"
#include "core/sample/pt/group_moves.h"
#include "core/sample/sample_util.h"
#include "core/sample/schedule.h"

namespace qs {
namespace {

constexpr int kStartsPerPoll = 16;
// Population size times variables: each member keeps its state and its fields
// in the kernel's lanes (8 bytes a variable), 1 GiB at the limit.
constexpr int64_t kMaxMemberVariables = int64_t{1} << 27;
constexpr uint64_t kPaStepSalt = 0x7061'5f73'7465'7073;  // "pa_steps"

// What the population keeps beside its lanes, per member.
struct Members {
  std::vector<double> energy;      // without the offset, on the kernel's grid
  std::vector<uint32_t> ancestor;  // the initial member it descends from
  int size() const { return static_cast<int>(energy.size()); }
};

// What the run of one population measured.
struct PaRun {
  int steps = 0;
  double beta = 0;     // the last beta reached
  double log_z = 0;    // ln Z at beta
  int64_t sweeps = 0;  // per member
  int64_t attempts = 0;
  int64_t accepted = 0;
  bool interrupted = false;
};

// Resamples the population at inverse-temperature step `delta_beta`; adds
// ln Q to run.log_z. Survivors stay in their lanes and only extra copies are
// copied, so a step of small delta_beta costs O(R) beyond its copies.
void Resample(PopulationLanes& lanes, Members& members, double delta_beta,
              int r, v1::PaResampling rule, Xoshiro256& rng, PaRun& run) {
  const double e_min =
      *std::min_element(members.energy.begin(), members.energy.end());
  std::vector<double> weights(members.size());
  double sum = 0;
  for (int k = 0; k < members.size(); ++k) {
    weights[k] = std::exp(-delta_beta * (members.energy[k] - e_min));
    sum += weights[k];
  }
  // Q = mean of exp(-delta_beta E) over the population.
  run.log_z += std::log(sum / members.size()) - delta_beta * e_min;
  const std::vector<int> source =
      lanes.Resample(ResampleCopies(weights, r, rule, rng));
  Members next;
  next.energy.reserve(source.size());
  next.ancestor.reserve(source.size());
  for (int k : source) {
    next.energy.push_back(members.energy[k]);
    next.ancestor.push_back(members.ancestor[k]);
  }
  members = std::move(next);
}

class PaSampler final : public Sampler {
 public:
  explicit PaSampler(WorkerPool* pool) : pool_(pool) {}

  absl::string_view name() const override { return "pa"; }
  absl::string_view description() const override {
    return "population annealing: a population (reads) annealed through a beta "
           "schedule, resampled by Boltzmann weights at each step, one member "
           "per SIMD lane; reports the free energy and the family count";
  }
  absl::string_view params_field() const override { return "pa"; }
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
    if (!params.has_pa()) return absl::OkStatus();
    return CheckPaParams(params.pa(), limits.max_sweeps, prefix);
  }

  absl::StatusOr<SampleStats> Sample(const Qubo& model,
                                     const SampleParams& params,
                                     SampleSink& sink,
                                     Interrupter& interrupter) const override {
    const absl::Time start = absl::Now();
    const int n = model.num_variables();
    RETURN_IF_ERROR(CheckInitialStates(params.initial_states, n));
    const v1::PaParams wire =
        params.wire != nullptr ? params.wire->pa() : v1::PaParams();
    const int per_step =
        wire.sweeps_per_step() > 0
            ? static_cast<int>(
                  std::min<uint32_t>(wire.sweeps_per_step(), params.num_sweeps))
            : std::min(static_cast<int>(
                           StatedDefault<v1::PaParams>("sweeps_per_step")),
                       params.num_sweeps);
    const int num_steps = (params.num_sweeps + per_step - 1) / per_step;
    ASSIGN_OR_RETURN(const KernelModel kernel_model, MakeKernelModel(model));
    // With group moves the members start inside the groups, each sweep runs
    // cpu-sa's group moves and the range is tuned on them.
    const std::shared_ptr<const GroupMoves> groups =
        RequestedGroupMoves(wire.group_moves(), kernel_model, params);
    SampleParams range_params = params;
    v1::CpuSaParams range_wire;
    range_wire.set_beta_hot(wire.beta_hot());
    range_wire.set_beta_cold(wire.beta_cold());
    range_wire.set_schedule(wire.schedule());
    range_wire.set_beta_range(wire.beta_range());
    ApplyCpuSaParams(range_wire, range_params);
    if (groups != nullptr) {
      range_params =
          WithGroupBetaRange(model, kernel_model, *groups, range_params);
    }
    // One beta per step, computed on demand past a few thousand steps.
    const ResolvedSchedule betas = ResolvedSchedule::Interpolated(
        range_params.schedule, ResolveBetaRange(model, range_params),
        range_params.beta_range_rule, num_steps, 1);
    const v1::PaResampling rule = wire.resampling() == v1::PA_RESAMPLING_DEFAULT
                                      ? v1::PA_RESAMPLING_NEAREST
                                      : wire.resampling();
    const KernelPath path = ResolveKernelPath(KernelPathOf(wire.kernel()));
    const int lanes = KernelLanes(path);
    // The population is num_reads members, held at once. num_reads is an
    // upper bound: a time-limited request (which the time bounds) runs the
    // largest population under the limit instead of being refused.
    int r = params.num_reads;
    if (int64_t{r} * n > kMaxMemberVariables && params.wire != nullptr &&
        params.wire->time_limit_seconds() > 0) {
      r = static_cast<int>(
          std::max<int64_t>(1, kMaxMemberVariables / std::max(n, 1)));
    }
    if (int64_t{r} * n > kMaxMemberVariables) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "pa keeps the whole population: ", r, " members of ", n,
          " variables exceed its limit of ", kMaxMemberVariables,
          " member variables; use fewer reads or set a time limit"));
    }

    const std::unique_ptr<PopulationLanes> owned =
        groups != nullptr ? NewGroupPopulation(path, kernel_model, *groups, r)
                          : NewPopulationLanes(path, kernel_model, r);
    PopulationLanes& population = *owned;
    Members members;
    // The kernel's energy is exact on an exact grid (and the start's is).
    auto exact_energy = [&](double energy, const std::vector<uint8_t>& state) {
      return kernel_model.exact ? energy + model.offset() : model.Energy(state);
    };
    int reads_done = 0;
    double streamed_best = std::numeric_limits<double>::infinity();
    PaRun run;
    std::vector<uint8_t> state;
    // The start costs O(n + m) per member: polled like the kernel's sweeps.
    for (int m = 0; m < r && !run.interrupted; ++m) {
      Xoshiro256 rng(DeriveSeed(params.seed, static_cast<uint64_t>(m)));
      state = StartState(params.initial_states, n, m, rng);
      if (groups != nullptr) MoveIntoGroups(groups->structure, rng, state);
      population.SetState(m, state);
      members.energy.push_back(model.Energy(state) - model.offset());
      members.ancestor.push_back(static_cast<uint32_t>(m));
      if (m % kStartsPerPoll == kStartsPerPoll - 1)
        run.interrupted = interrupter.ShouldStop();
    }
    // A stop during the starts delivers the members started so far, as
    // they started: a time limit shorter than the starts still returns reads.
    if (!run.interrupted) population.InitFields();
    run.log_z = n * std::numbers::ln2;
    std::atomic<int64_t> attempts{0}, accepted{0}, cpu_ns{0};
    std::atomic<bool> interrupted{false};
    std::vector<uint64_t> seeds;
    for (int t = 0; t < num_steps && !run.interrupted; ++t) {
      const uint64_t step_seed = DeriveSeed(params.seed ^ kPaStepSalt, t);
      Xoshiro256 rng(step_seed);
      const double beta = betas.BetaAt(t);
      Resample(population, members, beta - run.beta, r, rule, rng, run);
      run.beta = beta;
      const int sweeps = std::min<int64_t>(
          per_step, params.num_sweeps - int64_t{t} * per_step);
      seeds.resize(members.size());
      for (int m = 0; m < members.size(); ++m)
        seeds[m] = DeriveSeed(step_seed, m + 1);
      auto group = pool_->NewGroup();
      for (int b = 0; b < population.blocks(); ++b) {
        group->Submit([&, b] {
          if (interrupter.ShouldStop()) {
            interrupted.store(true);
            return;
          }
          const int first = b * lanes;
          const int count = std::min(lanes, members.size() - first);
          const int64_t cpu_start = ThreadCpuNanos();
          const KernelStats s = population.SweepBlock(
              b, beta, sweeps, std::span(seeds).subspan(first, count),
              std::span(members.energy).subspan(first, count), interrupter);
          cpu_ns.fetch_add(ThreadCpuNanos() - cpu_start,
                           std::memory_order_relaxed);
          attempts.fetch_add(s.attempts, std::memory_order_relaxed);
          accepted.fetch_add(s.accepted, std::memory_order_relaxed);
          if (s.interrupted) interrupted.store(true);
        });
      }
      RETURN_IF_ERROR(group->Wait());
      run.interrupted = interrupted.load();
      if (!run.interrupted) {
        ++run.steps;
        run.sweeps += sweeps;
      }
      // A new lowest energy is streamed at once, so that a target or
      // stop_at_first_valid ends the run at the step that found it.
      if (!run.interrupted) {
        const int best = static_cast<int>(
            std::min_element(members.energy.begin(), members.energy.end()) -
            members.energy.begin());
        if (members.energy[best] < streamed_best) {
          streamed_best = members.energy[best];
          population.ReadState(best, state);
          const double energy = exact_energy(members.energy[best], state);
          sink.OnSample({state, energy, static_cast<uint32_t>(best), 1});
          ++reads_done;
          if (params.target_energy && energy <= *params.target_energy + 1e-9)
            interrupter.Interrupt(StopReason::kTargetReached);
        }
        if (interrupter.reason() == StopReason::kTargetReached) break;
      }
    }
    run.attempts = attempts.load();
    run.accepted = accepted.load();

    // The population is delivered however the run ended: members a stop cut
    // mid-step hold the states they reached, scored with their true
    // energies (DeliversCutShort).
    const StopReason reason = interrupter.reason();
    for (int m = 0; m < members.size(); ++m) {
      population.ReadState(m, state);
      // A step cut mid-sweep may leave a member's energy behind its state.
      const double energy = run.interrupted
                                ? model.Energy(state)
                                : exact_energy(members.energy[m], state);
      sink.OnSample({state, energy, static_cast<uint32_t>(m), 1});
      ++reads_done;
    }
    const int cut_short =
        run.interrupted && DeliversCutShort(reason) ? members.size() : 0;

    SampleStats stats;
    stats.stop_reason = reason;
    stats.reads_done = reads_done;
    stats.reads_cut_short = cut_short;
    stats.sweeps_done = run.sweeps * members.size();
    stats.spin_update_attempts = run.attempts;
    stats.accepted_flips = run.accepted;
    stats.seed = params.seed;
    stats.beta_hot = betas.range().hot;
    stats.beta_cold = betas.range().cold;
    stats.schedule = range_params.schedule;
    stats.beta_range_rule = range_params.beta_range_rule;
    stats.sweeps_per_beta = per_step;
    stats.kernel = std::string(KernelPathName(path));
    stats.lanes = lanes;
    stats.kernel_exact = kernel_model.exact;
    stats.threads = pool_->num_threads();
    stats.elapsed = absl::Now() - start;
    stats.cpu_time = absl::Nanoseconds(cpu_ns.load());
    FillBackendInfo(stats, stats.info);
    stats.info.set_moves(groups != nullptr ? groups->Names() : "single-flip");
    FillPaInfo(members.ancestor, run, model.offset(), per_step, rule,
               *stats.info.mutable_pa());
    return stats;
  }

 private:
  static KernelPath KernelPathOf(v1::KernelPath wire) {
    v1::CpuSaParams sa;
    sa.set_kernel(wire);
    SampleParams params;
    ApplyCpuSaParams(sa, params);
    return params.kernel;
  }

  static void FillPaInfo(std::vector<uint32_t> ancestors, const PaRun& run,
                         double offset, int per_step, v1::PaResampling rule,
                         v1::PaInfo& info) {
    info.set_steps(run.steps);
    info.set_sweeps_per_step(per_step);
    info.set_resampling(rule);
    info.set_population(static_cast<uint32_t>(ancestors.size()));
    // The steps weigh energies without the offset: Z with it is
    // exp(-beta offset) times that.
    const double beta_f = -run.log_z + run.beta * offset;
    info.set_beta_free_energy(beta_f);
    if (run.beta > 0) info.set_free_energy(beta_f / run.beta);
    std::sort(ancestors.begin(), ancestors.end());
    double sum_sq = 0;
    uint32_t families = 0;
    for (size_t k = 0; k < ancestors.size();) {
      size_t end = k;
      while (end < ancestors.size() && ancestors[end] == ancestors[k]) ++end;
      const double share =
          static_cast<double>(end - k) / static_cast<double>(ancestors.size());
      sum_sq += share * share;
      ++families;
      k = end;
    }
    info.set_families(families);
    info.set_rho_t(static_cast<double>(ancestors.size()) * sum_sq);
  }

  WorkerPool* const pool_;
};

}  // namespace

std::vector<int> ResampleCopies(std::span<const double> weights, int r,
                                v1::PaResampling rule, Xoshiro256& rng) {
  const size_t size = weights.size();
  std::vector<int> copies(size, 0);
  double sum = 0;
  for (double w : weights) sum += w;
  if (rule == v1::PA_RESAMPLING_MULTINOMIAL) {
    // Inverse-CDF draws over the cumulative weights.
    std::vector<double> cumulative(size);
    double acc = 0;
    for (size_t k = 0; k < size; ++k) cumulative[k] = acc += weights[k];
    for (int d = 0; d < r; ++d) {
      const double u = rng.NextDouble() * acc;
      const size_t k = std::min<size_t>(
          size - 1, std::upper_bound(cumulative.begin(), cumulative.end(), u) -
                        cumulative.begin());
      ++copies[k];
    }
    return copies;
  }
  int total = 0;
  for (size_t k = 0; k < size; ++k) {
    const double tau = r * weights[k] / sum;
    const double whole = std::floor(tau);
    copies[k] = static_cast<int>(whole) + (rng.NextDouble() < tau - whole);
    total += copies[k];
  }
  // Extinction (every tau below 1 and no draw hit): keep the heaviest member.
  if (total == 0)
    copies[std::max_element(weights.begin(), weights.end()) - weights.begin()] =
        1;
  return copies;
}

absl::Status CheckPaParams(const v1::PaParams& wire, uint32_t max_sweeps,
                           absl::string_view prefix) {
  if (wire.beta_hot() > 0 && wire.beta_cold() > 0 &&
      wire.beta_hot() > wire.beta_cold()) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".pa: beta_hot (", wire.beta_hot(),
                     ") must not exceed beta_cold (", wire.beta_cold(), ")"));
  }
  if (wire.sweeps_per_step() > max_sweeps) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".pa.sweeps_per_step: must be at most ",
                     max_sweeps, ", got ", wire.sweeps_per_step()));
  }
  return absl::OkStatus();
}

std::unique_ptr<Sampler> NewPaSampler(WorkerPool* pool) {
  return std::make_unique<PaSampler>(pool);
}

}  // namespace qs
