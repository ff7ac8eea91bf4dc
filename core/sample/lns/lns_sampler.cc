// LnsSampler: the iterated local search of one read (passes of windows,
// kicks, the kept local optimum), reads as pool tasks, and the summary.
#include "core/sample/lns/lns_sampler.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/lns/window_dp.h"
#include "core/sample/sample_util.h"

namespace qs {
namespace {

// Whether energy a lies below b by more than rounding.
bool Below(double a, double b) {
  return a < b - 1e-9 * (1 + std::abs(a) + std::abs(b));
}

// Variables of a breadth-first window before its frontier is checked.
constexpr int kBallCap = 2048;
// A kick elsewhere than on a lattice flips at most this many variables.
constexpr int kBallKickCap = 900;

// What one solve shares between its reads.
struct LnsSetup {
  const Qubo* model = nullptr;
  const std::optional<LatticeShape>* lattice = nullptr;
  const SampleParams* params = nullptr;
  // A read stops when its best state reaches this energy (offset included).
  double stop_energy = -std::numeric_limits<double>::infinity();
};

struct LnsTotals {
  absl::Mutex mu;
  int reads_done = 0;
  int reads_cut_short = 0;
  int64_t passes = 0;
  int64_t resolved = 0;  // window variables re-solved
  int64_t changed = 0;   // of which took another value
  int64_t kicks = 0;
  int64_t kicks_kept = 0;
};

enum class ReadEnd { kDone, kInterrupted, kYielded };

// The variables a breadth-first search from `seed` reaches, in its order, at
// most `cap`.
std::vector<int32_t> BreadthFirst(const Qubo& model, int32_t seed, int cap,
                                  std::vector<uint8_t>& seen) {
  std::vector<int32_t> order = {seed};
  seen[seed] = 1;
  for (size_t head = 0;
       head < order.size() && order.size() < static_cast<size_t>(cap); ++head) {
    for (const Neighbor& nb : model.neighbors(order[head])) {
      if (seen[nb.j]) continue;
      seen[nb.j] = 1;
      order.push_back(nb.j);
      if (order.size() == static_cast<size_t>(cap)) break;
    }
  }
  for (int32_t v : order) seen[v] = 0;
  return order;
}

// The longest prefix of a breadth-first order from `seed` whose frontier
// fits kLnsBallFrontier.
std::vector<int32_t> BallWindow(const Qubo& model, int32_t seed,
                                std::vector<uint8_t>& seen) {
  std::vector<int32_t> order = BreadthFirst(model, seed, kBallCap, seen);
  size_t fits = 1, size = order.size();
  while (fits < size) {  // the largest prefix that fits lies in [fits, size]
    const size_t mid = (fits + size + 1) / 2;
    if (WindowFrontier(model, std::span(order).first(mid)) <= kLnsBallFrontier)
      fits = mid;
    else
      size = mid - 1;
  }
  order.resize(fits);
  return order;
}

class SearchRead {
 public:
  SearchRead(const LnsSetup& setup, int index)
      : setup_(setup),
        model_(*setup.model),
        index_(index),
        optimizer_(model_),
        rng_(DeriveSeed(setup.params->seed, index)),
        seen_(model_.num_variables(), 0) {
    current_ = StartState(setup.params->initial_states, model_.num_variables(),
                          index, rng_);
    current_energy_ = model_.Energy(current_);
    best_ = current_;
    best_energy_ = current_energy_;
  }

  // Runs passes up to `passes` in all, from where an earlier call stopped;
  // between passes asks `yield` (when set) and stops there when it says so.
  ReadEnd Run(int64_t passes, Interrupter& interrupter,
              const std::function<bool()>& yield) {
    if (model_.num_variables() == 0) return ReadEnd::kDone;
    const int64_t first = passes_;
    while (passes_ < passes) {
      if (Reached()) return ReadEnd::kDone;
      if (yield && passes_ > first && yield()) return ReadEnd::kYielded;
      std::vector<uint8_t>& state = kicked_ ? candidate_ : current_;
      double& energy = kicked_ ? candidate_energy_ : current_energy_;
      const double before = energy;
      const bool whole = Pass(state, energy, interrupter);
      KeepBest(state, energy);
      if (!whole) return ReadEnd::kInterrupted;
      ++passes_;
      stall_ = Below(energy, before) ? 0 : stall_ + 1;
      if (stall_ >= kLnsStallPasses) EndDescent();
    }
    return ReadEnd::kDone;
  }

  int index() const { return index_; }
  std::vector<uint8_t>& best_state() { return best_; }
  void AddTotals(LnsTotals& totals) const {
    absl::MutexLock lock(&totals.mu);
    totals.passes += passes_;
    totals.resolved += resolved_;
    totals.changed += changed_;
    totals.kicks += kicks_;
    totals.kicks_kept += kicks_kept_;
  }

