// The group tabu search loop (group_tabu_search.h): every move of the
// neighbourhood scored from the local fields, the chosen one applied as its
// single flips.
#include "core/sample/tabu/group_tabu_search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <utility>

namespace qs {
namespace {

// Energies compare with this slack: incremental sums drift by a few ulps.
constexpr double kEps = 1e-9;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int64_t kNever = std::numeric_limits<int64_t>::min() / 4;

// A candidate move, by the unit it moves and where to, with its energy
// change.
struct GroupMove {
  enum Kind { kFlip, kSwap, kExchange };
  Kind kind = kFlip;
  int32_t owner = -1;   // kSwap: the group; kExchange: the block
  int32_t first = -1;   // kFlip: the variable; kSwap: the new member's index;
                        // kExchange: row i
  int32_t second = -1;  // kExchange: row j
  double delta = kInf;
};

class GroupTabuRun {
 public:
  GroupTabuRun(const Qubo& model, const GroupStructure& structure,
               std::vector<uint8_t> start, uint64_t seed, int64_t tenure)
      : model_(model),
        structure_(structure),
        tenure_(tenure),
        rng_(seed),
        x_(std::move(start)),
        field_(model.linear_terms()),
        scatter_(model.num_variables(), 0.0),
        last_flip_(model.num_variables(), kNever) {
    MoveIntoGroups(structure_, rng_, x_);
    for (int i = 0; i < model_.num_variables(); ++i) {
      if (!x_[i]) continue;
      for (const Neighbor& nb : model_.neighbors(i)) field_[nb.j] += nb.w;
    }
    for (const PermutationBlock& block : structure_.blocks) {
      const int n = block.size;
      std::vector<int32_t>& col = cols_.emplace_back(n, -1);
      std::vector<int32_t>& row = rows_.emplace_back(n, -1);
      for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c) {
          if (block.at(r, c) >= 0 && x_[block.at(r, c)]) col[r] = c, row[c] = r;
        }
      }
      row_set_.emplace_back(static_cast<size_t>(n) * n, 0.0);
      col_set_.emplace_back(static_cast<size_t>(n) * n, 0.0);
      const int32_t b = static_cast<int32_t>(cols_.size()) - 1;
      for (int k = 0; k < n; ++k) {
        RefreshRow(b, k);
        RefreshColumn(b, k);
      }
    }
    for (const std::vector<int32_t>& group : structure_.one_way) {
      int32_t& on = on_.emplace_back(0);
      for (size_t k = 0; k < group.size(); ++k)
        if (x_[group[k]]) on = static_cast<int32_t>(k);
    }
    energy_ = model_.Energy(x_);
    best_ = x_;
    best_energy_ = energy_;
  }

  // Scores every move from the current state; false when every move is tabu
  // and none reaches a new best. Adds the coupling reads of the scatters to
  // `work`; scored() counts the moves scored.
  bool Choose(int64_t move, GroupMove& out, int64_t& work) {
    move_ = move;
    chosen_ = GroupMove{};
    aspired_ = GroupMove{};
    ties_ = 0;
    for (int32_t i : structure_.free) {
      Offer(x_[i] ? -field_[i] : field_[i], Recent(i),
            {.kind = GroupMove::kFlip, .first = i});
    }
    for (size_t g = 0; g < structure_.one_way.size(); ++g)
      work += ScoreSwaps(static_cast<int32_t>(g));
    for (size_t b = 0; b < structure_.blocks.size(); ++b)
      work += ScoreExchanges(static_cast<int32_t>(b));
    out = aspired_.delta < chosen_.delta ? aspired_ : chosen_;
    return out.delta < kInf;
  }

  int64_t scored() const { return scored_; }

