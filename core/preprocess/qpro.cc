// The QPRO+ rules on a mutable copy of the model (sorted adjacency vectors),
// driven by a work list of variables whose neighbourhood changed.
#include "core/preprocess/qpro.h"

#include <algorithm>
#include <array>
#include <deque>
#include <utility>
#include <vector>

namespace qs {
namespace {

// What a removed variable became: a constant, or a literal of another
// variable (x = y or x = 1 - y).
struct Substitution {
  int target = -1;  // -1: the constant `value`
  uint8_t value = 0;
};

// Joint values of a pair (x_i, x_h) as 2 x_i + x_h.
int StateI(int state) { return state >> 1; }
int StateH(int state) { return state & 1; }

// The sums of the negative and of the positive couplings of a variable.
struct Bounds {
  double negative = 0;
  double positive = 0;
  void Add(double w) { (w > 0 ? positive : negative) += w; }
};

class Reducer {
 public:
  Reducer(const Qubo& model, const QproOptions& options);

  void Run();
  absl::StatusOr<VariableMap> Map() const;

 private:
  using Row = std::vector<Neighbor>;  // sorted by j

  void Push(int v) {
    if (alive_[v] && !queued_[v]) {
      queued_[v] = true;
      queue_.push_back(v);
    }
  }
  void PushNeighbours(int v) {
    for (const Neighbor& nb : adjacency_[v]) Push(nb.j);
  }
  Row::iterator Find(int i, int j) {
    Row& row = adjacency_[i];
    return std::lower_bound(
        row.begin(), row.end(), j,
        [](const Neighbor& nb, int key) { return nb.j < key; });
  }
  void Erase(int i, int j) {
    auto it = Find(i, j);
    if (it != adjacency_[i].end() && it->j == j) adjacency_[i].erase(it);
  }
  void AddHalf(int i, int j, double w);
  void AddCoupling(int i, int j, double w) {
    AddHalf(i, j, w);
    AddHalf(j, i, w);
  }
  void Remove(int v, Substitution s) {
    alive_[v] = false;
    adjacency_[v].clear();
    adjacency_[v].shrink_to_fit();
    substitution_[v] = s;
    removed_.push_back(v);
  }

  void Fix(int v, int value);
  void Merge(int h, int i, bool negated);
  bool SingleRule(int i);
  void PairRules(int i);
  bool PairRule(int i, const Bounds& own, int h, double b);
  bool ApplyKept(int i, int h, const std::array<bool, 4>& kept);

