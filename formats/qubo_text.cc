// The plain QUBO text format (tests/data/instances/README.md) <->
// qs.v1.QuboModel.
#include "formats/qubo_text.h"

#include <fstream>
#include <limits>
#include <sstream>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "formats/puzzle_text.h"
#include "formats/qubo_formats.h"
#include "formats/text_fields.h"

namespace qs::formats {
absl::StatusOr<v1::QuboModel> ParseQuboText(absl::string_view text) {
  v1::QuboModel model;
  model.set_vartype(v1::BINARY);
  int line_no = 0;
  bool have_header = false;
  int64_t n = 0, m = 0, terms = 0;
  for (absl::string_view raw : absl::StrSplit(text, '\n')) {
    ++line_no;
    absl::string_view line = absl::StripAsciiWhitespace(raw);
    if (line.empty() || line[0] == '#') continue;
    std::vector<absl::string_view> fields =
        absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
    if (fields.size() != 3) {
      return absl::InvalidArgumentError(
          absl::StrCat("qubo text line ", line_no, ": expected 3 fields, got ",
                       fields.size()));
    }
    if (!have_header) {
      double offset;
      if (!absl::SimpleAtoi(fields[0], &n) ||
          !absl::SimpleAtoi(fields[1], &m) ||
          !absl::SimpleAtod(fields[2], &offset) || n < 0 || m < 0 ||
          n > std::numeric_limits<int32_t>::max()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "qubo text line ", line_no, ": header must be 'n m offset'"));
      }
      model.set_num_variables(static_cast<uint32_t>(n));
      model.set_offset(offset);
      have_header = true;
      continue;
    }
    int64_t i, j;
    double w;
    if (!absl::SimpleAtoi(fields[0], &i) || !absl::SimpleAtoi(fields[1], &j) ||
        !absl::SimpleAtod(fields[2], &w)) {
      return absl::InvalidArgumentError(
          absl::StrCat("qubo text line ", line_no, ": expected 'i j w'"));
    }
    if (i < 0 || j < 0 || i >= n || j >= n) {
      return absl::InvalidArgumentError(
          absl::StrCat("qubo text line ", line_no, ": index (", i, ", ", j,
                       ") out of range [0, ", n, ")"));
    }
    model.add_i(static_cast<uint32_t>(i));
    model.add_j(static_cast<uint32_t>(j));
    model.add_w(w);
    ++terms;
  }
  if (!have_header)
    return absl::InvalidArgumentError("qubo text: no 'n m offset' header");
  if (terms != m) {
    return absl::InvalidArgumentError(absl::StrCat(
        "qubo text: header announces ", m, " terms, found ", terms));
  }
  return model;
}

absl::StatusOr<v1::QuboModel> ReadQuboFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  std::stringstream buffer;
  buffer << in.rdbuf();
  auto model = ParseQuboText(buffer.str());
  if (!model.ok()) {
    return absl::Status(model.status().code(),
                        absl::StrCat(path, ": ", model.status().message()));
  }
  return model;
}

absl::StatusOr<std::string> FormatQuboText(const v1::QuboModel& model) {
  if (model.vartype() == v1::SPIN) {
    return absl::InvalidArgumentError(
        "qubo text holds BINARY models only; this model is SPIN");
  }
  std::string out = absl::StrCat(model.num_variables(), " ", model.w_size(),
                                 " ", ExactNumber(model.offset()), "\n");
  for (int k = 0; k < model.w_size(); ++k) {
    absl::StrAppend(&out, model.i(k), " ", model.j(k), " ",
                    ExactNumber(model.w(k)), "\n");
  }
  return out;
}

absl::StatusOr<v1::PuzzleSpec> ParseQuboPuzzleText(absl::string_view text) {
  return ParseQuboPuzzleText(text, QuboReadOptions());
}

absl::StatusOr<v1::PuzzleSpec> ParseQuboPuzzleText(
    absl::string_view text, const QuboReadOptions& options) {
  v1::PuzzleSpec spec;
  auto model = ParseQuboModel(text, options);
  if (!model.ok()) return model.status();
  *spec.mutable_qubo() = *std::move(model);
  return spec;
}

TextFormat QuboPuzzleTextFormat() {
  return {"qubo",
          &ParseQuboPuzzleText,
          &ParseBinaryBoard,
          nullptr,
          "a raw QUBO or Ising model (text, qbsolv, OR-Library, COO, Ising "
          "formats)",
          "3 4 0.5\n0 0 -1\n1 1 -1\n2 2 2\n0 1 3"};
}

}  // namespace qs::formats