  // Applies `chosen` at move `move`; returns the field updates it made.
  int64_t Apply(const GroupMove& chosen, int64_t move) {
    int64_t work = 0;
    switch (chosen.kind) {
      case GroupMove::kFlip:
        work += Flip(chosen.first, move);
        break;
      case GroupMove::kSwap: {
        const std::vector<int32_t>& group = structure_.one_way[chosen.owner];
        work += Flip(group[on_[chosen.owner]], move);
        work += Flip(group[chosen.first], move);
        on_[chosen.owner] = chosen.first;
        break;
      }
      case GroupMove::kExchange: {
        const int32_t b = chosen.owner;
        const PermutationBlock& block = structure_.blocks[b];
        std::vector<int32_t>& col = cols_[b];
        const int i = chosen.first, j = chosen.second;
        work += Flip(block.at(i, col[i]), move);
        work += Flip(block.at(j, col[j]), move);
        std::swap(col[i], col[j]);
        work += Flip(block.at(i, col[i]), move);
        work += Flip(block.at(j, col[j]), move);
        rows_[b][col[i]] = i;
        rows_[b][col[j]] = j;
        work += RefreshRow(b, i) + RefreshRow(b, j) + RefreshColumn(b, col[i]) +
                RefreshColumn(b, col[j]);
        break;
      }
    }
    energy_ += chosen.delta;
    if (energy_ < best_energy_ - kEps) {
      best_energy_ = energy_;
      best_ = x_;
      improved_at_ = move;
    }
    return work;
  }

  double best_energy() const { return best_energy_; }
  int64_t improved_at() const { return improved_at_; }
  std::vector<uint8_t>& best() { return best_; }

 private:
  // Flipped within the last tenure moves: a move that sets only such
  // variables to 1 would undo recent ones.
  bool Recent(int32_t v) const { return move_ - last_flip_[v] <= tenure_; }

  // The best free move so far (ties uniformly at random, by reservoir), and
  // the best tabu move that would reach below the restart's best.
  void Offer(double delta, bool tabu, GroupMove move) {
    move.delta = delta;
    ++scored_;
    if (tabu) {
      if (energy_ + delta < best_energy_ - kEps && delta < aspired_.delta)
        aspired_ = move;
      return;
    }
    if (delta < chosen_.delta) {
      chosen_ = move;
      ties_ = 1;
    } else if (delta == chosen_.delta && rng_.NextBelow(++ties_) == 0) {
      chosen_ = move;
    }
  }

  // The couplings of `v` spread over a dense row, so that the moves that
  // flip v read them in O(1); ClearScatter undoes it.
  int64_t Scatter(int32_t v) {
    for (const Neighbor& nb : model_.neighbors(v)) scatter_[nb.j] = nb.w;
    return static_cast<int64_t>(model_.neighbors(v).size());
  }
  void ClearScatter(int32_t v) {
    for (const Neighbor& nb : model_.neighbors(v)) scatter_[nb.j] = 0;
  }

  // row_set_[b][r * n + c]: the coupling of row r's set cell with cell
  // (r, c) of block b, 0 where there is none. Changes only when row r's
  // column does.
  int64_t RefreshRow(int32_t b, int r) {
    const int n = structure_.blocks[b].size;
    return CouplingsAlong(b, cols_[b][r] + r * n, r * n, 1,
                          row_set_[b].data() + static_cast<size_t>(r) * n);
  }
  // col_set_[b][c * n + r]: the coupling of column c's set cell with cell
  // (r, c).
  int64_t RefreshColumn(int32_t b, int c) {
    const int n = structure_.blocks[b].size;
    return CouplingsAlong(b, rows_[b][c] * n + c, c, n,
                          col_set_[b].data() + static_cast<size_t>(c) * n);
  }
  // out[k]: the coupling of block b's cell `on` with its cell first + k *
  // stride (k < n), 0 for itself and missing cells (cells are row-major).
  int64_t CouplingsAlong(int32_t b, int on, int first, int stride,
                         double* out) {
    const PermutationBlock& block = structure_.blocks[b];
    const int32_t set = block.cells[on];
    const int64_t work = Scatter(set);
    for (int k = 0; k < block.size; ++k) {
      const int32_t v = block.cells[first + k * stride];
      out[k] = v >= 0 && v != set ? scatter_[v] : 0.0;
    }
    ClearScatter(set);
    return 2 * work + block.size;
  }

