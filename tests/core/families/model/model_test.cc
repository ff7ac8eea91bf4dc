// The model family's energy tests: a small model with binary, spin and
// integer variables, an equality, inequalities both ways, a quadratic
// constraint and a one-hot group. Its QUBO's ground state is the optimum
// found by enumerating the model's own values (for every integer encoding);
// a known optimum scores its objective; each broken constraint raises the
// energy and is reported by name with its amount; bad models are refused
// naming the field; and the rules for sat find feasible boards that score
// their objective, or prove that there is none.
#include "core/families/model/model.h"

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "core/exact/exact_solver.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

void AddTerm(v1::ModelPolynomial* p, double c, std::vector<uint32_t> vars) {
  v1::ModelTerm* t = p->add_terms();
  t->set_coefficient(c);
  for (uint32_t v : vars) t->add_variables(v);
}

v1::ModelVariable* AddVariable(v1::ConstrainedModel& m, const std::string& name,
                               v1::ModelVariableType type, int64_t lower = 0,
                               int64_t upper = 0) {
  v1::ModelVariable* v = m.add_variables();
  v->set_name(name);
  v->set_type(type);
  v->set_lower(lower);
  v->set_upper(upper);
  return v;
}

v1::ModelConstraint* AddConstraint(v1::ConstrainedModel& m,
                                   const std::string& name,
                                   v1::ConstraintSense sense, double rhs) {
  v1::ModelConstraint* c = m.add_constraints();
  c->set_name(name);
  c->set_sense(sense);
  c->set_rhs(rhs);
  return c;
}

// Variables a, b, c, d (binary), n in [0, 3], s (spin):
//   maximize 3a + 2b + 4c + d + 2n - n a + s + 1
//   weight: 2a + 3b + 4c + n <= 6
//   cover:  a + b >= 1
//   pair:   b c + d == 1
//   pick:   exactly one of c, d (a one-hot group)
v1::ConstrainedModel SmallModel(v1::IntegerEncoding encoding) {
  v1::ConstrainedModel m;
  m.set_sense(v1::MAXIMIZE);
  m.set_integer_encoding(encoding);
  for (const char* name : {"a", "b", "c", "d"})
    AddVariable(m, name, v1::MODEL_VARIABLE_BINARY);
  AddVariable(m, "n", v1::MODEL_VARIABLE_INTEGER, 0, 3);
  AddVariable(m, "s", v1::MODEL_VARIABLE_SPIN);
  v1::ModelPolynomial* f = m.mutable_objective();
  AddTerm(f, 3, {0});
  AddTerm(f, 2, {1});
  AddTerm(f, 4, {2});
  AddTerm(f, 1, {3});
  AddTerm(f, 2, {4});
  AddTerm(f, -1, {4, 0});
  AddTerm(f, 1, {5});
  f->set_constant(1);
  v1::ModelConstraint* weight =
      AddConstraint(m, "weight", v1::CONSTRAINT_LESS_EQUAL, 6);
  AddTerm(weight->mutable_lhs(), 2, {0});
  AddTerm(weight->mutable_lhs(), 3, {1});
  AddTerm(weight->mutable_lhs(), 4, {2});
  AddTerm(weight->mutable_lhs(), 1, {4});
  v1::ModelConstraint* cover =
      AddConstraint(m, "cover", v1::CONSTRAINT_GREATER_EQUAL, 1);
  AddTerm(cover->mutable_lhs(), 1, {0});
  AddTerm(cover->mutable_lhs(), 1, {1});
  v1::ModelConstraint* pair = AddConstraint(m, "pair", v1::CONSTRAINT_EQUAL, 1);
  AddTerm(pair->mutable_lhs(), 1, {1, 2});
  AddTerm(pair->mutable_lhs(), 1, {3});
  v1::OneHotConstraint* pick = m.add_one_hot();
  pick->set_name("pick");
  pick->add_variables(2);
  pick->add_variables(3);
  return m;
}

v1::PuzzleSpec Spec(const v1::ConstrainedModel& model) {
  v1::PuzzleSpec spec;
  *spec.mutable_model() = model;
  return spec;
}

