// The "qaoa" backend and the OpenQASM export through a running server: Solve
// over loopback gRPC on a stored Tango puzzle (tests/data/takuzu) with
// optimised angles finds its solution among the samples; Compile returns the
// circuit; and the qsolve contract: `compile --export-qasm FILE` with
// --qasm_version and angles, `solve --backend qaoa --json` whose last line
// carries qaoa_expectation.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "formats/puzzle_text.h"
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

// tango-6x6-14 of tests/data/takuzu/puzzles.txt (14 variables after the
// reduction) and its solution.
constexpr char kTango[] =
    "..0.../....../...=.../...x../.=.0.../.....=/.....x./....../.0.x.../"
    "=.x.../...1..";
const std::vector<std::string> kSolution = {"010011", "001101", "110010",
                                            "011010", "100101", "101100"};

class QaoaServiceTest : public testing::SharedServerTest {
 protected:
  static v1::PuzzleSpec Tango() {
    auto spec = formats::ParsePuzzleText("tango", kTango);
    EXPECT_TRUE(spec.ok()) << spec.status();
    return *spec;
  }
};

TEST_F(QaoaServiceTest, SolveFindsTheTangoSolutionWithOptimisedAngles) {
  v1::SolveRequest request;
  *request.mutable_puzzle() = Tango();
  request.mutable_params()->set_backend("qaoa");
  request.mutable_params()->set_num_reads(1000);
  request.mutable_params()->set_seed(11);
  request.mutable_params()->mutable_qaoa()->set_layers(3);
  auto stub = server_->NewStub();
  grpc::ClientContext context;
  auto reader = stub->Solve(&context, request);
  v1::SolveResponse event;
  v1::SolveSummary summary;
  v1::SolveHeader header;
  while (reader->Read(&event)) {
    if (event.has_header()) header = event.header();
    if (event.has_summary()) summary = event.summary();
  }
  const grpc::Status status = reader->Finish();
  ASSERT_TRUE(status.ok()) << status.error_message();
  const v1::QaoaInfo& info = summary.backend().qaoa();
  EXPECT_EQ(info.qubits(), header.stats().variables());
  EXPECT_EQ(info.layers(), 3u);
  EXPECT_GT(info.trace_size(), 1);
  // <C> of any state is at least the ground energy.
  EXPECT_GE(info.expectation(), summary.ground_energy() - 1e-9);
  EXPECT_GT(info.ground_probability(), 0);
  EXPECT_EQ(summary.reads_done(), 1000u);
  ASSERT_TRUE(summary.best_valid());
  EXPECT_EQ(std::vector<std::string>(summary.best_solution().rows().begin(),
                                     summary.best_solution().rows().end()),
            kSolution);
}

TEST_F(QaoaServiceTest, CompileReturnsTheCircuit) {
  v1::CompileRequest request;
  *request.mutable_puzzle() = Tango();
  request.mutable_options()->mutable_qaoa_circuit()->set_qasm_version(3);
  auto stub = server_->NewStub();
  grpc::ClientContext context;
  v1::CompileResponse response;
  const grpc::Status status = stub->Compile(&context, request, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_TRUE(absl::StartsWith(response.qasm(), "OPENQASM 3.0;"));
  EXPECT_EQ(response.stats().qaoa_qubits(), response.stats().variables());
  EXPECT_EQ(response.stats().qaoa_layers(), 5u);  // the default
  EXPECT_THAT(
      response.qasm(),
      HasSubstr(absl::StrCat("qubit[", response.stats().variables(), "] q;")));
}

TEST_F(QaoaServiceTest, CliExportsQasmAndReportsTheExpectation) {
  const std::string dir = ::testing::TempDir();
  const std::string qasm = dir + "/tango.qasm", qubo = dir + "/tango.txt";
  const CommandResult compiled = RunQsolve(absl::StrCat(
      "compile", Addr(), "--kind tango --input '", kTango, "' --export ", qubo,
      " --export-qasm ", qasm,
      " --qasm_version 2 --qaoa_layers 2 --gammas 0.1,0.2 --betas 0.4,0.3 "
      "--json"));
  ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
  const google::protobuf::Struct stats = LastJsonLine(compiled.out);
  const int variables =
      static_cast<int>(stats.fields().at("variables").number_value());
  EXPECT_EQ(stats.fields().at("qaoa_qubits").number_value(), variables);
  EXPECT_EQ(stats.fields().at("qaoa_layers").number_value(), 2);
  const std::string text = ReadFile(qasm);
  EXPECT_TRUE(absl::StartsWith(text, "OPENQASM 2.0;\ninclude \"qelib1.inc\";"));
  EXPECT_THAT(text, HasSubstr(absl::StrCat("qreg q[", variables, "];")));
  EXPECT_THAT(text, HasSubstr("rx(0.80000000000000004) q[0];"));
  EXPECT_THAT(text, HasSubstr("measure q -> c;"));
  // The QUBO export over the same variables q[0..n-1].
  EXPECT_THAT(ReadFile(qubo), HasSubstr(absl::StrCat(variables)));

  const CommandResult solved = RunQsolve(absl::StrCat(
      "solve", Addr(), "--kind tango --input '", kTango,
      "' --backend qaoa --qaoa_layers 2 --gammas 0.1,0.2 --betas 0.4,0.3 "
      "--reads 50 --seed 3 --json"));
  ASSERT_EQ(solved.exit_code, 0) << solved.err;
  const google::protobuf::Struct summary = LastJsonLine(solved.out);
  ASSERT_TRUE(summary.fields().contains("qaoa_expectation"));
  const double expectation =
      summary.fields().at("qaoa_expectation").number_value();
  EXPECT_GE(expectation, 12 - 1e-9);  // the ground energy of Tango 6x6
  // Given angles: no optimisation ran, the trace of the optimiser is empty.
  EXPECT_EQ(summary.fields()
                .at("qaoa")
                .struct_value()
                .fields()
                .at("trace")
                .list_value()
                .values_size(),
            0);
  EXPECT_THAT(solved.out, HasSubstr("\"qaoa\":{\"layers\":2"));

  const CommandResult bad =
      RunQsolve(absl::StrCat("solve", Addr(), "--kind tango --input '", kTango,
                             "' --backend qaoa --gammas 0.1 --betas 0.4,0.3"));
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_THAT(bad.err, HasSubstr("params.qaoa.betas"));
}

}  // namespace
}  // namespace qs
