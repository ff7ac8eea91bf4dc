// Patches compiler: the exact cover of [Lucas 2014] §4.1 over candidate
// rectangles (one penalty per clue and per cell), the reductions that drop
// candidates no tiling can use, and a validator of the game's rules.
#include "core/families/patches/patches.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/base/saturating.h"
#include "core/base/status_macros.h"

namespace qs {
namespace {

std::string CellName(int cell, int cols) {
  return absl::StrCat("(", cell / cols + 1, ",", cell % cols + 1, ")");
}

absl::string_view ShapeName(v1::PatchShape shape) {
  switch (shape) {
    case v1::PATCH_SHAPE_SQUARE:
      return "square";
    case v1::PATCH_SHAPE_TALL:
      return "tall";
    case v1::PATCH_SHAPE_WIDE:
      return "wide";
    default:
      return "any";
  }
}

// Calls fn(height, width) for each rectangle size of the clue's shape and area
// that fits a rows x cols grid.
template <typename Fn>
void ForEachSize(int rows, int cols, int area, v1::PatchShape shape, Fn fn) {
  for (int h = 1; h <= rows; ++h) {
    for (int w = 1; w <= cols; ++w) {
      if (area != 0 && h * w != area) continue;
      if (ShapeFits(shape, h, w)) fn(h, w);
    }
  }
}

// The first row (or column) of a span of `length` that holds `at` on a line of
// `size`, and the last.
int FirstStart(int at, int length) { return std::max(0, at - length + 1); }
int LastStart(int at, int length, int size) {
  return std::min(at, size - length);
}

// The "forced" reduction (see patches.h) on top of `assignment`, which has the
// candidates holding a second clue at 0.
absl::Status Propagate(const PatchesBoard& b,
                       const std::vector<PatchRect>& candidates,
                       std::vector<int8_t>& assignment) {
  const int n = static_cast<int>(candidates.size());
  std::vector<std::vector<int>> of_clue(b.clues.size());
  std::vector<std::vector<int>> covering(b.size());
  for (int v = 0; v < n; ++v) {
    const PatchRect& p = candidates[v];
    of_clue[p.clue].push_back(v);
    for (int r = p.row; r < p.row + p.height; ++r) {
      for (int c = p.col; c < p.col + p.width; ++c)
        covering[r * b.cols + c].push_back(v);
    }
  }
  auto alive = [&](int v) { return assignment[v] != 0; };
  std::vector<uint8_t> forced(b.clues.size(), 0);
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t k = 0; k < b.clues.size(); ++k) {
      int left = 0, last = -1;
      for (int v : of_clue[k]) {
        if (alive(v)) ++left, last = v;
      }
      if (left == 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "patches.clues[", k, "]: infeasible: no rectangle of this clue at ",
            CellName(b.clues[k].cell, b.cols), " fits beside the others"));
      }
      if (left > 1 || forced[k]) continue;
      forced[k] = 1;
      changed = true;
      assignment[last] = 1;
      for (int v = 0; v < n; ++v) {
        if (v != last && alive(v) && candidates[v].Overlaps(candidates[last]))
          assignment[v] = 0;
      }
    }
    for (int cell = 0; cell < b.size(); ++cell) {
      int clue = -1;
      bool one_clue = true, any = false;
      for (int v : covering[cell]) {
        if (!alive(v)) continue;
        if (any && candidates[v].clue != clue) one_clue = false;
        clue = candidates[v].clue;
        any = true;
      }
      if (!any) {
        return absl::InvalidArgumentError(
            absl::StrCat("patches.clues: infeasible: no rectangle of any clue "
                         "can cover cell ",
                         CellName(cell, b.cols)));
      }
      if (!one_clue) continue;
      const int r = cell / b.cols, c = cell % b.cols;
      for (int v : of_clue[clue]) {
        if (alive(v) && !candidates[v].Contains(r, c)) {
          assignment[v] = 0;
          changed = true;
        }
      }
    }
  }
  return absl::OkStatus();
}

