// Nonogram text (docs/pattern.md "Text formats"). Two forms are read:
//
// 1. A game ID of Simon Tatham's "Pattern", exactly as
//    `sgt-pattern --generate N WxH` prints it:
//      5x3:1/1/2/2/2/1.3/3/1
//    "WxH" (width, then height; "W" alone is a square), ':', then W column
//    clues (left to right) and H row clues (top to bottom) separated by '/',
//    each clue its run lengths separated by '.', an empty line written as
//    nothing ("6x2:/2/2/1/1//2/4"; "0" is read as empty too). An optional
//    ",GIVENS" suffix gives cells: each letter skips its offset from 'a' (or
//    'A') of cells and then gives the next cell, empty for a lower-case
//    letter and filled for an upper-case one; 'z' (or 'Z') skips 25 cells
//    and gives none; a last letter may skip to the end of the grid.
//
// 2. A readable form of our own: a line "rows: ..." and a line
//    "cols: ..." ("columns:" too), each listing its lines' clues separated
//    by ',' with the runs of a clue separated by spaces ('-' or '0' for an
//    empty line), then optionally the grid of givens, one line per row:
//    '#' a given filled cell, 'x' a given empty cell, '.' an open one.
//    Lines may be separated by '/' as well as by new lines; lines starting
//    with '#' followed by a space are comments.
//      rows: 1 1, 3, 1
//      cols: 2, 1, 2 / ... / .#. / ...
//
// Boards are rows of '#' (filled) and '.' (empty). FormatPatternText writes
// the game ID form, which sgt-pattern reads back.
#include <cctype>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "formats/puzzle_text.h"
#include "qs/v1/pattern.pb.h"

