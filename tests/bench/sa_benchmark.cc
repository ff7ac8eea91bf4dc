// Benchmark of the CPU annealer (backend "cpu-sa") on the reference instances
// of ../shared/data/instances (README.md there: format, ground energies and
// D-Wave's figures), against D-Wave's simulated annealer (dwave-samplers SA
// core, one core, default schedule, 1000 sweeps).
//
// Per instance, beta-range rule and thread count it runs batches of reads
// until --min_time has passed and enough reads succeeded (or --max_time), then
// reports ns per spin-update attempt (per core), attempts per second, the
// success probability p (reads reaching the ground energy, or the best known
// energy of the random instances) and TTS99 = t_read ln(0.01) / ln(1 - p),
// where t_read is the wall time per read at that thread count (so TTS99 on 2
// cores is the 2-core throughput figure). A final table puts D-Wave's figures
// beside ours with the ratios. From the repository root:
//
//   build/tests/bench/sa_benchmark --instances_dir=../shared/data/instances
//   build/tests/bench/sa_benchmark --only=queens8 --rules=dwave --kernel=scalar
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "benchmark/benchmark.h"
#include "clients/formats/qubo_text.h"
#include "core/base/worker_pool.h"
#include "core/qubo/qubo_proto.h"
#include "core/sample/cpu_sa/cpu_sa_sampler.h"
#include "core/sample/schedule.h"

ABSL_FLAG(std::string, instances_dir, "../shared/data/instances",
          "directory of the reference *.qubo files (environment "
          "QS_INSTANCES_DIR overrides the default)");
ABSL_FLAG(std::string, only, "",
          "comma-separated instance names to run (default: all)");
ABSL_FLAG(std::string, rules, "tuned,dwave",
          "beta-range rules to run: tuned (the default schedule) and/or dwave "
          "(dwave-samplers' range)");
ABSL_FLAG(std::string, kernel, "auto",
          "kernel path: auto, scalar, avx2 or avx512");
ABSL_FLAG(std::string, threads, "1,2", "comma-separated thread counts");
ABSL_FLAG(int, sweeps, 1000, "sweeps per read");
ABSL_FLAG(double, hot_scale, 1.0,
          "multiplies the rule's beta_hot (exploration)");
ABSL_FLAG(double, cold_scale, 1.0,
          "multiplies the rule's beta_cold (exploration)");
ABSL_FLAG(double, min_time, 1.0,
          "seconds of sampling per measurement, at least");
ABSL_FLAG(double, max_time, 6.0,
          "seconds of sampling per measurement, at most");
ABSL_FLAG(
    int, min_successes, 30,
    "successful reads wanted before stopping between min_time and max_time");

