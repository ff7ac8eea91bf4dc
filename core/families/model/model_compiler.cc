// The model family's compiler: a constrained model to a QUBO through the
// constraint-to-penalty layer, fixings by constraint propagation, and samples
// decoded and scored in the model's own terms (model.h, docs/model.md).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "core/base/status_macros.h"
#include "core/families/model/model.h"

namespace qs {
namespace {

// What decoding and scoring need of a spec, resolved once per compiled
// problem (a model's text is parsed once, not once per sample).
struct ModelContext {
  v1::ConstrainedModel model;
  ModelLayout layout;
};

absl::StatusOr<std::shared_ptr<const ModelContext>> ContextOf(
    const v1::PuzzleSpec& spec, const CompiledProblem& problem) {
  return problem.derived.GetOrTryMake<ModelContext>(
      "model/context", [&]() -> absl::StatusOr<ModelContext> {
        ModelContext context;
        ASSIGN_OR_RETURN(context.model, ResolveModel(spec.model()));
        context.layout = LayOut(context.model);
        return context;
      });
}

// One linear row sum a_k x_k <= b over the model's bits.
struct Row {
  std::vector<std::pair<int32_t, double>> terms;
  double rhs = 0;
};

void AddRows(const PenaltyConstraint& c, std::vector<Row>& rows) {
  if (c.lhs.Degree() > 1) return;
  Row row;
  for (const auto& [key, a] : c.lhs.low())
    row.terms.emplace_back(BinaryPolynomial::First(key), a);
  row.rhs = c.rhs - c.lhs.constant();
  if (c.sense != v1::CONSTRAINT_GREATER_EQUAL) rows.push_back(row);
  if (c.sense != v1::CONSTRAINT_LESS_EQUAL) {
    for (auto& term : row.terms) term.second = -term.second;
    row.rhs = -row.rhs;
    rows.push_back(std::move(row));
  }
}

// Bits that every feasible assignment sets alike, by bound propagation over
// the linear constraints and groups: a bit whose one value would make a row's
// least left-hand side exceed its right-hand side takes the other. Stops at
// a fixpoint, or with nothing fixed when the rows contradict each other (the
// exact engines then prove the model infeasible).
std::vector<int8_t> PropagateFixings(const PenaltyInput& input) {
  std::vector<Row> rows;
  for (const PenaltyConstraint& c : input.constraints) AddRows(c, rows);
  for (const PenaltyGroup& g : input.groups) {
    PenaltyConstraint c;
    for (int32_t bit : g.bits) c.lhs.AddLinear(bit, 1);
    c.rhs = 1;
    c.sense = g.at_most_one ? v1::CONSTRAINT_LESS_EQUAL : v1::CONSTRAINT_EQUAL;
    AddRows(c, rows);
  }
  std::vector<int8_t> value(input.num_bits, -1);
  constexpr double kTolerance = 1e-9;
  for (bool changed = true; changed;) {
    changed = false;
    for (const Row& row : rows) {
      double least = 0;
      for (const auto& [bit, a] : row.terms)
        least += value[bit] < 0 ? std::min(a, 0.0) : a * value[bit];
      const double slack = row.rhs - least;
      if (slack < -kTolerance * std::max(1.0, std::abs(row.rhs)))
        return std::vector<int8_t>(input.num_bits, -1);
      for (const auto& [bit, a] : row.terms) {
        if (value[bit] >= 0 || std::abs(a) <= slack + kTolerance) continue;
        value[bit] = a > 0 ? 0 : 1;
        changed = true;
      }
    }
  }
  return value;
}

v1::ModelReport Report(const v1::ConstrainedModel& model,
                       const ModelLayout& layout, const PenaltyQubo& qubo,
                       int fixed) {
  v1::ModelReport report;
  report.set_variables(model.variables_size());
  report.set_constraints(model.constraints_size() + model.one_hot_size());
  report.set_integer_bits(layout.integer_bits);
  report.set_integer_encoding(layout.integer_encoding);
  report.set_slack_bits(qubo.slack_bits);
  report.set_inequality(model.inequality() == v1::INEQUALITY_UNBALANCED
                            ? v1::INEQUALITY_UNBALANCED
                            : v1::INEQUALITY_SLACK);
  report.set_reduction_variables(qubo.auxiliary_bits);
  report.set_one_hot_groups(static_cast<uint32_t>(qubo.one_hot_groups.size()));
  for (const auto& p : qubo.penalties) *report.add_penalties() = p;
  report.set_fixed_by_propagation(fixed);
  return report;
}

// The values of a board: by name when it names its variables, else in model
// order; each within its variable's domain.
absl::StatusOr<std::vector<int64_t>> BoardValues(
    const v1::ConstrainedModel& model, const v1::PuzzleSolution& solution) {
  const int n = model.variables_size();
  if (solution.cells_size() != n) {
    return absl::InvalidArgumentError(absl::StrCat("solution.cells: expected ",
                                                   n, " values, got ",
                                                   solution.cells_size()));
  }
  if (solution.names_size() != 0 && solution.names_size() != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "solution.names: expected ", n, " names, got ", solution.names_size()));
  }
  std::vector<int64_t> values(n);
  for (int v = 0; v < n; ++v) {
    if (solution.names_size() == n &&
        solution.names(v) != model.variables(v).name()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "solution.names[", v, "]: expected '", model.variables(v).name(),
          "', got '", solution.names(v), "'"));
    }
    const int64_t x = solution.cells(v);
    const v1::ModelVariable& var = model.variables(v);
    const bool ok = var.type() == v1::MODEL_VARIABLE_BINARY ? (x == 0 || x == 1)
                    : var.type() == v1::MODEL_VARIABLE_SPIN
                        ? (x == -1 || x == 1)
                        : (x >= var.lower() && x <= var.upper());
    if (!ok) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.cells[", v, "]: ", x,
                       " is outside the domain of '", var.name(), "'"));
    }
    values[v] = x;
  }
  return values;
}

