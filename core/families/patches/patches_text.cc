// Patches text: a grid of cells, rows separated by '/' or new lines, cells by
// spaces. A cell is '.' (no clue) or a clue: its shape letter, 's' square,
// 't' tall (more rows than columns), 'w' wide (more columns than rows) or 'a'
// any, followed by its area when the clue shows one. Letters may be upper
// case; blank lines and lines starting with '#' are skipped.
//   . w3 . t6 . . / . . s9 . . . / . . . . . . / . . . t3 t2 t /
//   . w3 . . . . / . w2 s1 . s1 t2
// Clues are numbered in reading order (PatchesPuzzle.clues). Solved boards
// are rows of one letter per cell naming the clue whose patch holds it ('a'
// for the first clue, 'z' for the 26th, then 'A'..'Z'), '.' for a cell no
// patch holds and '*' for one several hold; spaces between cells are allowed.
#include <cctype>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "formats/puzzle_text.h"

namespace qs::formats {
namespace {

// The grid may not be larger than the compiler accepts (20x20); the parser
// stops far above that so that a mistaken input fails with a clear message.
constexpr size_t kMaxSide = 1000;

absl::Status TextError(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("patches text: ", what));
}

std::vector<absl::string_view> Lines(absl::string_view text) {
  std::vector<absl::string_view> lines;
  for (absl::string_view line : absl::StrSplit(text, absl::ByAnyChar("\n/"))) {
    line = absl::StripAsciiWhitespace(line);
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  }
  return lines;
}

absl::StatusOr<v1::PuzzleSpec> ParsePatchesText(absl::string_view text) {
  const std::vector<absl::string_view> lines = Lines(text);
  if (lines.empty()) return TextError("no rows");
  if (lines.size() > kMaxSide)
    return TextError(absl::StrCat(lines.size(), " rows are too many"));
  v1::PuzzleSpec spec;
  v1::PatchesPuzzle& patches = *spec.mutable_patches();
  size_t width = 0;
  for (size_t r = 0; r < lines.size(); ++r) {
    const std::vector<absl::string_view> tokens =
        absl::StrSplit(lines[r], absl::ByAnyChar(" \t"), absl::SkipEmpty());
    if (r == 0) width = tokens.size();
    if (tokens.size() != width) {
      return TextError(absl::StrCat("row ", r + 1, " has ", tokens.size(),
                                    " cells, row 1 has ", width));
    }
    if (width > kMaxSide)
      return TextError(absl::StrCat(width, " columns are too many"));
    for (size_t c = 0; c < tokens.size(); ++c) {
      const absl::string_view token = tokens[c];
      if (token == ".") continue;
      const std::string where = absl::StrCat("row ", r + 1, " column ", c + 1);
      v1::PatchShape shape;
      switch (absl::ascii_tolower(static_cast<unsigned char>(token[0]))) {
        case 's':
          shape = v1::PATCH_SHAPE_SQUARE;
          break;
        case 't':
          shape = v1::PATCH_SHAPE_TALL;
          break;
        case 'w':
          shape = v1::PATCH_SHAPE_WIDE;
          break;
        case 'a':
          shape = v1::PATCH_SHAPE_ANY;
          break;
        default:
          return TextError(absl::StrCat(
              where, ": '", token,
              "' is neither '.' nor a clue (s, t, w or a, then an area)"));
      }
      uint32_t area = 0;
      const absl::string_view digits = token.substr(1);
      if (!digits.empty() &&
          (!std::isdigit(static_cast<unsigned char>(digits[0])) ||
           !absl::SimpleAtoi(digits, &area) || area == 0)) {
        return TextError(absl::StrCat(where, ": '", digits, "' in '", token,
                                      "' is not an area (1 or more)"));
      }
      v1::PatchClue& clue = *patches.add_clues();
      clue.set_cell(static_cast<uint32_t>(r * width + c));
      clue.set_area(area);
      clue.set_shape(shape);
    }
  }
  patches.set_rows(static_cast<uint32_t>(lines.size()));
  patches.set_cols(static_cast<uint32_t>(width));
  return spec;
}

absl::StatusOr<std::string> FormatPatchesText(const v1::PuzzleSpec& puzzle) {
  if (!puzzle.has_patches())
    return absl::InvalidArgumentError("patches text: not a patches puzzle");
  const v1::PatchesPuzzle& patches = puzzle.patches();
  const uint64_t rows = patches.rows(), cols = patches.cols();
  if (rows == 0 || cols == 0 || rows > kMaxSide || cols > kMaxSide)
    return TextError(absl::StrCat("cannot write a ", rows, "x", cols, " grid"));
  std::vector<std::string> cells(rows * cols, ".");
  // The text numbers clues in reading order: the puzzle's must be so too.
  int64_t previous = -1;
  for (const v1::PatchClue& clue : patches.clues()) {
    if (clue.cell() >= rows * cols || clue.cell() <= previous) {
      return TextError(
          absl::StrCat("clue cell ", clue.cell(),
                       " is off the grid, repeated or not in reading order"));
    }
    previous = clue.cell();
    const char* letter = "a";
    switch (clue.shape()) {
      case v1::PATCH_SHAPE_SQUARE:
        letter = "s";
        break;
      case v1::PATCH_SHAPE_TALL:
        letter = "t";
        break;
      case v1::PATCH_SHAPE_WIDE:
        letter = "w";
        break;
      case v1::PATCH_SHAPE_ANY:
        break;
      default:
        return TextError(absl::StrCat("clue cell ", clue.cell(),
                                      ": unknown shape ", clue.shape()));
    }
    cells[clue.cell()] = clue.area() == 0 ? std::string(letter)
                                          : absl::StrCat(letter, clue.area());
  }
  std::vector<std::string> lines;
  for (uint64_t r = 0; r < rows; ++r) {
    lines.push_back(absl::StrJoin(cells.begin() + r * cols,
                                  cells.begin() + (r + 1) * cols, " "));
  }
  return absl::StrJoin(lines, " / ");
}

absl::StatusOr<v1::PuzzleSolution> ParsePatchesBoard(
    const v1::PuzzleSpec& puzzle, absl::string_view text) {
  const int clues = puzzle.patches().clues_size();
  v1::PuzzleSolution board;
  size_t width = 0;
  for (absl::string_view line : Lines(text)) {
    std::string row;
    for (char ch : line) {
      if (ch != ' ' && ch != '\t') row.push_back(ch);
    }
    if (width == 0) width = row.size();
    if (row.size() != width) {
      return TextError(absl::StrCat("board row ", board.rows_size() + 1,
                                    " has ", row.size(),
                                    " cells, the first row has ", width));
    }
    for (size_t c = 0; c < row.size(); ++c) {
      const char ch = row[c];
      int value = -3;
      if (ch >= 'a' && ch <= 'z') value = ch - 'a';
      if (ch >= 'A' && ch <= 'Z') value = ch - 'A' + 26;
      if (ch == '.') value = -1;
      if (ch == '*') value = -2;
      if (value < -2 || value >= clues) {
        return TextError(absl::StrCat(
            "board row ", board.rows_size() + 1, " column ", c + 1, ": '",
            std::string(1, ch), "' names no clue of the ", clues,
            " (a.., in reading order; '.' none, '*' several)"));
      }
      board.add_cells(value);
    }
    board.add_rows(std::move(row));
  }
  if (board.rows_size() == 0) return TextError("board: no rows");
  board.set_height(static_cast<uint32_t>(board.rows_size()));
  board.set_width(static_cast<uint32_t>(width));
  return board;
}

}  // namespace

TextFormat PatchesTextFormat() {
  return {
      "patches",
      &ParsePatchesText,
      &ParsePatchesBoard,
      &FormatPatchesText,
      "LinkedIn Patches (rows of '.' or a clue: shape s/t/w/a and its "
      "area, e.g. s4)",
      ". w3 . t6 . . / . . s9 . . . / . . . . . . / . . . t3 t2 t / . w3 . . . "
      ". / . w2 s1 . s1 t2"};
}

}  // namespace qs::formats