namespace qs::formats {
namespace {

constexpr uint32_t kMaxSide = 1000;

absl::Status TextError(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("pattern text: ", what));
}

bool LooksLikeGameId(absl::string_view text) {
  size_t pos = 0;
  while (pos < text.size() &&
         std::isdigit(static_cast<unsigned char>(text[pos])))
    ++pos;
  return pos > 0 && pos < text.size() && (text[pos] == 'x' || text[pos] == ':');
}

// Run lengths separated by `separator`; "", "0" and "-" are an empty line.
absl::Status ParseClue(absl::string_view text, char separator,
                       absl::string_view where, v1::PatternClue& clue) {
  text = absl::StripAsciiWhitespace(text);
  if (text.empty() || text == "0" || text == "-") return absl::OkStatus();
  for (absl::string_view token :
       absl::StrSplit(text, separator, absl::SkipEmpty())) {
    uint32_t n = 0;
    if (!absl::SimpleAtoi(token, &n) || n == 0 ||
        !std::isdigit(static_cast<unsigned char>(token[0]))) {
      return TextError(absl::StrCat(where, ": '", token,
                                    "' is not a run length (1 or more)"));
    }
    clue.add_runs(n);
  }
  return absl::OkStatus();
}

absl::Status ParseGivens(absl::string_view text, v1::PatternPuzzle& puzzle) {
  const uint64_t cells = uint64_t{puzzle.rows()} * puzzle.cols();
  uint64_t pos = 0;
  for (size_t k = 0; k < text.size(); ++k) {
    const char ch = text[k];
    if (!std::isalpha(static_cast<unsigned char>(ch))) {
      return TextError(absl::StrCat("game ID givens: unexpected '",
                                    std::string(1, ch), "' at offset ", k));
    }
    if (pos >= cells) return TextError("game ID givens run past the grid");
    const int skip = std::tolower(static_cast<unsigned char>(ch)) - 'a';
    pos += skip;
    if (pos > cells) return TextError("game ID givens run past the grid");
    if (skip < 25 && pos < cells) {
      if (std::isupper(static_cast<unsigned char>(ch))) {
        puzzle.add_filled(static_cast<uint32_t>(pos));
      } else {
        puzzle.add_empty(static_cast<uint32_t>(pos));
      }
      ++pos;
    }
  }
  if (pos != cells) {
    return TextError(absl::StrCat("game ID givens cover ", pos, " of the ",
                                  cells, " cells"));
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::PuzzleSpec> ParseGameId(absl::string_view id) {
  const size_t colon = id.find(':');
  if (colon == absl::string_view::npos)
    return TextError("a game ID is WxH:clues");
  const absl::string_view params = id.substr(0, colon);
  const size_t x = params.find('x');
  uint32_t width = 0, height = 0;
  const bool sized =
      x == absl::string_view::npos
          ? absl::SimpleAtoi(params, &width) && (height = width, true)
          : absl::SimpleAtoi(params.substr(0, x), &width) &&
                absl::SimpleAtoi(params.substr(x + 1), &height);
  if (!sized || width == 0 || height == 0)
    return TextError(absl::StrCat("game ID size '", params, "' is not WxH"));
  if (width > kMaxSide || height > kMaxSide) {
    return TextError(
        absl::StrCat("game ID size ", width, "x", height, " too large"));
  }
  absl::string_view desc = id.substr(colon + 1);
  absl::string_view givens;
  const size_t comma = desc.find(',');
  const bool has_givens = comma != absl::string_view::npos;
  if (has_givens) {
    givens = desc.substr(comma + 1);
    desc = desc.substr(0, comma);
  }
  const std::vector<absl::string_view> clues = absl::StrSplit(desc, '/');
  if (clues.size() != static_cast<size_t>(width) + height) {
    return TextError(absl::StrCat("game ID has ", clues.size(), " clues; a ",
                                  width, "x", height, " grid needs ",
                                  width + height, " (columns, then rows)"));
  }
  v1::PuzzleSpec spec;
  v1::PatternPuzzle& puzzle = *spec.mutable_pattern();
  puzzle.set_rows(height);
  puzzle.set_cols(width);
  for (uint32_t c = 0; c < width; ++c) {
    absl::Status status =
        ParseClue(clues[c], '.', absl::StrCat("game ID column clue ", c + 1),
                  *puzzle.add_col_clues());
    if (!status.ok()) return status;
  }
  for (uint32_t r = 0; r < height; ++r) {
    absl::Status status = ParseClue(clues[width + r], '.',
                                    absl::StrCat("game ID row clue ", r + 1),
                                    *puzzle.add_row_clues());
    if (!status.ok()) return status;
  }
  if (has_givens) {
    absl::Status status = ParseGivens(givens, puzzle);
    if (!status.ok()) return status;
  }
  return spec;
}

// "rows: 1 1, 3" into clues; the key is already removed.
absl::Status ParseClueList(
    absl::string_view list, absl::string_view key,
    google::protobuf::RepeatedPtrField<v1::PatternClue>& clues) {
  int k = 0;
  for (absl::string_view clue : absl::StrSplit(list, ',')) {
    absl::Status status =
        ParseClue(clue, ' ', absl::StrCat(key, " clue ", ++k), *clues.Add());
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status ParseGivenRow(absl::string_view row, uint32_t r,
                           v1::PatternPuzzle& puzzle) {
  if (row.size() != puzzle.cols()) {
    return TextError(absl::StrCat("grid row ", r + 1, ": ", row.size(),
                                  " cells, the columns are ", puzzle.cols()));
  }
  for (uint32_t c = 0; c < row.size(); ++c) {
    const uint32_t cell = r * puzzle.cols() + c;
    switch (row[c]) {
      case '#':
        puzzle.add_filled(cell);
        break;
      case 'x':
      case 'X':
        puzzle.add_empty(cell);
        break;
      case '.':
        break;
      default:
        return TextError(absl::StrCat("grid row ", r + 1, ": unexpected '",
                                      std::string(1, row[c]),
                                      "' (cells are '#', 'x' and '.')"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::PuzzleSpec> ParseReadable(absl::string_view text) {
  v1::PuzzleSpec spec;
  v1::PatternPuzzle& puzzle = *spec.mutable_pattern();
  bool rows_seen = false, cols_seen = false;
  std::vector<absl::string_view> grid;
  for (absl::string_view line : absl::StrSplit(text, absl::ByAnyChar("\n/"))) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || absl::StartsWith(line, "# ")) continue;
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) {
      grid.push_back(line);
      continue;
    }
    const std::string key = absl::AsciiStrToLower(
        absl::StripAsciiWhitespace(line.substr(0, colon)));
    const absl::string_view value = line.substr(colon + 1);
    if (key == "rows" && !rows_seen) {
      rows_seen = true;
      absl::Status status =
          ParseClueList(value, "row", *puzzle.mutable_row_clues());
      if (!status.ok()) return status;
    } else if ((key == "cols" || key == "columns") && !cols_seen) {
      cols_seen = true;
      absl::Status status =
          ParseClueList(value, "column", *puzzle.mutable_col_clues());
      if (!status.ok()) return status;
    } else {
      return TextError(absl::StrCat("unexpected line '", line,
                                    "' (expected one 'rows:' and one "
                                    "'cols:' line)"));
    }
  }
  if (!rows_seen || !cols_seen)
    return TextError("expected a 'rows:' line and a 'cols:' line of clues");
  puzzle.set_rows(static_cast<uint32_t>(puzzle.row_clues_size()));
  puzzle.set_cols(static_cast<uint32_t>(puzzle.col_clues_size()));
  if (!grid.empty() && grid.size() != puzzle.rows()) {
    return TextError(absl::StrCat("the grid of givens has ", grid.size(),
                                  " rows, the clues ", puzzle.rows()));
  }
  for (uint32_t r = 0; r < grid.size(); ++r) {
    absl::Status status = ParseGivenRow(grid[r], r, puzzle);
    if (!status.ok()) return status;
  }
  return spec;
}

std::string ClueText(const v1::PatternClue& clue) {
  return absl::StrJoin(clue.runs(), ".");
}

absl::StatusOr<std::string> GivensText(const v1::PatternPuzzle& puzzle) {
  const uint64_t cells = uint64_t{puzzle.rows()} * puzzle.cols();
  std::vector<int8_t> given(cells, -1);
  auto mark = [&](uint32_t cell, int8_t value) {
    if (cell >= cells || given[cell] != -1) return false;
    given[cell] = value;
    return true;
  };
  for (uint32_t cell : puzzle.filled()) {
    if (!mark(cell, 1))
      return TextError(
          absl::StrCat("given cell ", cell, " out of range or repeated"));
  }
  for (uint32_t cell : puzzle.empty()) {
    if (!mark(cell, 0))
      return TextError(
          absl::StrCat("given cell ", cell, " out of range or repeated"));
  }
  std::string out;
  int run = 0;
  for (uint64_t cell = 0; cell < cells; ++cell) {
    if (given[cell] < 0) {
      if (++run == 25) {
        out.push_back('z');
        run = 0;
      }
      continue;
    }
    out.push_back(static_cast<char>((given[cell] == 1 ? 'A' : 'a') + run));
    run = 0;
  }
  if (run > 0) out.push_back(static_cast<char>('a' + run));
  return out;
}

absl::StatusOr<v1::PuzzleSolution> ParsePatternBoard(
    const v1::PuzzleSpec& puzzle, absl::string_view text) {
  v1::PuzzleSolution board;
  uint32_t width = 0;
  for (absl::string_view row :
       absl::StrSplit(text, absl::ByAnyChar("/\n"), absl::SkipWhitespace())) {
    row = absl::StripAsciiWhitespace(row);
    if (width == 0) width = static_cast<uint32_t>(row.size());
    if (row.size() != width) {
      return TextError(absl::StrCat("board row ", board.rows_size() + 1,
                                    " has ", row.size(),
                                    " cells, the first row has ", width));
    }
    for (size_t c = 0; c < row.size(); ++c) {
      const char ch = row[c];
      if (ch == '#' || ch == '1') {
        board.add_cells(1);
      } else if (ch == '.' || ch == '0' || ch == '_' || ch == 'x') {
        board.add_cells(0);
      } else {
        return TextError(absl::StrCat(
            "board row ", board.rows_size() + 1, " column ", c + 1,
            ": unexpected '", std::string(1, ch), "' (filled '#', empty '.')"));
      }
    }
    board.add_rows(std::string(row));
  }
  if (board.rows_size() == 0) return TextError("board: no rows");
  if (puzzle.has_pattern() &&
      (static_cast<uint32_t>(board.rows_size()) != puzzle.pattern().rows() ||
       width != puzzle.pattern().cols())) {
    return TextError(absl::StrCat("board is ", board.rows_size(), "x", width,
                                  ", the puzzle ", puzzle.pattern().rows(), "x",
                                  puzzle.pattern().cols()));
  }
  board.set_height(static_cast<uint32_t>(board.rows_size()));
  board.set_width(width);
  return board;
}

}  // namespace

absl::StatusOr<std::string> FormatPatternText(const v1::PuzzleSpec& puzzle) {
  if (!puzzle.has_pattern()) return TextError("not a pattern puzzle");
  const v1::PatternPuzzle& pattern = puzzle.pattern();
  if (pattern.rows() == 0 || pattern.cols() == 0 ||
      static_cast<uint32_t>(pattern.row_clues_size()) != pattern.rows() ||
      static_cast<uint32_t>(pattern.col_clues_size()) != pattern.cols()) {
    return TextError("a game ID needs a size and one clue per row and column");
  }
  std::vector<std::string> clues;
  for (const v1::PatternClue& clue : pattern.col_clues())
    clues.push_back(ClueText(clue));
  for (const v1::PatternClue& clue : pattern.row_clues())
    clues.push_back(ClueText(clue));
  std::string out = absl::StrCat(pattern.cols(), "x", pattern.rows(), ":",
                                 absl::StrJoin(clues, "/"));
  if (pattern.filled_size() + pattern.empty_size() > 0) {
    absl::StatusOr<std::string> givens = GivensText(pattern);
    if (!givens.ok()) return givens.status();
    absl::StrAppend(&out, ",", *givens);
  }
  return out;
}

absl::StatusOr<v1::PuzzleSpec> ParsePatternText(absl::string_view text) {
  const absl::string_view trimmed = absl::StripAsciiWhitespace(text);
  if (LooksLikeGameId(trimmed)) return ParseGameId(trimmed);
  return ParseReadable(trimmed);
}

TextFormat PatternTextFormat() {
  return {"pattern",
          &ParsePatternText,
          &ParsePatternBoard,
          &FormatPatternText,
          "Nonogram (Simon Tatham's Pattern game IDs, or 'rows:' and "
          "'cols:' clue lines)",
          "5x3:1/1/2/2/2/1.3/3/1"};
}

}  // namespace qs::formats
