// MaxFlow: Dinic's maximum flow over int64 capacities, with the residual
// network kept for reading off minimum cuts. Roof duality runs it on the
// implication network of a QUBO (roof_duality.h). Augmenting paths are found
// iteratively, so deep level graphs do not grow the stack.
#ifndef QS_CORE_PREPROCESS_MAX_FLOW_H_
#define QS_CORE_PREPROCESS_MAX_FLOW_H_

#include <cstdint>
#include <vector>

namespace qs {

class MaxFlow {
 public:
  explicit MaxFlow(int num_nodes);

  // Adds an arc and its residual reverse; returns the arc's index.
  int AddArc(int from, int to, int64_t capacity);
  // Pushes a maximum flow from source to sink (once) and returns its value.
  int64_t Solve(int source, int sink);

  int num_nodes() const { return static_cast<int>(first_.size()); }
  int num_arcs() const { return static_cast<int>(to_.size() / 2); }
  int from(int arc) const { return to_[2 * arc + 1]; }
  int to(int arc) const { return to_[2 * arc]; }
  int64_t capacity(int arc) const { return capacity_[arc]; }
  // Flow through an arc after Solve.
  int64_t flow(int arc) const { return residual_[2 * arc + 1]; }

 private:
  bool BuildLevels(int source, int sink);
  int64_t Augment(int source, int sink);

  // Arc slots come in pairs: 2k is arc k, 2k + 1 its reverse.
  std::vector<int> to_;
  std::vector<int64_t> residual_;
  std::vector<int64_t> capacity_;
  std::vector<int> next_;   // next slot out of the same node
  std::vector<int> first_;  // first slot out of each node, -1 when none
  std::vector<int> level_;
  std::vector<int> current_;
};

}  // namespace qs

#endif  // QS_CORE_PREPROCESS_MAX_FLOW_H_
