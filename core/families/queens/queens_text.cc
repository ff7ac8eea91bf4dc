// Text formats of the queens family ([Mata Ali & Mencia 2024] §2.1-2.3)
// for the CLI.
//
// kind "nqueens": the board size and optional words, separated by spaces:
//   "8"              8-queens (eq. 4): one queen per row and column, whole
//   diagonals. "8x10"           8 rows, 10 columns: every line of the shorter
//   side holds one queen, every line of the
//                    longer side at most one (counts 0 or 1, the fractional
//                    term of eq. 15-17).
//   "torus"          toroidal board (§2.3.5); "cylinder": left and right edges
//   joined. "adjacent"       queens attack diagonal neighbours only (the
//   LinkedIn rule, d_ij = 1). "distance=D"     queens attack diagonals up to D
//   cells away (§2.3.2). "queen=R,C"      a pre-placed queen in row R, column C
//   (1-based); may repeat. e.g. "8 torus", "7 queen=1,1", "6x9 adjacent".
//
// kind "queens": LinkedIn Queens (eq. 9): the colour regions as rows of
// letters, rows separated by '/' or newlines, e.g. "AABB/AABB/CCDD/CCDD". Each
// distinct letter is a region (regions are numbered in alphabetical order of
// their letters, case-insensitively); a lower-case letter marks a pre-placed
// queen on a cell of that region; '#' is a cell that is not on the board.
// Spaces, tabs and carriage returns are ignored. Queens attack diagonal
// neighbours only; every row, column and region holds one queen.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "formats/puzzle_text.h"

namespace qs::formats {
namespace {

constexpr int kMaxSide = 1024;

absl::Status NQueensError(absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("nqueens text: ", message));
}

bool ParseSide(absl::string_view text, int* side) {
  return absl::SimpleAtoi(text, side) && *side >= 1 && *side <= kMaxSide;
}

}  // namespace

absl::StatusOr<v1::PuzzleSpec> ParseNQueensText(absl::string_view text) {
  std::vector<absl::string_view> words =
      absl::StrSplit(text, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty());
  if (words.empty())
    return NQueensError("empty; expected a size such as \"8\" or \"8x10\"");
  v1::PuzzleSpec spec;
  v1::QueensPuzzle& queens = *spec.mutable_queens();
  int rows = 0, cols = 0;
  const std::vector<absl::string_view> size =
      absl::StrSplit(words[0], absl::ByAnyChar("xX"));
  if (size.size() > 2 || !ParseSide(size[0], &rows) ||
      (size.size() == 2 && !ParseSide(size[1], &cols))) {
    return NQueensError(absl::StrCat(
        "size '", words[0], "': expected N or NxM with sides 1..", kMaxSide));
  }
  if (size.size() == 1) cols = rows;
  queens.set_rows(rows);
  queens.set_cols(cols);
  if (rows != cols) {
    // The longer side cannot give every line a queen: its lines hold 0 or 1.
    const bool rows_longer = rows > cols;
    for (int k = 0; k < rows; ++k) {
      queens.add_row_counts(rows_longer ? 0 : 1);
      queens.add_row_two_values(rows_longer);
    }
    for (int k = 0; k < cols; ++k) {
      queens.add_col_counts(rows_longer ? 1 : 0);
      queens.add_col_two_values(!rows_longer);
    }
  }
  bool topology_set = false, attack_set = false;
  for (size_t w = 1; w < words.size(); ++w) {
    const absl::string_view word = words[w];
    if (word == "torus" || word == "cylinder") {
      if (topology_set)
        return NQueensError(
            absl::StrCat("'", word, "': the topology is already set"));
      topology_set = true;
      queens.set_topology(word == "torus" ? v1::QUEENS_TOPOLOGY_TORUS
                                          : v1::QUEENS_TOPOLOGY_CYLINDER);
    } else if (word == "adjacent" || absl::StartsWith(word, "distance=")) {
      if (attack_set)
        return NQueensError(
            absl::StrCat("'", word, "': the attack rule is already set"));
      attack_set = true;
      if (word == "adjacent") {
        queens.set_attack(v1::QUEENS_ATTACK_ADJACENT_DIAGONALS);
        continue;
      }
      uint32_t distance = 0;
      if (!absl::SimpleAtoi(word.substr(9), &distance)) {
        return NQueensError(absl::StrCat(
            "'", word, "': expected distance=D with D a whole number"));
      }
      queens.set_attack(v1::QUEENS_ATTACK_DIAGONAL_DISTANCE);
      queens.add_diagonal_distance(distance);
    } else if (absl::StartsWith(word, "queen=")) {
      const std::vector<absl::string_view> place =
          absl::StrSplit(word.substr(6), ',');
      int r = 0, c = 0;
      if (place.size() != 2 || !absl::SimpleAtoi(place[0], &r) ||
          !absl::SimpleAtoi(place[1], &c) || r < 1 || r > rows || c < 1 ||
          c > cols) {
        return NQueensError(absl::StrCat(
            "'", word, "': expected queen=R,C with 1 <= R <= ", rows,
            " and 1 <= C <= ", cols));
      }
      queens.add_given_queens(static_cast<uint32_t>((r - 1) * cols + (c - 1)));
    } else {
      return NQueensError(
          absl::StrCat("unknown option '", word,
                       "' (torus, cylinder, adjacent, distance=D, queen=R,C)"));
    }
  }
  return spec;
}

