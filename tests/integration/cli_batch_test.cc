// `qsolve batch` against in-process servers: one JSON line per input id with
// docs/cli.md's fields, local errors for bad lines, retries of items a full
// server turns away (UNAVAILABLE), round-robin targets, and the exit codes
// when no server answers or the batch deadline passes.
#include <unistd.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
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
using testing::RunQsolve;

std::string TempPath(const std::string& name) {
  static int calls = 0;
  return absl::StrCat(::testing::TempDir(), "/cli_batch_", getpid(), "_",
                      ++calls, "_", name);
}

std::string WriteBatch(const std::string& content) {
  const std::string path = TempPath("batch.txt");
  std::ofstream(path) << content;
  return path;
}

// id -> the result object; fails the test on a repeated id.
std::map<std::string, google::protobuf::Struct> ResultsById(
    const std::string& out) {
  std::map<std::string, google::protobuf::Struct> results;
  for (absl::string_view line : absl::StrSplit(out, '\n', absl::SkipEmpty())) {
    google::protobuf::Struct value;
    EXPECT_TRUE(
        google::protobuf::util::JsonStringToMessage(std::string(line), &value)
            .ok())
        << line;
    const std::string id = value.fields().at("id").string_value();
    EXPECT_EQ(results.count(id), 0u) << "two results for " << id;
    results[id] = value;
  }
  return results;
}

std::string Field(const google::protobuf::Struct& s, const std::string& key) {
  auto it = s.fields().find(key);
  return it == s.fields().end() ? "" : it->second.string_value();
}

double Number(const google::protobuf::Struct& s, const std::string& key) {
  auto it = s.fields().find(key);
  return it == s.fields().end() ? -1 : it->second.number_value();
}

// The NYT solution with every k-th cell (from `shift`) blanked.
std::string EasySudoku(int k, int shift) {
  std::string grid = testing::kNytSolution;
  for (size_t cell = shift % k; cell < grid.size(); cell += k) grid[cell] = '.';
  return grid;
}

