// The QPRO+ rules on a mutable copy of the model, driven by a work list of
// variables whose neighbourhood changed.
#include "core/preprocess/qpro.h"

#include <algorithm>
#include <array>
#include <deque>
#include <map>
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

class Reducer {
 public:
  Reducer(const Qubo& model, const QproOptions& options)
      : linear_(model.linear_terms()),
        adjacency_(model.num_variables()),
        alive_(model.num_variables(), true),
        substitution_(model.num_variables()),
        queued_(model.num_variables(), true),
        budget_(options.pair_work_budget) {
    for (int i = 0; i < model.num_variables(); ++i) {
      for (const Neighbor& nb : model.neighbors(i)) adjacency_[i][nb.j] = nb.w;
      queue_.push_back(i);
    }
  }

  void Run() {
    while (!queue_.empty()) {
      const int i = queue_.front();
      queue_.pop_front();
      queued_[i] = false;
      if (alive_[i] && !SingleRule(i)) PairRules(i);
    }
  }

  absl::StatusOr<VariableMap> Map() const;

 private:
  void Push(int v) {
    if (alive_[v] && !queued_[v]) {
      queued_[v] = true;
      queue_.push_back(v);
    }
  }
  void PushNeighbours(int v) {
    for (const auto& [j, w] : adjacency_[v]) Push(j);
  }
  void Remove(int v, Substitution s) {
    alive_[v] = false;
    adjacency_[v].clear();
    substitution_[v] = s;
    removed_.push_back(v);
  }
  void AddCoupling(int i, int j, double w) {
    const double sum = (adjacency_[i][j] += w);
    adjacency_[j][i] = sum;
    if (sum == 0) {
      adjacency_[i].erase(j);
      adjacency_[j].erase(i);
    }
  }

  void Fix(int v, int value);
  void Merge(int h, int i, bool negated);
  bool SingleRule(int i);
  void PairRules(int i);
  // Applies what the pair's undominated joint values allow; false when they
  // allow nothing.
  bool PairRule(int i, int h);

  std::vector<double> linear_;
  std::vector<std::map<int, double>> adjacency_;
  std::vector<bool> alive_;
  std::vector<Substitution> substitution_;
  std::vector<int> removed_;  // in the order of removal
  std::vector<bool> queued_;
  std::deque<int> queue_;
  int64_t budget_;
};

void Reducer::Fix(int v, int value) {
  PushNeighbours(v);
  for (const auto& [j, w] : adjacency_[v]) {
    adjacency_[j].erase(v);
    if (value == 1) linear_[j] += w;
  }
  Remove(v, {-1, static_cast<uint8_t>(value)});
}

// x_h = x_i, or x_h = 1 - x_i when negated; the energy of every assignment
// of the rest is kept (the constant a_h of the negated case is dropped: the
// map's ApplyVariableMap restores it exactly).
void Reducer::Merge(int h, int i, bool negated) {
  PushNeighbours(h);
  Push(i);
  const std::map<int, double> couplings = std::move(adjacency_[h]);
  adjacency_[i].erase(h);
  if (!negated) {
    auto it = couplings.find(i);
    linear_[i] += linear_[h] + (it == couplings.end() ? 0.0 : it->second);
  } else {
    // a_h (1 - x_i) and b_ih x_i (1 - x_i) = 0.
    linear_[i] -= linear_[h];
  }
  for (const auto& [j, w] : couplings) {
    if (j == i) continue;
    adjacency_[j].erase(h);
    if (negated) {
      linear_[j] += w;  // b_hj (1 - x_i) x_j
      AddCoupling(i, j, -w);
    } else {
      AddCoupling(i, j, w);
    }
  }
  Remove(h, {i, static_cast<uint8_t>(negated ? 1 : 0)});
}

// The flip cost a_i + sum_j b_ij x_j lies in [a_i + N_i, a_i + P_i]: when it
// is never negative x_i = 0 costs no more than x_i = 1 whatever the rest
// holds; when never positive, x_i = 1.
bool Reducer::SingleRule(int i) {
  double positive = 0, negative = 0;
  for (const auto& [j, w] : adjacency_[i]) (w > 0 ? positive : negative) += w;
  if (linear_[i] + negative >= 0) {
    Fix(i, 0);
  } else if (linear_[i] + positive <= 0) {
    Fix(i, 1);
  } else {
    return false;
  }
  return true;
}

void Reducer::PairRules(int i) {
  std::vector<int> neighbours;
  for (const auto& [h, w] : adjacency_[i]) neighbours.push_back(h);
  for (int h : neighbours) {
    if (budget_ <= 0) return;
    if (alive_[h] && PairRule(i, h)) return;
  }
}

bool Reducer::PairRule(int i, int h) {
  const std::map<int, double>& ni = adjacency_[i];
  const std::map<int, double>& nh = adjacency_[h];
  budget_ -= static_cast<int64_t>(ni.size() + nh.size());
  const double b = ni.at(h);
  // low[di + 1][dh + 1] = min over the rest of sum_j (di b_ij + dh b_hj) x_j.
  std::array<std::array<double, 3>, 3> low{};
  auto add = [&low](double ci, double ch) {
    for (int di = -1; di <= 1; ++di) {
      for (int dh = -1; dh <= 1; ++dh) {
        low[di + 1][dh + 1] += std::min(0.0, di * ci + dh * ch);
      }
    }
  };
  auto a = ni.begin(), c = nh.begin();
  while (a != ni.end() || c != nh.end()) {
    if (c == nh.end() || (a != ni.end() && a->first < c->first)) {
      if (a->first != h) add(a->second, 0);
      ++a;
    } else if (a == ni.end() || c->first < a->first) {
      if (c->first != i) add(0, c->second);
      ++c;
    } else {
      add(a->second, c->second);
      ++a, ++c;
    }
  }
  auto own = [&](int s) {
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
      const int di = StateI(s) - StateI(t), dh = StateH(s) - StateH(t);
      if (own(s) - own(t) + low[di + 1][dh + 1] >= 0) {
        kept[s] = false;
        break;
      }
    }
  }
  std::vector<int> states;
  for (int s = 0; s < 4; ++s) {
    if (kept[s]) states.push_back(s);
  }
  if (states.size() == 1) {
    Fix(i, StateI(states[0]));
    Fix(h, StateH(states[0]));
  } else if (states.size() == 2) {
    const int s = states[0], t = states[1];
    if (StateI(s) == StateI(t)) {
      Fix(i, StateI(s));
    } else if (StateH(s) == StateH(t)) {
      Fix(h, StateH(s));
    } else {
      // {00, 11}: x_h = x_i; {01, 10}: x_h = 1 - x_i. The later variable goes.
      Merge(std::max(i, h), std::min(i, h), s == 1);
    }
  } else {
    return false;
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
