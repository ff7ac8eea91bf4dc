// Runs the built qsolve binary for end-to-end tests of the CLI contract: exit
// code, stdout, stderr, and the last line of `--json` output parsed as a JSON
// object.
#ifndef QS_TESTS_TESTING_QSOLVE_RUNNER_H_
#define QS_TESTS_TESTING_QSOLVE_RUNNER_H_

#include <string>

#include "google/protobuf/struct.pb.h"

namespace qs::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `qsolve <args>` (the binary of this build tree) through the shell, with
// `stdin_text` on its standard input. Safe to call from test cases running in
// parallel processes.
CommandResult RunQsolve(const std::string& args,
                        const std::string& stdin_text = "");

// The last non-empty line of `out` parsed as a JSON object (a test failure when
// it does not parse).
google::protobuf::Struct LastJsonLine(const std::string& out);

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_QSOLVE_RUNNER_H_
