// Futoshiki / Unequal text (docs/unequal.md "Text formats"). Two forms are
// read:
//
// 1. A game ID of Simon Tatham's "Unequal", exactly as
//    `sgt-unequal --generate N PARAMS` prints it:
//      4:0D,0,0,0L,0,0U,0,0,0,0L,0D,0,0,0R,0,1,
//    PARAMS is the size n, then 'a' for the adjacent mode, then optionally
//    'd' and a difficulty letter (t, e, k, x or r; read and ignored). The
//    description holds one entry per cell, row-major, separated by commas (a
//    trailing comma allowed): the given digit (0: none) followed by flag
//    letters U, R, D, L naming neighbours (up, right, down, left). In the
//    normal mode a flag says the cell is greater than that neighbour; in the
//    adjacent mode it marks a bar (the two digits differ by one), and both
//    cells of a bar carry the flag. A lower-case letter 'a'..'z' before an
//    entry skips 1..26 empty cells without flags.
//
// 2. A grid: rows of cells separated by '/' or new lines, '1'..'9' for a
//    given and '.' (or '0') for an empty cell, spaces ignored. Between two
//    cells of a row, '<' or '>' is a sign (the open side faces the larger
//    digit) and '|' a bar. Between two rows of cells, a sign row holds one
//    mark per column: '^' (the upper digit is smaller), 'v' (the upper digit
//    is larger), '-' (a bar) or '.' (none); a line with a '^', 'v' or '-' is a
//    sign row, and one with no sign at all may be left out (or written as
//    dots in a grid that writes every sign row). A bar makes the
//    puzzle an adjacent one, as does a first line "adjacent" (for one whose
//    neighbours never differ by one); blank lines and lines starting with '#'
//    are skipped.
//      . .>. ./. .>. ./. . v ./. . . ./^ . . ./. . . .
//    is the game ID 4:0,0R,0,0,0,0R,0D,0,0,0,0,0,0U,0,0,0, in this form.
//
// Boards are rows of digits ('.' empty, '*' several digits), rows separated by
// '/' or new lines; signs and sign rows in them are skipped, so a solved grid
// in the second form reads as a board. FormatPuzzleText writes the game ID
// form (without a difficulty), which sgt-unequal reads back.
#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "formats/puzzle_text.h"
#include "qs/v1/unequal.pb.h"

