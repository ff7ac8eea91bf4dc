// TabuSampler: restart rounds as pool tasks, the elite, parameter checks.
#include "core/sample/tabu/tabu_sampler.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/sample/group_structure.h"
#include "core/sample/pt/group_moves.h"
#include "core/sample/sample_util.h"
#include "core/sample/tabu/group_tabu_search.h"
#include "core/sample/tabu/tabu_search.h"

namespace qs {
namespace {

// The options of a request, defaults filled in.
struct TabuOptions {
  int tenure = 1;
  int64_t stall_moves = 0;
  int64_t max_moves = 0;
  int elite_size =
      static_cast<int>(StatedDefault<v1::TabuParams>("elite_size"));
  double perturbation = StatedDefault<v1::TabuParams>("perturbation");
};

// `groups`: the structure the moves keep, or null for single flips. A sweep
// is n moves of single flips, GroupTabuUnits of group moves (each unit moved
// about once).
TabuOptions ResolveOptions(const v1::TabuParams& wire, int n, int num_sweeps,
                           const GroupStructure* groups) {
  TabuOptions options;
  const int64_t sweep = groups != nullptr ? GroupTabuUnits(*groups) : n;
  if (groups != nullptr) {
    // A group move is tabu only when every variable it sets was flipped
    // recently, so no tenure leaves every move tabu.
    options.tenure = wire.tenure() > 0 ? static_cast<int>(wire.tenure())
                                       : DefaultGroupTabuTenure(*groups);
  } else {
    options.tenure = wire.tenure() > 0 ? static_cast<int>(std::min<int64_t>(
                                             wire.tenure(), std::max(0, n - 1)))
                                       : DefaultTabuTenure(n);
  }
  const int64_t stall =
      wire.stall_sweeps() > 0
          ? int64_t{wire.stall_sweeps()}
          : static_cast<int64_t>(StatedDefault<v1::TabuParams>("stall_sweeps"));
  options.stall_moves = std::max<int64_t>(1, stall * sweep);
  options.max_moves = int64_t{num_sweeps} * sweep;
  if (wire.elite_size() > 0) options.elite_size = wire.elite_size();
  if (wire.perturbation() > 0) options.perturbation = wire.perturbation();
  return options;
}

// The best distinct restart results so far, lowest energy first (ties: the
// earlier restart).
class Elite {
 public:
  explicit Elite(int capacity) : capacity_(capacity) {}

  void Add(const std::vector<uint8_t>& state, double energy) {
    for (const auto& [e, s] : members_)
      if (s == state) return;
    auto at = std::upper_bound(
        members_.begin(), members_.end(), energy,
        [](double value, const auto& member) { return value < member.first; });
    members_.insert(at, {energy, state});
    if (static_cast<int>(members_.size()) > capacity_) members_.pop_back();
  }
  bool empty() const { return members_.empty(); }
  const std::vector<uint8_t>& at(size_t k) const {
    return members_[k % members_.size()].second;
  }

 private:
  const int capacity_;
  std::vector<std::pair<double, std::vector<uint8_t>>> members_;
};

// Flips max(1, round(share * n)) distinct variables of `state`, chosen by
// `rng`.
void Perturb(std::vector<uint8_t>& state, double share, Xoshiro256& rng) {
  const int n = static_cast<int>(state.size());
  const int flips =
      std::clamp(static_cast<int>(std::lround(share * n)), 1, std::max(1, n));
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  for (int k = 0; k < flips && k < n; ++k) {
    std::swap(order[k], order[k + rng.NextBelow(n - k)]);
    state[order[k]] ^= 1;
  }
}

class TabuSampler final : public Sampler {
 public:
  explicit TabuSampler(WorkerPool* pool) : pool_(pool) {}

  absl::string_view name() const override { return "tabu"; }
  absl::string_view description() const override {
    return "multistart tabu search: best-improvement single flips with a tabu "
           "tenure and aspiration, restarts from random or elite-perturbed "
           "states (reads are restarts)";
  }
  absl::string_view params_field() const override { return "tabu"; }
  BackendCapabilities capabilities() const override {
    return {.exact = false,
            .deterministic = true,
            .interruptible = true,
            .remote = false};
  }

  absl::Status CheckParams(const v1::SolveParams& params,
                           const ParamLimits& limits,
                           absl::string_view prefix) const override {
    if (!params.has_tabu()) return absl::OkStatus();
    return CheckTabuParams(params.tabu(), limits.max_sweeps, prefix);
  }

