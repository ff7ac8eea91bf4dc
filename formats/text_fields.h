// Line and field reading shared by the line-based numeric formats (qbsolv,
// orlib, coo, ising, rudy): content lines split into fields, and field parsers
// whose errors name the format, the line and the field.
#ifndef QS_CLIENTS_FORMATS_TEXT_FIELDS_H_
#define QS_CLIENTS_FORMATS_TEXT_FIELDS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace qs::formats {

struct TextLine {
  int number = 0;  // 1-based line of the file
  std::vector<absl::string_view> fields;
};

// Lines that are neither blank nor comments. A comment line starts (after
// leading blanks) with one of `comment_starts`, each a prefix such as "#" or
// "c " ("c" alone on its line counts too).
std::vector<TextLine> ContentLines(
    absl::string_view text, const std::vector<std::string>& comment_starts);

// INVALID_ARGUMENT "FORMAT line L: MESSAGE".
absl::Status LineError(absl::string_view format, int line,
                       absl::string_view message);
// INVALID_ARGUMENT "FORMAT line L, field F (NAME): MESSAGE".
absl::Status FieldError(absl::string_view format, const TextLine& line,
                        int field, absl::string_view name,
                        absl::string_view message);

// The line must have `count` fields (`layout` names them for the message).
absl::Status ExpectFields(absl::string_view format, const TextLine& line,
                          size_t count, absl::string_view layout);
// Field `field` (0-based) as an integer in [min, max], or a finite number.
absl::StatusOr<int64_t> IntField(absl::string_view format, const TextLine& line,
                                 int field, absl::string_view name, int64_t min,
                                 int64_t max);
absl::StatusOr<double> NumberField(absl::string_view format,
                                   const TextLine& line, int field,
                                   absl::string_view name);

// The shortest decimal that reads back as exactly `w` ("0" for -0 too).
std::string ExactNumber(double w);

}  // namespace qs::formats

#endif  // QS_CLIENTS_FORMATS_TEXT_FIELDS_H_