  std::vector<double> linear_;
  std::vector<Row> adjacency_;
  std::vector<bool> alive_;
  std::vector<Substitution> substitution_;
  std::vector<int> removed_;  // in the order of removal
  std::vector<bool> queued_;
  std::deque<int> queue_;
  int64_t budget_;
  // The couplings of the variable whose pairs are being checked, by
  // neighbour: valid where mark_ equals stamp_.
  std::vector<int64_t> mark_;
  std::vector<double> marked_weight_;
  int64_t stamp_ = 0;
};

Reducer::Reducer(const Qubo& model, const QproOptions& options)
    : linear_(model.linear_terms()),
      adjacency_(model.num_variables()),
      alive_(model.num_variables(), true),
      substitution_(model.num_variables()),
      queued_(model.num_variables(), true),
      budget_(options.pair_work_budget),
      mark_(model.num_variables(), -1),
      marked_weight_(model.num_variables(), 0) {
  for (int i = 0; i < model.num_variables(); ++i) {
    const auto neighbours = model.neighbors(i);
    adjacency_[i].assign(neighbours.begin(), neighbours.end());
    queue_.push_back(i);
  }
}

void Reducer::Run() {
  while (!queue_.empty()) {
    const int i = queue_.front();
    queue_.pop_front();
    queued_[i] = false;
    if (alive_[i] && !SingleRule(i)) PairRules(i);
  }
}

void Reducer::AddHalf(int i, int j, double w) {
  auto it = Find(i, j);
  if (it != adjacency_[i].end() && it->j == j) {
    it->w += w;
    if (it->w == 0) adjacency_[i].erase(it);
  } else {
    adjacency_[i].insert(it, {j, w});
  }
}

void Reducer::Fix(int v, int value) {
  PushNeighbours(v);
  for (const Neighbor& nb : adjacency_[v]) {
    Erase(nb.j, v);
    if (value == 1) linear_[nb.j] += nb.w;
  }
  Remove(v, {-1, static_cast<uint8_t>(value)});
}

// x_h = x_i, or x_h = 1 - x_i when negated; the energy of every assignment
// of the rest is kept up to a constant (the a_h of the negated case, which
// ApplyVariableMap restores exactly).
void Reducer::Merge(int h, int i, bool negated) {
  PushNeighbours(h);
  Push(i);
  const Row couplings = std::move(adjacency_[h]);
  Erase(i, h);
  double b = 0;
  for (const Neighbor& nb : couplings) {
    if (nb.j == i) b = nb.w;
  }
  // x_h = x_i: a_h x_i + b_ih x_i. x_h = 1 - x_i: a_h (1 - x_i), and
  // b_ih x_i (1 - x_i) = 0.
  linear_[i] += negated ? -linear_[h] : linear_[h] + b;
  for (const Neighbor& nb : couplings) {
    if (nb.j == i) continue;
    Erase(nb.j, h);
    if (negated) {
      linear_[nb.j] += nb.w;  // b_hj (1 - x_i) x_j
      AddCoupling(i, nb.j, -nb.w);
    } else {
      AddCoupling(i, nb.j, nb.w);
    }
  }
  Remove(h, {i, static_cast<uint8_t>(negated ? 1 : 0)});
}

// The flip cost a_i + sum_j b_ij x_j lies in [a_i + N_i, a_i + P_i]: when it
// is never negative x_i = 0 costs no more than x_i = 1 whatever the rest
// holds; when never positive, x_i = 1.
bool Reducer::SingleRule(int i) {
  Bounds bounds;
  for (const Neighbor& nb : adjacency_[i]) bounds.Add(nb.w);
  if (linear_[i] + bounds.negative >= 0) {
    Fix(i, 0);
  } else if (linear_[i] + bounds.positive <= 0) {
    Fix(i, 1);
  } else {
    return false;
  }
  return true;
}

void Reducer::PairRules(int i) {
  ++stamp_;
  Bounds own;
  for (const Neighbor& nb : adjacency_[i]) {
    mark_[nb.j] = stamp_;
    marked_weight_[nb.j] = nb.w;
    own.Add(nb.w);
  }
  // The row changes when a rule applies, and then the pass ends.
  const Row neighbours = adjacency_[i];
  for (const Neighbor& nb : neighbours) {
    if (budget_ <= 0) return;
    if (PairRule(i, own, nb.j, nb.w)) return;
  }
}

// For the joint values s, t of (x_i, x_h) and the rest y, E(s, y) - E(t, y)
// = e(s) - e(t) + sum_j (di b_ij + dh b_hj) y_j with (di, dh) = s - t; its
// minimum over y adds low(di, dh) = sum_j min(0, di b_ij + dh b_hj). The
// sums split into the bounds of each variable alone plus a correction over
// the shared neighbours, so one pass over h's row (i's is marked) gives all.
bool Reducer::PairRule(int i, const Bounds& own, int h, double b) {
  const Row& row = adjacency_[h];
  budget_ -= static_cast<int64_t>(row.size());
  Bounds other;
  // Corrections of sum min(0, ci + ch), sum max(0, ci + ch), sum min(0, ci -
  // ch) and sum min(0, ch - ci) over the shared neighbours.
  double plus_low = 0, plus_high = 0, minus_low = 0, minus_high = 0;
  for (const Neighbor& nb : row) {
    if (nb.j == i) continue;
    const double ch = nb.w;
    other.Add(ch);
    if (mark_[nb.j] != stamp_) continue;
    const double ci = marked_weight_[nb.j];
    const double lo_i = std::min(0.0, ci), hi_i = std::max(0.0, ci);
    const double lo_h = std::min(0.0, ch), hi_h = std::max(0.0, ch);
    plus_low += std::min(0.0, ci + ch) - lo_i - lo_h;
    plus_high += std::max(0.0, ci + ch) - hi_i - hi_h;
    minus_low += std::min(0.0, ci - ch) - lo_i + hi_h;
    minus_high += std::min(0.0, ch - ci) + hi_i - lo_h;
  }
  // i's bounds without its coupling to h.
  const double ni = own.negative - std::min(0.0, b);
  const double pi = own.positive - std::max(0.0, b);
  const double nh = other.negative, ph = other.positive;
  auto low = [&](int di, int dh) -> double {
    if (dh == 0) return di > 0 ? ni : -pi;
    if (di == 0) return dh > 0 ? nh : -ph;
    if (di == dh) return di > 0 ? ni + nh + plus_low : -(pi + ph + plus_high);
    return di > 0 ? ni - ph + minus_low : nh - pi + minus_high;
  };
  auto own_energy = [&](int s) {
    return StateI(s) * linear_[i] + StateH(s) * linear_[h] +
           StateI(s) * StateH(s) * b;
  };
  // State s is dropped when some kept state t costs no more whatever the
  // rest holds; every dropped state then leads through such steps to a kept
  // one. Higher states go first, so ties keep zeros.
  std::array<bool, 4> kept = {true, true, true, true};
  for (int s = 3; s >= 0; --s) {
    for (int t = 0; t < 4; ++t) {
      if (t == s || !kept[t]) continue;
      const double gap = own_energy(s) - own_energy(t) +
                         low(StateI(s) - StateI(t), StateH(s) - StateH(t));
      if (gap >= 0) {
        kept[s] = false;
        break;
      }
    }
  }
  return ApplyKept(i, h, kept);
}

bool Reducer::ApplyKept(int i, int h, const std::array<bool, 4>& kept) {
  std::vector<int> states;
  for (int s = 0; s < 4; ++s) {
    if (kept[s]) states.push_back(s);
  }
  if (states.size() == 1) {
    Fix(i, StateI(states[0]));
    Fix(h, StateH(states[0]));
    return true;
  }
  if (states.size() != 2) return false;
  const int s = states[0], t = states[1];
  if (StateI(s) == StateI(t)) {
    Fix(i, StateI(s));
  } else if (StateH(s) == StateH(t)) {
    Fix(h, StateH(s));
  } else {
    // {00, 11}: x_h = x_i; {01, 10}: x_h = 1 - x_i. The later variable goes.
    Merge(std::max(i, h), std::min(i, h), s == 1);
  }
  return true;
}

absl::StatusOr<VariableMap> Reducer::Map() const {
  const int n = static_cast<int>(alive_.size());
  std::vector<VariableMap::Source> sources(n);
  std::vector<int32_t> representatives;
  for (int v = 0; v < n; ++v) {
    if (!alive_[v]) continue;
    sources[v] = {static_cast<int32_t>(representatives.size()), 0};
    representatives.push_back(v);
  }
  // A merge target is removed after what merged into it, if at all.
  for (auto it = removed_.rbegin(); it != removed_.rend(); ++it) {
    const Substitution& s = substitution_[*it];
    if (s.target < 0) {
      sources[*it] = {-1, s.value};
    } else {
      const VariableMap::Source& t = sources[s.target];
      sources[*it] = {t.reduced, static_cast<uint8_t>(t.value ^ s.value)};
    }
  }
  return VariableMap::FromSourcesWithRepresentatives(
      std::move(sources), std::move(representatives));
}

}  // namespace

absl::StatusOr<VariableMap> QproReduce(const Qubo& model,
                                       const QproOptions& options) {
  Reducer reducer(model, options);
  reducer.Run();
  return reducer.Map();
}

}  // namespace qs
