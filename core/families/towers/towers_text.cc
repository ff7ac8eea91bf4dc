// Towers (Skyscrapers) text, docs/towers.md §5. Two forms are read:
//
// 1. A game ID of Simon Tatham's "Towers", exactly as
//    `sgt-towers --generate N [params]` prints it:
//      5:2/3/3/2/1/2/2/1/3/2/2/3/1/2/3/1/2/5/3/2
//      4:////2/2///////3///,j2b1b
//    the size (parameters after it, such as "de", are ignored), ':', then 4n
//    clues separated by '/', empty (or 0) for none: n above the columns left
//    to right, n below the columns left to right, n left of the rows top to
//    bottom, n right of the rows top to bottom. An optional ',' starts the
//    given heights, row-major: a letter 'a'..'z' skips 1..26 empty cells, a
//    number is a given, '_' separates two givens that follow each other.
//
// 2. A grid: a line of the n top clues, n lines "L c c ... c R" (the left
//    clue, the row's cells, the right clue), a line of the n bottom clues.
//    A clue or cell is a digit, '.', '-' or '0' for none; tokens are separated
//    by spaces, or written without spaces one character each. Lines may be
//    separated by '/'; blank lines and lines starting with '#' are skipped.
//        . 2 . 3
//      . . . . . 2
//      3 . . 4 . .
//      . . . . . .
//      1 . . . . .
//        . . 2 .
//
// Boards (for Validate) are rows of heights, '.' for an empty cell.
// FormatTowersText writes the game ID form, which sgt-towers reads back.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "formats/puzzle_text.h"

