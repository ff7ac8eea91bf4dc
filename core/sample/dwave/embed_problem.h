// Putting a logical QUBO onto embedded chains and reading samples back
// (docs/dwave-protocol.md §3.6, after dwave-system's
// EmbeddedStructure.embed_bqm with smear_vartype=SPIN and its majority-vote
// unembedding): the QUBO goes to Ising form, each variable's h is spread evenly
// over its chain, each logical J evenly over every working coupler between the
// two chains, and every coupler inside a chain gets -chain_strength (with
// +chain_strength in the offset, so an intact chain adds nothing).
#ifndef QS_CORE_SAMPLE_DWAVE_EMBED_PROBLEM_H_
#define QS_CORE_SAMPLE_DWAVE_EMBED_PROBLEM_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "core/qubo/qubo.h"
#include "core/sample/dwave/embedding.h"
#include "core/sample/dwave/hardware_graph.h"
#include "core/sample/dwave/qp_codec.h"

namespace qs::dwave {

// Uniform torque compensation: prefactor * sqrt(sum J^2 / #interactions) *
// sqrt(average degree), on the logical Ising couplings; 1 when there are none.
double UniformTorqueCompensation(const IsingModel& logical, double prefactor);

// The logical problem graph of a model (every variable, one edge per coupler).
ProblemGraph ProblemGraphOf(const Qubo& model);

struct EmbeddedProblem {
  PhysicalProblem ising;  // h per chain qubit, J per used coupler (labels)
  double offset =
      0;  // Ising offset: the logical one plus chain_strength per chain coupler
  double chain_strength = 0;
  int chain_couplers = 0;
};

// INVALID_ARGUMENT when the embedding does not fit the model (chain count) or
// an edge has no coupler.
absl::StatusOr<EmbeddedProblem> EmbedIsing(const IsingModel& logical,
                                           const Embedding& embedding,
                                           const HardwareGraph& target,
                                           double chain_strength);

// Reads logical samples out of physical ones by majority vote (tie: 1).
class ChainReader {
 public:
  // `active_variables`: the answer's qubit labels, in solution order.
  // INVALID_ARGUMENT when a chain qubit is not among them.
  static absl::StatusOr<ChainReader> Create(
      const Embedding& embedding, const std::vector<int>& active_variables);

  // One logical 0/1 value per variable; *broken_chains counts the chains whose
  // qubits disagree.
  std::vector<uint8_t> Read(std::span<const int8_t> physical,
                            int* broken_chains) const;
  int num_chains() const { return static_cast<int>(positions_.size()); }

 private:
  std::vector<std::vector<int>>
      positions_;  // per variable, positions in the answer's solutions
};

}  // namespace qs::dwave

#endif  // QS_CORE_SAMPLE_DWAVE_EMBED_PROBLEM_H_
