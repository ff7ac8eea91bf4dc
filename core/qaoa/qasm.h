// The QAOA circuit of a reduced model as OpenQASM, for gate-based hardware:
// Hadamards on every qubit, then per layer the cost exp(-i gamma C) and the X
// mixer exp(-i beta B), then a measurement of every qubit. Qubit q[k] is
// variable k of the reduced model (CompileResponse.variable_map gives its
// full-model index), |1> is x_k = 1. Gates (docs/qaoa.md):
//   w Z_k          -> rz(2 gamma w) q[k]
//   w Z_a Z_b ...  -> a cx ladder onto the last qubit, rz(2 gamma w) on it,
//                     the ladder back (stdgates.inc has no rzz)
//   mixer          -> rx(2 beta) q[k]
// up to a global phase (the constant of C). OpenQASM 3 uses stdgates.inc,
// OpenQASM 2.0 only the gates of qelib1.inc (h, rz, rx, cx).
#ifndef QS_CORE_QAOA_QASM_H_
#define QS_CORE_QAOA_QASM_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "core/compile/compiler.h"
#include "core/qaoa/angles.h"
#include "core/qaoa/phase_polynomial.h"
#include "qs/v1/solve.pb.h"

namespace qs {

struct QaoaCircuit {
  std::string qasm;
  int qubits = 0;
  int layers = 0;
  uint64_t single_qubit_gates = 0;  // h, rz, rx
  uint64_t two_qubit_gates = 0;     // cx
  uint64_t depth = 0;               // gate layers, measurement excluded
};

// Gates an exported circuit may have.
inline constexpr uint64_t kMaxQaoaCircuitGates = 10000000;

// The gates of the circuit, from the cost and the layers alone.
uint64_t QaoaCircuitGates(const PhasePolynomial& cost, int layers);

// version: 2 or 3.
QaoaCircuit QaoaQasm(const PhasePolynomial& cost, const QaoaAngles& angles,
                     int version);

// The circuit of CompileOptions.qaoa_circuit into response.qasm and the qaoa_
// fields of response.stats. INVALID_ARGUMENT naming
// "options.qaoa_circuit.<field>"; RESOURCE_EXHAUSTED above
// kMaxQaoaCircuitGates gates or kMaxPhaseQubits qubits.
absl::Status AddQaoaCircuit(const CompiledProblem& problem,
                            const v1::QaoaCircuitOptions& options,
                            v1::CompileResponse& response);

}  // namespace qs

#endif  // QS_CORE_QAOA_QASM_H_