namespace qs::formats {
namespace {

constexpr int kMaxSize = 9;

// Flag letters in the order sgt-unequal writes them, with their steps.
struct Direction {
  char flag;
  int dr;
  int dc;
};
constexpr Direction kDirections[4] = {
    {'U', -1, 0}, {'R', 0, 1}, {'D', 1, 0}, {'L', 0, -1}};

absl::Status TextError(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("unequal text: ", what));
}

bool IsDigit(char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }

bool LooksLikeGameId(absl::string_view text) {
  return !text.empty() && IsDigit(text[0]) &&
         text.find(':') != absl::string_view::npos;
}

// "5adk" -> size 5, adjacent.
absl::Status ParseParams(absl::string_view params, v1::UnequalPuzzle& p) {
  size_t pos = 0;
  int size = 0;
  while (pos < params.size() && IsDigit(params[pos]) && size <= kMaxSize)
    size = size * 10 + (params[pos++] - '0');
  if (pos == 0 || size < 1 || size > kMaxSize) {
    return TextError(absl::StrCat("game ID parameters '", params,
                                  "': the size must be 1..", kMaxSize));
  }
  p.set_size(static_cast<uint32_t>(size));
  if (pos < params.size() && params[pos] == 'a') {
    p.set_mode(v1::UnequalPuzzle::ADJACENT);
    ++pos;
  }
  if (pos < params.size() && params[pos] == 'd' && pos + 1 < params.size() &&
      absl::string_view("tekxr").find(params[pos + 1]) !=
          absl::string_view::npos) {
    pos += 2;
  }
  if (pos != params.size()) {
    return TextError(absl::StrCat(
        "game ID parameters '", params,
        "': expected the size, 'a' for adjacent, 'd' and a difficulty"));
  }
  return absl::OkStatus();
}

// The description's entries: per cell its given and flag letters.
absl::Status ParseEntries(absl::string_view desc, int n,
                          std::vector<int>& givens,
                          std::vector<std::string>& flags) {
  const int cells = n * n;
  givens.assign(cells, 0);
  flags.assign(cells, "");
  int i = 0;
  size_t pos = 0;
  while (pos < desc.size()) {
    while (pos < desc.size() && desc[pos] >= 'a' && desc[pos] <= 'z')
      i += desc[pos++] - 'a' + 1;
    if (i >= cells)
      return TextError(absl::StrCat("game ID description: more than ", cells,
                                    " cells for a ", n, "x", n, " grid"));
    if (pos >= desc.size() || !IsDigit(desc[pos]))
      return TextError(absl::StrCat(
          "game ID description: expected a digit at offset ", pos));
    int digit = 0;
    while (pos < desc.size() && IsDigit(desc[pos]) && digit <= n)
      digit = digit * 10 + (desc[pos++] - '0');
    if (digit > n)
      return TextError(
          absl::StrCat("game ID description: digit out of range 0..", n,
                       " at cell ", i + 1));
    givens[i] = digit;
    while (pos < desc.size() &&
           absl::string_view("URDL").find(desc[pos]) != absl::string_view::npos)
      flags[i].push_back(desc[pos++]);
    ++i;
    if (i < cells && pos < desc.size() && desc[pos] != ',')
      return TextError(
          absl::StrCat("game ID description: expected ',' after cell ", i,
                       " (offset ", pos, ")"));
    if (pos < desc.size() && desc[pos] == ',') ++pos;
  }
  if (i < cells)
    return TextError(absl::StrCat("game ID description covers ", i, " of the ",
                                  cells, " cells"));
  return absl::OkStatus();
}

bool HasFlag(const std::string& flags, char flag) {
  return flags.find(flag) != std::string::npos;
}

absl::StatusOr<v1::PuzzleSpec> ParseGameId(absl::string_view id) {
  const size_t colon = id.find(':');
  v1::PuzzleSpec spec;
  v1::UnequalPuzzle& p = *spec.mutable_unequal();
  if (auto s = ParseParams(id.substr(0, colon), p); !s.ok()) return s;
  const int n = static_cast<int>(p.size());
  std::vector<int> givens;
  std::vector<std::string> flags;
  if (auto s = ParseEntries(id.substr(colon + 1), n, givens, flags); !s.ok())
    return s;
  const bool adjacent = p.mode() == v1::UnequalPuzzle::ADJACENT;
  bool any_given = false;
  for (int g : givens) any_given |= g != 0;
  for (int cell = 0; cell < n * n && any_given; ++cell)
    p.add_givens(static_cast<uint32_t>(givens[cell]));
  for (int cell = 0; cell < n * n; ++cell) {
    const int r = cell / n, c = cell % n;
    for (int k = 0; k < 4; ++k) {
      const Direction& d = kDirections[k];
      if (!HasFlag(flags[cell], d.flag)) continue;
      const int rr = r + d.dr, cc = c + d.dc;
      const std::string where =
          absl::StrCat("game ID cell (", r + 1, ",", c + 1, ") flag ",
                       std::string(1, d.flag));
      if (rr < 0 || rr >= n || cc < 0 || cc >= n)
        return TextError(absl::StrCat(where, " points off the grid"));
      const int other = rr * n + cc;
      const bool back = HasFlag(flags[other], kDirections[(k + 2) % 4].flag);
      if (adjacent && !back)
        return TextError(absl::StrCat(
            where, ": a bar must be flagged on both of its cells"));
      if (!adjacent && back)
        return TextError(absl::StrCat(
            where, ": the neighbour is flagged greater than this cell too"));
      // A bar once, from the cell above or on the left.
      if (adjacent && (d.flag == 'U' || d.flag == 'L')) continue;
      v1::UnequalPair& sign = *p.add_signs();
      sign.set_first(static_cast<uint32_t>(cell));
      sign.set_second(static_cast<uint32_t>(other));
    }
  }
  return spec;
}

// The lines of a grid (split on '/' and new lines, spaces dropped), blank
// and '#' lines skipped.
std::vector<std::string> GridLines(absl::string_view text) {
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(text, absl::ByAnyChar("/\n"))) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    std::string compact;
    for (char ch : line) {
      if (ch != ' ' && ch != '\t' && ch != '\r') compact.push_back(ch);
    }
    lines.push_back(std::move(compact));
  }
  return lines;
}

bool IsSignRow(absl::string_view line) {
  return line.find_first_of("^v-") != absl::string_view::npos;
}

// A grid that writes every sign row, the empty ones as dots too: 2n - 1
// lines for n rows of n cells, marks only on the odd ones. A row of empty
// cells and a sign row without signs look alike, so the count decides.
bool WritesEverySignRow(const std::vector<std::string>& lines) {
  if (lines.size() < 3 || lines.size() % 2 == 0) return false;
  const size_t cells =
      lines[0].size() -
      std::count_if(lines[0].begin(), lines[0].end(), [](char ch) {
        return ch == '<' || ch == '>' || ch == '|';
      });
  if (2 * cells - 1 != lines.size()) return false;
  for (size_t i = 1; i < lines.size(); i += 2) {
    if (lines[i].find_first_not_of(".^v-") != std::string::npos) return false;
  }
  return true;
}

