// The `qp` wire format of SAPI (docs/dwave-protocol.md §1.4 problem data,
// §1.6 answers, §1.7 worked example): base64 (standard alphabet, padded) of
// little-endian float64 / int32 arrays, and bit-packed solutions with the first
// active variable in the most significant bit (what the official decoders and
// the documented live answer agree on, §5.7).
#ifndef QS_CORE_SAMPLE_DWAVE_QP_CODEC_H_
#define QS_CORE_SAMPLE_DWAVE_QP_CODEC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qs::dwave {

// SAPI's problem types. The sampler submits Ising problems; the QUBO type is
// known so that its answers (0/1 values) decode too.
enum class QpProblemType { kIsing, kQubo };

// A problem on physical qubits, in the units of its type (Ising: h/J, QUBO:
// Q diagonal/off-diagonal).
struct PhysicalProblem {
  absl::flat_hash_map<int, double> linear;  // qubit label -> bias
  std::vector<std::pair<std::pair<int, int>, double>>
      quadratic;  // (a, b) labels -> bias, either order
};

struct QpData {
  std::string lin;   // base64
  std::string quad;  // base64
};

// Encodes against a solver's `qubits` and `couplers` lists (their order defines
// the array order). INVALID_ARGUMENT when the problem uses a qubit or coupler
// that is not in the lists.
absl::StatusOr<QpData> EncodeQp(
    const PhysicalProblem& problem, const std::vector<int>& qubits,
    const std::vector<std::pair<int, int>>& couplers);

// The inverse on the solver's lists: the active qubits (non-NaN lin) with their
// biases and the active couplers' biases. INVALID_ARGUMENT for bad base64 or
// lengths, NaN/Inf in quad or an infinite lin.
absl::StatusOr<PhysicalProblem> DecodeQp(
    const QpData& data, const std::vector<int>& qubits,
    const std::vector<std::pair<int, int>>& couplers);

// A decoded `qp` answer.
struct QpAnswer {
  int num_variables = 0;
  std::vector<int> active_variables;  // qubit labels
  std::vector<std::vector<int8_t>>
      solutions;                 // per solution, one value per active variable
  std::vector<double> energies;  // as SAPI reports them (no offset)
  std::vector<int64_t> num_occurrences;  // all 1 when the answer has none
};

// Fields of an answer object as base64 strings. `num_occurrences` may be absent
// (raw answer mode).
struct QpAnswerFields {
  int num_variables = 0;
  std::string active_variables;
  std::string solutions;
  std::string energies;
  std::optional<std::string> num_occurrences;
};

// Decodes an answer of a problem of type `type` (Ising: bits map to -1/+1,
// QUBO: 0/1).
absl::StatusOr<QpAnswer> DecodeQpAnswer(const QpAnswerFields& fields,
                                        QpProblemType type);

// The inverse (for the emulator): values are -1/+1 for ising or 0/1 for qubo.
QpAnswerFields EncodeQpAnswer(const QpAnswer& answer);

// Little-endian array helpers.
std::string EncodeFloat64s(const std::vector<double>& values);
absl::StatusOr<std::vector<double>> DecodeFloat64s(absl::string_view base64,
                                                   absl::string_view field);
std::string EncodeInt32s(const std::vector<int32_t>& values);
absl::StatusOr<std::vector<int32_t>> DecodeInt32s(absl::string_view base64,
                                                  absl::string_view field);

}  // namespace qs::dwave

#endif  // QS_CORE_SAMPLE_DWAVE_QP_CODEC_H_
