// MakeGroupMoves, the sweep of the group moves and their tuned beta range
// (group_moves.h).
#include "core/sample/pt/group_moves.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/rng.h"

namespace qs {
namespace {

constexpr int kDescents = 4;
constexpr int kMaxPasses = 100;
// Row pairs of a block scored per pass beyond which random pairs are drawn
// instead of all of them.
constexpr int64_t kMaxPairsPerPass = 50000;

// A state that keeps the groups, its local fields in kernel units (exact:
// grid values) and the cost of each group move.
class GroupDescent {
 public:
  GroupDescent(const KernelModel& model, const GroupMoves& moves,
               Xoshiro256& rng)
      : model_(model), moves_(moves), rng_(rng) {
    GroupRespectingState(moves.structure, model.num_variables, rng, x_);
    field_.assign(model.linear.begin(), model.linear.end());
    for (int i = 0; i < model.num_variables; ++i) {
      if (!x_[i]) continue;
      for (uint32_t e = model.row_start[i]; e < model.row_start[i + 1]; ++e)
        field_[model.edges[e].offset >> 6] += model.edges[e].w;
    }
  }

  // Applies every move that lowers the energy, in turn; true when one did.
  bool Pass() { return Visit(/*apply=*/true, nullptr); }
  // The positive costs of the moves from here (kernel units).
  void UphillCosts(std::vector<double>& out) { Visit(false, &out); }

 private:
  bool Visit(bool apply, std::vector<double>* uphill) {
    bool changed = false;
    auto consider = [&](double delta, auto&& move) {
      if (apply && delta < 0) {
        move();
        changed = true;
      } else if (uphill != nullptr && delta > 0) {
        uphill->push_back(delta);
      }
    };
    for (int32_t i : moves_.structure.free)
      consider(x_[i] ? -field_[i] : field_[i], [&] { Flip(i); });
    for (const std::vector<int32_t>& group : moves_.structure.one_way) {
      int32_t on = -1;
      for (int32_t v : group) on = x_[v] ? v : on;
      for (int32_t v : group) {
        if (v == on || on < 0) continue;
        consider(field_[v] - field_[on] - Weight(on, v), [&] {
          Flip(on);
          Flip(v);
          on = v;
        });
      }
    }
    for (const PermutationBlock& block : moves_.structure.blocks)
      VisitBlock(block, consider);
    return changed;
  }

  template <typename Consider>
  void VisitBlock(const PermutationBlock& block, Consider& consider) {
    const int n = block.size;
    const int64_t pairs = static_cast<int64_t>(n) * (n - 1) / 2;
    auto pair = [&](int i, int j) {
      const int a = SetColumn(block, i), b = SetColumn(block, j);
      if (a < 0 || b < 0) return;
      const int32_t u = block.at(i, a), w = block.at(j, b);
      const int32_t u2 = block.at(i, b), w2 = block.at(j, a);
      if (u2 < 0 || w2 < 0) return;
      const double delta = -field_[u] - field_[w] + Weight(u, w) + field_[u2] -
                           Weight(u2, u) - Weight(u2, w) + field_[w2] -
                           Weight(w2, u) - Weight(w2, w) + Weight(u2, w2);
      consider(delta, [&] {
        Flip(u);
        Flip(w);
        Flip(u2);
        Flip(w2);
      });
    };
    if (pairs <= kMaxPairsPerPass) {
      for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) pair(i, j);
      }
      return;
    }
    for (int64_t k = 0; k < kMaxPairsPerPass; ++k) {
      const int i = static_cast<int>(rng_.NextBelow(n));
      const int j = static_cast<int>(rng_.NextBelow(n - 1));
      pair(i, j + (j >= i));
    }
  }

  int SetColumn(const PermutationBlock& block, int row) const {
    for (int c = 0; c < block.size; ++c) {
      const int32_t v = block.at(row, c);
      if (v >= 0 && x_[v]) return c;
    }
    return -1;
  }

  double Weight(int32_t i, int32_t j) const {
    return KernelEdgeWeight(model_, static_cast<uint32_t>(i),
                            static_cast<uint32_t>(j));
  }

  void Flip(int32_t i) {
    const double sign = x_[i] ? -1.0 : 1.0;
    x_[i] ^= 1;
    for (uint32_t e = model_.row_start[i]; e < model_.row_start[i + 1]; ++e)
      field_[model_.edges[e].offset >> 6] += sign * model_.edges[e].w;
  }

  const KernelModel& model_;
  const GroupMoves& moves_;
  Xoshiro256& rng_;
  std::vector<uint8_t> x_;
  std::vector<double> field_;
};

}  // namespace

std::string GroupMoves::Names() const { return MoveNames(structure); }

GroupMoves MakeGroupMoves(const KernelModel& model,
                          const std::vector<std::vector<int32_t>>& groups) {
  GroupMoves moves;
  moves.structure = FindGroupStructure(model.num_variables, groups);
  moves.one_way = MakeSwapGroups(model, moves.structure.one_way);
  moves.free = SweepRangesOf(model, moves.structure.free);
  return moves;
}

