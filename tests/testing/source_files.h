// Reads a file of the source tree (tests/data, README.md) from a test: the
// tests run in the source directory, and QS_SOURCE_DIR names it when set.
#ifndef QS_TESTS_TESTING_SOURCE_FILES_H_
#define QS_TESTS_TESTING_SOURCE_FILES_H_

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace qs::testing {

// The path of `relative` (e.g. "tests/data/maxcut/gset_pm_14.txt").
inline std::string SourcePath(const std::string& relative) {
  const char* root = std::getenv("QS_SOURCE_DIR");
  return std::string(root == nullptr ? "." : root) + "/" + relative;
}

// Its content; empty when it cannot be read.
inline std::string ReadSourceFile(const std::string& relative) {
  std::ifstream in(SourcePath(relative));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_SOURCE_FILES_H_