  absl::StatusOr<SampleStats> Sample(const Qubo& model,
                                     const SampleParams& params,
                                     SampleSink& sink,
                                     Interrupter& interrupter) const override {
    const absl::Time start = absl::Now();
    const int n = model.num_variables();
    RETURN_IF_ERROR(CheckInitialStates(params.initial_states, n));
    const v1::TabuParams wire =
        params.wire != nullptr ? params.wire->tabu() : v1::TabuParams();
    // With group moves restarts start inside the groups, elite states are
    // perturbed by random group moves and every move keeps them.
    const std::shared_ptr<const GroupStructure> groups =
        RequestedGroupStructure(wire.group_moves(), n, params,
                                GroupMovesDefault::kEverywhere);
    const TabuOptions options =
        ResolveOptions(wire, n, params.num_sweeps, groups.get());
    TabuRunOptions run_options{.tenure = options.tenure,
                               .max_moves = options.max_moves,
                               .stall_moves = options.stall_moves,
                               .target_energy = params.target_energy};

    Elite elite(options.elite_size);
    std::atomic<int> reads_done{0}, restarts{0}, elite_restarts{0},
        cut_short{0};
    std::atomic<int64_t> moves{0}, attempts{0}, cpu_ns{0};
    std::vector<std::optional<std::pair<double, std::vector<uint8_t>>>>
        round_best;
    // Restart r: its start, the search, its sample. Writes round_best[slot].
    auto run_restart = [&](int r, int slot) {
      if (interrupter.ShouldStop()) return;
      Xoshiro256 rng(DeriveSeed(params.seed, static_cast<uint64_t>(r)));
      std::vector<uint8_t> state;
      if (r >= kTabuRoundSize && r % 2 == 1 && !elite.empty()) {
        state = elite.at(r / 2);
        if (groups != nullptr) {
          PerturbInGroups(*groups, options.perturbation, rng, state);
        } else {
          Perturb(state, options.perturbation, rng);
        }
        elite_restarts.fetch_add(1, std::memory_order_relaxed);
      } else {
        state = StartState(params.initial_states, n, r, rng);
        if (groups != nullptr) MoveIntoGroups(*groups, rng, state);
      }
      const int64_t cpu_start = ThreadCpuNanos();
      TabuRunResult run =
          groups != nullptr ? RunGroupTabu(model, *groups, std::move(state),
                                           rng.Next(), run_options, interrupter)
                            : RunTabu(model, std::move(state), rng.Next(),
                                      run_options, interrupter);
      cpu_ns.fetch_add(ThreadCpuNanos() - cpu_start, std::memory_order_relaxed);
      restarts.fetch_add(1, std::memory_order_relaxed);
      moves.fetch_add(run.moves, std::memory_order_relaxed);
      attempts.fetch_add(run.attempts, std::memory_order_relaxed);
      // A restart cut short delivers the best it found (DeliversCutShort).
      if (run.interrupted && !DeliversCutShort(interrupter.reason())) return;
      if (run.interrupted) cut_short.fetch_add(1, std::memory_order_relaxed);
      reads_done.fetch_add(1, std::memory_order_relaxed);
      if (params.target_energy &&
          run.best_energy <= *params.target_energy + 1e-9) {
        interrupter.Interrupt(StopReason::kTargetReached);
      }
      round_best[slot] = {run.best_energy, run.best};
      sink.OnSample(
          {std::move(run.best), run.best_energy, static_cast<uint32_t>(r), 1});
    };
    for (int first = 0; first < params.num_reads && !interrupter.ShouldStop();
         first += kTabuRoundSize) {
      const int count = std::min(kTabuRoundSize, params.num_reads - first);
      round_best.assign(count, std::nullopt);
      auto group = pool_->NewGroup();
      for (int k = 0; k < count; ++k)
        group->Submit([&run_restart, first, k] { run_restart(first + k, k); });
      RETURN_IF_ERROR(group->Wait());
      for (const auto& result : round_best)
        if (result) elite.Add(result->second, result->first);
    }

    SampleStats stats;
    stats.stop_reason = interrupter.reason();
    stats.reads_done = reads_done.load();
    stats.reads_cut_short = cut_short.load();
    const int64_t sweep = groups != nullptr ? GroupTabuUnits(*groups) : n;
    stats.sweeps_done = sweep > 0 ? moves.load() / sweep : 0;
    stats.spin_update_attempts = attempts.load();
    stats.accepted_flips = moves.load();
    stats.seed = params.seed;
    stats.threads = pool_->num_threads();
    stats.elapsed = absl::Now() - start;
    stats.cpu_time = absl::Nanoseconds(cpu_ns.load());
    v1::TabuInfo& info = *stats.info.mutable_tabu();
    info.set_tenure(options.tenure);
    info.set_restarts(restarts.load());
    info.set_elite_restarts(elite_restarts.load());
    info.set_moves(moves.load());
    stats.info.set_threads(stats.threads);
    stats.info.set_moves(groups != nullptr ? MoveNames(*groups)
                                           : "single-flip");
    return stats;
  }

 private:
  WorkerPool* const pool_;
};

}  // namespace

int DefaultTabuTenure(int n) {
  return std::max(0, std::min({20, std::max(1, n / 4), n - 1}));
}

absl::Status CheckTabuParams(const v1::TabuParams& wire, uint32_t max_sweeps,
                             absl::string_view prefix) {
  if (wire.stall_sweeps() > max_sweeps) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".tabu.stall_sweeps: must be at most ", max_sweeps,
                     ", got ", wire.stall_sweeps()));
  }
  return absl::OkStatus();
}

std::unique_ptr<Sampler> NewTabuSampler(WorkerPool* pool) {
  return std::make_unique<TabuSampler>(pool);
}

}  // namespace qs
