// PtSampler: the ladder loop (sweeps, swaps, energies, exchanges), ladders as
// pool tasks, and the backend's parameters and summary.
#include "core/sample/pt/pt_sampler.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/casts.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/sample/cpu_sa/cpu_sa_params.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/group_structure.h"
#include "core/sample/pt/group_moves.h"
#include "core/sample/pt/replica_kernel.h"
#include "core/sample/sample_util.h"
#include "core/sample/schedule.h"

namespace qs {
namespace {

// The ladder: replicas inverse temperatures, geometric from hot to cold (a
// constant exchange rate when the specific heat is flat).
std::vector<double> MakeLadder(BetaRange range, int replicas) {
  std::vector<double> betas(replicas);
  for (int k = 0; k < replicas; ++k) {
    betas[k] =
        replicas == 1
            ? range.cold
            : range.hot * std::pow(range.cold / range.hot,
                                   static_cast<double>(k) / (replicas - 1));
  }
  return betas;
}

// Work of one slice of a ladder's rounds, in lane-edge updates: at each slice
// boundary a ladder gives its thread to another request's waiting task (as
// cpu-sa's batches do). A ladder's replicas keep their streams, so where it
// yields never changes its result.
constexpr int64_t kLadderSliceWork = int64_t{1} << 25;

// How a ladder's run ended.
enum class LadderEnd { kDone, kInterrupted, kYielded };

// What one solve shares between its ladders.
struct LadderSetup {
  const Qubo* model = nullptr;
  const KernelModel* kernel_model = nullptr;
  const GroupMoves* groups = nullptr;  // null: single flips only
  KernelPath path = KernelPath::kScalar;
  std::vector<double> betas;
  const SampleParams* params = nullptr;
  // A ladder stops when its best state reaches this energy (offset included).
  double stop_energy = -std::numeric_limits<double>::infinity();
  // Rounds of one slice (kLadderSliceWork).
  int64_t slice_rounds = 1;
};

// Totals over the ladders of a solve.
struct LadderTotals {
  absl::Mutex mu;
  int reads_done = 0;
  int reads_cut_short = 0;
  int64_t rounds = 0;
  ReplicaCounters moves;
  std::vector<int64_t> exchange_proposed;
  std::vector<int64_t> exchange_accepted;
};

class Ladder {
 public:
  Ladder(const LadderSetup& setup, int index) : setup_(setup), index_(index) {
    const int replicas = static_cast<int>(setup.betas.size());
    const int lanes = KernelLanes(setup.path);
    const uint64_t seed = DeriveSeed(setup.params->seed, index);
    reads_.resize(replicas);
    for (int s = 0; s < replicas; ++s) InitRead(seed, s);
    for (int first = 0; first < replicas; first += lanes) {
      const int count = std::min(lanes, replicas - first);
      batches_.push_back(NewReplicaBatch(
          setup.path, *setup.kernel_model,
          std::span<const KernelRead>(reads_).subspan(first, count)));
    }
    exchange_rng_ = Xoshiro256(DeriveSeed(seed, replicas));
    energies_.resize(replicas);
    proposed_.assign(std::max(replicas - 1, 0), 0);
    accepted_.assign(std::max(replicas - 1, 0), 0);
  }

  // Runs the rounds up to `rounds` in all, from where an earlier call
  // stopped. Every `slice` rounds it asks `yield` (when set) and stops there
  // when it says so.
  LadderEnd Run(int64_t rounds, Interrupter& interrupter, int64_t slice = 0,
                const std::function<bool()>& yield = nullptr) {
    const int64_t first = rounds_done_;
    while (rounds_done_ < rounds) {
      if (slice > 0 && yield && rounds_done_ > first &&
          rounds_done_ % slice == 0 && yield()) {
        return LadderEnd::kYielded;
      }
      if (!SweepAll(interrupter)) {
        MeasureEnergies();
        return LadderEnd::kInterrupted;
      }
      const int64_t round = rounds_done_++;
      MeasureEnergies();
      if (best_energy_ <= setup_.stop_energy + 1e-9) return LadderEnd::kDone;
      Exchange(static_cast<int>(round & 1));
    }
    return LadderEnd::kDone;
  }