TEST(CliBatchTest, OneLinePerIdAcrossTwoServers) {
  server::ServerOptions a_options, b_options;
  a_options.instance_name = "server-a";
  b_options.instance_name = "server-b";
  auto a = testing::TestServer::Start(a_options, /*with_metrics=*/false);
  auto b = testing::TestServer::Start(b_options, /*with_metrics=*/false);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  std::string content = "# mixed kinds, with and without ids\n";
  for (int k = 0; k < 8; ++k)
    absl::StrAppend(&content, "s", k, "\tsudoku\t", EasySudoku(4, k), "\n");
  absl::StrAppend(&content, "nqueens 6\n");  // id: its line number, 10
  absl::StrAppend(&content, "q8 queens ",
                  "ACCCDDDD/AACCDDDH/AACCCGDD/AFFFFGGD/GFFFGGDD/GGFFGGBB/"
                  "EGGFGBBB/GGGGGBBB\n");
  absl::StrAppend(&content, "bad\tsudoku\t12345\n");
  absl::StrAppend(&content, "unknown\tchess-ish\t8\n");
  const CommandResult run = RunQsolve(absl::StrCat(
      "batch --addr ", a->address(), ",", b->address(), " --input-file ",
      WriteBatch(content), " --concurrency 4 --reads 30 --seed 5"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto results = ResultsById(run.out);
  ASSERT_EQ(results.size(), 12u) << run.out;
  for (int k = 0; k < 8; ++k) {
    const google::protobuf::Struct& r = results.at(absl::StrCat("s", k));
    EXPECT_EQ(Field(r, "status"), "OK");
    EXPECT_EQ(Field(r, "kind"), "sudoku");
    EXPECT_TRUE(r.fields().at("valid").bool_value());
    EXPECT_EQ(Number(r, "energy"), -81);
    EXPECT_EQ(r.fields().at("board").list_value().values_size(), 9);
    EXPECT_EQ(r.fields().at("violations").list_value().values_size(), 0);
    EXPECT_THAT(Field(r, "server_instance"),
                ::testing::AnyOf("server-a", "server-b"));
    EXPECT_EQ(Number(r, "attempts"), 1);
    const auto& timings = r.fields().at("timings").struct_value().fields();
    for (const char* key :
         {"queue_seconds", "compile_seconds", "sample_seconds",
          "decode_seconds", "total_seconds", "client_seconds"})
      EXPECT_TRUE(timings.contains(key)) << key;
  }
  EXPECT_EQ(Field(results.at("10"), "status"), "OK");
  EXPECT_EQ(Number(results.at("10"), "line"), 10);
  EXPECT_EQ(Field(results.at("q8"), "status"), "OK");
  EXPECT_EQ(Number(results.at("q8"), "ground_energy"), 0);
  EXPECT_EQ(results.at("q8").fields().at("board").list_value().values_size(),
            8);
  EXPECT_EQ(Field(results.at("bad"), "status"), "INVALID_ARGUMENT");
  EXPECT_THAT(Field(results.at("bad"), "status_message"),
              HasSubstr("line 12: sudoku text"));
  EXPECT_EQ(Number(results.at("bad"), "attempts"), 0);
  EXPECT_EQ(Field(results.at("unknown"), "status"), "INVALID_ARGUMENT");
  EXPECT_THAT(Field(results.at("unknown"), "status_message"),
              HasSubstr("unknown puzzle kind 'chess-ish'"));
  EXPECT_THAT(run.err, HasSubstr("12 items"));
}

// A server with one request thread and no queue turns the second and third
// items of a stream away; the client tries them again until all are solved.
TEST(CliBatchTest, RetriesItemsTurnedAway) {
  server::ServerOptions options;
  options.max_concurrent_requests = 1;
  options.max_queued_requests = 0;
  options.max_batch_in_flight = 3;
  auto server = testing::TestServer::Start(options, /*with_metrics=*/false);
  ASSERT_NE(server, nullptr);
  std::string content;
  for (int k = 0; k < 4; ++k)
    absl::StrAppend(&content, "r", k, " sudoku ", EasySudoku(3, k), "\n");
  const CommandResult run = RunQsolve(absl::StrCat(
      "batch --addr ", server->address(), " --input-file ", WriteBatch(content),
      " --concurrency 3 --reads 100 --retries 50 --seed 3"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto results = ResultsById(run.out);
  ASSERT_EQ(results.size(), 4u);
  int retried = 0;
  for (const auto& [id, r] : results) {
    EXPECT_EQ(Field(r, "status"), "OK") << id;
    if (Number(r, "attempts") > 1) ++retried;
  }
  EXPECT_GT(retried, 0);
}

TEST(CliBatchTest, RoundRobinTarget) {
  server::ServerOptions a_options, b_options;
  a_options.instance_name = "rr-a";
  b_options.instance_name = "rr-b";
  auto a = testing::TestServer::Start(a_options, /*with_metrics=*/false);
  auto b = testing::TestServer::Start(b_options, /*with_metrics=*/false);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  std::string content;
  for (int k = 0; k < 6; ++k)
    absl::StrAppend(&content, "sudoku ", EasySudoku(5, k), "\n");
  const CommandResult run = RunQsolve(
      absl::StrCat("batch --addr ipv4:", a->address(), ",", b->address(),
                   " --input-file ", WriteBatch(content), " --reads 20"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto results = ResultsById(run.out);
  ASSERT_EQ(results.size(), 6u);
  for (const auto& [id, r] : results) {
    EXPECT_EQ(Field(r, "status"), "OK") << id;
    EXPECT_THAT(Field(r, "server_instance"), ::testing::AnyOf("rr-a", "rr-b"));
  }
}

TEST(CliBatchTest, NoServerReachable) {
  // A port nobody listens on: bind one, then close it.
  auto server = testing::TestServer::Start({}, /*with_metrics=*/false);
  ASSERT_NE(server, nullptr);
  const std::string address = server->address();
  server.reset();
  const CommandResult run = RunQsolve(
      absl::StrCat("batch --addr ", address, " --input-file ",
                   WriteBatch("nqueens 5\nnqueens 6\n"), " --give_up_after 1"));
  EXPECT_EQ(run.exit_code, 1) << run.err;
  // No server ever answered: the hint says how to start one.
  EXPECT_THAT(run.err, HasSubstr("no server answers at"));
  const auto results = ResultsById(run.out);
  ASSERT_EQ(results.size(), 2u);
  for (const auto& [id, r] : results) {
    EXPECT_EQ(Field(r, "status"), "UNAVAILABLE");
    EXPECT_THAT(Field(r, "status_message"), HasSubstr("no server reachable"));
  }
}

TEST(CliBatchTest, DeadlineEndsTheBatch) {
  auto server = testing::TestServer::Start({}, /*with_metrics=*/false);
  ASSERT_NE(server, nullptr);
  std::string content;
  for (int k = 0; k < 4; ++k)
    absl::StrAppend(&content, "long", k, " sudoku ", testing::kNytPuzzle, "\n");
  const CommandResult run = RunQsolve(absl::StrCat(
      "batch --addr ", server->address(), " --input-file ", WriteBatch(content),
      " --concurrency 1 --backend cpu-sa --reads 1000 --sweeps 1000000 "
      "--deadline 0.5"));
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const auto results = ResultsById(run.out);
  ASSERT_EQ(results.size(), 4u);
  for (const auto& [id, r] : results)
    EXPECT_EQ(Field(r, "status"), "DEADLINE_EXCEEDED") << id;
}

TEST(CliBatchTest, DuplicateIdsAreAUsageError) {
  const CommandResult run =
      RunQsolve(absl::StrCat("batch --addr 127.0.0.1:1 --input-file ",
                             WriteBatch("x nqueens 5\nx nqueens 6\n")));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("id 'x' is already used on line 1"));
  EXPECT_EQ(run.out, "");
}

}  // namespace
}  // namespace qs
