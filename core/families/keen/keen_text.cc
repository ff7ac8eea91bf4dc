// Keen text (docs/keen.md §Text formats). Two forms are read:
//
// 1. A game ID of Simon Tatham's "Keen", exactly as `sgt-keen --generate N`
//    prints it:
//      4:__a_a__a_bb__a_a,a9m6s1a7s2d2m4
//    The size n (parameter letters after it, such as "de", are ignored), ':',
//    the cage boundaries, ',', then each cage's operation letter (a add,
//    s subtract, m multiply, d divide) and target, cages in the order of
//    their first cell in reading order. The boundaries list the 2n(n-1)
//    internal edges, first the vertical ones between (r, c) and (r, c+1) in
//    reading order, then the horizontal ones between (r, c) and (r+1, c)
//    column by column, and one closing virtual edge; each letter gives a run
//    of edges that are not boundaries followed by one that is: '_' none,
//    'a'..'y' 1..25, while 'z' is 25 with no boundary after it. A letter
//    followed by a number stands for that many copies of it. A cage is a
//    set of cells connected across non-boundaries; a one-cell cage (written
//    as a sum) is read as a given.
//
// 2. A grid of cage letters, one line per row, then one line per cage: its
//    letter, a space, its target and operation (+, -, x or *, /; a given has
//    none). Lines may also be separated by ';', rows by '/'; blank lines and
//    lines starting with '#' are skipped. Cages are numbered by their first
//    cell in reading order, as in a game ID.
//      ABCC
//      ABDD
//      ABEF
//      GGEF
//      A 9+;B 6x;C 1-;D 7+;E 2-;F 2/;G 4x
//
// Boards: rows of digits, '.' or '0' for an empty cell, '*' for a cell
// holding several digits; rows separated by '/' or new lines.
// FormatKeenText writes the game ID form, which sgt-keen reads back.
#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "formats/puzzle_text.h"
#include "qs/v1/keen.pb.h"

