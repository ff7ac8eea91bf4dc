// Content lines and field parsers of the line-based numeric formats.
#include "formats/text_fields.h"

#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace qs::formats {
namespace {

bool IsComment(absl::string_view line,
               const std::vector<std::string>& comment_starts) {
  for (const std::string& start : comment_starts) {
    if (absl::StartsWith(line, start)) return true;
    // "c " also matches a bare "c".
    if (start.size() == 2 && start[1] == ' ' && line.size() == 1 &&
        line[0] == start[0])
      return true;
  }
  return false;
}

}  // namespace

std::vector<TextLine> ContentLines(
    absl::string_view text, const std::vector<std::string>& comment_starts) {
  std::vector<TextLine> lines;
  int number = 0;
  for (absl::string_view raw : absl::StrSplit(text, '\n')) {
    ++number;
    absl::string_view line = absl::StripAsciiWhitespace(raw);
    if (line.empty() || IsComment(line, comment_starts)) continue;
    lines.push_back({number, absl::StrSplit(line, absl::ByAnyChar(" \t"),
                                            absl::SkipEmpty())});
  }
  return lines;
}

absl::Status LineError(absl::string_view format, int line,
                       absl::string_view message) {
  return absl::InvalidArgumentError(
      absl::StrCat(format, " line ", line, ": ", message));
}

absl::Status FieldError(absl::string_view format, const TextLine& line,
                        int field, absl::string_view name,
                        absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat(format, " line ", line.number,
                                                 ", field ", field + 1, " (",
                                                 name, "): ", message));
}

absl::Status ExpectFields(absl::string_view format, const TextLine& line,
                          size_t count, absl::string_view layout) {
  if (line.fields.size() == count) return absl::OkStatus();
  return LineError(format, line.number,
                   absl::StrCat("expected ", count, " fields '", layout,
                                "', got ", line.fields.size()));
}

absl::StatusOr<int64_t> IntField(absl::string_view format, const TextLine& line,
                                 int field, absl::string_view name, int64_t min,
                                 int64_t max) {
  int64_t value;
  if (!absl::SimpleAtoi(line.fields[field], &value)) {
    return FieldError(
        format, line, field, name,
        absl::StrCat("'", line.fields[field], "' is not an integer"));
  }
  if (value < min || value > max) {
    return FieldError(
        format, line, field, name,
        absl::StrCat(value, " is out of range [", min, ", ", max, "]"));
  }
  return value;
}

absl::StatusOr<double> NumberField(absl::string_view format,
                                   const TextLine& line, int field,
                                   absl::string_view name) {
  double value;
  if (!absl::SimpleAtod(line.fields[field], &value) || !std::isfinite(value)) {
    return FieldError(
        format, line, field, name,
        absl::StrCat("'", line.fields[field], "' is not a finite number"));
  }
  return value;
}

std::string ExactNumber(double w) {
  // Both zeros are written "0": the sign of a zero carries no value, and a
  // written "-0" (a coefficient or bound that cancelled) reads as a typo.
  if (w == 0) return "0";
  for (int precision = 6; precision <= 17; ++precision) {
    std::string text = absl::StrFormat("%.*g", precision, w);
    double back;
    if (absl::SimpleAtod(text, &back) && back == w) return text;
  }
  return absl::StrFormat("%.17g", w);
}

}  // namespace qs::formats
