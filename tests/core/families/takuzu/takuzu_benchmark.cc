// Solve times of the stored Takuzu / Tango puzzles
// (tests/data/takuzu/puzzles.txt) through the solve engine, as the server runs
// them: compile with the full reduction of [Mata Ali & Mencia 2025] §3, then
// CPU simulated annealing with stop_at_first_valid until a read decodes to a
// valid board (the uniqueness rule included), in Solve calls of 64 reads of 200
// sweeps. One benchmark per group of puzzles (kind, size, Unruly unique mode);
// an iteration solves every puzzle of the group once. Counters: mean variables
// before and after the reduction and the paper's bound on them, mean reads and
// wall-clock milliseconds per puzzle until the first valid board (solve_ms,
// compile included), puzzles left unsolved.
//
// Run from the source tree: build/tests/takuzu_benchmark
// (or set QS_SOURCE_DIR to it); --benchmark_filter=14x14 picks groups.
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "benchmark/benchmark.h"
#include "core/base/worker_pool.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/families/takuzu/takuzu.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "formats/puzzle_text.h"

namespace qs {
namespace {

struct Group {
  std::string name;  // "unruly-14x14-u", "tango-6x6" ...
  std::vector<v1::PuzzleSpec> specs;
};

std::vector<Group> LoadGroups() {
  const char* dir = std::getenv("QS_SOURCE_DIR");
  std::ifstream in(std::string(dir != nullptr ? dir : ".") +
                   "/tests/data/takuzu/puzzles.txt");
  std::map<std::string, Group> groups;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name, kind, input;
    fields >> name >> kind >> input;
    auto spec = formats::ParsePuzzleText(kind, input);
    if (!spec.ok()) continue;
    const v1::TakuzuPuzzle& t = spec->takuzu();
    const std::string group = absl::StrCat(
        kind == "tango" ? "tango-" : "unruly-", t.rows(), "x", t.cols(),
        kind == "takuzu" && t.unique_lines() ? "-u" : "");
    groups[group].name = group;
    groups[group].specs.push_back(*spec);
  }
  std::vector<Group> out;
  for (auto& [name, group] : groups) out.push_back(std::move(group));
  return out;
}

const std::vector<Group>& Groups() {
  static const auto* groups = new std::vector<Group>(LoadGroups());
  return *groups;
}

struct Engine {
  WorkerPool pool{2};
  BackendRegistry samplers;
  std::unique_ptr<SolveEngine> engine;
  Engine() {
    BackendOptions options;
    options.pool = &pool;
    if (!RegisterBuiltinBackends(samplers, options).ok()) std::abort();
    engine = std::make_unique<SolveEngine>(&BuiltinCompilers(), &samplers,
                                           SolveLimits{});
  }
};

Engine& SharedEngine() {
  static auto* engine = new Engine;
  return *engine;
}

constexpr int kBatchReads = 64;
constexpr int kMaxBatches = 1000;

void BM_SolveStoredPuzzles(benchmark::State& state) {
  const Group& group = Groups()[state.range(0)];
  const int sweeps = static_cast<int>(state.range(1));
  state.SetLabel(group.name);
  Engine& e = SharedEngine();
  double before = 0, after = 0, bound = 0;
  for (const v1::PuzzleSpec& spec : group.specs) {
    v1::CompileRequest request;
    *request.mutable_puzzle() = spec;
    auto compiled = e.engine->Compile(request);
    if (!compiled.ok()) {
      state.SkipWithError(std::string(compiled.status().message()).c_str());
      return;
    }
    before += compiled->stats().variables_total();
    after += compiled->stats().variables();
    bound += static_cast<double>(TakuzuPaperVariableBound(spec.takuzu()));
  }
  uint64_t seed = 1;
  double reads = 0, unsolved = 0, solves = 0, seconds = 0;
  for (auto _ : state) {
    for (const v1::PuzzleSpec& spec : group.specs) {
      // Batches of reads, each a Solve call with its own seed, until one read
      // is valid: what a client does when the reads it asked for all broke a
      // rule (for Takuzu: usually the uniqueness rule).
      const absl::Time start = absl::Now();
      bool valid = false;
      for (int batch = 0; batch < kMaxBatches && !valid; ++batch) {
        v1::SolveRequest request;
        *request.mutable_puzzle() = spec;
        request.mutable_params()->set_num_reads(kBatchReads);
        request.mutable_params()->set_num_sweeps(sweeps);
        request.mutable_params()->set_seed(seed++);
        request.mutable_params()->set_stop_at_first_valid(true);
        request.mutable_params()->set_max_sample_events(1);
        Interrupter interrupter;
        v1::SolveSummary summary;
        const absl::Status status =
            e.engine->Solve(request, interrupter, [&](v1::SolveResponse&& r) {
              if (r.has_summary()) summary = r.summary();
            });
        if (!status.ok()) {
          state.SkipWithError(std::string(status.message()).c_str());
          return;
        }
        reads += summary.reads_done();
        valid = summary.best_valid();
      }
      seconds += absl::ToDoubleSeconds(absl::Now() - start);
      unsolved += valid ? 0 : 1;
      ++solves;
    }
  }
  const double n = static_cast<double>(group.specs.size());
  state.counters["puzzles"] = n;
  state.counters["vars_before"] = before / n;
  state.counters["vars_bound"] = bound / n;
  state.counters["vars_after"] = after / n;
  state.counters["reads"] = solves > 0 ? reads / solves : 0;
  state.counters["unsolved"] = unsolved;
  state.counters["solve_ms"] = solves > 0 ? 1000 * seconds / solves : 0;
}

void RegisterAll() {
  for (size_t g = 0; g < Groups().size(); ++g) {
    benchmark::RegisterBenchmark(
        absl::StrCat("BM_SolveStoredPuzzles/", Groups()[g].name).c_str(),
        BM_SolveStoredPuzzles)
        ->Args({static_cast<int64_t>(g), 200})
        ->Iterations(5)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

}  // namespace
}  // namespace qs

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  qs::RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
