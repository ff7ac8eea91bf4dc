// Reads tests/data/tents/sgt_puzzles.txt: Tents game IDs made by `sgt-tents
// --generate` with their unique solutions (the file's header says how they were
// made).
#ifndef QS_TESTS_TESTING_TENTS_DATA_H_
#define QS_TESTS_TESTING_TENTS_DATA_H_

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace qs::testing {

struct StoredTentsPuzzle {
  std::string id;        // the sgt-tents game ID
  std::string solution;  // rows of 'T', 'A', '.' separated by '/'
};

inline std::string TentsDataPath() {
  const char* source_dir = std::getenv("QS_SOURCE_DIR");
  return std::string(source_dir != nullptr ? source_dir : ".") +
         "/tests/data/tents/sgt_puzzles.txt";
}

// The stored puzzles in file order; empty when the file cannot be read.
inline std::vector<StoredTentsPuzzle> ReadStoredTentsPuzzles() {
  std::ifstream in(TentsDataPath());
  std::vector<StoredTentsPuzzle> puzzles;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("id ", 0) == 0) {
      puzzles.push_back({line.substr(3), ""});
    } else if (!puzzles.empty()) {
      std::string& solution = puzzles.back().solution;
      if (!solution.empty()) solution += '/';
      solution += line;
    }
  }
  return puzzles;
}

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_TENTS_DATA_H_
