// The tabu search loop: a vectorised scan of the cost array for the move,
// O(deg) updates, the restart's best state kept up to date from a log of the
// flips since the previous best.
#include "core/sample/tabu/tabu_search.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include "core/base/rng.h"

namespace qs {
namespace {

// Energies compare with this slack: incremental sums drift by a few ulps.
constexpr double kEps = 1e-9;
constexpr double kInf = std::numeric_limits<double>::infinity();

// The scan keeps kScanLanes running minima: lane l sees the variables
// i = l (mod kScanLanes) on every path, so its result does not depend on the
// CPU. The arrays are padded to a multiple of kScanLanes with +inf costs.
constexpr int kScanLanes = 16;

// What one scan of the costs finds, per lane: the lowest of delta_i +
// penalty_i (penalty: 0 when free, +inf when tabu, so the sum is delta_i or
// +inf exactly), how many variables of the lane reach it, and the lowest
// delta_i of all.
struct ScanResult {
  double free_min[kScanLanes];
  int64_t ties[kScanLanes];
  double any_min[kScanLanes];
};

// The scan with vectors of W doubles. Inlined into one function per
// instruction set: GCC keeps vector code only at the target's native width.
template <int W>
[[gnu::always_inline]] inline void ScanLanes(const double* __restrict delta,
                                             const double* __restrict penalty,
                                             int64_t padded,
                                             ScanResult& result) {
  typedef double V __attribute__((vector_size(8 * W)));
  typedef int64_t M __attribute__((vector_size(8 * W)));
  // to = mask ? from : to, lane-wise, by bits: GCC lowers a vector ?: to
  // scalar code. By reference: vector arguments would warn of their ABI.
  auto take = [](const M& mask, const V& from, V& to) {
    to = __builtin_bit_cast(V, (__builtin_bit_cast(M, from) & mask) |
                                   (__builtin_bit_cast(M, to) & ~mask));
  };
  constexpr int kParts = kScanLanes / W;
  V low[kParts], all[kParts];
  M ties[kParts];
  for (int a = 0; a < kParts; ++a) low[a] = all[a] = V{} + kInf, ties[a] = M{};
  for (int64_t i = 0; i < padded; i += kScanLanes) {
    for (int a = 0; a < kParts; ++a) {
      V d, p;
      std::memcpy(&d, delta + i + a * W, sizeof d);
      std::memcpy(&p, penalty + i + a * W, sizeof p);
      const V v = d + p;
      const M below = v < low[a];
      const M equal = v == low[a];
      take(below, v, low[a]);
      ties[a] = ((ties[a] - equal) & ~below) | (below & 1);
      take(d < all[a], d, all[a]);
    }
  }
  for (int a = 0; a < kParts; ++a) {
    std::memcpy(result.free_min + a * W, &low[a], sizeof low[a]);
    std::memcpy(result.ties + a * W, &ties[a], sizeof ties[a]);
    std::memcpy(result.any_min + a * W, &all[a], sizeof all[a]);
  }
}

using ScanFn = void (*)(const double*, const double*, int64_t, ScanResult&);

void ScanBaseline(const double* delta, const double* penalty, int64_t padded,
                  ScanResult& result) {
  ScanLanes<2>(delta, penalty, padded, result);
}

#if defined(__x86_64__)
[[gnu::target("avx2")]] void ScanAvx2(const double* delta,
                                      const double* penalty, int64_t padded,
                                      ScanResult& result) {
  ScanLanes<4>(delta, penalty, padded, result);
}

[[gnu::target("avx512f")]] void ScanAvx512(const double* delta,
                                           const double* penalty,
                                           int64_t padded, ScanResult& result) {
  ScanLanes<8>(delta, penalty, padded, result);
}
#endif

// The widest scan this CPU runs.
ScanFn ResolveScan() {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f")) return ScanAvx512;
  if (__builtin_cpu_supports("avx2")) return ScanAvx2;
#endif
  return ScanBaseline;
}

// The search state of one restart.
class TabuRun {
 public:
  TabuRun(const Qubo& model, std::vector<uint8_t> start, uint64_t seed,
          int64_t tenure)
      : model_(model),
        n_(model.num_variables()),
        padded_((n_ + kScanLanes - 1) / kScanLanes * kScanLanes),
        tenure_(tenure),
        x_(std::move(start)),
        delta_(padded_, kInf),
        penalty_(padded_, 0.0),
        tabu_until_(n_, 0),
        flipped_at_(tenure + 1, -1),
        rng_(seed),
        scan_(ResolveScan()) {
    for (int i = 0; i < n_; ++i) {
      double field = model_.linear(i);
      for (const Neighbor& nb : model_.neighbors(i)) field += nb.w * x_[nb.j];
      delta_[i] = x_[i] ? -field : field;
    }
    energy_ = model_.Energy(x_);
    best_ = x_;
    best_energy_ = energy_;
    since_best_.reserve(n_);
  }

