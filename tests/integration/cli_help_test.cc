// `--help` and `--version` of qsolve and qs_server: each exits 0; a
// subcommand's help lists that subcommand's flags (and not the others'); the
// server's help lists its own flags, and its flag tables (the docs') list each
// of them once.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/qsolve_runner.h"

namespace qs {
namespace {

using ::qs::testing::RunQsolve;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(QsolveHelpTest, ASubcommandsHelpListsItsFlags) {
  const auto solve = RunQsolve("solve --help");
  EXPECT_EQ(solve.exit_code, 0) << solve.err;
  EXPECT_THAT(solve.out, HasSubstr("--reads"));
  EXPECT_THAT(solve.out, HasSubstr("--stop_at_first_valid"));
  EXPECT_THAT(solve.out, Not(HasSubstr("--board")));
  const auto validate = RunQsolve("validate -h");
  EXPECT_EQ(validate.exit_code, 0);
  EXPECT_THAT(validate.out, HasSubstr("--board"));
  EXPECT_THAT(validate.out, Not(HasSubstr("--sweeps")));
}

TEST(QsolveHelpTest, HelpAndVersionExitZero) {
  const auto help = RunQsolve("--help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("subcommands:"));
  EXPECT_THAT(help.out, HasSubstr("batch"));
  const auto version = RunQsolve("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_THAT(version.out, HasSubstr("qsolve "));
  EXPECT_EQ(RunQsolve("frobnicate --help").exit_code, 2);
}

std::string RunServer(const std::string& args, int* exit_code) {
  const char* dir = std::getenv("QS_BINARY_DIR");
  const std::string command = absl::StrCat(dir != nullptr ? dir : "build",
                                           "/server/qs_server ", args, " 2>&1");
  FILE* pipe = popen(command.c_str(), "r");
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    out.append(buffer, n);
  const int status = pclose(pipe);
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

TEST(QsServerHelpTest, HelpListsTheServersFlagsAndVersionExitsZero) {
  int code = -1;
  const std::string help = RunServer("--help", &code);
  EXPECT_EQ(code, 0);
  EXPECT_THAT(help, HasSubstr("--address"));
  EXPECT_THAT(help, HasSubstr("--dwave_status_interval_seconds"));
  EXPECT_THAT(help, Not(HasSubstr("/usr/")));
  const std::string version = RunServer("--version", &code);
  EXPECT_EQ(code, 0);
  EXPECT_THAT(version, HasSubstr("qs_server "));
}

TEST(QsServerHelpTest, FlagTablesListEveryFlagOfTheHelpOnce) {
  int code = -1;
  const std::string help = RunServer("--help", &code);
  ASSERT_EQ(code, 0);
  const std::string tables = RunServer("--print_flag_tables", &code);
  ASSERT_EQ(code, 0);
  int flags = 0;
  for (absl::string_view line : absl::StrSplit(help, '\n')) {
    EXPECT_LE(line.size(), 80u) << line;
    if (!absl::ConsumePrefix(&line, "  --")) continue;
    const std::string row =
        absl::StrCat("| `--", line.substr(0, line.find(" (default")), "` |");
    const std::vector<absl::string_view> pieces = absl::StrSplit(tables, row);
    EXPECT_EQ(pieces.size(), 2u) << row;
    ++flags;
  }
  EXPECT_GT(flags, 40);
  // A default computed at start shows what it stands for.
  EXPECT_THAT(tables, HasSubstr("| `--worker_threads` | `0` (one per core) |"));
  EXPECT_THAT(tables, HasSubstr("| `--http_address` | empty (off) |"));
}

TEST(QsServerHelpTest, OneFlagTableHoldsItsGroupAndAnUnknownGroupIsRefused) {
  int code = -1;
  const std::string limits = RunServer("--print_flag_tables=limits", &code);
  EXPECT_EQ(code, 0);
  EXPECT_THAT(limits, HasSubstr("| `--max_reads` | `100000` |"));
  EXPECT_THAT(limits, Not(HasSubstr("--max_concurrent_requests")));
  EXPECT_THAT(limits, Not(HasSubstr("flags:begin")));
  const std::string unknown = RunServer("--print_flag_tables=nope", &code);
  EXPECT_EQ(code, 2);
  EXPECT_THAT(unknown,
              HasSubstr("unknown group 'nope'; groups: server, limits, http, "
                        "dwave, qaoa"));
}

}  // namespace
}  // namespace qs
