// Generates puzzles of each Sudoku variant through the solve engine (as
// Solver.Generate makes them: an annealed grid, clues removed while CaDiCaL
// proves the solution unique) and solves each twice with the "auto" backend:
// as a client would (exact engines racing), and with the exact engines off
// (QUBO samplers only) within a time limit. Prints one markdown row per
// variant: the puzzles made, the median variables after the reduction, the
// share of valid answers and the median solve time of both runs, and the
// median generation time.
//
// Usage: sudoku_variants_stats [--puzzles N] [--time_limit S] [--seed X]
//                              [--large 0|1] [--only TEXT] [--clues C]
//   Defaults: 5 puzzles per variant, 20 s for the samplers-only solve, seed
//   1; --large 1 adds plain 16x16 and 25x25 grids; --only keeps the variants
//   whose name contains TEXT; --clues stops the clue removal at C clues
//   (GenerateRequest.target_clues).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "core/base/interrupter.h"
#include "core/base/worker_pool.h"
#include "core/families/builtin.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "tests/tools/tool_flags.h"

namespace {

constexpr char kUsage[] =
    "Usage: sudoku_variants_stats [--puzzles N] [--time_limit S] [--seed X]\n"
    "                             [--large 0|1] [--only TEXT] [--clues C]\n"
    "Generates puzzles of each Sudoku variant and solves each with auto, as\n"
    "is and with its exact engines off; prints one markdown row per variant.\n"
    "Defaults: 5 puzzles per variant, a 20 s limit for the samplers-only\n"
    "solve, seed 1. --large 1 adds plain 16x16 and 25x25 grids; --only keeps\n"
    "the variants whose name contains TEXT; --clues stops the clue removal\n"
    "at C clues.\n";

struct Variant {
  const char* name;
  int rows;
  int box_rows = 0, box_cols = 0;
  bool jigsaw = false, diagonals = false, killer = false;
};

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

struct SolveRun {
  bool valid = false;
  double seconds = 0;
};

SolveRun Solve(const qs::SolveEngine& engine, const qs::v1::PuzzleSpec& puzzle,
               bool exact, double time_limit, uint64_t seed) {
  qs::v1::SolveRequest request;
  *request.mutable_puzzle() = puzzle;
  qs::v1::SolveParams& params = *request.mutable_params();
  params.set_backend("auto");
  params.set_seed(seed);
  params.set_max_sample_events(1);
  if (!exact) {
    params.mutable_auto_()->set_exact(qs::v1::EXACT_OFF);
    params.set_time_limit_seconds(time_limit);
  }
  qs::Interrupter interrupter;
  SolveRun run;
  const absl::Time start = absl::Now();
  const absl::Status status =
      engine.Solve(request, interrupter, [&](qs::v1::SolveResponse&& response) {
        if (response.has_summary()) run.valid = response.summary().best_valid();
      });
  run.seconds = absl::ToDoubleSeconds(absl::Now() - start);
  if (!status.ok()) {
    std::fprintf(stderr, "solve: %s\n", std::string(status.message()).c_str());
    run.valid = false;
  }
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  int puzzles = 5;
  double time_limit = 20;
  uint64_t seed = 1;
  bool large = false;
  std::string only;
  int clues = 0;
  const std::optional<int> exit_code = qs::tools::ParseFlagPairs(
      argc, argv, kUsage, [&](const std::string& flag, const char* value) {
        if (flag == "--puzzles") {
          puzzles = std::atoi(value);
        } else if (flag == "--time_limit") {
          time_limit = std::atof(value);
        } else if (flag == "--seed") {
          seed = std::strtoull(value, nullptr, 10);
        } else if (flag == "--clues") {
          clues = std::atoi(value);
        } else if (flag == "--only") {
          only = value;
        } else if (flag == "--large") {
          large = std::atoi(value) != 0;
        } else {
          return false;
        }
        return true;
      });
  if (exit_code.has_value()) return *exit_code;
  qs::WorkerPool pool(2);
  qs::BackendRegistry samplers;
  qs::BackendOptions options;
  options.pool = &pool;
  if (!qs::RegisterBuiltinBackends(samplers, options).ok()) return 1;
  const qs::SolveEngine engine(&qs::BuiltinCompilers(), &samplers,
                               qs::SolveLimits{});

  std::vector<Variant> variants = {
      {"6x6 (2x3 boxes)", 6, 2, 3},
      {"8x8 (2x4 boxes)", 8, 2, 4},
      {"12x12 (3x4 boxes)", 12, 3, 4},
      {"X 9x9", 9, 0, 0, false, true},
      {"jigsaw 6x6", 6, 0, 0, true},
      {"jigsaw 9x9", 9, 0, 0, true},
      {"killer 6x6 (2x3 boxes)", 6, 2, 3, false, false, true},
      {"killer 9x9", 9, 0, 0, false, false, true},
  };
  if (large) {
    variants.push_back({"16x16", 16});
    variants.push_back({"25x25", 25});
  }
  std::printf(
      "| variant | puzzles | variables after reduction (median) | auto: valid "
      "| auto: median s | auto, exact off: valid | auto, exact off: median s "
      "| generate: median s |\n| --- | --- | --- | --- | --- | --- | --- | --- "
      "|\n");
  for (const Variant& variant : variants) {
    if (std::string(variant.name).find(only) == std::string::npos) continue;
    qs::v1::GenerateRequest generate;
    generate.set_family("sudoku");
    generate.set_rows(variant.box_rows != 0 ? 0 : variant.rows);
    generate.set_count(puzzles);
    generate.set_seed(seed);
    generate.set_target_clues(clues);
    qs::v1::SudokuVariant& asked = *generate.mutable_sudoku();
    asked.set_box_rows(variant.box_rows);
    asked.set_box_cols(variant.box_cols);
    asked.set_jigsaw(variant.jigsaw);
    asked.set_diagonals(variant.diagonals);
    asked.set_killer(variant.killer);
    std::vector<qs::v1::GeneratedPuzzle> made;
    qs::Interrupter interrupter;
    const absl::Status status = engine.Generate(
        generate, interrupter,
        [&](qs::v1::GeneratedPuzzle&& p) { made.push_back(std::move(p)); });
    if (!status.ok()) {
      std::printf("| %s | generate failed: %s |\n", variant.name,
                  std::string(status.message()).c_str());
      continue;
    }
    std::vector<double> variables, auto_s, off_s, gen_s;
    int auto_valid = 0, off_valid = 0;
    for (const qs::v1::GeneratedPuzzle& puzzle : made) {
      gen_s.push_back(puzzle.seconds());
      qs::v1::CompileRequest compile;
      *compile.mutable_puzzle() = puzzle.puzzle();
      auto compiled = engine.Compile(compile);
      if (compiled.ok()) variables.push_back(compiled->stats().variables());
      const SolveRun with_exact =
          Solve(engine, puzzle.puzzle(), true, time_limit, seed);
      auto_valid += with_exact.valid;
      auto_s.push_back(with_exact.seconds);
      const SolveRun samplers =
          Solve(engine, puzzle.puzzle(), false, time_limit, seed);
      off_valid += samplers.valid;
      off_s.push_back(samplers.seconds);
    }
    const double n = static_cast<double>(made.size());
    std::printf(
        "| %s | %zu | %.0f | %.0f %% | %.2f | %.0f %% | %.2f | %.2f |\n",
        variant.name, made.size(), Median(variables),
        n > 0 ? 100.0 * auto_valid / n : 0, Median(auto_s),
        n > 0 ? 100.0 * off_valid / n : 0, Median(off_s), Median(gen_s));
    std::fflush(stdout);
  }
  return 0;
}
