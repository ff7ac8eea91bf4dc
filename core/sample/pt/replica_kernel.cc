// Dispatch of the replica kernel (replica_lanes.inc over sa_lanes.inc) to the
// SIMD paths, and the kernel form of the exactly-one groups. Built like
// sa_kernel.cc: each path in its own namespace under its own target, with
// -ffp-contract=off.
#include "core/sample/pt/replica_kernel.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <span>
#include <vector>

#include "core/base/rng.h"
#include "core/sample/cpu_sa/lane_target.h"

#define QS_SA_SWEEP_ONLY 1

namespace qs {
namespace {

// b_ij * scale of the model's edge i-j, 0 when there is none (rows are sorted
// by neighbour).
float EdgeWeight(const KernelModel& model, uint32_t i, uint32_t j) {
  const KernelEdge* first = model.edges.data() + model.row_start[i];
  const KernelEdge* last = model.edges.data() + model.row_start[i + 1];
  const KernelEdge* it = std::lower_bound(
      first, last, j << 6,
      [](const KernelEdge& e, uint32_t offset) { return e.offset < offset; });
  return it != last && it->offset == (j << 6) ? it->w : 0.0f;
}

#define QS_LANE_KERNEL "core/sample/cpu_sa/sa_lanes.inc"
#define QS_LANE_KERNEL_2 "core/sample/pt/replica_lanes.inc"
#include "core/sample/cpu_sa/lane_paths.inc"

}  // namespace

float KernelEdgeWeight(const KernelModel& model, uint32_t i, uint32_t j) {
  return EdgeWeight(model, i, j);
}

SwapGroups MakeSwapGroups(const KernelModel& model,
                          const std::vector<std::vector<int32_t>>& groups) {
  SwapGroups out;
  out.start.push_back(0);
  out.coupling_start.push_back(0);
  for (const std::vector<int32_t>& group : groups) {
    std::vector<uint32_t> members;
    for (int32_t v : group) {
      if (v >= 0 && v < model.num_variables)
        members.push_back(static_cast<uint32_t>(v));
    }
    std::sort(members.begin(), members.end());
    members.erase(std::unique(members.begin(), members.end()), members.end());
    if (members.size() < 2) continue;
    float max_coupling = -std::numeric_limits<float>::infinity();
    for (uint32_t a : members) {
      for (uint32_t b : members) {
        const float w = a == b ? 0.0f : EdgeWeight(model, a, b);
        out.coupling.push_back(w);
        if (a != b) max_coupling = std::max(max_coupling, w);
      }
    }
    out.max_coupling.push_back(max_coupling);
    out.members.insert(out.members.end(), members.begin(), members.end());
    out.start.push_back(static_cast<uint32_t>(out.members.size()));
    out.coupling_start.push_back(static_cast<uint32_t>(out.coupling.size()));
  }
  out.coupling_start.pop_back();
  return out;
}

std::vector<SweepRange> SweepRangesOf(const KernelModel& model,
                                      const std::vector<int32_t>& variables) {
  std::vector<SweepRange> ranges;
  size_t chunk = 0;
  for (int32_t v : variables) {
    const uint32_t i = static_cast<uint32_t>(v);
    while (chunk < model.chunk_end.size() && model.chunk_end[chunk] <= i)
      ++chunk;
    const int64_t work =
        16 *
        (8 + static_cast<int64_t>(model.row_start[i + 1] - model.row_start[i]));
    // A new range where the run of variables breaks or a poll chunk ends.
    const bool extends = !ranges.empty() && ranges.back().end == i &&
                         (chunk == 0 || model.chunk_end[chunk - 1] < i);
    if (extends) {
      ranges.back().end = i + 1;
      ranges.back().work += work;
    } else {
      ranges.push_back({i, i + 1, work});
    }
  }
  return ranges;
}

std::unique_ptr<ReplicaBatch> NewReplicaBatch(
    KernelPath path, const KernelModel& model,
    std::span<const KernelRead> reads) {
#ifdef QS_SA_X86
  if (path == KernelPath::kAvx512) return avx512::NewBatch(model, reads);
  if (path == KernelPath::kAvx2) return avx2::NewBatch(model, reads);
#endif
  return scalar::NewBatch(model, reads);
}

}  // namespace qs
