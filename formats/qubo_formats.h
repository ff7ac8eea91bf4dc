// The file formats of raw models that the standard benchmark sets ship in,
// read into and written from qs.v1.QuboModel (`qsolve --kind qubo --format`):
//
//   text    "n m offset" then m lines "i j w" (0-based; qubo_text.h)
//   qbsolv  "c" comment lines, "p qubo 0 maxNodes nNodes nCouplers", then
//           nNodes lines "i i w" and nCouplers lines "i j w" (0-based)
//   orlib   Beasley's OR-Library bqp files: the number of instances, then per
//           instance "n nnz" and nnz lines "i j q" (1-based). The matrix is
//           symmetric (a line sets q(i,j) = q(j,i); a pair given twice must
//           agree) and the objective sum_i sum_j q(i,j) x_i x_j is maximised
//   coo     "i j w" lines (0-based, i == j linear), as dimod's coo serializer
//           writes them; an optional "# vartype=SPIN" or "# vartype=BINARY"
//           header; the variables are 0 .. the largest index
//   ising   "ising N [OFFSET]" then "h I VALUE" and "J I K VALUE" lines
//           (0-based spins s in {-1, +1}; E = offset + sum h s + sum J s s)
//
// Sense: each file states an objective f; a model read with sense max is
// stored as E = -f with QuboModel.sense MAXIMIZE, so that samplers always
// minimise and the objective is reported as -E. orlib files are maximised by
// default, the others minimised; ReadOptions.sense overrides that. Writers
// write the model's own objective (E, or -E for MAXIMIZE), so that reading the
// file back with the same sense gives the same model.
//
// Errors are INVALID_ARGUMENT naming the line and the field: "qbsolv line 7,
// field 3 (weight): 'x1' is not a number".
#ifndef QS_CLIENTS_FORMATS_QUBO_FORMATS_H_
#define QS_CLIENTS_FORMATS_QUBO_FORMATS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qs/v1/puzzles.pb.h"
#include "qs/v1/qubo.pb.h"

namespace qs::formats {

enum class QuboFormat { kAuto, kText, kQbsolv, kOrlib, kCoo, kIsing };

// "auto", "text", "qbsolv", "orlib", "coo", "ising".
absl::string_view QuboFormatName(QuboFormat format);
absl::StatusOr<QuboFormat> ParseQuboFormatName(absl::string_view name);

struct QuboReadOptions {
  QuboFormat format = QuboFormat::kAuto;
  // Unset: the format's own (orlib: MAXIMIZE, others: MINIMIZE).
  std::optional<v1::Sense> sense;
  // orlib files hold several instances: the one to read, 1-based.
  int instance = 1;
};

// The format of `text` from its first content line: "p qubo" -> qbsolv,
// "ising" -> ising, "# vartype=" -> coo, one number -> orlib, "n m offset"
// followed by exactly m lines of indices below n -> text, other triples ->
// coo. INVALID_ARGUMENT when nothing fits.
absl::StatusOr<QuboFormat> DetectQuboFormat(absl::string_view text);

absl::StatusOr<v1::QuboModel> ParseQuboModel(absl::string_view text,
                                             const QuboReadOptions& options);
// Every instance of an orlib file, in file order.
absl::StatusOr<std::vector<v1::QuboModel>> ParseOrlibInstances(
    absl::string_view text, std::optional<v1::Sense> sense);

// Writes `model` in `format` (not kAuto). qbsolv, orlib and coo have no
// constant: a model with a non-zero offset is refused there (text and ising
// keep it). BINARY and SPIN models are converted exactly where the format
// needs the other form.
absl::StatusOr<std::string> FormatQuboModel(const v1::QuboModel& model,
                                            QuboFormat format);

// Exact conversions between the two forms (x = (s + 1) / 2), terms merged per
// pair; sense and labels are kept.
v1::QuboModel SpinToBinary(const v1::QuboModel& model);
v1::QuboModel BinaryToSpin(const v1::QuboModel& model);

// Per-format readers and writers (one file each; ParseQuboModel dispatches).
// They read the file's objective f as written, sense MINIMIZE; the caller
// applies the sense.
absl::StatusOr<v1::QuboModel> ParseQbsolvText(absl::string_view text);
absl::StatusOr<std::string> FormatQbsolvText(const v1::QuboModel& f);
absl::StatusOr<std::vector<v1::QuboModel>> ParseOrlibText(
    absl::string_view text);
absl::StatusOr<std::string> FormatOrlibText(const v1::QuboModel& f);
absl::StatusOr<v1::QuboModel> ParseCooText(absl::string_view text);
absl::StatusOr<std::string> FormatCooText(const v1::QuboModel& f);
absl::StatusOr<v1::QuboModel> ParseIsingText(absl::string_view text);
absl::StatusOr<std::string> FormatIsingText(const v1::QuboModel& f);

// The `qubo` puzzle kind: ParseQuboModel into PuzzleSpec.qubo.
absl::StatusOr<v1::PuzzleSpec> ParseQuboPuzzleText(
    absl::string_view text, const QuboReadOptions& options);

// The text kind of raw models, whose text ParseQuboPuzzleText reads. The
// clients read it themselves, because the read options above (format, sense,
// instance) are theirs: a server parses the kind with the defaults.
inline constexpr absl::string_view kQuboModelKind = "qubo";

// The same model with every weight and the offset negated (sense unchanged).
v1::QuboModel Negated(v1::QuboModel model);

}  // namespace qs::formats

#endif  // QS_CLIENTS_FORMATS_QUBO_FORMATS_H_
