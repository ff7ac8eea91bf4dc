// Dinic's algorithm: breadth-first level graphs, blocking flows by iterative
// depth-first search with per-node arc pointers.
#include "core/preprocess/max_flow.h"

#include <algorithm>
#include <limits>

namespace qs {

MaxFlow::MaxFlow(int num_nodes) : first_(num_nodes, -1) {}

int MaxFlow::AddArc(int from, int to, int64_t capacity) {
  const int slot = static_cast<int>(to_.size());
  to_.push_back(to);
  residual_.push_back(capacity);
  next_.push_back(first_[from]);
  first_[from] = slot;
  to_.push_back(from);
  residual_.push_back(0);
  next_.push_back(first_[to]);
  first_[to] = slot + 1;
  capacity_.push_back(capacity);
  return slot / 2;
}

bool MaxFlow::BuildLevels(int source, int sink) {
  level_.assign(first_.size(), -1);
  std::vector<int> queue = {source};
  level_[source] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const int u = queue[head];
    for (int s = first_[u]; s != -1; s = next_[s]) {
      if (residual_[s] > 0 && level_[to_[s]] < 0) {
        level_[to_[s]] = level_[u] + 1;
        queue.push_back(to_[s]);
      }
    }
  }
  return level_[sink] >= 0;
}

// One blocking flow over the level graph. Dead ends leave the level graph
// (level -1) so that no search enters them twice.
int64_t MaxFlow::Augment(int source, int sink) {
  current_ = first_;
  int64_t total = 0;
  std::vector<int> path;  // slots from the source
  int u = source;
  while (true) {
    if (u == sink) {
      int64_t push = std::numeric_limits<int64_t>::max();
      for (int s : path) push = std::min(push, residual_[s]);
      for (int s : path) {
        residual_[s] -= push;
        residual_[s ^ 1] += push;
      }
      total += push;
      path.clear();
      u = source;
      continue;
    }
    int& s = current_[u];
    while (s != -1 && (residual_[s] <= 0 || level_[to_[s]] != level_[u] + 1)) {
      s = next_[s];
    }
    if (s != -1) {
      path.push_back(s);
      u = to_[s];
      continue;
    }
    level_[u] = -1;
    if (path.empty()) return total;
    u = to_[path.back() ^ 1];
    path.pop_back();
  }
}

int64_t MaxFlow::Solve(int source, int sink) {
  int64_t total = 0;
  while (BuildLevels(source, sink)) total += Augment(source, sink);
  return total;
}

}  // namespace qs