// H summed per pair of candidates rather than per group: expanding the
// squares, each candidate has linear weight -(1 + its area), two candidates
// share 2 per common cell plus 2 when of one clue, and the offset is one per
// clue and per cell. The same model as AddSquaredCount over every group, with
// each coupler added once instead of once per shared cell (a few times fewer
// terms for the builder to merge on 8x8 levels).
absl::StatusOr<Qubo> BuildFullModel(const PatchesBoard& b,
                                    const std::vector<PatchRect>& candidates) {
  const int n = static_cast<int>(candidates.size());
  QuboBuilder builder(n);
  builder.AddOffset(static_cast<double>(b.clues.size() + b.size()));
  std::vector<std::vector<int>> covering(b.size());
  for (int v = 0; v < n; ++v) {
    const PatchRect& p = candidates[v];
    for (int r = p.row; r < p.row + p.height; ++r) {
      for (int c = p.col; c < p.col + p.width; ++c)
        covering[r * b.cols + c].push_back(v);
    }
  }
  // Candidates are listed clue by clue: the pairs of one clue are a run, the
  // overlapping pairs of two clues are found through the cells (each once,
  // with `seen`), so the work follows the model's couplers, not n^2.
  std::vector<int> seen(n, -1);
  int clue_start = 0;
  for (int u = 0; u < n; ++u) {
    const PatchRect& p = candidates[u];
    builder.SetLabel(u, absl::StrCat("p", p.clue + 1, "r", p.row + 1, "c",
                                     p.col + 1, "_", p.height, "x", p.width));
    builder.AddLinear(u, -(1.0 + p.area()));
    if (u > 0 && candidates[u - 1].clue != p.clue) clue_start = u;
    auto shared = [&](const PatchRect& q) {
      const int rows =
          std::min(p.row + p.height, q.row + q.height) - std::max(p.row, q.row);
      const int cols =
          std::min(p.col + p.width, q.col + q.width) - std::max(p.col, q.col);
      return rows > 0 && cols > 0 ? rows * cols : 0;
    };
    for (int v = clue_start; v < u; ++v)
      builder.AddQuadratic(v, u, 2.0 + 2.0 * shared(candidates[v]));
    for (int r = p.row; r < p.row + p.height; ++r) {
      for (int c = p.col; c < p.col + p.width; ++c) {
        for (int v : covering[r * b.cols + c]) {
          if (v >= clue_start || seen[v] == u) continue;
          seen[v] = u;
          builder.AddQuadratic(v, u, 2.0 * shared(candidates[v]));
        }
      }
    }
  }
  return std::move(builder).Build();
}

// The exactly-one groups over the full variables: each clue's candidates and
// each cell's covering ones.
std::vector<std::vector<int32_t>> FullOneHotGroups(
    const PatchesBoard& b, const std::vector<PatchRect>& candidates) {
  std::vector<std::vector<int32_t>> groups(b.clues.size() + b.size());
  for (size_t v = 0; v < candidates.size(); ++v) {
    const PatchRect& p = candidates[v];
    groups[p.clue].push_back(static_cast<int32_t>(v));
    for (int r = p.row; r < p.row + p.height; ++r) {
      for (int c = p.col; c < p.col + p.width; ++c)
        groups[b.clues.size() + r * b.cols + c].push_back(
            static_cast<int32_t>(v));
    }
  }
  return groups;
}

