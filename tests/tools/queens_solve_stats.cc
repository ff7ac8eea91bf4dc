// Compiles the stored LinkedIn-Queens puzzles
// (tests/data/queens/linkedin_queens.txt) and N-queens boards with the queens
// compiler ([Mata Ali & Mencia 2024] §2.2) and anneals each with the CPU
// sampler, printing one line per puzzle: variables before and after the
// reduction, couplers of the reduced model, the fraction of reads that reach
// the ground energy and the sampling time.
//
// Usage: queens_solve_stats [PUZZLE_FILE] [--reads R] [--sweeps S] [--seed X]
// [--nqueens N,N,...]
//                           [--beta-hot B] [--beta-cold B] [--linear]
//                           [--drop-region-term] [--givens K]
//   Defaults: tests/data/queens/linkedin_queens.txt, 100 reads, 1000 sweeps
//   (the service defaults), seed 1, N-queens 8 and 12, the default beta range
//   and geometric schedule, every region term kept
//   (--drop-region-term: eq. 9's form,
//   QueensPuzzle.drop_redundant_region_term), no pre-placed queens
//   (--givens K: the solution's queens of the first K rows are given). Two
//   worker threads. Run from the source directory, or give the puzzle file.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "core/base/interrupter.h"
#include "core/base/worker_pool.h"
#include "core/families/queens/queens.h"
#include "core/sample/cpu_sa/cpu_sa_sampler.h"
#include "tests/testing/linkedin_queens.h"
#include "tests/tools/tool_flags.h"

namespace {

constexpr char kUsage[] =
    "Usage: queens_solve_stats [PUZZLE_FILE] [--reads R] [--sweeps S]\n"
    "                          [--seed X] [--nqueens N,N,...] [--beta-hot B]\n"
    "                          [--beta-cold B] [--linear]\n"
    "                          [--drop-region-term] [--givens K]\n"
    "Compiles the stored LinkedIn-Queens puzzles and N-queens boards and\n"
    "anneals each with the CPU sampler; prints one line per puzzle.\n"
    "Defaults: tests/data/queens/linkedin_queens.txt, 100 reads of 1000\n"
    "sweeps, seed 1, N-queens 8 and 12, every region term kept, no queens\n"
    "given. Run from the source directory, or give the puzzle file.\n";

class CountingSink : public qs::SampleSink {
 public:
  explicit CountingSink(double ground) : ground_(ground) {}
  void OnSample(qs::Sample sample) override {
    absl::MutexLock lock(&mu_);
    ++reads_;
    if (sample.energy <= ground_ + 1e-9) ++ground_reads_;
  }
  int reads() const { return reads_; }
  int ground_reads() const { return ground_reads_; }

 private:
  const double ground_;
  absl::Mutex mu_;
  int reads_ = 0;
  int ground_reads_ = 0;
};

void Run(const std::string& name, const qs::v1::PuzzleSpec& spec,
         const qs::Sampler& sampler, const qs::SampleParams& params,
         const qs::v1::CompileOptions& options) {
  auto problem = qs::NewQueensCompiler()->Compile(spec, options);
  if (!problem.ok()) {
    std::printf("%-8s %s\n", name.c_str(),
                std::string(problem.status().message()).c_str());
    return;
  }
  CountingSink sink(*problem->ground_energy);
  qs::Interrupter interrupter;
  const auto start = std::chrono::steady_clock::now();
  auto stats = sampler.Sample(problem->model, params, sink, interrupter);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!stats.ok()) {
    std::printf("%-8s %s\n", name.c_str(),
                std::string(stats.status().message()).c_str());
    return;
  }
  std::printf("%-8s %6d %6d %8lld %5d/%-5d %6.3f %8.3f\n", name.c_str(),
              problem->full_model.num_variables(),
              problem->model.num_variables(),
              static_cast<long long>(problem->model.num_couplers()),
              sink.ground_reads(), sink.reads(),
              static_cast<double>(sink.ground_reads()) / sink.reads(), seconds);
}

}  // namespace

int main(int argc, char** argv) {
  std::string path = "tests/data/queens/linkedin_queens.txt";
  qs::SampleParams params;
  params.seed = 1;
  std::vector<int> nqueens = {8, 12};
  qs::v1::CompileOptions options;
  bool drop_region_term = false;
  int givens = 0;
  if (qs::tools::PrintUsageIfAsked(argc, argv, kUsage)) return 0;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (std::strcmp(argv[i], "--reads") == 0 && has_value) {
      params.num_reads = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--sweeps") == 0 && has_value) {
      params.num_sweeps = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--seed") == 0 && has_value) {
      params.seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (std::strcmp(argv[i], "--beta-hot") == 0 && has_value) {
      params.beta_hot = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--beta-cold") == 0 && has_value) {
      params.beta_cold = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--linear") == 0) {
      params.schedule = qs::ScheduleType::kLinear;
    } else if (std::strcmp(argv[i], "--givens") == 0 && has_value) {
      givens = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--drop-region-term") == 0) {
      drop_region_term = true;
    } else if (std::strcmp(argv[i], "--nqueens") == 0 && has_value) {
      nqueens.clear();
      for (char* p = argv[++i]; *p != '\0';) {
        nqueens.push_back(static_cast<int>(std::strtol(p, &p, 10)));
        if (*p == ',') ++p;
      }
    } else if (argv[i][0] != '-') {
      path = argv[i];
    } else {
      std::fprintf(stderr, "%s: unknown flag or missing value\n%s", argv[i],
                   kUsage);
      return 2;
    }
  }
  std::string error;
  const std::vector<qs::testing::LinkedInPuzzle> puzzles =
      qs::testing::ReadLinkedInPuzzles(path, &error);
  if (!error.empty()) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  qs::WorkerPool pool(2);
  const auto sampler = qs::NewCpuSaSampler(&pool);
  std::printf("# %d reads x %d sweeps, seed %llu\n", params.num_reads,
              params.num_sweeps, static_cast<unsigned long long>(params.seed));
  std::printf("%-8s %6s %6s %8s %11s %6s %8s\n", "puzzle", "vars", "free",
              "couplers", "ground", "frac", "seconds");
  for (const auto& puzzle : puzzles) {
    qs::v1::PuzzleSpec spec;
    spec.mutable_queens()->set_rows(puzzle.n);
    spec.mutable_queens()->set_attack(qs::v1::QUEENS_ATTACK_ADJACENT_DIAGONALS);
    for (int id : puzzle.regions) spec.mutable_queens()->add_regions(id);
    spec.mutable_queens()->set_drop_redundant_region_term(drop_region_term);
    for (int r = 0; r < givens && r < puzzle.n; ++r) {
      spec.mutable_queens()->add_given_queens(r * puzzle.n +
                                              puzzle.solution[r]);
    }
    Run(puzzle.name, spec, *sampler, params, options);
  }
  for (int n : nqueens) {
    qs::v1::PuzzleSpec spec;
    spec.mutable_queens()->set_rows(n);
    Run("queens" + std::to_string(n), spec, *sampler, params, options);
  }
  return 0;
}
