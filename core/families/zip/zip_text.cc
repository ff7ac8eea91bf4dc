// Zip text: the grid as a person types it (docs/formats.md, "Zip").
//
// Rows of cells separated by '/' or new lines. In a row, '.' is a cell without
// a number and a number 1..K is waypoint k (two digits allowed); cells may be
// separated by spaces or written together, but two numbers side by side need a
// space between them ("1 2", since "12" is waypoint 12). A '|' between two
// cells is a wall between them. Between two rows of cells, a wall row holds one
// mark per column, '-' for a wall between the cells above and below and '.'
// for none (spaces allowed); a row with at least one '-' is a wall row. Blank
// lines and lines starting with '#' are skipped. Every number 1..K appears
// once.
//   1..|.../.....2/---.../3.4.../....../.|..|..5
// is a 5 x 6 grid with waypoints 1..5, a wall in the first row, two in the last
// and three under the first three cells of row 2.
//
// Boards (answers) are rows of steps separated by spaces, rows separated by
// '/' or new lines, as the solver prints them: cells[i] is the step at which
// the path enters cell i ('.' or 0: never).
#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <utility>
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

// The lines of a grid: split on '/' and new lines, blank and '#' lines
// skipped, with their 1-based numbers for messages.
std::vector<std::pair<int, absl::string_view>> GridLines(
    absl::string_view text) {
  std::vector<std::pair<int, absl::string_view>> lines;
  int number = 0;
  for (absl::string_view line : absl::StrSplit(text, absl::ByAnyChar("/\n"))) {
    ++number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    lines.push_back({number, line});
  }
  return lines;
}

// One row of cells: the waypoint number of each cell (0 for none) and, per
// cell, whether a wall stands on its right.
struct CellRow {
  std::vector<int> numbers;
  std::vector<uint8_t> wall_right;
};

absl::StatusOr<CellRow> ParseCellRow(int line_number, absl::string_view line) {
  CellRow row;
  bool wall_pending = false;
  for (size_t i = 0; i < line.size();) {
    const char ch = line[i];
    const std::string where =
        absl::StrCat("line ", line_number, " column ", i + 1);
    if (ch == ' ' || ch == '\t' || ch == '\r') {
      ++i;
    } else if (ch == '|') {
      if (row.numbers.empty() || wall_pending) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": a '|' stands between two cells of a row"));
      }
      wall_pending = true;
      ++i;
    } else if (ch == '.' || std::isdigit(static_cast<unsigned char>(ch))) {
      int number = 0;
      if (ch == '.') {
        ++i;
      } else {
        size_t end = i;
        while (end < line.size() &&
               std::isdigit(static_cast<unsigned char>(line[end])))
          ++end;
        if (end - i > 3 ||
            !absl::SimpleAtoi(line.substr(i, end - i), &number) || number < 1) {
          return absl::InvalidArgumentError(
              absl::StrCat(where, ": waypoint '", line.substr(i, end - i),
                           "' is not a number from 1"));
        }
        i = end;
      }
      if (!row.wall_right.empty()) row.wall_right.back() = wall_pending;
      wall_pending = false;
      row.numbers.push_back(number);
      row.wall_right.push_back(0);
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": unexpected '", std::string(1, ch),
                       "' (cells are '.' or a waypoint number, '|' a wall)"));
    }
  }
  if (wall_pending) {
    return absl::InvalidArgumentError(
        absl::StrCat("line ", line_number,
                     ": a '|' ends the row; walls stand between cells"));
  }
  return row;
}

