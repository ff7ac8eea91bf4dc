// The qsolve binary against an in-process server: the scripting contract of the
// docs/cli.md (exit codes, the last JSON line of `solve --json`, the fields of
// `compile --json`, --export), for the sudoku and qubo kinds.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/testing/nyt_puzzle.h"
#include "tests/testing/qsolve_runner.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

using ::testing::HasSubstr;

using testing::CommandResult;
using testing::LastJsonLine;
using testing::RunQsolve;

class CliTest : public testing::SharedServerTest {
 protected:
  // The backend that answered a 6-queens `qsolve solve` with these flags.
  std::string BackendFor(const std::string& flags) {
    const CommandResult result = RunQsolve(absl::StrCat(
        "solve", Addr(), "--kind nqueens --input 6 --json ", flags));
    EXPECT_EQ(result.exit_code, 0) << result.err;
    if (result.exit_code != 0) return "";
    return LastJsonLine(result.out).fields().at("backend").string_value();
  }
};

TEST_F(CliTest, Health) {
  const CommandResult result = RunQsolve("health" + Addr());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("SERVING"));
  const CommandResult down =
      RunQsolve("health --addr 127.0.0.1:1 --deadline 2");
  EXPECT_NE(down.exit_code, 0);
  EXPECT_THAT(down.err, HasSubstr("UNAVAILABLE"));
}

// Without a server at --addr (a bare `qsolve solve`, whose default address has
// none) the status keeps its name and exit code, and a line after it says how
// to start a server there or where to point --addr: gRPC's own message names
// neither. Both ways an RPC error is reported take it: the call's own status
// (health, families) and one met while reading the puzzle (solve's Parse).
TEST_F(CliTest, UnreachableServerSaysHowToStartOne) {
  for (const std::string& command :
       {std::string("health"), std::string("families"),
        absl::StrCat("solve --kind sudoku --input '", testing::kNytPuzzle, "'"),
        std::string("compile --kind nqueens --input 6")}) {
    SCOPED_TRACE(command);
    const CommandResult down =
        RunQsolve(absl::StrCat(command, " --addr 127.0.0.1:1 --deadline 2"));
    EXPECT_EQ(down.exit_code, 1);
    EXPECT_THAT(down.err, ::testing::StartsWith("UNAVAILABLE: "));
    EXPECT_THAT(down.err,
                HasSubstr("build/server/qs_server --address=127.0.0.1:1"));
    EXPECT_THAT(down.err, HasSubstr("--addr HOST:PORT"));
  }
}