  double Weight(int32_t u, int32_t v) const {
    const std::span<const Neighbor> row = model_.neighbors(u);
    const auto it = std::lower_bound(
        row.begin(), row.end(), v,
        [](const Neighbor& nb, int32_t j) { return nb.j < j; });
    return it != row.end() && it->j == v ? it->w : 0.0;
  }

  // Group g's 1 moved to each other member: f_v - f_on - b(on, v).
  int64_t ScoreSwaps(int32_t g) {
    const std::vector<int32_t>& group = structure_.one_way[g];
    const int32_t on = group[on_[g]];
    const int64_t work = Scatter(on);
    for (size_t k = 0; k < group.size(); ++k) {
      const int32_t v = group[k];
      if (v == on) continue;
      Offer(field_[v] - field_[on] - scatter_[v], Recent(v),
            {.kind = GroupMove::kSwap,
             .owner = g,
             .first = static_cast<int32_t>(k)});
    }
    ClearScatter(on);
    return 2 * work;
  }

  // Rows i < j of block b trading columns: cells p = (i, a) and q = (j, b)
  // go to 0, s = (i, b) and t = (j, a) to 1. The change is the four flip
  // costs plus the couplings of each pair of them, signed by whether the
  // pair moves the same way: p's from its scatter, q's with s (its column)
  // and t (its row) from the set cells' tables, s-t by search.
  int64_t ScoreExchanges(int32_t b) {
    const PermutationBlock& block = structure_.blocks[b];
    const int n = block.size;
    const std::vector<int32_t>& col = cols_[b];
    const double* row_set = row_set_[b].data();
    const double* col_set = col_set_[b].data();
    int64_t work = 0;
    for (int i = 0; i < n; ++i) {
      const int32_t p = block.at(i, col[i]);
      work += Scatter(p);
      for (int j = i + 1; j < n; ++j) {
        const int32_t q = block.at(j, col[j]);
        const int32_t s = block.at(i, col[j]), t = block.at(j, col[i]);
        if (s < 0 || t < 0) continue;
        const double q_s = col_set[static_cast<size_t>(col[j]) * n + i];
        const double q_t = row_set[static_cast<size_t>(j) * n + col[i]];
        const double delta = field_[s] + field_[t] - field_[p] - field_[q] +
                             scatter_[q] + Weight(s, t) - scatter_[s] -
                             scatter_[t] - q_s - q_t;
        Offer(delta, Recent(s) && Recent(t),
              {.kind = GroupMove::kExchange,
               .owner = b,
               .first = i,
               .second = j});
      }
      ClearScatter(p);
    }
    return 2 * work;
  }

  int64_t Flip(int32_t v, int64_t move) {
    const double sign = x_[v] ? -1.0 : 1.0;
    x_[v] ^= 1;
    for (const Neighbor& nb : model_.neighbors(v)) field_[nb.j] += sign * nb.w;
    last_flip_[v] = move;
    return static_cast<int64_t>(model_.neighbors(v).size());
  }

  const Qubo& model_;
  const GroupStructure& structure_;
  const int64_t tenure_;
  Xoshiro256 rng_;
  std::vector<uint8_t> x_;
  std::vector<double> field_;
  std::vector<double> scatter_;  // 0 but for the scattered variable's row
  std::vector<int64_t> last_flip_;
  std::vector<std::vector<int32_t>> cols_;  // per block, each row's column
  std::vector<std::vector<int32_t>> rows_;  // per block, each column's row
  std::vector<std::vector<double>> row_set_, col_set_;  // RefreshRow/Column
  std::vector<int32_t> on_;  // per one-way group, its 1
  double energy_ = 0;
  std::vector<uint8_t> best_;
  double best_energy_ = 0;
  int64_t improved_at_ = 0;
  // The move being chosen.
  int64_t move_ = 0;
  GroupMove chosen_, aspired_;
  int64_t ties_ = 0;
  int64_t scored_ = 0;
};

