// Sudoku text: one character per cell, row-major, '0' or '.' for a blank,
// '1'-'9' then 'A'-'P' for the values 10-25 of larger grids. Whitespace and the
// grid decoration characters '|', '-', '+' are skipped, so both "..3.2.6.."
// strings and pretty-printed grids parse. The cell count fixes the size: 16
// (4x4), 81 (9x9), 256 (16x16), 625 (25x25). Game IDs of Simon Tatham's Solo
// ("3x3:3a4e1b5_7e...") parse too.
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "formats/puzzle_text.h"

namespace qs::formats {

namespace {

// A game ID of Simon Tatham's Solo as `sgt-solo --generate` prints it,
// "3x3:3a4e1b5_7e9d4...": the block shape CxR, then the cells row by row, a
// letter standing for a run of 1 (a) to 26 (z) blanks and '_' separating two
// adjacent numbers. Square blocks only; other variants (jigsaw, killer, X) are
// refused.
absl::StatusOr<std::vector<uint32_t>> ParseSoloGameId(absl::string_view text) {
  const size_t colon = text.find(':');
  const absl::string_view shape = text.substr(0, colon);
  const size_t x = shape.find('x');
  if (x == absl::string_view::npos || shape.substr(0, x) != shape.substr(x + 1))
    return absl::InvalidArgumentError(
        absl::StrCat("sudoku text: Solo game ID '", shape,
                     "' is not a square-block grid (expected e.g. 3x3:...)"));
  std::vector<uint32_t> cells;
  for (size_t pos = colon + 1; pos < text.size(); ++pos) {
    const char ch = text[pos];
    if (ch >= 'a' && ch <= 'z') {
      cells.insert(cells.end(), ch - 'a' + 1, 0);
    } else if (std::isdigit(static_cast<unsigned char>(ch))) {
      uint32_t value = 0;
      while (pos < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[pos])) &&
             value < 1000) {
        value = value * 10 + static_cast<uint32_t>(text[pos++] - '0');
      }
      --pos;
      cells.push_back(value);
    } else if (ch != '_' && !std::isspace(static_cast<unsigned char>(ch))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "sudoku text: unexpected character '", std::string(1, ch),
          "' at offset ", pos, " of a Solo game ID"));
    }
  }
  return cells;
}

bool IsSoloGameId(absl::string_view text) {
  const size_t colon = text.find(':');
  return colon != absl::string_view::npos && colon > 0 &&
         std::isdigit(static_cast<unsigned char>(text[0]));
}

}  // namespace

absl::StatusOr<v1::PuzzleSpec> ParseSudokuText(absl::string_view text) {
  v1::PuzzleSpec spec;
  v1::SudokuPuzzle* sudoku = spec.mutable_sudoku();
  std::vector<uint32_t> cells;
  if (IsSoloGameId(text)) {
    auto parsed = ParseSoloGameId(text);
    if (!parsed.ok()) return parsed.status();
    cells = *std::move(parsed);
    text = "";
  }
  for (size_t pos = 0; pos < text.size(); ++pos) {
    const char ch = text[pos];
    if (std::isspace(static_cast<unsigned char>(ch)) || ch == '|' ||
        ch == '-' || ch == '+')
      continue;
    if (ch == '.' || ch == '0') {
      cells.push_back(0);
    } else if (ch >= '1' && ch <= '9') {
      cells.push_back(static_cast<uint32_t>(ch - '0'));
    } else if (std::isalpha(static_cast<unsigned char>(ch)) &&
               std::toupper(static_cast<unsigned char>(ch)) <= 'P') {
      cells.push_back(static_cast<uint32_t>(
          std::toupper(static_cast<unsigned char>(ch)) - 'A' + 10));
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("sudoku text: unexpected character '",
                       std::string(1, ch), "' at offset ", pos));
    }
  }
  uint32_t box = 0;
  for (uint32_t n = 2; n <= 5; ++n) {
    if (cells.size() == n * n * n * n) box = n;
  }
  if (box == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sudoku text: ", cells.size(),
        " cells; expected 16, 81, 256 or 625 (4x4 to 25x25 grids)"));
  }
  const uint32_t side = box * box;
  for (size_t k = 0; k < cells.size(); ++k) {
    if (cells[k] > side) {
      return absl::InvalidArgumentError(
          absl::StrCat("sudoku text: cell ", k + 1, " holds ", cells[k],
                       ", more than the grid's ", side, " digits"));
    }
  }
  sudoku->set_box_size(box);
  sudoku->mutable_cells()->Add(cells.begin(), cells.end());
  return spec;
}

absl::StatusOr<v1::PuzzleSolution> ParseSudokuBoard(
    const v1::PuzzleSpec& puzzle, absl::string_view text) {
  // A board is a complete (or partial) grid in the puzzle format; '/' row
  // separators are allowed too.
  std::string flat;
  for (char ch : text) {
    if (ch != '/') flat.push_back(ch);
  }
  auto grid = ParseSudokuText(flat);
  if (!grid.ok()) return grid.status();
  const uint32_t side = grid->sudoku().box_size() * grid->sudoku().box_size();
  v1::PuzzleSolution board;
  board.set_height(side);
  board.set_width(side);
  for (uint32_t k = 0; k < side * side; ++k)
    board.add_cells(static_cast<int32_t>(grid->sudoku().cells(k)));
  return board;
}

absl::StatusOr<std::string> FormatSudokuText(const v1::PuzzleSpec& puzzle) {
  if (!puzzle.has_sudoku())
    return absl::InvalidArgumentError("sudoku text: not a Sudoku puzzle");
  const v1::SudokuPuzzle& sudoku = puzzle.sudoku();
  const uint32_t box = sudoku.box_size() == 0 ? 3 : sudoku.box_size();
  const uint32_t side = box * box;
  if (box < 2 || box > 5 ||
      sudoku.cells_size() != static_cast<int>(side * side)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sudoku text: ", sudoku.cells_size(), " cells for box ", box));
  }
  std::string text;
  for (uint32_t k = 0; k < side * side; ++k) {
    const uint32_t v = sudoku.cells(k);
    if (v > side) {
      return absl::InvalidArgumentError(
          absl::StrCat("sudoku text: cell ", k + 1, " holds ", v));
    }
    text.push_back(v == 0   ? '.'
                   : v <= 9 ? static_cast<char>('0' + v)
                            : static_cast<char>('A' + v - 10));
  }
  return text;
}

TextFormat SudokuTextFormat() {
  return {
      "sudoku",
      &ParseSudokuText,
      &ParseSudokuBoard,
      &FormatSudokuText,
      "Sudoku (9x9, 4x4, 16x16, 25x25)",
      ".......2.....9..4....3.2..76.51....8...7.51...3.2....5.9..7...3.8....."
      "9...4..65.."};
}

}  // namespace qs::formats
