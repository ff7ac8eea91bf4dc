// Compiles the stored Tents & Trees puzzles (tests/data/tents/sgt_puzzles.txt,
// made by sgt-tents) with the tents compiler ([Mata Ali & Mencia 2024]
// §2.5, eq. 22) and anneals each with the CPU sampler, printing one line per
// puzzle: variables after each reduction stage (model, trees, outside_regions,
// zero_lines), couplers of the reduced model, the ground energy N_T/4, the
// fraction of reads that decode to a valid board and the sampling time.
//
// Usage: tents_solve_stats [--reads R] [--sweeps S] [--seed X] [--threads T]
//   Defaults: 100 reads of 1000 sweeps (the service defaults), seed 1, two
//   worker threads, the default beta range and geometric schedule. Run from
//   the source directory or set QS_SOURCE_DIR.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "core/base/interrupter.h"
#include "core/base/worker_pool.h"
#include "core/families/tents/tents.h"
#include "core/sample/cpu_sa/cpu_sa_sampler.h"
#include "tests/testing/tents_data.h"
#include "tests/testing/tents_oracle.h"
#include "tests/tools/tool_flags.h"

namespace {

constexpr char kUsage[] =
    "Usage: tents_solve_stats [--reads R] [--sweeps S] [--seed X] "
    "[--threads T]\n"
    "Compiles the stored Tents puzzles (tests/data/tents/sgt_puzzles.txt)\n"
    "and anneals each with the CPU sampler; prints one line per puzzle.\n"
    "Defaults: 100 reads of 1000 sweeps, seed 1, two worker threads. Run\n"
    "from the source directory or set QS_SOURCE_DIR.\n";

class CollectingSink : public qs::SampleSink {
 public:
  void OnSample(qs::Sample sample) override {
    absl::MutexLock lock(&mu_);
    samples_.push_back(std::move(sample));
  }
  std::vector<qs::Sample> Take() {
    absl::MutexLock lock(&mu_);
    return std::move(samples_);
  }

 private:
  absl::Mutex mu_;
  std::vector<qs::Sample> samples_;
};

}  // namespace

int main(int argc, char** argv) {
  qs::SampleParams params;  // 100 reads, 1000 sweeps
  params.seed = 1;
  int threads = 2;
  const std::optional<int> exit_code = qs::tools::ParseFlagPairs(
      argc, argv, kUsage, [&](const std::string& flag, const char* text) {
        const long value = std::strtol(text, nullptr, 10);
        if (flag == "--reads") {
          params.num_reads = static_cast<int>(value);
        } else if (flag == "--sweeps") {
          params.num_sweeps = static_cast<int>(value);
        } else if (flag == "--seed") {
          params.seed = static_cast<uint64_t>(value);
        } else if (flag == "--threads") {
          threads = static_cast<int>(value);
        } else {
          return false;
        }
        return true;
      });
  if (exit_code.has_value()) return *exit_code;
  const auto puzzles = qs::testing::ReadStoredTentsPuzzles();
  if (puzzles.empty()) {
    std::fprintf(stderr, "no puzzles in %s\n",
                 qs::testing::TentsDataPath().c_str());
    return 1;
  }
  qs::WorkerPool pool(threads);
  auto sampler = qs::NewCpuSaSampler(&pool);
  auto compiler = qs::NewTentsCompiler();
  std::printf("%-9s %5s %5s %5s %5s %8s %5s %9s %9s\n", "puzzle", "model",
              "trees", "regns", "lines", "couplers", "E0", "valid",
              "sample_ms");
  int total_valid = 0, total_reads = 0, index = 0;
  for (const auto& p : puzzles) {
    ++index;
    const qs::testing::TentsGame game =
        qs::testing::GameFromSolvedBoard(p.solution);
    const qs::v1::PuzzleSpec spec = qs::testing::TentsSpec(game);
    auto problem = compiler->Compile(spec, qs::v1::CompileOptions());
    if (!problem.ok() || problem->stages.size() != 4) {
      std::fprintf(stderr, "%s: %s\n", p.id.c_str(),
                   std::string(problem.status().message()).c_str());
      return 1;
    }
    CollectingSink sink;
    qs::Interrupter interrupter;
    const auto start = std::chrono::steady_clock::now();
    auto stats = sampler->Sample(problem->model, params, sink, interrupter);
    const double ms = std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start)
                          .count();
    if (!stats.ok()) {
      std::fprintf(stderr, "%s\n",
                   std::string(stats.status().message()).c_str());
      return 1;
    }
    int valid = 0, reads = 0;
    for (const qs::Sample& s : sink.Take()) {
      ++reads;
      auto report = compiler->Validate(
          spec,
          compiler->Decode(spec, *problem, problem->variables.Expand(s.bits)));
      if (report.ok() && report->valid()) ++valid;
    }
    total_valid += valid;
    total_reads += reads;
    std::printf("%-5s #%-2d %5d %5d %5d %5d %8lld %5.2f %4d/%-4d %9.1f\n",
                p.id.substr(0, p.id.find(':')).c_str(), index,
                problem->stages[0].variables, problem->stages[1].variables,
                problem->stages[2].variables, problem->stages[3].variables,
                static_cast<long long>(problem->model.num_couplers()),
                *problem->ground_energy, valid, reads, ms);
  }
  std::printf(
      "success fraction %d/%d = %.3f\n", total_valid, total_reads,
      total_reads > 0 ? static_cast<double>(total_valid) / total_reads : 0.0);
  return 0;
}