 private:
  // One pass of windows over `state`; false when the interrupter fired
  // between two windows.
  bool Pass(std::vector<uint8_t>& state, double& energy,
            Interrupter& interrupter) {
    for (const std::vector<int32_t>& window : PassWindows()) {
      if (interrupter.ShouldStop()) return false;
      energy += optimizer_.Optimize(window, state);
      resolved_ += static_cast<int64_t>(window.size());
      changed_ += optimizer_.changed();
    }
    return true;
  }

  std::vector<std::vector<int32_t>> PassWindows() {
    if (setup_.lattice->has_value()) {
      const LatticeShape& shape = **setup_.lattice;
      const bool transposed = rng_.Next() & 1;
      const int rows = transposed ? shape.cols : shape.rows;
      return StripWindows(shape, transposed, kLnsStripHeight,
                          static_cast<int>(rng_.NextBelow(rows)), rng_);
    }
    // As many windows as cover the model once when they do not overlap.
    std::vector<std::vector<int32_t>> windows;
    int64_t covered = 0;
    while (covered < model_.num_variables()) {
      const auto seed = static_cast<int32_t>(
          rng_.NextBelow(static_cast<uint64_t>(model_.num_variables())));
      windows.push_back(BallWindow(model_, seed, seen_));
      covered += static_cast<int64_t>(windows.back().size());
    }
    return windows;
  }

  // A descent ended: the kicked one's optimum replaces the kept one when no
  // worse; then a new kick of the kept one.
  void EndDescent() {
    if (kicked_) {
      ++kicks_;
      if (!Below(current_energy_, candidate_energy_)) {
        current_.swap(candidate_);
        current_energy_ = candidate_energy_;
        ++kicks_kept_;
      }
    }
    candidate_ = current_;
    for (int32_t v : KickRegion()) candidate_[v] ^= 1;
    candidate_energy_ = model_.Energy(candidate_);
    kicked_ = true;
    stall_ = 0;
  }

  std::vector<int32_t> KickRegion() {
    if (setup_.lattice->has_value())
      return RandomRectangle(**setup_.lattice, kLnsKickSide, rng_);
    const int most =
        std::max(2, std::min(kBallKickCap, model_.num_variables() / 4));
    const int size = 2 + static_cast<int>(rng_.NextBelow(most - 1));
    const auto seed = static_cast<int32_t>(
        rng_.NextBelow(static_cast<uint64_t>(model_.num_variables())));
    return BreadthFirst(model_, seed, size, seen_);
  }

  bool Reached() const {
    return std::isfinite(setup_.stop_energy) &&
           !Below(setup_.stop_energy, best_energy_);
  }

  // Keeps `state` when it is the best so far, with its exact energy (the
  // running energy sums the windows' changes).
  void KeepBest(const std::vector<uint8_t>& state, double& energy) {
    if (!Below(energy, best_energy_)) return;
    energy = model_.Energy(state);
    if (!Below(energy, best_energy_)) return;
    best_ = state;
    best_energy_ = energy;
  }

  const LnsSetup& setup_;
  const Qubo& model_;
  const int index_;
  WindowOptimizer optimizer_;
  Xoshiro256 rng_;
  std::vector<uint8_t> seen_;  // BreadthFirst's marks, all 0 between calls
  std::vector<uint8_t> current_, candidate_, best_;
  double current_energy_ = 0, candidate_energy_ = 0, best_energy_ = 0;
  bool kicked_ = false;  // descending from a kick (candidate_), not current_
  int stall_ = 0;
  int64_t passes_ = 0, resolved_ = 0, changed_ = 0, kicks_ = 0, kicks_kept_ = 0;
};

class LnsSampler final : public Sampler {
 public:
  explicit LnsSampler(WorkerPool* pool) : pool_(pool) {}

  absl::string_view name() const override { return "lns"; }
  absl::string_view description() const override {
    return "large-neighbourhood search on the server's CPU cores: windows of "
           "the model re-solved exactly by dynamic programming (strips of a "
           "2D lattice, breadth-first balls elsewhere), with random kicks "
           "between descents";
  }
  BackendCapabilities capabilities() const override {
    return {.exact = false,
            .deterministic = true,
            .interruptible = true,
            .remote = false,
            .max_variables = kMaxKernelVariables};
  }

  // A search gains from running long (each kick tries another region), and
  // reads are whole searches: unless the request sets them, one search per
  // worker thread of kDefaultLnsPasses passes.
  JobBudget Budget(const v1::SolveParams& params,
                   JobBudget defaults) const override {
    if (!params.has_num_sweeps()) defaults.num_sweeps = kDefaultLnsPasses;
    if (!params.has_num_reads()) defaults.num_reads = pool_->num_threads();
    return defaults;
  }

