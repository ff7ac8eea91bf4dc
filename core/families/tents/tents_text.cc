// Tents & Trees text ([Mata Ali & Mencia 2024] §2.5 puzzles). Two forms are
// read:
//
// 1. A game ID of Simon Tatham's "Tents", exactly as
//    `sgt-tents --generate N` prints it:
//      8x8:abjcedccdfcdd,1,3,0,1,3,1,2,1,1,2,1,2,2,1,1,2
//    "WxH" (width, then height; parameters such as "de" after it are ignored),
//    ':', the trees run-length encoded row by row, then W column counts (left
//    to right) and H row counts (top to bottom). In the encoding each letter
//    'a'..'y' skips 1..25 empty cells and then puts a tree, '_' puts a tree at
//    once, 'z' skips 25 empty cells without a tree; the last letter runs to
//    the end of the grid without a tree.
//
// 2. A grid: the first line holds the column counts; each following line is
//    one row of cells, 'A' for a tree and '.' for an empty cell (spaces
//    between cells allowed), followed by the row's count. Lines may also be
//    separated by '/'; blank lines and lines starting with '#' are skipped.
//      1 0 2 0
//      ...A 1
//      A... 0
//      .... 1
//      .A.. 1
//
// Solved boards come back as rows of 'T' (tent), 'A' (tree) and '.'.
// FormatTentsText writes the game ID form, which sgt-tents reads back.
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

absl::Status TextError(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("tents text: ", what));
}

absl::StatusOr<uint32_t> ParseCount(absl::string_view token,
                                    absl::string_view where) {
  uint32_t n = 0;
  if (token.empty() || !absl::SimpleAtoi(token, &n) ||
      !std::isdigit(static_cast<unsigned char>(token[0]))) {
    return TextError(absl::StrCat(where, ": '", token, "' is not a count"));
  }
  return n;
}

bool LooksLikeGameId(absl::string_view text) {
  size_t pos = 0;
  while (pos < text.size() &&
         std::isdigit(static_cast<unsigned char>(text[pos])))
    ++pos;
  return pos > 0 && pos < text.size() && text[pos] == 'x' &&
         text.find(':') != absl::string_view::npos;
}

absl::StatusOr<v1::PuzzleSpec> ParseGameId(absl::string_view id) {
  const size_t colon = id.find(':');
  const absl::string_view params = id.substr(0, colon);
  const size_t x = params.find('x');
  size_t height_end = x + 1;
  while (height_end < params.size() &&
         std::isdigit(static_cast<unsigned char>(params[height_end])))
    ++height_end;
  uint32_t width = 0, height = 0;
  if (!absl::SimpleAtoi(params.substr(0, x), &width) ||
      !absl::SimpleAtoi(params.substr(x + 1, height_end - x - 1), &height) ||
      width == 0 || height == 0) {
    return TextError(absl::StrCat("game ID size '", params, "' is not WxH"));
  }
  if (width > 1000 || height > 1000)
    return TextError(
        absl::StrCat("game ID size ", width, "x", height, " too large"));
  const std::vector<absl::string_view> fields =
      absl::StrSplit(id.substr(colon + 1), ',');
  if (fields.size() != 1 + width + height) {
    return TextError(absl::StrCat(
        "game ID has ", fields.size() - 1, " counts; a ", width, "x", height,
        " grid needs ", width + height, " (columns, then rows)"));
  }
  v1::PuzzleSpec spec;
  v1::TentsPuzzle* tents = spec.mutable_tents();
  tents->set_rows(height);
  tents->set_cols(width);
  const uint64_t cells = static_cast<uint64_t>(width) * height;
  uint64_t pos = 0;
  const absl::string_view trees = fields[0];
  for (size_t k = 0; k < trees.size(); ++k) {
    const char ch = trees[k];
    if (ch == 'z') {
      pos += 25;
      continue;
    }
    if (ch != '_' && (ch < 'a' || ch > 'y')) {
      return TextError(absl::StrCat("game ID tree description: unexpected '",
                                    std::string(1, ch), "' at offset ", k));
    }
    if (ch != '_') pos += static_cast<uint64_t>(ch - 'a' + 1);
    if (pos < cells) {
      tents->add_trees(static_cast<uint32_t>(pos));
      ++pos;
    } else if (pos > cells || k + 1 != trees.size()) {
      return TextError(absl::StrCat("game ID tree description runs past the ",
                                    width, "x", height, " grid"));
    }
  }
  if (pos != cells) {
    return TextError(absl::StrCat("game ID tree description covers ", pos,
                                  " of the ", cells, " cells"));
  }
  for (uint32_t c = 0; c < width; ++c) {
    auto n =
        ParseCount(fields[1 + c], absl::StrCat("game ID column count ", c + 1));
    if (!n.ok()) return n.status();
    tents->add_col_counts(*n);
  }
  for (uint32_t r = 0; r < height; ++r) {
    auto n = ParseCount(fields[1 + width + r],
                        absl::StrCat("game ID row count ", r + 1));
    if (!n.ok()) return n.status();
    tents->add_row_counts(*n);
  }
  return spec;
}

