// Weighted Max-Cut (proto/qs/v1/maxcut.proto) as a QUBO. x_i = 1 puts node i
// on side A; an edge (u, v, w) is cut when x_u != x_v, so
//   cut(x) = sum_edges w (x_u + x_v - 2 x_u x_v)
// and the model minimises E(x) = -cut(x) exactly (no offset, no penalty):
// every assignment is a valid partition and the energy of a sample is minus
// its cut weight. Boards are one row of 0/1 (one character per node);
// Validate recomputes the cut from the graph and reports it as the objective.
// The ground energy is computed only for graphs of at most 20 nodes (by
// enumeration); on larger graphs it is unknown.
#ifndef QS_CORE_FAMILIES_MAXCUT_MAXCUT_H_
#define QS_CORE_FAMILIES_MAXCUT_MAXCUT_H_

#include <cstdint>
#include <memory>
#include <span>

#include "absl/status/statusor.h"
#include "core/compile/compiler.h"
#include "qs/v1/maxcut.pb.h"

namespace qs {

std::unique_ptr<PuzzleCompiler> NewMaxCutCompiler();

// The weight of the edges whose ends lie on different sides (side[i] in
// {0, 1}, one per node). The graph must have passed CheckMaxCut.
double CutWeight(const v1::MaxCutPuzzle& graph, std::span<const uint8_t> side);

// INVALID_ARGUMENT naming the field ("maxcut.u[3]: 900 >= num_nodes 800").
absl::Status CheckMaxCut(const v1::MaxCutPuzzle& graph);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_MAXCUT_MAXCUT_H_
