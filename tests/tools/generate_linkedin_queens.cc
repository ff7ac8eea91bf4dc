// Prints LinkedIn-Queens-style puzzles with unique solutions
// ([Mata Ali & Mencia 2024] §2.1 rules) in the format of
// tests/data/queens/linkedin_queens.txt, one line per puzzle. The generator is
// tests/testing/linkedin_queens.h.
//
// Usage: generate_linkedin_queens SEED N [N ...]
//   One puzzle of side N (5..12) per argument after the seed, named "lq<N>-<k>"
//   (k counts puzzles of that side). Puzzle i is grown from seed SEED * 1000003
//   + 1000 * i + attempt, where attempt counts the tries that ended without a
//   unique solution.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "tests/testing/linkedin_queens.h"
#include "tests/tools/tool_flags.h"

namespace {

constexpr char kUsage[] =
    "Usage: generate_linkedin_queens SEED N [N ...]\n"
    "Prints one LinkedIn-Queens puzzle with a unique solution per side N\n"
    "(5..12), in the format of tests/data/queens/linkedin_queens.txt.\n";

}  // namespace

int main(int argc, char** argv) {
  if (qs::tools::PrintUsageIfAsked(argc, argv, kUsage)) return 0;
  if (argc < 3) {
    std::fprintf(stderr, "%s", kUsage);
    return 2;
  }
  const uint64_t seed = std::strtoull(argv[1], nullptr, 10);
  std::map<int, int> per_size;
  for (int i = 2; i < argc; ++i) {
    const int n = std::atoi(argv[i]);
    if (n < 5 || n > 12) {
      std::fprintf(stderr, "side %s: must be 5..12\n", argv[i]);
      return 2;
    }
    for (uint64_t attempt = 0;; ++attempt) {
      const auto puzzle = qs::testing::GenerateLinkedInPuzzle(
          n, seed * 1000003 + 1000 * (i - 2) + attempt);
      if (!puzzle) continue;
      const std::string name =
          "lq" + std::to_string(n) + "-" + std::to_string(++per_size[n]);
      std::printf("%s %s %s\n", name.c_str(),
                  qs::testing::RegionRows(*puzzle).c_str(),
                  qs::testing::SolutionRows(*puzzle).c_str());
      std::fflush(stdout);
      break;
    }
  }
  return 0;
}
