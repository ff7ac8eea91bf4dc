// The Cai-Macready-Roy embedding heuristic (arXiv:1406.2741 §3;
// docs/dwave-protocol.md §3.3), validation and the embedding cache.
#include "core/sample/dwave/embedding.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <numeric>
#include <queue>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/base/rng.h"

namespace qs::dwave {

int Embedding::MaxChainLength() const {
  size_t longest = 0;
  for (const auto& chain : chains) longest = std::max(longest, chain.size());
  return static_cast<int>(longest);
}

int Embedding::TotalQubits() const {
  size_t total = 0;
  for (const auto& chain : chains) total += chain.size();
  return static_cast<int>(total);
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr size_t kShortRootCandidates = 8;
// Congestion costs: a qubit shared with one other chain first costs 65 free
// qubits, and the price grows by half every overlap-removal pass.
constexpr double kInitialPresent = 64.0;
constexpr double kPresentGrowth = 1.5;
constexpr double kHistoryStep = 1.0;

// Returns the stop status from a member function of Embedder once the budget or
// the interrupter says stop.
#define RETURN_IF_STOPPED() \
  do {                      \
    if (Stopped()) {        \
      return stop_status_;  \
    }                       \
  } while (false)

class Embedder {
 public:
  Embedder(const ProblemGraph& problem, const HardwareGraph& target,
           const EmbeddingOptions& options, Interrupter* interrupter,
           absl::Time deadline)
      : n_(problem.num_variables),
        target_(target),
        options_(options),
        interrupter_(interrupter),
        deadline_(deadline),
        adjacency_(problem.num_variables),
        rng_(options.seed) {
    for (const auto& [a, b] : problem.edges) {
      adjacency_[a].push_back(b);
      adjacency_[b].push_back(a);
    }
  }

  // Runs the tries. On success the chains (dense indices) are in chains_.
  absl::Status Run(EmbeddingStats& stats) {
    const int tries = std::max(1, options_.tries);
    for (int attempt = 0; attempt < tries; ++attempt) {
      stats.tries = attempt + 1;
      RETURN_IF_STOPPED();
      if (!InitialPlacement()) {
        RETURN_IF_STOPPED();
        continue;
      }
      bool overlap_free = false;
      int64_t best_overlap = Overlap();
      int stale = 0;
      while (true) {
        if (Overlap() == 0) {
          overlap_free = true;
          break;
        }
        RETURN_IF_STOPPED();
        for (int q = 0; q < target_.size(); ++q) {
          if (fill_[q] > 1) history_[q] += kHistoryStep * (fill_[q] - 1);
        }
        present_ *= kPresentGrowth;
        for (int v : RandomOrder()) {
          if (Stopped()) break;
          ReleaseTowards(v);
          TearOut(v);
          Place(v, 0);
        }
        ++stats.passes;
        RETURN_IF_STOPPED();
        const int64_t overlap = Overlap();
        if (overlap < best_overlap) {
          best_overlap = overlap;
          stale = 0;
        } else if (++stale > options_.max_no_improvement) {
          break;
        }
      }
      if (!overlap_free) continue;
      ShortenChains(stats);
      Trim();
      return absl::OkStatus();
    }
    return absl::FailedPreconditionError(
        absl::StrCat("no overlap-free embedding found in ", tries, " tries"));
  }

  std::vector<std::vector<int>>& chains() { return chains_; }

 private:
  bool Stopped() {
    if (!stop_status_.ok()) return true;
    if (interrupter_ != nullptr && interrupter_->ShouldStop()) {
      stop_status_ = absl::CancelledError("embedding interrupted");
    } else if (absl::Now() >= deadline_) {
      stop_status_ = absl::DeadlineExceededError("embedding time budget spent");
    }
    return !stop_status_.ok();
  }

  // Negotiated congestion (PathFinder, McMurchie and Ebeling 1995, which the
  // CMR heuristic adapts): a shared qubit costs (1 + history) * (1 + present *
  // fill); `present` grows every pass and `history` accumulates on qubits that
  // stay shared, so contested regions become ever dearer until some chain moves
  // away.
  double Weight(int q) const {
    if (shortening_) return 1.0;
    const double base = 1.0 + history_[q];
    return fill_[q] == 0 ? base : base * (1.0 + present_ * fill_[q]);
  }

  std::vector<int> RandomOrder() {
    std::vector<int> order(n_);
    std::iota(order.begin(), order.end(), 0);
    for (int i = n_ - 1; i > 0; --i)
      std::swap(order[i], order[rng_.NextBelow(i + 1)]);
    return order;
  }

  int MaxFill() const {
    return fill_.empty() ? 0 : *std::max_element(fill_.begin(), fill_.end());
  }
  int64_t Overlap() const {
    int64_t overlap = 0;
    for (int f : fill_) overlap += std::max(0, f - 1);
    return overlap;
  }

  void TearOut(int v) {
    for (int q : chains_[v]) --fill_[q];
    chains_[v].clear();
  }
  void Assign(int v, std::vector<int> chain) {
    for (int q : chain) ++fill_[q];
    chains_[v] = std::move(chain);
  }

  // Places variables in breadth-first order, each next to its already placed
  // neighbours.
  bool InitialPlacement() {
    chains_.assign(n_, {});
    fill_.assign(target_.size(), 0);
    history_.assign(target_.size(), 0.0);
    present_ = kInitialPresent;
    shortening_ = false;
    std::vector<char> seen(n_, 0);
    for (int start : RandomOrder()) {
      if (seen[start]) continue;
      std::deque<int> queue = {start};
      seen[start] = 1;
      while (!queue.empty()) {
        if (Stopped()) return false;
        const int v = queue.front();
        queue.pop_front();
        if (!Place(v, 0)) return false;
        std::vector<int> next = adjacency_[v];
        for (size_t i = next.size(); i > 1; --i)
          std::swap(next[i - 1], next[rng_.NextBelow(i)]);
        for (int u : next) {
          if (!seen[u]) {
            seen[u] = 1;
            queue.push_back(u);
          }
        }
      }
    }
    return true;
  }

  // Node-weighted Dijkstra from chain `u`: cost[q] = sum of the weights of the
  // qubits on the cheapest path from the chain to q, q included and the chain's
  // own qubits excluded (0 on the chain). With bound > 0, qubits already used
  // by `bound` chains cannot be entered.
  void Dijkstra(int u, int bound, std::vector<double>& cost,
                std::vector<int>& parent) {
    cost.assign(target_.size(), kInf);
    parent.assign(target_.size(), -1);
    if (shortening_) {
      // Unit weights: breadth-first search gives the same distances, faster.
      std::vector<int>& queue = bfs_queue_;
      queue.clear();
      for (int q : chains_[u]) {
        cost[q] = 0;
        queue.push_back(q);
      }
      for (size_t head = 0; head < queue.size(); ++head) {
        const int x = queue[head];
        for (int y : target_.neighbors(x)) {
          if ((bound > 0 && fill_[y] >= bound) || cost[y] != kInf) continue;
          cost[y] = cost[x] + 1;
          parent[y] = x;
          queue.push_back(y);
        }
      }
      return;
    }
    using Entry = std::pair<double, int>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
    for (int q : chains_[u]) {
      cost[q] = 0;
      heap.push({0.0, q});
    }
    while (!heap.empty()) {
      const auto [d, x] = heap.top();
      heap.pop();
      if (d > cost[x]) continue;
      for (int y : target_.neighbors(x)) {
        if (bound > 0 && fill_[y] >= bound) continue;
        const double next = d + Weight(y);
        if (next < cost[y]) {
          cost[y] = next;
          parent[y] = x;
          heap.push({next, y});
        }
      }
    }
  }

  // Builds the chain of torn-out variable v from `root`: a Steiner tree whose
  // branches join the placed neighbours nearest first, each from the tree qubit
  // closest to that neighbour, so branches share their common stretches.
  // branches[k] lists the qubits added for placed[k], from the tree outwards;
  // anchors are the qubits other branches start from.
  struct Tree {
    std::vector<int> chain;
    std::vector<std::vector<int>> branches;
    std::vector<int> anchors;
  };

  Tree BuildTree(int root, const std::vector<int>& placed) {
    Tree tree;
    tree.chain = {root};
    tree.anchors = {root};
    tree.branches.resize(placed.size());
    ++stamp_;
    mark_[root] = stamp_;
    std::vector<size_t> by_distance(placed.size());
    std::iota(by_distance.begin(), by_distance.end(), 0);
    std::sort(by_distance.begin(), by_distance.end(), [&](size_t a, size_t b) {
      return costs_[a][root] < costs_[b][root];
    });
    for (size_t k : by_distance) {
      int from = -1;
      double cheapest = kInf;
      for (int t : tree.chain) {
        const double c = costs_[k][t];
        if (c == 0) {  // the tree already overlaps that neighbour's chain
          from = -1;
          break;
        }
        const double beyond = c - Weight(t);
        if (beyond < cheapest) {
          cheapest = beyond;
          from = t;
        }
      }
      if (from < 0) continue;
      tree.anchors.push_back(from);
      for (int x = parents_[k][from]; costs_[k][x] != 0; x = parents_[k][x]) {
        if (mark_[x] != stamp_) {
          mark_[x] = stamp_;
          tree.chain.push_back(x);
          tree.branches[k].push_back(x);
        }
      }
    }
    return tree;
  }

  // Places torn-out variable v at the root minimising its own weight plus the
  // path costs to every placed neighbour. With `shortest`, the few cheapest
  // roots are all tried and the one giving the smallest chain wins. Then each
  // branch's end, which serves only the link to one neighbour, is handed to
  // that neighbour (while it stays shorter than v's chain when `balance`),
  // which keeps chains balanced and lets the next tear-out of that neighbour
  // release it. False when no qubit qualifies under `bound`.
  bool Place(int v, int bound, bool shortest = false, bool balance = false) {
    std::vector<int> placed;
    for (int u : adjacency_[v]) {
      if (!chains_[u].empty()) placed.push_back(u);
    }
    const int size = target_.size();
    if (mark_.size() < static_cast<size_t>(size)) mark_.assign(size, 0);
    if (placed.empty()) {
      int best_fill = std::numeric_limits<int>::max();
      std::vector<int> candidates;
      for (int q = 0; q < size; ++q) {
        if (bound > 0 && fill_[q] >= bound) continue;
        if (fill_[q] < best_fill) {
          best_fill = fill_[q];
          candidates.clear();
        }
        if (fill_[q] == best_fill) candidates.push_back(q);
      }
      if (candidates.empty()) return false;
      Assign(v, {candidates[rng_.NextBelow(candidates.size())]});
      return true;
    }
    if (costs_.size() < placed.size()) {
      costs_.resize(placed.size());
      parents_.resize(placed.size());
    }
    for (size_t k = 0; k < placed.size(); ++k)
      Dijkstra(placed[k], bound, costs_[k], parents_[k]);
    std::vector<std::pair<double, int>> scored;
    double best = kInf;
    for (int q = 0; q < size; ++q) {
      if (bound > 0 && fill_[q] >= bound) continue;
      const double w = Weight(q);
      double total = w;
      for (size_t k = 0; k < placed.size(); ++k) {
        const double c = costs_[k][q];
        if (c == kInf) {
          total = kInf;
          break;
        }
        total += c == 0 ? 0 : c - w;
      }
      if (total == kInf) continue;
      best = std::min(best, total);
      scored.emplace_back(total, q);
    }
    if (scored.empty()) return false;
    Tree tree;
    if (!shortest) {
      std::vector<int> roots;
      for (const auto& [total, q] : scored) {
        if (total <= best * (1 + 1e-12)) roots.push_back(q);
      }
      tree = BuildTree(roots[rng_.NextBelow(roots.size())], placed);
    } else {
      const size_t tries =
          std::min<size_t>(scored.size(), kShortRootCandidates);
      std::partial_sort(scored.begin(),
                        scored.begin() + static_cast<std::ptrdiff_t>(tries),
                        scored.end());
      for (size_t i = 0; i < tries; ++i) {
        Tree candidate = BuildTree(scored[i].second, placed);
        if (i == 0 || candidate.chain.size() < tree.chain.size())
          tree = std::move(candidate);
      }
    }
    Assign(v, tree.chain);
    FlipBack(v, placed, tree, balance);
    return true;
  }

  void FlipBack(int v, const std::vector<int>& placed, const Tree& tree,
                bool balance) {
    ++stamp_;
    for (int a : tree.anchors) mark_[a] = stamp_;
    std::vector<int> given;
    for (size_t k = 0; k < placed.size(); ++k) {
      const std::vector<int>& branch = tree.branches[k];
      auto& receiver = chains_[placed[k]];
      for (size_t i = branch.size(); i-- > 0;) {
        const int x = branch[i];
        if (mark_[x] == stamp_) break;
        if (balance && receiver.size() + 1 >= chains_[v].size() - given.size())
          break;
        receiver.push_back(x);
        given.push_back(x);
      }
    }
    if (given.empty()) return;
    ++stamp_;
    for (int x : given) mark_[x] = stamp_;
    auto& chain = chains_[v];
    chain.erase(std::remove_if(chain.begin(), chain.end(),
                               [&](int q) { return mark_[q] == stamp_; }),
                chain.end());
  }

  // Before v is torn out, its neighbours drop the qubits that only reach
  // towards v (the tear-out would leave them dangling): leaves of their chains
  // that no other edge of theirs needs.
  void ReleaseTowards(int v) {
    for (int u : adjacency_[v]) {
      if (chains_[u].size() > 1) TrimChain(u, v);
    }
  }

  // Drops leaf qubits of u's chain that no logical edge of u needs (except the
  // edge to `ignore`).
  void TrimChain(int u, int ignore) {
    auto& chain = chains_[u];
    bool changed = true;
    while (changed && chain.size() > 1) {
      changed = false;
      for (size_t i = 0; i < chain.size(); ++i) {
        const int q = chain[i];
        int inner = 0;
        for (int p : chain) inner += (p != q && target_.HasEdge(p, q)) ? 1 : 0;
        if (inner > 1) continue;
        bool needed = false;
        for (int w : adjacency_[u]) {
          if (w == ignore || chains_[w].empty()) continue;
          if (!ChainsTouch(chain, q, chains_[w])) {
            needed = true;
            break;
          }
        }
        if (needed) continue;
        --fill_[q];
        chain.erase(chain.begin() + static_cast<std::ptrdiff_t>(i));
        changed = true;
        break;
      }
    }
  }

  // With overlaps forbidden, re-places each chain at the root giving the
  // smallest chain, keeping the change only when v and its neighbours do not
  // grow in total and the longest of them does not grow.
  void ShortenChains(EmbeddingStats& stats) {
    shortening_ = true;
    int64_t best_total = TotalSize();
    int best_max = MaxChain();
    int stale = 0;
    while (stale < options_.chainlength_patience && !Stopped()) {
      for (int v : RandomOrder()) {
        if (Stopped()) return;
        std::vector<std::pair<int, std::vector<int>>> saved = {{v, chains_[v]}};
        size_t before = chains_[v].size(), longest_before = chains_[v].size();
        for (int u : adjacency_[v]) {
          saved.emplace_back(u, chains_[u]);
          before += chains_[u].size();
          longest_before = std::max(longest_before, chains_[u].size());
        }
        ReleaseTowards(v);
        TearOut(v);
        bool keep = Place(v, 1, /*shortest=*/true, /*balance=*/true);
        if (keep) {
          size_t after = chains_[v].size(), longest_after = chains_[v].size();
          for (int u : adjacency_[v]) {
            after += chains_[u].size();
            longest_after = std::max(longest_after, chains_[u].size());
          }
          keep = longest_after < longest_before ||
                 (longest_after == longest_before && after <= before);
        }
        if (!keep) {
          for (auto& [u, chain] : saved) {
            for (int q : chains_[u]) --fill_[q];
            for (int q : chain) ++fill_[q];
            chains_[u] = std::move(chain);
          }
        }
      }
      ++stats.passes;
      const int64_t total = TotalSize();
      const int longest = MaxChain();
      if (longest < best_max || (longest == best_max && total < best_total)) {
        best_total = total;
        best_max = longest;
        stale = 0;
      } else {
        ++stale;
      }
    }
  }

  int MaxChain() const {
    size_t longest = 0;
    for (const auto& c : chains_) longest = std::max(longest, c.size());
    return static_cast<int>(longest);
  }

  int64_t TotalSize() const {
    int64_t total = 0;
    for (const auto& c : chains_) total += static_cast<int64_t>(c.size());
    return total;
  }

  bool ChainsTouch(const std::vector<int>& a, int skip,
                   const std::vector<int>& b) const {
    for (int p : a) {
      if (p == skip) continue;
      for (int r : b) {
        if (target_.HasEdge(p, r)) return true;
      }
    }
    return false;
  }

  // Drops leaf qubits whose removal leaves every logical edge covered.
  void Trim() {
    for (int v = 0; v < n_; ++v) {
      bool changed = true;
      while (changed && chains_[v].size() > 1) {
        changed = false;
        auto& chain = chains_[v];
        for (size_t i = 0; i < chain.size(); ++i) {
          const int q = chain[i];
          int inner = 0;
          for (int p : chain)
            inner += (p != q && target_.HasEdge(p, q)) ? 1 : 0;
          if (inner > 1) continue;
          bool needed = false;
          for (int u : adjacency_[v]) {
            if (!ChainsTouch(chain, q, chains_[u])) {
              needed = true;
              break;
            }
          }
          if (needed) continue;
          --fill_[q];
          chain.erase(chain.begin() + static_cast<std::ptrdiff_t>(i));
          changed = true;
          break;
        }
      }
    }
  }

  const int n_;
  const HardwareGraph& target_;
  const EmbeddingOptions& options_;
  Interrupter* const interrupter_;
  const absl::Time deadline_;
  std::vector<std::vector<int>> adjacency_;
  Xoshiro256 rng_;
  std::vector<double> history_;
  double present_ = kInitialPresent;
  bool shortening_ = false;
  std::vector<std::vector<int>> chains_;
  std::vector<int> fill_;
  std::vector<std::vector<double>> costs_;
  std::vector<std::vector<int>> parents_;
  std::vector<uint32_t> mark_;
  std::vector<int> bfs_queue_;
  uint32_t stamp_ = 0;
  absl::Status stop_status_;
};

// A lower bound on the qubits an embedding needs: a chain of L qubits on a
// graph of maximum degree D has at most L * D - 2 (L - 1) couplers leaving it,
// so a variable of degree d needs L >= (d - 2) / (D - 2).
int64_t MinimumQubits(const ProblemGraph& problem,
                      const HardwareGraph& target) {
  int max_degree = 0;
  for (int q = 0; q < target.size(); ++q) {
    max_degree =
        std::max(max_degree, static_cast<int>(target.neighbors(q).size()));
  }
  std::vector<int> degree(problem.num_variables, 0);
  for (const auto& [a, b] : problem.edges) {
    ++degree[a];
    ++degree[b];
  }
  int64_t total = 0;
  for (int d : degree) {
    int64_t length = 1;
    if (d > max_degree) {
      length = max_degree <= 2
                   ? std::numeric_limits<int32_t>::max()
                   : (d - 2 + (max_degree - 2) - 1) / (max_degree - 2);
    }
    total += std::max<int64_t>(1, length);
  }
  return total;
}

#undef RETURN_IF_STOPPED

}  // namespace

absl::StatusOr<Embedding> FindEmbedding(const ProblemGraph& problem,
                                        const HardwareGraph& target,
                                        const EmbeddingOptions& options,
                                        Interrupter* interrupter,
                                        EmbeddingStats* stats) {
  const absl::Time start = absl::Now();
  EmbeddingStats local;
  EmbeddingStats& s = stats != nullptr ? *stats : local;
  s = EmbeddingStats{};
  for (const auto& [a, b] : problem.edges) {
    if (a < 0 || b < 0 || a >= problem.num_variables ||
        b >= problem.num_variables || a == b) {
      return absl::InvalidArgumentError(
          absl::StrCat("problem edge (", a, ",", b,
                       ") is not a pair of distinct variables"));
    }
  }
  const std::string what =
      absl::StrCat("the ", problem.num_variables, "-variable, ",
                   problem.edges.size(), "-edge problem graph");
  const int64_t needed = MinimumQubits(problem, target);
  if (needed > target.size()) {
    return absl::FailedPreconditionError(absl::StrCat(
        what, " needs at least ", needed,
        " qubits; the solver's working graph has ", target.size()));
  }
  Embedder embedder(problem, target, options, interrupter,
                    start + options.timeout);
  absl::Status status = embedder.Run(s);
  s.elapsed = absl::Now() - start;
  if (status.code() == absl::StatusCode::kCancelled) return status;
  if (!status.ok()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "no minor embedding of ", what, " onto the solver's working graph (",
        target.size(), " qubits) was found within ",
        absl::FormatDuration(options.timeout), " and ",
        std::max(1, options.tries), " tries (", status.message(), ")"));
  }
  Embedding embedding;
  for (auto& chain : embedder.chains()) {
    std::vector<int> labels;
    for (int q : chain) labels.push_back(target.qubits()[q]);
    std::sort(labels.begin(), labels.end());
    embedding.chains.push_back(std::move(labels));
  }
  absl::Status valid = ValidateEmbedding(problem, target, embedding);
  if (!valid.ok()) return valid;
  return embedding;
}

