// The engine, the server and the clients know no backend by name
// (docs/architecture.md §2.3): no source file of core/solve/, server/ or
// clients/ compares anything with a registered backend's name or asks
// whether a backend's own message is set. What a backend needs is declared in
// its folder and reaches the others through the Backend interface and
// ListBackends.
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/str_replace.h"
#include "core/base/worker_pool.h"
#include "core/solve/builtin_backends.h"
#include "gtest/gtest.h"
#include "tests/testing/source_files.h"

namespace qs {
namespace {

// Source files under `dir` (C++ and the playground's scripts).
std::vector<std::string> SourcesUnder(const std::string& dir) {
  std::vector<std::string> files;
  const std::filesystem::path root(testing::SourcePath(dir));
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(root)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() &&
        (ext == ".cc" || ext == ".h" || ext == ".js"))
      files.push_back(entry.path().string());
  }
  return files;
}

TEST(BackendNamesTest, NoBranchOnABackendOutsideItsFolder) {
  WorkerPool pool(1);
  BackendRegistry registry;
  BackendOptions options;
  options.pool = &pool;
  ASSERT_TRUE(RegisterBuiltinBackends(registry, options).ok());
  // A comparison with a backend's name, or a test of its own message
  // (params.has_tabu(), info.has_pt()). "auto", "exact" and "sat" are also
  // values of other options (--format auto, --method sat): only their
  // messages are looked for.
  std::vector<std::regex> patterns;
  for (const Backend* backend : registry.All()) {
    const std::string name(backend->name());
    const std::string field = absl::StrReplaceAll(name, {{"-", "_"}});
    // A backend without a message of its own has no has_<name>() to test.
    std::string alternatives =
        backend->params_field().empty() ? "(?!)" : "has_" + field + "_?\\(\\)";
    if (name != "auto" && name != "exact" && name != "sat") {
      alternatives += "|[!=]==? *[\"']" + name + "[\"']|case [\"']" + name +
                      "[\"']|[\"']" + name + "[\"'] *[!=]=";
    }
    patterns.emplace_back(alternatives);
  }
  std::vector<std::string> files;
  for (const char* dir :
       {"core/solve", "server", "clients/cli", "clients/loadgen"}) {
    const std::vector<std::string> found = SourcesUnder(dir);
    files.insert(files.end(), found.begin(), found.end());
  }
  ASSERT_GT(files.size(), 20u);
  for (const std::string& file : files) {
    std::ifstream in(file);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      const size_t code_end = line.find("//");
      const std::string code = line.substr(0, code_end);
      for (const std::regex& pattern : patterns) {
        EXPECT_FALSE(std::regex_search(code, pattern))
            << file << ":" << number << ": " << line;
      }
    }
  }
}

}  // namespace
}  // namespace qs