  // The variable to flip at move `move`: the lowest cost among the free
  // variables (ties uniformly at random), or a tabu one whose flip reaches
  // below the best and costs less (aspiration).
  int Choose(int64_t move) {
    // The variable flipped tenure + 1 moves ago is free again, unless it was
    // flipped once more since.
    const int expiring = flipped_at_[slot_];
    if (expiring >= 0 && tabu_until_[expiring] <= move) penalty_[expiring] = 0;
    ScanResult scan;
    scan_(delta_.data(), penalty_.data(), padded_, scan);
    double free_min = kInf, any_min = kInf;
    for (int l = 0; l < kScanLanes; ++l) {
      free_min = std::min(free_min, scan.free_min[l]);
      any_min = std::min(any_min, scan.any_min[l]);
    }
    if (any_min < free_min && energy_ + any_min < best_energy_ - kEps)
      return Aspired(any_min);
    if (free_min == kInf) return -1;
    int64_t ties = 0;
    for (int l = 0; l < kScanLanes; ++l)
      if (scan.free_min[l] == free_min) ties += scan.ties[l];
    // The k-th tie in lane order (lane, then index): uniform over the ties.
    int64_t k = ties > 1 ? static_cast<int64_t>(rng_.NextBelow(ties)) : 0;
    int lane = 0;
    for (; scan.free_min[lane] != free_min || k >= scan.ties[lane]; ++lane)
      if (scan.free_min[lane] == free_min) k -= scan.ties[lane];
    for (int i = lane;; i += kScanLanes) {
      if (delta_[i] + penalty_[i] == free_min && k-- == 0) return i;
    }
  }

  void Flip(int i, int64_t move) {
    const double s = x_[i] ? -1.0 : 1.0;  // x_i' - x_i
    energy_ += delta_[i];
    x_[i] ^= 1;
    delta_[i] = -delta_[i];
    double* delta = delta_.data();
    const uint8_t* x = x_.data();
    for (const Neighbor& nb : model_.neighbors(i)) {
      const double step = s * nb.w;
      delta[nb.j] += x[nb.j] ? -step : step;
    }
    tabu_until_[i] = move + 1 + tenure_;
    if (tenure_ > 0) penalty_[i] = kInf;
    flipped_at_[slot_] = i;
    slot_ = slot_ == tenure_ ? 0 : slot_ + 1;
    Log(i);
    if (energy_ < best_energy_ - kEps) {
      best_energy_ = energy_;
      RecordBest();
      improved_at_ = move;
    }
  }

  int64_t degree(int i) const {
    return static_cast<int64_t>(model_.neighbors(i).size());
  }
  double best_energy() const { return best_energy_; }
  int64_t improved_at() const { return improved_at_; }
  std::vector<uint8_t>& best() { return best_; }

 private:
  // The tabu variable flipped by aspiration: the lowest index at cost
  // any_min, which only tabu variables reach. The tabu variables are among
  // the last tenure + 1 flipped.
  int Aspired(double any_min) const {
    int at = -1;
    for (const int j : flipped_at_) {
      if (j >= 0 && penalty_[j] != 0 && delta_[j] == any_min &&
          (at < 0 || j < at))
        at = j;
    }
    return at;
  }

  // The flips since the best state was recorded, while there are fewer than
  // n / 8 of them: past that, the next best copies the whole state, which
  // costs less than replaying them.
  void Log(int i) {
    if (log_full_) return;
    if (static_cast<int>(since_best_.size()) >= n_ / 8) {
      log_full_ = true;
      since_best_.clear();
      return;
    }
    since_best_.push_back(i);
  }

  // best_ becomes x_: by replaying the logged flips, or by a copy.
  void RecordBest() {
    if (log_full_) {
      best_ = x_;
    } else {
      for (int j : since_best_) best_[j] ^= 1;
    }
    since_best_.clear();
    log_full_ = false;
  }

  const Qubo& model_;
  const int n_;
  const int64_t padded_;
  const int64_t tenure_;
  std::vector<uint8_t> x_;
  // Flip costs, padded with +inf to a multiple of kScanLanes.
  std::vector<double> delta_;
  // 0 for a free variable, +inf for a tabu one (and the padding's 0).
  std::vector<double> penalty_;
  std::vector<int64_t> tabu_until_;
  // flipped_at_[t % (tenure + 1)]: the variable flipped at move t (-1 before
  // the first moves); slot_ is that index for the current move.
  std::vector<int> flipped_at_;
  int64_t slot_ = 0;
  Xoshiro256 rng_;
  const ScanFn scan_;
  double energy_ = 0;
  std::vector<uint8_t> best_;
  std::vector<int> since_best_;
  bool log_full_ = false;
  double best_energy_ = 0;
  int64_t improved_at_ = 0;
};

}  // namespace

TabuRunResult RunTabu(const Qubo& model, std::vector<uint8_t> start,
                      uint64_t seed, const TabuRunOptions& options,
                      Interrupter& interrupter) {
  const int n = model.num_variables();
  // A variable tabu past the last move is as good as tabu forever.
  const int64_t tenure = std::clamp<int64_t>(
      options.tenure, 0, std::max<int64_t>(0, options.max_moves));
  TabuRun run(model, std::move(start), seed, tenure);
  TabuRunResult result;
  auto reached = [&] {
    return options.target_energy &&
           run.best_energy() <= *options.target_energy + kEps;
  };
  int64_t work = 0;
  for (int64_t move = 0; n > 0 && move < options.max_moves && !reached() &&
                         move - run.improved_at() < options.stall_moves;
       ++move) {
    const int i = run.Choose(move);
    if (i < 0) break;  // every variable tabu: only when tenure >= n
    run.Flip(i, move);
    ++result.moves;
    work += n + run.degree(i);
    if (work >= kTabuPollWork) {
      work = 0;
      if (interrupter.ShouldStop()) {
        result.interrupted = true;
        break;
      }
    }
  }
  result.attempts = result.moves * n;
  result.best_energy = model.Energy(run.best());
  result.best = std::move(run.best());
  return result;
}

}  // namespace qs
