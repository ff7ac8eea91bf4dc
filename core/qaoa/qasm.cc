// OpenQASM text of the QAOA circuit, with its gate counts and depth.
#include "core/qaoa/qasm.h"

#include <algorithm>
#include <bit>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/base/status_macros.h"

namespace qs {
namespace {

// Writes gates and keeps each qubit's depth.
class CircuitWriter {
 public:
  CircuitWriter(int qubits, QaoaCircuit& out) : depth_(qubits, 0), out_(out) {}

  void Single(absl::string_view gate, double angle, int q, bool has_angle) {
    if (has_angle) {
      absl::StrAppendFormat(&out_.qasm, "%s(%.17g) q[%d];\n", gate, angle, q);
    } else {
      absl::StrAppend(&out_.qasm, gate, " q[", q, "];\n");
    }
    ++depth_[q];
    ++out_.single_qubit_gates;
  }
  void Cx(int control, int target) {
    absl::StrAppend(&out_.qasm, "cx q[", control, "], q[", target, "];\n");
    depth_[control] = depth_[target] =
        std::max(depth_[control], depth_[target]) + 1;
    ++out_.two_qubit_gates;
  }
  // exp(-i theta/2 Z_{q0} ... Z_{qm}) over the qubits of `mask`.
  void ZRotation(uint64_t mask, double theta) {
    std::vector<int> qubits;
    for (uint64_t m = mask; m != 0; m &= m - 1)
      qubits.push_back(std::countr_zero(m));
    for (size_t k = 0; k + 1 < qubits.size(); ++k) Cx(qubits[k], qubits[k + 1]);
    Single("rz", theta, qubits.back(), true);
    for (size_t k = qubits.size() - 1; k > 0; --k) Cx(qubits[k - 1], qubits[k]);
  }
  uint64_t depth() const {
    return depth_.empty() ? 0 : *std::max_element(depth_.begin(), depth_.end());
  }

 private:
  std::vector<uint64_t> depth_;
  QaoaCircuit& out_;
};

}  // namespace

uint64_t QaoaCircuitGates(const PhasePolynomial& cost, int layers) {
  uint64_t per_layer = static_cast<uint64_t>(cost.num_qubits);
  for (const PhaseTerm& t : cost.terms)
    per_layer += 2 * static_cast<uint64_t>(std::popcount(t.mask)) - 1;
  return cost.num_qubits + static_cast<uint64_t>(layers) * per_layer;
}

QaoaCircuit QaoaQasm(const PhasePolynomial& cost, const QaoaAngles& angles,
                     int version) {
  QaoaCircuit out;
  const int n = cost.num_qubits;
  out.qubits = n;
  out.layers = angles.layers();
  if (version == 2) {
    absl::StrAppend(&out.qasm, "OPENQASM 2.0;\ninclude \"qelib1.inc\";\n");
  } else {
    absl::StrAppend(&out.qasm, "OPENQASM 3.0;\ninclude \"stdgates.inc\";\n");
  }
  absl::StrAppend(&out.qasm, "// QAOA, ", out.layers,
                  " layers; q[k] is variable k of the reduced model, |1> is "
                  "x_k = 1\n");
  absl::StrAppendFormat(&out.qasm,
                        "// cost C = E(x) (offset included); its constant "
                        "%.17g is a global phase\n",
                        cost.constant);
  if (n > 0) {
    absl::StrAppend(&out.qasm,
                    version == 2
                        ? absl::StrCat("qreg q[", n, "];\ncreg c[", n, "];\n")
                        : absl::StrCat("qubit[", n, "] q;\nbit[", n, "] c;\n"));
  }
  CircuitWriter writer(n, out);
  for (int q = 0; q < n; ++q) writer.Single("h", 0, q, false);
  for (int k = 0; k < angles.layers(); ++k) {
    absl::StrAppendFormat(&out.qasm, "// layer %d: gamma %.17g, beta %.17g\n",
                          k + 1, angles.gammas[k], angles.betas[k]);
    for (const PhaseTerm& t : cost.terms)
      writer.ZRotation(t.mask, 2 * angles.gammas[k] * t.w);
    for (int q = 0; q < n; ++q)
      writer.Single("rx", 2 * angles.betas[k], q, true);
  }
  if (n > 0)
    absl::StrAppend(&out.qasm,
                    version == 2 ? "measure q -> c;\n" : "c = measure q;\n");
  out.depth = writer.depth();
  return out;
}

absl::Status AddQaoaCircuit(const CompiledProblem& problem,
                            const v1::QaoaCircuitOptions& options,
                            v1::CompileResponse& response) {
  constexpr absl::string_view kPrefix = "options.qaoa_circuit";
  const uint32_t version = options.qasm_version();
  if (version != 2 && version != 3) {
    return absl::InvalidArgumentError(
        absl::StrCat(kPrefix, ".qasm_version: 2 or 3, got ", version));
  }
  ASSIGN_OR_RETURN(const int layers,
                   CheckQaoaAngles(options.layers(), options.gammas(),
                                   options.betas(), kPrefix));
  ASSIGN_OR_RETURN(const PhasePolynomial cost, ProblemPhasePolynomial(problem));
  if (const uint64_t gates = QaoaCircuitGates(cost, layers);
      gates > kMaxQaoaCircuitGates) {
    return absl::ResourceExhaustedError(
        absl::StrCat(kPrefix, ": ", gates, " gates, over the limit of ",
                     kMaxQaoaCircuitGates));
  }
  const QaoaCircuit circuit = QaoaQasm(
      cost, ResolveQaoaAngles(layers, options.gammas(), options.betas(), cost),
      static_cast<int>(version));
  response.set_qasm(circuit.qasm);
  v1::CompileStats& stats = *response.mutable_stats();
  stats.set_qaoa_qubits(circuit.qubits);
  stats.set_qaoa_single_qubit_gates(circuit.single_qubit_gates);
  stats.set_qaoa_two_qubit_gates(circuit.two_qubit_gates);
  stats.set_qaoa_depth(circuit.depth);
  stats.set_qaoa_layers(circuit.layers);
  return absl::OkStatus();
}

}  // namespace qs
