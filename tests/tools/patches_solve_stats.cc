// Solves generated Patches levels through the solve engine, as the server
// runs them, and prints per size the median variables of the full model,
// after the full reduction and after the "other_clues" stage alone, and the
// share solved and median solve time (compile included) for `auto` as it is
// (the "sat" engine races the samplers), for `auto` with its exact engines
// off (AutoParams.exact = EXACT_OFF: the QUBO samplers alone) under a time
// limit, and for the latter on the model of REDUCTION_CLUES; and the median
// compile time (full reduction). The figures in
// docs/patches.md come from it.
//
// Usage: patches_solve_stats [--levels N] [--seed X] [--threads T]
//                            [--time_limit S] [--min_side A] [--max_side B]
//                            [--show 1]
//   Defaults: 20 levels per size of 6x6 to 8x8 (GenerateRequest, family
//   "patches", default difficulty), seed 1, two worker threads, a 20 s limit
//   for the samplers-only solves (`auto` alone keeps its default 10 s).
//   --show 1 prints each level in the text format, with its variables and
//   both solve times.
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
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "formats/puzzle_text.h"
#include "tests/tools/tool_flags.h"

namespace {

constexpr char kUsage[] =
    "Usage: patches_solve_stats [--levels N] [--seed X] [--threads T]\n"
    "                           [--time_limit S] [--min_side A]\n"
    "                           [--max_side B] [--show 1]\n"
    "Generates Patches levels and solves each through the solve engine with\n"
    "auto and with auto's exact engines off; prints per size the variables,\n"
    "the share solved and the median times.\n"
    "Defaults: 20 levels per size of 6x6 to 8x8, seed 1, two worker threads,\n"
    "a 20 s limit for the samplers-only solves. --show 1 prints each level.\n";

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

struct Outcome {
  bool valid = false;
  double ms = 0;
  std::string board;  // the best board's rows, '/' between them
};

// `auto` as it is; with its exact engines off under a time limit; the same
// on the model of the "other_clues" reduction alone (REDUCTION_CLUES), which
// leaves the samplers a search where the full reduction decides most levels.
enum class Mode { kAuto, kExactOff, kExactOffClues };

Outcome SolveOnce(const qs::SolveEngine& engine, const qs::v1::PuzzleSpec& spec,
                  Mode mode, double time_limit, uint64_t seed) {
  qs::v1::SolveRequest request;
  *request.mutable_puzzle() = spec;
  const bool exact_off = mode != Mode::kAuto;
  if (mode == Mode::kExactOffClues)
    request.mutable_compile()->set_reduction(qs::v1::REDUCTION_CLUES);
  request.mutable_params()->set_backend("auto");
  request.mutable_params()->set_seed(seed);
  request.mutable_params()->set_max_sample_events(1);
  if (exact_off) {
    request.mutable_params()->mutable_auto_()->set_exact(qs::v1::EXACT_OFF);
    request.mutable_params()->set_time_limit_seconds(time_limit);
  }
  qs::Interrupter interrupter;
  Outcome outcome;
  const absl::Time start = absl::Now();
  const absl::Status status =
      engine.Solve(request, interrupter, [&](qs::v1::SolveResponse&& r) {
        if (!r.has_summary()) return;
        outcome.valid = r.summary().best_valid();
        for (const std::string& row : r.summary().best_solution().rows())
          outcome.board += (outcome.board.empty() ? "" : "/") + row;
      });
  outcome.ms = absl::ToDoubleMilliseconds(absl::Now() - start);
  if (!status.ok()) {
    std::fprintf(stderr, "solve: %s\n", std::string(status.message()).c_str());
    outcome.valid = false;
  }
  return outcome;
}

}  // namespace

