// `--help` and `--version` of qsolve and qs_server: each exits 0; a
// subcommand's help lists that subcommand's flags (and not the others'); the
// server's help lists its own flags.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
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

}  // namespace
}  // namespace qs
