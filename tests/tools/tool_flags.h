// The command line of the tools of tests/tools: `--help` and the
// "--flag value" pairs most of them take. Shared so that every tool answers
// --help with its usage instead of taking the word for a value, a file or a
// size and starting a run that can last minutes (the ctests `<tool>_help` of
// tests/tools/CMakeLists.txt hold each tool to it).
#ifndef QS_TESTS_TOOLS_TOOL_FLAGS_H_
#define QS_TESTS_TOOLS_TOOL_FLAGS_H_

#include <cstdio>
#include <cstring>
#include <optional>

namespace qs::tools {

// True when any argument is --help or -h, after printing `usage` to stdout.
// Any position counts, so that `tool --levels 3 --help` does not run either.
inline bool PrintUsageIfAsked(int argc, char** argv, const char* usage) {
  for (int k = 1; k < argc; ++k) {
    if (std::strcmp(argv[k], "--help") == 0 ||
        std::strcmp(argv[k], "-h") == 0) {
      std::fputs(usage, stdout);
      return true;
    }
  }
  return false;
}

// Reads argv[1..] as "--flag value" pairs, calling `on_flag(flag, value)`
// for each; `on_flag` returns false for a flag it does not know. Returns
// nullopt to go on with the run, or the exit code to stop with: 0 after
// --help (usage on stdout), 2 after an unknown flag or a flag without its
// value (the error and the usage on stderr).
template <typename OnFlag>
std::optional<int> ParseFlagPairs(int argc, char** argv, const char* usage,
                                  OnFlag on_flag) {
  if (PrintUsageIfAsked(argc, argv, usage)) return 0;
  // A trailing flag without its value would otherwise be dropped silently.
  if (argc % 2 == 0) {
    std::fprintf(stderr, "%s: missing value\n%s", argv[argc - 1], usage);
    return 2;
  }
  for (int k = 1; k + 1 < argc; k += 2) {
    if (!on_flag(static_cast<const char*>(argv[k]),
                 static_cast<const char*>(argv[k + 1]))) {
      std::fprintf(stderr, "unknown flag %s\n%s", argv[k], usage);
      return 2;
    }
  }
  return std::nullopt;
}

}  // namespace qs::tools

#endif  // QS_TESTS_TOOLS_TOOL_FLAGS_H_
