// Constrained models through a running server and the qsolve binary: a TSP
// written as LP (one-hot per city and per step, quadratic objective) is
// solved by `auto` with no solver flag, and with its exact engines off, to
// the optimum that enumerating the tours gives, stopping at a target
// objective; the answer comes in the model's terms (feasible, objective,
// assignment by name, violations); an OPB knapsack is read by its
// extension; contradictory constraints end INFEASIBLE; a malformed LP is
// refused naming its line; compile reports each step and writes the model's
// linearized MILP.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "gtest/gtest.h"
#include "tests/testing/qsolve_runner.h"
#include "tests/testing/test_files.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

using testing::CommandResult;
using ::testing::HasSubstr;
using testing::LastJsonLine;
using testing::ReadFile;
using testing::RunQsolve;
using testing::TempFile;

// Distances of n cities on a small grid (integers, symmetric).
std::vector<std::vector<int>> Distances(int n) {
  std::vector<std::vector<int>> d(n, std::vector<int>(n));
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      const int xa = (a * 7) % 11, ya = (a * 5) % 7;
      const int xb = (b * 7) % 11, yb = (b * 5) % 7;
      d[a][b] = std::abs(xa - xb) + std::abs(ya - yb);
    }
  }
  return d;
}

// The TSP of `d` as LP: x_c_t = city c at step t.
std::string TspLp(const std::vector<std::vector<int>>& d) {
  const int n = static_cast<int>(d.size());
  std::string lp = "\\ a tour through every city\nMinimize\n obj: [";
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      for (int t = 0; t < n && a != b; ++t)
        absl::StrAppend(&lp, " + ", 2 * d[a][b], " x_", a, "_", t, " * x_", b,
                        "_", (t + 1) % n, "\n");
  lp += " ] / 2\nSubject To\n";
  for (int c = 0; c < n; ++c) {
    absl::StrAppend(&lp, " city", c, ":");
    for (int t = 0; t < n; ++t) absl::StrAppend(&lp, " + x_", c, "_", t);
    lp += " = 1\n";
  }
  for (int t = 0; t < n; ++t) {
    absl::StrAppend(&lp, " step", t, ":");
    for (int c = 0; c < n; ++c) absl::StrAppend(&lp, " + x_", c, "_", t);
    lp += " = 1\n";
  }
  lp += "Binary\n";
  for (int c = 0; c < n; ++c)
    for (int t = 0; t < n; ++t) absl::StrAppend(&lp, " x_", c, "_", t, "\n");
  return lp + "End\n";
}

int ShortestTour(const std::vector<std::vector<int>>& d) {
  std::vector<int> order(d.size());
  std::iota(order.begin(), order.end(), 0);
  int best = 1 << 30;
  do {
    int length = 0;
    for (size_t k = 0; k < order.size(); ++k)
      length += d[order[k]][order[(k + 1) % order.size()]];
    best = std::min(best, length);
  } while (std::next_permutation(order.begin() + 1, order.end()));
  return best;
}

const google::protobuf::Value& Field(const google::protobuf::Struct& s,
                                     const std::string& name) {
  static const google::protobuf::Value kMissing;
  const auto it = s.fields().find(name);
  EXPECT_NE(it, s.fields().end()) << name;
  return it == s.fields().end() ? kMissing : it->second;
}

class ModelServiceTest : public testing::SharedServerTest {};

TEST_F(ModelServiceTest, TspReachesTheShortestTourWithAndWithoutExactEngines) {
  const std::vector<std::vector<int>> d = Distances(6);
  const int shortest = ShortestTour(d);
  const std::string path = TempFile("tsp6.lp", TspLp(d));
  for (const char* exact : {"", " --auto_exact off"}) {
    SCOPED_TRACE(exact);
    const CommandResult r = RunQsolve(
        absl::StrCat("solve", Addr(), "--kind model --input-file ", path,
                     " --time_limit 20 --seed 5 --json --target_objective ",
                     shortest, exact));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const google::protobuf::Struct last = LastJsonLine(r.out);
    EXPECT_TRUE(Field(last, "feasible").bool_value());
    EXPECT_EQ(Field(last, "objective").number_value(), shortest);
    EXPECT_EQ(Field(last, "termination").string_value(), "TARGET_REACHED");
    EXPECT_EQ(Field(last, "violations").list_value().values_size(), 0);
    // The assignment names every variable, and is a tour of that length.
    const auto& assignment = Field(last, "assignment").struct_value().fields();
    ASSERT_EQ(assignment.size(), 36u);
    std::vector<int> city_at(6, -1);
    for (int c = 0; c < 6; ++c)
      for (int t = 0; t < 6; ++t)
        if (assignment.at(absl::StrCat("x_", c, "_", t)).number_value() == 1)
          city_at[t] = c;
    int length = 0;
    for (int t = 0; t < 6; ++t) {
      ASSERT_GE(city_at[t], 0);
      length += d[city_at[t]][city_at[(t + 1) % 6]];
    }
    EXPECT_EQ(length, shortest);
  }
}

