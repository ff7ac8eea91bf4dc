// The lines of a Nonogram (docs/pattern.md "Variables" and "Reduction"): the
// checked puzzle with its start variables numbered, and line solving (the
// exact solver of one line, the overlap technique, the fixpoint over rows and
// columns) that the compiler's reduction and the generator share.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/base/saturating.h"
#include "core/base/status_macros.h"
#include "core/families/pattern/pattern.h"

namespace qs {
namespace {

constexpr uint32_t kMaxSide = 200;

std::string LineName(bool is_row, int index) {
  return absl::StrCat(is_row ? "row " : "column ", index + 1);
}

std::string RunsText(const std::vector<int>& runs) {
  return runs.empty() ? std::string("(empty)") : absl::StrJoin(runs, " ");
}

absl::Status CheckClues(
    const google::protobuf::RepeatedPtrField<v1::PatternClue>& clues,
    absl::string_view field, int expected, int line_length) {
  if (clues.size() != expected) {
    return absl::InvalidArgumentError(
        absl::StrCat("pattern.", field, ": expected ", expected,
                     " clues (one per line), got ", clues.size()));
  }
  for (int k = 0; k < clues.size(); ++k) {
    int64_t need = 0;
    for (int i = 0; i < clues[k].runs_size(); ++i) {
      const uint32_t run = clues[k].runs(i);
      if (run == 0 || run > static_cast<uint32_t>(line_length)) {
        return absl::InvalidArgumentError(
            absl::StrCat("pattern.", field, "[", k, "].runs[", i, "]: ", run,
                         " is not a run length 1..", line_length));
      }
      need += run + (i > 0 ? 1 : 0);
    }
    if (need > line_length) {
      return absl::InvalidArgumentError(
          absl::StrCat("pattern.", field, "[", k, "]: the runs need ", need,
                       " cells with their gaps, the line has ", line_length));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckGivens(const google::protobuf::RepeatedField<uint32_t>& cells,
                         absl::string_view field, int8_t value,
                         PatternGrid& grid) {
  for (int k = 0; k < cells.size(); ++k) {
    const uint32_t cell = cells[k];
    if (cell >= static_cast<uint32_t>(grid.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("pattern.", field, "[", k, "]: cell ", cell,
                       " out of range 0..", grid.size() - 1));
    }
    if (grid.given[cell] != -1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "pattern.", field, "[", k, "]: cell ", cell, " is given twice"));
    }
    grid.given[cell] = value;
  }
  return absl::OkStatus();
}

// Numbers the start variables of a line from `next_var` on.
PatternLine MakeLine(bool is_row, int index, std::vector<int> cells,
                     const v1::PatternClue& clue, int& next_var) {
  PatternLine line;
  line.is_row = is_row;
  line.index = index;
  line.cells = std::move(cells);
  const int n = line.size();
  const int k = clue.runs_size();
  int suffix = 0;  // cells the runs from i on need, gaps included
  for (int i = 0; i < k; ++i) suffix += static_cast<int>(clue.runs(i)) + 1;
  int prefix = 0;
  for (int i = 0; i < k; ++i) {
    const int len = static_cast<int>(clue.runs(i));
    line.runs.push_back(len);
    line.lo.push_back(prefix);
    line.hi.push_back(n - (suffix - 1));
    line.first_var.push_back(next_var);
    next_var += line.hi.back() - line.lo.back() + 1;
    prefix += len + 1;
    suffix -= len + 1;
  }
  return line;
}

// The prefix count of known empty cells along a line.
std::vector<int> EmptyPrefix(const PatternLine& line,
                             const PatternKnowledge& knowledge) {
  std::vector<int> prefix(line.size() + 1, 0);
  for (int p = 0; p < line.size(); ++p)
    prefix[p + 1] = prefix[p] + (knowledge.cell[line.cells[p]] == 0);
  return prefix;
}

}  // namespace

absl::StatusOr<PatternGrid> PatternGridOf(const v1::PatternPuzzle& puzzle) {
  if (puzzle.rows() < 1 || puzzle.rows() > kMaxSide) {
    return absl::InvalidArgumentError(absl::StrCat(
        "pattern.rows: must be 1..", kMaxSide, ", got ", puzzle.rows()));
  }
  if (puzzle.cols() < 1 || puzzle.cols() > kMaxSide) {
    return absl::InvalidArgumentError(absl::StrCat(
        "pattern.cols: must be 1..", kMaxSide, ", got ", puzzle.cols()));
  }
  PatternGrid grid;
  grid.rows = static_cast<int>(puzzle.rows());
  grid.cols = static_cast<int>(puzzle.cols());
  RETURN_IF_ERROR(
      CheckClues(puzzle.row_clues(), "row_clues", grid.rows, grid.cols));
  RETURN_IF_ERROR(
      CheckClues(puzzle.col_clues(), "col_clues", grid.cols, grid.rows));
  int64_t row_total = 0, col_total = 0;
  for (const auto& clue : puzzle.row_clues())
    for (uint32_t run : clue.runs()) row_total += run;
  for (const auto& clue : puzzle.col_clues())
    for (uint32_t run : clue.runs()) col_total += run;
  if (row_total != col_total) {
    return absl::InvalidArgumentError(
        absl::StrCat("pattern.col_clues: the columns fill ", col_total,
                     " cells, the rows ", row_total));
  }
  grid.given.assign(grid.size(), -1);
  RETURN_IF_ERROR(CheckGivens(puzzle.filled(), "filled", 1, grid));
  RETURN_IF_ERROR(CheckGivens(puzzle.empty(), "empty", 0, grid));
  int next_var = 0;
  for (int r = 0; r < grid.rows; ++r) {
    std::vector<int> cells;
    for (int c = 0; c < grid.cols; ++c) cells.push_back(r * grid.cols + c);
    grid.lines.push_back(
        MakeLine(true, r, std::move(cells), puzzle.row_clues(r), next_var));
  }
  for (int c = 0; c < grid.cols; ++c) {
    std::vector<int> cells;
    for (int r = 0; r < grid.rows; ++r) cells.push_back(r * grid.cols + c);
    grid.lines.push_back(
        MakeLine(false, c, std::move(cells), puzzle.col_clues(c), next_var));
  }
  grid.num_variables = next_var;
  return grid;
}

int64_t PatternModelVariables(const v1::PatternPuzzle& puzzle) {
  auto count = [](const v1::PatternClue& clue, int64_t n) {
    int64_t need = -1;
    for (uint32_t run : clue.runs()) need += int64_t{run} + 1;
    const int64_t starts = std::max<int64_t>(1, n - need + 1);
    return SaturatingMul(static_cast<int64_t>(clue.runs_size()), starts);
  };
  int64_t total = 0;
  for (const auto& clue : puzzle.row_clues())
    total = SaturatingAdd(total, count(clue, puzzle.cols()));
  for (const auto& clue : puzzle.col_clues())
    total = SaturatingAdd(total, count(clue, puzzle.rows()));
  return total;
}

std::vector<int> PatternRunsOf(std::span<const uint8_t> line) {
  std::vector<int> runs;
  int run = 0;
  for (uint8_t v : line) {
    if (v) {
      ++run;
    } else if (run > 0) {
      runs.push_back(run);
      run = 0;
    }
  }
  if (run > 0) runs.push_back(run);
  return runs;
}

PatternKnowledge InitialKnowledge(const PatternGrid& grid) {
  PatternKnowledge knowledge;
  knowledge.cell = grid.given;
  knowledge.allowed.assign(grid.num_variables, 1);
  return knowledge;
}

bool SolveLine(const PatternLine& line, PatternKnowledge& knowledge,
               bool* consistent) {
  const int n = line.size();
  const int k = static_cast<int>(line.runs.size());
  const std::vector<int> empty = EmptyPrefix(line, knowledge);
  auto known = [&](int p) { return knowledge.cell[line.cells[p]]; };
  // Run i fits at s: an allowed start, no known empty cell under it and no
  // known filled cell right after it (the cell before is the DP's business).
  auto fits = [&](int i, int s) {
    if (s < line.lo[i] || s > line.hi[i]) return false;
    if (!knowledge.allowed[line.Var(i, s)]) return false;
    const int end = s + line.runs[i];
    if (empty[end] != empty[s]) return false;
    return end == n || known(end) != 1;
  };
  auto after = [&](int i, int s) { return std::min(n, s + line.runs[i] + 1); };
  // State (i, p): runs 0..i-1 placed in cells [0, p), cell p still open.
  auto at = [&](int i, int p) { return i * (n + 1) + p; };
  std::vector<uint8_t> forward((k + 1) * (n + 1), 0);
  std::vector<uint8_t> backward((k + 1) * (n + 1), 0);
  forward[at(0, 0)] = 1;
  for (int p = 0; p < n; ++p) {
    for (int i = 0; i <= k; ++i) {
      if (!forward[at(i, p)]) continue;
      if (known(p) != 1) forward[at(i, p + 1)] = 1;
      if (i < k && fits(i, p)) forward[at(i + 1, after(i, p))] = 1;
    }
  }
  *consistent = forward[at(k, n)] != 0;
  if (!*consistent) return false;
  backward[at(k, n)] = 1;
  for (int p = n - 1; p >= 0; --p) {
    for (int i = 0; i <= k; ++i) {
      backward[at(i, p)] =
          (known(p) != 1 && backward[at(i, p + 1)]) ||
          (i < k && fits(i, p) && backward[at(i + 1, after(i, p))]);
    }
  }
  std::vector<uint8_t> can_empty(n, 0);
  std::vector<int> cover(n + 1, 0);
  bool changed = false;
  for (int i = 0; i < k; ++i) {
    for (int s = line.lo[i]; s <= line.hi[i]; ++s) {
      const bool possible =
          forward[at(i, s)] && fits(i, s) && backward[at(i + 1, after(i, s))];
      if (!possible) {
        if (knowledge.allowed[line.Var(i, s)]) {
          knowledge.allowed[line.Var(i, s)] = 0;
          changed = true;
        }
        continue;
      }
      ++cover[s];
      --cover[s + line.runs[i]];
      if (s + line.runs[i] < n) can_empty[s + line.runs[i]] = 1;
    }
  }
  for (int p = 0; p < n; ++p) {
    for (int i = 0; i <= k && !can_empty[p]; ++i) {
      if (forward[at(i, p)] && known(p) != 1 && backward[at(i, p + 1)])
        can_empty[p] = 1;
    }
  }
  int covered = 0;
  for (int p = 0; p < n; ++p) {
    covered += cover[p];
    const bool can_fill = covered > 0;
    if (can_fill == static_cast<bool>(can_empty[p])) continue;
    int8_t& cell = knowledge.cell[line.cells[p]];
    if (cell == -1) {
      cell = can_fill ? 1 : 0;
      changed = true;
    }
  }
  return changed;
}

bool OverlapLine(const PatternLine& line, PatternKnowledge& knowledge,
                 bool* consistent) {
  const int n = line.size();
  std::vector<int8_t> found(n, -1);
  std::vector<int> cover(n + 1, 0);
  *consistent = true;
  for (size_t i = 0; i < line.runs.size(); ++i) {
    int first = -1, last = -1;
    for (int s = line.lo[i]; s <= line.hi[i]; ++s) {
      if (!knowledge.allowed[line.Var(static_cast<int>(i), s)]) continue;
      if (first < 0) first = s;
      last = s;
      ++cover[s];
      --cover[s + line.runs[i]];
    }
    if (first < 0) {
      *consistent = false;
      return false;
    }
    for (int p = last; p < first + line.runs[i]; ++p) found[p] = 1;
  }
  int covered = 0;
  for (int p = 0; p < n; ++p) {
    covered += cover[p];
    if (covered == 0) found[p] = 0;
  }
  bool changed = false;
  for (int p = 0; p < n; ++p) {
    if (found[p] < 0) continue;
    int8_t& cell = knowledge.cell[line.cells[p]];
    if (cell == -1) {
      cell = found[p];
      changed = true;
    } else if (cell != found[p]) {
      *consistent = false;
    }
  }
  return changed;
}

bool DropContradictedStarts(const PatternLine& line,
                            PatternKnowledge& knowledge) {
  const int n = line.size();
  const std::vector<int> empty = EmptyPrefix(line, knowledge);
  auto known = [&](int p) { return knowledge.cell[line.cells[p]]; };
  bool changed = false;
  for (size_t i = 0; i < line.runs.size(); ++i) {
    for (int s = line.lo[i]; s <= line.hi[i]; ++s) {
      uint8_t& allowed = knowledge.allowed[line.Var(static_cast<int>(i), s)];
      if (!allowed) continue;
      const int end = s + line.runs[i];
      if (empty[end] != empty[s] || (s > 0 && known(s - 1) == 1) ||
          (end < n && known(end) == 1)) {
        allowed = 0;
        changed = true;
      }
    }
  }
  return changed;
}

bool SolveLinesToFixpoint(const PatternGrid& grid,
                          PatternKnowledge& knowledge) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (const PatternLine& line : grid.lines) {
      bool consistent = true;
      changed |= SolveLine(line, knowledge, &consistent);
      if (!consistent) return false;
    }
  }
  return true;
}

absl::StatusOr<std::vector<uint8_t>> PatternStartsOfBoard(
    const PatternGrid& grid, std::span<const uint8_t> filled) {
  std::vector<uint8_t> bits(grid.num_variables, 0);
  std::vector<uint8_t> along;
  for (const PatternLine& line : grid.lines) {
    along.clear();
    for (int cell : line.cells) along.push_back(filled[cell]);
    if (PatternRunsOf(along) != line.runs) {
      return absl::InvalidArgumentError(absl::StrCat(
          "pattern: ", LineName(line.is_row, line.index), " has runs ",
          RunsText(PatternRunsOf(along)), ", its clue is ", RunsText(line.runs),
          ": no assignment of the start variables draws this board"));
    }
    int run = 0;
    for (int p = 0; p < line.size(); ++p) {
      if (along[p] && (p == 0 || !along[p - 1])) bits[line.Var(run++, p)] = 1;
    }
  }
  return bits;
}

}  // namespace qs
