// Dispatch from a puzzle kind to its text parser: the one list of every text format.
#include "clients/formats/puzzle_text.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace qs::formats {
namespace {

using Parser = absl::StatusOr<v1::PuzzleSpec> (*)(absl::string_view);

const std::vector<std::pair<std::string, Parser>>& Parsers() {
  static const auto* const parsers = new std::vector<std::pair<std::string, Parser>>{
      {"sudoku", &ParseSudokuText},
      {"qubo", &ParseQuboPuzzleText},
      {"takuzu", &ParseTakuzuText},
      {"tango", &ParseTangoText},
  };
  return *parsers;
}

}  // namespace

std::vector<std::string> PuzzleKinds() {
  std::vector<std::string> kinds;
  for (const auto& [kind, parser] : Parsers()) kinds.push_back(kind);
  std::sort(kinds.begin(), kinds.end());
  return kinds;
}

absl::StatusOr<v1::PuzzleSpec> ParsePuzzleText(absl::string_view kind, absl::string_view text) {
  for (const auto& [name, parser] : Parsers()) {
    if (name == kind) return parser(text);
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown puzzle kind '", kind, "' (one of ",
                                                 absl::StrJoin(PuzzleKinds(), ", "), ")"));
}

}  // namespace qs::formats
