// What the Keen tests share: two small puzzles with their solutions, parsing,
// the exact rules' solutions, boards and the stored puzzles of
// tests/data/keen/sgt_puzzles.txt.
#ifndef QS_TESTS_CORE_FAMILIES_KEEN_KEEN_TESTING_H_
#define QS_TESTS_CORE_FAMILIES_KEEN_KEEN_TESTING_H_

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_split.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/keen/keen.h"
#include "formats/puzzle_text.h"
#include "qs/v1/puzzles.pb.h"

namespace qs::testing {

// `sgt-keen --generate 2 4de`'s first puzzle: cages A 9+ (cells 0, 4, 8),
// B 6x (1, 5, 9), C 1- (2, 3), D 7+ (6, 7), E 2- (10, 14), F 2/ (11, 15),
// G 4x (12, 13), with its only solution.
inline constexpr char kKeen4x4[] = "4:__a_a__a_bb__a_a,a9m6s1a7s2d2m4";
inline constexpr char kKeen4x4Grid[] =
    "ABCC\nABDD\nABEF\nGGEF\nA 9+\nB 6x\nC 1-\nD 7+\nE 2-\nF 2/\nG 4x\n";
inline constexpr char kKeen4x4Solution[] = "4321/2143/3214/1432";
// A 3x3 puzzle of ours with a given: A 3x (cells 0, 3), B 1- (1, 2), C 2
// (cell 4, a given), D 2- (5, 8), E 2/ (6, 7).
inline constexpr char kKeen3x3Grid[] = "ABB/ACD/EED;A 3x;B 1-;C 2;D 2-;E 2/";
inline constexpr char kKeen3x3Solution[] = "132/321/213";

inline v1::PuzzleSpec KeenSpec(const std::string& text) {
  absl::StatusOr<v1::PuzzleSpec> spec = formats::ParsePuzzleText("keen", text);
  return spec.ok() ? *spec : v1::PuzzleSpec();
}

// A board of digits from rows separated by '/'.
inline v1::PuzzleSolution KeenBoard(const std::string& rows) {
  v1::PuzzleSolution board;
  for (absl::string_view row : absl::StrSplit(rows, '/')) {
    for (char ch : row) board.add_cells(ch == '.' ? 0 : ch - '0');
    board.add_rows(std::string(row));
  }
  board.set_height(board.rows_size());
  board.set_width(board.rows_size());
  return board;
}

// Up to `limit` solutions of the exact rules, as full-model assignments.
inline std::vector<std::vector<uint8_t>> KeenRuleSolutions(
    const v1::PuzzleSpec& spec, int64_t limit) {
  std::vector<std::vector<uint8_t>> found;
  absl::StatusOr<const RulesEncoder*> encoder = BuiltinEncoders().ForSpec(spec);
  absl::StatusOr<KeenShape> shape = KeenShapeOf(spec.keen());
  if (!encoder.ok() || !shape.ok()) return found;
  absl::StatusOr<ExactSolveResult> result =
      SolveRules(**encoder, spec, shape->num_variables(), limit,
                 [&](std::vector<uint8_t> bits) { found.push_back(bits); });
  if (!result.ok()) found.clear();
  return found;
}

struct StoredKeenPuzzle {
  std::string command;  // the comment line above it
  std::string id;
};

inline std::vector<StoredKeenPuzzle> ReadStoredKeenPuzzles() {
  const char* source_dir = std::getenv("QS_SOURCE_DIR");
  std::ifstream in(std::string(source_dir != nullptr ? source_dir : ".") +
                   "/tests/data/keen/sgt_puzzles.txt");
  std::vector<StoredKeenPuzzle> puzzles;
  std::string line, command;
  while (std::getline(in, line)) {
    if (line.rfind("# sgt-keen", 0) == 0) command = line.substr(2);
    if (line.empty() || line[0] == '#') continue;
    puzzles.push_back({command, line});
  }
  return puzzles;
}

}  // namespace qs::testing

#endif  // QS_TESTS_CORE_FAMILIES_KEEN_KEEN_TESTING_H_