  int index() const { return index_; }
  // The best state visited, its exact energy; read once after Run.
  std::vector<uint8_t>& best_state() { return best_state_; }
  void AddTotals(LadderTotals& totals) const {
    absl::MutexLock lock(&totals.mu);
    totals.rounds += rounds_done_;
    for (const auto& batch : batches_) {
      const ReplicaCounters& c = batch->counters();
      totals.moves.attempts += c.attempts;
      totals.moves.accepted += c.accepted;
      totals.moves.swap_proposals += c.swap_proposals;
      totals.moves.swap_accepted += c.swap_accepted;
      totals.moves.exchange_proposals += c.exchange_proposals;
      totals.moves.exchange_accepted += c.exchange_accepted;
    }
    for (size_t k = 0; k < proposed_.size(); ++k) {
      totals.exchange_proposed[k] += proposed_[k];
      totals.exchange_accepted[k] += accepted_[k];
    }
  }

 private:
  void InitRead(uint64_t ladder_seed, int slot) {
    Xoshiro256 rng(DeriveSeed(ladder_seed, slot));
    const uint64_t replicas = setup_.betas.size();
    const int n = setup_.model->num_variables();
    std::vector<uint8_t>& state = reads_[slot].state;
    const std::vector<std::vector<uint8_t>>& given =
        setup_.params->initial_states;
    if (setup_.groups == nullptr || !setup_.groups->keeps_groups) {
      state = StartState(given, n, index_ * replicas + slot, rng);
    } else if (given.empty()) {
      // Group moves keep what holds: the replicas start inside the groups.
      GroupRespectingState(setup_.groups->structure, n, rng, state);
    } else {
      state = StartState(given, n, index_ * replicas + slot, rng);
      MoveIntoGroups(setup_.groups->structure, rng, state);
    }
    reads_[slot].rng_seed = rng.Next();
  }

  bool SweepAll(Interrupter& interrupter) {
    const int lanes = KernelLanes(setup_.path);
    std::vector<double> lane_betas(lanes);
    for (size_t b = 0; b < batches_.size(); ++b) {
      ReplicaBatch& batch = *batches_[b];
      for (int l = 0; l < batch.size(); ++l)
        lane_betas[l] = setup_.betas[rung_of_slot_[b * lanes + l]];
      batch.SetBetas(lane_betas);
      if (!(setup_.groups == nullptr
                ? batch.Sweep(interrupter)
                : GroupSweep(*setup_.groups, batch, interrupter))) {
        return false;
      }
    }
    return true;
  }

  void MeasureEnergies() {
    const int lanes = KernelLanes(setup_.path);
    for (size_t b = 0; b < batches_.size(); ++b) {
      batches_[b]->Energies(
          std::span<double>(energies_).subspan(b * lanes, batches_[b]->size()));
    }
    // The lowest energy, ties to the lowest replica id: the same choice
    // whatever lanes the replicas sit in.
    size_t best = 0;
    for (size_t s = 1; s < energies_.size(); ++s) {
      if (energies_[s] < energies_[best] ||
          (energies_[s] == energies_[best] &&
           replica_of_slot_[s] < replica_of_slot_[best])) {
        best = s;
      }
    }
    const double energy = energies_[best] + setup_.model->offset();
    if (energy >= best_kernel_energy_) return;
    best_kernel_energy_ = energy;
    batches_[best / lanes]->ReadState(static_cast<int>(best % lanes),
                                      best_state_);
    best_energy_ = setup_.model->Energy(best_state_);
  }

  // Proposes exchanges between rungs (k, k + 1) for every k of this parity:
  // accepted with min(1, exp((beta_k - beta_{k+1}) (E_k - E_{k+1}))).
  void Exchange(int parity) {
    const int replicas = static_cast<int>(setup_.betas.size());
    for (int k = parity; k + 1 < replicas; k += 2) {
      const int a = slot_at_rung_[k], c = slot_at_rung_[k + 1];
      const double log_p = (setup_.betas[k] - setup_.betas[k + 1]) *
                           (energies_[a] - energies_[c]);
      const double u = (exchange_rng_.Next() >> 11) * 0x1p-53;
      ++proposed_[k];
      if (log_p >= 0 || u < std::exp(log_p)) {
        ++accepted_[k];
        SwapRungs(k);
      }
    }
  }