namespace qs::formats {
namespace {

constexpr int kMinSize = 3;
constexpr int kMaxSize = 9;

absl::Status TextError(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("keen text: ", what));
}

// Union-find over cells whose root is the smallest cell of its set.
struct Sets {
  std::vector<int> parent;
  explicit Sets(int n) : parent(n) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  int Find(int a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  }
  void Merge(int a, int b) {
    a = Find(a), b = Find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

// The two cells either side of internal edge k of an n x n grid.
std::pair<int, int> EdgeCells(int n, int k) {
  if (k < n * (n - 1)) {
    const int cell = (k / (n - 1)) * n + k % (n - 1);
    return {cell, cell + 1};
  }
  const int x = k / (n - 1) - n, y = k % (n - 1);
  return {y * n + x, (y + 1) * n + x};
}

bool LooksLikeGameId(absl::string_view text) {
  size_t pos = 0;
  while (pos < text.size() &&
         std::isdigit(static_cast<unsigned char>(text[pos])))
    ++pos;
  return pos > 0 && text.find(':') != absl::string_view::npos;
}

// The boundary flags of the 2n(n-1) internal edges.
absl::StatusOr<std::vector<uint8_t>> DecodeBoundaries(int n,
                                                      absl::string_view text) {
  const int edges = 2 * n * (n - 1);
  std::vector<uint8_t> boundary(edges, 0);
  int pos = 0;
  size_t k = 0;
  while (k < text.size()) {
    const char ch = text[k++];
    if (ch != '_' && (ch < 'a' || ch > 'z')) {
      return TextError(absl::StrCat("cage boundaries: unexpected '",
                                    std::string(1, ch), "' at offset ", k - 1));
    }
    size_t end = k;
    while (end < text.size() &&
           std::isdigit(static_cast<unsigned char>(text[end])))
      ++end;
    int copies = 1;
    if (end > k && (!absl::SimpleAtoi(text.substr(k, end - k), &copies) ||
                    copies < 1 || copies > edges + 1)) {
      return TextError("cage boundaries: bad repeat count");
    }
    k = end;
    const int run = ch == '_' ? 0 : std::min(ch - 'a' + 1, 25);
    for (int c = 0; c < copies; ++c) {
      // Past the closing edge, or a run beyond it: too much data.
      if (pos > edges || pos + run > edges)
        return TextError("cage boundaries run past the grid's edges");
      pos += run;
      if (ch == 'z') continue;
      if (pos < edges) boundary[pos] = 1;
      ++pos;
    }
  }
  if (pos != edges + 1) {
    return TextError(absl::StrCat("cage boundaries cover ", pos, " of the ",
                                  edges + 1, " edges of a ", n, "x", n,
                                  " grid (the last one closes the list)"));
  }
  return boundary;
}

// The cages' cells, each cage ascending, cages by their first cell.
std::vector<std::vector<int>> CagesFromBoundaries(
    int n, const std::vector<uint8_t>& boundary) {
  Sets sets(n * n);
  for (int k = 0; k < static_cast<int>(boundary.size()); ++k) {
    if (!boundary[k]) {
      const auto [a, b] = EdgeCells(n, k);
      sets.Merge(a, b);
    }
  }
  std::map<int, std::vector<int>> by_root;
  for (int cell = 0; cell < n * n; ++cell)
    by_root[sets.Find(cell)].push_back(cell);
  std::vector<std::vector<int>> cages;
  for (auto& [root, cells] : by_root) cages.push_back(std::move(cells));
  return cages;
}

absl::StatusOr<v1::KeenCage::Operation> OperationOf(char letter) {
  switch (letter) {
    case 'a':
      return v1::KeenCage::ADD;
    case 's':
      return v1::KeenCage::SUBTRACT;
    case 'm':
      return v1::KeenCage::MULTIPLY;
    case 'd':
      return v1::KeenCage::DIVIDE;
    default:
      return TextError(absl::StrCat("clues: unknown operation '",
                                    std::string(1, letter),
                                    "' (a, s, m or d)"));
  }
}

absl::Status AddCage(v1::KeenPuzzle& keen, const std::vector<int>& cells,
                     v1::KeenCage::Operation op, uint64_t target) {
  v1::KeenCage& cage = *keen.add_cages();
  cage.set_operation(cells.size() == 1 ? v1::KeenCage::GIVEN : op);
  cage.set_target(target);
  for (int cell : cells) cage.add_cells(static_cast<uint32_t>(cell));
  return absl::OkStatus();
}

absl::StatusOr<v1::PuzzleSpec> ParseGameId(absl::string_view id) {
  const size_t colon = id.find(':');
  size_t digits = 0;
  while (std::isdigit(static_cast<unsigned char>(id[digits]))) ++digits;
  int n = 0;
  if (!absl::SimpleAtoi(id.substr(0, digits), &n) || n < kMinSize ||
      n > kMaxSize) {
    return TextError(absl::StrCat("game ID size '", id.substr(0, digits),
                                  "' is not ", kMinSize, "..", kMaxSize));
  }
  const absl::string_view desc = id.substr(colon + 1);
  const size_t comma = desc.find(',');
  if (comma == absl::string_view::npos)
    return TextError("game ID has no ',' before its clues");
  auto boundary = DecodeBoundaries(n, desc.substr(0, comma));
  if (!boundary.ok()) return boundary.status();
  const std::vector<std::vector<int>> cages = CagesFromBoundaries(n, *boundary);
  v1::PuzzleSpec spec;
  v1::KeenPuzzle& keen = *spec.mutable_keen();
  keen.set_size(n);
  const absl::string_view clues = desc.substr(comma + 1);
  size_t k = 0;
  for (const std::vector<int>& cells : cages) {
    if (k >= clues.size()) {
      return TextError(absl::StrCat("game ID gives ", keen.cages_size(),
                                    " clues for ", cages.size(), " cages"));
    }
    auto op = OperationOf(clues[k++]);
    if (!op.ok()) return op.status();
    size_t end = k;
    while (end < clues.size() &&
           std::isdigit(static_cast<unsigned char>(clues[end])))
      ++end;
    uint64_t target = 0;
    if (end == k || !absl::SimpleAtoi(clues.substr(k, end - k), &target))
      return TextError(absl::StrCat("clue ", keen.cages_size() + 1,
                                    ": no target after its operation"));
    k = end;
    if (auto status = AddCage(keen, cells, *op, target); !status.ok())
      return status;
  }
  if (k != clues.size()) {
    return TextError(absl::StrCat("game ID has more clues than its ",
                                  cages.size(), " cages"));
  }
  return spec;
}

// A cage line of the grid form: "A 12+".
struct CageLine {
  v1::KeenCage::Operation op = v1::KeenCage::GIVEN;
  uint64_t target = 0;
};

absl::StatusOr<CageLine> ParseCageLine(absl::string_view rest,
                                       absl::string_view where) {
  rest = absl::StripAsciiWhitespace(rest);
  CageLine line;
  if (!rest.empty() && !std::isdigit(static_cast<unsigned char>(rest.back()))) {
    switch (rest.back()) {
      case '+':
        line.op = v1::KeenCage::ADD;
        break;
      case '-':
        line.op = v1::KeenCage::SUBTRACT;
        break;
      case 'x':
      case 'X':
      case '*':
        line.op = v1::KeenCage::MULTIPLY;
        break;
      case '/':
        line.op = v1::KeenCage::DIVIDE;
        break;
      default:
        return TextError(absl::StrCat(where, ": unknown operation '",
                                      std::string(1, rest.back()),
                                      "' (+, -, x, / or none)"));
    }
    rest.remove_suffix(1);
  }
  if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(rest), &line.target) ||
      line.target == 0) {
    return TextError(absl::StrCat(where, ": '", rest, "' is not a target"));
  }
  return line;
}

absl::StatusOr<v1::PuzzleSpec> ParseGrid(absl::string_view text) {
  std::vector<std::string> rows;
  std::map<char, CageLine> lines;
  for (absl::string_view line : absl::StrSplit(text, absl::ByAnyChar("\n;"))) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.find_first_of(" \t");
    if (space == absl::string_view::npos) {
      for (absl::string_view row : absl::StrSplit(line, '/', absl::SkipEmpty()))
        rows.emplace_back(row);
      continue;
    }
    const std::string where =
        absl::StrCat("cage '", line.substr(0, space), "'");
    if (space != 1) return TextError(absl::StrCat(where, ": one letter"));
    auto cage = ParseCageLine(line.substr(space), where);
    if (!cage.ok()) return cage.status();
    if (!lines.emplace(line[0], *cage).second)
      return TextError(absl::StrCat(where, ": given twice"));
  }
  const int n = static_cast<int>(rows.size());
  if (n < kMinSize || n > kMaxSize)
    return TextError(
        absl::StrCat(n, " rows; a grid has ", kMinSize, "..", kMaxSize));
  std::vector<char> order;
  std::map<char, std::vector<int>> cells;
  for (int r = 0; r < n; ++r) {
    if (static_cast<int>(rows[r].size()) != n) {
      return TextError(absl::StrCat("row ", r + 1, " has ", rows[r].size(),
                                    " cells, the grid has ", n, " rows"));
    }
    for (int c = 0; c < n; ++c) {
      auto [it, added] = cells.try_emplace(rows[r][c]);
      if (added) order.push_back(rows[r][c]);
      it->second.push_back(r * n + c);
    }
  }
  v1::PuzzleSpec spec;
  v1::KeenPuzzle& keen = *spec.mutable_keen();
  keen.set_size(n);
  for (char letter : order) {
    const auto line = lines.find(letter);
    if (line == lines.end()) {
      return TextError(absl::StrCat("cage '", std::string(1, letter),
                                    "' has no line with its target"));
    }
    if (auto status =
            AddCage(keen, cells[letter], line->second.op, line->second.target);
        !status.ok())
      return status;
    lines.erase(line);
  }
  if (!lines.empty()) {
    return TextError(absl::StrCat("cage '",
                                  std::string(1, lines.begin()->first),
                                  "' has no cell in the grid"));
  }
  return spec;
}

