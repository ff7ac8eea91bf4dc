// Singles (Hitori) text (docs/singles.md §5, docs/formats.md). Two forms are
// read:
//
// 1. A game ID of Simon Tatham's "Singles", exactly as
//    `sgt-singles --generate N` prints it:
//      5x5:2551235242523254123522555
//    "WxH" (width, then height; "N" alone is N x N; a difficulty such as "de"
//    after it is ignored), ':', then one character per cell, row by row:
//    '1'..'9' are 1..9, 'a'..'z' are 10..35 and 'A'..'Z' are 36..61.
//
// 2. A grid of our own: one line per row, the numbers separated by spaces
//    (or commas); rows separated by new lines or '/'. Blank lines and lines
//    starting with '#' are skipped.
//      2 5 5 1 2
//      3 5 2 4 2
//      5 2 3 2 5
//      4 1 2 3 5
//      2 2 5 5 5
//
// Boards (answers) are rows of the same numbers with '#' (or '*') for a shaded
// cell, separated by spaces: "2 # 5 1 #". FormatSinglesText writes the game ID
// form, which sgt-singles reads back (numbers up to 61).
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

constexpr uint32_t kMaxSide = 62;

absl::Status TextError(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("singles text: ", what));
}

int CharToNumber(char ch) {
  if (ch >= '1' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'z') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'Z') return ch - 'A' + 36;
  return -1;
}

char NumberToChar(uint32_t n) {
  if (n < 10) return static_cast<char>('0' + n);
  if (n < 36) return static_cast<char>('a' + n - 10);
  return static_cast<char>('A' + n - 36);
}

bool LooksLikeGameId(absl::string_view text) {
  const size_t colon = text.find(':');
  return colon != absl::string_view::npos && colon > 0 &&
         std::isdigit(static_cast<unsigned char>(text[0]));
}

absl::StatusOr<uint32_t> ParseSide(absl::string_view digits,
                                   absl::string_view what) {
  uint32_t n = 0;
  if (digits.empty() || !absl::SimpleAtoi(digits, &n) || n < 2 ||
      n > kMaxSide) {
    return TextError(
        absl::StrCat("game ID ", what, " '", digits, "' is not 2..", kMaxSide));
  }
  return n;
}

absl::StatusOr<v1::PuzzleSpec> ParseGameId(absl::string_view id) {
  const size_t colon = id.find(':');
  const absl::string_view params = id.substr(0, colon);
  size_t pos = 0;
  while (pos < params.size() &&
         std::isdigit(static_cast<unsigned char>(params[pos])))
    ++pos;
  auto width = ParseSide(params.substr(0, pos), "width");
  if (!width.ok()) return width.status();
  uint32_t height = *width;
  if (pos < params.size() && params[pos] == 'x') {
    const size_t start = ++pos;
    while (pos < params.size() &&
           std::isdigit(static_cast<unsigned char>(params[pos])))
      ++pos;
    auto h = ParseSide(params.substr(start, pos - start), "height");
    if (!h.ok()) return h.status();
    height = *h;
  }
  if (pos < params.size() && params[pos] != 'd') {
    return TextError(absl::StrCat("game ID parameters '", params,
                                  "': expected WxH, optionally d<difficulty>"));
  }
  const absl::string_view desc =
      absl::StripAsciiWhitespace(id.substr(colon + 1));
  const uint64_t cells = static_cast<uint64_t>(*width) * height;
  if (desc.size() != cells) {
    return TextError(absl::StrCat("game ID has ", desc.size(), " numbers; a ",
                                  *width, "x", height, " grid needs ", cells));
  }
  v1::PuzzleSpec spec;
  v1::SinglesPuzzle* singles = spec.mutable_singles();
  singles->set_rows(height);
  singles->set_cols(*width);
  for (size_t k = 0; k < desc.size(); ++k) {
    const int n = CharToNumber(desc[k]);
    if (n < 1) {
      return TextError(absl::StrCat("game ID: unexpected '",
                                    std::string(1, desc[k]), "' at cell ", k,
                                    " (1-9, a-z, A-Z)"));
    }
    singles->add_numbers(static_cast<uint32_t>(n));
  }
  return spec;
}

std::vector<std::pair<int, absl::string_view>> Lines(absl::string_view text,
                                                     bool skip_hash) {
  std::vector<std::pair<int, absl::string_view>> lines;
  int number = 0;
  for (absl::string_view line : absl::StrSplit(text, absl::ByAnyChar("/\n"))) {
    ++number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || (skip_hash && line[0] == '#')) continue;
    lines.push_back({number, line});
  }
  return lines;
}

std::vector<absl::string_view> Tokens(absl::string_view line) {
  return absl::StrSplit(line, absl::ByAnyChar(" \t,"), absl::SkipEmpty());
}