// The board's cells: from cells, or from rows when there are none.
absl::StatusOr<std::vector<int>> ReadCells(const PatchesBoard& b,
                                           const v1::PuzzleSolution& solution) {
  std::vector<int> cells;
  const int clues = static_cast<int>(b.clues.size());
  if (solution.cells_size() > 0) {
    if (solution.cells_size() != b.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.cells: expected ", b.size(), " values, got ",
                       solution.cells_size()));
    }
    for (int k = 0; k < b.size(); ++k) {
      const int v = solution.cells(k);
      if (v < -2 || v >= clues) {
        return absl::InvalidArgumentError(absl::StrCat(
            "solution.cells[", k, "]: value ", v, " out of range -2..",
            clues - 1, " (a clue index, -1 for none, -2 for several)"));
      }
      cells.push_back(v);
    }
    return cells;
  }
  RETURN_IF_ERROR(CheckSolutionRows(solution, b.rows, b.cols));
  for (int r = 0; r < b.rows; ++r) {
    for (int c = 0; c < b.cols; ++c) {
      const char ch = solution.rows(r)[c];
      const int v = PatchClueOfLetter(ch);
      if (v < -2 || v >= clues) {
        return absl::InvalidArgumentError(absl::StrCat(
            "solution.rows[", r, "][", c, "]: '", std::string(1, ch),
            "' is no clue's letter (a..z, A..Z in clue order; '.', '*')"));
      }
      cells.push_back(v);
    }
  }
  return cells;
}