  // Exchanges the replicas at rungs k and k + 1. Within a batch their lanes
  // trade temperatures; across batches the replicas trade lanes, so that each
  // batch keeps its own temperatures and a batch of cold rungs, whose flips
  // are rarely accepted, rarely pays for field updates. Both keep every
  // replica's state, stream and temperature together, so the samples are the
  // same on every SIMD path.
  void SwapRungs(int k) {
    const int lanes = KernelLanes(setup_.path);
    const int a = slot_at_rung_[k], c = slot_at_rung_[k + 1];
    if (a / lanes == c / lanes) {
      std::swap(slot_at_rung_[k], slot_at_rung_[k + 1]);
      rung_of_slot_[a] = k + 1;
      rung_of_slot_[c] = k;
      return;
    }
    batches_[a / lanes]->ExchangeReplicas(a % lanes, *batches_[c / lanes],
                                          c % lanes);
    std::swap(energies_[a], energies_[c]);
    std::swap(replica_of_slot_[a], replica_of_slot_[c]);
  }

  const LadderSetup& setup_;
  const int index_;
  std::vector<KernelRead> reads_;
  std::vector<std::unique_ptr<ReplicaBatch>> batches_;
  Xoshiro256 exchange_rng_{0};
  // Which slot (batch lane) holds each rung's temperature, and back.
  std::vector<int> slot_at_rung_ = InitialRungs();
  std::vector<int> rung_of_slot_ = InitialRungs();
  std::vector<int> replica_of_slot_ = InitialRungs();
  std::vector<double> energies_;
  std::vector<int64_t> proposed_, accepted_;
  int64_t rounds_done_ = 0;
  double best_kernel_energy_ = std::numeric_limits<double>::infinity();
  double best_energy_ = std::numeric_limits<double>::infinity();
  std::vector<uint8_t> best_state_;

  std::vector<int> InitialRungs() const {
    std::vector<int> rungs(setup_.betas.size());
    for (size_t k = 0; k < rungs.size(); ++k) rungs[k] = static_cast<int>(k);
    return rungs;
  }
};

class PtSampler final : public Sampler {
 public:
  explicit PtSampler(WorkerPool* pool) : pool_(pool) {}

  absl::string_view name() const override { return "pt"; }
  absl::string_view description() const override {
    return "parallel tempering on the server's CPU cores: a ladder of "
           "replicas per read, one per SIMD lane, with exchanges between "
           "neighbouring temperatures and moves over one-hot groups (swaps "
           "on puzzles; exchanges and reversals that keep them on "
           "constrained models)";
  }
  absl::string_view params_field() const override { return "pt"; }
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
    if (!params.has_pt()) return absl::OkStatus();
    const v1::PtParams& pt = params.pt();
    if (pt.beta_hot() > 0 && pt.beta_cold() > 0 &&
        pt.beta_hot() > pt.beta_cold()) {
      return absl::InvalidArgumentError(
          absl::StrCat(prefix, ".pt: beta_hot (", pt.beta_hot(),
                       ") must not exceed beta_cold (", pt.beta_cold(), ")"));
    }
    return absl::OkStatus();
  }

  // A ladder gains from running long (its cold rungs keep what the hot ones
  // find): unless the request sets num_sweeps, a read is kDefaultPtRounds
  // rounds.
  JobBudget Budget(const v1::SolveParams& params,
                   JobBudget defaults) const override {
    if (!params.has_num_sweeps()) defaults.num_sweeps = kDefaultPtRounds;
    // A round sweeps every replica.
    defaults.proposals_per_variable =
        params.pt().replicas() == 0 ? DefaultPtReplicas()
                                    : static_cast<int>(params.pt().replicas());
    return defaults;
  }