// The column set in row `row` of `block` in `state`, or -1.
int SetColumn(const PermutationBlock& block, int row,
              const std::vector<uint8_t>& state) {
  for (int c = 0; c < block.size; ++c)
    if (block.at(row, c) >= 0 && state[block.at(row, c)]) return c;
  return -1;
}

// A random move of unit `unit` (numbered as GroupTabuUnits counts them:
// block rows, then one-way groups, then free variables) on `state`.
void RandomMove(const GroupStructure& structure, uint64_t unit, Xoshiro256& rng,
                std::vector<uint8_t>& state) {
  for (const PermutationBlock& block : structure.blocks) {
    if (unit >= static_cast<uint64_t>(block.size)) {
      unit -= block.size;
      continue;
    }
    if (block.size < 2) return;
    const int i = static_cast<int>(unit);
    int j = static_cast<int>(rng.NextBelow(block.size - 1));
    j += j >= i;
    const int a = SetColumn(block, i, state), b = SetColumn(block, j, state);
    if (a < 0 || b < 0 || block.at(i, b) < 0 || block.at(j, a) < 0) return;
    for (int32_t v :
         {block.at(i, a), block.at(j, b), block.at(i, b), block.at(j, a)})
      state[v] ^= 1;
    return;
  }
  if (unit < structure.one_way.size()) {
    const std::vector<int32_t>& group = structure.one_way[unit];
    size_t on = 0;
    for (size_t k = 0; k < group.size(); ++k) on = state[group[k]] ? k : on;
    size_t to = rng.NextBelow(group.size() - 1);
    to += to >= on;
    state[group[on]] = 0;
    state[group[to]] = 1;
    return;
  }
  unit -= structure.one_way.size();
  state[structure.free[unit]] ^= 1;
}

}  // namespace

int64_t GroupTabuUnits(const GroupStructure& structure) {
  int64_t units = static_cast<int64_t>(structure.one_way.size()) +
                  static_cast<int64_t>(structure.free.size());
  for (const PermutationBlock& block : structure.blocks) units += block.size;
  return units;
}

TabuRunResult RunGroupTabu(const Qubo& model, const GroupStructure& structure,
                           std::vector<uint8_t> start, uint64_t seed,
                           const TabuRunOptions& options,
                           Interrupter& interrupter) {
  const int64_t tenure = std::clamp<int64_t>(
      options.tenure, 0, std::max<int64_t>(0, options.max_moves));
  GroupTabuRun run(model, structure, std::move(start), seed, tenure);
  TabuRunResult result;
  auto reached = [&] {
    return options.target_energy &&
           run.best_energy() <= *options.target_energy + kEps;
  };
  int64_t work = 0;
  GroupMove chosen;
  for (int64_t move = 0;
       model.num_variables() > 0 && move < options.max_moves && !reached() &&
       move - run.improved_at() < options.stall_moves;
       ++move) {
    const int64_t before = run.scored();
    if (!run.Choose(move, chosen, work)) break;
    work += run.scored() - before + run.Apply(chosen, move);
    ++result.moves;
    if (work >= kTabuPollWork) {
      work = 0;
      if (interrupter.ShouldStop()) {
        result.interrupted = true;
        break;
      }
    }
  }
  result.attempts = run.scored();
  result.best_energy = model.Energy(run.best());
  result.best = std::move(run.best());
  return result;
}

int DefaultGroupTabuTenure(const GroupStructure& structure) {
  int tenure = static_cast<int>(
      std::clamp<int64_t>(GroupTabuUnits(structure) / 4, 1, 20));
  for (const PermutationBlock& block : structure.blocks)
    tenure = std::max(tenure, block.size);
  return tenure;
}

void PerturbInGroups(const GroupStructure& structure, double share,
                     Xoshiro256& rng, std::vector<uint8_t>& state) {
  const int64_t units = GroupTabuUnits(structure);
  if (units == 0) return;
  const int64_t moves = std::clamp<int64_t>(
      std::llround(share * static_cast<double>(units)), 1, units);
  for (int64_t k = 0; k < moves; ++k)
    RandomMove(structure, rng.NextBelow(units), rng, state);
}

}  // namespace qs
