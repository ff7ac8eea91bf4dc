// An independent statement of the Light Up rules for the family's tests: a
// grid of '.', '#' and '0'..'4', lights checked by casting rays from each
// light as a player would (no segments, nothing of core/families/lightup),
// and exhaustive enumeration of small boards.
#ifndef QS_TESTS_CORE_FAMILIES_LIGHTUP_LIGHTUP_ORACLE_H_
#define QS_TESTS_CORE_FAMILIES_LIGHTUP_LIGHTUP_ORACLE_H_

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "qs/v1/puzzles.pb.h"

namespace qs::testing {

struct LightupGame {
  int rows = 0;
  int cols = 0;
  std::string cells;  // row-major '.', '#', '0'..'4'

  bool White(int r, int c) const { return cells[r * cols + c] == '.'; }
  int size() const { return rows * cols; }
};

// Rows separated by '/'.
inline LightupGame LightupGameOf(const std::string& grid) {
  LightupGame g;
  for (absl::string_view row : absl::StrSplit(grid, '/')) {
    g.cols = static_cast<int>(row.size());
    g.cells.append(row.data(), row.size());
    ++g.rows;
  }
  return g;
}

inline v1::PuzzleSpec LightupSpecOf(const LightupGame& g) {
  v1::PuzzleSpec spec;
  v1::LightupPuzzle& p = *spec.mutable_lightup();
  p.set_rows(g.rows);
  p.set_cols(g.cols);
  for (int i = 0; i < g.size(); ++i) {
    if (g.cells[i] == '.') continue;
    v1::LightupBlack& b = *p.add_blacks();
    b.set_cell(i);
    if (g.cells[i] != '#') b.set_lights(g.cells[i] - '0');
  }
  return spec;
}

// The game's rules, read off the grid: lights on white cells only, every
// white cell lit by a ray, no ray reaching another light, numbers met.
inline bool OracleValid(const LightupGame& g,
                        const std::vector<uint8_t>& light) {
  static constexpr int kSteps[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
  std::vector<uint8_t> lit(g.size(), 0);
  for (int r = 0; r < g.rows; ++r) {
    for (int c = 0; c < g.cols; ++c) {
      if (!light[r * g.cols + c]) continue;
      if (!g.White(r, c)) return false;
      lit[r * g.cols + c] = 1;
      for (const auto& s : kSteps) {
        for (int rr = r + s[0], cc = c + s[1];
             rr >= 0 && rr < g.rows && cc >= 0 && cc < g.cols &&
             g.White(rr, cc);
             rr += s[0], cc += s[1]) {
          if (light[rr * g.cols + cc]) return false;
          lit[rr * g.cols + cc] = 1;
        }
      }
    }
  }
  for (int r = 0; r < g.rows; ++r) {
    for (int c = 0; c < g.cols; ++c) {
      const char ch = g.cells[r * g.cols + c];
      if (ch == '.' && !lit[r * g.cols + c]) return false;
      if (ch < '0' || ch > '4') continue;
      int n = 0;
      for (const auto& s : kSteps) {
        const int rr = r + s[0], cc = c + s[1];
        if (rr >= 0 && rr < g.rows && cc >= 0 && cc < g.cols)
          n += light[rr * g.cols + cc];
      }
      if (n != ch - '0') return false;
    }
  }
  return true;
}

// Assignment `bits` of `n` variables (bit i of the integer is variable i).
inline std::vector<uint8_t> BitsOf(uint64_t bits, int n) {
  std::vector<uint8_t> out(n);
  for (int i = 0; i < n; ++i) out[i] = (bits >> i) & 1;
  return out;
}

// Every valid board of a small game (at most 24 cells), by enumeration.
inline std::vector<std::vector<uint8_t>> OracleSolutions(const LightupGame& g) {
  std::vector<std::vector<uint8_t>> out;
  for (uint64_t bits = 0; bits < (uint64_t{1} << g.size()); ++bits) {
    std::vector<uint8_t> light = BitsOf(bits, g.size());
    if (OracleValid(g, light)) out.push_back(std::move(light));
  }
  return out;
}

// The game IDs of tests/data/lightup/sgt_puzzles.txt (made by
// `sgt-lightup --generate`; the file's header says how), in file order;
// empty when the file cannot be read.
inline std::vector<std::string> ReadStoredLightupIds() {
  const char* source_dir = std::getenv("QS_SOURCE_DIR");
  std::ifstream in(std::string(source_dir != nullptr ? source_dir : ".") +
                   "/tests/data/lightup/sgt_puzzles.txt");
  std::vector<std::string> ids;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') ids.push_back(line);
  }
  return ids;
}

}  // namespace qs::testing

#endif  // QS_TESTS_CORE_FAMILIES_LIGHTUP_LIGHTUP_ORACLE_H_
