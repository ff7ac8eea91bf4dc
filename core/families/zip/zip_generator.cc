// Zip levels with proven-unique solutions. A level is built from its answer:
// a random Hamiltonian path of the grid (a snake through the rows, then many
// "backbite" moves: the path's end steps to a grid neighbour on the path and
// the part after that neighbour is reversed), walls on a share of the grid
// edges the path does not use, and waypoints at the path's ends and a few
// cells along it. CaDiCaL on the rules (core/families/zip/zip_rules.cc) then
// looks for a second path; while it finds one, a waypoint that rules it out is
// added: a cell that the other path passes between different waypoints, or,
// when every cell lies between the same waypoints in both, the first cell where
// they part (which makes the next one such a cell). A level is done when the
// solver proves no second path exists. The difficulty knob asks unit
// propagation of the rules to decide all (DIFFICULTY_EASY) or half
// (DIFFICULTY_MEDIUM) of the cells that are not waypoints, adding waypoints
// along the path until it does, and for DIFFICULTY_HARD a level where it
// leaves some undecided (redrawn a few times, else kept).
#include <algorithm>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/zip/zip.h"
#include "core/generate/generator.h"

namespace qs {
namespace {

constexpr int kMinSide = 3;
constexpr int kMaxSide = 10;
// Draws of a hard level whose rules propagation already decides entirely.
constexpr int kHardAttempts = 20;
// Share of the edges off the path that become walls.
constexpr double kWallShare = 0.3;

constexpr int kOrthogonal[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};

std::vector<int> GridNeighbours(int cell, int rows, int cols) {
  std::vector<int> out;
  const int r = cell / cols, c = cell % cols;
  for (const auto& d : kOrthogonal) {
    const int rr = r + d[0], cc = c + d[1];
    if (rr >= 0 && rr < rows && cc >= 0 && cc < cols)
      out.push_back(rr * cols + cc);
  }
  return out;
}

std::vector<int> RandomPath(int rows, int cols, Xoshiro256& rng) {
  const int n = rows * cols;
  std::vector<int> path;
  for (int r = 0; r < rows; ++r) {
    for (int k = 0; k < cols; ++k)
      path.push_back(r * cols + (r % 2 == 0 ? k : cols - 1 - k));
  }
  std::vector<int> position(n);
  auto index = [&] {
    for (int i = 0; i < n; ++i) position[path[i]] = i;
  };
  index();
  const int moves = 20 * n * n;
  for (int m = 0; m < moves; ++m) {
    if (rng.NextBelow(2) == 0) {
      std::reverse(path.begin(), path.end());
      index();
    }
    const int end = path.back();
    const std::vector<int> next = GridNeighbours(end, rows, cols);
    const int to = next[rng.NextBelow(next.size())];
    const int i = position[to];
    if (i == n - 2) continue;  // already the step before the end
    std::reverse(path.begin() + i + 1, path.end());
    for (int k = i + 1; k < n; ++k) position[path[k]] = k;
  }
  return path;
}

// The level of `path` with waypoints at these path positions (sorted).
v1::PuzzleSpec LevelSpec(int rows, int cols, const std::vector<int>& path,
                         const std::set<int>& positions,
                         const std::vector<std::pair<int, int>>& walls) {
  v1::PuzzleSpec spec;
  v1::ZipPuzzle& zip = *spec.mutable_zip();
  zip.set_rows(rows);
  zip.set_cols(cols);
  for (int p : positions) zip.add_waypoints(path[p]);
  for (const auto& [a, b] : walls) {
    v1::ZipWall& wall = *zip.add_walls();
    wall.set_a(a);
    wall.set_b(b);
  }
  return spec;
}

// Share of the cells that are not waypoints whose step unit propagation of
// the rules decides.
double PropagationDecided(const Cnf& cnf, const v1::ZipPuzzle& zip) {
  const int n = static_cast<int>(zip.rows() * zip.cols());
  const std::vector<int8_t> propagated = Propagate(cnf, {});
  if (propagated.empty()) return 0;
  std::vector<uint8_t> waypoint(n, 0);
  for (uint32_t cell : zip.waypoints()) waypoint[cell] = 1;
  int open = 0, decided = 0;
  for (int cell = 0; cell < n; ++cell) {
    if (waypoint[cell]) continue;
    ++open;
    for (int s = 0; s < n; ++s) {
      if (propagated[cell * n + s] == 1) {
        ++decided;
        break;
      }
    }
  }
  return open == 0 ? 1.0 : static_cast<double>(decided) / open;
}

}  // namespace

absl::StatusOr<GeneratedPuzzle> GenerateZip(const ZipGenerateOptions& options,
                                            uint64_t seed,
                                            Interrupter& interrupter) {
  const int rows = options.rows, cols = options.cols, n = rows * cols;
  Xoshiro256 rng(seed);
  ASSIGN_OR_RETURN(const RulesEncoder* encoder, BuiltinEncoders().ForSpec([] {
    v1::PuzzleSpec spec;
    spec.mutable_zip();
    return spec;
  }()));
  const double required = RequiredPropagation(options.difficulty);
  GeneratedPuzzle out;
  out.puzzle_kind = "zip";
  for (int attempt = 0;; ++attempt) {
    const std::vector<int> path = RandomPath(rows, cols, rng);
    std::vector<int> step(n);
    for (int i = 0; i < n; ++i) step[path[i]] = i + 1;
    std::vector<std::pair<int, int>> walls;
    if (options.walls) {
      for (int cell = 0; cell < n; ++cell) {
        for (int other : GridNeighbours(cell, rows, cols)) {
          if (other < cell || std::abs(step[cell] - step[other]) == 1) continue;
          if (rng.NextDouble() < kWallShare) walls.push_back({cell, other});
        }
      }
    }
    std::set<int> positions = {0, n - 1};
    const int start_count = std::clamp(
        options.min_waypoints > 0 ? options.min_waypoints : 2 + n / 12, 2, n);
    while (static_cast<int>(positions.size()) < start_count)
      positions.insert(1 + static_cast<int>(rng.NextBelow(n - 2)));

    v1::PuzzleSpec spec;
    Cnf cnf;
    while (true) {
      if (interrupter.reason() != StopReason::kNone)
        return absl::AbortedError("zip generation stopped");
      spec = LevelSpec(rows, cols, path, positions, walls);
      ASSIGN_OR_RETURN(cnf, EncodeCnf(*encoder, spec, n * n));
      std::vector<std::vector<uint8_t>> found_paths;
      const Enumeration found = EnumerateSolutions(
          cnf, 2,
          [&](std::vector<uint8_t> bits) {
            found_paths.push_back(std::move(bits));
          },
          &interrupter);
      out.sat_calls += found.found + 1;
      // Two paths found end the enumeration early; fewer must be all there
      // are, else the solver was stopped.
      if (found.found < 2 &&
          (found.status == SatResult::kUnknown || !found.complete))
        return absl::AbortedError("zip generation stopped");
      if (found.found == 1) break;
      if (found.found == 0) {
        return absl::InternalError(
            "zip generation: the rules refuse the level's own path");
      }
      // The step of each cell on a path that is not the level's own.
      std::vector<int> other(n, 0);
      for (const std::vector<uint8_t>& bits : found_paths) {
        std::vector<int> steps(n, 0);
        bool same = true;
        for (int cell = 0; cell < n; ++cell) {
          for (int s = 1; s <= n; ++s) {
            if (bits[cell * n + s - 1]) steps[cell] = s;
          }
          same = same && steps[cell] == step[cell];
        }
        if (!same) other = steps;
      }
      // Cells that the other path passes between other waypoints.
      std::vector<int> waypoint_steps_own, waypoint_steps_other;
      for (int p : positions) {
        waypoint_steps_own.push_back(p + 1);
        waypoint_steps_other.push_back(other[path[p]]);
      }
      std::sort(waypoint_steps_other.begin(), waypoint_steps_other.end());
      auto segment = [](const std::vector<int>& steps, int s) {
        return std::upper_bound(steps.begin(), steps.end(), s) - steps.begin();
      };
      std::vector<int> splitting;
      for (int p = 0; p < n; ++p) {
        if (positions.count(p)) continue;
        if (segment(waypoint_steps_own, p + 1) !=
            segment(waypoint_steps_other, other[path[p]]))
          splitting.push_back(p);
      }
      if (!splitting.empty()) {
        positions.insert(splitting[rng.NextBelow(splitting.size())]);
      } else {
        for (int p = 0; p < n; ++p) {
          if (other[path[p]] != p + 1) {
            positions.insert(p);
            break;
          }
        }
      }
    }
    double fraction = PropagationDecided(cnf, spec.zip());
    while (fraction < required && static_cast<int>(positions.size()) < n) {
      int p = 1 + static_cast<int>(rng.NextBelow(n - 2));
      while (positions.count(p)) p = 1 + static_cast<int>(rng.NextBelow(n - 2));
      positions.insert(p);
      spec = LevelSpec(rows, cols, path, positions, walls);
      ASSIGN_OR_RETURN(cnf, EncodeCnf(*encoder, spec, n * n));
      fraction = PropagationDecided(cnf, spec.zip());
    }
    if (options.difficulty == v1::DIFFICULTY_HARD && fraction >= 1.0 &&
        attempt + 1 < kHardAttempts)
      continue;
    out.puzzle = std::move(spec);
    out.solution.assign(static_cast<size_t>(n) * n, 0);
    for (int i = 0; i < n; ++i) out.solution[path[i] * n + i] = 1;
    out.clues = static_cast<int>(positions.size());
    // Waypoints are added until the path is unique, not removed: the clues of
    // the full solution, as GeneratedPuzzle.clues_at_start counts them, are
    // all its cells (the path numbered from end to end), as for the families
    // that remove clues from a solved board.
    out.clues_at_start = n;
    out.propagation_decided = fraction;
    return out;
  }
}

namespace {

class ZipGenerator final : public PuzzleGenerator {
 public:
  absl::string_view family() const override { return "zip"; }

