// HardwareGraph: the working graph of a QPU (qubit labels and couplers) and
// generators of the D-Wave topologies, Chimera C(m,n,t), Pegasus P_m (fabric
// only) and Zephyr Z(m,t), following docs/dwave-protocol.md §3.2
// (coordinates, label formulas and edge rules of dwave-networkx). Also the
// seeded removal of qubits and couplers that makes a generated graph look like
// a real working graph, and the graph id SAPI reports in a solver's identity.
#ifndef QS_CORE_SAMPLE_DWAVE_HARDWARE_GRAPH_H_
#define QS_CORE_SAMPLE_DWAVE_HARDWARE_GRAPH_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qs::dwave {

// A QPU working graph. Qubits are labelled as SAPI labels them; the graph also
// numbers them densely (index 0..size-1 in ascending label order) for the
// algorithms.
class HardwareGraph {
 public:
  HardwareGraph() = default;
  // `qubits`: working qubit labels; `couplers`: pairs of working labels. Both
  // are normalised (sorted, pairs as (min, max), duplicates dropped).
  // INVALID_ARGUMENT for a coupler on a non-working qubit or a self loop.
  // `num_qubits` is the nominal count, broken qubits included (0: largest label
  // + 1).
  static absl::StatusOr<HardwareGraph> Create(
      std::vector<int> qubits, std::vector<std::pair<int, int>> couplers,
      int num_qubits = 0);

  int num_qubits() const { return num_qubits_; }
  // Working qubits, ascending; position = dense index.
  const std::vector<int>& qubits() const { return qubits_; }
  // Working couplers (labels, first < second), sorted.
  const std::vector<std::pair<int, int>>& couplers() const { return couplers_; }
  int size() const { return static_cast<int>(qubits_.size()); }
  // Dense index of a label, -1 when the qubit does not work.
  int IndexOf(int label) const;
  // Dense neighbours of a dense index.
  const std::vector<int>& neighbors(int index) const {
    return adjacency_[index];
  }
  bool HasEdge(int a_index, int b_index) const;

 private:
  int num_qubits_ = 0;
  std::vector<int> qubits_;
  std::vector<std::pair<int, int>> couplers_;
  absl::flat_hash_map<int, int> index_of_;
  std::vector<std::vector<int>> adjacency_;
};

// Full-yield graphs.
HardwareGraph ChimeraGraph(int m, int n, int t);
// The fabric of P_m: 24m(m-1) - 8(m-1) qubits (P16: 5640 qubits, 40484
// couplers), num_qubits 24m(m-1).
HardwareGraph PegasusGraph(int m);
// Z(m,t): 4tm(2m+1) qubits (Z(12,4): 4800 qubits, 45864 couplers).
HardwareGraph ZephyrGraph(int m, int t);
// The complete graph on the given labels.
HardwareGraph CliqueGraph(const std::vector<int>& labels, int num_qubits);

// Removes a seeded random fraction of qubits (with their couplers) and then of
// the remaining couplers.
HardwareGraph RemoveDefects(const HardwareGraph& graph, uint64_t seed,
                            double qubit_fraction, double coupler_fraction);

// Ten hex digits of a hash of the qubit and coupler lists: changes whenever the
// working graph changes.
std::string GraphId(const HardwareGraph& graph);

// A graph from a topology name and shape as SAPI's `topology` property gives
// them ("pegasus" [16], "zephyr" [12, 4], "chimera" [16, 16, 4]).
// INVALID_ARGUMENT for anything else.
absl::StatusOr<HardwareGraph> GraphForTopology(absl::string_view type,
                                               const std::vector<int>& shape);

}  // namespace qs::dwave

#endif  // QS_CORE_SAMPLE_DWAVE_HARDWARE_GRAPH_H_