absl::Status ValidateEmbedding(const ProblemGraph& problem,
                               const HardwareGraph& target,
                               const Embedding& embedding) {
  if (static_cast<int>(embedding.chains.size()) != problem.num_variables) {
    return absl::InternalError(
        absl::StrCat("embedding has ", embedding.chains.size(), " chains for ",
                     problem.num_variables, " variables"));
  }
  std::vector<int> owner(target.size(), -1);
  std::vector<std::vector<int>> dense(problem.num_variables);
  for (int v = 0; v < problem.num_variables; ++v) {
    if (embedding.chains[v].empty())
      return absl::InternalError(
          absl::StrCat("chain of variable ", v, " is empty"));
    for (int label : embedding.chains[v]) {
      const int q = target.IndexOf(label);
      if (q < 0) {
        return absl::InternalError(absl::StrCat("chain of variable ", v,
                                                " uses qubit ", label,
                                                " which is not working"));
      }
      if (owner[q] != -1) {
        return absl::InternalError(
            absl::StrCat("qubit ", label, " is in the chains of variables ",
                         owner[q], " and ", v));
      }
      owner[q] = v;
      dense[v].push_back(q);
    }
  }
  for (int v = 0; v < problem.num_variables; ++v) {
    std::vector<int> stack = {dense[v][0]};
    std::vector<int> reached = {dense[v][0]};
    while (!stack.empty()) {
      const int q = stack.back();
      stack.pop_back();
      for (int p : target.neighbors(q)) {
        if (owner[p] == v &&
            std::find(reached.begin(), reached.end(), p) == reached.end()) {
          reached.push_back(p);
          stack.push_back(p);
        }
      }
    }
    if (reached.size() != dense[v].size()) {
      return absl::InternalError(
          absl::StrCat("chain of variable ", v, " is not connected"));
    }
  }
  for (const auto& [a, b] : problem.edges) {
    bool covered = false;
    for (int q : dense[a]) {
      for (int p : target.neighbors(q)) {
        if (owner[p] == b) {
          covered = true;
          break;
        }
      }
      if (covered) break;
    }
    if (!covered) {
      return absl::InternalError(absl::StrCat(
          "no coupler between the chains of variables ", a, " and ", b));
    }
  }
  return absl::OkStatus();
}

