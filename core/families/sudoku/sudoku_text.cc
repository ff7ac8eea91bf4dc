// Sudoku text. The grid: one character per cell, row-major, '0' or '.' for a
// blank, '1'-'9' then 'A'-'P' for the values 10-25 of larger grids.
// Whitespace and the grid decoration characters '|', '-', '+' are skipped, so
// both "..3.2.6.." strings and pretty-printed grids parse. Without a variant
// line the cell count fixes the size: 16 (4x4), 81 (9x9), 256 (16x16), 625
// (25x25). Game IDs of Simon Tatham's Solo ("3x3:3a4e1b5_7e...") parse too.
//
// Variants are lines before the grid (docs/formats.md):
//   boxes RxC      rectangular boxes R rows by C columns; the side is R * C
//   X              X-Sudoku: both long diagonals hold every digit once
//   regions        jigsaw: the next lines are the grid of region letters, as
//                  many lines as the first has letters (the side)
//   cage S: i j..  killer: a cage of the cells i j .. (r * side + c, 0-based)
//                  whose digits sum to S
// The writer gives a plain box_size grid as one line, as before, and a
// variant as its lines followed by the grid one row per line.
#include <algorithm>
#include <cctype>
#include <cstdio>
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
         colon < text.find('\n') &&
         std::isdigit(static_cast<unsigned char>(text[0]));
}

}  // namespace

namespace {

// The cell values of a grid; '/' may separate its rows.
absl::StatusOr<std::vector<uint32_t>> ParseCells(absl::string_view text,
                                                 size_t offset) {
  std::vector<uint32_t> cells;
  for (size_t pos = 0; pos < text.size(); ++pos) {
    const char ch = text[pos];
    if (std::isspace(static_cast<unsigned char>(ch)) || ch == '|' ||
        ch == '-' || ch == '+' || ch == '/')
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
                       std::string(1, ch), "' at offset ", offset + pos));
    }
  }
  return cells;
}

std::string Trim(absl::string_view line) {
  size_t a = 0, b = line.size();
  while (a < b && std::isspace(static_cast<unsigned char>(line[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(line[b - 1]))) --b;
  return std::string(line.substr(a, b - a));
}

// The first word of a line, lower case.
std::string FirstWord(const std::string& line) {
  std::string word;
  for (char ch : line) {
    if (std::isspace(static_cast<unsigned char>(ch)) || ch == ':') break;
    word.push_back(static_cast<char>(std::tolower(ch)));
  }
  return word;
}

absl::Status ParseCage(const std::string& line, int number,
                       v1::SudokuPuzzle& sudoku) {
  // "cage S: i j k"
  const size_t colon = line.find(':');
  const std::string where = absl::StrCat("sudoku text: cage line ", number);
  if (colon == std::string::npos)
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": expected 'cage SUM: CELL CELL ...'"));
  std::vector<uint32_t> numbers;
  auto read = [&](absl::string_view part) -> absl::Status {
    uint64_t value = 0;
    bool in_number = false;
    for (size_t k = 0; k <= part.size(); ++k) {
      const char ch = k < part.size() ? part[k] : ' ';
      if (std::isdigit(static_cast<unsigned char>(ch))) {
        value = std::min<uint64_t>(value * 10 + (ch - '0'), 1u << 30);
        in_number = true;
      } else if (std::isspace(static_cast<unsigned char>(ch)) || ch == ',') {
        if (in_number) numbers.push_back(static_cast<uint32_t>(value));
        value = 0;
        in_number = false;
      } else {
        return absl::InvalidArgumentError(absl::StrCat(
            where, ": unexpected character '", std::string(1, ch), "'"));
      }
    }
    return absl::OkStatus();
  };
  const absl::Status sum_status =
      read(absl::string_view(line).substr(4, colon - 4));
  if (!sum_status.ok()) return sum_status;
  if (numbers.size() != 1)
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": expected one sum before ':'"));
  const absl::Status cells_status =
      read(absl::string_view(line).substr(colon + 1));
  if (!cells_status.ok()) return cells_status;
  if (numbers.size() < 2)
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": a cage needs at least one cell"));
  v1::SudokuCage& cage = *sudoku.add_cages();
  cage.set_sum(numbers[0]);
  cage.mutable_cells()->Add(numbers.begin() + 1, numbers.end());
  return absl::OkStatus();
}

// The side a spec's variant fields give (0: from the cell count).
uint32_t SideOf(const v1::SudokuPuzzle& sudoku) {
  if (sudoku.regions_size() > 0) {
    uint32_t side = 0;
    while ((side + 1) * (side + 1) <=
           static_cast<uint32_t>(sudoku.regions_size()))
      ++side;
    return side;
  }
  if (sudoku.box_rows() != 0 || sudoku.box_cols() != 0)
    return sudoku.box_rows() * sudoku.box_cols();
  const uint32_t box = sudoku.box_size() == 0 ? 3 : sudoku.box_size();
  return box * box;
}