  absl::Status Check(const GenerateOptions& options) const override {
    RETURN_IF_ERROR(CheckGridSides(options, family(), kMinSide, kMaxSide));
    if (options.target_clues < 0 ||
        options.target_clues > options.rows * options.cols) {
      return absl::InvalidArgumentError(absl::StrCat(
          "target_clues: the waypoints to start from, 0..",
          options.rows * options.cols, ", got ", options.target_clues));
    }
    return absl::OkStatus();
  }

  // Walls or none, drawn from the seed: half of the levels have walls.
  absl::StatusOr<GeneratedPuzzle> Generate(
      const GenerateOptions& options, uint64_t seed,
      SolutionSampler& /*sampler*/, Interrupter& interrupter) const override {
    ZipGenerateOptions zip;
    zip.rows = options.rows;
    zip.cols = options.cols;
    zip.difficulty = options.difficulty;
    zip.min_waypoints = options.target_clues;
    zip.walls = Xoshiro256(seed ^ 0x5a1b2c3d4e5f6071ULL).NextBelow(2) == 1;
    return GenerateZip(zip, seed, interrupter);
  }
};

}  // namespace

std::unique_ptr<PuzzleGenerator> NewZipGenerator() {
  return std::make_unique<ZipGenerator>();
}

}  // namespace qs
