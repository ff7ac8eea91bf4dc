// The plain QUBO text format of tests/data/instances, read and written as
// qs.v1.QuboModel:
//
//   n m offset          header: variables, number of term lines, constant
//   i j w               m lines, 0-based, i <= j; i == j is the linear term
//   Q_ii
//
// '#' comment lines and blank lines are ignored. `qsolve compile --export`
// writes this format; dimod users read it with
// `dimod.BinaryQuadraticModel.from_qubo` after splitting the header off.
#ifndef QS_CLIENTS_FORMATS_QUBO_TEXT_H_
#define QS_CLIENTS_FORMATS_QUBO_TEXT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qs/v1/qubo.pb.h"

namespace qs::formats {

// Parses the text format (BINARY). Errors name the line.
absl::StatusOr<v1::QuboModel> ParseQuboText(absl::string_view text);
// Reads a file in the text format.
absl::StatusOr<v1::QuboModel> ReadQuboFile(const std::string& path);
// Writes the text format; terms in the model's order, weights with the fewest
// digits that read back exactly. A SPIN model is rejected (convert it on the
// server with Compile first).
absl::StatusOr<std::string> FormatQuboText(const v1::QuboModel& model);

}  // namespace qs::formats

#endif  // QS_CLIENTS_FORMATS_QUBO_TEXT_H_
