// The Nonogram rules (docs/pattern.md "Exact rules") as Boolean constraints
// over the QUBO's start variables y(i, s) (pattern.h), with one auxiliary
// cell variable x_c per cell ("cell c is filled"):
// - each run takes exactly one start;
// - consecutive runs of a line are in order with at least one empty cell
//   between them: a clause (-y(i, s) | -y(i+1, t)) per pair t < s + l_i + 1;
// - each line draws its cells: x_c <-> OR of the line's starts whose run
//   covers c, for the row and for the column alike, so that both lines
//   draw the same board;
// - the givens are unit clauses on x_c.
// With one start per run and the runs in order, a line's filled cells are
// exactly its clue's runs, so the solutions are the valid boards, one
// assignment of the start variables each (counting blocks them over the
// primary variables only, as the auxiliaries follow).
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/exact/encoder.h"
#include "core/families/pattern/pattern.h"

namespace qs {
namespace {

class PatternEncoder final : public RulesEncoder {
 public:
  absl::string_view kind() const override { return "pattern"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kPattern;
  }
  bool needs_auxiliary() const override { return true; }

  absl::Status Encode(const v1::PuzzleSpec& spec, const EncodeOptions& options,
                      ConstraintSink& sink) const override {
    ASSIGN_OR_RETURN(const PatternGrid grid, PatternGridOf(spec.pattern()));
    std::vector<int> x(grid.size());
    for (int& v : x) {
      v = sink.NewAuxiliary();
      if (v == 0) {
        return absl::UnimplementedError(
            "pattern: the rules need a cell variable per cell, which this "
            "constraint sink does not have");
      }
    }
    for (const PatternLine& line : grid.lines) EncodeLine(line, x, sink);
    if (!options.clues) return absl::OkStatus();
    for (int cell = 0; cell < grid.size(); ++cell) {
      if (grid.given[cell] == 1) sink.AddUnit(x[cell]);
      if (grid.given[cell] == 0) sink.AddUnit(-x[cell]);
    }
    return absl::OkStatus();
  }

 private:
  static void EncodeLine(const PatternLine& line, const std::vector<int>& x,
                         ConstraintSink& sink) {
    auto y = [&](int i, int s) { return line.Var(i, s) + 1; };
    const int k = static_cast<int>(line.runs.size());
    std::vector<std::vector<int>> covering(line.size());
    std::vector<int> starts;
    for (int i = 0; i < k; ++i) {
      starts.clear();
      for (int s = line.lo[i]; s <= line.hi[i]; ++s) {
        starts.push_back(y(i, s));
        for (int p = s; p < s + line.runs[i]; ++p) {
          covering[p].push_back(y(i, s));
          sink.AddClause({-y(i, s), x[line.cells[p]]});
        }
      }
      sink.AddExactlyOne(starts);
      if (i + 1 == k) continue;
      for (int s = line.lo[i]; s <= line.hi[i]; ++s) {
        for (int t = line.lo[i + 1];
             t <= line.hi[i + 1] && t < s + line.runs[i] + 1; ++t)
          sink.AddClause({-y(i, s), -y(i + 1, t)});
      }
    }
    // A filled cell is covered by one of the line's runs.
    for (int p = 0; p < line.size(); ++p) {
      std::vector<int> clause = covering[p];
      clause.push_back(-x[line.cells[p]]);
      sink.AddClause(clause);
    }
  }
};

}  // namespace

std::unique_ptr<RulesEncoder> NewPatternEncoder() {
  return std::make_unique<PatternEncoder>();
}

}  // namespace qs
