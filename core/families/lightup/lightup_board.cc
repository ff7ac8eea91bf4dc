// The Light Up board shared by the family's parts (docs/lightup.md §1): the
// spec check, the segments of white cells, the game's rules on a whole board,
// the deductions the reduction clamps (§3) and the exactly-one groups they
// leave (§4).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/families/lightup/lightup.h"

namespace qs {
namespace {

constexpr uint32_t kMaxSide = 100;
constexpr int kMaxNumber = 4;
constexpr int kOrthogonal[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};

// Cuts the white cells into maximal runs along rows (step 1) or columns
// (step cols), recording each cell's segment.
void AddSegments(LightupBoard& b, bool along_rows) {
  const int lines = along_rows ? b.rows : b.cols;
  const int length = along_rows ? b.cols : b.rows;
  std::vector<int>& of_cell = along_rows ? b.row_segment : b.col_segment;
  for (int line = 0; line < lines; ++line) {
    std::vector<int> run;
    for (int k = 0; k <= length; ++k) {
      const int cell = k == length  ? -1
                       : along_rows ? line * b.cols + k
                                    : k * b.cols + line;
      if (cell >= 0 && b.IsWhite(cell)) {
        run.push_back(cell);
        continue;
      }
      if (run.empty()) continue;
      for (int c : run) of_cell[c] = static_cast<int>(b.segments.size());
      b.segments.push_back(std::move(run));
      run.clear();
    }
  }
}

// The reduction's working state: values per cell and what went wrong.
class Deducer {
 public:
  explicit Deducer(const LightupBoard& b) : b_(b), value_(b.size(), -1) {}

  // Sets `cell` to v; false (and the contradiction recorded) when the cell
  // already holds the other value.
  bool Set(int cell, int8_t v) {
    if (value_[cell] == v) return true;
    if (value_[cell] >= 0) {
      contradiction_ = true;
      return false;
    }
    value_[cell] = v;
    changed_ = true;
    return true;
  }

  void Blacks() {
    for (int cell = 0; cell < b_.size(); ++cell) {
      if (!b_.IsWhite(cell)) Set(cell, 0);
    }
  }
  void ZeroClues() {
    for (int clue : b_.numbered) {
      if (b_.number[clue] != 0) continue;
      for (int n : b_.WhiteNeighbours(clue)) {
        if (!Set(n, 0)) return;
      }
    }
  }
  void FullClues() {
    for (int clue : b_.numbered) {
      const std::vector<int> near = b_.WhiteNeighbours(clue);
      if (b_.number[clue] == 0 ||
          b_.number[clue] != static_cast<int>(near.size()))
        continue;
      for (int n : near) {
        if (!Set(n, 1)) return;
      }
    }
  }
  void LitLines() {
    for (int cell = 0; cell < b_.size(); ++cell) {
      if (value_[cell] != 1) continue;
      for (int other : b_.Lighters(cell)) {
        if (other != cell && !Set(other, 0)) return;
      }
    }
  }
  void LoneLighters() {
    for (int cell = 0; cell < b_.size(); ++cell) {
      if (!b_.IsWhite(cell)) continue;
      int candidates = 0, candidate = -1;
      bool lit = false;
      for (int l : b_.Lighters(cell)) {
        lit = lit || value_[l] == 1;
        if (value_[l] < 0) {
          ++candidates;
          candidate = l;
        }
      }
      if (lit) continue;
      if (candidates == 0) {
        contradiction_ = true;
        return;
      }
      if (candidates == 1 && !Set(candidate, 1)) return;
    }
  }
  void Numbers() {
    for (int clue : b_.numbered) {
      int ones = 0;
      std::vector<int> open;
      for (int n : b_.WhiteNeighbours(clue)) {
        if (value_[n] == 1) ++ones;
        if (value_[n] < 0) open.push_back(n);
      }
      const int k = b_.number[clue];
      if (ones > k || ones + static_cast<int>(open.size()) < k) {
        contradiction_ = true;
        return;
      }
      const int reach = ones + static_cast<int>(open.size());
      if (open.empty() || (ones != k && reach != k)) continue;
      const int8_t v = ones == k ? 0 : 1;
      for (int n : open) {
        if (!Set(n, v)) return;
      }
    }
  }