// A board's rows: "name=value", "name=?" where the bits break the variable's
// encoding (a one-hot integer with no value or several).
constexpr absl::string_view kBrokenValue = "?";

v1::ValidationReport ScoreReport(const v1::ConstrainedModel& model,
                                 const v1::PuzzleSolution& solution,
                                 std::span<const int64_t> values) {
  ModelScore score = ScoreModel(model, values);
  v1::ValidationReport report;
  for (int v = 0; v < solution.rows_size(); ++v) {
    const std::string& row = solution.rows(v);
    if (row.size() > 1 && absl::EndsWith(row, kBrokenValue)) {
      *report.add_violations() =
          MakeViolation("encoding", model.variables(v).name(),
                        absl::StrCat("the bits of '", model.variables(v).name(),
                                     "' encode no single value"));
    }
  }
  for (auto& v : score.violations) *report.add_violations() = std::move(v);
  report.set_valid(report.violations_size() == 0);
  report.set_objective(score.objective);
  return report;
}

// "lp", "opb", "qplib", "text" (a text whose format was told from it) or
// "structured".
std::string FormatName(const v1::ConstrainedModel& spec) {
  if (spec.text().empty()) return "structured";
  absl::string_view name = v1::ModelFormat_Name(spec.format());
  if (spec.format() == v1::MODEL_FORMAT_UNSPECIFIED) return "text";
  absl::ConsumePrefix(&name, "MODEL_FORMAT_");
  return absl::AsciiStrToLower(name);
}

class ModelCompiler final : public PuzzleCompiler {
 public:
  absl::string_view kind() const override { return "model"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kModel;
  }