class PatchesCompiler final : public PuzzleCompiler {
 public:
  absl::string_view kind() const override { return "patches"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kPatches;
  }

  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    return CountPatchCandidates(spec.patches());
  }
  int64_t ModelCouplersAtLeast(const v1::PuzzleSpec& spec) const override {
    return CountPatchCouplersAtLeast(spec.patches());
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    ASSIGN_OR_RETURN(const PatchesBoard b, CheckPatches(spec.patches()));
    const std::vector<PatchRect> candidates = PatchCandidates(b);
    CompiledProblem problem;
    problem.kind = std::string(kind());
    problem.height = b.rows;
    problem.width = b.cols;
    ASSIGN_OR_RETURN(problem.full_model, BuildFullModel(b, candidates));
    problem.ground_energy = 0.0;
    const int n = static_cast<int>(candidates.size());
    problem.stages.push_back({"model", n, 0, 0});
    const v1::Reduction reduction = options.reduction() == v1::REDUCTION_DEFAULT
                                        ? v1::REDUCTION_FULL
                                        : options.reduction();
    if (reduction == v1::REDUCTION_NONE) {
      problem.model = problem.full_model;
      problem.variables = VariableMap::Identity(n);
    } else {
      std::vector<int8_t> assignment(n, -1);
      for (int v = 0; v < n; ++v) {
        if (HoldsOtherClue(b, candidates[v])) assignment[v] = 0;
      }
      RETURN_IF_ERROR(ReduceByAssignment(assignment, "other_clues", problem));
      if (reduction == v1::REDUCTION_FULL) {
        RETURN_IF_ERROR(Propagate(b, candidates, assignment));
        RETURN_IF_ERROR(ReduceByAssignment(assignment, "forced", problem));
      }
    }
    problem.one_hot_groups =
        ReducedOneHotGroups(problem.variables, FullOneHotGroups(b, candidates));
    return problem;
  }

  v1::PuzzleSolution Decode(const v1::PuzzleSpec& spec,
                            const CompiledProblem& problem,
                            std::span<const uint8_t> bits) const override {
    const int rows = problem.height, cols = problem.width;
    std::vector<int> cells(static_cast<size_t>(rows) * cols, -1);
    absl::StatusOr<PatchesBoard> b = CheckPatches(spec.patches());
    if (b.ok()) {
      const std::vector<PatchRect> candidates = PatchCandidates(*b);
      for (size_t v = 0; v < candidates.size() && v < bits.size(); ++v) {
        if (!bits[v]) continue;
        const PatchRect& p = candidates[v];
        for (int r = p.row; r < p.row + p.height; ++r) {
          for (int c = p.col; c < p.col + p.width; ++c) {
            int& cell = cells[r * cols + c];
            cell = cell == -1 ? p.clue : -2;
          }
        }
      }
    }
    v1::PuzzleSolution solution;
    solution.set_height(rows);
    solution.set_width(cols);
    for (int r = 0; r < rows; ++r) {
      std::string row;
      for (int c = 0; c < cols; ++c) {
        solution.add_cells(cells[r * cols + c]);
        row.push_back(PatchLetter(cells[r * cols + c]));
      }
      solution.add_rows(std::move(row));
    }
    return solution;
  }

  absl::StatusOr<v1::ValidationReport> Validate(
      const v1::PuzzleSpec& spec,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const PatchesBoard b, CheckPatches(spec.patches()));
    ASSIGN_OR_RETURN(const std::vector<int> cells, ReadCells(b, solution));
    v1::ValidationReport report;
    auto add = [&](absl::string_view rule, absl::string_view location,
                   absl::string_view message) {
      *report.add_violations() = MakeViolation(rule, location, message);
    };
    for (int cell = 0; cell < b.size(); ++cell) {
      if (cells[cell] == -1) {
        add("cell_uncovered", absl::StrCat("cell ", CellName(cell, b.cols)),
            "no patch holds this cell");
      } else if (cells[cell] == -2) {
        add("cell_overlap", absl::StrCat("cell ", CellName(cell, b.cols)),
            "several patches hold this cell");
      }
    }
    for (size_t k = 0; k < b.clues.size(); ++k) {
      const PatchesBoard::Clue& clue = b.clues[k];
      const std::string location =
          absl::StrCat("clue ", k + 1, " at ", CellName(clue.cell, b.cols));
      if (cells[clue.cell] != static_cast<int>(k)) {
        add("clue_count", location, "the clue's cell is outside its patch");
      }
      int count = 0, top = b.rows, bottom = -1, left = b.cols, right = -1;
      std::vector<int> others;
      for (int cell = 0; cell < b.size(); ++cell) {
        if (cells[cell] != static_cast<int>(k)) continue;
        ++count;
        const int r = cell / b.cols, c = cell % b.cols;
        top = std::min(top, r);
        bottom = std::max(bottom, r);
        left = std::min(left, c);
        right = std::max(right, c);
        if (b.clue_at[cell] >= 0 && b.clue_at[cell] != static_cast<int>(k))
          others.push_back(b.clue_at[cell]);
      }
      if (count == 0) continue;
      for (int other : others) {
        add("clue_count", location,
            absl::StrCat("the patch also holds clue ", other + 1, " at ",
                         CellName(b.clues[other].cell, b.cols)));
      }
      const int height = bottom - top + 1, width = right - left + 1;
      const bool rectangle = count == height * width;
      if (!rectangle) {
        add("not_rectangle", location,
            absl::StrCat("the patch's ", count,
                         " cells do not fill their bounding box of ", height,
                         "x", width));
      } else if (!ShapeFits(clue.shape, height, width)) {
        add("shape", location,
            absl::StrCat("the patch is ", height, "x", width,
                         " (rows x columns), not ", ShapeName(clue.shape)));
      }
      if (clue.area != 0 && count != clue.area) {
        add("area", location,
            absl::StrCat("the patch has ", count, " cells, the clue says ",
                         clue.area));
      }
    }
    report.set_valid(report.violations_size() == 0);
    return report;
  }

  absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const PatchesBoard b, CheckPatches(spec.patches()));
    ASSIGN_OR_RETURN(const std::vector<int> cells, ReadCells(b, solution));
    const std::vector<PatchRect> candidates = PatchCandidates(b);
    std::vector<uint8_t> bits(candidates.size(), 0);
    for (size_t k = 0; k < b.clues.size(); ++k) {
      int count = 0, top = b.rows, bottom = -1, left = b.cols, right = -1;
      for (int cell = 0; cell < b.size(); ++cell) {
        if (cells[cell] == -2) {
          return absl::InvalidArgumentError(
              absl::StrCat("solution.cells[", cell,
                           "]: a cell several patches hold has no encoding"));
        }
        if (cells[cell] != static_cast<int>(k)) continue;
        ++count;
        top = std::min(top, cell / b.cols);
        bottom = std::max(bottom, cell / b.cols);
        left = std::min(left, cell % b.cols);
        right = std::max(right, cell % b.cols);
      }
      if (count == 0) continue;
      const PatchRect rect{static_cast<int>(k), top, left, bottom - top + 1,
                           right - left + 1};
      auto it = std::find_if(
          candidates.begin(), candidates.end(), [&](const PatchRect& p) {
            return p.clue == rect.clue && p.row == rect.row &&
                   p.col == rect.col && p.height == rect.height &&
                   p.width == rect.width;
          });
      if (count != rect.area() || it == candidates.end()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "solution.cells: the patch of clue ", k + 1,
            " is not a rectangle of the clue's shape and area holding its "
            "cell"));
      }
      bits[it - candidates.begin()] = 1;
    }
    return bits;
  }
};

}  // namespace