char OperationLetter(v1::KeenCage::Operation op) {
  switch (op) {
    case v1::KeenCage::SUBTRACT:
      return 's';
    case v1::KeenCage::MULTIPLY:
      return 'm';
    case v1::KeenCage::DIVIDE:
      return 'd';
    default:
      return 'a';
  }
}

// The run letters of the boundary flags, with the repeat counts of the game.
std::string EncodeBoundaries(const std::vector<uint8_t>& boundary) {
  std::string raw;
  int run = 0;
  for (size_t k = 0; k <= boundary.size(); ++k) {
    if (k < boundary.size() && !boundary[k]) {
      ++run;
      continue;
    }
    for (; run > 25; run -= 25) raw.push_back('z');
    raw.push_back(run == 0 ? '_' : static_cast<char>('a' - 1 + run));
    run = 0;
  }
  std::string out;
  for (size_t k = 0; k < raw.size();) {
    size_t same = 1;
    while (k + same < raw.size() && raw[k + same] == raw[k]) ++same;
    out.push_back(raw[k]);
    if (same == 2) out.push_back(raw[k]);
    if (same > 2) absl::StrAppend(&out, same);
    k += same;
  }
  return out;
}

}  // namespace

absl::StatusOr<std::string> FormatKeenText(const v1::PuzzleSpec& puzzle) {
  if (!puzzle.has_keen())
    return absl::InvalidArgumentError("keen text: not a keen puzzle");
  const v1::KeenPuzzle& keen = puzzle.keen();
  const int n = static_cast<int>(keen.size());
  if (n < kMinSize || n > kMaxSize)
    return TextError(absl::StrCat("size ", keen.size(), " out of range"));
  std::vector<int> cage_of(n * n, -1);
  for (int i = 0; i < keen.cages_size(); ++i) {
    for (uint32_t cell : keen.cages(i).cells()) {
      if (cell >= static_cast<uint32_t>(n * n) || cage_of[cell] >= 0)
        return TextError(absl::StrCat("cage ", i + 1, ": cell ", cell,
                                      " out of range or in two cages"));
      cage_of[cell] = i;
    }
  }
  std::vector<uint8_t> boundary(2 * n * (n - 1), 0);
  for (int k = 0; k < static_cast<int>(boundary.size()); ++k) {
    const auto [a, b] = EdgeCells(n, k);
    if (cage_of[a] < 0 || cage_of[b] < 0)
      return TextError("a game ID needs cages covering every cell");
    boundary[k] = cage_of[a] != cage_of[b];
  }
  // The game reads back one cage per connected set: a cage in two parts has
  // no game ID.
  const std::vector<std::vector<int>> cages = CagesFromBoundaries(n, boundary);
  if (static_cast<int>(cages.size()) != keen.cages_size())
    return TextError("a game ID needs orthogonally connected cages");
  std::string out = absl::StrCat(n, ":", EncodeBoundaries(boundary), ",");
  for (const std::vector<int>& cells : cages) {
    const v1::KeenCage& cage = keen.cages(cage_of[cells[0]]);
    absl::StrAppend(&out, std::string(1, OperationLetter(cage.operation())),
                    cage.target());
  }
  return out;
}