  absl::StatusOr<SampleStats> Sample(const Qubo& model,
                                     const SampleParams& params,
                                     SampleSink& sink,
                                     Interrupter& interrupter) const override {
    const absl::Time start = absl::Now();
    RETURN_IF_ERROR(
        CheckInitialStates(params.initial_states, model.num_variables()));
    const v1::PtParams wire =
        params.wire != nullptr ? params.wire->pt() : v1::PtParams();
    ASSIGN_OR_RETURN(const std::shared_ptr<const KernelModel> kernel_model,
                     CachedKernelModel(model, params.derived));
    LadderSetup setup;
    setup.model = &model;
    setup.kernel_model = kernel_model.get();
    setup.path = ResolveKernelPath(params.kernel);
    setup.params = &params;
    const std::shared_ptr<const GroupMoves> groups =
        SharedGroupMoves(*kernel_model, params, wire);
    if (groups != nullptr && !groups->empty()) setup.groups = groups.get();
    ASSIGN_OR_RETURN(
        const BetaRange range,
        LadderRange(model, *kernel_model, setup.groups, params, wire));
    setup.betas = MakeLadder(range, wire.replicas() == 0
                                        ? DefaultPtReplicas()
                                        : static_cast<int>(wire.replicas()));
    {
      int64_t round_work = 0;
      for (int64_t w : kernel_model->chunk_work) round_work += w;
      round_work *= static_cast<int64_t>(setup.betas.size());
      setup.slice_rounds = std::max<int64_t>(
          1, kLadderSliceWork / std::max<int64_t>(1, round_work));
    }
    if (params.known_ground_energy)
      setup.stop_energy = *params.known_ground_energy;
    if (params.target_energy)
      setup.stop_energy = std::max(setup.stop_energy, *params.target_energy);
    LadderTotals totals;
    totals.exchange_proposed.assign(setup.betas.size() - 1, 0);
    totals.exchange_accepted.assign(setup.betas.size() - 1, 0);
    std::atomic<int64_t> cpu_ns{0};
    RETURN_IF_ERROR(RunSteppedReads<Ladder>(
        *pool_, params.num_reads, interrupter,
        [&](int r) { return std::make_shared<Ladder>(setup, r); },
        [&](Ladder& ladder, const std::function<bool()>& yield) {
          return RunLadder(setup, ladder, sink, interrupter, totals, cpu_ns,
                           yield);
        }));
    return Stats(setup, range, totals, params, interrupter, start, cpu_ns);
  }

  void ApplyParams(const v1::SolveParams& wire,
                   SampleParams& params) const override {
    if (wire.has_pt()) params.kernel = KernelPathOf(wire.pt().kernel());
  }

 private:
  // PT_MOVES_DEFAULT keeps the groups on a constrained model, where the
  // optimum is sought among feasible states; on a puzzle, whose formulation
  // fixes the ground energy, single flips with swaps measured faster (a
  // board is reached through states that break a group on the way:
  // docs/parallel-tempering.md, "Moves that keep the groups").
  static std::shared_ptr<const GroupMoves> SharedGroupMoves(
      const KernelModel& kernel_model, const SampleParams& params,
      const v1::PtParams& wire) {
    if (wire.moves() == v1::PT_MOVES_SINGLE_FLIP ||
        params.one_hot_groups == nullptr || params.one_hot_groups->empty())
      return nullptr;
    const bool keep = wire.moves() == v1::PT_MOVES_DEFAULT &&
                      !params.known_ground_energy.has_value();
    return CachedGroupMoves(kernel_model, *params.one_hot_groups, keep,
                            params.derived);
  }

  // The request's ends where given, the tuned range's elsewhere: of the
  // group moves when they run (kept with the compiled problem: it costs a
  // few greedy descents).
  static absl::StatusOr<BetaRange> LadderRange(const Qubo& model,
                                               const KernelModel& kernel_model,
                                               const GroupMoves* groups,
                                               const SampleParams& params,
                                               const v1::PtParams& wire) {
    BetaRange range;
    if (wire.beta_hot() == 0 || wire.beta_cold() == 0) {
      range =
          groups != nullptr && groups->keeps_groups
              ? CachedGroupBetaRange(model, kernel_model, *groups,
                                     params.derived)
              : CachedBetaRange(BetaRangeRule::kTuned, model, params.derived);
    }
    if (wire.beta_hot() > 0) range.hot = wire.beta_hot();
    if (wire.beta_cold() > 0) range.cold = wire.beta_cold();
    if (!(range.hot > 0) || !(range.cold >= range.hot)) {
      return absl::InvalidArgumentError(
          absl::StrCat("params.pt: the ladder [", range.hot, ", ", range.cold,
                       "] is not a range of positive inverse temperatures"));
    }
    return range;
  }

