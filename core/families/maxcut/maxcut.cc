// Max-Cut compiler: the graph's QUBO (energy = -cut), boards as one row of
// 0/1, and a Validate that recomputes the cut from the edges.
#include "core/families/maxcut/maxcut.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"

namespace qs {
namespace {

// Graphs up to this many nodes get their ground energy by enumeration
// (2^20 Gray-code steps of at most 20 additions each).
constexpr uint32_t kExactNodes = 20;

// The largest cut by Gray-code enumeration: flipping node k changes the cut by
// the weight of its edges to its own side minus those to the other side.
// Parallel edges are summed first, so that a step costs n whatever the edges.
double MaxCutByEnumeration(const v1::MaxCutPuzzle& graph) {
  const uint32_t n = graph.num_nodes();
  std::vector<double> weight(n * n, 0.0);
  for (int k = 0; k < graph.u_size(); ++k) {
    weight[graph.u(k) * n + graph.v(k)] += graph.w(k);
    weight[graph.v(k) * n + graph.u(k)] += graph.w(k);
  }
  std::vector<uint8_t> side(n, 0);
  double cut = 0, best = 0;
  for (uint64_t step = 1; step < (uint64_t{1} << n); ++step) {
    const uint32_t k = static_cast<uint32_t>(__builtin_ctzll(step));
    for (uint32_t other = 0; other < n; ++other)
      cut += side[other] == side[k] ? weight[k * n + other]
                                    : -weight[k * n + other];
    side[k] ^= 1;
    best = std::max(best, cut);
  }
  return best;
}

class MaxCutCompiler final : public PuzzleCompiler {
 public:
  absl::string_view kind() const override { return "maxcut"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kMaxcut;
  }

  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    return spec.maxcut().num_nodes();
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    const v1::MaxCutPuzzle& graph = spec.maxcut();
    RETURN_IF_ERROR(CheckMaxCut(graph));
    const int n = static_cast<int>(graph.num_nodes());
    QuboBuilder builder(n);
    for (int k = 0; k < graph.u_size(); ++k) {
      const int u = static_cast<int>(graph.u(k)),
                v = static_cast<int>(graph.v(k));
      builder.AddLinear(u, -graph.w(k));
      builder.AddLinear(v, -graph.w(k));
      builder.AddQuadratic(u, v, 2 * graph.w(k));
    }
    ASSIGN_OR_RETURN(Qubo model, std::move(builder).Build());
    CompiledProblem problem = UnreducedProblem(kind(), std::move(model));
    if (graph.num_nodes() <= kExactNodes)
      problem.ground_energy = -MaxCutByEnumeration(graph);
    return problem;
  }

  v1::PuzzleSolution Decode(const v1::PuzzleSpec& spec,
                            const CompiledProblem& problem,
                            std::span<const uint8_t> bits) const override {
    return BinaryRowBoard(bits);
  }

  absl::StatusOr<v1::ValidationReport> Validate(
      const v1::PuzzleSpec& spec,
      const v1::PuzzleSolution& solution) const override {
    RETURN_IF_ERROR(CheckMaxCut(spec.maxcut()));
    ASSIGN_OR_RETURN(std::vector<uint8_t> side, Sides(spec, solution));
    v1::ValidationReport report;
    report.set_valid(true);
    report.set_objective(CutWeight(spec.maxcut(), side));
    return report;
  }

  // Every sample's board is valid: the sampling path does not validate it.
  bool EveryBoardValid() const override { return true; }

  KindPolicy Policy() const override { return {.raw_model = true}; }

  absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    RETURN_IF_ERROR(CheckMaxCut(spec.maxcut()));
    return Sides(spec, solution);
  }

  std::optional<double> Objective(const v1::PuzzleSpec& spec,
                                  double energy) const override {
    return -energy;
  }

 private:
  // The side of each node from the board's cells, or from its one row when
  // it has no cells.
  static absl::StatusOr<std::vector<uint8_t>> Sides(
      const v1::PuzzleSpec& spec, const v1::PuzzleSolution& solution) {
    const uint32_t n = spec.maxcut().num_nodes();
    std::vector<uint8_t> side;
    if (solution.cells_size() == 0 && solution.rows_size() == 1) {
      for (char c : solution.rows(0)) side.push_back(c == '1' ? 1 : 0);
      for (size_t k = 0; k < solution.rows(0).size(); ++k) {
        const char c = solution.rows(0)[k];
        if (c != '0' && c != '1') {
          return absl::InvalidArgumentError(absl::StrCat(
              "solution.rows[0][", k, "]: must be '0' or '1', got '",
              std::string(1, c), "'"));
        }
      }
    } else {
      for (int k = 0; k < solution.cells_size(); ++k) {
        if (solution.cells(k) != 0 && solution.cells(k) != 1) {
          return absl::InvalidArgumentError(
              absl::StrCat("solution.cells[", k, "]: must be 0 or 1, got ",
                           solution.cells(k)));
        }
        side.push_back(static_cast<uint8_t>(solution.cells(k)));
      }
    }
    if (side.size() != n) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution: expected ", n, " nodes, got ", side.size()));
    }
    return side;
  }
};

}  // namespace

absl::Status CheckMaxCut(const v1::MaxCutPuzzle& graph) {
  const uint32_t n = graph.num_nodes();
  if (graph.u_size() != graph.v_size() || graph.u_size() != graph.w_size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "maxcut.u, .v and .w must have the same length, got ", graph.u_size(),
        ", ", graph.v_size(), ", ", graph.w_size()));
  }
  for (int k = 0; k < graph.u_size(); ++k) {
    if (graph.u(k) >= n || graph.v(k) >= n) {
      return absl::InvalidArgumentError(absl::StrCat(
          "maxcut.", graph.u(k) >= n ? "u" : "v", "[", k,
          "]: ", std::max(graph.u(k), graph.v(k)), " >= num_nodes ", n));
    }
    if (graph.u(k) == graph.v(k)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "maxcut.v[", k, "]: a loop on node ", graph.u(k), " cuts nothing"));
    }
    if (!std::isfinite(graph.w(k))) {
      return absl::InvalidArgumentError(
          absl::StrCat("maxcut.w[", k, "] is not finite"));
    }
  }
  return absl::OkStatus();
}

double CutWeight(const v1::MaxCutPuzzle& graph, std::span<const uint8_t> side) {
  // Branch-free: on a good cut half the edges are cut, in no pattern a
  // branch predictor learns, and this runs once per sample.
  const uint32_t* u = graph.u().data();
  const uint32_t* v = graph.v().data();
  const double* w = graph.w().data();
  double cut = 0;
  for (int k = 0; k < graph.u_size(); ++k)
    cut += w[k] * static_cast<double>(side[u[k]] ^ side[v[k]]);
  return cut;
}

std::unique_ptr<PuzzleCompiler> NewMaxCutCompiler() {
  return std::make_unique<MaxCutCompiler>();
}

}  // namespace qs