absl::StatusOr<v1::PuzzleSpec> ParseKeenText(absl::string_view text) {
  const absl::string_view trimmed = absl::StripAsciiWhitespace(text);
  if (LooksLikeGameId(trimmed)) return ParseGameId(trimmed);
  return ParseGrid(trimmed);
}

absl::StatusOr<v1::PuzzleSolution> ParseKeenBoard(const v1::PuzzleSpec& puzzle,
                                                  absl::string_view text) {
  const int n = static_cast<int>(puzzle.keen().size());
  v1::PuzzleSolution board;
  for (absl::string_view row :
       absl::StrSplit(text, absl::ByAnyChar("/\n"), absl::SkipWhitespace())) {
    row = absl::StripAsciiWhitespace(row);
    if (static_cast<int>(row.size()) != n) {
      return TextError(absl::StrCat("board row ", board.rows_size() + 1,
                                    " has ", row.size(), " cells, not ", n));
    }
    for (char ch : row) {
      if (ch >= '1' && ch <= '9' && ch - '0' <= n) {
        board.add_cells(ch - '0');
      } else if (ch == '.' || ch == '0') {
        board.add_cells(0);
      } else if (ch == '*') {
        board.add_cells(-1);
      } else {
        return TextError(absl::StrCat("board row ", board.rows_size() + 1,
                                      ": unexpected '", std::string(1, ch),
                                      "' (digits 1..", n, ", '.', '*')"));
      }
    }
    board.add_rows(std::string(row));
  }
  if (board.rows_size() != n) {
    return TextError(
        absl::StrCat("board has ", board.rows_size(), " rows, not ", n));
  }
  board.set_height(n);
  board.set_width(n);
  return board;
}

TextFormat KeenTextFormat() {
  return {"keen",
          &ParseKeenText,
          &ParseKeenBoard,
          &FormatKeenText,
          "KenKen (Simon Tatham's Keen game IDs or a grid of cage letters)",
          "4:__a_a__a_bb__a_a,a9m6s1a7s2d2m4"};
}

}  // namespace qs::formats
