// Light Up text (docs/lightup.md §7). Two forms are read:
//
// 1. A game ID of Simon Tatham's "Light Up", exactly as
//    `sgt-lightup --generate N [params]` prints it:
//      7x7:b2a0iBe0g1e2i1aBb
//    "WxH" (width, then height; parameters such as "b20s2d1" after it are
//    ignored), ':', then the cells row by row: a letter 'a'..'z' is a run of
//    1..26 white cells (a longer run is several letters, 'z' first), 'B' a
//    black cell without a number and a digit '0'..'4' a black cell with that
//    number. The runs, blacks and numbers must cover the grid exactly.
//
// 2. A grid, one row per line or rows separated by '/': '.' a white cell,
//    '#' a black cell, '0'..'4' a numbered black cell; 'L' (a light, as in
//    boards) reads as a white cell. Spaces and tabs between cells and blank
//    lines are skipped.
//      ..1..
//      .#...
//      ....0
//
// Boards (for Validate) are grids of the same characters with 'L' for a
// light and '*' for a light on a black cell. FormatLightupText writes the
// game ID form, which sgt-lightup reads back.
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

constexpr uint32_t kMaxSide = 100;
// The longest run of white cells one letter stands for ('z').
constexpr uint64_t kMaxRun = 26;

absl::Status TextError(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("lightup text: ", what));
}

bool LooksLikeGameId(absl::string_view text) {
  size_t pos = 0;
  while (pos < text.size() &&
         std::isdigit(static_cast<unsigned char>(text[pos])))
    ++pos;
  return pos > 0 && pos < text.size() && text[pos] == 'x' &&
         text.find(':') != absl::string_view::npos;
}

// Reads the digits at the start of `text` into *value; false if none.
bool EatNumber(absl::string_view& text, uint32_t* value) {
  size_t end = 0;
  while (end < text.size() &&
         std::isdigit(static_cast<unsigned char>(text[end])))
    ++end;
  if (end == 0 || !absl::SimpleAtoi(text.substr(0, end), value)) return false;
  text.remove_prefix(end);
  return true;
}

absl::StatusOr<v1::PuzzleSpec> ParseGameId(absl::string_view id) {
  const size_t colon = id.find(':');
  const absl::string_view params = id.substr(0, colon);
  absl::string_view rest = params;
  uint32_t width = 0, height = 0;
  if (!EatNumber(rest, &width) || rest.empty() || rest[0] != 'x' ||
      !(rest.remove_prefix(1), EatNumber(rest, &height)) || width == 0 ||
      height == 0) {
    return TextError(absl::StrCat("game ID size '", params, "' is not WxH"));
  }
  if (width > kMaxSide || height > kMaxSide) {
    return TextError(absl::StrCat("game ID size ", width, "x", height,
                                  " too large (sides 1..", kMaxSide, ")"));
  }
  v1::PuzzleSpec spec;
  v1::LightupPuzzle& p = *spec.mutable_lightup();
  p.set_rows(height);
  p.set_cols(width);
  const uint64_t cells = static_cast<uint64_t>(width) * height;
  const absl::string_view desc = id.substr(colon + 1);
  uint64_t pos = 0;
  for (size_t k = 0; k < desc.size(); ++k) {
    const char ch = desc[k];
    if (pos >= cells) {
      return TextError(absl::StrCat("game ID description runs past the ", width,
                                    "x", height, " grid at offset ", k));
    }
    if (ch >= 'a' && ch <= 'z') {
      pos += static_cast<uint64_t>(ch - 'a' + 1);
      if (pos > cells) {
        return TextError(absl::StrCat("game ID description runs past the ",
                                      width, "x", height, " grid at offset ",
                                      k));
      }
      continue;
    }
    if (ch != 'B' && (ch < '0' || ch > '4')) {
      return TextError(absl::StrCat("game ID description: unexpected '",
                                    std::string(1, ch), "' at offset ", k,
                                    " (a-z, B or 0-4)"));
    }
    v1::LightupBlack& black = *p.add_blacks();
    black.set_cell(static_cast<uint32_t>(pos));
    if (ch != 'B') black.set_lights(static_cast<uint32_t>(ch - '0'));
    ++pos;
  }
  if (pos != cells) {
    return TextError(absl::StrCat("game ID description covers ", pos,
                                  " of the ", cells, " cells"));
  }
  return spec;
}

// The rows of a grid: lines split at newlines or '/', blanks removed, empty
// lines skipped.
std::vector<std::string> GridRows(absl::string_view text) {
  std::vector<std::string> rows;
  for (absl::string_view line : absl::StrSplit(text, absl::ByAnyChar("\n/"))) {
    std::string row;
    for (char ch : line) {
      if (ch != ' ' && ch != '\t' && ch != '\r') row.push_back(ch);
    }
    if (!row.empty()) rows.push_back(std::move(row));
  }
  return rows;
}