absl::StatusOr<v1::PuzzleSpec> ParseGrid(absl::string_view text) {
  const auto lines = Lines(text, /*skip_hash=*/true);
  if (lines.size() < 2) return TextError("expected at least two rows");
  if (lines.size() > kMaxSide)
    return TextError(absl::StrCat("more than ", kMaxSide, " rows"));
  v1::PuzzleSpec spec;
  v1::SinglesPuzzle* singles = spec.mutable_singles();
  size_t width = 0;
  for (const auto& [number, line] : lines) {
    const std::vector<absl::string_view> tokens = Tokens(line);
    if (width == 0) width = tokens.size();
    if (tokens.size() != width) {
      return TextError(absl::StrCat("line ", number, ": ", tokens.size(),
                                    " numbers, the first row has ", width));
    }
    for (absl::string_view token : tokens) {
      uint32_t n = 0;
      if (!absl::SimpleAtoi(token, &n) || n < 1) {
        return TextError(absl::StrCat("line ", number, ": '", token,
                                      "' is not a number >= 1"));
      }
      singles->add_numbers(n);
    }
  }
  if (width < 2 || width > kMaxSide) {
    return TextError(
        absl::StrCat("rows of ", width, " numbers (2..", kMaxSide, ")"));
  }
  singles->set_rows(static_cast<uint32_t>(lines.size()));
  singles->set_cols(static_cast<uint32_t>(width));
  return spec;
}

}  // namespace

absl::StatusOr<v1::PuzzleSpec> ParseSinglesText(absl::string_view text) {
  const absl::string_view trimmed = absl::StripAsciiWhitespace(text);
  if (LooksLikeGameId(trimmed)) return ParseGameId(trimmed);
  return ParseGrid(trimmed);
}

absl::StatusOr<std::string> FormatSinglesText(const v1::PuzzleSpec& puzzle) {
  if (!puzzle.has_singles())
    return absl::InvalidArgumentError("singles text: not a singles puzzle");
  const v1::SinglesPuzzle& singles = puzzle.singles();
  if (singles.rows() < 2 || singles.cols() < 2 || singles.rows() > kMaxSide ||
      singles.cols() > kMaxSide ||
      static_cast<uint64_t>(singles.numbers_size()) !=
          static_cast<uint64_t>(singles.rows()) * singles.cols()) {
    return absl::InvalidArgumentError(
        "singles text: a game ID needs 2..62 rows and columns and one number "
        "per cell");
  }
  std::string out = absl::StrCat(singles.cols(), "x", singles.rows(), ":");
  for (int k = 0; k < singles.numbers_size(); ++k) {
    const uint32_t n = singles.numbers(k);
    if (n < 1 || n > 61) {
      return absl::InvalidArgumentError(
          absl::StrCat("singles text: numbers[", k, "] = ", n,
                       " does not fit a game ID (1..61)"));
    }
    out.push_back(NumberToChar(n));
  }
  return out;
}

absl::StatusOr<v1::PuzzleSolution> ParseSinglesBoard(
    const v1::PuzzleSpec& puzzle, absl::string_view text) {
  const v1::SinglesPuzzle& singles = puzzle.singles();
  const auto lines = Lines(text, /*skip_hash=*/false);
  if (lines.size() != singles.rows()) {
    return TextError(absl::StrCat("board: ", lines.size(),
                                  " rows, the puzzle has ", singles.rows()));
  }
  v1::PuzzleSolution solution;
  solution.set_height(singles.rows());
  solution.set_width(singles.cols());
  int cell = 0;
  for (const auto& [number, line] : lines) {
    const std::vector<absl::string_view> tokens = Tokens(line);
    if (tokens.size() != singles.cols()) {
      return TextError(absl::StrCat("board line ", number, ": ", tokens.size(),
                                    " cells, the puzzle has ", singles.cols()));
    }
    for (absl::string_view token : tokens) {
      uint32_t n = 0;
      if (token == "#" || token == "*") {
        solution.add_cells(1);
      } else if (absl::SimpleAtoi(token, &n) && cell < singles.numbers_size() &&
                 n == singles.numbers(cell)) {
        solution.add_cells(0);
      } else {
        return TextError(absl::StrCat(
            "board line ", number, ": '", token, "' is neither '#' nor ",
            cell < singles.numbers_size() ? singles.numbers(cell) : 0,
            ", the puzzle's number there"));
      }
      ++cell;
    }
    solution.add_rows(std::string(line));
  }
  return solution;
}

TextFormat SinglesTextFormat() {
  return {"singles",
          &ParseSinglesText,
          &ParseSinglesBoard,
          &FormatSinglesText,
          "Hitori (Simon Tatham's Singles game IDs or rows of numbers)",
          "5x5:2551235242523254123522555"};
}

}  // namespace qs::formats