// Every assignment of the model's own variables.
std::vector<std::vector<int64_t>> AllValues(const v1::ConstrainedModel& m) {
  std::vector<std::vector<int64_t>> all = {{}};
  for (const v1::ModelVariable& var : m.variables()) {
    std::vector<int64_t> domain;
    if (var.type() == v1::MODEL_VARIABLE_BINARY) domain = {0, 1};
    if (var.type() == v1::MODEL_VARIABLE_SPIN) domain = {-1, 1};
    if (var.type() == v1::MODEL_VARIABLE_INTEGER)
      for (int64_t x = var.lower(); x <= var.upper(); ++x) domain.push_back(x);
    std::vector<std::vector<int64_t>> next;
    for (const auto& prefix : all) {
      for (int64_t x : domain) {
        next.push_back(prefix);
        next.back().push_back(x);
      }
    }
    all = std::move(next);
  }
  return all;
}

// The best feasible objective (maximised) by enumeration.
double BestObjective(const v1::ConstrainedModel& m) {
  double best = -std::numeric_limits<double>::infinity();
  for (const auto& values : AllValues(m)) {
    const ModelScore score = ScoreModel(m, values);
    if (score.violations.empty()) best = std::max(best, score.objective);
  }
  return best;
}

v1::PuzzleSolution Board(const v1::ConstrainedModel& m,
                         const std::vector<int64_t>& values) {
  v1::PuzzleSolution board;
  for (size_t v = 0; v < values.size(); ++v) {
    board.add_names(m.variables(v).name());
    board.add_cells(static_cast<int32_t>(values[v]));
  }
  return board;
}

// `m` compiled with no reduction, so that the QUBO keeps every bit of the
// encoding for enumeration and Encode.
absl::StatusOr<CompiledProblem> CompileUnreduced(
    const PuzzleCompiler& compiler, const v1::ConstrainedModel& m) {
  v1::CompileOptions options;
  options.set_reduction(v1::REDUCTION_NONE);
  return compiler.Compile(Spec(m), options);
}

class ModelEncodingTest : public ::testing::TestWithParam<v1::IntegerEncoding> {
};

TEST_P(ModelEncodingTest, GroundStateIsTheOptimum) {
  const v1::ConstrainedModel m = SmallModel(GetParam());
  const std::unique_ptr<PuzzleCompiler> compiler = NewModelCompiler();
  absl::StatusOr<CompiledProblem> problem = CompileUnreduced(*compiler, m);
  ASSERT_OK(problem.status());
  const Qubo& qubo = problem->full_model;
  ASSERT_LE(qubo.num_variables(), 22);
  double least = std::numeric_limits<double>::infinity();
  std::vector<uint8_t> best;
  std::vector<uint8_t> x(qubo.num_variables());
  for (uint64_t s = 0; s < (uint64_t{1} << x.size()); ++s) {
    for (size_t k = 0; k < x.size(); ++k) x[k] = (s >> k) & 1;
    const double e = qubo.Energy(x);
    if (e < least) {
      least = e;
      best = x;
    }
  }
  const double optimum = BestObjective(m);
  // Maximised: the energy is minus the objective.
  EXPECT_NEAR(least, -optimum, 1e-9);
  const v1::PuzzleSolution board = compiler->Decode(Spec(m), *problem, best);
  EXPECT_NEAR(board.objective(), optimum, 1e-9);
  absl::StatusOr<v1::ValidationReport> report =
      compiler->ValidateDecoded(Spec(m), *problem, board);
  ASSERT_OK(report.status());
  EXPECT_TRUE(report->valid());
  EXPECT_NEAR(report->objective(), optimum, 1e-9);
}

TEST_P(ModelEncodingTest, KnownOptimumScoresItsObjective) {
  const v1::ConstrainedModel m = SmallModel(GetParam());
  const std::unique_ptr<PuzzleCompiler> compiler = NewModelCompiler();
  absl::StatusOr<CompiledProblem> problem =
      compiler->Compile(Spec(m), v1::CompileOptions());
  ASSERT_OK(problem.status());
  // a = 0, b = 1, c = 0, d = 1, n = 3, s = +1: weight 6 <= 6, cover 1,
  // pair 1, pick 1; objective 2 + 1 + 6 + 1 + 1 = 11.
  const std::vector<int64_t> optimum = {0, 1, 0, 1, 3, 1};
  EXPECT_EQ(BestObjective(m), 11);
  absl::StatusOr<std::vector<uint8_t>> bits =
      compiler->Encode(Spec(m), *problem, Board(m, optimum));
  ASSERT_OK(bits.status());
  EXPECT_NEAR(FullEnergy(*problem, *bits), -11, 1e-9);
  const v1::PuzzleSolution board = compiler->Decode(Spec(m), *problem, *bits);
  EXPECT_EQ(std::vector<int32_t>(board.cells().begin(), board.cells().end()),
            (std::vector<int32_t>{0, 1, 0, 1, 3, 1}));
  EXPECT_EQ(board.names(4), "n");
  EXPECT_EQ(board.rows(4), "n=3");
  EXPECT_EQ(board.objective(), 11);
}