absl::StatusOr<v1::PuzzleSpec> ParseGrid(absl::string_view text) {
  std::vector<absl::string_view> lines;
  for (absl::string_view line : absl::StrSplit(text, absl::ByAnyChar("\n/"))) {
    line = absl::StripAsciiWhitespace(line);
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  }
  if (lines.size() < 2)
    return TextError("expected a line of column counts and at least one row");
  v1::PuzzleSpec spec;
  v1::TentsPuzzle* tents = spec.mutable_tents();
  for (absl::string_view token :
       absl::StrSplit(lines[0], absl::ByAnyChar(" \t,"), absl::SkipEmpty())) {
    auto n = ParseCount(token, "line 1 (column counts)");
    if (!n.ok()) return n.status();
    tents->add_col_counts(*n);
  }
  const int width = tents->col_counts_size();
  if (width == 0) return TextError("line 1: no column counts");
  for (size_t r = 1; r < lines.size(); ++r) {
    const absl::string_view line = lines[r];
    const std::string where = absl::StrCat("row ", r);
    size_t count_start = line.size();
    while (count_start > 0 &&
           std::isdigit(static_cast<unsigned char>(line[count_start - 1])))
      --count_start;
    if (count_start == line.size())
      return TextError(
          absl::StrCat(where, ": no tent count at the end of '", line, "'"));
    auto n = ParseCount(line.substr(count_start), where);
    if (!n.ok()) return n.status();
    tents->add_row_counts(*n);
    int cells = 0;
    for (char ch : line.substr(0, count_start)) {
      if (ch == ' ' || ch == '\t') continue;
      if (ch == 'A') {
        tents->add_trees(static_cast<uint32_t>((r - 1) * width + cells));
      } else if (ch != '.') {
        return TextError(absl::StrCat(where, ": unexpected '",
                                      std::string(1, ch),
                                      "' (cells are 'A' trees and '.')"));
      }
      ++cells;
    }
    if (cells != width) {
      return TextError(absl::StrCat(where, ": ", cells,
                                    " cells, but line 1 gives ", width,
                                    " column counts"));
    }
  }
  tents->set_rows(static_cast<uint32_t>(lines.size() - 1));
  tents->set_cols(static_cast<uint32_t>(width));
  return spec;
}

}  // namespace

absl::StatusOr<std::string> FormatTentsText(const v1::PuzzleSpec& puzzle) {
  if (!puzzle.has_tents())
    return absl::InvalidArgumentError("tents text: not a tents puzzle");
  const v1::TentsPuzzle& tents = puzzle.tents();
  const uint32_t height = tents.rows();
  const uint32_t width = tents.cols() == 0 ? height : tents.cols();
  const uint64_t cells = static_cast<uint64_t>(width) * height;
  if (height == 0 || static_cast<uint32_t>(tents.row_counts_size()) != height ||
      static_cast<uint32_t>(tents.col_counts_size()) != width) {
    return absl::InvalidArgumentError(
        "tents text: a game ID needs a size and one count per row and column");
  }
  std::vector<uint64_t> trees(tents.trees().begin(), tents.trees().end());
  std::sort(trees.begin(), trees.end());
  std::string out = absl::StrCat(width, "x", height, ":");
  // Runs of empty cells: 'z' for 25 without a tree, then a letter for the
  // rest ('_' for none) followed by the tree or, last of all, the grid's end.
  auto skip = [&](uint64_t gap) {
    while (gap > 25) {
      out.push_back('z');
      gap -= 25;
    }
    if (gap > 0) {
      out.push_back(static_cast<char>('a' + gap - 1));
    } else {
      out.push_back('_');
    }
  };
  uint64_t pos = 0;
  for (size_t k = 0; k < trees.size(); ++k) {
    if (trees[k] >= cells || (k > 0 && trees[k] == trees[k - 1])) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tents text: tree cell ", trees[k], " out of range or repeated"));
    }
    skip(trees[k] - pos);
    pos = trees[k] + 1;
  }
  skip(cells - pos);
  for (uint32_t n : tents.col_counts()) absl::StrAppend(&out, ",", n);
  for (uint32_t n : tents.row_counts()) absl::StrAppend(&out, ",", n);
  return out;
}

absl::StatusOr<v1::PuzzleSpec> ParseTentsText(absl::string_view text) {
  const absl::string_view trimmed = absl::StripAsciiWhitespace(text);
  if (LooksLikeGameId(trimmed)) return ParseGameId(trimmed);
  return ParseGrid(trimmed);
}

TextFormat TentsTextFormat() {
  return {"tents",
          &ParseTentsText,
          &ParseBinaryBoard,
          &FormatTentsText,
          "Tents & Trees (Simon Tatham's Tents game IDs or a grid)",
          "8x8:abjcedccdfcdd,1,3,0,1,3,1,2,1,1,2,1,2,2,1,1,2"};
}

}  // namespace qs::formats
