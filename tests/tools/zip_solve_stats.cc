// Solves generated Zip levels through the solve engine, as the server runs
// them, and prints per grid size: the levels (how many with walls), the
// variables of the position encoding before and after the reduction (median),
// and for each way of solving the share of levels answered with a valid path
// and the median wall-clock seconds per level (compile included):
//   auto       the default backend: the samplers race the `sat` backend on the
//              rules (core/families/zip/zip_rules.cc);
//   qubo-only  auto with exact engines off (AutoParams.exact = EXACT_OFF): the
//              QUBO samplers alone, until a valid path or the time limit.
//   any other  that backend by name ("sat", "cpu-sa" ...) with its defaults.
// Levels come from GenerateZip (hard difficulty), every other one with walls.
//
// Usage: zip_solve_stats [--levels L] [--sizes 6,7,8] [--time_limit S]
//                        [--threads T] [--modes auto,qubo-only] [--print 1]
//   Defaults: 10 levels per size, sizes 6, 7 and 8, a 20 s limit, two
//   worker threads, both modes. --print 1 also prints each level in the zip
//   text format (formats/puzzle_text.h) with its path's steps.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "core/base/interrupter.h"
#include "core/base/worker_pool.h"
#include "core/families/builtin.h"
#include "core/families/zip/zip.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "formats/puzzle_text.h"
#include "tests/tools/tool_flags.h"

namespace {

constexpr char kUsage[] =
    "Usage: zip_solve_stats [--levels L] [--sizes 6,7,8] [--time_limit S]\n"
    "                       [--threads T] [--modes auto,qubo-only] "
    "[--print 1]\n"
    "Generates Zip levels and solves each through the solve engine; prints\n"
    "per size the share solved and the median seconds per level.\n"
    "Defaults: 10 levels per size, sizes 6,7,8, a 20 s limit per solve, two\n"
    "worker threads, both modes (auto, qubo-only: auto without exact\n"
    "engines). The defaults take several minutes.\n";

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  int levels = 10, threads = 2, print = 0;
  double time_limit = 20;
  std::vector<int> sizes = {6, 7, 8};
  std::vector<std::string> modes = {"auto", "qubo-only"};
  const std::optional<int> exit_code = qs::tools::ParseFlagPairs(
      argc, argv, kUsage, [&](const std::string& flag, const char* value) {
        if (flag == "--levels") {
          levels = std::atoi(value);
        } else if (flag == "--print") {
          print = std::atoi(value);
        } else if (flag == "--threads") {
          threads = std::atoi(value);
        } else if (flag == "--time_limit") {
          time_limit = std::atof(value);
        } else if (flag == "--sizes") {
          sizes.clear();
          for (absl::string_view s : absl::StrSplit(value, ',')) {
            int side = 0;
            if (absl::SimpleAtoi(s, &side)) sizes.push_back(side);
          }
        } else if (flag == "--modes") {
          modes = absl::StrSplit(value, ',');
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

  std::printf("%-5s %6s %5s %10s %10s", "size", "levels", "walls", "vars",
              "reduced");
  for (const std::string& mode : modes)
    std::printf(" %10s %9s", (mode + " ok").c_str(), "median s");
  std::printf("\n");
  for (int side : sizes) {
    std::vector<double> full, reduced;
    std::vector<std::vector<double>> seconds(modes.size());
    std::vector<int> solved(modes.size(), 0);
    int with_walls = 0, made = 0;
    for (int i = 0; i < levels; ++i) {
      qs::ZipGenerateOptions zip;
      zip.rows = zip.cols = side;
      zip.walls = i % 2 == 1;
      qs::Interrupter generation;
      auto level = qs::GenerateZip(zip, 1000 * side + i, generation);
      if (!level.ok()) {
        std::fprintf(stderr, "%dx%d level %d: %s\n", side, side, i,
                     std::string(level.status().message()).c_str());
        continue;
      }
      ++made;
      if (print) {
        auto text = qs::formats::FormatPuzzleText("zip", level->puzzle);
        std::printf("%dx%d level %d: %s\n", side, side, i,
                    text.ok() ? text->c_str() : "?");
        const int n = side * side;
        for (int r = 0; r < side; ++r) {
          for (int c = 0; c < side; ++c) {
            for (int s = 0; s < n; ++s) {
              if (level->solution[(r * side + c) * n + s])
                std::printf("%3d", s + 1);
            }
          }
          std::printf("\n");
        }
      }
      with_walls += zip.walls;
      qs::v1::CompileRequest compile;
      *compile.mutable_puzzle() = level->puzzle;
      auto compiled = engine.Compile(compile);
      if (compiled.ok()) {
        full.push_back(compiled->stats().variables_total());
        reduced.push_back(compiled->stats().variables());
      }
      for (size_t m = 0; m < modes.size(); ++m) {
        qs::v1::SolveRequest request;
        *request.mutable_puzzle() = level->puzzle;
        request.mutable_params()->set_seed(i + 1);
        request.mutable_params()->set_time_limit_seconds(time_limit);
        if (modes[m] == "qubo-only") {
          request.mutable_params()->mutable_auto_()->set_exact(
              qs::v1::EXACT_OFF);
        } else if (modes[m] != "auto") {
          request.mutable_params()->set_backend(modes[m]);
        }
        qs::Interrupter interrupter;
        qs::v1::SolveSummary summary;
        const absl::Time start = absl::Now();
        const absl::Status status = engine.Solve(
            request, interrupter, [&](qs::v1::SolveResponse&& event) {
              if (event.has_summary()) summary = event.summary();
            });
        seconds[m].push_back(absl::ToDoubleSeconds(absl::Now() - start));
        if (status.ok() && summary.best_valid()) ++solved[m];
      }
    }
    std::printf("%dx%-3d %6d %5d %10.0f %10.0f", side, side, made, with_walls,
                Median(full), Median(reduced));
    for (size_t m = 0; m < modes.size(); ++m) {
      std::printf(" %9.0f%% %9.2f", made == 0 ? 0.0 : 100.0 * solved[m] / made,
                  Median(seconds[m]));
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