TEST_P(ModelEncodingTest, EachBrokenConstraintRaisesTheEnergy) {
  const v1::ConstrainedModel m = SmallModel(GetParam());
  const std::unique_ptr<PuzzleCompiler> compiler = NewModelCompiler();
  absl::StatusOr<CompiledProblem> problem = CompileUnreduced(*compiler, m);
  ASSERT_OK(problem.status());
  std::set<std::string> broken_alone;
  for (const auto& values : AllValues(m)) {
    const ModelScore score = ScoreModel(m, values);
    absl::StatusOr<std::vector<uint8_t>> bits =
        compiler->Encode(Spec(m), *problem, Board(m, values));
    ASSERT_OK(bits.status());
    const double energy = FullEnergy(*problem, *bits);
    if (score.violations.empty()) {
      EXPECT_NEAR(energy, -score.objective, 1e-9);
      continue;
    }
    // Broken: more than the objective alone, and above the optimum.
    EXPECT_GT(energy, -score.objective + 0.5);
    EXPECT_GT(energy, -BestObjective(m));
    if (score.violations.size() == 1)
      broken_alone.insert(score.violations[0].location());
  }
  EXPECT_EQ(broken_alone,
            (std::set<std::string>{"weight", "cover", "pair", "pick"}));
}

INSTANTIATE_TEST_SUITE_P(Encodings, ModelEncodingTest,
                         ::testing::Values(v1::INTEGER_ENCODING_ONE_HOT,
                                           v1::INTEGER_ENCODING_BINARY,
                                           v1::INTEGER_ENCODING_UNARY));