  // Runs a ladder (or its next slice); false when it yielded its thread.
  // Its best state is delivered when it ends: also when the time limit, the
  // deadline or a cancel cut it short (the best it visited), not after a
  // reached target.
  static bool RunLadder(const LadderSetup& setup, Ladder& ladder,
                        SampleSink& sink, Interrupter& interrupter,
                        LadderTotals& totals, std::atomic<int64_t>& cpu_ns,
                        const std::function<bool()>& yield) {
    const int64_t cpu_start = ThreadCpuNanos();
    const LadderEnd end = ladder.Run(setup.params->num_sweeps, interrupter,
                                     setup.slice_rounds, yield);
    cpu_ns.fetch_add(ThreadCpuNanos() - cpu_start, std::memory_order_relaxed);
    if (end == LadderEnd::kYielded) return false;
    ladder.AddTotals(totals);
    const bool cut_short = end == LadderEnd::kInterrupted;
    if (cut_short && !DeliversCutShort(interrupter.reason())) return true;
    std::vector<uint8_t> bits = std::move(ladder.best_state());
    if (bits.size() != static_cast<size_t>(setup.model->num_variables()))
      return true;
    {
      absl::MutexLock lock(&totals.mu);
      ++totals.reads_done;
      if (cut_short) ++totals.reads_cut_short;
    }
    DeliverRead(*setup.model, *setup.params, std::move(bits),
                static_cast<uint32_t>(ladder.index()), sink, interrupter);
    return true;
  }

  SampleStats Stats(const LadderSetup& setup, BetaRange range,
                    LadderTotals& totals, const SampleParams& params,
                    Interrupter& interrupter, absl::Time start,
                    const std::atomic<int64_t>& cpu_ns) const {
    absl::MutexLock lock(&totals.mu);
    SampleStats stats;
    stats.stop_reason = interrupter.reason();
    stats.reads_done = totals.reads_done;
    stats.reads_cut_short = totals.reads_cut_short;
    stats.sweeps_done = totals.rounds;
    stats.spin_update_attempts = totals.moves.attempts;
    stats.accepted_flips = totals.moves.accepted;
    stats.seed = params.seed;
    stats.beta_hot = range.hot;
    stats.beta_cold = range.cold;
    stats.kernel = std::string(KernelPathName(setup.path));
    stats.lanes = KernelLanes(setup.path);
    stats.kernel_exact = setup.kernel_model->exact;
    stats.threads = pool_->num_threads();
    stats.elapsed = absl::Now() - start;
    stats.cpu_time = absl::Nanoseconds(cpu_ns.load());
    v1::BackendInfo& info = stats.info;
    info.set_beta_hot(range.hot);
    info.set_beta_cold(range.cold);
    info.set_threads(stats.threads);
    info.set_kernel(stats.kernel);
    info.set_lanes(stats.lanes);
    info.set_kernel_exact(stats.kernel_exact);
    info.set_moves(setup.groups != nullptr ? setup.groups->Names()
                                           : "single-flip");
    v1::PtInfo& pt = *info.mutable_pt();
    pt.set_replicas(static_cast<uint32_t>(setup.betas.size()));
    for (double beta : setup.betas) pt.add_betas(beta);
    for (size_t k = 0; k < totals.exchange_proposed.size(); ++k) {
      pt.add_exchange_rates(
          totals.exchange_proposed[k] == 0
              ? 0.0
              : static_cast<double>(totals.exchange_accepted[k]) /
                    totals.exchange_proposed[k]);
    }
    // Both kinds of group move: one-way swaps and two-way exchanges.
    pt.set_swap_proposals(totals.moves.swap_proposals +
                          totals.moves.exchange_proposals);
    pt.set_swap_accepted(totals.moves.swap_accepted +
                         totals.moves.exchange_accepted);
    return stats;
  }

  WorkerPool* const pool_;
};

}  // namespace

std::unique_ptr<Sampler> NewPtSampler(WorkerPool* pool) {
  return std::make_unique<PtSampler>(pool);
}

}  // namespace qs