absl::StatusOr<v1::PuzzleSpec> ParseGrid(absl::string_view text) {
  const std::vector<std::string> rows = GridRows(text);
  if (rows.empty()) return TextError("no rows");
  const size_t width = rows[0].size();
  if (rows.size() > kMaxSide || width > kMaxSide) {
    return TextError(absl::StrCat("grid of ", rows.size(), "x", width,
                                  " too large (sides 1..", kMaxSide, ")"));
  }
  v1::PuzzleSpec spec;
  v1::LightupPuzzle& p = *spec.mutable_lightup();
  p.set_rows(static_cast<uint32_t>(rows.size()));
  p.set_cols(static_cast<uint32_t>(width));
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() != width) {
      return TextError(absl::StrCat("row ", r + 1, ": ", rows[r].size(),
                                    " cells, but row 1 has ", width));
    }
    for (size_t c = 0; c < width; ++c) {
      const char ch = rows[r][c];
      if (ch == '.' || ch == 'L') continue;
      if (ch != '#' && (ch < '0' || ch > '4')) {
        return TextError(absl::StrCat(
            "row ", r + 1, ", column ", c + 1, ": unexpected '",
            std::string(1, ch), "' (cells are '.', '#', '0'..'4' or 'L')"));
      }
      v1::LightupBlack& black = *p.add_blacks();
      black.set_cell(static_cast<uint32_t>(r * width + c));
      if (ch != '#') black.set_lights(static_cast<uint32_t>(ch - '0'));
    }
  }
  return spec;
}

absl::StatusOr<v1::PuzzleSolution> ParseLightupBoard(
    const v1::PuzzleSpec& puzzle, absl::string_view text) {
  const std::vector<std::string> rows = GridRows(text);
  const uint32_t height = puzzle.lightup().rows();
  const uint32_t width = puzzle.lightup().cols();
  if (rows.size() != height) {
    return TextError(
        absl::StrCat("board has ", rows.size(), " rows, the puzzle ", height));
  }
  v1::PuzzleSolution solution;
  solution.set_height(height);
  solution.set_width(width);
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() != width) {
      return TextError(absl::StrCat("board row ", r + 1, ": ", rows[r].size(),
                                    " cells, the puzzle has ", width));
    }
    for (char ch : rows[r]) {
      if (ch != 'L' && ch != '*' && ch != '.' && ch != '#' &&
          (ch < '0' || ch > '4')) {
        return TextError(absl::StrCat("board row ", r + 1, ": unexpected '",
                                      std::string(1, ch),
                                      "' (one of L . # 0-4 *)"));
      }
      // Black cells hold 0 (PuzzleSolution); a '*' stays in the row.
      solution.add_cells(ch == 'L' ? 1 : 0);
    }
    solution.add_rows(rows[r]);
  }
  return solution;
}

absl::StatusOr<std::string> FormatLightupText(const v1::PuzzleSpec& puzzle) {
  if (!puzzle.has_lightup())
    return absl::InvalidArgumentError("lightup text: not a lightup puzzle");
  const v1::LightupPuzzle& p = puzzle.lightup();
  const uint64_t cells = static_cast<uint64_t>(p.rows()) * p.cols();
  if (p.rows() == 0 || p.cols() == 0 || p.rows() > kMaxSide ||
      p.cols() > kMaxSide) {
    return absl::InvalidArgumentError(
        absl::StrCat("lightup text: a game ID needs sides 1..", kMaxSide,
                     ", got ", p.cols(), "x", p.rows()));
  }
  // Per cell: 0 white, 'B' or '0'..'4' for a black cell.
  std::vector<char> black(cells, 0);
  for (const v1::LightupBlack& b : p.blacks()) {
    if (b.cell() >= cells || black[b.cell()] != 0 ||
        (b.has_lights() && b.lights() > 4)) {
      return absl::InvalidArgumentError(
          absl::StrCat("lightup text: black cell ", b.cell(),
                       " out of range, repeated or with a number over 4"));
    }
    black[b.cell()] =
        b.has_lights() ? static_cast<char>('0' + b.lights()) : 'B';
  }
  std::string out = absl::StrCat(p.cols(), "x", p.rows(), ":");
  uint64_t run = 0;
  auto flush = [&] {
    if (run > 0) out.push_back(static_cast<char>('a' + run - 1));
    run = 0;
  };
  for (uint64_t cell = 0; cell < cells; ++cell) {
    if (black[cell] != 0) {
      flush();
      out.push_back(black[cell]);
      continue;
    }
    if (run == kMaxRun) flush();
    ++run;
  }
  flush();
  return out;
}

absl::StatusOr<v1::PuzzleSpec> ParseLightupText(absl::string_view text) {
  const absl::string_view trimmed = absl::StripAsciiWhitespace(text);
  if (LooksLikeGameId(trimmed)) return ParseGameId(trimmed);
  return ParseGrid(trimmed);
}

}  // namespace

TextFormat LightupTextFormat() {
  return {"lightup",
          &ParseLightupText,
          &ParseLightupBoard,
          &FormatLightupText,
          "Light Up / Akari (Simon Tatham's Light Up game IDs or a grid of . "
          "# 0-4)",
          "7x7:b2a0iBe0g1e2i1aBb"};
}

}  // namespace qs::formats