absl::StatusOr<v1::PuzzleSpec> ParseZipText(absl::string_view text) {
  std::vector<CellRow> rows;
  // walls_below[r][c]: a wall under cell (r, c).
  std::vector<std::vector<uint8_t>> walls_below;
  bool wall_row_pending = false;
  for (const auto& [number, line] : GridLines(text)) {
    if (line.find('-') != absl::string_view::npos) {
      if (rows.empty() || wall_row_pending) {
        return absl::InvalidArgumentError(absl::StrCat(
            "line ", number, ": a wall row stands between two rows of cells"));
      }
      std::vector<uint8_t> marks;
      for (char ch : line) {
        if (ch == ' ' || ch == '\t' || ch == '\r') continue;
        if (ch != '-' && ch != '.') {
          return absl::InvalidArgumentError(absl::StrCat(
              "line ", number, ": unexpected '", std::string(1, ch),
              "' in a wall row (one '-' or '.' per column)"));
        }
        marks.push_back(ch == '-');
      }
      if (marks.size() != rows.front().numbers.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("line ", number, ": ", marks.size(),
                         " marks in a wall row of a "
                         "grid of ",
                         rows.front().numbers.size(), " columns"));
      }
      walls_below.back() = std::move(marks);
      wall_row_pending = true;
      continue;
    }
    absl::StatusOr<CellRow> row = ParseCellRow(number, line);
    if (!row.ok()) return row.status();
    if (!rows.empty() && row->numbers.size() != rows.front().numbers.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "line ", number, ": ", row->numbers.size(),
          " cells, the first row has ", rows.front().numbers.size()));
    }
    rows.push_back(*std::move(row));
    walls_below.emplace_back(rows.front().numbers.size(), 0);
    wall_row_pending = false;
  }
  if (rows.empty()) return absl::InvalidArgumentError("zip: no rows of cells");
  if (wall_row_pending) {
    return absl::InvalidArgumentError(
        "zip: the last row is a wall row; wall rows stand between rows of "
        "cells");
  }
  const int height = static_cast<int>(rows.size());
  const int width = static_cast<int>(rows.front().numbers.size());
  v1::PuzzleSpec spec;
  v1::ZipPuzzle& zip = *spec.mutable_zip();
  zip.set_rows(height);
  zip.set_cols(width);
  std::vector<int> cell_of;  // cell_of[k - 1]: waypoint k's cell
  for (int r = 0; r < height; ++r) {
    for (int c = 0; c < width; ++c) {
      const int number = rows[r].numbers[c];
      if (number == 0) continue;
      if (number > static_cast<int>(cell_of.size())) cell_of.resize(number, -1);
      if (cell_of[number - 1] >= 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("zip: waypoint ", number, " appears twice (row ",
                         r + 1, " column ", c + 1, ")"));
      }
      cell_of[number - 1] = r * width + c;
    }
  }
  for (size_t k = 0; k < cell_of.size(); ++k) {
    if (cell_of[k] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("zip: waypoint ", k + 1, " is missing (numbers run 1..",
                       cell_of.size(), ")"));
    }
    zip.add_waypoints(cell_of[k]);
  }
  for (int r = 0; r < height; ++r) {
    for (int c = 0; c < width; ++c) {
      const int cell = r * width + c;
      if (rows[r].wall_right[c]) {
        v1::ZipWall& wall = *zip.add_walls();
        wall.set_a(cell);
        wall.set_b(cell + 1);
      }
      if (r + 1 < height && walls_below[r][c]) {
        v1::ZipWall& wall = *zip.add_walls();
        wall.set_a(cell);
        wall.set_b(cell + width);
      }
    }
  }
  return spec;
}