TEST_F(CliTest, SolveJsonFollowsTheContract) {
  const CommandResult result = RunQsolve(absl::StrCat(
      "solve", Addr(), "--kind sudoku --input '", testing::kNytPuzzle,
      "' --backend cpu-sa --reads 3000 --sweeps 3000 --beta_hot 1 --seed 2024 "
      "--stop_at_first_valid --json"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const google::protobuf::Struct summary = LastJsonLine(result.out);
  const auto& f = summary.fields();
  ASSERT_TRUE(f.contains("valid") && f.contains("energy") &&
              f.contains("board") && f.contains("violations"));
  EXPECT_TRUE(f.at("valid").bool_value());
  EXPECT_EQ(f.at("energy").number_value(), -81);
  EXPECT_EQ(f.at("ground_energy").number_value(), -81);
  const auto& board = f.at("board").list_value();
  ASSERT_EQ(board.values_size(), 9);
  std::string grid;
  for (const auto& row : board.values()) grid += row.string_value();
  EXPECT_EQ(grid, testing::kNytSolution);
  EXPECT_EQ(f.at("violations").list_value().values_size(), 0);
  // Every earlier line is one protobuf-JSON stream event.
  EXPECT_THAT(result.out, HasSubstr("{\"header\":"));
  EXPECT_THAT(result.out, HasSubstr("{\"summary\":"));
}

// No solver flags: the server's default backend, auto, answers and the JSON
// line names the raced backend whose board it is; --auto_exact off keeps the
// board to the QUBO samplers.
TEST_F(CliTest, SolveWithNoSolverFlagsRunsAuto) {
  const CommandResult result =
      RunQsolve(absl::StrCat("solve", Addr(), "--kind sudoku --input '",
                             testing::kNytPuzzle, "' --json"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto fields = LastJsonLine(result.out).fields();
  EXPECT_TRUE(fields.at("valid").bool_value());
  EXPECT_EQ(fields.at("backend").string_value(), "auto");
  EXPECT_THAT((std::vector<std::string>{"sat", "pt"}),
              ::testing::Contains(fields.at("solved_by").string_value()));
  const CommandResult off =
      RunQsolve(absl::StrCat("solve", Addr(), "--kind sudoku --input '",
                             testing::kNytPuzzle, "' --auto_exact off --json"));
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_EQ(LastJsonLine(off.out).fields().at("solved_by").string_value(),
            "pt");
  const CommandResult bad = RunQsolve(
      absl::StrCat("solve", Addr(), "--kind nqueens --input 6 --auto_exact x"));
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_THAT(bad.err, HasSubstr("--auto_exact"));
  const CommandResult other = RunQsolve(
      absl::StrCat("solve", Addr(),
                   "--kind nqueens --input 6 --backend tabu --auto_exact off"));
  EXPECT_NE(other.exit_code, 0);
  EXPECT_THAT(other.err, HasSubstr("--auto_exact: TabuParams has no field"));
  // A cpu-sa flag without --backend runs cpu-sa, as before auto.
  EXPECT_EQ(BackendFor("--beta_hot 1"), "cpu-sa");
}

// The header line says what runs: a sampler's reads and sweeps; under auto,
// which sizes its racers' rounds itself, no reads or sweeps (the end says
// what ran: solved by, the raced backends).
TEST_F(CliTest, HeaderLineDescribesWhatRuns) {
  const CommandResult automatic =
      RunQsolve(absl::StrCat("solve", Addr(), "--kind nqueens --input 6"));
  ASSERT_EQ(automatic.exit_code, 0) << automatic.err;
  EXPECT_THAT(automatic.out,
              HasSubstr("backend auto (sizes its own rounds; what ran is "
                        "listed at the end), seed "));
  EXPECT_THAT(automatic.out, ::testing::Not(HasSubstr(" sweeps")));
  EXPECT_THAT(automatic.out, HasSubstr("solved by "));
  // The backends auto raced, by name (a repeated message with a name).
  EXPECT_THAT(automatic.out, ::testing::ContainsRegex("auto\\.raced \\[[a-z]"));
  const CommandResult sampler = RunQsolve(
      absl::StrCat("solve", Addr(),
                   "--kind nqueens --input 6 --backend cpu-sa --reads 4 "
                   "--sweeps 100 --seed 7"));
  ASSERT_EQ(sampler.exit_code, 0) << sampler.err;
  EXPECT_THAT(sampler.out,
              HasSubstr("backend cpu-sa, 4 reads x 100 sweeps, seed 7\n"));
}

TEST_F(CliTest, AnnealerFlagsReachTheBackend) {
  const CommandResult result = RunQsolve(absl::StrCat(
      "solve", Addr(),
      "--kind nqueens --input 6 --backend cpu-sa --reads 4 --sweeps 100 ",
      "--beta_range dwave --kernel scalar --acceptance gibbs ",
      "--sweeps_per_beta 2 --schedule linear --seed 7 --json"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("\"beta_range\":\"BETA_RANGE_DWAVE\""));
  EXPECT_THAT(result.out, HasSubstr("\"kernel\":\"scalar\""));
  EXPECT_THAT(result.out, HasSubstr("\"acceptance\":\"GIBBS\""));
  EXPECT_THAT(result.out, HasSubstr("\"sweeps_per_beta\":2"));
  EXPECT_THAT(result.out, HasSubstr("\"schedule\":\"LINEAR\""));

  const CommandResult bad = RunQsolve(
      absl::StrCat("solve", Addr(), "--kind nqueens --input 6 --kernel avx9"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--kernel"));
  EXPECT_THAT(bad.err, HasSubstr("avx9"));
}

TEST_F(CliTest, ParallelTemperingSolvesASoloGameIdWithItsFlags) {
  // A Sudoku as `sgt-solo --generate` prints it (the NYT puzzle's clues).
  const CommandResult result = RunQsolve(absl::StrCat(
      "solve", Addr(),
      "--kind sudoku --input "
      "3x3:g2e9b4d3a2b7_6a5_1d8c7a5_1c3a2d5a9b7c3a8e9c4b6_5b "
      "--backend pt --replicas 16 --moves one_hot_swap --stop_at_first_valid "
      "--reads 4 --seed 3 --json"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const google::protobuf::Struct summary = LastJsonLine(result.out);
  EXPECT_TRUE(summary.fields().at("valid").bool_value()) << result.out;
  EXPECT_EQ(summary.fields().at("backend").string_value(), "pt");
  EXPECT_THAT(result.out, HasSubstr("\"moves\":\"single-flip+one-hot-swap\""));
  EXPECT_THAT(result.out, HasSubstr("\"replicas\":16"));
  EXPECT_THAT(result.out, HasSubstr("\"exchange_rates\":["));

  const CommandResult bad = RunQsolve(
      absl::StrCat("solve", Addr(),
                   "--kind nqueens --input 6 --backend pt --schedule linear"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--schedule: PtParams has no field"));
  // A parameter only pt has, without --backend, runs pt.
  EXPECT_EQ(BackendFor("--replicas 8"), "pt");
}

TEST_F(CliTest, UnsolvedBoardStillExitsZero) {
  const CommandResult result = RunQsolve(absl::StrCat(
      "solve", Addr(), "--kind sudoku --input '", testing::kNytPuzzle,
      "' --backend cpu-sa --reads 2 --sweeps 1 --seed 1 --json"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const google::protobuf::Struct summary = LastJsonLine(result.out);
  EXPECT_FALSE(summary.fields().at("valid").bool_value());
  EXPECT_GT(summary.fields().at("violations").list_value().values_size(), 0);
}

TEST_F(CliTest, CompileJsonAndExport) {
  const std::string export_path =
      absl::StrCat(::testing::TempDir(), "/nyt_full_", getpid(), ".qubo");
  const CommandResult full = RunQsolve(absl::StrCat(
      "compile", Addr(), "--kind sudoku --input '", testing::kNytPuzzle,
      "' --reduction full --json --export ", export_path));
  ASSERT_EQ(full.exit_code, 0) << full.err;
  const google::protobuf::Struct stats = LastJsonLine(full.out);
  EXPECT_EQ(stats.fields().at("variables").number_value(), 211);
  EXPECT_EQ(stats.fields().at("variables_total").number_value(), 729);
  EXPECT_EQ(stats.fields().at("couplers").number_value(), 1125);
  EXPECT_EQ(stats.fields().at("ground_energy").number_value(), -81);
  std::ifstream exported(export_path);
  std::string header;
  std::getline(exported, header);
  EXPECT_EQ(header,
            "211 1336 -24");  // as tests/data/instances/sudoku_nyt_I_IV.qubo

  const CommandResult clues =
      RunQsolve(absl::StrCat("compile", Addr(),
                             "--kind sudoku --input-file /dev/stdin "
                             "--reduction clues --json"),
                testing::kNytPuzzle);
  ASSERT_EQ(clues.exit_code, 0) << clues.err;
  EXPECT_EQ(LastJsonLine(clues.out).fields().at("variables").number_value(),
            513);

  // The exported model reads back as a raw QUBO with the clamping offset: no
  // energy below -81.
  const CommandResult raw = RunQsolve(
      absl::StrCat("solve", Addr(), "--kind qubo --input-file ", export_path,
                   " --reads 20 --sweeps 500 --seed 5 --json --max_samples 1"));
  ASSERT_EQ(raw.exit_code, 0) << raw.err;
  const google::protobuf::Struct raw_summary = LastJsonLine(raw.out);
  EXPECT_TRUE(raw_summary.fields().at("ground_energy").has_null_value());
  EXPECT_GE(raw_summary.fields().at("energy").number_value(), -81);
  EXPECT_EQ(raw_summary.fields().at("variables").number_value(), 211);
}

TEST_F(CliTest, QuboKindFromFile) {
  const CommandResult result = RunQsolve(absl::StrCat(
      "solve", Addr(), "--kind qubo --input-file ", testing::SourceDir(),
      "/tests/data/qubo/frustrated_triangle.qubo --reads 10 --seed 3 --json"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const google::protobuf::Struct summary = LastJsonLine(result.out);
  EXPECT_EQ(summary.fields().at("energy").number_value(), -1);
  ASSERT_EQ(summary.fields().at("board").list_value().values_size(), 1);
  const std::string bits =
      summary.fields().at("board").list_value().values(0).string_value();
  EXPECT_EQ(std::count(bits.begin(), bits.end(), '1'), 1);
}

TEST_F(CliTest, ErrorsNameTheStatus) {
  const CommandResult local =
      RunQsolve(absl::StrCat("solve", Addr(), "--kind sudoku --input '123'"));
  EXPECT_EQ(local.exit_code, 2);
  EXPECT_THAT(local.err, HasSubstr("INVALID_ARGUMENT"));
  const CommandResult remote =
      RunQsolve(absl::StrCat("solve", Addr(), "--kind sudoku --input '",
                             testing::kNytPuzzle, "' --reads 0"));
  EXPECT_EQ(remote.exit_code, 1);
  EXPECT_THAT(remote.err, HasSubstr("INVALID_ARGUMENT: params.num_reads"));
  const CommandResult kind =
      RunQsolve(absl::StrCat("solve", Addr(), "--kind chessboard --input x"));
  EXPECT_NE(kind.exit_code, 0);
  EXPECT_THAT(kind.err, HasSubstr("unknown puzzle kind"));
  const CommandResult usage = RunQsolve("frobnicate");
  EXPECT_EQ(usage.exit_code, 2);
}

TEST_F(CliTest, ValidateBoard) {
  const std::string board = testing::kNytSolution;
  const CommandResult ok =
      RunQsolve(absl::StrCat("validate", Addr(), "--kind sudoku --input '",
                             testing::kNytPuzzle, "' --board '", board, "'"));
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_THAT(ok.out, HasSubstr("VALID (energy -81)"));
  std::string broken = board;
  broken[2] = '9';
  const CommandResult bad =
      RunQsolve(absl::StrCat("validate", Addr(), "--kind sudoku --input '",
                             testing::kNytPuzzle, "' --board '", broken, "'"));
  ASSERT_EQ(bad.exit_code, 0) << bad.err;
  EXPECT_THAT(bad.out, HasSubstr("NOT VALID"));
  EXPECT_THAT(bad.out, HasSubstr("row 1"));
}

// Takuzu and Tango ([Mata Ali & Mencia 2025]): an Unruly game ID as sgt-unruly
// prints it and a signed Tango puzzle (both from tests/data/takuzu/puzzles.txt)
// solve to their solutions, with the board as rows of 0 and 1; compile lists
// the reduction stages; validate applies the uniqueness rule of Takuzu only.
TEST_F(CliTest, TakuzuAndTangoKinds) {
  struct Case {
    const char* kind;
    const char* input;
    std::vector<std::string> solution;
  };
  const Case cases[] = {
      {"takuzu",
       "6x6:AcfECaeDGb",
       {"101001", "110010", "001101", "011010", "100101", "010110"}},
      {"tango",
       "..1..1/....=./.0..../....../....x../....../.x.1.../....../.1=...0/"
       "....../......",
       {"001011", "100110", "010101", "101001", "011010", "110100"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.kind);
    const CommandResult solved = RunQsolve(absl::StrCat(
        "solve", Addr(), "--kind ", c.kind, " --input '", c.input,
        "' --reads 256 --sweeps 200 --seed 7 --stop_at_first_valid --json"));
    ASSERT_EQ(solved.exit_code, 0) << solved.err;
    const google::protobuf::Struct summary = LastJsonLine(solved.out);
    const auto& f = summary.fields();
    EXPECT_TRUE(f.at("valid").bool_value());
    EXPECT_EQ(f.at("energy").number_value(), 12);  // (NM - N - M) / 2
    EXPECT_EQ(f.at("ground_energy").number_value(), 12);
    std::vector<std::string> board;
    for (const auto& row : f.at("board").list_value().values())
      board.push_back(row.string_value());
    EXPECT_EQ(board, c.solution);

    const CommandResult compiled =
        RunQsolve(absl::StrCat("compile", Addr(), "--kind ", c.kind,
                               " --input '", c.input, "' --json"));
    ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
    const google::protobuf::Struct stats = LastJsonLine(compiled.out);
    EXPECT_EQ(stats.fields().at("variables_total").number_value(), 36);
    const auto& stages = stats.fields().at("stages").list_value();
    ASSERT_GE(stages.values_size(), 6);
    EXPECT_EQ(
        stages.values(1).struct_value().fields().at("name").string_value(),
        "givens");

    const CommandResult valid = RunQsolve(absl::StrCat(
        "validate", Addr(), "--kind ", c.kind, " --input '", c.input,
        "' --board '", absl::StrJoin(c.solution, "/"), "'"));
    ASSERT_EQ(valid.exit_code, 0) << valid.err;
    EXPECT_THAT(valid.out, HasSubstr("VALID (energy 12)"));
  }
  // A 0/1/. grid follows the Takuzu rules: equal rows are a violation.
  const CommandResult repeated = RunQsolve(absl::StrCat(
      "validate", Addr(),
      "--kind takuzu --input '....../....../....../....../....../......' "
      "--board '011001/100110/010101/011001/100110/101010'"));
  ASSERT_EQ(repeated.exit_code, 0) << repeated.err;
  EXPECT_THAT(repeated.out, HasSubstr("NOT VALID"));
  EXPECT_THAT(repeated.out, HasSubstr("rows 1 and 4"));
}

}  // namespace
}  // namespace qs