// What the grid has read so far: cells, and the signs as (greater, smaller)
// or bars as (upper or left, lower or right) pairs.
struct Grid {
  int width = 0;
  std::vector<int> givens;
  std::vector<std::pair<int, int>> signs;
  bool bars = false;
  bool inequalities = false;
};

absl::Status ParseCellRow(absl::string_view line, int row, Grid& g) {
  const int first = static_cast<int>(g.givens.size());
  char pending = 0;
  int cells = 0;
  for (char ch : line) {
    if (ch == '<' || ch == '>' || ch == '|') {
      if (cells == 0 || pending != 0)
        return TextError(absl::StrCat("row ", row, ": '", std::string(1, ch),
                                      "' must stand between two cells"));
      pending = ch;
      continue;
    }
    if (ch != '.' && !IsDigit(ch))
      return TextError(
          absl::StrCat("row ", row, ": unexpected '", std::string(1, ch),
                       "' (cells are '1'..'9' or '.', signs '<', '>', '|')"));
    const int cell = first + cells;
    if (pending == '<') g.signs.push_back({cell, cell - 1});
    if (pending == '>') g.signs.push_back({cell - 1, cell});
    if (pending == '|') g.signs.push_back({cell - 1, cell});
    g.bars |= pending == '|';
    g.inequalities |= pending == '<' || pending == '>';
    pending = 0;
    g.givens.push_back(ch == '.' ? 0 : ch - '0');
    ++cells;
  }
  if (pending != 0)
    return TextError(absl::StrCat("row ", row, ": the row ends with a sign"));
  if (g.width == 0) g.width = cells;
  if (cells != g.width)
    return TextError(absl::StrCat("row ", row, ": ", cells,
                                  " cells, the first row has ", g.width));
  return absl::OkStatus();
}