absl::StatusOr<std::string> FormatZipText(const v1::PuzzleSpec& puzzle) {
  if (!puzzle.has_zip())
    return absl::InvalidArgumentError("puzzle: not a zip puzzle");
  const v1::ZipPuzzle& zip = puzzle.zip();
  const int rows = static_cast<int>(zip.rows());
  const int cols = static_cast<int>(zip.cols());
  if (rows < 1 || cols < 1 || rows > 1000 || cols > 1000)
    return absl::InvalidArgumentError("zip.rows: the grid has no cells");
  const int n = rows * cols;
  std::vector<int> number(n, 0);
  for (int k = 0; k < zip.waypoints_size(); ++k) {
    const uint32_t cell = zip.waypoints(k);
    if (cell >= static_cast<uint32_t>(n) || number[cell] != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("zip.waypoints[", k, "]: out of range or listed twice"));
    }
    number[cell] = k + 1;
  }
  std::set<std::pair<int, int>> walls;
  for (int k = 0; k < zip.walls_size(); ++k) {
    const int a =
        static_cast<int>(std::min(zip.walls(k).a(), zip.walls(k).b()));
    const int b =
        static_cast<int>(std::max(zip.walls(k).a(), zip.walls(k).b()));
    const bool right = b == a + 1 && a % cols + 1 < cols;
    const bool below = b == a + cols;
    if (b >= n || (!right && !below)) {
      return absl::InvalidArgumentError(
          absl::StrCat("zip.walls[", k, "]: cells ", a, " and ", b,
                       " are not orthogonal neighbours"));
    }
    walls.insert({a, b});
  }
  std::vector<std::string> lines;
  for (int r = 0; r < rows; ++r) {
    std::string line;
    for (int c = 0; c < cols; ++c) {
      const int cell = r * cols + c;
      if (c > 0) {
        if (walls.count({cell - 1, cell})) {
          line.push_back('|');
        } else if (number[cell] != 0 && number[cell - 1] != 0) {
          line.push_back(' ');
        }
      }
      line += number[cell] == 0 ? "." : absl::StrCat(number[cell]);
    }
    lines.push_back(std::move(line));
    if (r + 1 == rows) break;
    std::string marks;
    bool any = false;
    for (int c = 0; c < cols; ++c) {
      const bool wall = walls.count({r * cols + c, (r + 1) * cols + c}) > 0;
      marks.push_back(wall ? '-' : '.');
      any = any || wall;
    }
    if (any) lines.push_back(std::move(marks));
  }
  return absl::StrJoin(lines, "/");
}

absl::StatusOr<v1::PuzzleSolution> ParseZipBoard(const v1::PuzzleSpec& puzzle,
                                                 absl::string_view text) {
  const int rows = static_cast<int>(puzzle.zip().rows());
  const int cols = static_cast<int>(puzzle.zip().cols());
  const int64_t n = int64_t{rows} * cols;
  v1::PuzzleSolution board;
  for (const auto& [number, line] : GridLines(text)) {
    std::vector<absl::string_view> fields =
        absl::StrSplit(line, absl::ByAnyChar(" \t\r,"), absl::SkipEmpty());
    if (static_cast<int>(fields.size()) != cols) {
      return absl::InvalidArgumentError(absl::StrCat(
          "board row ", board.rows_size() + 1, " has ", fields.size(),
          " steps, the puzzle has ", cols, " columns"));
    }
    std::vector<std::string> steps;
    for (size_t c = 0; c < fields.size(); ++c) {
      int step = 0;
      if (fields[c] != "." &&
          (!absl::SimpleAtoi(fields[c], &step) || step < 0 || step > n)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "board row ", board.rows_size() + 1, " column ", c + 1, ": '",
            fields[c], "' is not a step 1..", n, " (or '.' for none)"));
      }
      board.add_cells(step);
      steps.push_back(absl::StrCat(step));
    }
    board.add_rows(absl::StrJoin(steps, " "));
  }
  if (board.rows_size() != rows) {
    return absl::InvalidArgumentError(absl::StrCat(
        "board: ", board.rows_size(), " rows, the puzzle has ", rows));
  }
  board.set_height(rows);
  board.set_width(cols);
  return board;
}

}  // namespace

TextFormat ZipTextFormat() {
  return {"zip",
          &ParseZipText,
          &ParseZipBoard,
          &FormatZipText,
          "LinkedIn Zip: waypoint numbers, '.' cells, '|' and '-' walls",
          "....../.-..../...|.8./1|2 7.|../...6.|5/..3 4../..|...."};
}

}  // namespace qs::formats
