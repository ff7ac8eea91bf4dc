// Splitting batch files into (id, kind, text) lines; see batch_lines.h.
#include "formats/batch_lines.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "formats/puzzle_text.h"

namespace qs::formats {
namespace {

bool IsKnownKind(absl::string_view word) {
  static const auto* const kinds = new std::vector<std::string>(PuzzleKinds());
  return std::find(kinds->begin(), kinds->end(), word) != kinds->end();
}

// Splits off the first run of non-space characters.
std::pair<absl::string_view, absl::string_view> FirstWord(
    absl::string_view text) {
  text = absl::StripLeadingAsciiWhitespace(text);
  size_t end = 0;
  while (end < text.size() &&
         !absl::ascii_isspace(static_cast<unsigned char>(text[end])))
    ++end;
  return {text.substr(0, end),
          absl::StripLeadingAsciiWhitespace(text.substr(end))};
}

BatchLine SplitLine(absl::string_view line, int line_number) {
  BatchLine out;
  out.line_number = line_number;
  absl::string_view id, kind, text;
  if (line.find('\t') != absl::string_view::npos) {
    std::vector<absl::string_view> fields =
        absl::StrSplit(line, absl::MaxSplits('\t', 2));
    if (fields.size() == 2) {
      kind = fields[0];
      text = fields[1];
    } else {
      id = fields[0];
      kind = fields[1];
      text = fields[2];
    }
  } else {
    auto [first, rest] = FirstWord(line);
    auto [second, rest2] = FirstWord(rest);
    if (!rest2.empty() && IsKnownKind(second) && !IsKnownKind(first)) {
      id = first;
      kind = second;
      text = rest2;
    } else {
      kind = first;
      text = rest;
    }
  }
  id = absl::StripAsciiWhitespace(id);
  out.id = id.empty() ? absl::StrCat(line_number) : std::string(id);
  out.kind = std::string(absl::StripAsciiWhitespace(kind));
  out.text =
      absl::StrReplaceAll(absl::StripAsciiWhitespace(text), {{";", "\n"}});
  return out;
}

}  // namespace

absl::StatusOr<std::vector<BatchLine>> ParseBatchLines(
    absl::string_view content) {
  std::vector<BatchLine> lines;
  absl::flat_hash_map<std::string, int> first_line_of_id;
  int line_number = 0;
  for (absl::string_view raw : absl::StrSplit(content, '\n')) {
    ++line_number;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    const absl::string_view stripped = absl::StripAsciiWhitespace(raw);
    if (stripped.empty() || stripped[0] == '#') continue;
    BatchLine line = SplitLine(raw, line_number);
    auto [it, inserted] = first_line_of_id.emplace(line.id, line_number);
    if (!inserted) {
      return absl::InvalidArgumentError(
          absl::StrCat("batch line ", line_number, ": id '", line.id,
                       "' is already used on line ", it->second,
                       " (every id gets one result, so ids must be unique)"));
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace qs::formats