TEST(ModelCompilerTest, ValidateNamesBrokenConstraintsWithTheirAmounts) {
  const v1::ConstrainedModel m = SmallModel(v1::INTEGER_ENCODING_DEFAULT);
  const std::unique_ptr<PuzzleCompiler> compiler = NewModelCompiler();
  // weight: 2 + 3 + 4 + 3 = 12 > 6 by 6; pick: c + d = 2.
  absl::StatusOr<v1::ValidationReport> report =
      compiler->Validate(Spec(m), Board(m, {1, 1, 1, 1, 3, -1}));
  ASSERT_OK(report.status());
  EXPECT_FALSE(report->valid());
  ASSERT_EQ(report->violations_size(), 3);
  EXPECT_EQ(report->violations(0).location(), "weight");
  EXPECT_EQ(report->violations(0).rule(), "constraint");
  EXPECT_EQ(report->violations(0).amount(), 6);
  EXPECT_EQ(report->violations(1).location(), "pair");  // b c + d = 2
  EXPECT_EQ(report->violations(1).amount(), 1);
  EXPECT_EQ(report->violations(2).location(), "pick");
  EXPECT_EQ(report->objective(), 3 + 2 + 4 + 1 + 6 - 3 - 1 + 1);
  EXPECT_THAT(compiler->Validate(Spec(m), Board(m, {1, 1, 1, 1, 4, 1})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells[4]: 4 is outside")));
}

TEST(ModelCompilerTest, ReportsEveryStep) {
  const v1::ConstrainedModel m = SmallModel(v1::INTEGER_ENCODING_BINARY);
  absl::StatusOr<CompiledProblem> problem =
      NewModelCompiler()->Compile(Spec(m), v1::CompileOptions());
  ASSERT_OK(problem.status());
  ASSERT_TRUE(problem->model_report.has_value());
  const v1::ModelReport& r = *problem->model_report;
  EXPECT_EQ(r.variables(), 6u);
  EXPECT_EQ(r.constraints(), 4u);
  EXPECT_EQ(r.integer_bits(), 2u);  // n in [0, 3]: weights 1, 2
  EXPECT_EQ(r.integer_encoding(), v1::INTEGER_ENCODING_BINARY);
  // weight: slack 0..6; cover (a + b >= 1) is a clause, with none.
  EXPECT_EQ(r.slack_bits(), 3u);
  EXPECT_EQ(r.reduction_variables(), 1u);  // b c in "pair"
  EXPECT_EQ(r.one_hot_groups(), 1u);
  ASSERT_EQ(r.penalties_size(), 4);
  EXPECT_EQ(r.penalties(0).constraint(), "weight");
  EXPECT_EQ(r.penalties(0).rule(), "bound");
  EXPECT_EQ(r.format(), "structured");
  ASSERT_GE(problem->stages.size(), 3u);
  EXPECT_EQ(problem->stages[0].name, "model");
  EXPECT_EQ(problem->stages[0].variables, 4 + 2 + 1);
  EXPECT_EQ(CountBits(m), 4 + 2 + 1);
  EXPECT_EQ(CountBits(SmallModel(v1::INTEGER_ENCODING_ONE_HOT)), 4 + 4 + 1);
  EXPECT_EQ(CountBits(SmallModel(v1::INTEGER_ENCODING_UNARY)), 4 + 3 + 1);
  EXPECT_EQ(problem->stages[1].name, "penalties");
  EXPECT_EQ(problem->stages[1].variables, problem->full_model.num_variables());
}

TEST(ModelCompilerTest, PropagationFixesWhatTheConstraintsForce) {
  v1::ConstrainedModel m;
  for (const char* name : {"x", "y", "z"})
    AddVariable(m, name, v1::MODEL_VARIABLE_BINARY);
  AddTerm(m.mutable_objective(), 1, {0});
  AddTerm(m.mutable_objective(), -1, {2});
  // 5x + y <= 3 forces x = 0; y + z >= 2 forces both.
  v1::ModelConstraint* a = AddConstraint(m, "a", v1::CONSTRAINT_LESS_EQUAL, 3);
  AddTerm(a->mutable_lhs(), 5, {0});
  AddTerm(a->mutable_lhs(), 1, {1});
  v1::ModelConstraint* b =
      AddConstraint(m, "b", v1::CONSTRAINT_GREATER_EQUAL, 2);
  AddTerm(b->mutable_lhs(), 1, {1});
  AddTerm(b->mutable_lhs(), 1, {2});
  absl::StatusOr<CompiledProblem> problem =
      NewModelCompiler()->Compile(Spec(m), v1::CompileOptions());
  ASSERT_OK(problem.status());
  EXPECT_EQ(problem->model_report->fixed_by_propagation(), 3u);
  EXPECT_EQ(problem->stages.back().name, "propagation");
  EXPECT_EQ(problem->stages.back().fixed_zero, 1);
  EXPECT_EQ(problem->stages.back().fixed_one, 2);
}

TEST(ModelCompilerTest, RefusesBadModelsNamingTheField) {
  const std::unique_ptr<PuzzleCompiler> compiler = NewModelCompiler();
  v1::ConstrainedModel m = SmallModel(v1::INTEGER_ENCODING_DEFAULT);
  m.mutable_constraints(1)->mutable_lhs()->mutable_terms(0)->set_variables(0,
                                                                           9);
  EXPECT_THAT(compiler->Compile(Spec(m), {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("model.constraints[1].lhs.terms[0]."
                                 "variables[0]: 9 is not below 6")));
  m = SmallModel(v1::INTEGER_ENCODING_DEFAULT);
  m.mutable_variables(3)->set_name("a");
  EXPECT_THAT(compiler->Compile(Spec(m), {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("model.variables[3].name: 'a' is also")));
  m = SmallModel(v1::INTEGER_ENCODING_DEFAULT);
  m.mutable_variables(4)->set_lower(5);
  EXPECT_THAT(compiler->Compile(Spec(m), {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("model.variables[4]: lower 5 > upper 3")));
  m = SmallModel(v1::INTEGER_ENCODING_DEFAULT);
  m.mutable_one_hot(0)->set_variables(0, 4);
  EXPECT_THAT(compiler->Compile(Spec(m), {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("model.one_hot[0].variables[0]: 'n' is not "
                                 "binary")));
  m = SmallModel(v1::INTEGER_ENCODING_DEFAULT);
  m.mutable_constraints(2)->set_sense(v1::CONSTRAINT_SENSE_UNSPECIFIED);
  EXPECT_THAT(compiler->Compile(Spec(m), {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("model.constraints[2].sense")));
  m = SmallModel(v1::INTEGER_ENCODING_BINARY);
  m.mutable_variables(4)->set_upper(1000);  // n: 10 bits
  v1::ModelTerm* power = m.mutable_objective()->add_terms();
  power->set_coefficient(1);
  for (int k = 0; k < 7; ++k) power->add_variables(4);  // n^7: 11^7 > 2^20
  EXPECT_THAT(compiler->Compile(Spec(m), {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("model.objective.terms[7]: a product of "
                                 "integers that expands")));
  m = SmallModel(v1::INTEGER_ENCODING_DEFAULT);
  m.mutable_constraints(0)->set_penalty(-1);
  EXPECT_THAT(compiler->Compile(Spec(m), {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("model.constraints[0].penalty")));
}

TEST(ModelRulesTest, SatBoardsAreFeasibleAndScoreTheirObjective) {
  const v1::ConstrainedModel m = SmallModel(v1::INTEGER_ENCODING_BINARY);
  const std::unique_ptr<PuzzleCompiler> compiler = NewModelCompiler();
  absl::StatusOr<CompiledProblem> problem =
      compiler->Compile(Spec(m), v1::CompileOptions());
  ASSERT_OK(problem.status());
  const std::unique_ptr<RulesEncoder> rules = NewModelRulesEncoder();
  int boards = 0;
  absl::StatusOr<ExactSolveResult> solved = SolveRules(
      *rules, Spec(m), problem->full_model.num_variables(), 1000,
      [&](std::vector<uint8_t> full) {
        ++boards;
        const v1::PuzzleSolution board =
            compiler->Decode(Spec(m), *problem, full);
        absl::StatusOr<v1::ValidationReport> report =
            compiler->ValidateDecoded(Spec(m), *problem, board);
        ASSERT_OK(report.status());
        EXPECT_TRUE(report->valid());
        EXPECT_NEAR(FullEnergy(*problem, full), -board.objective(), 1e-9);
      });
  ASSERT_OK(solved.status());
  EXPECT_TRUE(solved->enumeration.complete);
  int feasible = 0;
  for (const auto& values : AllValues(m))
    feasible += ScoreModel(m, values).violations.empty();
  // Slack and auxiliary bits follow the model's, slack values written one
  // way (the top bit set when it can be): one board per feasible assignment.
  EXPECT_EQ(boards, feasible);
}

TEST(ModelRulesTest, SatProvesAContradictionInfeasible) {
  v1::ConstrainedModel m;
  AddVariable(m, "x", v1::MODEL_VARIABLE_BINARY);
  AddVariable(m, "y", v1::MODEL_VARIABLE_BINARY);
  AddVariable(m, "k", v1::MODEL_VARIABLE_INTEGER, 0, 5);
  v1::ModelConstraint* a = AddConstraint(m, "one", v1::CONSTRAINT_EQUAL, 1);
  AddTerm(a->mutable_lhs(), 1, {0});
  AddTerm(a->mutable_lhs(), 1, {1});
  v1::ModelConstraint* b =
      AddConstraint(m, "both", v1::CONSTRAINT_GREATER_EQUAL, 9);
  AddTerm(b->mutable_lhs(), 3, {0});
  AddTerm(b->mutable_lhs(), 3, {1});
  AddTerm(b->mutable_lhs(), 1, {2});
  absl::StatusOr<CompiledProblem> problem =
      NewModelCompiler()->Compile(Spec(m), v1::CompileOptions());
  ASSERT_OK(problem.status());
  absl::StatusOr<ExactSolveResult> solved =
      SolveRules(*NewModelRulesEncoder(), Spec(m),
                 problem->full_model.num_variables(), 1, [](auto) {});
  ASSERT_OK(solved.status());
  EXPECT_EQ(solved->enumeration.status, SatResult::kUnsatisfiable);
}

}  // namespace
}  // namespace qs
