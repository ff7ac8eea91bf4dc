// Files of the integration tests: one written under the test's temporary
// directory for a command to read, and one read whole after a command or a
// server wrote it.
#ifndef QS_TESTS_TESTING_TEST_FILES_H_
#define QS_TESTS_TESTING_TEST_FILES_H_

#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace qs::testing {

// Writes `content` to `name` under the test's temporary directory and returns
// the file's path.
inline std::string TempFile(const std::string& name,
                            const std::string& content) {
  const std::string path = absl::StrCat(::testing::TempDir(), "/", name);
  std::ofstream(path) << content;
  return path;
}

// The whole text of the file at `path` (empty when it cannot be read).
inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_TEST_FILES_H_
