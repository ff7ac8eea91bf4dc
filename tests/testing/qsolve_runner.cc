// Running the qsolve binary from tests.
#include "tests/testing/qsolve_runner.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"

namespace qs::testing {

CommandResult RunQsolve(const std::string& args,
                        const std::string& stdin_text) {
  // Test cases run as parallel processes: every call gets its own files.
  static int calls = 0;
  const std::string prefix =
      absl::StrCat(::testing::TempDir(), "/qsolve_", getpid(), "_", ++calls);
  const std::string in_file = prefix + "_stdin.txt";
  const std::string err_file = prefix + "_stderr.txt";
  std::ofstream(in_file) << stdin_text;
  const char* dir = std::getenv("QS_BINARY_DIR");
  const std::string command =
      absl::StrCat(dir != nullptr ? dir : "build", "/clients/qsolve ", args,
                   " <", in_file, " 2>", err_file);
  CommandResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    result.out.append(buffer, n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(err_file);
  std::stringstream err_text;
  err_text << err.rdbuf();
  result.err = err_text.str();
  std::remove(in_file.c_str());
  std::remove(err_file.c_str());
  return result;
}

google::protobuf::Struct LastJsonLine(const std::string& out) {
  std::vector<std::string> lines = absl::StrSplit(out, '\n', absl::SkipEmpty());
  google::protobuf::Struct value;
  EXPECT_FALSE(lines.empty()) << "no output";
  if (lines.empty()) return value;
  EXPECT_TRUE(
      google::protobuf::util::JsonStringToMessage(lines.back(), &value).ok())
      << lines.back();
  return value;
}

}  // namespace qs::testing