GroupMoves FlipAndSwapMoves(const KernelModel& model,
                            const std::vector<std::vector<int32_t>>& groups) {
  GroupMoves moves;
  moves.keeps_groups = false;
  moves.structure.one_way = groups;
  moves.structure.free.resize(model.num_variables);
  for (int i = 0; i < model.num_variables; ++i) moves.structure.free[i] = i;
  moves.one_way = MakeSwapGroups(model, groups);
  moves.free = SweepRangesOf(model, moves.structure.free);
  return moves;
}

std::shared_ptr<const GroupMoves> CachedGroupMoves(
    const KernelModel& model, const std::vector<std::vector<int32_t>>& groups,
    bool keeps_groups, DerivedCache* derived) {
  auto make = [&] {
    return keeps_groups ? MakeGroupMoves(model, groups)
                        : FlipAndSwapMoves(model, groups);
  };
  if (derived == nullptr) return std::make_shared<const GroupMoves>(make());
  return derived->GetOrMake<GroupMoves>(
      keeps_groups ? "group_moves/keep" : "group_moves/flip_and_swap", make);
}

bool GroupSweep(const GroupMoves& moves, ReplicaBatch& batch,
                Interrupter& interrupter) {
  if (!batch.SweepRanges(moves.free, interrupter)) return false;
  if (moves.one_way.size() > 0 && !batch.SwapSweep(moves.one_way, interrupter))
    return false;
  return moves.structure.blocks.empty() ||
         batch.ExchangeSweep(moves.structure.blocks, interrupter);
}

std::optional<BetaRange> GroupTunedBetaRange(const KernelModel& model,
                                             const GroupMoves& moves) {
  Xoshiro256 rng(0x6a09e667f3bcc908ull);  // fixed: the range is the model's
  std::vector<double> costs;
  for (int d = 0; d < kDescents; ++d) {
    GroupDescent descent(model, moves, rng);
    for (int pass = 0; pass < kMaxPasses && descent.Pass(); ++pass) {
    }
    descent.UphillCosts(costs);
  }
  if (costs.empty()) return std::nullopt;
  std::sort(costs.begin(), costs.end());
  for (double& c : costs) c /= model.scale;
  return BetaRangeFromUphillCosts(costs, model.num_variables);
}

BetaRange CachedGroupBetaRange(const Qubo& qubo, const KernelModel& model,
                               const GroupMoves& moves, DerivedCache* derived) {
  auto make = [&] {
    if (std::optional<BetaRange> tuned = GroupTunedBetaRange(model, moves))
      return *tuned;
    return TunedBetaRange(qubo);
  };
  if (derived == nullptr) return make();
  return *derived->GetOrMake<BetaRange>("group_moves/range", make);
}

bool WantsGroupMoves(v1::GroupMoves wire, const SampleParams& params,
                     GroupMovesDefault unset) {
  if (wire == v1::GROUP_MOVES_OFF || params.one_hot_groups == nullptr ||
      params.one_hot_groups->empty())
    return false;
  return wire == v1::GROUP_MOVES_ON ||
         unset == GroupMovesDefault::kEverywhere || !params.known_ground_energy;
}

std::shared_ptr<const GroupMoves> RequestedGroupMoves(
    v1::GroupMoves wire, const KernelModel& model, const SampleParams& params) {
  if (!WantsGroupMoves(wire, params, GroupMovesDefault::kModels))
    return nullptr;
  std::shared_ptr<const GroupMoves> moves =
      CachedGroupMoves(model, *params.one_hot_groups, true, params.derived);
  return moves->empty() ? nullptr : moves;
}

std::shared_ptr<const GroupStructure> RequestedGroupStructure(
    v1::GroupMoves wire, int num_variables, const SampleParams& params,
    GroupMovesDefault unset) {
  if (!WantsGroupMoves(wire, params, unset)) return nullptr;
  auto make = [&] {
    return FindGroupStructure(num_variables, *params.one_hot_groups);
  };
  std::shared_ptr<const GroupStructure> structure =
      params.derived != nullptr
          ? params.derived->GetOrMake<GroupStructure>("group_structure", make)
          : std::make_shared<const GroupStructure>(make());
  return structure->empty() ? nullptr : structure;
}

SampleParams WithGroupBetaRange(const Qubo& qubo, const KernelModel& model,
                                const GroupMoves& moves, SampleParams params) {
  if (!params.beta_schedule.empty() ||
      params.beta_range_rule != BetaRangeRule::kTuned ||
      (params.beta_hot > 0 && params.beta_cold > 0))
    return params;
  const BetaRange range =
      CachedGroupBetaRange(qubo, model, moves, params.derived);
  const bool hot_given = params.beta_hot > 0;
  if (!hot_given) params.beta_hot = range.hot;
  if (params.beta_cold <= 0)
    params.beta_cold = std::max(range.cold, params.beta_hot);
  if (!hot_given) params.beta_hot = std::min(params.beta_hot, params.beta_cold);
  return params;
}

}  // namespace qs