bool ShapeFits(v1::PatchShape shape, int height, int width) {
  switch (shape) {
    case v1::PATCH_SHAPE_SQUARE:
      return height == width;
    case v1::PATCH_SHAPE_TALL:
      return height > width;
    case v1::PATCH_SHAPE_WIDE:
      return width > height;
    default:
      return true;
  }
}

absl::StatusOr<PatchesBoard> CheckPatches(const v1::PatchesPuzzle& patches) {
  for (const auto& [field, side] :
       {std::pair<const char*, uint32_t>{"rows", patches.rows()},
        std::pair<const char*, uint32_t>{"cols", patches.cols()}}) {
    if (side < 1 || side > static_cast<uint32_t>(kPatchesMaxSide)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "patches.", field, ": must be 1..", kPatchesMaxSide, ", got ", side));
    }
  }
  PatchesBoard b;
  b.rows = static_cast<int>(patches.rows());
  b.cols = static_cast<int>(patches.cols());
  b.clue_at.assign(b.size(), -1);
  if (patches.clues_size() == 0) {
    return absl::InvalidArgumentError(
        "patches.clues: at least one clue (every patch holds one)");
  }
  for (int k = 0; k < patches.clues_size(); ++k) {
    const v1::PatchClue& clue = patches.clues(k);
    const std::string field = absl::StrCat("patches.clues[", k, "]");
    if (clue.cell() >= static_cast<uint32_t>(b.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".cell: ", clue.cell(), " out of range 0..",
                       b.size() - 1, " (r * cols + c)"));
    }
    const int cell = static_cast<int>(clue.cell());
    if (b.clue_at[cell] >= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".cell: cell ", cell, " ", CellName(cell, b.cols),
                       " already holds clue ", b.clue_at[cell] + 1));
    }
    if (!v1::PatchShape_IsValid(clue.shape())) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".shape: unknown value ", clue.shape()));
    }
    if (clue.area() > static_cast<uint32_t>(b.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".area: ", clue.area(), " is more than the ",
                       b.size(), " cells of the grid"));
    }
    const int area = static_cast<int>(clue.area());
    bool fits = false;
    ForEachSize(b.rows, b.cols, area, clue.shape(),
                [&](int, int) { fits = true; });
    if (!fits) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, ".area: no ",
          clue.shape() == v1::PATCH_SHAPE_ANY
              ? std::string()
              : absl::StrCat(ShapeName(clue.shape()), " "),
          "rectangle of ", area, " cells fits the ", b.rows, "x", b.cols,
          " grid",
          clue.shape() == v1::PATCH_SHAPE_SQUARE ? " (a square needs a square "
                                                   "area)"
                                                 : ""));
    }
    b.clue_at[cell] = k;
    b.clues.push_back({cell, area, clue.shape()});
  }
  return b;
}