bool IsVariant(const v1::SudokuPuzzle& sudoku) {
  return sudoku.box_rows() != 0 || sudoku.box_cols() != 0 ||
         sudoku.regions_size() > 0 || sudoku.diagonals() ||
         sudoku.cages_size() > 0;
}

char CellChar(uint32_t v) {
  return v == 0   ? '.'
         : v <= 9 ? static_cast<char>('0' + v)
                  : static_cast<char>('A' + v - 10);
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
  // Variant lines, then the grid.
  std::string grid;
  bool variant = false;
  int cage_lines = 0;
  std::vector<std::string> lines;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find('\n', start);
    if (end == absl::string_view::npos) end = text.size();
    lines.push_back(std::string(text.substr(start, end - start)));
    start = end + 1;
  }
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string line = Trim(lines[i]);
    const std::string word = FirstWord(line);
    if (word == "boxes") {
      unsigned rows = 0, cols = 0;
      char x = 0, extra = 0;
      if (std::sscanf(line.c_str() + 5, " %u %c %u %c", &rows, &x, &cols,
                      &extra) != 3 ||
          (x != 'x' && x != 'X') || rows == 0 || cols == 0 || rows > 25 ||
          cols > 25 || rows * cols > 25) {
        return absl::InvalidArgumentError(absl::StrCat(
            "sudoku text: line ", i + 1,
            ": expected 'boxes RxC' with a side R * C of at most 25, got '",
            line, "'"));
      }
      sudoku->set_box_rows(rows);
      sudoku->set_box_cols(cols);
      variant = true;
    } else if (line == "X" || line == "x" || word == "diagonals") {
      sudoku->set_diagonals(true);
      variant = true;
    } else if (word == "cage" && line.find(':') != std::string::npos) {
      const absl::Status status = ParseCage(line, ++cage_lines, *sudoku);
      if (!status.ok()) return status;
      variant = true;
    } else if (word == "regions") {
      // The region grid: as many non-empty lines as the first has letters.
      std::vector<std::string> rows;
      size_t side = 0;
      for (++i; i < lines.size() && (side == 0 || rows.size() < side); ++i) {
        std::string row;
        for (char ch : lines[i]) {
          if (!std::isspace(static_cast<unsigned char>(ch))) row.push_back(ch);
        }
        if (row.empty()) continue;
        if (side == 0) side = row.size();
        if (row.size() != side) {
          return absl::InvalidArgumentError(
              absl::StrCat("sudoku text: line ", i + 1, ": a region row of ",
                           row.size(), " letters; the first had ", side));
        }
        rows.push_back(row);
      }
      --i;
      if (side < 2 || rows.size() != side) {
        return absl::InvalidArgumentError(
            "sudoku text: 'regions' needs a square grid of region letters "
            "after it, one line per row");
      }
      std::string ids;
      for (const std::string& row : rows) {
        for (char ch : row) {
          size_t id = ids.find(ch);
          if (id == std::string::npos) {
            id = ids.size();
            ids.push_back(ch);
          }
          sudoku->add_regions(static_cast<uint32_t>(id));
        }
      }
      variant = true;
    } else {
      absl::StrAppend(&grid, lines[i], "\n");
    }
  }
  if (!grid.empty()) {
    auto parsed = ParseCells(grid, 0);
    if (!parsed.ok()) return parsed.status();
    cells.insert(cells.end(), parsed->begin(), parsed->end());
  }
  uint32_t side = 0;
  if (variant && (sudoku->box_rows() != 0 || sudoku->regions_size() > 0)) {
    side = SideOf(*sudoku);
    if (cells.size() != side * side) {
      return absl::InvalidArgumentError(
          absl::StrCat("sudoku text: ", cells.size(), " cells; the variant's ",
                       side, "x", side, " grid has ", side * side));
    }
  } else {
    uint32_t box = 0;
    for (uint32_t n = 2; n <= 5; ++n) {
      if (cells.size() == n * n * n * n) box = n;
    }
    if (box == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "sudoku text: ", cells.size(),
          " cells; expected 16, 81, 256 or 625 (4x4 to 25x25 grids), or a "
          "'boxes RxC' or 'regions' line for other sides"));
    }
    side = box * box;
    sudoku->set_box_size(box);
  }
  for (size_t k = 0; k < cells.size(); ++k) {
    if (cells[k] > side) {
      return absl::InvalidArgumentError(
          absl::StrCat("sudoku text: cell ", k + 1, " holds ", cells[k],
                       ", more than the grid's ", side, " digits"));
    }
  }
  sudoku->mutable_cells()->Add(cells.begin(), cells.end());
  return spec;
}

