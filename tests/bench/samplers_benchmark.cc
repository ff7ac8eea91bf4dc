// Speed of the samplers per spin-update attempt beside cpu-sa's, on the same
// reference instances of tests/data/instances: for each instance and sampler
// it runs one solve of --reads reads and --sweeps sweeps (each sampler's
// meaning of them, docs/backends.md, "Samplers") on a pool of --threads threads
// and prints the attempts (proposals evaluated), the wall and kernel CPU time,
// attempts per second of wall time, CPU ns per attempt, its ratio to cpu-sa's
// on the same instance, and the best energy reached. From the repository root:
//
//   build/tests/bench/samplers_benchmark
//   build/tests/bench/samplers_benchmark --instances=random_dense1000
//       --samplers=cpu-sa,tabu --reads=32 --sweeps=500   (one line)
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/base/worker_pool.h"
#include "core/qubo/qubo_proto.h"
#include "core/sample/cpu_sa/cpu_sa_sampler.h"
#include "core/sample/pa/pa_sampler.h"
#include "core/sample/sqa/sqa_sampler.h"
#include "core/sample/tabu/tabu_sampler.h"
#include "formats/qubo_text.h"

ABSL_FLAG(std::string, instances_dir, "tests/data/instances",
          "directory of the reference *.qubo files");
ABSL_FLAG(std::string, instances,
          "queens12,sudoku_nyt_I_IV,random_sparse2000,random_dense1000",
          "comma-separated instance names");
ABSL_FLAG(std::string, samplers, "cpu-sa,tabu,pa,sqa",
          "comma-separated backends: cpu-sa, tabu, pa, sqa");
ABSL_FLAG(int, reads, 64, "reads per solve");
ABSL_FLAG(int, sweeps, 1000, "sweeps per solve");
ABSL_FLAG(int, threads, 2, "worker threads");
ABSL_FLAG(uint64_t, seed, 1, "seed");

namespace qs {
namespace {

class BestSink final : public SampleSink {
 public:
  void OnSample(Sample sample) override {
    absl::MutexLock lock(&mu_);
    best_ = std::min(best_, sample.energy);
  }
  double best() {
    absl::MutexLock lock(&mu_);
    return best_;
  }

 private:
  absl::Mutex mu_;
  double best_ = 1e300;
};

std::unique_ptr<Sampler> MakeSampler(const std::string& name,
                                     WorkerPool* pool) {
  if (name == "tabu") return NewTabuSampler(pool);
  if (name == "pa") return NewPaSampler(pool);
  if (name == "sqa") return NewSqaSampler(pool);
  return NewCpuSaSampler(pool);
}

int Run() {
  WorkerPool pool(absl::GetFlag(FLAGS_threads));
  std::printf("%-18s %-7s %14s %9s %9s %12s %11s %9s %14s\n", "instance",
              "sampler", "attempts", "wall s", "cpu s", "attempts/s",
              "cpu ns/att", "vs cpu-sa", "best energy");
  for (absl::string_view instance :
       absl::StrSplit(absl::GetFlag(FLAGS_instances), ',', absl::SkipEmpty())) {
    const std::string path = absl::GetFlag(FLAGS_instances_dir) + "/" +
                             std::string(instance) + ".qubo";
    auto wire = formats::ReadQuboFile(path);
    if (!wire.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(),
                   std::string(wire.status().message()).c_str());
      return 1;
    }
    auto model = QuboFromProto(*wire);
    if (!model.ok()) return 1;
    double cpu_sa_ns = 0;
    for (absl::string_view name : absl::StrSplit(absl::GetFlag(FLAGS_samplers),
                                                 ',', absl::SkipEmpty())) {
      std::unique_ptr<Sampler> sampler = MakeSampler(std::string(name), &pool);
      SampleParams params;
      params.num_reads = absl::GetFlag(FLAGS_reads);
      params.num_sweeps = absl::GetFlag(FLAGS_sweeps);
      params.seed = absl::GetFlag(FLAGS_seed);
      BestSink sink;
      Interrupter interrupter;
      auto stats = sampler->Sample(*model, params, sink, interrupter);
      if (!stats.ok()) {
        std::fprintf(stderr, "%s: %s\n", std::string(name).c_str(),
                     std::string(stats.status().message()).c_str());
        return 1;
      }
      const double attempts = static_cast<double>(stats->spin_update_attempts);
      const double wall = absl::ToDoubleSeconds(stats->elapsed);
      const double cpu = absl::ToDoubleSeconds(stats->cpu_time);
      const double ns = attempts > 0 ? cpu * 1e9 / attempts : 0;
      if (name == "cpu-sa") cpu_sa_ns = ns;
      std::printf("%-18s %-7s %14.0f %9.3f %9.3f %12.3g %11.3f %9s %14.6f\n",
                  std::string(instance).c_str(), std::string(name).c_str(),
                  attempts, wall, cpu, attempts / wall, ns,
                  cpu_sa_ns > 0
                      ? absl::StrFormat("%.2fx", ns / cpu_sa_ns).c_str()
                      : "-",
                  sink.best());
    }
  }
  return 0;
}

}  // namespace
}  // namespace qs

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  return qs::Run();
}
