// Text formats of the model kind (qs.v1.ConstrainedModel): readers of the
// CPLEX LP subset, the pseudo-Boolean competition format (OPB) and QPLIB's
// binary problem types, writers of LP and OPB, and a linearized MILP of a
// model for solvers such as CBC. The definitions live in
// core/families/model/*_text.cc (built into qs_formats, so they depend on the
// protos only); docs/model-formats.md describes what each reader takes.
#ifndef QS_FORMATS_MODEL_TEXT_H_
#define QS_FORMATS_MODEL_TEXT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qs/v1/model.pb.h"
#include "qs/v1/puzzles.pb.h"

namespace qs::formats {

// The text kind of constrained models, which the clients read themselves
// (--format, the file's extension) and send as text.
inline constexpr absl::string_view kModelKind = "model";

// The most variables and constraints a model's text may announce (an OPB
// header, QPLIB's counts): a few bytes of text must not make millions.
inline constexpr int64_t kMaxModelTextVariables = int64_t{1} << 20;

// Reads `text` as a model in `format` (MODEL_FORMAT_UNSPECIFIED: told from the
// text, see DetectModelFormat). The result is structured: `text` is empty and
// the compile choices keep their defaults. INVALID_ARGUMENT "FORMAT line L:
// ..." naming what was expected.
absl::StatusOr<v1::ConstrainedModel> ParseModelText(absl::string_view text,
                                                    v1::ModelFormat format);

// LP when the first line that is not a comment starts with Minimize or
// Maximize (any spelling CPLEX takes); OPB with a "* #variable=" header, a
// first statement "min:" / "max:" or a line ending in ';'; QPLIB when the
// second line is a three-letter problem type. INVALID_ARGUMENT otherwise.
absl::StatusOr<v1::ModelFormat> DetectModelFormat(absl::string_view text);

// One reader per format.
absl::StatusOr<v1::ConstrainedModel> ParseModelLp(absl::string_view text);
absl::StatusOr<v1::ConstrainedModel> ParseModelOpb(absl::string_view text);
absl::StatusOr<v1::ConstrainedModel> ParseModelQplib(absl::string_view text);

// The model in the CPLEX LP subset the LP reader takes. Binary and integer
// variables, terms of degree at most two; INVALID_ARGUMENT for spin variables,
// higher-degree terms or names LP cannot hold.
absl::StatusOr<std::string> WriteModelLp(const v1::ConstrainedModel& model);

// The model in OPB: binary variables and integer coefficients only (no
// scaling), products written by juxtaposition, "<=" constraints written as
// ">=" with negated sides. A maximised objective is written "max:".
absl::StatusOr<std::string> WriteModelOpb(const v1::ConstrainedModel& model);

// The same problem with every product of binary variables replaced by a new
// binary variable y_<names> and the constraints y <= x_i, y >= sum x_i - (k-1);
// a spin variable s becomes 2 b_<s> - 1 of a new binary b_<s>. Integer
// variables stay integer but may not appear in products. The MILP's objective
// equals the model's at every feasible point.
absl::StatusOr<v1::ConstrainedModel> LinearizeModel(
    const v1::ConstrainedModel& model);
// LinearizeModel written as LP (for `cbc model.lp solve solution out.txt`).
absl::StatusOr<std::string> WriteLinearizedMilp(
    const v1::ConstrainedModel& model);

// Kind "model": the text format's functions (registered in puzzle_text.cc).
absl::StatusOr<v1::PuzzleSpec> ParseModelPuzzleText(absl::string_view text);
// A board "x1=1 x2=0 n=3" (whitespace or newlines between assignments) naming
// every variable of the model once.
absl::StatusOr<v1::PuzzleSolution> ParseModelBoard(const v1::PuzzleSpec& puzzle,
                                                   absl::string_view text);
// The LP text of the puzzle's model.
absl::StatusOr<std::string> FormatModelText(const v1::PuzzleSpec& puzzle);

}  // namespace qs::formats

#endif  // QS_FORMATS_MODEL_TEXT_H_