int main(int argc, char** argv) {
  int levels = 20, threads = 2, min_side = 6, max_side = 8;
  uint64_t seed = 1;
  double time_limit = 20;
  bool show = false;
  const std::optional<int> exit_code = qs::tools::ParseFlagPairs(
      argc, argv, kUsage, [&](const std::string& flag, const char* value) {
        if (flag == "--levels") {
          levels = std::atoi(value);
        } else if (flag == "--seed") {
          seed = std::strtoull(value, nullptr, 10);
        } else if (flag == "--threads") {
          threads = std::atoi(value);
        } else if (flag == "--time_limit") {
          time_limit = std::atof(value);
        } else if (flag == "--min_side") {
          min_side = std::atoi(value);
        } else if (flag == "--show") {
          show = std::atoi(value) != 0;
        } else if (flag == "--max_side") {
          max_side = std::atoi(value);
        } else {
          return false;
        }
        return true;
      });
  if (exit_code.has_value()) return *exit_code;
  qs::WorkerPool pool(threads);
  qs::BackendRegistry backends;
  qs::BackendOptions options;
  options.pool = &pool;
  if (!qs::RegisterBuiltinBackends(backends, options).ok()) return 1;
  qs::SolveEngine engine(&qs::BuiltinCompilers(), &backends, qs::SolveLimits{});
  // vars: full model; reduced: after the full reduction (median, largest,
  // share of levels it decides whole); clues: after other_clues alone.
  std::printf("%-5s %6s %5s %-13s %5s %10s | %-17s | %-17s | %-17s\n", "size",
              "levels", "vars", "reduced", "clues", "compile",
              "auto: solved, ms", "exact off", "exact off, clues");
  for (int side = min_side; side <= max_side; ++side) {
    qs::v1::GenerateRequest generate;
    generate.set_family("patches");
    generate.set_rows(side);
    generate.set_count(levels);
    generate.set_seed(seed + side);
    std::vector<qs::v1::PuzzleSpec> specs;
    qs::Interrupter interrupter;
    const absl::Status made = engine.Generate(
        generate, interrupter,
        [&](qs::v1::GeneratedPuzzle&& p) { specs.push_back(p.puzzle()); });
    if (!made.ok()) {
      std::fprintf(stderr, "generate %dx%d: %s\n", side, side,
                   std::string(made.message()).c_str());
      return 1;
    }
    // Variables: full model, after the full reduction, after other_clues.
    std::vector<double> total, reduced, clues_only, compile_ms;
    std::vector<double> ms[3];
    int valid[3] = {0, 0, 0};
    for (size_t i = 0; i < specs.size(); ++i) {
      qs::v1::CompileRequest compile;
      *compile.mutable_puzzle() = specs[i];
      auto full = engine.Compile(compile);
      compile.mutable_options()->set_reduction(qs::v1::REDUCTION_CLUES);
      auto clues = engine.Compile(compile);
      if (!full.ok() || !clues.ok()) {
        std::fprintf(
            stderr, "compile: %s\n",
            std::string((full.ok() ? clues : full).status().message()).c_str());
        return 1;
      }
      total.push_back(full->stats().variables_total());
      reduced.push_back(full->stats().variables());
      clues_only.push_back(clues->stats().variables());
      compile_ms.push_back(1000 * full->stats().compile_seconds());
      Outcome outcomes[3];
      for (int m = 0; m < 3; ++m) {
        outcomes[m] = SolveOnce(engine, specs[i], static_cast<Mode>(m),
                                time_limit, seed + i);
        valid[m] += outcomes[m].valid;
        ms[m].push_back(outcomes[m].ms);
      }
      if (show) {
        auto text = qs::formats::FormatPuzzleText("patches", specs[i]);
        std::printf("  %s -> %s  vars %u/%u/%u  ms %.1f %.1f %.1f%s\n",
                    text.ok() ? text->c_str() : "?", outcomes[0].board.c_str(),
                    full->stats().variables_total(), full->stats().variables(),
                    clues->stats().variables(), outcomes[0].ms, outcomes[1].ms,
                    outcomes[2].ms,
                    outcomes[0].valid && outcomes[1].valid && outcomes[2].valid
                        ? ""
                        : "  NOT SOLVED");
      }
    }
    const double n = static_cast<double>(specs.size());
    const int decided =
        static_cast<int>(std::count(reduced.begin(), reduced.end(), 0.0));
    std::printf("%dx%-3d %6zu %5.0f %2.0f %3.0f %4.0f %% %5.0f %7.1f ms", side,
                side, specs.size(), Median(total), Median(reduced),
                *std::max_element(reduced.begin(), reduced.end()),
                100.0 * decided / specs.size(), Median(clues_only),
                Median(compile_ms));
    for (int m = 0; m < 3; ++m)
      std::printf(" | %4.0f %% %7.1f ms", 100.0 * valid[m] / n, Median(ms[m]));
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