namespace qs {
namespace {

// D-Wave's figures from ../shared/data/instances/README.md (g++ 12 -O3
// -march=native, one core of a 2-vCPU AMD Zen 5, default schedule, 1000
// sweeps). p < 0: not reported; tts_ms 0: no success.
struct Reference {
  const char* name;
  double ground_energy;
  bool best_known;  // the random instances: lowest energy D-Wave found, not a
                    // proven optimum
  double dwave_ns_per_attempt;
  double dwave_read_ms;
  double dwave_p;
  double dwave_tts_ms;
};

constexpr Reference kReferences[] = {
    {"takuzu6", 12, false, 13.2, 0.48, 0.994, 0.48},
    {"takuzu10", 40, false, 13.8, 1.38, 0.993, 1.4},
    {"takuzu14", 84, false, 16.4, 3.21, 0.990, 3.2},
    {"queens8", 0, false, 17.1, 1.09, 0.725, 3.9},
    {"queens12", 0, false, 20.2, 2.91, 0.537, 17},
    {"sudoku_nyt_I_IV", -81, false, 13.1, 2.76, 4.5e-4, 28000},
    {"sudoku_nyt_I_II", -81, false, 13.3, 6.82, 0, 0},
    {"sudoku_full", -81, false, 13.6, 9.89, 0.030, 1500},
    {"random_sparse2000", -1202.802866, true, 5.0, 10.1, -1, 0},
    {"random_dense1000", -2471.83488, true, 24.5, 24.5, 0.077, 1400},
};

struct Result {
  std::string instance;
  std::string rule;
  int threads = 0;
  int n = 0;
  double ns_per_attempt_per_core = 0;
  // Process CPU time per attempt: the per-core figure on a busy machine.
  double cpu_ns_per_attempt = 0;
  double acceptance = 0;  // accepted flips per attempt
  double attempts_per_second = 0;
  int64_t reads = 0;
  int64_t successes = 0;
  double read_seconds = 0;      // wall time per read at this thread count
  double cpu_read_seconds = 0;  // CPU time per read, summed over threads
  double tts_seconds = 0;       // inf when nothing succeeded
  std::string kernel;
  const Reference* reference = nullptr;
};

double ProcessCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

std::vector<Result>& Results() {
  static auto* results = new std::vector<Result>;
  return *results;
}

double Tts99(double read_seconds, double p) {
  if (p <= 0) return INFINITY;
  if (p >= 0.99) return read_seconds;
  return read_seconds * std::log(0.01) / std::log(1 - p);
}

class CollectSink final : public SampleSink {
 public:
  explicit CollectSink(double target) : target_(target) {}
  void OnSample(Sample sample) override {
    reads_.fetch_add(1);
    if (sample.energy <= target_) successes_.fetch_add(1);
  }
  int64_t reads() const { return reads_.load(); }
  int64_t successes() const { return successes_.load(); }

