// The tabu search loop: move choice over the cost array, O(deg) updates.
#include "core/sample/tabu/tabu_search.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "core/base/rng.h"

namespace qs {
namespace {

// Energies compare with this slack: incremental sums drift by a few ulps.
constexpr double kEps = 1e-9;

// The search state of one restart.
class TabuRun {
 public:
  TabuRun(const Qubo& model, std::vector<uint8_t> start, uint64_t seed)
      : model_(model),
        n_(model.num_variables()),
        x_(std::move(start)),
        delta_(n_),
        tabu_until_(n_, 0),
        rng_(seed) {
    for (int i = 0; i < n_; ++i) {
      double field = model_.linear(i);
      for (const Neighbor& nb : model_.neighbors(i)) field += nb.w * x_[nb.j];
      delta_[i] = x_[i] ? -field : field;
    }
    energy_ = model_.Energy(x_);
    best_ = x_;
    best_energy_ = energy_;
  }

  // The variable to flip at move `move`: the lowest cost among the free
  // variables, or a tabu one whose flip reaches below the best.
  int Choose(int64_t move) {
    double free_min = std::numeric_limits<double>::infinity();
    double any_min = free_min;
    int free_at = -1, any_at = -1, ties = 0;
    const double* delta = delta_.data();
    const int64_t* until = tabu_until_.data();
    for (int i = 0; i < n_; ++i) {
      const double d = delta[i];
      if (d < any_min) any_min = d, any_at = i;
      if (until[i] > move || d > free_min) continue;
      if (d < free_min) {
        free_min = d, free_at = i, ties = 1;
      } else if (rng_.NextBelow(++ties) == 0) {
        free_at = i;
      }
    }
    if (any_at >= 0 && energy_ + any_min < best_energy_ - kEps &&
        any_min < free_min)
      return any_at;
    return free_at;
  }

  void Flip(int i, int64_t move, int tenure) {
    const double s = x_[i] ? -1.0 : 1.0;  // x_i' - x_i
    energy_ += delta_[i];
    x_[i] ^= 1;
    delta_[i] = -delta_[i];
    for (const Neighbor& nb : model_.neighbors(i))
      delta_[nb.j] += (x_[nb.j] ? -s : s) * nb.w;
    tabu_until_[i] = move + 1 + tenure;
    if (energy_ < best_energy_ - kEps) {
      best_energy_ = energy_;
      best_ = x_;
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
  const Qubo& model_;
  const int n_;
  std::vector<uint8_t> x_;
  std::vector<double> delta_;
  std::vector<int64_t> tabu_until_;
  Xoshiro256 rng_;
  double energy_ = 0;
  std::vector<uint8_t> best_;
  double best_energy_ = 0;
  int64_t improved_at_ = 0;
};

}  // namespace

TabuRunResult RunTabu(const Qubo& model, std::vector<uint8_t> start,
                      uint64_t seed, const TabuRunOptions& options,
                      Interrupter& interrupter) {
  const int n = model.num_variables();
  TabuRun run(model, std::move(start), seed);
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
    run.Flip(i, move, options.tenure);
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