absl::StatusOr<v1::PuzzleSpec> ParseQueensText(absl::string_view text) {
  std::vector<std::string> rows(1);
  for (size_t pos = 0; pos < text.size(); ++pos) {
    const char ch = text[pos];
    if (ch == ' ' || ch == '\t' || ch == '\r') continue;
    if (ch == '/' || ch == '\n') {
      rows.emplace_back();
      continue;
    }
    if (ch != '#' && !std::isalpha(static_cast<unsigned char>(ch))) {
      return absl::InvalidArgumentError(
          absl::StrCat("queens text: unexpected character '",
                       std::string(1, ch), "' at offset ", pos,
                       " (region letters, lower case for a queen, '#')"));
    }
    rows.back().push_back(ch);
  }
  // Blank lines (a trailing newline, an empty line between rows) separate
  // nothing.
  std::vector<std::string> board;
  for (std::string& row : rows) {
    if (!row.empty()) board.push_back(std::move(row));
  }
  if (board.empty()) return absl::InvalidArgumentError("queens text: no rows");
  const size_t width = board[0].size();
  if (board.size() > static_cast<size_t>(kMaxSide) ||
      width > static_cast<size_t>(kMaxSide)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "queens text: the board is larger than ", kMaxSide, "x", kMaxSide));
  }
  for (size_t r = 1; r < board.size(); ++r) {
    if (board[r].size() != width) {
      return absl::InvalidArgumentError(
          absl::StrCat("queens text: row ", r + 1, " has ", board[r].size(),
                       " cells, row 1 has ", width));
    }
  }
  std::vector<char> letters;
  for (const std::string& row : board) {
    for (char ch : row) {
      if (ch != '#')
        letters.push_back(
            static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
    }
  }
  std::sort(letters.begin(), letters.end());
  letters.erase(std::unique(letters.begin(), letters.end()), letters.end());
  v1::PuzzleSpec spec;
  v1::QueensPuzzle& queens = *spec.mutable_queens();
  queens.set_rows(static_cast<uint32_t>(board.size()));
  queens.set_cols(static_cast<uint32_t>(width));
  queens.set_attack(v1::QUEENS_ATTACK_ADJACENT_DIAGONALS);
  bool any_masked = false;
  for (const std::string& row : board)
    any_masked = any_masked || row.find('#') != std::string::npos;
  for (size_t r = 0; r < board.size(); ++r) {
    for (size_t c = 0; c < width; ++c) {
      const char ch = board[r][c];
      if (any_masked) queens.add_masked(ch == '#');
      if (ch == '#') {
        queens.add_regions(-1);
        continue;
      }
      const char upper =
          static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      queens.add_regions(static_cast<int32_t>(
          std::lower_bound(letters.begin(), letters.end(), upper) -
          letters.begin()));
      if (std::islower(static_cast<unsigned char>(ch))) {
        queens.add_given_queens(static_cast<uint32_t>(r * width + c));
      }
    }
  }
  return spec;
}

absl::StatusOr<std::string> FormatQueensText(const v1::PuzzleSpec& puzzle) {
  auto refuse = [](absl::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("queens text: the LinkedIn format cannot express ", why));
  };
  if (!puzzle.has_queens()) return refuse("a puzzle of another family");
  const v1::QueensPuzzle& q = puzzle.queens();
  const int n = static_cast<int>(q.rows());
  if (n < 1 || n > kMaxSide || (q.cols() != 0 && q.cols() != q.rows()))
    return refuse("a board that is not square");
  if (q.attack() != v1::QUEENS_ATTACK_ADJACENT_DIAGONALS)
    return refuse("attacks other than the adjacent diagonals");
  if (q.topology() != v1::QUEENS_TOPOLOGY_PLANE) return refuse("a topology");
  if (!q.row_counts().empty() || !q.col_counts().empty() ||
      !q.row_two_values().empty() || !q.col_two_values().empty() ||
      !q.region_counts().empty() || !q.region_two_values().empty() ||
      !q.extra_regions().empty() ||
      q.region_rule() != v1::QUEENS_REGIONS_COUNTED)
    return refuse("counts other than one queen per row, column and region");
  if (q.regions_size() != n * n) return refuse("a board without regions");
  const bool any_masked = !q.masked().empty();
  if (any_masked && q.masked_size() != n * n) return refuse("a partial mask");
  std::vector<bool> given(n * n, false);
  for (uint32_t cell : q.given_queens()) {
    if (cell >= static_cast<uint32_t>(n * n))
      return refuse("a queen off the board");
    given[cell] = true;
  }
  std::string text;
  for (int cell = 0; cell < n * n; ++cell) {
    if (cell > 0 && cell % n == 0) text.push_back('/');
    if (any_masked && q.masked(cell)) {
      text.push_back('#');
      continue;
    }
    const int id = q.regions(cell);
    if (id < 0 || id >= 26) return refuse("more than 26 regions");
    const char letter = static_cast<char>('A' + id);
    text.push_back(given[cell] ? static_cast<char>(std::tolower(letter))
                               : letter);
  }
  return text;
}

TextFormat NQueensTextFormat() {
  return {"nqueens",
          &ParseNQueensText,
          &ParseBinaryBoard,
          nullptr,
          "N-queens and its generalizations (NxM, torus, attack distance, "
          "pre-placed queens)",
          "8"};
}

TextFormat QueensTextFormat() {
  return {
      "queens",
      &ParseQueensText,
      &ParseBinaryBoard,
      &FormatQueensText,
      "LinkedIn Queens: one queen per row, column and region, none adjacent",
      "ACCCDDDD/AACCDDDH/AACCCGDD/AFFFFGGD/GFFFGGDD/GGFFGGBB/EGGFGBBB/"
      "GGGGGBBB"};
}

}  // namespace qs::formats