 private:
  const double target_;
  std::atomic<int64_t> reads_{0}, successes_{0};
};

KernelPath ParseKernel(const std::string& name) {
  if (name == "scalar") return KernelPath::kScalar;
  if (name == "avx2") return KernelPath::kAvx2;
  if (name == "avx512") return KernelPath::kAvx512;
  return KernelPath::kAuto;
}

void RunInstance(benchmark::State& state, const Reference* reference,
                 std::shared_ptr<const Qubo> model, BetaRangeRule rule,
                 int threads) {
  WorkerPool pool(threads);
  std::unique_ptr<Sampler> sampler = NewCpuSaSampler(&pool);
  SampleParams params;
  params.num_sweeps = absl::GetFlag(FLAGS_sweeps);
  params.beta_range_rule = rule;
  params.kernel = ParseKernel(absl::GetFlag(FLAGS_kernel));
  const BetaRange range = BetaRangeFor(rule, *model);
  params.beta_hot = range.hot * absl::GetFlag(FLAGS_hot_scale);
  params.beta_cold = range.cold * absl::GetFlag(FLAGS_cold_scale);
  // Enough reads per call to fill every lane of every thread a few times.
  params.num_reads = 64 * threads;
  const double target =
      reference->ground_energy +
      1e-6 * std::max(1.0, std::abs(reference->ground_energy));
  Result result;
  for (auto _ : state) {
    CollectSink sink(target);
    int64_t attempts = 0;
    int64_t accepted = 0;
    absl::Duration elapsed;
    double cpu_seconds = 0;
    std::string kernel;
    for (int call = 0;; ++call) {
      params.seed = 1000003 * static_cast<uint64_t>(call) + 17;
      Interrupter interrupter;
      const absl::Time start = absl::Now();
      const double cpu_start = ProcessCpuSeconds();
      auto stats = sampler->Sample(*model, params, sink, interrupter);
      cpu_seconds += ProcessCpuSeconds() - cpu_start;
      elapsed += absl::Now() - start;
      if (!stats.ok()) {
        state.SkipWithError(std::string(stats.status().message()).c_str());
        return;
      }
      attempts += stats->spin_update_attempts;
      accepted += stats->accepted_flips;
      kernel = stats->kernel;
      const double seconds = absl::ToDoubleSeconds(elapsed);
      if (seconds >= absl::GetFlag(FLAGS_max_time)) break;
      if (seconds >= absl::GetFlag(FLAGS_min_time) &&
          sink.successes() >= absl::GetFlag(FLAGS_min_successes)) {
        break;
      }
    }
    const double seconds = absl::ToDoubleSeconds(elapsed);
    state.SetIterationTime(seconds);
    result.instance = reference->name;
    result.rule = rule == BetaRangeRule::kDwave ? "dwave" : "tuned";
    result.threads = threads;
    result.n = model->num_variables();
    result.ns_per_attempt_per_core = seconds * threads * 1e9 / attempts;
    result.cpu_ns_per_attempt = cpu_seconds * 1e9 / attempts;
    result.acceptance = static_cast<double>(accepted) / attempts;
    result.attempts_per_second = attempts / seconds;
    result.reads = sink.reads();
    result.successes = sink.successes();
    result.read_seconds = seconds / sink.reads();
    result.cpu_read_seconds = cpu_seconds / sink.reads();
    const double p = static_cast<double>(result.successes) / result.reads;
    result.tts_seconds = Tts99(result.read_seconds, p);
    result.kernel = kernel;
    result.reference = reference;
  }
  state.counters["ns_per_att"] = result.ns_per_attempt_per_core;
  state.counters["cpu_ns_per_att"] = result.cpu_ns_per_attempt;
  state.counters["accept_rate"] = result.acceptance;
  state.counters["att_per_s"] = result.attempts_per_second;
  state.counters["reads"] = static_cast<double>(result.reads);
  state.counters["p"] = static_cast<double>(result.successes) / result.reads;
  state.counters["tts99_ms"] = result.tts_seconds * 1e3;
  Results().push_back(result);
}

std::string Ms(double seconds) {
  if (!std::isfinite(seconds)) return "—";
  const double ms = seconds * 1e3;
  if (ms >= 1000) return absl::StrFormat("%.2f s", seconds);
  if (ms >= 10) return absl::StrFormat("%.1f ms", ms);
  return absl::StrFormat("%.3f ms", ms);
}

std::string Ratio(double theirs, double ours) {
  if (!(theirs > 0) || !std::isfinite(theirs) || !(ours > 0) ||
      !std::isfinite(ours))
    return "—";
  return absl::StrFormat("%.1f×", theirs / ours);
}

// Two tables: throughput, then time to solution. On a busy machine the wall
// clock also counts other processes' time slices; the CPU-time columns do not,
// and "TTS99 2 cores (CPU)" is what two otherwise idle cores would give:
// CPU time per read / 2 * ln(0.01) / ln(1 - p).
void PrintSummary() {
  const std::vector<Result>& results = Results();
  auto find = [&](const Result& one, int threads) -> const Result* {
    for (const Result& r : results) {
      if (r.instance == one.instance && r.rule == one.rule &&
          r.threads == threads) {
        return &r;
      }
    }
    return nullptr;
  };
  std::printf(
      "\n| instance | n | rule | kernel | ns/att 1 thread (wall) | ns/att 1 "
      "thread (CPU) | ns/att 2 threads (CPU) | att/s 1 thread | att/s 2 "
      "threads | D-Wave ns/att | speedup per core (CPU) |\n"
      "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const Result& one : results) {
    if (one.threads != 1) continue;
    const Result* two = find(one, 2);
    const Reference& ref = *one.reference;
    std::printf(
        "| %s | %d | %s | %s | %.2f | %.2f | %s | %.3g | %s | %.1f | %s |\n",
        one.instance.c_str(), one.n, one.rule.c_str(), one.kernel.c_str(),
        one.ns_per_attempt_per_core, one.cpu_ns_per_attempt,
        two ? absl::StrFormat("%.2f", two->cpu_ns_per_attempt).c_str() : "—",
        one.attempts_per_second,
        two ? absl::StrFormat("%.3g", two->attempts_per_second).c_str() : "—",
        ref.dwave_ns_per_attempt,
        Ratio(ref.dwave_ns_per_attempt, one.cpu_ns_per_attempt).c_str());
  }
  std::printf(
      "\n| instance | rule | p (successes/reads) | D-Wave p | TTS99 1 core "
      "(wall) | TTS99 2 cores (wall) | TTS99 2 cores (CPU) | D-Wave TTS99 | "
      "ratio 2 cores (wall) | ratio 2 cores (CPU) |\n"
      "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const Result& one : results) {
    if (one.threads != 1) continue;
    const Result* two = find(one, 2);
    const Reference& ref = *one.reference;
    int64_t reads = one.reads, successes = one.successes;
    if (two != nullptr) reads += two->reads, successes += two->successes;
    const double p = static_cast<double>(successes) / reads;
    const double tts1 = Tts99(one.read_seconds, p);
    const double tts2 = two ? Tts99(two->read_seconds, p) : INFINITY;
    const double cpu_read = two ? two->cpu_read_seconds : one.cpu_read_seconds;
    const double tts2_cpu = Tts99(cpu_read / 2, p);
    const double dwave_tts = ref.dwave_tts_ms * 1e-3;
    std::printf(
        "| %s | %s | %.3g (%lld/%lld)%s | %s | %s | %s | %s | %s | %s | %s "
        "|\n",
        one.instance.c_str(), one.rule.c_str(), p,
        static_cast<long long>(successes), static_cast<long long>(reads),
        ref.best_known ? " vs best known" : "",
        ref.dwave_p >= 0 ? absl::StrFormat("%.3g", ref.dwave_p).c_str() : "—",
        Ms(tts1).c_str(), Ms(tts2).c_str(), Ms(tts2_cpu).c_str(),
        dwave_tts > 0 ? Ms(dwave_tts).c_str() : "—",
        Ratio(dwave_tts, tts2).c_str(), Ratio(dwave_tts, tts2_cpu).c_str());
  }
}

}  // namespace
}  // namespace qs

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (const char* dir = std::getenv("QS_INSTANCES_DIR"); dir != nullptr) {
    absl::SetFlag(&FLAGS_instances_dir, dir);
  }
  absl::ParseCommandLine(argc, argv);
  const std::string only = absl::GetFlag(FLAGS_only);
  const std::vector<std::string> wanted =
      only.empty() ? std::vector<std::string>{}
                   : absl::StrSplit(only, ',', absl::SkipEmpty());
  std::vector<int> thread_counts;
  for (absl::string_view t :
       absl::StrSplit(absl::GetFlag(FLAGS_threads), ',', absl::SkipEmpty())) {
    thread_counts.push_back(std::max(1, std::atoi(std::string(t).c_str())));
  }
  std::vector<qs::BetaRangeRule> rules;
  for (absl::string_view r :
       absl::StrSplit(absl::GetFlag(FLAGS_rules), ',', absl::SkipEmpty())) {
    rules.push_back(r == "dwave" ? qs::BetaRangeRule::kDwave
                                 : qs::BetaRangeRule::kTuned);
  }
  for (const qs::Reference& reference : qs::kReferences) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(),
                                     reference.name) == wanted.end()) {
      continue;
    }
    const std::string path =
        absl::GetFlag(FLAGS_instances_dir) + "/" + reference.name + ".qubo";
    auto wire = qs::formats::ReadQuboFile(path);
    if (!wire.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(),
                   std::string(wire.status().message()).c_str());
      return 1;
    }
    auto model = qs::QuboFromProto(*wire);
    if (!model.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(),
                   std::string(model.status().message()).c_str());
      return 1;
    }
    auto shared = std::make_shared<const qs::Qubo>(*std::move(model));
    for (qs::BetaRangeRule rule : rules) {
      for (int threads : thread_counts) {
        const std::string name = absl::StrFormat(
            "SA/%s/%s/threads:%d", reference.name,
            rule == qs::BetaRangeRule::kDwave ? "dwave" : "tuned", threads);
        benchmark::RegisterBenchmark(name.c_str(), qs::RunInstance, &reference,
                                     shared, rule, threads)
            ->Iterations(1)
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  qs::PrintSummary();
  return 0;
}