  absl::StatusOr<SampleStats> Sample(const Qubo& model,
                                     const SampleParams& params,
                                     SampleSink& sink,
                                     Interrupter& interrupter) const override {
    const absl::Time start = absl::Now();
    RETURN_IF_ERROR(
        CheckInitialStates(params.initial_states, model.num_variables()));
    const std::shared_ptr<const std::optional<LatticeShape>> lattice =
        CachedLattice(model, params.derived);
    LnsSetup setup;
    setup.model = &model;
    setup.lattice = lattice.get();
    setup.params = &params;
    if (params.known_ground_energy)
      setup.stop_energy = *params.known_ground_energy;
    if (params.target_energy)
      setup.stop_energy = std::max(setup.stop_energy, *params.target_energy);

    LnsTotals totals;
    std::atomic<int64_t> cpu_ns{0};
    RETURN_IF_ERROR(RunSteppedReads<SearchRead>(
        *pool_, params.num_reads, interrupter,
        [&](int r) { return std::make_shared<SearchRead>(setup, r); },
        [&](SearchRead& read, const std::function<bool()>& yield) {
          return RunRead(setup, read, sink, interrupter, totals, cpu_ns, yield);
        }));
    return Stats(setup, totals, params, interrupter, start, cpu_ns);
  }

 private:
  // Runs a read (or its next passes); false when it yielded its thread. Its
  // best state is delivered when it ends, also when a stop cut it short.
  static bool RunRead(const LnsSetup& setup, SearchRead& read, SampleSink& sink,
                      Interrupter& interrupter, LnsTotals& totals,
                      std::atomic<int64_t>& cpu_ns,
                      const std::function<bool()>& yield) {
    const int64_t cpu_start = ThreadCpuNanos();
    const ReadEnd end = read.Run(setup.params->num_sweeps, interrupter, yield);
    cpu_ns.fetch_add(ThreadCpuNanos() - cpu_start, std::memory_order_relaxed);
    if (end == ReadEnd::kYielded) return false;
    read.AddTotals(totals);
    const bool cut_short = end == ReadEnd::kInterrupted;
    if (cut_short && !DeliversCutShort(interrupter.reason())) return true;
    std::vector<uint8_t> bits = std::move(read.best_state());
    {
      absl::MutexLock lock(&totals.mu);
      ++totals.reads_done;
      if (cut_short) ++totals.reads_cut_short;
    }
    DeliverRead(*setup.model, *setup.params, std::move(bits),
                static_cast<uint32_t>(read.index()), sink, interrupter);
    return true;
  }

  SampleStats Stats(const LnsSetup& setup, LnsTotals& totals,
                    const SampleParams& params, Interrupter& interrupter,
                    absl::Time start,
                    const std::atomic<int64_t>& cpu_ns) const {
    absl::MutexLock lock(&totals.mu);
    SampleStats stats;
    stats.stop_reason = interrupter.reason();
    stats.reads_done = totals.reads_done;
    stats.reads_cut_short = totals.reads_cut_short;
    stats.sweeps_done = totals.passes;
    stats.spin_update_attempts = totals.resolved;
    stats.accepted_flips = totals.changed;
    stats.seed = params.seed;
    stats.kernel = "scalar";
    stats.threads = pool_->num_threads();
    stats.elapsed = absl::Now() - start;
    stats.cpu_time = absl::Nanoseconds(cpu_ns.load());
    v1::BackendInfo& info = stats.info;
    info.set_threads(stats.threads);
    info.set_kernel(stats.kernel);
    info.set_lanes(1);
    info.set_kernel_exact(true);
    const std::optional<LatticeShape>& lattice = *setup.lattice;
    info.set_moves(
        lattice.has_value()
            ? absl::StrCat("lattice ", lattice->rows, "x", lattice->cols,
                           ": strips of ", kLnsStripHeight,
                           " rows or columns; kicks: rectangles; ",
                           totals.kicks_kept, " of ", totals.kicks, " kept")
            : absl::StrCat("breadth-first windows (frontier <= ",
                           kLnsBallFrontier, "); kicks: balls; ",
                           totals.kicks_kept, " of ", totals.kicks, " kept"));
    return stats;
  }

  WorkerPool* const pool_;
};

}  // namespace

std::shared_ptr<const std::optional<LatticeShape>> CachedLattice(
    const Qubo& model, DerivedCache* derived) {
  auto make = [&] { return DetectLattice(model); };
  if (derived == nullptr)
    return std::make_shared<const std::optional<LatticeShape>>(make());
  return derived->GetOrMake<std::optional<LatticeShape>>("lns/lattice", make);
}

std::unique_ptr<Sampler> NewLnsSampler(WorkerPool* pool) {
  return std::make_unique<LnsSampler>(pool);
}

}  // namespace qs