// A sign row between cell rows `above` and `above + 1` (0-based).
absl::Status ParseSignRow(absl::string_view line, int above, Grid& g) {
  if (static_cast<int>(line.size()) != g.width)
    return TextError(absl::StrCat("the sign row under row ", above + 1, " has ",
                                  line.size(), " marks for ", g.width,
                                  " columns"));
  for (int c = 0; c < g.width; ++c) {
    const int upper = above * g.width + c, lower = upper + g.width;
    switch (line[c]) {
      case '^':
        g.signs.push_back({lower, upper});
        g.inequalities = true;
        break;
      case 'v':
        g.signs.push_back({upper, lower});
        g.inequalities = true;
        break;
      case '-':
        g.signs.push_back({upper, lower});
        g.bars = true;
        break;
      case '.':
        break;
      default:
        return TextError(absl::StrCat("the sign row under row ", above + 1,
                                      ": unexpected '", std::string(1, line[c]),
                                      "' (one of ^ v - .)"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::PuzzleSpec> ParseGrid(absl::string_view text) {
  std::vector<std::string> lines = GridLines(text);
  bool adjacent = false;
  if (!lines.empty() && absl::AsciiStrToLower(lines[0]) == "adjacent") {
    adjacent = true;
    lines.erase(lines.begin());
  }
  Grid g;
  int rows = 0;
  bool sign_row_waiting = false;
  const bool alternating = WritesEverySignRow(lines);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (alternating ? i % 2 == 1 : IsSignRow(line)) {
      if (rows == 0 || sign_row_waiting)
        return TextError("a sign row must stand between two rows of cells");
      if (auto s = ParseSignRow(line, rows - 1, g); !s.ok()) return s;
      sign_row_waiting = true;
      continue;
    }
    if (auto s = ParseCellRow(line, ++rows, g); !s.ok()) return s;
    sign_row_waiting = false;
  }
  if (rows == 0) return TextError("no rows of cells");
  if (sign_row_waiting) return TextError("the grid ends with a sign row");
  if (rows != g.width)
    return TextError(absl::StrCat(rows, " rows of ", g.width,
                                  " cells: the grid must be square"));
  if (g.bars && g.inequalities)
    return TextError("the grid mixes inequality signs and adjacency bars");
  for (int given : g.givens) {
    if (given > g.width)
      return TextError(absl::StrCat("given ", given, " is larger than the ",
                                    g.width, "x", g.width, " grid allows"));
  }
  v1::PuzzleSpec spec;
  v1::UnequalPuzzle& p = *spec.mutable_unequal();
  p.set_size(static_cast<uint32_t>(g.width));
  if (adjacent || g.bars) p.set_mode(v1::UnequalPuzzle::ADJACENT);
  bool any_given = false;
  for (int given : g.givens) any_given |= given != 0;
  for (int given : g.givens) {
    if (any_given) p.add_givens(static_cast<uint32_t>(given));
  }
  for (const auto& [first, second] : g.signs) {
    v1::UnequalPair& sign = *p.add_signs();
    sign.set_first(static_cast<uint32_t>(first));
    sign.set_second(static_cast<uint32_t>(second));
  }
  return spec;
}

absl::StatusOr<v1::PuzzleSpec> ParseUnequalText(absl::string_view text) {
  const absl::string_view trimmed = absl::StripAsciiWhitespace(text);
  if (LooksLikeGameId(trimmed)) return ParseGameId(trimmed);
  return ParseGrid(trimmed);
}

// The flag of the step from `from` to its side neighbour `to`, or 0.
char FlagTowards(int n, uint32_t from, uint32_t to) {
  for (const Direction& d : kDirections) {
    const int r = static_cast<int>(from) / n + d.dr;
    const int c = static_cast<int>(from) % n + d.dc;
    if (r >= 0 && r < n && c >= 0 && c < n &&
        static_cast<uint32_t>(r * n + c) == to)
      return d.flag;
  }
  return 0;
}

absl::StatusOr<std::string> FormatUnequalText(const v1::PuzzleSpec& puzzle) {
  if (!puzzle.has_unequal()) return TextError("not an unequal puzzle");
  const v1::UnequalPuzzle& p = puzzle.unequal();
  const int n = static_cast<int>(p.size());
  if (n < 1 || n > kMaxSize)
    return TextError(absl::StrCat("a game ID holds sizes 1..", kMaxSize));
  if (p.givens_size() != 0 && p.givens_size() != n * n)
    return TextError(absl::StrCat("givens: expected ", n * n, " entries"));
  const bool adjacent = p.mode() == v1::UnequalPuzzle::ADJACENT;
  std::vector<std::string> flags(n * n);
  for (int k = 0; k < p.signs_size(); ++k) {
    const uint32_t a = p.signs(k).first(), b = p.signs(k).second();
    const char forward =
        a < static_cast<uint32_t>(n * n) ? FlagTowards(n, a, b) : 0;
    if (forward == 0)
      return TextError(
          absl::StrCat("signs[", k, "]: the cells are not side neighbours"));
    flags[a].push_back(forward);
    if (adjacent) flags[b].push_back(FlagTowards(n, b, a));
  }
  std::string out = absl::StrCat(n, adjacent ? "a" : "", ":");
  for (int cell = 0; cell < n * n; ++cell) {
    const uint32_t given = p.givens_size() == 0 ? 0 : p.givens(cell);
    if (given > static_cast<uint32_t>(n))
      return TextError(absl::StrCat("givens[", cell, "]: digit ", given,
                                    " out of range 0..", n));
    absl::StrAppend(&out, given);
    for (const Direction& d : kDirections) {
      if (HasFlag(flags[cell], d.flag)) out.push_back(d.flag);
    }
    out.push_back(',');
  }
  return out;
}

absl::StatusOr<v1::PuzzleSolution> ParseUnequalBoard(
    const v1::PuzzleSpec& puzzle, absl::string_view text) {
  v1::PuzzleSolution board;
  size_t width = 0;
  for (const std::string& line : GridLines(text)) {
    if (IsSignRow(line)) continue;
    std::string row;
    for (char ch : line) {
      if (ch == '<' || ch == '>' || ch == '|') continue;
      if (ch != '.' && ch != '*' && !IsDigit(ch))
        return TextError(absl::StrCat("board row ", board.rows_size() + 1,
                                      ": unexpected '", std::string(1, ch),
                                      "' (digits, '.' or '*')"));
      board.add_cells(ch == '.' ? 0 : ch == '*' ? -1 : ch - '0');
      row.push_back(ch);
    }
    if (width == 0) width = row.size();
    if (row.size() != width)
      return TextError(absl::StrCat("board row ", board.rows_size() + 1,
                                    " has ", row.size(),
                                    " cells, the first row has ", width));
    board.add_rows(row);
  }
  if (board.rows_size() == 0) return TextError("board: no rows");
  board.set_height(static_cast<uint32_t>(board.rows_size()));
  board.set_width(static_cast<uint32_t>(width));
  return board;
}

}  // namespace

TextFormat UnequalTextFormat() {
  return {"unequal",
          &ParseUnequalText,
          &ParseUnequalBoard,
          &FormatUnequalText,
          "Futoshiki (Simon Tatham's Unequal game IDs, normal or adjacent "
          "mode, or a grid with < > ^ v signs or | - bars)",
          "4:0,0R,0,0,0,0R,0D,0,0,0,0,0,0U,0,0,0,"};
}

}  // namespace qs::formats