namespace qs::formats {
namespace {

constexpr uint32_t kMaxSize = 9;

absl::Status TextError(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("towers text: ", what));
}

google::protobuf::RepeatedField<uint32_t>* Side(v1::TowersPuzzle& towers,
                                                int side) {
  switch (side) {
    case 0:
      return towers.mutable_top();
    case 1:
      return towers.mutable_bottom();
    case 2:
      return towers.mutable_left();
    default:
      return towers.mutable_right();
  }
}

// A side whose clues are all 0 is left empty.
void DropEmptySides(v1::TowersPuzzle& towers) {
  for (int side = 0; side < 4; ++side) {
    auto* clues = Side(towers, side);
    bool any = false;
    for (uint32_t c : *clues) any |= c != 0;
    if (!any) clues->Clear();
  }
}

void DropEmptyGivens(v1::TowersPuzzle& towers) {
  for (uint32_t g : towers.givens()) {
    if (g != 0) return;
  }
  towers.clear_givens();
}

// A clue or height token: a number 0..n, or '.', '-', '' for none.
absl::StatusOr<uint32_t> ParseValue(absl::string_view token, uint32_t n,
                                    absl::string_view where) {
  if (token.empty() || token == "." || token == "-") return 0;
  uint32_t v = 0;
  if (!std::isdigit(static_cast<unsigned char>(token[0])) ||
      !absl::SimpleAtoi(token, &v)) {
    return TextError(absl::StrCat(where, ": '", token, "' is not a number"));
  }
  if (v > n)
    return TextError(absl::StrCat(where, ": ", v, " is over the size ", n));
  return v;
}

absl::StatusOr<v1::PuzzleSpec> ParseGameId(absl::string_view id) {
  const size_t colon = id.find(':');
  size_t digits = 0;
  while (digits < colon && std::isdigit(static_cast<unsigned char>(id[digits])))
    ++digits;
  uint32_t n = 0;
  if (!absl::SimpleAtoi(id.substr(0, digits), &n) || n < 1 || n > kMaxSize) {
    return TextError(absl::StrCat("game ID size '", id.substr(0, colon),
                                  "' is not a size 1..", kMaxSize));
  }
  absl::string_view desc = id.substr(colon + 1);
  absl::string_view grid;
  const size_t comma = desc.find(',');
  const bool has_grid = comma != absl::string_view::npos;
  if (has_grid) {
    grid = desc.substr(comma + 1);
    desc = desc.substr(0, comma);
  }
  const std::vector<absl::string_view> clues = absl::StrSplit(desc, '/');
  if (clues.size() != 4 * n) {
    return TextError(absl::StrCat("game ID has ", clues.size(), " clues; size ",
                                  n, " needs ", 4 * n,
                                  " (top, bottom, left, right)"));
  }
  v1::PuzzleSpec spec;
  v1::TowersPuzzle& towers = *spec.mutable_towers();
  towers.set_size(n);
  for (uint32_t i = 0; i < 4 * n; ++i) {
    auto v = ParseValue(clues[i], n, absl::StrCat("game ID clue ", i + 1));
    if (!v.ok()) return v.status();
    Side(towers, static_cast<int>(i / n))->Add(*v);
  }
  DropEmptySides(towers);
  if (!has_grid) return spec;
  const uint64_t cells = uint64_t{n} * n;
  for (size_t p = 0; p < grid.size();) {
    const char ch = grid[p];
    if (ch >= 'a' && ch <= 'z') {
      for (int k = 0; k <= ch - 'a'; ++k) towers.add_givens(0);
      ++p;
    } else if (ch == '_') {
      ++p;
    } else if (std::isdigit(static_cast<unsigned char>(ch))) {
      size_t end = p;
      while (end < grid.size() &&
             std::isdigit(static_cast<unsigned char>(grid[end])))
        ++end;
      auto v = ParseValue(grid.substr(p, end - p), n,
                          absl::StrCat("game ID given at offset ", p));
      if (!v.ok()) return v.status();
      if (*v == 0) return TextError("game ID given 0 is not a height");
      towers.add_givens(*v);
      p = end;
    } else {
      return TextError(absl::StrCat("game ID givens: unexpected '",
                                    std::string(1, ch), "' at offset ", p));
    }
    if (static_cast<uint64_t>(towers.givens_size()) > cells) break;
  }
  if (static_cast<uint64_t>(towers.givens_size()) != cells) {
    return TextError(absl::StrCat("game ID givens cover ", towers.givens_size(),
                                  " cells of ", cells));
  }
  DropEmptyGivens(towers);
  return spec;
}

// A line's tokens: split at spaces, or one character each when it has none.
std::vector<std::string> Tokens(absl::string_view line) {
  std::vector<std::string> tokens =
      absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
  if (tokens.size() == 1 && tokens[0].size() > 1) {
    const std::string word = tokens[0];
    tokens.clear();
    for (char ch : word) tokens.push_back(std::string(1, ch));
  }
  return tokens;
}

absl::StatusOr<v1::PuzzleSpec> ParseGrid(absl::string_view text) {
  std::vector<std::vector<std::string>> lines;
  for (absl::string_view line : absl::StrSplit(text, absl::ByAnyChar("\n/"))) {
    line = absl::StripAsciiWhitespace(line);
    if (!line.empty() && line[0] != '#') lines.push_back(Tokens(line));
  }
  const uint32_t n = static_cast<uint32_t>(lines.empty() ? 0 : lines[0].size());
  if (n < 1 || n > kMaxSize || lines.size() != n + 2) {
    return TextError(absl::StrCat(
        "expected a line of n top clues, n rows 'L cells R' and a line of n "
        "bottom clues (n 1..",
        kMaxSize, "), got ", lines.size(), " lines"));
  }
  v1::PuzzleSpec spec;
  v1::TowersPuzzle& towers = *spec.mutable_towers();
  towers.set_size(n);
  for (uint32_t i = 0; i <= n + 1; ++i) {
    const std::vector<std::string>& tokens = lines[i];
    const bool clue_line = i == 0 || i == n + 1;
    const std::string where = absl::StrCat("line ", i + 1);
    if (tokens.size() != (clue_line ? n : n + 2)) {
      return TextError(absl::StrCat(where, ": ", tokens.size(),
                                    " tokens, expected ",
                                    clue_line ? n : n + 2));
    }
    for (size_t t = 0; t < tokens.size(); ++t) {
      auto v = ParseValue(tokens[t] == "0" ? "" : tokens[t], n, where);
      if (!v.ok()) return v.status();
      if (i == 0) {
        towers.add_top(*v);
      } else if (i == n + 1) {
        towers.add_bottom(*v);
      } else if (t == 0) {
        towers.add_left(*v);
      } else if (t == n + 1) {
        towers.add_right(*v);
      } else {
        towers.add_givens(*v);
      }
    }
  }
  DropEmptySides(towers);
  DropEmptyGivens(towers);
  return spec;
}

bool LooksLikeGameId(absl::string_view text) {
  return !text.empty() && std::isdigit(static_cast<unsigned char>(text[0])) &&
         text.find(':') != absl::string_view::npos;
}

absl::StatusOr<v1::PuzzleSpec> ParseTowersText(absl::string_view text) {
  const absl::string_view trimmed = absl::StripAsciiWhitespace(text);
  if (LooksLikeGameId(trimmed)) return ParseGameId(trimmed);
  return ParseGrid(trimmed);
}

absl::StatusOr<std::string> FormatTowersText(const v1::PuzzleSpec& puzzle) {
  if (!puzzle.has_towers())
    return absl::InvalidArgumentError("towers text: not a towers puzzle");
  v1::TowersPuzzle towers = puzzle.towers();
  const uint32_t n = towers.size();
  if (n < 1 || n > kMaxSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("towers text: size ", n, " out of range 1..", kMaxSize));
  }
  std::string out = absl::StrCat(n, ":");
  for (int side = 0; side < 4; ++side) {
    const auto& clues = *Side(towers, side);
    if (!clues.empty() && static_cast<uint32_t>(clues.size()) != n) {
      return absl::InvalidArgumentError(
          "towers text: a side needs n clues or none");
    }
    for (uint32_t i = 0; i < n; ++i) {
      if (side > 0 || i > 0) out.push_back('/');
      const uint32_t c = clues.empty() ? 0 : clues[i];
      if (c > n) return absl::InvalidArgumentError("towers text: clue over n");
      if (c != 0) absl::StrAppend(&out, c);
    }
  }
  if (towers.givens().empty()) return out;
  if (static_cast<uint32_t>(towers.givens_size()) != n * n)
    return absl::InvalidArgumentError("towers text: givens need n*n values");
  out.push_back(',');
  uint32_t run = 0;
  auto flush = [&] {
    for (; run > 0; run -= std::min<uint32_t>(run, 26))
      out.push_back(static_cast<char>('a' + std::min<uint32_t>(run, 26) - 1));
  };
  for (uint32_t k = 0; k < n * n; ++k) {
    const uint32_t g = towers.givens(static_cast<int>(k));
    if (g > n) return absl::InvalidArgumentError("towers text: given over n");
    if (g == 0) {
      ++run;
      continue;
    }
    if (run > 0) {
      flush();
    } else if (k > 0) {
      out.push_back('_');
    }
    absl::StrAppend(&out, g);
  }
  flush();
  return out;
}