std::vector<PatchRect> PatchCandidates(const PatchesBoard& b) {
  std::vector<PatchRect> out;
  for (size_t k = 0; k < b.clues.size(); ++k) {
    const int r = b.clues[k].cell / b.cols, c = b.clues[k].cell % b.cols;
    ForEachSize(b.rows, b.cols, b.clues[k].area, b.clues[k].shape,
                [&](int h, int w) {
                  for (int top = FirstStart(r, h);
                       top <= LastStart(r, h, b.rows); ++top) {
                    for (int left = FirstStart(c, w);
                         left <= LastStart(c, w, b.cols); ++left)
                      out.push_back({static_cast<int>(k), top, left, h, w});
                  }
                });
  }
  return out;
}

namespace {

// Candidates per clue from the puzzle alone; empty when CheckPatches refuses
// the grid's size or the number of clues.
std::vector<int64_t> CandidatesPerClue(const v1::PatchesPuzzle& patches) {
  const int64_t rows = patches.rows(), cols = patches.cols();
  std::vector<int64_t> out;
  if (rows < 1 || cols < 1 || rows > kPatchesMaxSide ||
      cols > kPatchesMaxSide || patches.clues_size() > rows * cols)
    return out;
  for (const v1::PatchClue& clue : patches.clues()) {
    int64_t count = 0;
    if (clue.cell() < static_cast<uint32_t>(rows * cols) &&
        clue.area() <= static_cast<uint32_t>(rows * cols)) {
      const int r = static_cast<int>(clue.cell() / cols);
      const int c = static_cast<int>(clue.cell() % cols);
      ForEachSize(
          static_cast<int>(rows), static_cast<int>(cols),
          static_cast<int>(clue.area()), clue.shape(), [&](int h, int w) {
            count +=
                static_cast<int64_t>(LastStart(r, h, static_cast<int>(rows)) -
                                     FirstStart(r, h) + 1) *
                (LastStart(c, w, static_cast<int>(cols)) - FirstStart(c, w) +
                 1);
          });
    }
    out.push_back(count);
  }
  return out;
}

}  // namespace

int64_t CountPatchCandidates(const v1::PatchesPuzzle& patches) {
  const int64_t rows = patches.rows(), cols = patches.cols();
  if (rows < 1 || cols < 1) return 0;
  const std::vector<int64_t> per_clue = CandidatesPerClue(patches);
  if (per_clue.empty() && patches.clues_size() > 0) {
    // Refused by CheckPatches; a bound large enough for the size limits.
    const int64_t cells = SaturatingMul(rows, cols);
    return SaturatingMul(SaturatingMul(cells, cells),
                         std::max<int64_t>(1, patches.clues_size()));
  }
  int64_t total = 0;
  for (int64_t count : per_clue) total += count;
  return total;
}

int64_t CountPatchCouplersAtLeast(const v1::PatchesPuzzle& patches) {
  // Every two candidates of one clue are coupled (weight 2 at least).
  int64_t total = 0;
  for (int64_t count : CandidatesPerClue(patches))
    total = SaturatingAdd(total, count * (count - 1) / 2);
  return total;
}

bool HoldsOtherClue(const PatchesBoard& b, const PatchRect& rect) {
  for (int r = rect.row; r < rect.row + rect.height; ++r) {
    for (int c = rect.col; c < rect.col + rect.width; ++c) {
      const int clue = b.clue_at[r * b.cols + c];
      if (clue >= 0 && clue != rect.clue) return true;
    }
  }
  return false;
}

char PatchLetter(int clue) {
  if (clue == -1) return '.';
  if (clue < 0) return '*';
  if (clue < 26) return static_cast<char>('a' + clue);
  if (clue < 52) return static_cast<char>('A' + clue - 26);
  return '?';
}

int PatchClueOfLetter(char letter) {
  if (letter >= 'a' && letter <= 'z') return letter - 'a';
  if (letter >= 'A' && letter <= 'Z') return letter - 'A' + 26;
  if (letter == '.') return -1;
  if (letter == '*') return -2;
  return -3;
}

std::unique_ptr<PuzzleCompiler> NewPatchesCompiler() {
  return std::make_unique<PatchesCompiler>();
}

}  // namespace qs
