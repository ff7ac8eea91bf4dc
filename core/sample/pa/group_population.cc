// GroupPopulation (group_population.h): members as states and fields, swept
// a block at a time on the replica kernel.
#include "core/sample/pa/group_population.h"

#include <algorithm>
#include <span>
#include <utility>
#include <vector>

namespace qs {
namespace {

class GroupPopulation final : public PopulationLanes {
 public:
  GroupPopulation(KernelPath path, const KernelModel& model,
                  const GroupMoves& moves, int size)
      : path_(path),
        lanes_(KernelLanes(path)),
        model_(model),
        moves_(moves),
        members_(size) {
    for (KernelRead& member : members_)
      member.state.assign(model.num_variables, 0);
  }

  int size() const override { return static_cast<int>(members_.size()); }
  int blocks() const override { return (size() + lanes_ - 1) / lanes_; }

  void SetState(int m, const std::vector<uint8_t>& state) override {
    members_[m].state = state;
    members_[m].field.clear();
  }

  // A member without fields gets them summed by its block's first sweep:
  // the fields come with the batch, each block on its own pool thread.
  void InitFields() override {}

  KernelStats SweepBlock(int b, double beta, int64_t sweeps,
                         std::span<const uint64_t> seeds,
                         std::span<double> energies,
                         Interrupter& interrupter) override {
    const int first = b * lanes_;
    const int count = std::min(lanes_, size() - first);
    std::span<KernelRead> reads(members_.data() + first, count);
    for (int k = 0; k < count; ++k) reads[k].rng_seed = seeds[k];
    const std::unique_ptr<ReplicaBatch> batch =
        NewReplicaBatch(path_, model_, reads);
    batch->SetBetas(std::vector<double>(count, beta));
    KernelStats stats;
    for (int64_t sweep = 0; sweep < sweeps; ++sweep) {
      if (!GroupSweep(moves_, *batch, interrupter)) {
        stats.interrupted = true;
        break;
      }
      ++stats.sweeps_done;
    }
    stats.attempts = batch->counters().attempts;
    stats.accepted = batch->counters().accepted;
    batch->Energies(energies.first(count));
    for (int k = 0; k < count; ++k) {
      batch->ReadState(k, reads[k].state);
      batch->ReadField(k, reads[k].field);
    }
    return stats;
  }

  void ReadState(int m, std::vector<uint8_t>& out) const override {
    out = members_[m].state;
  }

  std::vector<int> Resample(std::span<const int> copies) override {
    std::vector<int> source = PlanResample(copies, [this](int from, int to) {
      if (to >= size()) members_.resize(to + 1);
      members_[to].state = members_[from].state;
      members_[to].field = members_[from].field;
    });
    members_.resize(source.size());
    return source;
  }

 private:
  const KernelPath path_;
  const int lanes_;
  const KernelModel& model_;
  const GroupMoves& moves_;
  // State and fields (kernel units; empty until the first sweep) of each
  // member; the seeds are set per step.
  std::vector<KernelRead> members_;
};

}  // namespace

std::unique_ptr<PopulationLanes> NewGroupPopulation(KernelPath path,
                                                    const KernelModel& model,
                                                    const GroupMoves& moves,
                                                    int size) {
  return std::make_unique<GroupPopulation>(path, model, moves, size);
}

}  // namespace qs
