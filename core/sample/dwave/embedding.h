// Minor embedding of a logical problem graph onto a QPU working graph: the
// Cai-Macready-Roy heuristic (arXiv:1406.2741; docs/dwave-protocol.md §3.3).
// Chains may overlap while searching; a qubit used by f chains costs beta^f in
// a node-weighted Dijkstra, so re-routing every chain in turn (tear out,
// re-place at the cheapest Steiner root) drives the overlaps out; then chains
// are re-placed with overlaps forbidden to shorten them, and leaf qubits no
// edge needs are trimmed. Seeded, bounded by a time budget and the Interrupter,
// restarted from scratch when stuck. Every result is validated (§3.5) before
// use, and an EmbeddingCache keyed by (solver graph id, problem graph hash)
// spares re-embedding puzzles of one shape.
#ifndef QS_CORE_SAMPLE_DWAVE_EMBEDDING_H_
#define QS_CORE_SAMPLE_DWAVE_EMBEDDING_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/base/interrupter.h"
#include "core/sample/dwave/hardware_graph.h"

namespace qs::dwave {

// A logical problem graph: variables 0..num_variables-1 and edges (i < j, no
// duplicates).
struct ProblemGraph {
  int num_variables = 0;
  std::vector<std::pair<int, int>> edges;
};

// chains[v]: the qubit labels of variable v.
struct Embedding {
  std::vector<std::vector<int>> chains;

  int MaxChainLength() const;
  int TotalQubits() const;
};

struct EmbeddingOptions {
  uint64_t seed = 1;
  absl::Duration timeout = absl::Seconds(60);
  int tries = 10;  // restarts from scratch
  int max_no_improvement =
      30;  // overlap-removal passes without progress before a restart
  int chainlength_patience =
      3;  // chain-shortening passes without progress before stopping
};

struct EmbeddingStats {
  absl::Duration elapsed;
  int tries = 0;   // restarts used (1 = first try)
  int passes = 0;  // tear-out/re-place passes over all variables
};

// Finds an embedding. FAILED_PRECONDITION (saying why) when the graph cannot
// fit or none was found within the budget; CANCELLED when the interrupter
// fired. `interrupter` may be null.
absl::StatusOr<Embedding> FindEmbedding(const ProblemGraph& problem,
                                        const HardwareGraph& target,
                                        const EmbeddingOptions& options,
                                        Interrupter* interrupter,
                                        EmbeddingStats* stats = nullptr);

// OK when every chain is non-empty, uses working qubits only and is connected,
// chains are pairwise disjoint, and every logical edge has a working coupler
// between its two chains; else INTERNAL naming the first fault.
absl::Status ValidateEmbedding(const ProblemGraph& problem,
                               const HardwareGraph& target,
                               const Embedding& embedding);

// A stable hash of the variable count and edge set (edges in any order).
uint64_t ProblemGraphHash(const ProblemGraph& problem);

// Embeddings by (solver graph id, problem graph hash). Thread-safe. Holds at
// most `capacity` entries (the oldest is dropped first).
class EmbeddingCache {
 public:
  explicit EmbeddingCache(size_t capacity = 64) : capacity_(capacity) {}
  std::optional<Embedding> Lookup(const std::string& graph_id,
                                  uint64_t problem_hash) const;
  void Insert(const std::string& graph_id, uint64_t problem_hash,
              Embedding embedding);
  size_t size() const;

 private:
  const size_t capacity_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, Embedding> entries_ ABSL_GUARDED_BY(mu_);
  std::vector<std::string> order_ ABSL_GUARDED_BY(mu_);
};

}  // namespace qs::dwave

#endif  // QS_CORE_SAMPLE_DWAVE_EMBEDDING_H_