// Rows of heights ('.' or '0' empty, '*' several), separated by '/' or new
// lines; spaces between cells are ignored.
absl::StatusOr<v1::PuzzleSolution> ParseTowersBoard(
    const v1::PuzzleSpec& puzzle, absl::string_view text) {
  v1::PuzzleSolution board;
  for (absl::string_view line :
       absl::StrSplit(text, absl::ByAnyChar("/\n"), absl::SkipWhitespace())) {
    std::string row;
    for (char ch : line) {
      if (ch == ' ' || ch == '\t' || ch == '\r') continue;
      if (ch == '0') ch = '.';
      if (ch != '.' && ch != '*' && (ch < '1' || ch > '9')) {
        return absl::InvalidArgumentError(
            absl::StrCat("board row ", board.rows_size() + 1,
                         ": unexpected character '", std::string(1, ch), "'"));
      }
      board.add_cells(ch == '.' ? 0 : ch == '*' ? -1 : ch - '0');
      row.push_back(ch);
    }
    if (board.rows_size() > 0 && row.size() != board.rows(0).size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("board row ", board.rows_size() + 1, " has ", row.size(),
                       " cells, the first row has ", board.rows(0).size()));
    }
    board.add_rows(row);
  }
  if (board.rows_size() == 0)
    return absl::InvalidArgumentError("board: no rows");
  board.set_height(static_cast<uint32_t>(board.rows_size()));
  board.set_width(static_cast<uint32_t>(board.rows(0).size()));
  return board;
}

}  // namespace

TextFormat TowersTextFormat() {
  return {"towers",
          &ParseTowersText,
          &ParseTowersBoard,
          &FormatTowersText,
          "Towers / Skyscrapers (Simon Tatham's Towers game IDs or a grid "
          "with clues around it)",
          "4:2/1////3/////1/2///2/"};
}

}  // namespace qs::formats