absl::StatusOr<v1::PuzzleSolution> ParseSudokuBoard(
    const v1::PuzzleSpec& puzzle, absl::string_view text) {
  // A board is a complete (or partial) grid in the puzzle's grid format; '/'
  // row separators are allowed too. Its side is the puzzle's.
  std::string flat;
  for (char ch : text) {
    if (ch != '/') flat.push_back(ch);
  }
  auto cells = ParseCells(flat, 0);
  if (!cells.ok()) return cells.status();
  uint32_t side = puzzle.has_sudoku() ? SideOf(puzzle.sudoku()) : 0;
  if (!puzzle.has_sudoku() || puzzle.sudoku().cells_size() == 0) {
    side = 0;
    while ((side + 1) * (side + 1) <= cells->size()) ++side;
  }
  if (cells->size() != side * side) {
    return absl::InvalidArgumentError(
        absl::StrCat("sudoku board: ", cells->size(), " cells; the ", side, "x",
                     side, " grid has ", side * side));
  }
  v1::PuzzleSolution board;
  board.set_height(side);
  board.set_width(side);
  for (uint32_t k = 0; k < side * side; ++k) {
    if ((*cells)[k] > side) {
      return absl::InvalidArgumentError(
          absl::StrCat("sudoku board: cell ", k + 1, " holds ", (*cells)[k],
                       ", more than the grid's ", side, " digits"));
    }
    board.add_cells(static_cast<int32_t>((*cells)[k]));
  }
  return board;
}

absl::StatusOr<std::string> FormatSudokuText(const v1::PuzzleSpec& puzzle) {
  if (!puzzle.has_sudoku())
    return absl::InvalidArgumentError("sudoku text: not a Sudoku puzzle");
  const v1::SudokuPuzzle& sudoku = puzzle.sudoku();
  const uint32_t side = SideOf(sudoku);
  if (side < 2 || side > 25 ||
      sudoku.cells_size() != static_cast<int>(side * side)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sudoku text: ", sudoku.cells_size(), " cells for a side of ", side));
  }
  for (uint32_t k = 0; k < side * side; ++k) {
    if (sudoku.cells(k) > side) {
      return absl::InvalidArgumentError(absl::StrCat(
          "sudoku text: cell ", k + 1, " holds ", sudoku.cells(k)));
    }
  }
  std::string text;
  if (!IsVariant(sudoku)) {
    for (uint32_t k = 0; k < side * side; ++k)
      text.push_back(CellChar(sudoku.cells(k)));
    return text;
  }
  if (sudoku.box_rows() != 0 || sudoku.box_cols() != 0)
    absl::StrAppend(&text, "boxes ", sudoku.box_rows(), "x", sudoku.box_cols(),
                    "\n");
  if (sudoku.diagonals()) text += "X\n";
  if (sudoku.regions_size() > 0) {
    if (sudoku.regions_size() != static_cast<int>(side * side))
      return absl::InvalidArgumentError("sudoku text: regions are not a grid");
    // Region ids as letters A.., in order of first appearance.
    std::vector<uint32_t> seen;
    text += "regions\n";
    for (uint32_t k = 0; k < side * side; ++k) {
      const uint32_t id = sudoku.regions(k);
      size_t letter = std::find(seen.begin(), seen.end(), id) - seen.begin();
      if (letter == seen.size()) seen.push_back(id);
      if (letter >= 52)
        return absl::InvalidArgumentError("sudoku text: more than 52 regions");
      text.push_back(letter < 26 ? static_cast<char>('A' + letter)
                                 : static_cast<char>('a' + letter - 26));
      if (k % side == side - 1) text.push_back('\n');
    }
  }
  for (const v1::SudokuCage& cage : sudoku.cages()) {
    absl::StrAppend(&text, "cage ", cage.sum(), ":");
    for (uint32_t cell : cage.cells()) absl::StrAppend(&text, " ", cell);
    text += "\n";
  }
  for (uint32_t k = 0; k < side * side; ++k) {
    text.push_back(CellChar(sudoku.cells(k)));
    if (k % side == side - 1) text.push_back('\n');
  }
  return text;
}

TextFormat SudokuTextFormat() {
  return {
      "sudoku",
      &ParseSudokuText,
      &ParseSudokuBoard,
      &FormatSudokuText,
      "Sudoku (9x9, 4x4, 16x16, 25x25) and its variants: 'boxes RxC', 'X', "
      "'regions' and 'cage S: i j' lines before the grid",
      ".......2.....9..4....3.2..76.51....8...7.51...3.2....5.9..7...3.8....."
      "9...4..65.."};
}

}  // namespace qs::formats