uint64_t ProblemGraphHash(const ProblemGraph& problem) {
  std::vector<std::pair<int, int>> edges = problem.edges;
  for (auto& [a, b] : edges) {
    if (a > b) std::swap(a, b);
  }
  std::sort(edges.begin(), edges.end());
  uint64_t h = DeriveSeed(0x5eed, static_cast<uint64_t>(problem.num_variables));
  for (const auto& [a, b] : edges) {
    h = DeriveSeed(h, (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) |
                          static_cast<uint32_t>(b));
  }
  return h;
}

namespace {
std::string CacheKey(const std::string& graph_id, uint64_t problem_hash) {
  return absl::StrCat(graph_id, "/", problem_hash);
}
}  // namespace

std::optional<Embedding> EmbeddingCache::Lookup(const std::string& graph_id,
                                                uint64_t problem_hash) const {
  absl::MutexLock lock(&mu_);
  auto it = entries_.find(CacheKey(graph_id, problem_hash));
  if (it == entries_.end()) return std::nullopt;
  return it->second;
}

void EmbeddingCache::Insert(const std::string& graph_id, uint64_t problem_hash,
                            Embedding embedding) {
  absl::MutexLock lock(&mu_);
  const std::string key = CacheKey(graph_id, problem_hash);
  if (!entries_.contains(key)) order_.push_back(key);
  entries_[key] = std::move(embedding);
  while (order_.size() > capacity_) {
    entries_.erase(order_.front());
    order_.erase(order_.begin());
  }
}

size_t EmbeddingCache::size() const {
  absl::MutexLock lock(&mu_);
  return entries_.size();
}

}  // namespace qs::dwave