  // The bits of the model's variables (slack and auxiliary bits come on
  // top), so that a model whose integers alone pass the limits is refused
  // before anything is built; a text is read for it (a text that does not
  // read counts 0: Compile refuses it naming its line).
  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    absl::StatusOr<v1::ConstrainedModel> model = ResolveModel(spec.model());
    return model.ok() ? CountBits(*model) : 0;
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    ASSIGN_OR_RETURN(v1::ConstrainedModel model, ResolveModel(spec.model()));
    ModelPenalties penalties = PenaltiesOf(model);
    ASSIGN_OR_RETURN(PenaltyQubo qubo,
                     CompilePenalties(penalties.input, penalties.options));
    CompiledProblem problem;
    problem.kind = std::string(kind());
    problem.height = 1;
    problem.width = model.variables_size();
    problem.full_model = qubo.model;
    const int full = qubo.model.num_variables();
    problem.stages.push_back({"model", penalties.layout.num_bits, 0, 0});
    problem.stages.push_back({"penalties", full, 0, 0});
    int fixed = 0;
    if (options.reduction() == v1::REDUCTION_NONE) {
      problem.model = problem.full_model;
      problem.variables = VariableMap::Identity(full);
    } else {
      std::vector<int8_t> assignment = PropagateFixings(penalties.input);
      fixed =
          static_cast<int>(std::count_if(assignment.begin(), assignment.end(),
                                         [](int8_t v) { return v >= 0; }));
      assignment.resize(full, -1);
      RETURN_IF_ERROR(ReduceByAssignment(assignment, "propagation", problem));
    }
    problem.one_hot_groups =
        ReducedOneHotGroups(problem.variables, qubo.one_hot_groups);
    v1::ModelReport report = Report(model, penalties.layout, qubo, fixed);
    report.set_format(FormatName(spec.model()));
    problem.model_report = std::move(report);
    // Decoding needs the model and its layout: kept with the problem.
    problem.derived.GetOrMake<ModelContext>("model/context", [&] {
      return ModelContext{std::move(model), std::move(penalties.layout)};
    });
    return problem;
  }

  v1::PuzzleSolution Decode(const v1::PuzzleSpec& spec,
                            const CompiledProblem& problem,
                            std::span<const uint8_t> full_bits) const override {
    v1::PuzzleSolution solution;
    absl::StatusOr<std::shared_ptr<const ModelContext>> context =
        ContextOf(spec, problem);
    if (!context.ok()) return solution;
    const v1::ConstrainedModel& model = (*context)->model;
    const DecodedValues decoded =
        DecodeValues(model, (*context)->layout, full_bits);
    solution.set_height(1);
    solution.set_width(model.variables_size());
    std::vector<bool> broken(model.variables_size(), false);
    for (int v : decoded.broken_encodings) broken[v] = true;
    for (int v = 0; v < model.variables_size(); ++v) {
      const std::string& name = model.variables(v).name();
      solution.add_names(name);
      solution.add_cells(static_cast<int32_t>(decoded.values[v]));
      solution.add_rows(broken[v] ? absl::StrCat(name, "=", kBrokenValue)
                                  : absl::StrCat(name, "=", decoded.values[v]));
    }
    solution.set_objective(ScoreModel(model, decoded.values).objective);
    return solution;
  }

  absl::StatusOr<v1::ValidationReport> Validate(
      const v1::PuzzleSpec& spec,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const v1::ConstrainedModel model,
                     ResolveModel(spec.model()));
    ASSIGN_OR_RETURN(const std::vector<int64_t> values,
                     BoardValues(model, solution));
    return ScoreReport(model, solution, values);
  }

  absl::StatusOr<v1::ValidationReport> ValidateDecoded(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const std::shared_ptr<const ModelContext> context,
                     ContextOf(spec, problem));
    std::vector<int64_t> values(solution.cells().begin(),
                                solution.cells().end());
    return ScoreReport(context->model, solution, values);
  }

  absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const std::shared_ptr<const ModelContext> context,
                     ContextOf(spec, problem));
    ASSIGN_OR_RETURN(const std::vector<int64_t> values,
                     BoardValues(context->model, solution));
    const std::vector<uint8_t> bits =
        EncodeValues(context->model, context->layout, values);
    ModelPenalties penalties = PenaltiesOf(context->model);
    ASSIGN_OR_RETURN(PenaltyQubo qubo,
                     CompilePenalties(penalties.input, penalties.options));
    return CompletePenaltyBits(qubo, bits);
  }

  KindPolicy Policy() const override {
    KindPolicy policy;
    policy.valid_is_optimal = false;
    return policy;
  }

  std::optional<double> TargetMeasure(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& board) const override {
    if (!board.has_objective()) return std::nullopt;
    absl::StatusOr<std::shared_ptr<const ModelContext>> context =
        ContextOf(spec, problem);
    if (!context.ok()) return std::nullopt;
    return (*context)->model.sense() == v1::MAXIMIZE ? -board.objective()
                                                     : board.objective();
  }
};

}  // namespace

std::unique_ptr<PuzzleCompiler> NewModelCompiler() {
  return std::make_unique<ModelCompiler>();
}

}  // namespace qs
