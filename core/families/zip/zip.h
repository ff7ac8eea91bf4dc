// LinkedIn's Zip as a Hamiltonian path QUBO: the position encoding of
// [Lucas 2014] §7.1. Variable x(c, s) ("the path enters cell c at step s",
// s = 1..N for N = rows * cols cells) has index c * N + (s - 1). The full
// model is
//   sum_c (1 - sum_s x(c,s))^2 + sum_s (1 - sum_c x(c,s))^2
//       (each cell entered once, each step in one cell)
//   + 2 sum_s sum_{c, d not joined} x(c,s) x(d,s+1)
//       (consecutive steps in cells that are not orthogonal neighbours, or are
//        split by a wall)
//   + (1 - x(w_1, 1)) + (1 - x(w_K, N))
//       (the path starts on waypoint 1 and ends on waypoint K)
//   + sum_{k<K} sum_{t<s} x(w_k, s) x(w_{k+1}, t)
//       (waypoint k+1 entered before waypoint k; with the one-hot terms this
//        orders all waypoints)
// with the weights shown (2 on the moves: the samplers find paths more often
// than with 1). Every term is non-negative and a valid path zeroes them all,
// so the ground energy is 0 and every broken rule scores at least 1.
//
// Reductions (CompiledProblem.stages), each keeping every valid path:
// "endpoints" (REDUCTION_CLUES) clamps x(w_1, 1) and x(w_K, N) to 1 and the
// other variables of those cells and steps to 0 (the other waypoints' steps are
// unknown); "parity": the grid is bipartite, so a cell's colour fixes the
// parity of its step relative to waypoint 1's cell; "distance": a cell at path
// distance d (breadth-first through moves no wall blocks) from a waypoint is
// at least d steps away from it, which bounds every cell between the
// waypoints' earliest and latest steps; "forced" (with "parity" and
// "distance" REDUCTION_FULL, the default): steps without a neighbour to come
// from and a different one to go to, moves forced by walls, corners and dead
// ends, and steps only one cell can take, propagated to a fixpoint.
//
// Boards: cells[i] is the step at which the path enters cell i (0: never, -1:
// at several steps); rows print the steps, space separated, one row each.
#ifndef QS_CORE_FAMILIES_ZIP_ZIP_H_
#define QS_CORE_FAMILIES_ZIP_ZIP_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "core/base/interrupter.h"
#include "core/compile/compiler.h"
#include "core/generate/generator.h"
#include "qs/v1/puzzles.pb.h"

namespace qs {

std::unique_ptr<PuzzleCompiler> NewZipCompiler();

// A checked Zip puzzle: its grid, waypoints and the moves walls leave open.
struct ZipBoard {
  int rows = 0;
  int cols = 0;
  std::vector<int> waypoints;  // cell indices, in order
  // Per cell, the orthogonal neighbours no wall separates from it.
  std::vector<std::vector<int>> joined;

  int size() const { return rows * cols; }
  bool Joined(int a, int b) const;
  // Index of x(cell, step) for step 1..size().
  int Var(int cell, int step) const { return cell * size() + step - 1; }
};

// INVALID_ARGUMENT naming the field: rows and cols 2..16, at least two
// distinct waypoints in range, walls between orthogonal neighbours.
absl::StatusOr<ZipBoard> CheckZipSpec(const v1::ZipPuzzle& zip);

// How far the reduction prunes the steps each cell may take.
enum class ZipPruning { kEndpoints, kParity, kDistance, kForced };

// allowed[cell][step - 1]: whether some valid path may enter `cell` at `step`
// as far as pruning up to `level` can tell (every valid path keeps its steps).
// A pruning that would leave a cell or a step without a candidate (a puzzle
// without solution) is not applied.
std::vector<std::vector<uint8_t>> ZipStepDomains(const ZipBoard& board,
                                                 ZipPruning level);

// What GenerateZip makes (zip_generator.cc): a rows x cols level, with walls
// on a share of the edges off its path or none, starting from min_waypoints
// waypoints (0: 2 + cells / 12) and adding more until its path is unique.
struct ZipGenerateOptions {
  int rows = 6;
  int cols = 6;
  v1::Difficulty difficulty = v1::DIFFICULTY_HARD;
  bool walls = false;
  int min_waypoints = 0;
};

// A level with a proven-unique path, deterministic for `seed`; the options
// must be in the generator's range (3..10 per side).
absl::StatusOr<GeneratedPuzzle> GenerateZip(const ZipGenerateOptions& options,
                                            uint64_t seed,
                                            Interrupter& interrupter);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_ZIP_ZIP_H_
