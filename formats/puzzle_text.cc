// Dispatch from a puzzle kind to its text format: the one list of every text
// format, one line per kind.
#include "formats/puzzle_text.h"

#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace qs::formats {

// Every text format, in the order ListFamilies lists them: one line per
// kind, whose <Name>TextFormat() is defined next to its parser (a family's
// in its folder, core/families/<family>/<kind>_text.cc).
#define QS_TEXT_FORMATS(X) \
  X(Sudoku)                \
  X(NQueens)               \
  X(Queens)                \
  X(Tents)                 \
  X(Chess)                 \
  X(Takuzu)                \
  X(Tango)                 \
  X(Patches)               \
  X(Zip)                   \
  X(Singles)               \
  X(Pattern)               \
  X(Lightup)               \
  X(Keen)                  \
  X(Unequal)               \
  X(Towers)                \
  X(QuboPuzzle)            \
  X(MaxCut)                \
  X(Model)

#define QS_DECLARE_TEXT_FORMAT(Name) TextFormat Name##TextFormat();
QS_TEXT_FORMATS(QS_DECLARE_TEXT_FORMAT)
#undef QS_DECLARE_TEXT_FORMAT

namespace {

using Format = TextFormat;

const std::vector<Format>& Formats() {
#define QS_LIST_TEXT_FORMAT(Name) Name##TextFormat(),
  static const auto* const formats =
      new std::vector<Format>{QS_TEXT_FORMATS(QS_LIST_TEXT_FORMAT)};
#undef QS_LIST_TEXT_FORMAT
  return *formats;
}

absl::StatusOr<const Format*> FindFormat(absl::string_view kind) {
  for (const Format& format : Formats()) {
    if (format.kind == kind) return &format;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown puzzle kind '", kind, "' (one of ",
                   absl::StrJoin(PuzzleKinds(), ", "), ")"));
}

}  // namespace

std::vector<TextKind> TextKinds() {
  std::vector<TextKind> kinds;
  for (const Format& format : Formats())
    kinds.push_back({format.kind, format.description, format.example,
                     format.format_puzzle != nullptr});
  return kinds;
}

std::vector<std::string> PuzzleKinds() {
  std::vector<std::string> kinds;
  for (const Format& format : Formats()) kinds.push_back(format.kind);
  std::sort(kinds.begin(), kinds.end());
  return kinds;
}

absl::StatusOr<v1::PuzzleSpec> ParsePuzzleText(absl::string_view kind,
                                               absl::string_view text) {
  auto format = FindFormat(kind);
  if (!format.ok()) return format.status();
  return (*format)->parse_puzzle(text);
}

absl::StatusOr<std::string> FormatPuzzleText(absl::string_view kind,
                                             const v1::PuzzleSpec& puzzle) {
  auto format = FindFormat(kind);
  if (!format.ok()) return format.status();
  if ((*format)->format_puzzle == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("puzzle kind '", kind, "' has no text writer"));
  }
  return (*format)->format_puzzle(puzzle);
}

absl::StatusOr<v1::PuzzleSolution> ParseBoardText(absl::string_view kind,
                                                  const v1::PuzzleSpec& puzzle,
                                                  absl::string_view text) {
  auto format = FindFormat(kind);
  if (!format.ok()) return format.status();
  return (*format)->parse_board(puzzle, text);
}

absl::StatusOr<v1::PuzzleSolution> ParseBinaryBoard(
    const v1::PuzzleSpec& puzzle, absl::string_view text) {
  v1::PuzzleSolution board;
  uint32_t width = 0;
  for (absl::string_view row :
       absl::StrSplit(text, absl::ByAnyChar("/\n"), absl::SkipWhitespace())) {
    row = absl::StripAsciiWhitespace(row);
    if (width == 0) width = static_cast<uint32_t>(row.size());
    if (row.size() != width) {
      return absl::InvalidArgumentError(
          absl::StrCat("board row ", board.rows_size() + 1, " has ", row.size(),
                       " cells, the first row has ", width));
    }
    for (size_t c = 0; c < row.size(); ++c) {
      switch (row[c]) {
        case '1':
        case 'Q':
        case 'T':
          board.add_cells(1);
          break;
        case '0':
        case '.':
        case 'A':
        case '#':
        case '_':
          board.add_cells(0);
          break;
        default:
          return absl::InvalidArgumentError(absl::StrCat(
              "board row ", board.rows_size() + 1, " column ", c + 1,
              ": unexpected character '", std::string(1, row[c]), "'"));
      }
    }
    board.add_rows(std::string(row));
  }
  if (board.rows_size() == 0)
    return absl::InvalidArgumentError("board: no rows");
  board.set_height(static_cast<uint32_t>(board.rows_size()));
  board.set_width(width);
  return board;
}

}  // namespace qs::formats