TEST_F(ModelServiceTest, StructuredModelOverGrpcReportsEveryStep) {
  // maximize 5a + 4b + 3c + 2n subject to 4a + 3b + 2c + n <= 6, n in [0, 3].
  v1::SolveRequest request;
  v1::ConstrainedModel& m = *request.mutable_puzzle()->mutable_model();
  m.set_sense(v1::MAXIMIZE);
  for (const char* name : {"a", "b", "c"}) {
    v1::ModelVariable* v = m.add_variables();
    v->set_name(name);
  }
  v1::ModelVariable* n = m.add_variables();
  n->set_name("n");
  n->set_type(v1::MODEL_VARIABLE_INTEGER);
  n->set_upper(3);
  v1::ModelConstraint* weight = m.add_constraints();
  weight->set_name("weight");
  weight->set_sense(v1::CONSTRAINT_LESS_EQUAL);
  weight->set_rhs(6);
  const double value[] = {5, 4, 3, 2}, size[] = {4, 3, 2, 1};
  for (uint32_t v = 0; v < 4; ++v) {
    v1::ModelTerm* f = m.mutable_objective()->add_terms();
    f->set_coefficient(value[v]);
    f->add_variables(v);
    v1::ModelTerm* w = weight->mutable_lhs()->add_terms();
    w->set_coefficient(size[v]);
    w->add_variables(v);
  }
  request.mutable_params()->set_time_limit_seconds(10);
  request.mutable_params()->set_seed(3);
  const testing::SolveStream stream =
      testing::RunSolve(*server_->NewStub(), request);
  ASSERT_TRUE(stream.status.ok()) << stream.status.error_message();
  const v1::CompileStats& stats = stream.events.front().header().stats();
  EXPECT_EQ(stats.puzzle_kind(), "model");
  ASSERT_TRUE(stats.has_model());
  EXPECT_EQ(stats.model().format(), "structured");
  EXPECT_EQ(stats.model().slack_bits(), 3u);     // 0..6
  ASSERT_EQ(stats.model().penalties_size(), 2);  // weight, n's one-hot
  EXPECT_EQ(stats.model().penalties(0).constraint(), "weight");
  const v1::SolveSummary* summary = stream.summary();
  ASSERT_NE(summary, nullptr);
  // Best: b + c + n = 1 (3 + 2 + 1 = 6): 4 + 3 + 2 = 9; a + c: 5 + 3 = 8 at
  // 6; a + n = 2: 5 + 4 = 9 at 6; b + n = 3: 4 + 6 = 10 at 6.
  EXPECT_TRUE(summary->best_valid());
  EXPECT_EQ(summary->objective(), 10);
  EXPECT_EQ(summary->best_solution().names_size(), 4);
  EXPECT_EQ(summary->best_solution().cells(3), 3);
  // The model's whole answer streams in the model's terms.
  EXPECT_EQ(summary->best_solution().objective(), 10);
}