  const std::vector<int8_t>& value() const { return value_; }
  bool contradiction() const { return contradiction_; }
  bool TakeChanged() {
    const bool changed = changed_;
    changed_ = false;
    return changed;
  }

 private:
  const LightupBoard& b_;
  std::vector<int8_t> value_;
  bool contradiction_ = false;
  bool changed_ = false;
};

}  // namespace

std::string LightupCellName(int cell, int cols) {
  return absl::StrCat("(", cell / cols + 1, ",", cell % cols + 1, ")");
}

std::vector<int> LightupBoard::WhiteNeighbours(int cell) const {
  std::vector<int> out;
  const int r = cell / cols, c = cell % cols;
  for (const auto& d : kOrthogonal) {
    const int rr = r + d[0], cc = c + d[1];
    if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue;
    if (IsWhite(rr * cols + cc)) out.push_back(rr * cols + cc);
  }
  return out;
}

std::vector<int> LightupBoard::Lighters(int cell) const {
  std::vector<int> out = segments[row_segment[cell]];
  for (int other : segments[col_segment[cell]]) {
    if (other != cell) out.push_back(other);
  }
  return out;
}

absl::StatusOr<LightupBoard> CheckLightupSpec(const v1::LightupPuzzle& spec) {
  if (spec.rows() < 1 || spec.rows() > kMaxSide) {
    return absl::InvalidArgumentError(absl::StrCat(
        "lightup.rows: must be 1..", kMaxSide, ", got ", spec.rows()));
  }
  if (spec.cols() < 1 || spec.cols() > kMaxSide) {
    return absl::InvalidArgumentError(absl::StrCat(
        "lightup.cols: must be 1..", kMaxSide, ", got ", spec.cols()));
  }
  LightupBoard b;
  b.rows = static_cast<int>(spec.rows());
  b.cols = static_cast<int>(spec.cols());
  b.number.assign(b.size(), LightupBoard::kWhite);
  for (int k = 0; k < spec.blacks_size(); ++k) {
    const v1::LightupBlack& black = spec.blacks(k);
    if (black.cell() >= static_cast<uint32_t>(b.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("lightup.blacks[", k, "].cell: ", black.cell(),
                       " out of range 0..", b.size() - 1));
    }
    const int cell = static_cast<int>(black.cell());
    if (!b.IsWhite(cell)) {
      return absl::InvalidArgumentError(
          absl::StrCat("lightup.blacks[", k, "].cell: ", cell, " ",
                       LightupCellName(cell, b.cols), " listed twice"));
    }
    if (black.has_lights() && black.lights() > kMaxNumber) {
      return absl::InvalidArgumentError(
          absl::StrCat("lightup.blacks[", k, "].lights: ", black.lights(),
                       " > ", kMaxNumber, " (a cell has four sides)"));
    }
    b.number[cell] = black.has_lights() ? static_cast<int>(black.lights())
                                        : LightupBoard::kPlainBlack;
  }
  for (int cell = 0; cell < b.size(); ++cell) {
    if (b.number[cell] >= 0) b.numbered.push_back(cell);
  }
  for (int k = 0; k < spec.blacks_size(); ++k) {
    const int cell = static_cast<int>(spec.blacks(k).cell());
    const int white = static_cast<int>(b.WhiteNeighbours(cell).size());
    if (b.number[cell] > white) {
      return absl::InvalidArgumentError(absl::StrCat(
          "lightup.blacks[", k, "].lights: ", b.number[cell],
          " lights do not fit on the ", white, " white side neighbours of ",
          LightupCellName(cell, b.cols)));
    }
  }
  b.row_segment.assign(b.size(), -1);
  b.col_segment.assign(b.size(), -1);
  AddSegments(b, /*along_rows=*/true);
  b.num_row_segments = static_cast<int>(b.segments.size());
  AddSegments(b, /*along_rows=*/false);
  return b;
}

bool IsValidLightupBoard(const LightupBoard& b,
                         const std::vector<uint8_t>& lights) {
  for (int cell = 0; cell < b.size(); ++cell) {
    if (lights[cell] && !b.IsWhite(cell)) return false;
  }
  for (const std::vector<int>& segment : b.segments) {
    int n = 0;
    for (int cell : segment) n += lights[cell] != 0;
    if (n > 1) return false;
  }
  for (int cell = 0; cell < b.size(); ++cell) {
    if (!b.IsWhite(cell)) continue;
    bool lit = false;
    for (int l : b.Lighters(cell)) lit = lit || lights[l];
    if (!lit) return false;
  }
  for (int clue : b.numbered) {
    int n = 0;
    for (int c : b.WhiteNeighbours(clue)) n += lights[c] != 0;
    if (n != b.number[clue]) return false;
  }
  return true;
}

LightupDeduction DeduceLightup(const LightupBoard& board) {
  LightupDeduction out;
  Deducer d(board);
  // Runs one step and records it; false when the deduction must stop.
  auto step = [&](const std::string& name, void (Deducer::*rule)()) {
    (d.*rule)();
    out.steps.push_back({name, d.value()});
    out.contradiction = d.contradiction();
    return !out.contradiction;
  };
  if (!step("blacks", &Deducer::Blacks) ||
      !step("zero_clues", &Deducer::ZeroClues) ||
      !step("full_clues", &Deducer::FullClues))
    return out;
  d.TakeChanged();
  for (int round = 1;; ++round) {
    const size_t before = out.steps.size();
    const std::string suffix = absl::StrCat("#", round);
    if (!step("lit_lines" + suffix, &Deducer::LitLines) ||
        !step("lone_lighters" + suffix, &Deducer::LoneLighters) ||
        !step("numbers" + suffix, &Deducer::Numbers))
      return out;
    if (!d.TakeChanged()) {
      // A round that fixed nothing is not reported.
      out.steps.resize(before);
      return out;
    }
  }
}

std::vector<std::vector<int32_t>> LightupOneHotGroups(
    const LightupBoard& b, const std::vector<int8_t>& known) {
  std::set<std::vector<int32_t>> groups;
  auto open_cells = [&](const std::vector<int>& cells) {
    std::vector<int32_t> out;
    for (int c : cells) {
      if (known[c] < 0) out.push_back(c);
    }
    return out;
  };
  auto add = [&](std::vector<int32_t> group) {
    std::sort(group.begin(), group.end());
    if (group.size() >= 2) groups.insert(std::move(group));
  };
  for (int cell = 0; cell < b.size(); ++cell) {
    if (!b.IsWhite(cell)) continue;
    bool lit = false;
    for (int l : b.Lighters(cell)) lit = lit || known[l] == 1;
    if (lit) continue;
    const std::vector<int32_t> row =
        open_cells(b.segments[b.row_segment[cell]]);
    const std::vector<int32_t> col =
        open_cells(b.segments[b.col_segment[cell]]);
    // Only the cell itself, if anything, is open in one line: the other
    // line must light it, and it holds at most one light.
    auto only_self = [&](const std::vector<int32_t>& line) {
      return line.empty() || (line.size() == 1 && line[0] == cell);
    };
    if (only_self(col)) {
      add(row);
    } else if (only_self(row)) {
      add(col);
    }
  }
  for (int clue : b.numbered) {
    int ones = 0;
    std::vector<int32_t> open;
    for (int n : b.WhiteNeighbours(clue)) {
      ones += known[n] == 1;
      if (known[n] < 0) open.push_back(n);
    }
    if (b.number[clue] - ones == 1) add(open);
  }
  return {groups.begin(), groups.end()};
}

}  // namespace qs