TEST_F(ModelServiceTest, OpbIsReadByItsExtensionAndKeepsItsNames) {
  const std::string path = TempFile("knapsack.opb",
                                    "* #variable= 4 #constraint= 1\n"
                                    "min: -5 x1 -4 x2 -3 x3 -2 x4 +1 x1 x2 ;\n"
                                    "+4 x1 +3 x2 +2 x3 +1 x4 <= 6 ;\n");
  const CommandResult r =
      RunQsolve(absl::StrCat("solve", Addr(), "--kind model --input-file ",
                             path, " --time_limit 10 --seed 1 --json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const google::protobuf::Struct last = LastJsonLine(r.out);
  EXPECT_TRUE(Field(last, "feasible").bool_value());
  // x1 + x3 (8 at 6) or x2 + x3 + x4 (9 at 6): -9.
  EXPECT_EQ(Field(last, "objective").number_value(), -9);
  const auto& assignment = Field(last, "assignment").struct_value().fields();
  for (const char* name : {"x1", "x2", "x3", "x4"})
    EXPECT_TRUE(assignment.contains(name)) << name;
}

TEST_F(ModelServiceTest, SatBoundsTheObjectiveUntilTheOptimumIsProven) {
  // docs/examples/knapsack.lp: a, c and e (value 26) is the only optimum.
  const CommandResult r = RunQsolve(absl::StrCat(
      "solve", Addr(), "--kind model --input-file ", testing::SourceDir(),
      "/docs/examples/knapsack.lp --backend sat --json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const google::protobuf::Struct last = LastJsonLine(r.out);
  EXPECT_TRUE(Field(last, "feasible").bool_value());
  EXPECT_EQ(Field(last, "objective").number_value(), 26);
  EXPECT_EQ(Field(last, "exact_status").string_value(), "SATISFIABLE");
  // Each solve found a better board until none was left: at least one.
  EXPECT_GE(Field(last, "solutions_found").number_value(), 1);
  EXPECT_FALSE(Field(last, "unique").bool_value());
  // Its energy is its objective (maximised: the energy is minus it).
  EXPECT_EQ(Field(last, "energy").number_value(), -26);
}

TEST_F(ModelServiceTest, ContradictoryConstraintsEndInfeasible) {
  const std::string path = TempFile("contradiction.lp",
                                    "Maximize\n x + y + z\n"
                                    "Subject To\n"
                                    " pick: x + y = 1\n"
                                    " both: x + y >= 2\n"
                                    "Binary\n x y z\nEnd\n");
  const CommandResult r =
      RunQsolve(absl::StrCat("solve", Addr(), "--kind model --input-file ",
                             path, " --time_limit 10 --json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const google::protobuf::Struct last = LastJsonLine(r.out);
  EXPECT_EQ(Field(last, "termination").string_value(), "INFEASIBLE");
  EXPECT_FALSE(Field(last, "feasible").bool_value());
  // The QUBO samplers alone cannot prove it: the least violated answer.
  const CommandResult samplers =
      RunQsolve(absl::StrCat("solve", Addr(), "--kind model --input-file ",
                             path, " --time_limit 2 --auto_exact off --json"));
  ASSERT_EQ(samplers.exit_code, 0) << samplers.err;
  const google::protobuf::Struct least = LastJsonLine(samplers.out);
  EXPECT_FALSE(Field(least, "feasible").bool_value());
  EXPECT_EQ(Field(least, "violations").list_value().values_size(), 1);
}

TEST_F(ModelServiceTest, MalformedLpIsRefusedNamingItsLine) {
  const std::string path = TempFile("bad.lp",
                                    "Minimize\n x + y\n"
                                    "Subject To\n"
                                    " c1: x + y 3\n"
                                    "Binary\n x y\nEnd\n");
  const CommandResult r = RunQsolve(
      absl::StrCat("solve", Addr(), "--kind model --input-file ", path));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("line 4"));
  // Over gRPC as text: INVALID_ARGUMENT naming the line too.
  v1::SolveRequest request;
  request.mutable_puzzle()->mutable_model()->set_text(
      "Minimize\n x + y\nSubject To\n c1: x + y 3\nBinary\n x y\nEnd\n");
  request.mutable_puzzle()->mutable_model()->set_format(v1::MODEL_FORMAT_LP);
  const testing::SolveStream stream =
      testing::RunSolve(*server_->NewStub(), request);
  EXPECT_EQ(stream.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(stream.status.error_message(), HasSubstr("lp line 4"));
}

TEST_F(ModelServiceTest, CompileWritesTheModelAndItsLinearizedMilp) {
  const std::string path =
      TempFile("quad.lp",
               "Maximize\n obj: 3 a + 2 b + [ 4 a * b ] / 2\n"
               "Subject To\n cap: a + b + c <= 2\n"
               "Binary\n a b c\nEnd\n");
  const std::string milp = absl::StrCat(::testing::TempDir(), "/quad_milp.lp");
  const std::string opb = absl::StrCat(::testing::TempDir(), "/quad.opb");
  const CommandResult r = RunQsolve(absl::StrCat(
      "compile", Addr(), "--kind model --input-file ", path, " --export_milp ",
      milp, " --export_model ", opb, " --json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const google::protobuf::Struct last = LastJsonLine(r.out);
  const auto& model = Field(last, "model").struct_value().fields();
  EXPECT_EQ(model.at("format").string_value(), "lp");
  // a + b + c <= 2 says "not all three": a clause, no slack bits.
  EXPECT_FALSE(model.contains("slack_bits"));
  EXPECT_EQ(model.at("penalties").list_value().values_size(), 1);
  const std::string text = ReadFile(milp);
  // The product a b is a new binary with its three linking rows.
  EXPECT_THAT(text, HasSubstr("obj: 3 a + 2 b + 2 y_a_b"));
  EXPECT_THAT(text, HasSubstr("y_a_b_ge: a + b - y_a_b <= 1"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("[")));  // linear
  EXPECT_THAT(ReadFile(opb), HasSubstr("max:"));
  // The written OPB reads back to the same optimum: a + b (3 + 2 + 2 = 7).
  const CommandResult again =
      RunQsolve(absl::StrCat("solve", Addr(), "--kind model --input-file ", opb,
                             " --time_limit 5 --json"));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(Field(LastJsonLine(again.out), "objective").number_value(), 7);
}

}  // namespace
}  // namespace qs
